"""The navigation graph: shortest paths for one base radius among one table's static
obstacles (impassable pieces, pieces too tall to climb, and hazards when going round them),
with all-pairs costs worked out once per table and radius (terrain does not move), and the
segment tests the path search asks of it. :mod:`oprlab.table.paths` searches among other units
on top of it.

May import ``oprlab.table.model``, ``oprlab.table.formation`` and ``oprlab.table.blockers``;
numpy and shapely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from oprlab.memo import make_room
from oprlab.table.blockers import (
    CACHE_SIZE,
    NO_BLOCKERS,
    Blockers,
    cross2,
    crossed_any,
    crossed_from,
    crossings,
    freeze,
)
from oprlab.table.formation import (
    CLEARANCE,
    CLIMB_LIMIT,
    TOL,
    BoolArray,
    is_hazard,
)
from oprlab.table.model import FloatArray, Table, TerrainType

IntArray = npt.NDArray[np.intp]


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

    def __post_init__(self) -> None:
        # the table's bounds with their tolerance, worked out once (:meth:`free`)
        self._lo_tol: FloatArray = self.lo - TOL
        self._hi_tol: FloatArray = self.hi + TOL
        self._bounds: FloatArray = np.concatenate((self._lo_tol, self._hi_tol))

    @property
    def bounds(self) -> FloatArray:
        """Where a model centre may stand, tolerance included: least x, least y, most x, most
        y (each inclusive)."""
        return self._bounds

    def free(self, points: FloatArray, blockers: Blockers = NO_BLOCKERS) -> BoolArray:
        """Which points a model centre may pass through."""
        inside = (points >= self._lo_tol) & (points <= self._hi_tol)
        ok: BoolArray = np.logical_and.reduce(inside, axis=1)
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
        obstacle edge and no point along it lies inside one (a diagonal between two corners).

        ``a`` may be one point ``(2,)``: a fan of segments from it to each ``b[i]`` (the same
        answers as with ``a`` repeated, for less work)."""
        fan = a.ndim == 1
        if fan and len(blockers):
            return self._fan(a, b, blockers, static)
        if len(blockers):
            if static:
                p, q = blockers.with_edges(self.edge_a, self.edge_b)
            else:
                p, q = blockers.corners, blockers.ends
            whole = blockers.fan_clear(a, b, p, q)
            if whole is not None:
                return self._off_terrain(a, b, whole) if static else whole
        ok: BoolArray
        if static and len(blockers):
            p, q = blockers.with_edges(self.edge_a, self.edge_b)
            ok = ~crossed_any(a, b, p, q)
        elif static and len(self.edge_a):
            if fan:
                ok = ~crossed_from(a, b, self.edge_a, self.edge_b)
            else:
                ok = ~crossed_any(a, b, self.edge_a, self.edge_b)
        elif len(blockers):
            ok = ~crossed_any(a, b, blockers.corners, blockers.ends)
        else:
            ok = np.ones(len(b), dtype=np.bool_)
        if (self.geom is None or not static) and not len(blockers):
            return ok
        idx = ok.nonzero()[0]
        if not len(idx):
            return ok
        samples = _samples(a, b, idx)
        inside = np.zeros(len(samples), dtype=np.bool_)
        if static and self.geom is not None:
            inside |= shapely.contains_xy(self.geom, samples[:, 0], samples[:, 1])
        inside |= blockers.contains(samples)
        ok[idx[inside.reshape(-1, len(_SAMPLES)).any(axis=1)]] = False
        return ok

    def fan_edges(self, blockers: Blockers) -> tuple[FloatArray, FloatArray]:
        """The edges ``p -> q`` a fan among ``blockers`` is tested against (:meth:`_fan`): the
        blockers' own, joined to the obstacles' where the table has any."""
        if len(self.edge_a):
            return blockers.with_edges(self.edge_a, self.edge_b)
        return blockers.corners, blockers.ends

    def _fan(self, a: FloatArray, b: FloatArray, blockers: Blockers, static: bool) -> BoolArray:
        """:meth:`clear` of a fan from ``a`` among ``blockers`` (the path search's sight
        lines): the same tests in fewer numpy calls. On a table with no obstacle edges the
        blockers' own edge arrays are the edges (the same numbers as joined to none)."""
        p, q = self.fan_edges(blockers) if static else (blockers.corners, blockers.ends)
        whole = blockers.fan_clear(a, b, p, q)
        if whole is not None:
            return self._off_terrain(a, b, whole) if static else whole
        ok: BoolArray = ~crossed_from(a, b, p, q)
        idx = ok.nonzero()[0]
        if not len(idx):
            return ok
        samples = _samples(a, b, idx)
        inside = blockers.contains(samples)
        if static and self.geom is not None:
            inside |= shapely.contains_xy(self.geom, samples[:, 0], samples[:, 1])
        ok[idx[np.logical_or.reduce(inside.reshape(-1, len(_SAMPLES)), axis=1)]] = False
        return ok

    def _off_terrain(self, a: FloatArray, b: FloatArray, ok: BoolArray) -> BoolArray:
        """``ok`` (the kernel's answer among blockers and every edge) less the segments with a
        sample point inside the terrain (``a`` one point: a fan). Only the segments ``ok``
        passes are tested: each sample's test is its own, and the samples are numpy's sums as
        :meth:`clear` makes them, so the answers are those of testing every segment."""
        if self.geom is None:
            return ok
        idx = ok.nonzero()[0]
        if not len(idx):
            return ok
        samples = _samples(a, b, idx)
        inside = shapely.contains_xy(self.geom, samples[:, 0], samples[:, 1])
        ok[idx[inside.reshape(-1, len(_SAMPLES)).any(axis=1)]] = False
        return ok

    def straight(
        self, a: FloatArray, b: FloatArray, blockers: Blockers = NO_BLOCKERS
    ) -> tuple[BoolArray, BoolArray, BoolArray]:
        """:meth:`free` of each ``a[i]`` and each ``b[i]`` and :meth:`clear` of each segment
        ``a[i] -> b[i]``, the same answers from one point test for the ends and the segments'
        sample points together (each answer is worked out for each point and segment on its
        own, so asking together changes no bit)."""
        if self.geom is None and len(blockers):  # no terrain: one call where built
            p, q = blockers.with_edges(self.edge_a, self.edge_b)
            whole = blockers.straight_clear(a, b, p, q, self._bounds)
            if whole is not None:
                return whole
        n = len(a)
        samples = (a[:, None, :] + (b - a)[:, None, :] * _SAMPLES[None, :, None]).reshape(-1, 2)
        points = np.concatenate((a, b, samples))
        ends = points[: 2 * n]
        inside = (ends >= self._lo_tol) & (ends <= self._hi_tol)
        free: BoolArray = np.logical_and.reduce(inside, axis=1)
        hit: BoolArray = np.zeros(len(points), dtype=np.bool_)
        if self.geom is not None:
            hit |= shapely.contains_xy(self.geom, points[:, 0], points[:, 1])
        if len(blockers):
            hit |= blockers.contains(points)
        free &= ~hit[: 2 * n]
        ok: BoolArray = ~np.logical_or.reduce(hit[2 * n :].reshape(n, len(_SAMPLES)), axis=1)
        if len(blockers):
            p, q = blockers.with_edges(self.edge_a, self.edge_b)
            ok &= ~crossed_any(a, b, p, q)
        elif len(self.edge_a):
            ok &= ~crossed_any(a, b, self.edge_a, self.edge_b)
        return free[:n], free[n:], ok

    def climb(self, a: FloatArray, b: FloatArray) -> FloatArray:
        """Vertical inches climbed or dropped along each segment ``a[i] -> b[i]`` (``a`` may
        be one row: every segment from that point) crossing elevated edges."""
        if len(self.climb_h) == 0 or len(b) == 0:
            return np.zeros(len(b))
        out: FloatArray = (
            crossings(a, b, self.climb_a, self.climb_b).astype(np.float64) @ self.climb_h
        )
        return out

    def cost(self, a: FloatArray, b: FloatArray) -> FloatArray:
        """Length plus climb of each segment ``a[i] -> b[i]``; ``a`` may be one point (a fan).
        Without elevated pieces the climb is nothing to add (``x + 0.0`` is ``x``)."""
        d = b - a
        out: FloatArray = np.hypot(d[:, 0], d[:, 1])
        if len(self.climb_h):
            start = a[None, :] if a.ndim == 1 else a  # a fan: one start
            out = out + self.climb(start, b)
        return out


