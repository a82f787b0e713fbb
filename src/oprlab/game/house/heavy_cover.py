"""``+heavy_cover`` (ours): cover counts double. A unit in cover gets +2 to its Defense rolls
against shooting instead of seed 003's +1 ("Cover Terrain"); what ignores cover (Blast,
Indirect against sight blockers) still ignores all of it. A dice clause, so games, exact odds
(``oprlab odds ... --cover``) and sampling all see it (docs/rules/house.md "heavy_cover").
"""

from __future__ import annotations

from dataclasses import replace

from oprlab.game.house import HouseRule
from oprlab.mechanics.base import Check
from oprlab.rules.gff.attack import Hit, Situation, ignores_cover
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile

__all__ = ["HeavyCover", "HeavyCoverDice"]

#: The bonus cover gives on top of seed 003's +1.
EXTRA_COVER = 1


class HeavyCoverDice:
    """One more +1 to Defense rolls in cover, over seed 003's dice clauses."""

    def defense_check(self, p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit) -> Check:
        check: Check = super().defense_check(p, s, d, hit)  # type: ignore[misc]
        if s.cover and not s.melee and not ignores_cover(p, s):
            check = replace(check, modifier=check.modifier + EXTRA_COVER)
        return check


class HeavyCover(HouseRule):
    name = "heavy_cover"
    version = "1"
    applies_to = ("gff",)
    doc = "Cover gives +2 to Defense rolls against shooting instead of +1."
    dice = HeavyCoverDice
