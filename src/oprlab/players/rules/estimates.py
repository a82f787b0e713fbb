"""The rules commander's estimates: how a unit is classed, and what one attack is worth.

Every number is an exact-odds expectation at d6 (GFF's :mod:`oprlab.rules.gff.fast`; Riverside's
own in :mod:`oprlab.players.riverside_odds`, chosen by the system's habits, never by its name).
Memoised by identity: a frozen Unit's hash walks all its fields on every call.
"""

from __future__ import annotations

from bisect import bisect_left
from enum import StrEnum
from functools import cache, lru_cache
from typing import Protocol

from oprlab.game.state import UnitState
from oprlab.memo import game_memo
from oprlab.players.memo import attack_odds, attack_weapons
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.profile import (
    DefenderProfile,
    attack_profiles,
    defender_profile,
)
from oprlab.units.model import Unit, Weapon


class Damage(Protocol):
    """Expected points of ``target`` one attack of ``attacker`` removes (a system's odds)."""

    def __call__(
        self,
        attacker: UnitState,
        target: UnitState,
        *,
        melee: bool,
        distance: float,
        charging: bool,
        only: frozenset[str] | None = None,
        skip: frozenset[str] = frozenset(),
        cover: bool = False,
    ) -> float: ...


class Role(StrEnum):
    MELEE = "melee"
    SHOOTING = "shooting"
    HYBRID = "hybrid"


#: The roles by plain names (``Role.MELEE`` is looked up through ``EnumType.__getattr__``
#: in Python 3.11, as :data:`.view.HOLD` says of kinds).
MELEE, SHOOTING = Role.MELEE, Role.SHOOTING


@lru_cache(maxsize=4096)
def role(unit: Unit) -> Role:
    """Melee, shooting or hybrid by attack dice (ranged dice count double: they act sooner)."""
    ranged = sum(w.count * w.attacks for w in unit.weapons if not w.melee)
    melee = sum(w.count * w.attacks for w in unit.weapons if w.melee)
    melee += unit.rating("Impact") or 0
    if ranged * 2 >= melee * 3:
        return Role.SHOOTING
    if melee >= ranged * 3:
        return Role.MELEE
    return Role.HYBRID


#: The Defense roll :func:`output_role` measures output against (a typical 4+ save).
REFERENCE_DEFENSE = 4


def _through(w: Weapon) -> float:
    """Wounds per attack die of ``w`` that get past a Defense 4+ save (hit chance aside: it is
    the unit's Quality for every weapon): AP worsens the save, Blast(X) multiplies hits,
    Deadly(X) wounds."""
    saves = max(0, min(5, 7 - REFERENCE_DEFENSE - (w.rating("AP") or 0))) / 6
    return (1.0 - saves) * (w.rating("Blast") or 1) * (w.rating("Deadly") or 1)


@lru_cache(maxsize=4096)
def output_role(unit: Unit) -> Role:
    """Melee, shooting or hybrid by expected output: each weapon's attack dice times the
    wounds each gets through a 4+ save, Impact(X) as X melee hits at AP(0). A unit whose
    ranged output is at least its melee output shoots (it can every round, from afar); one
    whose melee output is at least twice its ranged output fights; the rest are hybrid."""
    ranged = sum(w.count * w.attacks * _through(w) for w in unit.weapons if not w.melee)
    melee = sum(w.count * w.attacks * _through(w) for w in unit.weapons if w.melee)
    melee += (unit.rating("Impact") or 0) * 0.5
    if ranged > 0 and ranged >= melee:
        return Role.SHOOTING
    if melee >= 2 * ranged:
        return Role.MELEE
    return Role.HYBRID


#: Per-unit facts by identity (a frozen Unit's hash walks all its fields on every call): the
#: unit itself (held so its id stays unique), its role, its distinct ranged reaches (sorted),
#: its role by output (:func:`output_role`).
_UNIT_FACTS: dict[int, tuple[Unit, Role, list[int], Role]] = game_memo(
    "players.rules.estimates._UNIT_FACTS"
)
_CACHE_LIMIT = 4096


