"""What the commanders' attack estimates share: picking the weapons an attack uses, a memo
keyed on units and weapons by identity, and GFF's d6 odds of one attack by its profiles.

Hashing frozen units and weapons is slow and a decision asks for the same estimate many times,
so estimates are memoised on the objects' ``id``; each entry keeps its objects alive, so an id
cannot be reused while the entry stands. May import ``oprlab.game.state``, ``oprlab.memo`` and
``oprlab.units``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from oprlab.game.state import UnitState
from oprlab.mechanics import get_mechanic
from oprlab.memo import game_memo
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.fast import attack_ends
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.units.model import Unit, Weapon

D6 = get_mechanic("d6")


def attack_weapons(
    attacker: UnitState,
    *,
    melee: bool,
    distance: float,
    only: frozenset[str] | None = None,
    skip: frozenset[str] = frozenset(),
) -> tuple[Weapon, ...]:
    """The weapon lines of one attack: melee ones, or ranged ones reaching ``distance``;
    ``only``: just these weapon types, ``skip``: not these (a split shot's two halves).

    Memoised by the unit's identity and, for a shot, the band of its reaches ``distance`` lies
    in (how many of its distinct reaches fall short of it): the same lines for every distance
    in a band, and the commander asks thousands of times a decision."""
    unit = attacker.unit
    reaches = _REACHES.get(id(unit))
    if reaches is None or reaches[0] is not unit:
        if len(_REACHES) >= _WEAPONS_LIMIT:
            _REACHES.clear()
        ranged = sorted({w.range or 0 for w in unit.weapons if not w.melee})
        reaches = _REACHES[id(unit)] = (unit, ranged)
    band = -1 if melee else bisect_left(reaches[1], distance)
    key = (id(unit), band, only, skip)
    hit = _WEAPONS.get(key)
    if hit is not None and hit[0] is unit:
        return hit[1]
    found = tuple(
        w
        for w in unit.weapons
        if (w.melee if melee else (not w.melee and (w.range or 0) >= distance))
        and (w.name in only if only is not None else w.name not in skip)
    )
    if len(_WEAPONS) >= _WEAPONS_LIMIT:
        _WEAPONS.clear()
    _WEAPONS[key] = (unit, found)
    return found


#: :func:`attack_weapons`' answers and each unit's distinct ranged reaches (sorted), by the
#: unit's identity; each entry holds its unit, so the id stays unique while it stands.
_WEAPONS: dict[
    tuple[int, int, frozenset[str] | None, frozenset[str]], tuple[Unit, tuple[Weapon, ...]]
] = game_memo("players.memo._WEAPONS")
_REACHES: dict[int, tuple[Unit, list[int]]] = game_memo("players.memo._REACHES")
_WEAPONS_LIMIT = 4096


#: What an :class:`IdentityMemo` holds (expected points; a defender's profile).
V = TypeVar("V")


class IdentityMemo(Generic[V]):
    """Values keyed on some objects' identities plus plain values, bounded in size. With a
    ``name``, one of the game memos (:mod:`oprlab.memo`: emptied when a game of other armies
    begins, so it never holds a finished game's units)."""

    def __init__(self, name: str | None = None, limit: int = 65536) -> None:
        self.limit = limit
        self._entries: dict[tuple[Hashable, ...], tuple[tuple[object, ...], V]] = (
            {} if name is None else game_memo(name)
        )

    def get(
        self,
        objects: tuple[object, ...],
        values: tuple[Hashable, ...],
        compute: Callable[[], V],
    ) -> V:
        """The value for ``objects`` (by identity) and ``values``, computed once."""
        key = (*map(id, objects), *values)
        hit = self._entries.get(key)
        if hit is not None:
            return hit[1]
        value = compute()
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[key] = (objects, value)
        return value

    def attack(
        self,
        compute: Callable[..., V],
        attacker: UnitState,
        fatigued: bool,
        weapons: tuple[Weapon, ...],
        target: UnitState,
        *rest: Hashable,
    ) -> V:
        """``compute(unit, models, fatigued, weapons, target_unit, target_models, markers,
        shaken, *rest)`` for one attack, memoised on the units and weapons by identity."""
        unit, models, aim = attacker.unit, attacker.models, target.unit
        kept = (target.models, target.markers, target.shaken, *rest)
        # :meth:`get`'s key, spelled out: asked thousands of times a decision, nearly all hits
        key = (id(unit), *map(id, weapons), id(aim), len(weapons), models, fatigued, *kept)
        hit = self._entries.get(key)
        if hit is not None:
            return hit[1]
        return self.get(
            (unit, *weapons, aim),
            (len(weapons), models, fatigued, *kept),
            lambda: compute(unit, models, fatigued, weapons, aim, *kept),
        )

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


def attack_odds(
    profiles: tuple[AttackProfile, ...], d: DefenderProfile, s: Situation
) -> tuple[float, float, float]:
    """One GFF attack's expected casualties, chance to Shake and chance to destroy under d6
    (:data:`_ODDS`): the rules commander's points and break chances and GFF's strike-back
    choice ask the same odds."""
    key = (profiles, d, s)
    found = _ODDS.get(key)
    if found is None:
        lost, p_destroyed, p_shaken = attack_ends(profiles, d, s, D6)
        found = (sum(k * p for k, p in enumerate(lost)), p_shaken, p_destroyed)
        if len(_ODDS) >= _ODDS_LIMIT:
            _ODDS.clear()
        _ODDS[key] = found
    return found


#: :func:`attack_odds`' answers by what the odds depend on: the attack profiles (dice, quality
#: and weapon rules), the defender's profile (Defense, models and wounds left) and the
#: situation. The estimates' identity memo misses whenever either unit loses a model or a
#: wound, but other pairs of units often ask the same odds (a third of the misses in
#: 600-point games). Only numbers (no units held): a global memo, emptied whole at its limit.
_ODDS: dict[
    tuple[tuple[AttackProfile, ...], DefenderProfile, Situation], tuple[float, float, float]
] = {}
_ODDS_LIMIT = 16384
