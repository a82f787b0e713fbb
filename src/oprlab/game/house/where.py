"""Where a unit stands, as the campaign perks read it (one measure for all of them)."""

from __future__ import annotations

from oprlab.game import geometry as geo
from oprlab.game.objectives import OBJECTIVE_RANGE
from oprlab.game.state import GameState, UnitState

__all__ = ["mostly_inside", "near_own_marker"]


def mostly_inside(us: UnitState, box: tuple[float, float, float, float]) -> bool:
    """More than half of ``us``'s models in play have their centre inside ``box``."""
    p = us.placement
    if p is None:
        return False
    pts = p.centres[p.alive]
    if not len(pts):
        return False
    x0, y0, x1, y1 = box
    inside = (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)
    return bool(inside.sum() * 2 > len(pts))


def near_own_marker(state: GameState, us: UnitState) -> bool:
    """``us`` is within 3" of a marker its side controls (the measure of seizing one)."""
    p = us.placement
    return p is not None and any(
        m.controller == us.side and geo.within(p, m.position, OBJECTIVE_RANGE)
        for m in state.objectives
    )
