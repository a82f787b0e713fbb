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
from oprlab.table.formation import (
    CLEARANCE,
    COHESION,
    GFF_SPREAD,
    TOL,
    gaps,
    overlaps,
    standable,
)
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


def deploy_problem(
    state: WwpdState, us: WwpdUnitState, point: Point, others: Sequence[Placement] | None = None
) -> str | None:
    """Why ``us`` may not be placed centred at ``point``, or ``None`` if it may (``others``:
    the units that can matter there, when the caller knows; else every other unit)."""
    p = formation(us.kits, point, facing(us.side))
    if not geo.inside_table(state.table, p):
        return "the unit does not fit on the table there"
    lo, hi = deployment_zone(state, us.side)
    ys, r = p.centres[:, 1], p.radii
    if float((ys - r).min()) < lo - EPS or float((ys + r).max()) > hi + EPS:
        return "the unit must be wholly inside its deployment zone"
    if not geo.fits(state.table, p, state.others(us.uid) if others is None else others):
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
    points = [
        (float(x), float(y))
        for y in np.linspace(lo + 2.5, hi - 2.5, 3)
        for x in np.arange(4.0, state.table.width - 3.9, 4.0)
    ]
    return [p for p, ok in zip(points, _clear_points(state, us, points), strict=True) if ok]


#: How far a bound must clear a limit to settle a point without :func:`deploy_problem` (whose
#: distances, measured from each point's own sums, may differ from these in the last digit).
_MARGIN = 1e-6


def _clear_points(state: WwpdState, us: WwpdUnitState, points: list[Point]) -> list[bool]:
    """For each point, whether :func:`deploy_problem` finds nothing wrong there (issue 13: one
    numpy call per question for all points instead of one per point).

    The table and the zone are checked for every point at once with the same sums as
    :func:`formation` and :func:`deploy_problem` (so the same answers), and the ground for every
    point and model in one call per model. A point that passes and stands clear of every other
    unit's bounding circle with room to spare needs nothing more when the formation's own
    cohesion and overlaps hold with room to spare (they do not change with where it stands).
    Any other point is asked of :func:`deploy_problem` itself.
    """
    if not points:
        return []
    t = state.table
    base = formation(us.kits, (0.0, 0.0), facing(us.side))
    lo, hi = deployment_zone(state, us.side)
    px, py, xs, ys, fine = geo.formation_at_points(base, points, t, (0.0, lo, t.width, hi))
    r = base.radii
    bad = ~fine  # off the table or out of the zone: deploy_problem says so first
    settled = fine.copy() if _shape_certain(base) else np.zeros_like(fine)
    others = state.others(us.uid)
    crowded = overlaps(others)
    if crowded:  # fits fails everywhere; let it say so
        settled[:] = False
    own = float((np.hypot(base.centres[:, 0], base.centres[:, 1]) + r).max())
    for o in others:
        if not o.alive.any():
            continue  # no model to keep apart from
        settled &= geo.gap_lower_bounds(px[:, 0], py[:, 0], own, o) > geo.SPACING + _MARGIN
    ground = None
    if settled.any():  # clear of every unit and in shape: the ground decides
        ground = np.ones(int(settled.sum()), dtype=np.bool_)
        for i in range(len(r)):
            at = np.stack([xs[settled, i], ys[settled, i]], axis=1)
            ground &= standable(t, at, float(r[i]) - CLEARANCE)
    if crowded:
        return geo.settle_points(
            points, settled, bad, lambda p: deploy_problem(state, us, p), ground
        )
    circles = [(o, geo.bounding_circle(o)) for o in others if o.alive.any()]

    def near(point: Point) -> list[Placement]:
        # the units a formation within ``own`` of the point can come within 1" of
        x, y = point
        return [o for o, (u, v, rad) in circles if math.hypot(u - x, v - y) - rad - own <= _NEAR]

    return geo.settle_points(
        points, settled, bad, lambda p: deploy_problem(state, us, p, near(p)), ground
    )


#: How far apart (bounding circles, inches) a unit stands from a deploying formation to be
#: left out of its :func:`deploy_problem`: 1" for spacing and as much again to spare. When no
#: two other units overlap, ``geometry.fits`` reads of the others only their gaps to the
#: formation (overlaps and spacing), so one farther away changes no answer; leaving it out
#: lets ``fits`` remember the answer while only far units move (a deployment a decision).
_NEAR = 2 * geo.SPACING


def _shape_certain(base: Placement) -> bool:
    """Whether the formation is in cohesion and free of overlaps by more than rounding, so
    wherever it stands it is so (translation changes its gaps only in the last digits)."""
    g = gaps(base.centres, base.radii, base.centres, base.radii)
    if len(g) < 2:
        return True
    np.fill_diagonal(g, np.inf)
    near = g.min(axis=1)
    if (near < -TOL + _MARGIN).any() or (near > COHESION + TOL - _MARGIN).any():
        return False
    np.fill_diagonal(g, 0.0)
    return bool(g.max() < GFF_SPREAD + TOL - _MARGIN)
