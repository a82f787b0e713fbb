"""``+fortifications``: a campaign perk of seed 003's design notes ("Modified Defense
(Fortifications = cover-like bonus)"), read as: a unit within 3" of an objective marker its
side controls has dug in there, and counts as in cover against shooting (+1 to Defense rolls,
seed 003 "Cover Terrain"; seed 002 "Cover": every shooting model counts it in Cover), wherever
it stands. Blast still ignores that cover (docs/rules/
house.md "fortifications").

In the odds of one attack (``oprlab odds --system gff+fortifications``) there is no table: the
defender is taken to be in its fortification, so shooting counts it in cover.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from oprlab.game.house import HouseRule
from oprlab.rules.query import Situation

__all__ = ["Fortifications", "FortifiedAttack", "FortifiedRules"]


class FortifiedRules:
    """Over the game procedure: the ``fortified`` hook (``OprRules``)."""

    def fortified(self, state: Any, target: Any) -> bool:
        from oprlab.game.house.where import near_own_marker

        return near_own_marker(state, target) or bool(super().fortified(state, target))  # type: ignore[misc]


class FortifiedAttack:
    """Over the odds adapter: the defender stands in its fortification (cover from shooting)."""

    def situation(self, s: Situation) -> Any:
        """The system's situation (GFF's or Riverside's), with cover when shooting."""
        found = super().situation(s)  # type: ignore[misc]
        return found if found.melee else replace(found, cover=True)


class Fortifications(HouseRule):
    name = "fortifications"
    version = "1"
    applies_to = ("gff", "riverside")
    doc = 'A unit within 3" of a marker its side controls counts as in cover against shooting.'
    rules = FortifiedRules
    attack = FortifiedAttack