def unit_facts(unit: Unit) -> tuple[Unit, Role, list[int], Role]:
    facts = _UNIT_FACTS.get(id(unit))
    if facts is None or facts[0] is not unit:
        if len(_UNIT_FACTS) >= _CACHE_LIMIT:
            _UNIT_FACTS.clear()
        reaches = sorted({w.range or 0 for w in unit.weapons if not w.melee})
        facts = _UNIT_FACTS[id(unit)] = (unit, role(unit), reaches, output_role(unit))
    return facts


def unit_role(unit: Unit) -> Role:
    return unit_facts(unit)[1]


def value_per_model(us: UnitState) -> float:
    return us.unit.cost / max(1, us.unit.size)


def expected_damage(
    attacker: UnitState,
    target: UnitState,
    *,
    melee: bool,
    distance: float,
    charging: bool,
    only: frozenset[str] | None = None,
    skip: frozenset[str] = frozenset(),
    cover: bool = False,
) -> float:
    """Expected points of ``target`` removed by one GFF attack of ``attacker`` (d6 exact odds).

    ``only``: just these weapon types; ``skip``: not these (a split shot's two halves);
    ``cover``: the target has cover from the shot (seed 003 "Cover Terrain": +1 to Defense).

    Memoised in :data:`_EXPECTED` on the question as asked: the attacker's profile (by
    identity) and the band of its reaches ``distance`` lies in (-1 in melee), which with
    ``only`` and ``skip`` give its weapons (as :func:`attack_weapons` picks them); its models
    and, in melee, Fatigued; the target's profile (by identity), models, wound markers and
    Shaken; charging, long range and, for a shot, cover: all :func:`_expected` reads. One
    lookup where the weapons' memo and an identity memo on the weapons were two (2,230 asks in
    two 600-point games, half of them found).
    """
    unit, models, aim = attacker.unit, attacker.models, target.unit
    fatigued = attacker.fatigued and melee
    band = -1 if melee else bisect_left(unit_facts(unit)[2], distance)
    far = distance > LONG_RANGE
    shot_cover = cover and not melee
    key = (
        id(unit), band, only, skip, models, fatigued, id(aim), target.models, target.markers,
        target.shaken, charging, far, shot_cover,
    )  # fmt: skip
    hit = _EXPECTED.get(key)
    if hit is not None:
        return hit[2]
    weapons = attack_weapons(attacker, melee=melee, distance=distance, only=only, skip=skip)
    value = 0.0
    if weapons and models > 0 and target.models > 0:
        value = _expected(
            unit, models, fatigued, weapons, aim, target.models, target.markers, target.shaken,
            melee, charging, far, shot_cover,
        )  # fmt: skip
    if len(_EXPECTED) >= _EXPECTED_LIMIT:
        _EXPECTED.clear()
    _EXPECTED[key] = (unit, aim, value)
    return value


#: :func:`expected_damage`'s answers; each entry holds both units, so their ids stay unique
#: while it stands (a game memo: emptied when a game of other armies begins).
_EXPECTED: dict[tuple[object, ...], tuple[Unit, Unit, float]] = game_memo(
    "players.rules.estimates._EXPECTED"
)
_EXPECTED_LIMIT = 65536


def _expected(
    unit: Unit,
    models: int,
    fatigued: bool,
    weapons: tuple[Weapon, ...],
    target: Unit,
    target_models: int,
    markers: int,
    shaken: bool,
    melee: bool,
    charging: bool,
    far: bool,
    cover: bool = False,
) -> float:
    profiles = tuple(p for p in attack_profiles(unit, weapons, alive=models) if p.dice > 0)
    if not profiles:
        return 0.0
    s = _situation(melee, charging, far, fatigued, cover)
    d = _defender(target, target_models, markers, shaken)
    casualties, p_shaken, _ = attack_odds(profiles, d, s)
    shaken_bonus = 0.3 * p_shaken * target.cost
    return float(casualties) * target.cost / max(1, target.size) + shaken_bonus


