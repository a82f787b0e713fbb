"""``+smuggling_route``: a campaign perk of seed 003's design notes ("Deployment options
(Smuggling Route = Ambush-like)"), read as: each army's first unit in list order that is not a
Hero and has neither Ambush nor Scout is set aside before deployment and arrives as by Ambush
(seed 003 "Ambush": at the start of a round after the first, anywhere over 9" from enemy units,
and it cannot seize or contest markers the round it arrives) (docs/rules/house.md
"smuggling_route").

It changes deployment only, so the odds of one attack are the system's own.
"""

from __future__ import annotations

from typing import Any

from oprlab.game.house import HouseRule
from oprlab.units.rule_scope import unit_rule

__all__ = ["SmugglingRoute", "SmugglingRules", "smuggled"]


def smuggled(state: Any, side: int) -> Any:
    """The unit of ``side`` the route brings in, or ``None`` (list order: A1, A2...)."""
    return next(
        (
            us
            for us in state.side_units(side)
            if us.reserve is None and not unit_rule(us.unit, "Hero")
        ),
        None,
    )


class SmugglingRules:
    """Over the game procedure: the ``after_setup`` hook (``OprRules``)."""

    def after_setup(self, state: Any) -> None:
        super().after_setup(state)  # type: ignore[misc]
        for side in (0, 1):
            us = smuggled(state, side)
            if us is not None:
                us.reserve = "ambush"
                state.log.add("smuggled", unit=us.uid, side=side)


class SmugglingRoute(HouseRule):
    name = "smuggling_route"
    version = "1"
    applies_to = ("gff",)
    doc = "Each army's first non-Hero unit without Ambush or Scout arrives as by Ambush."
    rules = SmugglingRules
