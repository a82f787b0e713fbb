"""Per unit: the points it lost and the points of the enemy it destroyed, in one game.

A unit's *points lost* are its cost times its share of models lost (a routed unit counts
whole; a unit that found no room to deploy is out of the game, not lost), the same valuation
as the game's points lost, so a game's per-unit losses sum to its army's. *Points destroyed*
are credited by decision: after each decision, whatever the enemy of the deciding unit lost
during it (shots, melee, the morale that followed) goes to the deciding unit, and whatever its
own side lost to its *opponent*: the unit it attacked (``action.target``), or, for a reaction
of the other side within an activation (strike back, defend, resist), the unit whose
activation it is. Losses in a decision with no deciding unit or no opponent (deployment, the
end of a round) stay unattributed. The reading is ours (docs/experiments.md).

No I/O; reads the game state's ``units``, ``side_units`` and ``not_deployed``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

__all__ = ["REACTIONS", "Attribution", "UnitRecord", "unit_lost"]

#: Decisions the other side takes inside an activation: their opponent is the activating unit.
REACTIONS = frozenset({"strike_back", "defend", "resist"})


@dataclass(frozen=True)
class UnitRecord:
    """One unit's game, in the armies' frame: ``army`` 0 is army A of the matchup, and
    ``position`` the unit's place in its list."""

    army: int
    position: int
    name: str
    cost: int
    points_lost: float
    points_destroyed: float


def unit_lost(us: Any, missing: dict[str, str]) -> float:
    """The points ``us`` has lost so far: cost times its share of models lost (a routed unit
    whole); 0 for a unit that never deployed."""
    if us.uid in missing or not us.unit.size:
        return 0.0
    share = 1.0 if us.routed else (us.unit.size - max(0, us.models)) / us.unit.size
    return float(us.unit.cost * share)


@dataclass
class Attribution:
    """Watches a game decision by decision (``after`` as the ``on_decision`` hook)."""

    lost: dict[str, float] = field(default_factory=dict)
    destroyed: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    activating: str = ""

    def after(self, state: Any, action: Any) -> None:
        """Credit what was lost during the decision just applied."""
        missing = getattr(state, "not_deployed", None) or {}
        actor = getattr(action, "unit", "")
        if str(getattr(action, "kind", "")) in REACTIONS:
            target = self.activating
        else:
            target = getattr(action, "target", "")
            self.activating = actor
        units = list(state.units.values())
        side_of = {us.uid: us.side for us in units}
        acting = side_of.get(actor)
        for us in units:
            now = unit_lost(us, missing)
            gone = now - self.lost.get(us.uid, 0.0)
            self.lost[us.uid] = now
            if gone <= 0 or acting is None:
                continue
            if us.side != acting:
                self.destroyed[actor] += gone
            elif target and side_of.get(target) not in (None, acting):
                self.destroyed[target] += gone

    def records(self, state: Any, army_of_side: tuple[int, int]) -> tuple[UnitRecord, ...]:
        """Every unit's record at the end, army A's units first, each in list order."""
        missing = getattr(state, "not_deployed", None) or {}
        rows = []
        for side in (0, 1):
            for position, us in enumerate(state.side_units(side)):
                rows.append(
                    UnitRecord(
                        army=army_of_side[side],
                        position=position,
                        name=us.unit.name,
                        cost=us.unit.cost,
                        points_lost=round(unit_lost(us, missing), 6),
                        points_destroyed=round(self.destroyed.get(us.uid, 0.0), 6),
                    )
                )
        return tuple(sorted(rows, key=lambda r: (r.army, r.position)))