def break_chance(
    attacker: UnitState,
    target: UnitState,
    *,
    distance: float,
    only: frozenset[str] | None = None,
    skip: frozenset[str] = frozenset(),
    cover: bool = False,
    charge: bool = False,
) -> float:
    """The chance one GFF shot of ``attacker`` (``charge``: its charge's melee attack) leaves
    ``target`` destroyed or Shaken (d6 exact odds): either way it no longer contests or seizes
    a marker (seed 003 "Shaken")."""
    weapons = attack_weapons(attacker, melee=charge, distance=distance, only=only, skip=skip)
    if not weapons or attacker.models <= 0 or target.models <= 0:
        return 0.0
    profiles = tuple(
        p for p in attack_profiles(attacker.unit, weapons, alive=attacker.models) if p.dice > 0
    )
    if not profiles:
        return 0.0
    if charge:  # as :func:`expected_damage` scores a charge's fight
        s = _situation(True, True, False, attacker.fatigued, False)
    else:
        s = _situation(False, False, distance > LONG_RANGE, False, cover)
    d = _defender(target.unit, target.models, target.markers, target.shaken)
    _, p_shaken, p_destroyed = attack_odds(profiles, d, s)
    return min(1.0, p_destroyed + p_shaken)


@cache
def _situation(melee: bool, charging: bool, far: bool, fatigued: bool, cover: bool) -> Situation:
    """The situation the estimates measure in (at long range or not), made once: a frozen
    dataclass costs thousands of instructions to build, and a miss of the estimates' memo
    needs one (32 of them at most)."""
    return Situation(
        melee=melee,
        charging=charging,
        distance=LONG_RANGE + 1 if far else 0.0,
        fatigued=fatigued,
        cover=cover,
    )


def _defender(unit: Unit, models: int, markers: int, shaken: bool) -> DefenderProfile:
    """:func:`defender_profile` by the unit's identity (reading its rules walks them) and
    the numbers that change in a game."""
    key = (id(unit), models, markers, shaken)
    hit = _DEFENDERS.get(key)
    if hit is not None and hit[0] is unit:
        return hit[1]
    found = defender_profile(unit, models=models, markers=markers, shaken=shaken)
    if len(_DEFENDERS) >= _CACHE_LIMIT:
        _DEFENDERS.clear()
    _DEFENDERS[key] = (unit, found)
    return found


#: :func:`_defender`'s answers; each entry holds its unit, so the id stays unique. Written out
#: rather than an :class:`IdentityMemo` (whose ``get`` builds its key from the objects and
#: takes the work as a closure): through it a 300-point game cost 1.2% more instructions.
_DEFENDERS: dict[tuple[int, int, int, bool], tuple[Unit, DefenderProfile]] = game_memo(
    "players.rules.estimates._DEFENDERS"
)


def pair_estimate(
    damage: Damage,
    attacker: UnitState,
    target: UnitState,
    *,
    melee: bool,
    distance: float,
    charging: bool,
    band: int,
) -> float:
    """``damage(attacker, target, ...)`` for one attack, remembered across a game's decisions.

    A decision's :class:`.view.View` keeps its estimates by the units' uids, so each decision
    asked the system's odds again for every pair (about 20 a decision, each through the
    weapons' lookup and the odds memo's key); most pairs stand as they stood the decision
    before. The key is what an estimate reads of the two units (profile by identity, models,
    wound markers, Shaken, Fatigued) and of the attack: melee, charging, and for a shot the band
    of the attacker's reaches ``distance`` lies in (``band``, the weapons that reach) and
    whether it is at long range, which is all the odds read of the distance.
    """
    a, t = attacker.unit, target.unit
    key = (
        id(damage), id(a), attacker.models, attacker.markers, attacker.shaken,
        attacker.fatigued, id(t), target.models, target.markers, target.shaken,
        target.fatigued, melee, charging, band, distance > LONG_RANGE,
    )  # fmt: skip
    hit = _PAIRS.get(key)
    if hit is not None:
        return hit[3]
    value = damage(attacker, target, melee=melee, distance=distance, charging=charging)
    if len(_PAIRS) >= _PAIRS_LIMIT:
        _PAIRS.clear()
    _PAIRS[key] = (damage, a, t, value)
    return value


#: :func:`pair_estimate`'s answers; each entry holds its function and units, so their ids stay
#: unique while it stands.
_PAIRS: dict[tuple[object, ...], tuple[Damage, Unit, Unit, float]] = game_memo(
    "players.rules.estimates._PAIRS"
)
_PAIRS_LIMIT = 65536
