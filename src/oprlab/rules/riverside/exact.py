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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Outcome
from oprlab.prob import Dist, add, repeat_sum
from oprlab.rules.riverside.attack import (
    READINGS,
    Hit,
    Readings,
    Situation,
    defense_check,
    hit_check,
    hits_from,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.riverside.casualties import assign_deadly, assign_wounds, casualties_at
from oprlab.rules.riverside.morale import (
    fails_automatically,
    morale_check,
    morale_due,
    morale_failure,
)
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile

#: One die's result: (hits, ordinary wounds, Deadly wound packets in order).
DieResult = tuple[int, int, tuple[int, ...]]


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


def require_stateless(mechanic: Mechanic) -> None:
    """Exact composition multiplies independent dice: a stateful mechanic is played out."""
    if mechanic.deterministic:
        raise OptionError(
            "exact composition needs a random mechanic; a deterministic one is resolved directly",
            value=mechanic.name,
            expected="d6 (use resolve_attack for the clock)",
        )


def wounds_per_hit(
    p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit, mech: Mechanic
) -> Dist[int]:
    """Wounds one hit causes: the Defense roll, Deadly, then Regeneration for each wound."""

    def after_block(block: Outcome) -> Dist[int]:
        size = wounds_from_block(p, block)
        if not size or not regenerates(d):
            return Dist.point(size)
        stays = mech.outcomes(regeneration_check(p, s)).map(lambda o: int(not o.success))
        return repeat_sum(stays, size)

    return mech.outcomes(defense_check(p, s, d, hit)).bind(after_block)


def die_result(
    p: AttackProfile,
    s: Situation,
    d: DefenderProfile,
    mech: Mechanic,
    r: Readings = READINGS,
) -> Dist[DieResult]:
    """The whole chain of one attack die of weapon ``p``."""
    require_stateless(mech)
    per_hit: dict[Hit, Dist[int]] = {}

    def after_hit(hits: tuple[Hit, ...]) -> Dist[DieResult]:
        out: Dist[DieResult] = Dist.point((len(hits), 0, ()))
        for hit in hits:
            if hit not in per_hit:
                per_hit[hit] = wounds_per_hit(p, s, d, hit, mech)
            out = out.bind(_adder(per_hit[hit], p.deadly > 1))
        return out

    rolls = mech.outcomes(hit_check(p, s, d, r))
    return rolls.map(lambda o: hits_from(p, s, d, o, r)).bind(after_hit)


def _adder(w: Dist[int], deadly: bool) -> Callable[[DieResult], Dist[DieResult]]:
    """Add one hit's wounds to a die's result: as a Deadly packet, or as ordinary wounds."""

    def add_to(res: DieResult) -> Dist[DieResult]:
        hits, ordinary, packets = res
        if deadly:
            return w.map(lambda x: (hits, ordinary, (*packets, x)))
        return w.map(lambda x: (hits, ordinary + x, packets))

    return add_to


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
    hits: Dist[int] = Dist.point(0)
    wounds: Dist[int] = Dist.point(0)
    ordinary: Dist[int] = Dist.point(0)
    deadly_dice: list[tuple[Dist[tuple[int, ...]], int]] = []
    for p in weapons:
        if p.dice <= 0:
            continue
        die = die_result(p, s, d, mech, r)
        hits = add(hits, repeat_sum(die.map(lambda x: x[0]), p.dice))
        wounds = add(wounds, repeat_sum(die.map(lambda x: x[1] + sum(x[2])), p.dice))
        if p.deadly > 1:
            deadly_dice.append((die.map(lambda x: x[2]), p.dice))
        else:
            ordinary = add(ordinary, repeat_sum(die.map(lambda x: x[1]), p.dice))
    # Ordinary wounds are assigned first, then each die's Deadly packets in rolling order.
    state: Dist[int] = ordinary.map(lambda w: assign_wounds(d, 0, w))
    for packets, dice in deadly_dice:
        step = _packet_step(d, packets)
        for _ in range(dice):
            state = state.bind(step)
    ends = state.bind(lambda c: end_at(d, c, s, mech, r))
    return AttackOdds(
        hits=hits,
        wounds=wounds,
        casualties=ends.map(lambda e: e.removed),
        p_destroyed=ends.probability(lambda e: e.destroyed),
        p_morale=ends.probability(lambda e: e.tested),
        p_routed=ends.probability(lambda e: e.routed),
        p_shaken=None if s.melee else ends.probability(lambda e: e.shaken),
    )


def _packet_step(d: DefenderProfile, packets: Dist[tuple[int, ...]]) -> Callable[[int], Dist[int]]:
    def step(consumed: int) -> Dist[int]:
        return packets.map(lambda pk: assign_deadly(d, consumed, pk))

    return step


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
