"""``+safe_house``: a campaign perk of seed 003's design notes ("Recovery effects (Safe House =
ignore wound effects)"), read as: a unit with most of its models in its own deployment zone
ignores a Shaken result of a wound effect roll (it is not Shaken; a Knocked Out result still
removes the model, and the attacker may still try to push it, seed 003 "Pushing"). Morale
still shakes it (docs/rules/house.md "safe_house").

The odds of one attack report the wound effect's roll itself, so they are the system's own.
"""

from __future__ import annotations

from typing import Any

from oprlab.game.house import HouseRule

__all__ = ["SafeHouse", "SafeHouseRules"]


class SafeHouseRules:
    """Over the game procedure: the ``ignores_shaken`` hook (``OprRules``)."""

    def ignores_shaken(self, state: Any, target: Any) -> bool:
        from oprlab.game.gff import deployment_zone
        from oprlab.game.house.where import mostly_inside

        home = mostly_inside(target, deployment_zone(state, target.side))
        return home or bool(super().ignores_shaken(state, target))  # type: ignore[misc]


class SafeHouse(HouseRule):
    name = "safe_house"
    version = "1"
    applies_to = ("gff",)
    doc = "A unit mostly in its own deployment zone ignores Shaken results of wound effects."
    rules = SafeHouseRules
