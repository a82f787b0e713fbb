"""Moving a unit on the table: allowances, paths around terrain, and a unit's move as a group.

How far: Advance 6", Rush and Charge 12" (seeds 002 "Activation Actions", 003 "ACTIVATION");
Fast +2"/+4", Slow -2"/-4"; if any model moves in or through difficult terrain no model moves
more than 6" (Strider and Flying ignore it); models climb pieces up to 3" tall, the vertical
distance counting toward the move (seed 002 "Terrain Movement"); nobody enters impassable
terrain; Flying moves over units and terrain and measures as if the board were flat.

Which way: each model's path is a shortest path in a visibility graph over the corners of the
impassable pieces inflated by its base radius (so a path never clips a wall), with all-pairs
costs precomputed once per table and radius (terrain does not move). Other units block paths
too, keeping the 1" spacing "throughout the movement path" (seed 002 "Movement"): each is a
convex hull inflated by the gap, searched lazily (A*) only when the static path runs into one.

As a group: the unit's centroid walks its own path toward the goal and the models keep their
formation around it, re-forming in compact rows where terrain or other units are in the way,
so a unit moves as a player would move it, not as a smear of independent models. If the models
cannot all reach their spots within the allowance, the unit goes less far.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.units``, ``oprlab.table.model`` and
``oprlab.table.formation``; numpy and shapely.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Owner, Test
from oprlab.table.formation import (
    CLEARANCE,
    CLIMB_LIMIT,
    SPACING,
    TOL,
    BoolArray,
    Neighbours,
    check_system,
    formation,
    gaps,
    is_coherent,
    is_difficult,
    settle,
    standable,
)
from oprlab.table.model import FloatArray, Placement, Point, Table, TerrainPiece, TerrainType
from oprlab.units.model import Unit
from oprlab.units.rule_scope import unit_rule

IntArray = npt.NDArray[np.intp]

#: Seeds 002 "Activation Actions" and 003 "Movement by Action": base move of each action.
ACTION_MOVES = {"hold": 0.0, "advance": 6.0, "rush": 12.0, "charge": 12.0}
#: GFF Fast / Slow: +-2" on Advance, +-4" on Rush and Charge.
SPEED_CHANGE = {"hold": 0.0, "advance": 2.0, "rush": 4.0, "charge": 4.0}
#: Difficult terrain: no model of the unit moves more than 6" (seeds 002, 003).
DIFFICULT_CAP = 6.0
#: Riverside Teleport: place the unit anywhere within 6".
TELEPORT_RANGE = 6.0


def allowance(action: str, *, fast: bool = False, slow: bool = False) -> float:
    """How far a unit may move with ``action`` (seed 003 "Movement by Action")."""
    key = action.casefold()
    if key not in ACTION_MOVES:
        raise OptionError("unknown action", value=action, expected="hold, advance, rush or charge")
    return ACTION_MOVES[key] + SPEED_CHANGE[key] * (int(fast) - int(slow))


def unit_allowance(unit: Unit, action: str) -> float:
    """How far ``unit`` may move with ``action``, with its Fast and Slow rules."""
    return allowance(action, fast=unit_rule(unit, "Fast"), slow=unit_rule(unit, "Slow"))


@dataclass(frozen=True)
class MoveRules:
    """What changes how a unit moves.

    Attributes:
        system: ``"gff"`` or ``"riverside"`` (which Unit Cohesion applies).
        strider: ignores difficult terrain (GFF Strider).
        flying: moves through units and terrain, ignores terrain effects and elevation.
        climb_limit: tallest piece a model may climb as part of its move (Riverside: 3").
        difficult_cap: the most any model moves when the unit touches difficult terrain.
        spacing: gap kept from other units' models, along the path and at the end.
        hazard_margin: inches of progress a unit gives up to go around difficult or dangerous
            terrain rather than through it (a player's choice; 0 always takes the shorter way).
    """

    system: str = "gff"
    strider: bool = False
    flying: bool = False
    climb_limit: float = CLIMB_LIMIT
    difficult_cap: float = DIFFICULT_CAP
    spacing: float = SPACING
    hazard_margin: float = 1.0

    def __post_init__(self) -> None:
        check_system(self.system)
        for name in ("climb_limit", "difficult_cap", "spacing", "hazard_margin"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise OptionError(f"{name} out of range", value=value, expected="inches >= 0")

    @staticmethod
    def of(unit: Unit, system: str = "gff") -> MoveRules:
        """The rules a unit's special rules give it."""
        return MoveRules(
            system=system, strider=unit_rule(unit, "Strider"), flying=unit_rule(unit, "Flying")
        )


# --- segment geometry ------------------------------------------------------------------------


def _cross2(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    out: FloatArray = ax * by - ay * bx
    return out


def crossings(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """``(k, m)``: whether segment ``a[i]b[i]`` properly crosses segment ``p[j]q[j]``.

    Touching at an end or running along an edge is not a crossing: paths may hug a corner.
    Each cross product is two float multiplications and a subtraction, each rounded on its
    own: numpy may fuse a complex product into a multiply-add on some CPUs and not on others,
    and a seed must give the same game on every machine.
    """
    if len(a) == 0 or len(p) == 0:
        return np.zeros((len(a), len(p)), dtype=np.bool_)
    px, py, ex, ey = _edges(p, q)
    dx = (b[:, 0] - a[:, 0])[:, None]
    dy = (b[:, 1] - a[:, 1])[:, None]
    wx = px - a[:, 0][:, None]
    wy = py - a[:, 1][:, None]
    o1 = _cross2(dx, dy, wx, wy)  # side of p from ab
    den = _cross2(dx, dy, ex, ey)
    o3 = -_cross2(ex, ey, wx, wy)  # side of a from pq
    # side of q from ab is o1 + den; side of b from pq is o3 - den
    out: BoolArray = (o1 * (o1 + den) < -1e-12) & (o3 * (o3 - den) < -1e-12)
    return out


#: The edge side of :func:`crossings` for frozen edge arrays (the table's obstacles and the
#: blockers' edges, asked about many times), by the arrays' identity. Only read-only arrays
#: that own their data are kept (nothing can change them), and each entry holds its arrays, so
#: their ids stay unique while it is there.
_EDGES: dict[
    int, tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]
] = {}


def _frozen(*arrays: FloatArray) -> None:
    """Make arrays that own their data read-only: their edges may then be kept."""
    for x in arrays:
        if x.base is None:
            x.flags.writeable = False


def _edges(p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Edges ``p -> q`` as rows: their starts' x and y, and their vectors' x and y."""
    frozen = not (p.flags.writeable or q.flags.writeable) and p.base is None and q.base is None
    hit = _EDGES.get(id(p)) if frozen else None
    if hit is None or hit[0] is not p or hit[1] is not q:
        px, py = p[:, 0][None, :], p[:, 1][None, :]
        hit = (p, q, px, py, q[:, 0][None, :] - px, q[:, 1][None, :] - py)
        if frozen:
            if len(_EDGES) >= 4 * _NAV_CACHE_SIZE:
                _EDGES.pop(next(iter(_EDGES)))
            _EDGES[id(p)] = hit
    return hit[2], hit[3], hit[4], hit[5]


def _crossing_params(
    a: Point, b: Point, p: FloatArray, q: FloatArray
) -> tuple[FloatArray, IntArray]:
    """Where along ``ab`` (0..1) it properly crosses each edge ``pq``, sorted; and which edge."""
    aa = np.array([a], dtype=np.float64)
    bb = np.array([b], dtype=np.float64)
    hit = crossings(aa, bb, p, q)[0]
    if not hit.any():
        return np.zeros(0), np.zeros(0, dtype=np.intp)
    idx = np.flatnonzero(hit)
    d = bb[0] - aa[0]
    e = q[idx] - p[idx]
    ap = p[idx] - aa[0]
    t = (ap[:, 0] * e[:, 1] - ap[:, 1] * e[:, 0]) / (d[0] * e[:, 1] - d[1] * e[:, 0])
    order = np.argsort(t, kind="stable")
    return t[order], idx[order]


def _convex_hull(points: FloatArray) -> FloatArray:
    """Counter-clockwise convex hull (Andrew's monotone chain)."""
    pts = sorted({(round(float(x), 9), round(float(y), 9)) for x, y in points})
    if len(pts) <= 2:
        return np.array(pts, dtype=np.float64)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1], dtype=np.float64)


_OCTAGON = np.array(
    [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)], dtype=np.float64
) / math.cos(math.pi / 8)


class Blockers:
    """Other units as obstacles: convex polygons (counter-clockwise), tested all at once.

    Each polygon is kept as half-planes ``n . p > d`` padded to a common count, so "is this
    point inside any of them" is one vectorised test however many units there are.
    """

    def __init__(self, polygons: Sequence[FloatArray] = ()) -> None:
        self.polygons = tuple(np.asarray(p, dtype=np.float64) for p in polygons)
        k = max((len(p) for p in self.polygons), default=0)
        b = len(self.polygons)
        self.nx = np.zeros((b, k))
        self.ny = np.zeros((b, k))
        self.d = np.full((b, k), -1.0)  # padding: 0 > -1 always holds
        if b == 0:
            self.corners = np.zeros((0, 2))
            self.ends = np.zeros((0, 2))
            self.lo = np.zeros((0, 2))
            self.hi = np.zeros((0, 2))
        else:
            # all polygons at once: each corner, the next corner round its polygon, its edge
            sizes = np.array([len(p) for p in self.polygons])
            first = np.concatenate([[0], np.cumsum(sizes)[:-1]])
            which = np.repeat(np.arange(b), sizes)
            col = np.arange(len(which)) - first[which]
            nxt = first[which] + (col + 1) % sizes[which]
            self.corners = np.concatenate(self.polygons)
            self.ends = self.corners[nxt]
            e = self.ends - self.corners
            self.nx[which, col] = -e[:, 1]
            self.ny[which, col] = e[:, 0]
            self.d[which, col] = -e[:, 1] * self.corners[:, 0] + e[:, 0] * self.corners[:, 1]
            # bounding boxes, grown by far more than round-off: a point outside one is
            # outside the polygon, so only points near a polygon are tested against its edges
            self.lo = np.minimum.reduceat(self.corners, first, axis=0) - _BOX_MARGIN
            self.hi = np.maximum.reduceat(self.corners, first, axis=0) + _BOX_MARGIN
        _frozen(self.corners, self.ends)
        self._merged: dict[int, tuple[FloatArray, FloatArray, FloatArray, FloatArray]] = {}
        self._sights: dict[int, _Sight] = {}

    def __len__(self) -> int:
        return len(self.polygons)

    def with_edges(self, p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Other edges ``p -> q`` (a table's obstacles) together with these, kept for reuse."""
        key = id(p)
        hit = self._merged.get(key)
        if hit is None or hit[0] is not p or hit[1] is not q:
            hit = (p, q, np.concatenate([p, self.corners]), np.concatenate([q, self.ends]))
            _frozen(hit[2], hit[3])
            if len(self._merged) >= _NAV_CACHE_SIZE:
                self._merged.pop(next(iter(self._merged)))
            self._merged[key] = hit
        return hit[2], hit[3]

    def sight(self, nav: NavGraph) -> _Sight:
        """The A* graph these blockers give ``nav`` (kept, and filled in as it is searched)."""
        hit = self._sights.get(id(nav))
        if hit is None or hit.nav is not nav:
            hit = _Sight(nav, self)
            if len(self._sights) >= _NAV_CACHE_SIZE:
                self._sights.pop(next(iter(self._sights)))
            self._sights[id(nav)] = hit
        return hit

    def contains(self, points: FloatArray) -> BoolArray:
        """Which points lie strictly inside any of the polygons."""
        if not self.polygons or len(points) == 0:
            return np.zeros(len(points), dtype=np.bool_)
        x, y = points[:, 0, None], points[:, 1, None]
        near = (x >= self.lo[:, 0]) & (x <= self.hi[:, 0])
        near &= (y >= self.lo[:, 1]) & (y <= self.hi[:, 1])
        i, j = np.nonzero(near)
        out = np.zeros(len(points), dtype=np.bool_)
        if len(i) == 0:
            return out
        side = (points[i, 0, None] * self.nx[j] + points[i, 1, None] * self.ny[j]) - self.d[j]
        out[i[(side > 1e-9).all(axis=1)]] = True
        return out


#: Inches a blocker's bounding box is grown by before the exact test (far above round-off).
_BOX_MARGIN = 1e-6

NO_BLOCKERS = Blockers()


def blockers_for(
    others: Sequence[Placement],
    radius: float,
    *,
    gap: float = SPACING,
    exempt: Sequence[Placement] = (),
    skip: Placement | None = None,
) -> Blockers:
    """Each other unit as a convex obstacle for a model of ``radius`` keeping ``gap`` from it:
    the hull of its models grown by the gap (a little generously, by octagons around each).
    ``exempt`` units (a charge's target) may be touched: each of their models is an octagon
    just inside the circle where bases touch, so paths go round them but reach contact.

    Units that did not move give the same obstacles again, so the answer is kept (keyed on
    the models' positions, not on the units) and reused with what it has learnt (edges,
    which corners see each other) by the next move among the same units."""
    parts: list[tuple[bool, FloatArray, FloatArray]] = []
    seen: list[Placement] = []
    for o in [*others, *exempt]:
        if o is skip or any(o is s for s in seen):
            continue
        seen.append(o)
        c = o.centres[o.alive]
        r = o.radii[o.alive]
        if len(c) == 0:
            continue
        parts.append((any(o is e for e in exempt), c, r))
    key = (
        float(radius),
        float(gap),
        tuple((ex, c.tobytes(), r.tobytes()) for ex, c, r in parts),
    )
    hit = _BLOCKERS.get(key)
    if hit is not None:
        return hit
    out: list[FloatArray] = []
    for part, (ex, c, r) in zip(key[2], parts, strict=True):
        pkey = (key[0], key[1], part)
        polys = _PARTS.get(pkey)
        if polys is None:
            polys = _unit_polygons(ex, c, r, radius, gap)
            if len(_PARTS) >= 4 * _BLOCKERS_SIZE:
                _PARTS.pop(next(iter(_PARTS)))
            _PARTS[pkey] = polys
        out += polys
    made = Blockers(out)
    if len(_BLOCKERS) >= _BLOCKERS_SIZE:
        _BLOCKERS.pop(next(iter(_BLOCKERS)))
    _BLOCKERS[key] = made
    return made


def _unit_polygons(
    exempt: bool, c: FloatArray, r: FloatArray, radius: float, gap: float
) -> list[FloatArray]:
    """One unit's obstacle polygons (see :func:`blockers_for`)."""
    if exempt:
        # bases may touch: each model alone, an octagon inside the circle of contact
        return [
            centre + (radius + rr) * math.cos(math.pi / 8) * _OCTAGON
            for centre, rr in zip(c, r, strict=True)
        ]
    reach = radius + r + gap + CLEARANCE
    pts = (c[:, None, :] + reach[:, None, None] * _OCTAGON[None, :, :]).reshape(-1, 2)
    hull = _convex_hull(pts)
    return [hull] if len(hull) >= 3 else []


_BlockersKey = tuple[float, float, tuple[tuple[bool, bytes, bytes], ...]]
#: One unit's obstacles by (radius, gap, (exempt, centres, radii)): most units stand still.
_PARTS: dict[tuple[float, float, tuple[bool, bytes, bytes]], list[FloatArray]] = {}
_BLOCKERS: dict[_BlockersKey, Blockers] = {}
_BLOCKERS_SIZE = 256


# --- the navigation graph (cached per table and base radius) ---------------------------------


@dataclass(eq=False)
class NavGraph:
    """Shortest paths for one base radius among one table's static obstacles.

    Attributes:
        table: the table it was built for.
        radius: the base radius it inflates obstacles by.
        geom: the inflated obstacles (shapely, prepared), or ``None`` on an open table.
        edge_a, edge_b: the obstacles' edges ``(E, 2)``.
        verts: graph vertices ``(V, 2)``: the obstacles' corners that stick out into free space.
        vis: ``(V, V)`` which vertices see each other.
        dist: ``(V, V)`` all-pairs path costs (length plus climb).
        nxt: ``(V, V)`` next vertex on the shortest path (``-1``: none).
        climb_a, climb_b, climb_h: edges of climbable elevated pieces and their heights.
    """

    table: Table
    radius: float
    geom: Any
    edge_a: FloatArray
    edge_b: FloatArray
    verts: FloatArray
    vis: BoolArray
    dist: FloatArray
    nxt: IntArray
    climb_a: FloatArray
    climb_b: FloatArray
    climb_h: FloatArray
    lo: FloatArray = field(default_factory=lambda: np.zeros(2))
    hi: FloatArray = field(default_factory=lambda: np.zeros(2))

    def free(self, points: FloatArray, blockers: Blockers = NO_BLOCKERS) -> BoolArray:
        """Which points a model centre may pass through."""
        inside = (points >= self.lo - TOL) & (points <= self.hi + TOL)
        ok = np.asarray(inside.all(axis=1), dtype=np.bool_)
        if self.geom is not None and ok.any():
            ok[ok] = ~shapely.contains_xy(self.geom, points[ok, 0], points[ok, 1])
        if len(blockers) and ok.any():
            ok[ok] = ~blockers.contains(points[ok])
        return ok

    def clear(
        self,
        a: FloatArray,
        b: FloatArray,
        blockers: Blockers = NO_BLOCKERS,
        *,
        static: bool = True,
    ) -> BoolArray:
        """Whether each straight segment ``a[i] -> b[i]`` is free of obstacles: it crosses no
        obstacle edge and no point along it lies inside one (a diagonal between two corners)."""
        ok = np.ones(len(a), dtype=np.bool_)
        if static and len(blockers):
            p, q = blockers.with_edges(self.edge_a, self.edge_b)
            ok &= ~crossings(a, b, p, q).any(axis=1)
        elif static and len(self.edge_a):
            ok &= ~crossings(a, b, self.edge_a, self.edge_b).any(axis=1)
        elif len(blockers):
            ok &= ~crossings(a, b, blockers.corners, blockers.ends).any(axis=1)
        if not ok.any() or ((self.geom is None or not static) and not len(blockers)):
            return ok
        idx = np.flatnonzero(ok)
        samples = (a[idx, None, :] + (b - a)[idx, None, :] * _SAMPLES[None, :, None]).reshape(-1, 2)
        inside = np.zeros(len(samples), dtype=np.bool_)
        if static and self.geom is not None:
            inside |= shapely.contains_xy(self.geom, samples[:, 0], samples[:, 1])
        inside |= blockers.contains(samples)
        ok[idx[inside.reshape(-1, len(_SAMPLES)).any(axis=1)]] = False
        return ok

    def climb(self, a: FloatArray, b: FloatArray) -> FloatArray:
        """Vertical inches climbed or dropped along each segment (crossing elevated edges)."""
        if len(self.climb_h) == 0 or len(a) == 0:
            return np.zeros(len(a))
        out: FloatArray = (
            crossings(a, b, self.climb_a, self.climb_b).astype(np.float64) @ self.climb_h
        )
        return out

    def cost(self, a: FloatArray, b: FloatArray) -> FloatArray:
        out: FloatArray = np.hypot(*(b - a).T) + self.climb(a, b)
        return out


_SAMPLES = np.array([0.25, 0.5, 0.75])
_NAV: dict[tuple[int, float, bool, bool, bool, float], NavGraph] = {}
_NAV_CACHE_SIZE = 64


def _hazard(piece: TerrainPiece, large: bool) -> bool:
    return is_difficult(piece, large) or piece.has(TerrainType.DANGEROUS)


def nav_graph(
    table: Table,
    radius: float,
    *,
    avoid_hazards: bool = False,
    large: bool = False,
    flying: bool = False,
    climb_limit: float = CLIMB_LIMIT,
) -> NavGraph:
    """The (cached) navigation graph for a base of ``radius`` on ``table``.

    Obstacles: impassable pieces and pieces too tall to climb; with ``avoid_hazards`` also
    difficult and dangerous ones (to find the way around them). Flying has none.
    """
    key = (id(table), round(radius, 6), avoid_hazards, large, flying, climb_limit)
    hit = _NAV.get(key)
    if hit is not None and hit.table is table:
        return hit
    nav = _build_nav(table, radius, avoid_hazards, large, flying, climb_limit)
    if len(_NAV) >= _NAV_CACHE_SIZE:
        _NAV.pop(next(iter(_NAV)))
    _NAV[key] = nav
    return nav


def _build_nav(
    table: Table,
    radius: float,
    avoid_hazards: bool,
    large: bool,
    flying: bool,
    climb_limit: float,
) -> NavGraph:
    polys = []
    ca: list[tuple[float, float]] = []
    cb: list[tuple[float, float]] = []
    ch: list[float] = []
    for piece in table.pieces if not flying else ():
        tall = piece.has(TerrainType.ELEVATED) and piece.height > climb_limit
        blocking = piece.has(TerrainType.IMPASSABLE) or tall
        if avoid_hazards and _hazard(piece, large):
            blocking = True
        if blocking:
            polys.append(
                shapely.Polygon(piece.outline).buffer(
                    radius + CLEARANCE, join_style="mitre", mitre_limit=2.0
                )
            )
        elif piece.has(TerrainType.ELEVATED) and piece.height > 0:
            outline = list(piece.outline)
            for i, p in enumerate(outline):
                ca.append(p)
                cb.append(outline[(i + 1) % len(outline)])
                ch.append(piece.height)
    lo = np.array([radius, radius])
    hi = np.array([table.width - radius, table.depth - radius])
    geom = None
    rings: list[FloatArray] = []
    if polys:
        geom = shapely.orient_polygons(shapely.union_all(polys), exterior_cw=False)
        for part in shapely.get_parts(geom):
            for ring in [part.exterior, *part.interiors]:
                rings.append(np.asarray(ring.coords, dtype=np.float64)[:-1])
        shapely.prepare(geom)
    edge_a = np.concatenate([r for r in rings]) if rings else np.zeros((0, 2))
    edge_b = np.concatenate([np.roll(r, -1, axis=0) for r in rings]) if rings else np.zeros((0, 2))
    _frozen(edge_a, edge_b)
    verts_l: list[FloatArray] = []
    for r in rings:
        prev, after = np.roll(r, 1, axis=0), np.roll(r, -1, axis=0)
        turn = _cross2(
            r[:, 0] - prev[:, 0], r[:, 1] - prev[:, 1], after[:, 0] - r[:, 0], after[:, 1] - r[:, 1]
        )
        verts_l.append(r[turn > 1e-12])
    verts = np.concatenate(verts_l) if verts_l else np.zeros((0, 2))
    inside = ((verts >= lo - TOL) & (verts <= hi + TOL)).all(axis=1)
    verts = verts[inside]
    nav = NavGraph(
        table,
        radius,
        geom,
        edge_a,
        edge_b,
        verts,
        np.zeros((0, 0), dtype=np.bool_),
        np.zeros((0, 0)),
        np.zeros((0, 0), dtype=np.intp),
        np.array(ca, dtype=np.float64).reshape(-1, 2),
        np.array(cb, dtype=np.float64).reshape(-1, 2),
        np.array(ch, dtype=np.float64),
        lo,
        hi,
    )
    v = len(verts)
    vis = np.zeros((v, v), dtype=np.bool_)
    cost = np.full((v, v), np.inf)
    for i in range(v - 1):
        a = np.repeat(verts[i : i + 1], v - i - 1, axis=0)
        b = verts[i + 1 :]
        ok = nav.clear(a, b)
        vis[i, i + 1 :] = ok
        cost[i, i + 1 :] = np.where(ok, nav.cost(a, b), np.inf)
    vis |= vis.T
    cost = np.minimum(cost, cost.T)
    np.fill_diagonal(cost, 0.0)
    nxt = np.where(np.isfinite(cost), np.arange(v)[None, :], -1).astype(np.intp)
    dist = cost
    for k in range(v):
        via = dist[:, k : k + 1] + dist[k : k + 1, :]
        better = via < dist - 1e-12
        if better.any():  # column and row k never improve, so in place is safe
            np.copyto(dist, via, where=better)
            np.copyto(nxt, np.broadcast_to(nxt[:, k : k + 1], nxt.shape), where=better)
    nav.vis = vis
    nav.dist = dist
    nav.nxt = nxt
    return nav


# --- paths ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """A model's path: its corners, horizontal length, vertical climb, and whether it reaches
    the goal asked for (else it ends at the reachable point nearest it)."""

    points: tuple[Point, ...]
    length: float
    climb: float
    reached: bool = True

    @property
    def cost(self) -> float:
        """Inches of movement it uses: horizontal plus vertical."""
        return self.length + self.climb


def _pt(a: FloatArray) -> Point:
    return (float(a[0]), float(a[1]))


def _nearest_free(nav: NavGraph, p: FloatArray, blockers: Blockers) -> FloatArray | None:
    for band in _ESCAPE:
        cand = p + band
        ok = nav.free(cand, blockers)
        if ok.any():
            got: FloatArray = cand[int(np.argmax(ok))]
            return got
    return None


def _escape_bands() -> list[FloatArray]:
    bands = []
    for rhos, arc in (
        (np.arange(0.02, 0.3, 0.04), 0.05),
        (np.arange(0.3, 1.5, 0.1), 0.1),
        (np.arange(1.5, 4.01, 0.25), 0.2),
        (np.arange(4.5, 12.01, 0.5), 0.4),
    ):
        pts = []
        for rho in rhos:
            k = max(16, math.ceil(2 * math.pi * rho / arc))
            pts += [
                (rho * math.cos(2 * math.pi * a / k), rho * math.sin(2 * math.pi * a / k))
                for a in range(k)
            ]
        bands.append(np.array(pts, dtype=np.float64))
    return bands


_ESCAPE = _escape_bands()


def find_path(nav: NavGraph, start: Point, goal: Point, blockers: Blockers = NO_BLOCKERS) -> Path:
    """Shortest path from ``start`` to ``goal`` for a model, around static obstacles and the
    ``blockers`` (other units).

    An end inside an obstacle (a base near a corner, a spot 1" from another unit inside its
    slightly generous hull, a model still in melee) is joined to the nearest free point by a
    short straight step. If the goal cannot be reached, the path ends at the reachable vertex
    nearest the goal.
    """
    s0 = np.array(start, dtype=np.float64)
    g0 = np.array(goal, dtype=np.float64)
    pre: list[FloatArray] = [s0]
    post: list[FloatArray] = [g0]
    s, g = s0, g0
    free_s, free_g = nav.free(np.vstack([s, g]), blockers)
    if not free_s:
        got = _nearest_free(nav, s, blockers)
        if got is None:
            return Path((_pt(s0),), 0.0, 0.0, reached=bool(np.allclose(s0, g0)))
        s = got
        pre.append(s)
    reachable_goal = True
    if not free_g:
        got = _nearest_free(nav, g, blockers)
        if got is None:
            reachable_goal = False
        else:
            g = got
            post.insert(0, g)
    if reachable_goal and nav.clear(s[None, :], g[None, :], blockers)[0]:
        middle = [s, g]
    else:
        middle, found = _graph_path(nav, s, g, blockers)
        if not found or not reachable_goal:
            post = []
            reachable_goal = False
    pts = _dedupe([*pre, *middle[1:-1], middle[-1], *post] if middle else pre)
    arr = np.array(pts)
    length = float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0
    climb = float(nav.climb(arr[:-1], arr[1:]).sum()) if len(arr) > 1 else 0.0
    return Path(tuple(_pt(p) for p in arr), length, climb, reached=reachable_goal)


def _dedupe(points: list[FloatArray]) -> list[FloatArray]:
    out: list[FloatArray] = []
    for p in points:
        if not out or float(np.hypot(*(p - out[-1]))) > 1e-9:
            out.append(p)
    return out


def _graph_path(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers
) -> tuple[list[FloatArray], bool]:
    """Via the static all-pairs table; if that path runs into a blocker, A* with blockers."""
    path, found = _static_path(nav, s, g)
    if not len(blockers):
        return path, found
    arr = np.array(path)
    if found and nav.clear(arr[:-1], arr[1:], blockers, static=False).all():
        return path, True
    return _astar(nav, s, g, blockers)


def _static_path(nav: NavGraph, s: FloatArray, g: FloatArray) -> tuple[list[FloatArray], bool]:
    v = len(nav.verts)
    if v == 0:
        return [s], False
    rep_s = np.repeat(s[None, :], v, axis=0)
    rep_g = np.repeat(g[None, :], v, axis=0)
    see_s = nav.clear(rep_s, nav.verts)
    see_g = nav.clear(nav.verts, rep_g)
    cs = np.where(see_s, nav.cost(rep_s, nav.verts), np.inf)
    cg = np.where(see_g, nav.cost(nav.verts, rep_g), np.inf)
    via = cs[:, None] + nav.dist  # (V, V): start -> i -> ... -> j
    total = via + cg[None, :]
    flat = int(np.argmin(total))
    i, j = divmod(flat, v)
    if not np.isfinite(total[i, j]):
        reach = via.min(axis=0)
        if not np.isfinite(reach).any():
            return [s], False
        cand = np.flatnonzero(np.isfinite(reach))
        dj = np.hypot(*(nav.verts[cand] - g).T)
        best = int(cand[int(np.argmin(dj))])
        if float(np.hypot(*(s - g))) <= float(dj.min()):
            return [s], False
        i = int(np.argmin(via[:, best]))
        return [s, *_walk_nxt(nav, i, best)], False
    return [s, *_walk_nxt(nav, i, j), g], True


def _walk_nxt(nav: NavGraph, i: int, j: int) -> list[FloatArray]:
    out = [nav.verts[i]]
    guard = 0
    while i != j and guard <= len(nav.verts):
        i = int(nav.nxt[i, j])
        out.append(nav.verts[i])
        guard += 1
    return out


def _astar(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers
) -> tuple[list[FloatArray], bool]:
    """A* over the graph's corners and the blockers' free corners, from ``s`` to ``g``.

    Sight lines are measured only where they could change the search: toward nodes not yet
    done that the step would bring closer (by the 1e-12 the search asks for) and whose estimate
    is at most the cost of some known way to the goal (plus far more than round-off). Any other
    node would be popped after the goal, so the search never uses it; every node it pops, and
    so the path, is the one the search measuring every line finds.

    A known way comes early from a first search among the nodes near the straight line (within
    an ellipse round ``s`` and ``g``): its path is a path of the whole graph, so its cost bounds
    the goal's. The lines it measured are kept for the second search, which then measures
    little more than the nodes inside the bound.
    """
    sight = blockers.sight(nav)
    upper = math.inf
    nodes = sight.nodes
    if len(nodes) > _NEAR_NODES:
        d = float(np.hypot(*(g - s)))
        reach = np.hypot(*(nodes - s).T) + np.hypot(*(nodes - g).T)
        near = reach <= _ELLIPSE * d + _ELLIPSE_PAD
        if near.sum() < len(nodes):
            _, found, cost = _graph_search(nav, s, g, blockers, sight, math.inf, near)
            if found:
                upper = cost
    path, found, _ = _graph_search(nav, s, g, blockers, sight, upper, None)
    return path, found


_NO_NODES = np.zeros(0, dtype=np.intp)
#: A* first searches near the straight line when there are more nodes than this.
_NEAR_NODES = 24
#: The ellipse of that first search: nodes ``j`` with ``|s j| + |j g|`` at most this many times
#: ``|s g|``, plus the pad (inches).
_ELLIPSE = 1.3
_ELLIPSE_PAD = 4.0


def _graph_search(
    nav: NavGraph,
    s: FloatArray,
    g: FloatArray,
    blockers: Blockers,
    sight: _Sight,
    upper: float,
    allowed: BoolArray | None,
) -> tuple[list[FloatArray], bool, float]:
    """A* from ``s`` to ``g`` among the sight's nodes (only ``allowed`` ones, if given); nodes
    whose estimate exceeds ``upper`` (a cost the goal's is known to be at most) are left out.
    Returns the path, whether it reaches ``g``, and its cost."""
    fixed = sight.nodes
    f = len(fixed)
    nodes = np.vstack([fixed, s[None, :], g[None, :]])
    n = len(nodes)
    si, gi = n - 2, n - 1
    best = np.full(n, np.inf)
    best[si] = 0.0
    came = np.full(n, -1, dtype=np.intp)
    done = np.zeros(n, dtype=np.bool_)
    h = np.hypot(*(nodes - g).T)
    h_fixed = h[:f]
    gkey = g.tobytes()
    toward = sight.toward(gkey)
    heap = [(float(h[si]), si)]
    while heap:
        _, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        if u == gi:
            break
        key: int | bytes = s.tobytes() if u == si else u
        p = nodes[u]
        seen_g = toward.get(key)
        cand = unknown = _NO_NODES
        if f:
            dist, vis = sight.line(key, p)
            newc = best[u] + dist
            want = ~done[:f] & (newc < best[:f] - 1e-12)
            if allowed is not None:
                want &= allowed
            bound = min(float(best[gi]), upper)
            if seen_g is not None and seen_g[0]:  # the goal, reached from here
                bound = min(bound, float(best[u] + seen_g[1]))
            if bound < math.inf:
                want &= newc + h_fixed <= bound + _POP_MARGIN
            cand = np.flatnonzero(want)
            unknown = cand[vis[cand] < 0]
        if seen_g is None or len(unknown):
            got = sight.measure(key, p, unknown, blockers, g if seen_g is None else None)
            if seen_g is None:
                ok_g = got
                cost_g = math.inf
                if ok_g:
                    climbs = len(nav.climb_h)
                    cost_g = float(nav.cost(p[None, :], g[None, :])[0]) if climbs else float(h[u])
                seen_g = toward[key] = (ok_g, cost_g)
        if seen_g[0]:
            c = best[u] + seen_g[1]
            if c < best[gi] - 1e-12:
                best[gi] = c
                came[gi] = u
                heapq.heappush(heap, (float(c + h[gi]), int(gi)))
        if len(cand):
            for j in cand[vis[cand] == 1].tolist():
                c = newc[j]
                best[j] = c
                came[j] = u
                heapq.heappush(heap, (float(c + h[j]), j))
    if np.isfinite(best[gi]):
        end = gi
        found = True
    else:
        reached = np.flatnonzero(np.isfinite(best))
        end = int(reached[int(np.argmin(h[reached]))])
        found = False
    out = []
    k = end
    while k != -1:
        out.append(nodes[k])
        k = int(came[k])
    return out[::-1], found, float(best[gi])


#: A node whose estimate exceeds the goal's cost by more than this is popped after the goal.
_POP_MARGIN = 1e-9
#: Starts and goals each :class:`_Sight` keeps what it sees from and toward.
_ENDS_SIZE = 64


class _Sight:
    """The A* graph one set of blockers gives one navigation graph: its nodes (the graph's
    corners and the blockers' free corners) and, filled in as searches need them, which nodes
    each node (or start) sees and at what cost. Blockers are kept while the units stand still,
    so later searches among the same units (and a unit's models from the same start or toward
    the same goal) reuse what was measured.

    Each sight line is tested on its own, as one row of the whole graph would test it: static
    corners see each other through the graph's own visibility less the blockers, every other
    line is tested against everything (:meth:`NavGraph.clear`)."""

    def __init__(self, nav: NavGraph, blockers: Blockers) -> None:
        self.nav = nav
        extra = blockers.corners
        extra = extra[nav.free(extra, blockers)] if len(extra) else extra
        self.nodes: FloatArray = np.vstack([nav.verts, extra])
        #: per node (index) or start (bytes): the cost to every node, and which it sees
        #: (1 yes, 0 no, -1 not measured yet)
        self.lines: dict[int | bytes, tuple[FloatArray, npt.NDArray[np.int8]]] = {}
        self.starts: list[bytes] = []
        self.goals: dict[bytes, dict[int | bytes, tuple[bool, float]]] = {}

    def toward(self, gkey: bytes) -> dict[int | bytes, tuple[bool, float]]:
        """What each node and start is known to see of the goal ``gkey``, and at what cost."""
        found = self.goals.get(gkey)
        if found is None:
            if len(self.goals) >= _ENDS_SIZE:
                self.goals.pop(next(iter(self.goals)))
            found = self.goals[gkey] = {}
        return found

    def line(self, key: int | bytes, p: FloatArray) -> tuple[FloatArray, npt.NDArray[np.int8]]:
        """From node ``key`` (or a start, by its bytes) at ``p``: the cost to every node (as if
        it saw it) and what is known of which it sees."""
        hit = self.lines.get(key)
        if hit is None:
            f = len(self.nodes)
            dist = self.nav.cost(np.repeat(p[None, :], f, axis=0), self.nodes)
            vis = np.full(f, -1, dtype=np.int8)
            if isinstance(key, bytes):
                if len(self.starts) >= _ENDS_SIZE:
                    self.lines.pop(self.starts.pop(0), None)
                self.starts.append(key)
            else:
                vis[key] = 0
            hit = self.lines[key] = (dist, vis)
        return hit

    def measure(
        self,
        key: int | bytes,
        p: FloatArray,
        idx: IntArray,
        blockers: Blockers,
        goal: FloatArray | None = None,
    ) -> bool:
        """Test the sight lines from ``key`` (at ``p``) to the nodes ``idx`` and (if given)
        to ``goal``, in one batch; returns whether it sees the goal."""
        nav, nodes = self.nav, self.nodes
        rest = idx
        if len(idx):
            vis = self.lines[key][1]
            v = len(nav.verts)
            if isinstance(key, int) and key < v:
                corners, rest = idx[idx < v], idx[idx >= v]
                if len(corners):
                    vis[corners] = 0
                    st = corners[nav.vis[key, corners]]
                    if len(st):
                        a = np.repeat(p[None, :], len(st), axis=0)
                        vis[st] = nav.clear(a, nodes[st], blockers, static=False)
        ends = nodes[rest] if goal is None else np.vstack([nodes[rest], goal[None, :]])
        if not len(ends):
            return False
        seen = nav.clear(np.repeat(p[None, :], len(ends), axis=0), ends, blockers)
        if len(rest):
            vis[rest] = seen[: len(rest)]
        return goal is not None and bool(seen[-1])


def walk(
    nav: NavGraph | None, points: Sequence[Point], budget: float
) -> tuple[tuple[Point, ...], float]:
    """Follow ``points`` for at most ``budget`` inches of movement (climbs count; a model does
    not stop halfway up a climb). Returns the points walked and the movement used."""
    pts = [np.array(p, dtype=np.float64) for p in points]
    out = [pts[0]]
    used = 0.0
    for a, b in itertools.pairwise(pts):
        seg = float(np.hypot(*(b - a)))
        if seg <= 0:
            continue
        events: list[tuple[float, float]] = []
        if nav is not None and len(nav.climb_h):
            ts, idx = _crossing_params(_pt(a), _pt(b), nav.climb_a, nav.climb_b)
            events = [(float(t), float(nav.climb_h[i])) for t, i in zip(ts, idx, strict=True)]
        t_prev = 0.0
        for t, dz in [*events, (1.0, 0.0)]:
            run = seg * (t - t_prev)
            if used + run > budget + 1e-12:
                frac = t_prev + max(0.0, budget - used) / seg
                out.append(a + (b - a) * frac)
                return tuple(_pt(p) for p in _dedupe(out)), min(
                    budget, used + seg * (frac - t_prev)
                )
            used += run
            if dz > 0 and used + dz > budget + 1e-12:
                back = max(t_prev, t - 1e-6 / seg)
                used -= seg * (t - back)
                out.append(a + (b - a) * back)
                return tuple(_pt(p) for p in _dedupe(out)), used
            used += dz
            t_prev = t
        out.append(b)
    return tuple(_pt(p) for p in _dedupe(out)), used


def _polyline_length(points: Sequence[Point]) -> float:
    arr = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0


_POLYS: dict[tuple[int, TerrainType, bool], tuple[Table, Any]] = {}


def _terrain_polygons(table: Table, kind: TerrainType, large: bool = False) -> Any:
    """The (cached, prepared) polygons of the pieces of ``kind`` as a numpy object array."""
    key = (id(table), kind, large)
    hit = _POLYS.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    polys = np.array(
        [
            shapely.Polygon(p.outline)
            for p in table.pieces
            if (is_difficult(p, large) if kind is TerrainType.DIFFICULT else p.has(kind))
        ],
        dtype=object,
    )
    shapely.prepare(polys)
    if len(_POLYS) >= 4 * _NAV_CACHE_SIZE:
        _POLYS.pop(next(iter(_POLYS)))
    _POLYS[key] = (table, polys)
    return polys


def path_touches(
    table: Table,
    paths: Sequence[Sequence[Point]],
    radii: FloatArray,
    kind: TerrainType,
    *,
    large: bool = False,
) -> BoolArray:
    """Which models moved in or through terrain of ``kind`` (their base swept along the path
    touches the piece). Models that did not move touched nothing. For Large models, pieces
    that are difficult for Large models (Riverside Barricades) count as difficult."""
    out = np.zeros(len(paths), dtype=np.bool_)
    geoms = _terrain_polygons(table, kind, large)
    if len(geoms) == 0:
        return out
    moved = [i for i, pts in enumerate(paths) if len(pts) > 1 and _polyline_length(pts) > 1e-9]
    if not moved:
        return out
    coords = np.concatenate([np.asarray(paths[i], dtype=np.float64) for i in moved])
    index = np.repeat(np.arange(len(moved)), [len(paths[i]) for i in moved])
    lines = shapely.linestrings(coords, indices=index)
    near = shapely.dwithin(lines[:, None], geoms[None, :], np.asarray(radii)[moved][:, None])
    out[moved] = near.any(axis=1)
    return out


# --- a unit's move ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MoveResult:
    """How a unit moved.

    Attributes:
        placement: where its models stand now (removed models stay where they were).
        paths: each model's path (one point for a model that did not move).
        path_lengths: movement each model used: horizontal length plus climb.
        allowance: the allowance in effect (after the difficult-terrain cap).
        difficult: a model moved in or through difficult terrain (and it counted).
        dangerous: which models moved in or through dangerous terrain.
        coherent: the unit ends in Unit Cohesion.
        advanced: how far the unit's centre got along its way toward the goal.
    """

    placement: Placement
    paths: tuple[tuple[Point, ...], ...]
    path_lengths: FloatArray
    allowance: float
    difficult: bool
    dangerous: BoolArray
    coherent: bool
    advanced: float


@dataclass
class Mover:
    """Everything one move of one unit needs, worked out once: its navigation graphs (per base
    radius, with or without going around hazards) and the other units as blockers.

    ``exempt`` units (a charge's target) may be approached to base contact; ``avoid`` makes
    difficult and dangerous terrain obstacles, to find the way around them.
    """

    table: Table
    unit: Placement
    others: Sequence[Placement]
    rules: MoveRules
    exempt: tuple[Placement, ...]
    avoid: bool
    idx: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.intp))
    started_coherent: bool = False
    navs: dict[float, NavGraph | None] = field(default_factory=dict)
    blockers: dict[float, Blockers] = field(default_factory=dict)

    def nav(self, radius: float) -> NavGraph | None:
        key = round(radius, 6)
        if key not in self.navs:
            self.navs[key] = (
                None
                if self.rules.flying
                else nav_graph(
                    self.table,
                    radius,
                    avoid_hazards=self.avoid,
                    large=self.unit.large,
                    climb_limit=self.rules.climb_limit,
                )
            )
        return self.navs[key]

    def blocks(self, radius: float) -> Blockers:
        key = round(radius, 6)
        if key not in self.blockers:
            self.blockers[key] = (
                NO_BLOCKERS
                if self.rules.flying
                else blockers_for(
                    self.others, radius, gap=self.rules.spacing, exempt=self.exempt, skip=self.unit
                )
            )
        return self.blockers[key]

    def path(self, radius: float, start: FloatArray, goal: FloatArray) -> Path:
        nav = self.nav(radius)
        if nav is None:
            length = float(np.hypot(*(goal - start)))
            pts = (_pt(start),) if length <= 1e-12 else (_pt(start), _pt(goal))
            return Path(pts, length, 0.0)
        if float(np.hypot(*(goal - start))) <= 1e-12:
            return Path((_pt(start),), 0.0, 0.0)
        return find_path(nav, _pt(start), _pt(goal), self.blocks(radius))


def _heading(points: Sequence[Point], fallback: FloatArray) -> FloatArray:
    for a, b in zip(points[-2::-1], points[:0:-1], strict=False):
        d: FloatArray = np.array(b, dtype=np.float64) - np.array(a, dtype=np.float64)
        if float(np.hypot(*d)) > 1e-9:
            return d
    if float(np.hypot(*fallback)) > 1e-9:
        return fallback
    return np.array([0.0, 1.0])


def _assign(starts: FloatArray, slots: FloatArray) -> FloatArray:
    """Give each model a slot, nearest pairs first, so nobody walks across the unit."""
    n = len(starts)
    cost = np.hypot(*(starts[:, None, :] - slots[None, :, :]).transpose(2, 0, 1))
    out = np.zeros_like(starts)
    for _ in range(n):
        i, j = divmod(int(np.argmin(cost)), n)
        out[i] = slots[j]
        cost[i, :] = np.inf
        cost[:, j] = np.inf
    return out


@dataclass(frozen=True)
class _Plan:
    centres: FloatArray
    paths: tuple[tuple[Point, ...], ...]
    costs: FloatArray
    advanced: float
    allowance: float


def _paths(
    m: Mover,
    starts: FloatArray,
    goals: FloatArray,
    radii: FloatArray,
    guide: FloatArray | None = None,
) -> list[Path]:
    """Each model's path. Straight lines are tested for all models at once; a model that
    cannot go straight first tries the unit centre's own route, shifted to start from the
    model (any path within the allowance will do, and a unit moves along one route); only the
    rest are searched."""
    n = len(starts)
    out: list[Path | None] = [None] * n
    lengths = np.hypot(*(goals - starts).T)
    rounded = np.round(radii, 6)
    for r in sorted(set(rounded.tolist())):
        group = np.flatnonzero(rounded == r)
        nav = m.nav(float(r))
        if nav is None:
            for k in group:
                pts = (_pt(starts[k]),) if lengths[k] <= 1e-12 else (_pt(starts[k]), _pt(goals[k]))
                out[k] = Path(pts, float(lengths[k]), 0.0)
            continue
        blocks = m.blocks(float(r))
        a, b = starts[group], goals[group]
        ends = nav.free(np.vstack([a, b]), blocks)
        ok = ends[: len(a)] & ends[len(a) :] & nav.clear(a, b, blocks)
        climbs = nav.climb(a, b)
        pending: list[int] = []
        for j, k in enumerate(group):
            if lengths[k] <= 1e-12:
                out[k] = Path((_pt(starts[k]),), 0.0, 0.0)
            elif ok[j]:
                out[k] = Path((_pt(starts[k]), _pt(goals[k])), float(lengths[k]), float(climbs[j]))
            else:
                pending.append(int(k))
        if pending and guide is not None and len(guide) > 2:
            for i, path in zip(
                pending, _guided(nav, blocks, starts, goals, pending, guide), strict=True
            ):
                out[i] = path
        for i in pending:
            if out[i] is None:
                out[i] = find_path(nav, _pt(starts[i]), _pt(goals[i]), blocks)
    return [p for p in out if p is not None]


def _guided(
    nav: NavGraph,
    blocks: Blockers,
    starts: FloatArray,
    goals: FloatArray,
    models: list[int],
    guide: FloatArray,
) -> list[Path | None]:
    """The guide route shifted onto each model (then on to its goal), if it is clear."""
    segs_a: list[FloatArray] = []
    segs_b: list[FloatArray] = []
    owners: list[int] = []
    routes: list[FloatArray] = []
    for j, k in enumerate(models):
        pts = guide + (starts[k] - guide[0])
        if float(np.hypot(*(pts[-1] - goals[k]))) > 1e-9:
            pts = np.vstack([pts, goals[k][None, :]])
        routes.append(pts)
        segs_a.append(pts[:-1])
        segs_b.append(pts[1:])
        owners += [j] * (len(pts) - 1)
    a, b = np.concatenate(segs_a), np.concatenate(segs_b)
    ok = nav.clear(a, b, blocks)
    who = np.array(owners)
    good = np.ones(len(models), dtype=np.bool_)
    np.logical_and.at(good, who, ok)
    seg_len = np.hypot(*(b - a).T)
    climb = nav.climb(a, b)
    out: list[Path | None] = []
    for j, pts in enumerate(routes):
        if not good[j]:
            out.append(None)
            continue
        mine = who == j
        out.append(
            Path(tuple(_pt(p) for p in pts), float(seg_len[mine].sum()), float(climb[mine].sum()))
        )
    return out


def _plan_for(
    m: Mover, slots: FloatArray, allow: float, advanced: float, guide: FloatArray | None = None
) -> tuple[_Plan | None, float]:
    """Paths for every alive model to its slot, or ``None`` and by how much the slowest model
    misses (``inf`` when a slot cannot be reached at all)."""
    starts = m.unit.centres[m.idx]
    radii = m.unit.radii[m.idx]
    paths = _paths(m, starts, slots, radii, guide)
    if not all(p.reached for p in paths):
        return None, math.inf
    costs = np.array([p.cost for p in paths])
    excess = float(costs.max(initial=0.0)) - allow
    if excess > 1e-9:
        return None, excess
    cap = m.rules.difficult_cap
    points = [p.points for p in paths]
    if (
        costs.max(initial=0.0) > cap + 1e-9
        and not (m.rules.strider or m.rules.flying)
        and path_touches(m.table, points, radii, TerrainType.DIFFICULT, large=m.unit.large).any()
    ):
        return None, float(costs.max()) - cap
    return _Plan(slots, tuple(points), costs, advanced, allow), 0.0


def _lazy(
    first: list[FloatArray],
    m: Mover,
    reach: tuple[FloatArray, float],
    c: FloatArray,
    heading: FloatArray,
    neighbours: Neighbours,
) -> Iterator[FloatArray]:
    """The kept formation first; compact rows around the new centre only if that fails, then a
    hex blob (big units are too wide in ranks for GFF's 6")."""
    yield from first
    starts, _ = reach
    radii = m.unit.radii[m.idx]
    for shape in ("rows", "blob"):
        wish = formation(len(radii), float(radii.max()), _pt(c), _pt(heading), shape=shape)
        got = settle(
            m.table, _assign(starts, wish), radii, neighbours, flying=m.rules.flying, reach=reach
        )
        if got is not None:
            yield got


def _attempt(
    m: Mover, cpath: Path, d: float, allow: float, neighbours: Neighbours
) -> tuple[_Plan | None, float]:
    """Move the centre ``d`` along its path and find the models' spots around it; on failure
    also say how much too far the slowest model had to go."""
    starts = m.unit.centres[m.idx]
    radii = m.unit.radii[m.idx]
    c0 = starts.mean(axis=0)
    walked, _ = walk(m.nav(float(radii.max())), cpath.points, d)
    c = np.array(walked[-1])
    heading = _heading(walked, c - c0)
    translated = starts + (c - c0)
    flying = m.rules.flying
    legal = np.ones(len(radii), dtype=np.bool_)
    rounded = np.round(radii, 6)
    for r in sorted(set(rounded.tolist())):
        group = rounded == r
        legal[group] = standable(m.table, translated[group], float(r), flying=flying)
    if len(neighbours.radii):
        g = gaps(translated, radii, neighbours.centres, neighbours.radii)
        legal &= (g >= neighbours.need[None, :] + TOL).all(axis=1)
    reach = (starts, allow)
    first: list[FloatArray] = []
    if legal.all():
        first.append(translated)
    else:
        got = settle(m.table, translated, radii, neighbours, flying=flying, reach=reach)
        if got is not None:
            first.append(got)
    worst = math.inf
    for slots in _lazy(first, m, reach, c, heading, neighbours):
        kept = slots is translated and m.started_coherent
        if len(radii) > 1 and not kept and not is_coherent(Placement(slots, radii), m.rules.system):
            continue
        plan, excess = _plan_for(m, slots, allow, d, np.array(walked))
        if plan is not None:
            return plan, 0.0
        if slots is translated and math.isfinite(excess):
            return None, excess  # a model just needs longer: go less far, not re-form
        worst = min(worst, excess)
    return None, worst


def _search(m: Mover, goal: FloatArray, allow: float) -> _Plan:
    """The farthest move toward ``goal`` the unit can make in formation: the centre goes as far
    as it may, then back off by what the slowest model lacked (halving when that is unknown);
    staying put is always possible."""
    starts = m.unit.centres[m.idx]
    radii = m.unit.radii[m.idx]
    c0 = starts.mean(axis=0)
    stay = _Plan(starts.copy(), tuple((_pt(p),) for p in starts), np.zeros(len(starts)), 0.0, allow)
    cpath = m.path(float(radii.max()), c0, goal)
    total = cpath.cost
    if total <= 1e-9 or allow <= 0:
        return stay
    neighbours = Neighbours.of(m.others, exempt=m.exempt, gap=m.rules.spacing, skip=m.unit)
    d = min(allow, total)
    for _ in range(_TRIES):
        plan, excess = _attempt(m, cpath, d, allow, neighbours)
        if plan is not None:
            return plan
        step = excess + 0.05 if math.isfinite(excess) else d / 2
        d -= max(step, 0.05 * d)
        if d < 0.05:
            break
    return stay


#: How many distances a move tries before the unit stays where it is.
_TRIES = 6


def move_unit(
    table: Table,
    unit_placement: Placement,
    others: Sequence[Placement],
    goal: Point,
    allowance: float,
    *,
    rules: MoveRules | None = None,
    charging_target: Placement | None = None,
) -> MoveResult:
    """Move a unit toward ``goal`` (where its centre should end) by up to ``allowance`` inches.

    The unit keeps its formation where it can and re-forms in compact rows where it cannot;
    every model's path goes around impassable terrain, pieces too tall to climb and other units
    (1" spacing, except from ``charging_target``), and is no longer than the allowance (the
    difficult-terrain cap applies when any model touches difficult terrain). Given the choice,
    a unit goes around difficult and dangerous terrain unless that costs more than
    ``rules.hazard_margin`` inches of progress. The unit ends coherent, on legal ground, never
    overlapping, or (if it cannot move at all) stays where it is.
    """
    rules = rules or MoveRules()
    gx, gy = (float(v) for v in goal)
    if not (math.isfinite(gx) and math.isfinite(gy)):
        raise OptionError("goal must be a finite point", value=goal, expected="(x, y) in inches")
    if not (math.isfinite(allowance) and allowance >= 0):
        raise OptionError("allowance out of range", value=allowance, expected="inches >= 0")
    goal_arr = np.array([gx, gy])
    exempt = (charging_target,) if charging_target is not None else ()
    others = [o for o in others if o is not unit_placement]
    idx = np.flatnonzero(unit_placement.alive)
    if len(idx) == 0:
        return _result(table, unit_placement, idx, None, rules, allowance)
    coherent = is_coherent(unit_placement, rules.system)
    through = Mover(table, unit_placement, others, rules, exempt, False, idx, coherent)
    plan = _search(through, goal_arr, allowance)
    # Going round is worth a second search only if it could avoid something: dangerous
    # terrain, or difficult terrain when the move is longer than its cap; and not if the unit
    # already stands in such terrain (it moves "in" it whichever way it goes).
    slowed = (
        not rules.strider
        and allowance > rules.difficult_cap
        and _touches(through, plan, TerrainType.DIFFICULT)
    )
    hazards = (
        not rules.flying
        and (slowed or _touches(through, plan, TerrainType.DANGEROUS))
        and not _touching(table, unit_placement, TerrainType.DANGEROUS).any()
        and not (slowed and _touching(table, unit_placement, TerrainType.DIFFICULT).any())
    )
    if hazards:
        around = Mover(table, unit_placement, others, rules, exempt, True, idx, coherent)
        alt = _search(around, goal_arr, allowance)
        d_plan = float(np.hypot(*(plan.centres.mean(axis=0) - goal_arr)))
        d_alt = float(np.hypot(*(alt.centres.mean(axis=0) - goal_arr)))
        if d_alt <= d_plan + rules.hazard_margin:
            plan = alt
    return _result(table, unit_placement, idx, plan, rules, allowance)


def _touches(m: Mover, plan: _Plan, kind: TerrainType) -> bool:
    radii = m.unit.radii[m.idx]
    return bool(path_touches(m.table, plan.paths, radii, kind, large=m.unit.large).any())


def _result(
    table: Table,
    unit: Placement,
    idx: IntArray,
    plan: _Plan | None,
    rules: MoveRules,
    allow: float,
) -> MoveResult:
    if plan is None:
        starts = unit.centres[idx]
        return build_result(
            table, unit, starts, [(_pt(c),) for c in starts], np.zeros(len(idx)), rules, allow
        )
    return build_result(
        table, unit, plan.centres, plan.paths, plan.costs, rules, allow, plan.advanced
    )


def build_result(
    table: Table,
    unit: Placement,
    centres: FloatArray,
    paths: Sequence[tuple[Point, ...]],
    costs: FloatArray,
    rules: MoveRules,
    allow: float,
    advanced: float = 0.0,
) -> MoveResult:
    """A :class:`MoveResult` for a unit whose alive models (in order) went to ``centres`` along
    ``paths``: works out the terrain crossed and the cohesion at the end."""
    idx = np.flatnonzero(unit.alive)
    n = len(unit.radii)
    new = unit.copy()
    all_paths: list[tuple[Point, ...]] = [(_pt(c),) for c in unit.centres]
    lengths = np.zeros(n)
    new.centres[idx] = centres
    for k, i in enumerate(idx):
        all_paths[int(i)] = tuple(paths[k])
        lengths[int(i)] = costs[k]
    radii = unit.radii
    difficult = False
    dangerous = np.zeros(n, dtype=np.bool_)
    if not rules.flying:
        if not rules.strider:
            difficult = bool(
                path_touches(
                    table,
                    all_paths,
                    radii,
                    TerrainType.DIFFICULT,
                    large=unit.large,
                ).any()
            )
        dangerous = path_touches(table, all_paths, radii, TerrainType.DANGEROUS)
    eff = min(allow, rules.difficult_cap) if difficult else allow
    return MoveResult(
        new,
        tuple(all_paths),
        lengths,
        eff,
        difficult,
        dangerous,
        is_coherent(new, rules.system),
        advanced,
    )


def teleport_unit(
    table: Table,
    unit_placement: Placement,
    others: Sequence[Placement],
    goal: Point,
    *,
    rules: MoveRules | None = None,
    distance: float = TELEPORT_RANGE,
) -> MoveResult:
    """Riverside Teleport: place the unit anywhere within 6": no path, no terrain effects, but
    it must end on legal ground, coherent, 1" from other units."""
    base = rules or MoveRules(system="riverside")
    flat = MoveRules(
        system=base.system,
        strider=True,
        flying=True,
        climb_limit=base.climb_limit,
        spacing=base.spacing,
    )
    moved = move_unit(table, unit_placement, others, goal, distance, rules=flat)
    stand_ok = all(
        standable(table, moved.placement.centres[i : i + 1], float(moved.placement.radii[i]))[0]
        for i in np.flatnonzero(moved.placement.alive)
    )
    if not stand_ok:  # flying rules let it end on tall pieces; a teleporting walker may not
        return _result(
            table, unit_placement, np.flatnonzero(unit_placement.alive), None, base, distance
        )
    return moved


# --- dangerous terrain -----------------------------------------------------------------------


def dangerous_terrain_checks(
    table: Table,
    start: Placement,
    moved: MoveResult | None,
    *,
    system: str = "gff",
    action: str = "advance",
    tough: int = 1,
    flying: bool = False,
) -> list[Check]:
    """The dice a unit rolls for dangerous terrain: each fails on a 1 and a failure is a wound.

    GFF (seed 003 "Dangerous Terrain"): each model that moves across dangerous terrain or
    activates in it rolls one die, or as many as its Tough value. Riverside (seed 002
    "Dangerous Terrain"): only with a Rush or Charge, each model moving in or through rolls one
    die, or X dice with Tough(X). Flying ignores terrain effects whilst moving (it still rolls in
    GFF when it activates in dangerous terrain). "A 1 fails" is a 2+ check.
    """
    check_system(system)
    act = action.casefold()
    if act not in ACTION_MOVES:
        raise OptionError("unknown action", value=action, expected="hold, advance, rush or charge")
    if tough < 1:
        raise OptionError("Tough(X) out of range", value=tough, expected="1 or more")
    n = len(start.radii)
    crossed = np.zeros(n, dtype=np.bool_)
    if moved is not None and not flying:
        crossed = moved.dangerous.copy()
    if system == "gff":
        rolls = crossed | _touching(table, start, TerrainType.DANGEROUS)
    else:
        rolls = crossed if act in ("rush", "charge") else np.zeros(n, dtype=np.bool_)
    rolls &= start.alive
    return [
        Check(Test.GENERIC, 2, owner=Owner(model=int(i)))
        for i in np.flatnonzero(rolls)
        for _ in range(tough)
    ]


def _touching(table: Table, placement: Placement, kind: TerrainType) -> BoolArray:
    polys = _terrain_polygons(table, kind)
    if len(polys) == 0:
        return np.zeros(len(placement.radii), dtype=np.bool_)
    pts = shapely.points(placement.centres)
    near = shapely.dwithin(pts[:, None], polys[None, :], placement.radii[:, None])
    return np.asarray(near.any(axis=1), dtype=np.bool_)
