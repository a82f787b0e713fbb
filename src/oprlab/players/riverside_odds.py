"""The rules commander's attack estimates for Riverside games, from Riverside's own odds.

GFF and Riverside differ on the same names (Rending, Blast, Furious, Fatigue, morale), so a
commander that scores Riverside attacks with GFF's odds misjudges them. This module answers
:func:`expected_damage` with :func:`oprlab.rules.riverside.fast.attack_odds_fast` (d6, the
default readings), with the cost discipline of the GFF path in ``rules.estimates``: results are
memoised by the identity of the units and weapons (hashing frozen units is slow), and the fast
path itself caches each die's chain across a game.

May import ``oprlab.game`` state, ``oprlab.rules.riverside`` (its profiles spread the weapon
lines evenly, as the game does) and ``oprlab.mechanics``.
"""

from __future__ import annotations

from oprlab.game.state import UnitState
from oprlab.mechanics import get_mechanic
from oprlab.players.memo import IdentityMemo, attack_weapons
from oprlab.rules.riverside.attack import Situation
from oprlab.rules.riverside.fast import attack_odds_fast
from oprlab.rules.riverside.profile import attack_profiles, defender_profile
from oprlab.units.model import Unit, Weapon

D6 = get_mechanic("d6")
#: A Shaken target is worth this share of its points (it cannot contest markers, fails morale).
SHAKEN_SHARE = 0.3

_MEMO: IdentityMemo[float] = IdentityMemo("players.riverside_odds._MEMO")


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
    """Expected points of ``target`` removed by one Riverside attack of ``attacker``.

    Casualties at the target's points per model, plus a share of its points for being left
    Shaken (ranged: the Morale Test comes with the attack) and the models a Rout removes.
    In melee every model attacks (the odds layer has no table) and a Shaken or Fatigued
    attacker strikes on 6s only. ``only``/``skip`` select weapon types (a split shot);
    ``cover``: the target has Cover from the shot (seed 002: +1 to Defense, not against Blast).
    """
    weapons = attack_weapons(attacker, melee=melee, distance=distance, only=only, skip=skip)
    if not weapons or attacker.models <= 0 or target.models <= 0:
        return 0.0
    fatigued = melee and (attacker.fatigued or attacker.shaken)
    if cover and not melee:
        return _MEMO.attack(_expected, attacker, fatigued, weapons, target, melee, charging, True)
    return _MEMO.attack(_expected, attacker, fatigued, weapons, target, melee, charging)


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
    cover: bool = False,
) -> float:
    profiles = [p for p in attack_profiles(unit, weapons, alive=models) if p.dice > 0]
    if not profiles:
        return 0.0
    s = Situation(melee=melee, charging=charging, fatigued=fatigued, cover=cover)
    d = defender_profile(
        target, models=target_models, wounds=markers, shaken=shaken, started=target.size
    )
    odds = attack_odds_fast(profiles, d, s, D6)
    per_model = target.cost / max(1, target.size)
    casualties = float(sum(k * p for k, p in enumerate(odds.casualties)))
    value = (
        casualties * per_model + odds.p_routed * max(0.0, target_models - casualties) * per_model
    )
    if odds.p_shaken is not None and not shaken:
        value += SHAKEN_SHARE * odds.p_shaken * target.cost
    return value


def clear() -> None:
    """Forget the memo (tests and cold-start timing)."""
    _MEMO.clear()
