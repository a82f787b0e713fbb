"""The special rules Diceless OPR translates (seed 000 "Other Rules"), as data to read.

Rule systems (``gff``, ``riverside``) consume these when they run on the clock: which check a
rule changes, by how much the clock's increment moves, under what condition, and what a landing
of 6 before modifiers does. Keeping the translations here as values, not code, lets a rule system
and the docs read the same numbers. Summaries are our own words, not the seed's text.

The clock's increment for an "on a X+" check is ``X - 1``; a penalty adds to it and a bonus
subtracts, clamped to 1..5, except Caster, whose spent tokens may take it down to 0.

May import ``oprlab.errors`` and ``oprlab.mechanics.base`` only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from oprlab.errors import OptionError, UnknownNameError
from oprlab.mechanics.base import Test


class Condition(StrEnum):
    """When a translated rule applies."""

    ALWAYS = "always"
    WHEN_CHARGING = "when charging"
    OVER_12_INCHES = "attacker more than 12 inches away"
    SHOOTING_AFTER_MOVING = "shooting after moving"
    MORALE_FAILED = "after a failed morale test"
    AS_WRITTEN = "the rule's own conditions, as the rule system writes them"


class LandingSix(StrEnum):
    """What happens when the clock lands on 6 before modifiers (the clock's "unmodified 6")."""

    DOUBLE_HIT = "the hit is multiplied by 2"
    AP4 = "the hit has AP(4)"
    SECOND_DEFENSE = "the defender makes a second Defense check"


@dataclass(frozen=True, slots=True)
class DoprRule:
    """One special rule as DOPR translates it.

    Attributes:
        name: the rule's name as lists write it (without the ``(X)``).
        summary: one line in our own words.
        check: the check the rule is itself (Regeneration is a 5+ check), else ``None``.
        target: that check's difficulty (``5`` for 5+); the clock adds ``target - 1``.
        adjusts: the check whose increment the rule moves (AP moves Defense), else ``None``.
        adjustment: how much it adds to that increment (a penalty), per X if ``takes_x``.
        takes_x: the rule has a rating ``(X)``.
        condition: when the rule applies.
        landing_six_on: the check whose landing of 6 (before modifiers) triggers an effect.
        landing_six: that effect.
        min_increment: the lowest the increment may go (1, but 0 for Caster).
        subtracts_spent_tokens: Caster: each extra spell token spent subtracts 1.
    """

    name: str
    summary: str
    check: Test | None = None
    target: int | None = None
    adjusts: Test | None = None
    adjustment: int = 0
    takes_x: bool = False
    condition: Condition = Condition.ALWAYS
    landing_six_on: Test | None = None
    landing_six: LandingSix | None = None
    min_increment: int = 1
    subtracts_spent_tokens: bool = False

    @property
    def increment(self) -> int | None:
        """What the rule's own check adds to the clock (``target - 1``), if it is a check."""
        return None if self.target is None else self.target - 1

    @property
    def affects(self) -> tuple[Test, ...]:
        """Every check the rule touches, in a fixed order, without repeats."""
        tests = (self.check, self.adjusts, self.landing_six_on)
        return tuple(dict.fromkeys(t for t in tests if t is not None))

    def adjustment_for(self, x: int | None = None) -> int:
        """The increment penalty for this rule, with rating ``x`` for rules that take one."""
        if not self.takes_x:
            if x is not None:
                raise OptionError(f"{self.name} takes no rating", value=x, expected="no (X)")
            return self.adjustment
        if x is None or x < 0:
            raise OptionError(
                f"{self.name}(X) needs its rating", value=x, expected="an integer 0 or more"
            )
        return self.adjustment * x


_RULES = (
    DoprRule(
        "Aircraft",
        "Attacks against this unit add 1 to the attacker's increment.",
        adjusts=Test.HIT,
        adjustment=1,
    ),
    DoprRule(
        "AP",
        "The defender adds X to the increment of Defense checks against these hits.",
        adjusts=Test.DEFENSE,
        adjustment=1,
        takes_x=True,
    ),
    DoprRule(
        "Caster",
        "A spell is a 4+ check (adds 3); each extra spell token spent takes 1 off, down to 0.",
        check=Test.CASTING,
        target=4,
        takes_x=True,
        min_increment=0,
        subtracts_spent_tokens=True,
    ),
    DoprRule(
        "Entrenched",
        "Attackers more than 12 inches away add 2 to their increment.",
        adjusts=Test.HIT,
        adjustment=2,
        condition=Condition.OVER_12_INCHES,
    ),
    DoprRule(
        "Fearless",
        "After a failed morale test, a 4+ check (adds 3) that passes it if the clock holds.",
        check=Test.MORALE,
        target=4,
        condition=Condition.MORALE_FAILED,
    ),
    DoprRule(
        "Furious",
        "When charging, a hit whose clock lands on 6 before modifiers counts twice.",
        landing_six_on=Test.HIT,
        landing_six=LandingSix.DOUBLE_HIT,
        condition=Condition.WHEN_CHARGING,
    ),
    DoprRule(
        "Impact",
        "The X impact attacks are 2+ checks, each adding 1 to the clock.",
        check=Test.HIT,
        target=2,
        takes_x=True,
    ),
    DoprRule(
        "Indirect",
        "Shooting after moving adds 1 to the attacker's increment.",
        adjusts=Test.HIT,
        adjustment=1,
        condition=Condition.SHOOTING_AFTER_MOVING,
    ),
    DoprRule(
        "Poison",
        "Regeneration against it adds 1; a Defense landing on 6 unmodified needs a second check.",
        adjusts=Test.REGENERATION,
        adjustment=1,
        landing_six_on=Test.DEFENSE,
        landing_six=LandingSix.SECOND_DEFENSE,
    ),
    DoprRule(
        "Regeneration",
        "Each wound is a 5+ check (adds 4); if the clock does not roll over, it is ignored.",
        check=Test.REGENERATION,
        target=5,
    ),
    DoprRule(
        "Relentless",
        "A hit whose clock lands on 6 before modifiers counts twice.",
        landing_six_on=Test.HIT,
        landing_six=LandingSix.DOUBLE_HIT,
        condition=Condition.AS_WRITTEN,
    ),
    DoprRule(
        "Rending",
        "Regeneration against it adds 1; a hit landing on 6 before modifiers has AP(4).",
        adjusts=Test.REGENERATION,
        adjustment=1,
        landing_six_on=Test.HIT,
        landing_six=LandingSix.AP4,
    ),
    DoprRule(
        "Stealth",
        "Attackers more than 12 inches away add 1 to their increment.",
        adjusts=Test.HIT,
        adjustment=1,
        condition=Condition.OVER_12_INCHES,
    ),
)

#: Every translated rule by lower-case name.
DOPR_RULES = MappingProxyType({r.name.lower(): r for r in _RULES})

_RATING = re.compile(r"\s*\(\s*[^)]*\)\s*$")


def dopr_rule(name: str) -> DoprRule:
    """The translation of rule ``name``; case-insensitive, a rating (``AP(2)``) is ignored."""
    key = _RATING.sub("", name).strip().lower()
    try:
        return DOPR_RULES[key]
    except KeyError:
        raise UnknownNameError(
            "DOPR gives no translation for this rule",
            value=name,
            expected="one of " + ", ".join(r.name for r in _RULES),
        ) from None


def rules_affecting(test: Test) -> tuple[DoprRule, ...]:
    """Every translated rule that touches checks of kind ``test``, alphabetically."""
    return tuple(r for r in _RULES if test in r.affects)
