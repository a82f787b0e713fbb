"""Morale Tests (seed 002): when a unit tests, how, and what a failure does.

"Whenever a unit takes a wound ... after Resolving Attacks outside a Charge Action, a Morale
Test may be necessary": when half or less of its models remain from the start of the game (a
single model unit: when it has taken at least half its Tough value in wounds). The test is a
Quality test, failed outright by a Shaken unit. In melee, units do not test for wounds; the
unit that caused fewer wounds tests, unless the opposing unit was destroyed.

What a failure does: "Morale Tests" says the unit is Shaken; "Results of the Morale Test",
written under melee, makes it Rout when at half strength (which is always the case outside
melee, since that is when the test is taken). We apply Results to melee and, by default, the
plain Shaken to Ranged Attacks (:attr:`~oprlab.rules.riverside.attack.Readings.rout_when_shooting`).

May import ``oprlab.mechanics`` and ``oprlab.rules.riverside``'s profile, attack and casualties.
"""

from __future__ import annotations

from typing import Literal

from oprlab.mechanics import Check, Test
from oprlab.rules.riverside.attack import READINGS, Readings, Situation
from oprlab.rules.riverside.casualties import Casualties
from oprlab.rules.riverside.profile import DefenderProfile

Failure = Literal["shaken", "rout"]
Side = Literal["attacker", "defender"]


def half_strength(d: DefenderProfile, after: Casualties) -> bool:
    """Half or less of its models remain from the start of the game; a single model unit:
    it has taken at least half of its Tough value in wounds."""
    if after.destroyed:
        return False
    if d.single_model:
        if after.models:
            return 2 * after.wounds >= d.tough
        if d.hero is not None:
            return 2 * after.hero_wounds >= d.hero.tough
    return 2 * after.left <= d.start_size


def morale_due(d: DefenderProfile, after: Casualties, s: Situation) -> bool:
    """A Morale Test after an attack: outside melee, the unit took a wound and is at half."""
    took_wound = after.consumed > 0
    return not s.melee and took_wound and half_strength(d, after)


def morale_quality(d: DefenderProfile, after: Casualties) -> int:
    """The unit's Quality; a joined Hero's once the rest of the unit is gone."""
    if after.models == 0 and after.hero and d.hero is not None:
        return d.hero.quality
    return d.quality


def morale_check(d: DefenderProfile, after: Casualties, s: Situation) -> Check:
    """ "To take a Morale Test, the unit rolls a Quality Test"."""
    return Check(Test.MORALE, morale_quality(d, after), owner=s.defender)


def fails_automatically(d: DefenderProfile) -> bool:
    """ "Shaken units always fail Morale Tests"."""
    return d.shaken


def morale_failure(
    d: DefenderProfile, after: Casualties, s: Situation, r: Readings = READINGS
) -> Failure:
    """What a failed Morale Test does: Rout at half strength (melee, or with
    ``rout_when_shooting``), else Shaken."""
    if (s.melee or r.rout_when_shooting) and half_strength(d, after):
        return "rout"
    return "shaken"


def melee_loser(attacker_wounds: int, defender_wounds: int) -> Side | None:
    """Melee morale: "The unit with the lowest total loses"; a tie has no lowest total."""
    if attacker_wounds == defender_wounds:
        return None
    return "attacker" if attacker_wounds < defender_wounds else "defender"
