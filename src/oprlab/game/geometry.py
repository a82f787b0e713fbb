"""The game's view of the table: distances, moves, sight and cover, behind one small seam.

The game asks these questions in rules words (how far apart, can it see, does it have cover,
move it toward there); this module answers them with :mod:`oprlab.table`. Keeping the seam
narrow lets the table's implementation improve without touching the game procedure.
"""

from __future__ import annotations

import math

import numpy as np

from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.units.model import Unit

#: GFF cohesion: within 1" of another member; formations leave this gap between bases.
FORMATION_GAP = 0.5
#: Units may only be within 1" of other units when charging.
SPACING = 1.0


def formation(unit: Unit, models: int, centre: Point, facing: float = 0.0) -> Placement:
    """A compact formation: rows of up to 5 models facing ``facing`` (radians), centred."""
    r = base_radius(unit)
    step = 2 * r + FORMATION_GAP
    per_row = min(5, max(1, models))
    rows = math.ceil(models / per_row)
    pts = []
    for i in range(models):
        row, col = divmod(i, per_row)
        in_row = min(per_row, models - row * per_row)
        x = (col - (in_row - 1) / 2) * step
        y = -(row - (rows - 1) / 2) * step
        pts.append((x, y))
    local = np.array(pts, dtype=np.float64)
    c, s = math.cos(facing), math.sin(facing)
    rot = np.array([[c, -s], [s, c]])
    centres = local @ rot.T + np.asarray(centre)
    return Placement(centres, np.full(models, r), large=is_large(unit))


def alive_centres(p: Placement) -> np.ndarray:
    return p.centres[p.alive]


def centroid(p: Placement) -> Point:
    c = alive_centres(p).mean(axis=0)
    return (float(c[0]), float(c[1]))


def gap(a: Placement, b: Placement) -> float:
    """Unit to unit: the closest models, base edge to base edge (seed 002 "Measuring")."""
    ca, cb = alive_centres(a), alive_centres(b)
    ra, rb = a.radii[a.alive], b.radii[b.alive]
    d = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2) - ra[:, None] - rb[None, :]
    return float(max(0.0, d.min()))


def point_gap(p: Placement, point: Point) -> float:
    """Distance from a point to the closest base edge of a unit."""
    c = alive_centres(p)
    d = np.linalg.norm(c - np.asarray(point), axis=1) - p.radii[p.alive]
    return float(max(0.0, d.min()))


def inside_table(table: Table, p: Placement) -> bool:
    c, r = alive_centres(p), p.radii[p.alive]
    return bool(
        np.all(c[:, 0] - r >= 0)
        and np.all(c[:, 0] + r <= table.width)
        and np.all(c[:, 1] - r >= 0)
        and np.all(c[:, 1] + r <= table.depth)
    )


def translated(p: Placement, dx: float, dy: float) -> Placement:
    q = p.copy()
    q.centres = q.centres + np.array([dx, dy])
    return q


def move_toward(
    table: Table,
    p: Placement,
    others: list[Placement],
    goal: Point,
    allowance: float,
    *,
    may_touch: Placement | None = None,
    stop_at: float = 0.0,
) -> Placement:
    """Move a unit as a group toward ``goal`` by up to ``allowance``, as far as it legally can.

    The formation moves as one (every model the same vector), stays on the table and keeps 1"
    from other units (``may_touch``: the unit it charges). ``stop_at``: stop that far short.
    """
    cx, cy = centroid(p)
    vx, vy = goal[0] - cx, goal[1] - cy
    dist = math.hypot(vx, vy)
    want = min(allowance, max(0.0, dist - stop_at))
    if want <= 1e-9:
        return p.copy()
    ux, uy = vx / dist, vy / dist
    lo, hi = 0.0, want
    if _legal(table, translated(p, ux * hi, uy * hi), others, may_touch):
        return translated(p, ux * hi, uy * hi)
    for _ in range(20):  # bisection: the furthest legal point along the way
        mid = (lo + hi) / 2
        if _legal(table, translated(p, ux * mid, uy * mid), others, may_touch):
            lo = mid
        else:
            hi = mid
    return translated(p, ux * lo, uy * lo)


def _legal(
    table: Table, p: Placement, others: list[Placement], may_touch: Placement | None
) -> bool:
    if not inside_table(table, p):
        return False
    for o in others:
        if o is may_touch:
            if gap(p, o) < -1e-9:
                return False
            continue
        if gap(p, o) < SPACING - 1e-9:
            return False
    return True


def charge_move(
    table: Table, p: Placement, target: Placement, others: list[Placement], allowance: float
) -> Placement | None:
    """Move a charger into base contact with ``target``; ``None`` if it cannot reach."""
    need = gap(p, target)
    if need > allowance + 1e-9:
        return None
    ca, cb = alive_centres(p), alive_centres(target)
    d = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2)
    i, j = np.unravel_index(np.argmin(d), d.shape)
    v = cb[j] - ca[i]
    n = float(np.linalg.norm(v))
    if n < 1e-9:
        return p.copy()
    moved = translated(p, v[0] / n * need, v[1] / n * need)
    rest = [o for o in others if o is not target]
    if not _legal(table, moved, rest, target):
        moved = move_toward(table, p, rest, tuple(cb[j]), need, may_touch=target)
    return moved


def within(p: Placement, point: Point, distance: float) -> bool:
    return point_gap(p, point) <= distance
