"""Resolve a GFF attack check by check, in the rulebook's order, with any mechanic.

All attack dice are rolled first, then one Defense roll per hit, then Regeneration for each
wound, then the wound effect. The order matters for the clock (a global clock is shared by
attacker and defender), and this is the order a player rolls in. The same driver samples with
the d6 and plays out the clock's certain result, so full games and odds share it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oprlab.rules.attack_chain import Roller, roll_wounds
from oprlab.rules.gff.attack import HOOKS, GffHooks, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, take_wounds, wound_effect_check

__all__ = ["AttackResult", "Roller", "finish", "resolve_attack"]


@dataclass(frozen=True, slots=True)
class AttackResult:
    """What one unit's attack did to its target.

    Attributes:
        hits: hits after extra hits and Blast.
        wounds: wounds inflicted after Defense, Deadly and Regeneration.
        casualties: models removed (including a Knocked Out last model).
        destroyed: the target has no models left.
        shaken: the target rolled a Shaken wound effect (and is still in play).
        markers: wound markers on the last model afterwards.
    """

    hits: int
    wounds: int
    casualties: int
    destroyed: bool
    shaken: bool
    markers: int


def resolve_attack(
    weapons: Sequence[AttackProfile],
    defender: DefenderProfile,
    situation: Situation,
    roller: Roller,
    *,
    fear: int = 0,
    hooks: GffHooks = HOOKS,
) -> AttackResult:
    """Roll one unit's attack (all its weapons at one target) and apply it (seed 003).

    Deadly weapons are resolved first ("Hits from Deadly must be resolved first"). ``hooks``:
    the dice clauses (seed 003's, or a house rule's subclass of them).
    """
    ordered = sorted(weapons, key=lambda p: p.deadly == 1)  # stable: Deadly first
    rolled = roll_wounds(hooks, ordered, situation, defender, roller)
    damage = take_wounds(defender, rolled.packets, rolled.ordinary)
    return finish(defender, damage, rolled.wounds, rolled.hits, situation, roller, fear)


def finish(
    defender: DefenderProfile,
    damage: Damage,
    wounds: int,
    hits: int,
    situation: Situation,
    roller: Roller,
    fear: int = 0,
) -> AttackResult:
    """Roll the wound effect if one is due and report the attack's result."""
    knocked_out = shaken = False
    fear_now = fear if situation.melee else 0
    if rolls_wound_effect(defender, damage, fear_now):
        effect = roller.roll(wound_effect_check(defender, damage, situation.defender, fear_now))
        knocked_out, shaken = not effect.success, effect.success
    casualties = damage.killed + int(knocked_out)
    left = defender.models - casualties
    return AttackResult(
        hits=hits,
        wounds=wounds,
        casualties=casualties,
        destroyed=left <= 0,
        shaken=shaken and left > 0,
        markers=0 if knocked_out else defender.markers + damage.markers,
    )
