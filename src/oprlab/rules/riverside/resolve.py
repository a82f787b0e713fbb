"""Resolve a Riverside attack check by check, in the rulebook's order, with any mechanic.

Seed 002 "Resolving Attacks": roll all weapon attacks at the target, then one Defense roll per
Hit, then (our addition, the common OPR rule) one Regeneration roll per wound, then Remove
Casualties and, outside melee, the Morale Test. The order matters for the clock (a global clock
is shared by both sides), and it is the order a player rolls in. The same driver samples with
the d6 and plays out the clock's certain result, so full games and odds share it.

May import ``oprlab.mechanics``, ``oprlab.rules.attack_chain`` (the system-neutral
:class:`Roller` and dice) and ``oprlab.rules.riverside``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oprlab.rules.attack_chain import Roller, roll_wounds
from oprlab.rules.riverside.attack import READINGS, Readings, RiversideHooks, Situation
from oprlab.rules.riverside.casualties import Casualties, remove_casualties
from oprlab.rules.riverside.morale import (
    fails_automatically,
    morale_check,
    morale_due,
    morale_failure,
)
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile

__all__ = ["AttackResult", "Roller", "finish", "resolve_attack"]


@dataclass(frozen=True, slots=True)
class AttackResult:
    """What one unit's attack did to its target.

    Attributes:
        hits: hits after Bonus Hits and Blast.
        wounds: wounds caused after Defense, Deadly and Regeneration (before casualties; the
            number melee morale compares).
        casualties: models removed, the joined Hero included.
        destroyed: every model was removed by wounds.
        morale_test: the target took a Morale Test.
        routed: it failed and Routed (removed from the game).
        shaken: it is Shaken after the attack and still in play (``None`` in melee, where
            morale waits for Return Strikes).
        after: the target's condition after Remove Casualties (carry it with
            :func:`~oprlab.rules.riverside.casualties.after_attack`).
    """

    hits: int
    wounds: int
    casualties: int
    destroyed: bool
    morale_test: bool
    routed: bool
    shaken: bool | None
    after: Casualties


def resolve_attack(
    weapons: Sequence[AttackProfile],
    defender: DefenderProfile,
    situation: Situation,
    roller: Roller,
    *,
    readings: Readings = READINGS,
) -> AttackResult:
    """Roll one unit's attack (all its weapons at one target) and apply it (seed 002)."""
    s, d, r = situation, defender, readings
    rolled = roll_wounds(RiversideHooks(r), weapons, s, d, roller)
    after = remove_casualties(d, rolled.ordinary, rolled.packets)
    return finish(d, after, rolled.wounds, rolled.hits, s, roller, r)


def finish(
    d: DefenderProfile,
    after: Casualties,
    wounds: int,
    hits: int,
    s: Situation,
    roller: Roller,
    r: Readings = READINGS,
) -> AttackResult:
    """Take the Morale Test if one is due and report the attack's result."""
    test = morale_due(d, after, s)
    failed = test and (fails_automatically(d) or not roller.roll(morale_check(d, after, s)).success)
    routed = failed and morale_failure(d, after, s, r) == "rout"
    shaken: bool | None = None
    if not s.melee:
        shaken = not after.destroyed and not routed and (d.shaken or failed)
    return AttackResult(
        hits=hits,
        wounds=wounds,
        casualties=after.removed,
        destroyed=after.destroyed,
        morale_test=test,
        routed=routed,
        shaken=shaken,
        after=after,
    )
