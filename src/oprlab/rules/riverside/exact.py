"""Exact distributions of a Riverside attack for a stateless mechanic (the d6).

Each attack die's whole chain (hit roll, Critical Hit, Bonus Hits, Blast, a Defense roll per
hit, Deadly, Regeneration) is composed first, so a Critical Hit stays tied to the die that
rolled it; only then are the dice summed. Casualties follow by a small dynamic programme over
the casualty state (how far along the wound track the wounds came,
:mod:`~oprlab.rules.riverside.casualties`), and the Morale Test is composed on each end state.
The hooks are those of :mod:`~oprlab.rules.riverside.attack`, the same ones
:func:`~oprlab.rules.riverside.resolve.resolve_attack` rolls one by one.

Probabilities are exact Fractions here; :mod:`oprlab.rules.riverside.fast` is the float path.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.prob`` and ``oprlab.rules.riverside``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from oprlab.mechanics import Mechanic
from oprlab.prob import Dist
from oprlab.rules import attack_chain
from oprlab.rules.attack_chain import DieResult, require_stateless
from oprlab.rules.riverside.attack import READINGS, Hit, Readings, RiversideHooks, Situation
from oprlab.rules.riverside.casualties import assign_deadly, assign_wounds, casualties_at
from oprlab.rules.riverside.morale import (
    fails_automatically,
    morale_check,
    morale_due,
    morale_failure,
)
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile


class End(NamedTuple):
    """How an attack ends for the target: casualties, then the Morale Test."""

    removed: int
    destroyed: bool
    tested: bool
    routed: bool
    shaken: bool


@dataclass(frozen=True)
class AttackOdds:
    """Exact distributions of one unit's attack on one target.

    Attributes:
        hits: hits after Bonus Hits and Blast.
        wounds: wounds caused after Defense, Deadly and Regeneration.
        casualties: models removed.
        p_destroyed: every model is removed by wounds.
        p_morale: the target takes a Morale Test.
        p_routed: it fails and Routs.
        p_shaken: it ends the attack Shaken and in play (``None`` in melee, where morale waits
            for Return Strikes).
    """

    hits: Dist[int]
    wounds: Dist[int]
    casualties: Dist[int]
    p_destroyed: Fraction
    p_morale: Fraction
    p_routed: Fraction
    p_shaken: Fraction | None


def wounds_per_hit(
    p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit, mech: Mechanic
) -> Dist[int]:
    """Wounds one hit causes: the Defense roll, Deadly, then Regeneration for each wound."""
    return attack_chain.wounds_per_hit(RiversideHooks(), p, s, d, hit, mech)


def die_result(
    p: AttackProfile,
    s: Situation,
    d: DefenderProfile,
    mech: Mechanic,
    r: Readings = READINGS,
) -> Dist[DieResult]:
    """The whole chain of one attack die of weapon ``p``."""
    return attack_chain.die_result(RiversideHooks(r), p, s, d, mech)


def end_at(
    d: DefenderProfile,
    consumed: int,
    s: Situation,
    mech: Mechanic,
    r: Readings = READINGS,
) -> Dist[End]:
    """The end of an attack whose wounds came ``consumed`` far along the track: casualties,
    then the Morale Test if one is due (a Shaken unit fails it without rolling)."""
    after = casualties_at(d, consumed)
    in_play = not after.destroyed
    if not morale_due(d, after, s):
        shaken = in_play and d.shaken and not s.melee
        return Dist.point(End(after.removed, after.destroyed, False, False, shaken))
    routs = morale_failure(d, after, s, r) == "rout"

    def failed(fail: bool) -> End:
        routed = fail and routs
        shaken = in_play and not routed and (fail or d.shaken)
        return End(after.removed, after.destroyed, True, routed, shaken)

    if fails_automatically(d):
        return Dist.point(failed(True))
    return mech.outcomes(morale_check(d, after, s)).map(lambda o: failed(not o.success))


def attack_odds(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    readings: Readings = READINGS,
) -> AttackOdds:
    """Exact odds of one unit's attack, all weapons at one target (seed 002)."""
    require_stateless(mech)
    r = readings
    dice = attack_chain.sum_dice(weapons, lambda p: die_result(p, s, d, mech, r))
    # Ordinary wounds are assigned first, then each die's Deadly packets in rolling order.
    state = attack_chain.fold_packets(
        dice.ordinary.map(lambda w: assign_wounds(d, 0, w)),
        dice.deadly,
        lambda consumed, pk: assign_deadly(d, consumed, pk),
    )
    ends = state.bind(lambda c: end_at(d, c, s, mech, r))
    return AttackOdds(
        hits=dice.hits,
        wounds=dice.wounds,
        casualties=ends.map(lambda e: e.removed),
        p_destroyed=ends.probability(lambda e: e.destroyed),
        p_morale=ends.probability(lambda e: e.tested),
        p_routed=ends.probability(lambda e: e.routed),
        p_shaken=None if s.melee else ends.probability(lambda e: e.shaken),
    )


__all__ = [
    "AttackOdds",
    "DieResult",
    "End",
    "attack_odds",
    "die_result",
    "end_at",
    "require_stateless",
    "wounds_per_hit",
]
