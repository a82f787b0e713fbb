"""WWPD setup: model bases, unit formations, deployment zones and where a unit may deploy.

Alternating deployment itself (the roll-off winner first) is part of the procedure in
:mod:`oprlab.game.wwpd`, which re-exports these names.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.game.geometry`` and
``oprlab.game.wwpd_state``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game.wwpd_state import BASE_MM, EPS, FORMATION_GAP, WwpdState, WwpdUnitState
from oprlab.rules.wwpd.attack import Kit
from oprlab.table.model import MM_PER_INCH, Placement, Point


def base_radius(k: Kit) -> float:
    """A model's base radius (inches): 25mm infantry, larger for Toughness, 75mm vehicles."""
    p = k.profile
    if p.vehicle:
        kind = "vehicle"
    elif p.toughness >= 2:
        kind = "big"
    else:
        kind = "tough" if p.toughness else "infantry"
    return BASE_MM[kind] / MM_PER_INCH / 2


def formation(unit_kits: Sequence[Kit], centre: Point, facing: float = 0.0) -> Placement:
    """A compact formation of the unit's models: rows of up to 5 facing ``facing`` (radians)."""
    radii = np.array([base_radius(k) for k in unit_kits], dtype=np.float64)
    n = len(unit_kits)
    step = 2 * float(radii.max()) + FORMATION_GAP
    per_row = min(5, max(1, n))
    rows = math.ceil(n / per_row)
    pts = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        pts.append(((col - (in_row - 1) / 2) * step, -(row - (rows - 1) / 2) * step))
    local = np.array(pts, dtype=np.float64)
    c, s = math.cos(facing), math.sin(facing)
    centres = local @ np.array([[c, -s], [s, c]]).T + np.asarray(centre)
    return Placement(centres, radii, large=any(k.profile.vehicle for k in unit_kits))


def facing(side: int) -> float:
    return 0.0 if side == 0 else math.pi


def home_edge(state: WwpdState, side: int) -> float:
    return 0.0 if side == 0 else state.table.depth


def deployment_zone(state: WwpdState, side: int) -> tuple[float, float]:
    """The band of y a side deploys in: 12" deep along its own edge (opposite edges)."""
    d = state.table.deployment_depth
    return (0.0, d) if side == 0 else (state.table.depth - d, state.table.depth)


def _to_deploy(state: WwpdState, side: int) -> list[WwpdUnitState]:
    return [u for u in state.side_units(side) if u.placement is None and not u.destroyed]


def deploy_problem(state: WwpdState, us: WwpdUnitState, point: Point) -> str | None:
    """Why ``us`` may not be placed centred at ``point``, or ``None`` if it may."""
    p = formation(us.kits, point, facing(us.side))
    if not geo.inside_table(state.table, p):
        return "the unit does not fit on the table there"
    lo, hi = deployment_zone(state, us.side)
    ys, r = p.centres[:, 1], p.radii
    if float((ys - r).min()) < lo - EPS or float((ys + r).max()) > hi + EPS:
        return "the unit must be wholly inside its deployment zone"
    if not geo.fits(state.table, p, state.others(us.uid)):
        return 'the unit may not stand there (terrain, or within 1" of another unit)'
    return None


def deploy_candidates(state: WwpdState, us: WwpdUnitState) -> list[Point]:
    """Centres where the unit fits in its zone: a 4" grid, three rows deep."""
    key = ("deploy", us.uid, state.version)
    if key not in state.memo:
        state.memo[key] = _deploy_candidates(state, us)
    found: list[Point] = state.memo[key]
    return found


def _deploy_candidates(state: WwpdState, us: WwpdUnitState) -> list[Point]:
    lo, hi = deployment_zone(state, us.side)
    pts: list[Point] = []
    for y in np.linspace(lo + 2.5, hi - 2.5, 3):
        for x in np.arange(4.0, state.table.width - 3.9, 4.0):
            p = (float(x), float(y))
            if deploy_problem(state, us, p) is None:
                pts.append(p)
    return pts
