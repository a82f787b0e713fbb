"""Exact distributions of a GFF attack for a stateless mechanic (the d6).

Each attack die's whole chain (hit roll, extra hits, Blast, a Defense roll per hit with Bane's
re-roll, Deadly, Regeneration) is composed first, so a natural 6 stays tied to the die that
rolled it; only then are the dice summed. The hooks are those of :mod:`~oprlab.rules.gff.attack`,
the same ones :func:`~oprlab.rules.gff.resolve.resolve_attack` rolls one by one.

Probabilities are exact Fractions here; :mod:`oprlab.rules.gff.fast` is the float fast path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Outcome
from oprlab.prob import Dist, add, repeat_sum
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    bane_reroll,
    defense_check,
    hit_check,
    hits_from,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, take_wounds, wound_effect_check

#: One die's result: (hits, ordinary wounds, Deadly wound sizes in order).
DieResult = tuple[int, int, tuple[int, ...]]


@dataclass(frozen=True)
class AttackOdds:
    """Exact distributions of one unit's attack on one target.

    Attributes:
        hits: hits after extra hits and Blast.
        wounds: wounds after Defense, Deadly and Regeneration.
        casualties: models removed.
        p_destroyed: the target is wiped out.
        p_shaken: the target survives with a Shaken wound effect.
    """

    hits: Dist[int]
    wounds: Dist[int]
    casualties: Dist[int]
    p_destroyed: Fraction
    p_shaken: Fraction


def _require_stateless(mechanic: Mechanic) -> None:
    if mechanic.deterministic:
        raise OptionError(
            "exact composition needs a random mechanic; a deterministic one is resolved directly",
            value=mechanic.name,
            expected="d6 (use resolve_attack for the clock)",
        )


def wounds_per_hit(
    p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit, mech: Mechanic
) -> Dist[int]:
    """Wounds one hit causes: Defense roll (Bane re-rolls a 6), Deadly, Regeneration."""
    blocks = mech.outcomes(defense_check(p, s, d, hit))

    def reroll(block: Outcome) -> Dist[Outcome]:
        return blocks if bane_reroll(p, block) else Dist.point(block)

    def after_block(block: Outcome) -> Dist[int]:
        size = wounds_from_block(p, block)
        if not size or not regenerates(p, d):
            return Dist.point(size)
        stays = mech.outcomes(regeneration_check(s)).map(lambda o: int(not o.success))
        return repeat_sum(stays, size)

    return blocks.bind(reroll).bind(after_block)


def die_result(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech: Mechanic
) -> Dist[DieResult]:
    """The whole chain of one attack die of weapon ``p``."""
    _require_stateless(mech)
    per_hit: dict[Hit, Dist[int]] = {}

    def after_hit(hits: tuple[Hit, ...]) -> Dist[DieResult]:
        out: Dist[DieResult] = Dist.point((len(hits), 0, ()))
        for hit in hits:
            if hit not in per_hit:
                per_hit[hit] = wounds_per_hit(p, s, d, hit, mech)
            out = out.bind(_adder(per_hit[hit], p.deadly > 1))
        return out

    return mech.outcomes(hit_check(p, s, d)).map(lambda o: hits_from(p, s, d, o)).bind(after_hit)


def _adder(w: Dist[int], deadly: bool) -> Callable[[DieResult], Dist[DieResult]]:
    """Add one hit's wounds to a die's result: as a Deadly packet, or as ordinary wounds."""

    def add_to(r: DieResult) -> Dist[DieResult]:
        hits, ordinary, packets = r
        if deadly:
            return w.map(lambda x: (hits, ordinary, (*packets, x)))
        return w.map(lambda x: (hits, ordinary + x, packets))

    return add_to


def attack_odds(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
) -> AttackOdds:
    """Exact odds of one unit's attack, all weapons at one target (seed 003)."""
    _require_stateless(mech)
    ordered = sorted(weapons, key=lambda p: p.deadly == 1)
    hits: Dist[int] = Dist.point(0)
    wounds: Dist[int] = Dist.point(0)
    ordinary: Dist[int] = Dist.point(0)
    spare = max(0, d.models - 1)
    # Deadly packets: state (models killed, markers on the last model), packets in die order.
    deadly_state: Dist[tuple[int, int]] = Dist.point((0, 0))
    for p in ordered:
        if p.dice <= 0:
            continue
        die = die_result(p, s, d, mech)
        hits = add(hits, repeat_sum(die.map(lambda r: r[0]), p.dice))
        wounds = add(wounds, repeat_sum(die.map(lambda r: r[1] + sum(r[2])), p.dice))
        if p.deadly > 1:
            step = _packet_step(die.map(lambda r: r[2]), spare)
            for _ in range(p.dice):
                deadly_state = deadly_state.bind(step)
        else:
            ordinary = add(ordinary, repeat_sum(die.map(lambda r: r[1]), p.dice))
    fear_now = fear if s.melee else 0

    def final(state_and_w: tuple[tuple[int, int], int]) -> Dist[tuple[int, bool, bool]]:
        (killed, markers), w = state_and_w
        extra = min(w, spare - killed)
        damage = Damage(killed + extra, markers + w - extra)
        if not rolls_wound_effect(d, damage, fear_now):
            return Dist.point((damage.killed, damage.killed >= d.models, False))
        effect = mech.outcomes(wound_effect_check(d, damage, s.defender, fear_now))
        return effect.map(
            lambda o: (damage.killed + int(not o.success), not o.success, bool(o.success))
        )

    joint = deadly_state.bind(lambda km: ordinary.map(lambda w: (km, w))).bind(final)
    return AttackOdds(
        hits=hits,
        wounds=wounds,
        casualties=joint.map(lambda r: r[0]),
        p_destroyed=joint.probability(lambda r: r[1] or r[0] >= d.models),
        p_shaken=joint.probability(lambda r: r[2]),
    )


def _packet_step(
    packets: Dist[tuple[int, ...]], spare: int
) -> Callable[[tuple[int, int]], Dist[tuple[int, int]]]:
    def step(km: tuple[int, int]) -> Dist[tuple[int, int]]:
        return packets.map(lambda pk: take_wounds_from(km, pk, spare))

    return step


def take_wounds_from(km: tuple[int, int], packets: tuple[int, ...], spare: int) -> tuple[int, int]:
    """Continue :func:`take_wounds`'s Deadly rule from a state (killed, markers)."""
    killed, markers = km
    for size in packets:
        if size <= 0:
            continue
        if killed < spare:
            killed += 1
        else:
            markers += size
    return killed, markers


__all__ = ["AttackOdds", "attack_odds", "die_result", "take_wounds", "wounds_per_hit"]