_SAMPLES = np.array([0.25, 0.5, 0.75])
#: The samples as a column, for (segment, sample, x or y) arrays.
_SAMPLE_COL = _SAMPLES[None, :, None]


def _samples(a: FloatArray, b: FloatArray, idx: IntArray) -> FloatArray:
    """The sample points of the segments ``a -> b[i]`` (``a`` one point: a fan) or
    ``a[i] -> b[i]``, for each ``i`` in ``idx``, in rows of :data:`_SAMPLES`: one expression
    for every test that samples, so each sample is the same sum wherever it is made."""
    if a.ndim == 1:
        out: FloatArray = (a + (b[idx] - a)[:, None, :] * _SAMPLE_COL).reshape(-1, 2)
    else:
        out = (a[idx, None, :] + (b - a)[idx, None, :] * _SAMPLE_COL).reshape(-1, 2)
    return out


_NAV: dict[tuple[int, float, bool, bool, bool, float], NavGraph] = {}
NAV_CACHE_SIZE = CACHE_SIZE


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
    make_room(_NAV, NAV_CACHE_SIZE)
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
        if avoid_hazards and is_hazard(piece, large):
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
    freeze(edge_a, edge_b)
    verts_l: list[FloatArray] = []
    for r in rings:
        prev, after = np.roll(r, 1, axis=0), np.roll(r, -1, axis=0)
        turn = cross2(
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
        ok = nav.clear(verts[i], b)
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
