"""``+dopr``: Diceless OPR's own translations of special rules (seed 000 "Other Rules"), where
they say something GFF's text does not.

Most of seed 000's list is "as written" (Furious, Relentless, Impact, Caster, Fearless,
Regeneration, Indirect) or a rule GFF's lists do not have (Aircraft, Entrenched, Poison); the
clock itself is the mechanic (``--mechanic clock``), not a rule. Two clauses read differently
from seed 003, and this house rule plays them (docs/rules/house.md "dopr"):

- Stealth: "Enemies targeting this unit from more than 12" away must add 1 to their attack"
  (seed 003: shot from over 9" away);
- Rending: "Enemy units taking hits from weapons with this special rule must add 1 to their
  Regeneration checks" (seed 003: Rending ignores Regeneration).

Both are dice clauses, so games, exact odds and sampling all see them; on the clock "add 1"
is one more to the increment, on the d6 the same -1 to the roll (seed 000 "Applying Bonuses
and Penalties"). The values come from :mod:`oprlab.mechanics.dopr_rules`, which keeps seed
000's translations as data.
"""

from __future__ import annotations

from dataclasses import replace

from oprlab.game.house import HouseRule
from oprlab.mechanics.base import Check, Test
from oprlab.mechanics.dopr_rules import Condition, dopr_rule
from oprlab.rules.gff.attack import LONG_RANGE, Situation, regeneration_check
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile

__all__ = ["DOPR_LONG_RANGE", "Dopr", "DoprDice"]

#: Seed 000 Stealth and Entrenched: "from more than 12" away".
DOPR_LONG_RANGE = 12.0
_STEALTH = dopr_rule("Stealth")
_RENDING = dopr_rule("Rending")
assert _STEALTH.condition is Condition.OVER_12_INCHES and _STEALTH.adjusts is Test.HIT
assert _RENDING.adjusts is Test.REGENERATION


class DoprDice:
    """Seed 000's Stealth and Rending over seed 003's dice clauses (``GffHooks``)."""

    #: The fast odds path keeps a shot at 10" apart from one at 13" (Stealth's 12").
    long_ranges: tuple[float, ...] = (LONG_RANGE, DOPR_LONG_RANGE)

    def hit_check(self, p: AttackProfile, s: Situation, d: DefenderProfile) -> Check:
        """Stealth: attackers "from more than 12" away must add 1 to their attack" (the
        seed-003 9" penalty is not applied); Unstoppable still ignores it (seed 003)."""
        check: Check = super().hit_check(p, s, replace(d, stealth=False))  # type: ignore[misc]
        if d.stealth and not s.melee and s.distance > DOPR_LONG_RANGE and not p.unstoppable:
            check = replace(check, modifier=check.modifier - _STEALTH.adjustment)
        return check

    def regeneration_check(
        self, p: AttackProfile, s: Situation, d: DefenderProfile
    ) -> Check | None:
        """Rending: Regeneration is rolled with 1 added (on the d6 a 6+; on the clock +1 to
        the increment) instead of being ignored; Bane and Unstoppable still ignore it."""
        if d.regeneration and p.rending and not (p.bane or p.unstoppable):
            check = regeneration_check(s)
            return replace(check, modifier=check.modifier - _RENDING.adjustment)
        found: Check | None = super().regeneration_check(p, s, d)  # type: ignore[misc]
        return found


class Dopr(HouseRule):
    name = "dopr"
    version = "1"
    applies_to = ("gff",)
    doc = "Seed 000's Stealth (from over 12\") and Rending (+1 to Regeneration, not ignored)."
    dice = DoprDice
