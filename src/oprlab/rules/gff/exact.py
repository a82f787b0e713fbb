"""Exact distributions of a GFF attack for a stateless mechanic (the d6).

Each attack die's whole chain (hit roll, extra hits, Blast, a Defense roll per hit with Bane's
re-roll, Deadly, Regeneration) is composed first, so a natural 6 stays tied to the die that
rolled it; only then are the dice summed. The hooks are those of :mod:`~oprlab.rules.gff.attack`,
the same ones :func:`~oprlab.rules.gff.resolve.resolve_attack` rolls one by one.

Probabilities are exact Fractions here; :mod:`oprlab.rules.gff.fast` is the float fast path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from oprlab.mechanics import Mechanic
from oprlab.prob import Dist
from oprlab.rules import attack_chain
from oprlab.rules.attack_chain import DieResult, require_stateless
from oprlab.rules.gff.attack import HOOKS, Hit, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import (
    Damage,
    rolls_wound_effect,
    take_wounds,
    take_wounds_from,
    wound_effect_check,
)


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


def wounds_per_hit(
    p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit, mech: Mechanic
) -> Dist[int]:
    """Wounds one hit causes: Defense roll (Bane re-rolls a 6), Deadly, Regeneration."""
    return attack_chain.wounds_per_hit(HOOKS, p, s, d, hit, mech)


def die_result(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech: Mechanic
) -> Dist[DieResult]:
    """The whole chain of one attack die of weapon ``p``."""
    return attack_chain.die_result(HOOKS, p, s, d, mech)


def attack_odds(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
) -> AttackOdds:
    """Exact odds of one unit's attack, all weapons at one target (seed 003)."""
    require_stateless(mech)
    # "Hits from Deadly must be resolved first" (a stable sort keeps the weapons' order).
    ordered = sorted(weapons, key=lambda p: p.deadly == 1)
    dice = attack_chain.sum_dice(ordered, lambda p: die_result(p, s, d, mech))
    spare = max(0, d.models - 1)
    # Deadly packets: state (models killed, markers on the last model), packets in die order.
    deadly_state = attack_chain.fold_packets(
        Dist.point((0, 0)), dice.deadly, lambda km, pk: take_wounds_from(km, pk, spare)
    )
    ordinary = dice.ordinary
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
        hits=dice.hits,
        wounds=dice.wounds,
        casualties=joint.map(lambda r: r[0]),
        p_destroyed=joint.probability(lambda r: r[1] or r[0] >= d.models),
        p_shaken=joint.probability(lambda r: r[2]),
    )


__all__ = [
    "AttackOdds",
    "DieResult",
    "attack_odds",
    "die_result",
    "take_wounds",
    "take_wounds_from",
    "wounds_per_hit",
]
