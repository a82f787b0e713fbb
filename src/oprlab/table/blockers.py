"""What a moving model must not cross: segment crossings and the other units as blockers.

Other units block paths, keeping the 1" spacing "throughout the movement path" (seed 002
"Movement"): each is a convex hull inflated by the gap, with a bounding box for a quick reject.
Crossings are written in plain float arithmetic (see :mod:`oprlab.table.planar`) so one seed
plays one game on every CPU.

The crossing tests of whole segments (:func:`crossed_from`, :func:`crossed_any`,
:func:`crossings`) and the inside test run in C where :mod:`oprlab.table.kernels` says so: the
same answers as the numpy here.

May import ``oprlab.table.model``, ``oprlab.table.formation`` and ``oprlab.table.kernels``;
numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from oprlab.memo import make_room
from oprlab.table import kernels
from oprlab.table.formation import (
    CLEARANCE,
    SPACING,
    BoolArray,
)
from oprlab.table.model import FloatArray, Placement, Point

IntArray = npt.NDArray[np.intp]


#: How many tables' (or graphs') answers each cache keeps.
CACHE_SIZE = 64
T = TypeVar("T")


# --- segment geometry ------------------------------------------------------------------------


def cross2(ax: FloatArray, ay: FloatArray, bx: FloatArray, by: FloatArray) -> FloatArray:
    out: FloatArray = ax * by - ay * bx
    return out


def crossings_numpy(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """``(k, m)``: whether segment ``a[i]b[i]`` properly crosses segment ``p[j]q[j]`` (``a``
    may be one row: every segment from that point).

    Touching at an end or running along an edge is not a crossing: paths may hug a corner.
    Each cross product is two float multiplications and a subtraction, each rounded on its
    own: numpy may fuse a complex product into a multiply-add on some CPUs and not on others,
    and a seed must give the same game on every machine.
    """
    if len(b) == 0 or len(p) == 0:
        return np.zeros((len(b), len(p)), dtype=np.bool_)
    px, py, ex, ey = _edges(p, q)
    dx = (b[:, 0] - a[:, 0])[:, None]
    dy = (b[:, 1] - a[:, 1])[:, None]
    wx = px - a[:, 0][:, None]
    wy = py - a[:, 1][:, None]
    o1 = cross2(dx, dy, wx, wy)  # side of p from ab
    den = cross2(dx, dy, ex, ey)
    o3 = -cross2(ex, ey, wx, wy)  # side of a from pq
    # side of q from ab is o1 + den; side of b from pq is o3 - den
    out: BoolArray = (o1 * (o1 + den) < -1e-12) & (o3 * (o3 - den) < -1e-12)
    return out


def crossings_from(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """:func:`crossings` for segments that all start at the one point ``a`` (a fan of sight
    lines from a node): the side of ``a`` from each edge is worked out once per edge, not once
    per segment and edge, and the sides of each edge's start and of its direction from each
    segment in one product (numpy's cost here is per call, not per element). Every value has
    the same bits as :func:`crossings` gives with ``a`` repeated: the same products and
    differences of the same numbers (``-(x - y)`` is ``y - x``, and ``x * y`` is ``y * x``)."""
    if len(b) == 0 or len(p) == 0:
        return np.zeros((len(b), len(p)), dtype=np.bool_)
    start, vec = _edge_rows(p, q)
    w = start - a[:, None]  # [px - ax; py - ay]
    d = b - a
    wv = np.concatenate((w, vec), axis=1)  # [[wx | ex]; [wy | ey]]
    both = d[:, 0:1] * wv[1] - d[:, 1:2] * wv[0]  # [side of p from ab | den]
    m = len(p)
    o1, den = both[:, :m], both[:, m:]
    o3 = vec[1] * w[0] - vec[0] * w[1]  # side of a from pq: one row, the same for every segment
    s1 = o1 + den
    s1 *= o1
    s3 = o3 - den
    s3 *= o3
    out: BoolArray = s1 < -1e-12
    out &= s3 < -1e-12
    return out


def crossed_from_numpy(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """``(k,)``: whether each segment of a fan from ``a`` properly crosses any edge: the any of
    :func:`crossings_from`'s rows, from the same products (a pair crosses when both its
    products are below the bound, that is when the larger is; a row has such a pair when its
    least larger one is), in fewer numpy calls."""
    if len(b) == 0 or len(p) == 0:
        return np.zeros(len(b), dtype=np.bool_)
    start, vec = _edge_rows(p, q)
    w = start - a[:, None]
    d = b - a
    wv = np.concatenate((w, vec), axis=1)
    both = d[:, 0:1] * wv[1] - d[:, 1:2] * wv[0]
    m = len(p)
    o1, den = both[:, :m], both[:, m:]
    o3 = vec[1] * w[0] - vec[0] * w[1]
    s1 = o1 + den
    s1 *= o1
    s3 = o3 - den
    s3 *= o3
    np.maximum(s1, s3, out=s1)
    out: BoolArray = np.minimum.reduce(s1, axis=1) < -1e-12
    return out


def _contiguous(*arrays: FloatArray) -> list[FloatArray]:
    """The arrays as the kernel reads them: C-contiguous float64 (a copy only where not)."""
    return [np.ascontiguousarray(x, dtype=np.float64) for x in arrays]


def crossed_from_compiled(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """:func:`crossed_from_numpy` in C: the same products of the same differences, a pair
    crossing when both are below the bound, each line's loop stopping at its first crossing
    (for finite coordinates, as on a table: a NaN would make numpy's row false)."""
    return _crossed(a, b, p, q)


def crossed_any_numpy(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """``(k,)``: whether each segment ``a[i]b[i]`` properly crosses any edge ``p[j]q[j]``: the
    any of :func:`crossings_numpy`' rows."""
    out: BoolArray = np.logical_or.reduce(crossings_numpy(a, b, p, q), axis=1)
    return out


def crossings_compiled(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """:func:`crossings_numpy` in C: each pair tested as :func:`crossed_any_compiled` tests it
    (``a`` one row: a fan, each edge's side of it worked out once)."""
    compiled = _COMPILED
    assert compiled is not None
    out = np.zeros((len(b), len(p)), dtype=np.bool_)
    if out.size == 0:
        return out
    return _run(compiled.crossings, a, b, p, q, out)


def crossed_any_compiled(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """:func:`crossed_any_numpy` in C (its side of ``a`` from an edge is ``y - x`` where
    :func:`crossings` has ``-(x - y)``: the same number, up to the sign of a zero, which no
    product below the bound can see)."""
    return _crossed(a, b, p, q)


def _crossed(a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray) -> BoolArray:
    """The kernel's crossing test: ``a`` one point (a fan) or one a segment."""
    compiled = _COMPILED
    assert compiled is not None
    return _run(compiled.crossed, a, b, p, q, np.empty(len(b), dtype=np.bool_))


def _run(
    kernel: Callable[[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray], None],
    a: FloatArray,
    b: FloatArray,
    p: FloatArray,
    q: FloatArray,
    out: BoolArray,
) -> BoolArray:
    """``kernel(a, b, p, q, out)``, the arrays copied to C-contiguous float64 first only when
    it refuses them (strided, or another type), and ``out``."""
    try:
        kernel(a, b, p, q, out)
    except (BufferError, TypeError, ValueError):  # strided, or not float64: copied
        a, b, p, q = _contiguous(a, b, p, q)
        kernel(a, b, p, q, out)
    return out


_COMPILED = kernels.COMPILED
#: ``(k, m)``: whether segment ``a[i] -> b[i]`` (``a`` one row: a fan) properly crosses edge
#: ``p[j] -> q[j]``.
crossings = crossings_numpy if _COMPILED is None else crossings_compiled
#: ``(k,)``: whether each segment of a fan from ``a`` properly crosses any edge ``p -> q``.
crossed_from = crossed_from_numpy if _COMPILED is None else crossed_from_compiled
#: ``(k,)``: whether each segment ``a[i] -> b[i]`` properly crosses any edge ``p -> q``.
crossed_any = crossed_any_numpy if _COMPILED is None else crossed_any_compiled


#: The edge side of :func:`crossings` for frozen edge arrays (the table's obstacles and the
#: blockers' edges, asked about many times), by the arrays' identity. Only read-only arrays
#: that own their data are kept (nothing can change them), and each entry holds its arrays, so
#: their ids stay unique while it is there.
_EDGES: dict[
    int, tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]
] = {}


def freeze(*arrays: FloatArray) -> None:
    """Make arrays that own their data read-only: their edges may then be kept."""
    for x in arrays:
        if x.base is None:
            x.flags.writeable = False


def _keepable(p: FloatArray, q: FloatArray) -> bool:
    """Whether what is worked out of edge arrays ``p`` and ``q`` may be kept by their identity:
    both frozen (:func:`freeze`) and owning their data, so they cannot change under it."""
    return not (p.flags.writeable or q.flags.writeable) and p.base is None and q.base is None


def _edges(p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Edges ``p -> q`` as rows: their starts' x and y, and their vectors' x and y."""
    frozen = _keepable(p, q)
    hit = _EDGES.get(id(p)) if frozen else None
    if hit is None or hit[0] is not p or hit[1] is not q:
        px, py = p[:, 0][None, :], p[:, 1][None, :]
        hit = (p, q, px, py, q[:, 0][None, :] - px, q[:, 1][None, :] - py)
        if frozen:
            make_room(_EDGES, 4 * CACHE_SIZE)
            _EDGES[id(p)] = hit
    return hit[2], hit[3], hit[4], hit[5]


def _edge_rows(p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Edges ``p -> q`` as two ``(2, m)`` arrays: their starts' x and y, and their vectors'
    (kept, as :func:`_edges` keeps its rows, for frozen arrays)."""
    hit = _ROWS.get(id(p))
    if hit is None or hit[0] is not p or hit[1] is not q:
        px, py, ex, ey = _edges(p, q)
        hit = (p, q, np.concatenate((px, py)), np.concatenate((ex, ey)))
        if _keepable(p, q):
            make_room(_ROWS, 4 * CACHE_SIZE)
            _ROWS[id(p)] = hit
    return hit[2], hit[3]


#: :func:`_edge_rows` of frozen edge arrays, by identity (as :data:`_EDGES`).
_ROWS: dict[int, tuple[FloatArray, FloatArray, FloatArray, FloatArray]] = {}


def crossing_params(
    a: Point, b: Point, p: FloatArray, q: FloatArray
) -> tuple[FloatArray, IntArray]:
    """Where along ``ab`` (0..1) it properly crosses each edge ``pq``, sorted; and which edge."""
    aa = np.array([a], dtype=np.float64)
    bb = np.array([b], dtype=np.float64)
    hit = crossings(aa, bb, p, q)[0]
    if not hit.any():
        return np.zeros(0), np.zeros(0, dtype=np.intp)
    idx = hit.nonzero()[0]
    d = bb[0] - aa[0]
    e = q[idx] - p[idx]
    ap = p[idx] - aa[0]
    t = (ap[:, 0] * e[:, 1] - ap[:, 1] * e[:, 0]) / (d[0] * e[:, 1] - d[1] * e[:, 0])
    order = np.argsort(t, kind="stable")
    return t[order], idx[order]


def _convex_hull(points: FloatArray) -> FloatArray:
    """Counter-clockwise convex hull (Andrew's monotone chain) of the points rounded to 1e-9.

    The chains in plain Python floats, or in C where :mod:`oprlab.table.kernels` says so
    (``_kernels.convex_hull``: the same turns of the same doubles): a hull has a few dozen
    points, where a numpy call costs more than the arithmetic."""
    flat = round9(points.ravel())
    pts = sorted(set(zip(flat[0::2], flat[1::2], strict=True)))
    if len(pts) <= 2:
        return np.array(pts, dtype=np.float64)
    compiled = _COMPILED
    if compiled is not None:  # the same chains, in C: the same doubles compared the same way
        arr = np.array(pts, dtype=np.float64)
        out = np.empty_like(arr)
        k = compiled.convex_hull(arr, out)
        return out[:k].copy()
    lower, upper = _half_hull(pts), _half_hull(pts[::-1])
    return np.array(lower[:-1] + upper[:-1], dtype=np.float64)


def round9(values: FloatArray) -> list[float]:
    """``[round(v, 9) for v in values]`` (Python's correctly rounded decimal rounding), in a
    few numpy calls for all but the rare values it cannot be sure of.

    ``t = v * 1e9`` is within half an ulp of the exact product (for ``|t| < 2**40``, under
    1.2e-4), so where ``t`` lies more than 1e-3 from a half-integer its nearest integer ``r``
    is the exact product's, the integer Python rounds to (ties to even only decide exact
    halves); and ``r / 1e9``, an exact integer over an exact power of ten, is the double
    nearest ``r`` billionths, which is what Python's rounding returns. The other values (and
    NaNs) are rounded by Python."""
    t = values * 1e9
    r = np.rint(t)
    out: list[float] = (r / 1e9).tolist()
    sure = np.abs(np.abs(t - r) - 0.5) > 1e-3
    sure &= np.abs(t) < 2.0**40
    if not sure.all():
        for i in (~sure).nonzero()[0].tolist():
            out[i] = round(float(values[i]), 9)
    return out


def _half_hull(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """One side of the monotone chain: drop every corner that does not turn left."""
    out: list[tuple[float, float]] = []
    for p in seq:
        px, py = p
        while len(out) >= 2:
            (ax, ay), (bx, by) = out[-2], out[-1]
            if not (bx - ax) * (py - ay) - (by - ay) * (px - ax) <= 0:
                break
            out.pop()
        out.append(p)
    return out


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
        first, nxt, slots, shape = _layout(tuple(len(p) for p in self.polygons))
        self.nx = np.zeros(shape)
        self.ny = np.zeros(shape)
        self.d = np.full(shape, -1.0)  # padding: 0 > -1 always holds
        if not self.polygons:
            self.corners = np.zeros((0, 2))
            self.ends = np.zeros((0, 2))
        else:
            # all polygons at once: each corner, the next corner round its polygon, its edge
            self.corners = np.concatenate(self.polygons)
            self.ends = self.corners[nxt]
            e = self.ends - self.corners
            minus_ey = -e[:, 1]
            self.nx.ravel()[slots] = minus_ey
            self.ny.ravel()[slots] = e[:, 0]
            self.d.ravel()[slots] = minus_ey * self.corners[:, 0] + e[:, 0] * self.corners[:, 1]
        freeze(self.corners, self.ends)
        self._first = first
        self._boxed: tuple[FloatArray, tuple[FloatArray, ...]] | None = None
        # for :meth:`contains` on few points: the half-planes as rows, and how they group
        self._flat = (
            self.nx.reshape(1, -1),
            self.ny.reshape(1, -1),
            self.d.reshape(1, -1),
            (-1, *self.nx.shape),
        )
        self._depth: tuple[FloatArray, FloatArray] | None = None
        self._merged: dict[int, tuple[FloatArray, FloatArray, FloatArray, FloatArray]] = {}
        self._kept: dict[int, tuple[object, Any]] = {}

    def __len__(self) -> int:
        return len(self.polygons)

    def with_edges(self, p: FloatArray, q: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Other edges ``p -> q`` (a table's obstacles) together with these, kept for reuse."""
        key = id(p)
        hit = self._merged.get(key)
        if hit is None or hit[0] is not p or hit[1] is not q:
            hit = (p, q, np.concatenate([p, self.corners]), np.concatenate([q, self.ends]))
            freeze(hit[2], hit[3])
            make_room(self._merged, CACHE_SIZE)
            self._merged[key] = hit
        return hit[2], hit[3]

    def kept(self, owner: object, make: Callable[[], T]) -> T:
        """What ``make`` gives for ``owner`` (a navigation graph's search among these
        blockers), made once and kept with them while ``owner`` lives."""
        hit = self._kept.get(id(owner))
        if hit is None or hit[0] is not owner:
            hit = (owner, make())
            make_room(self._kept, CACHE_SIZE)
            self._kept[id(owner)] = hit
        value: T = hit[1]
        return value

    def depth(self, point: FloatArray) -> float:
        """How far ``point`` lies inside the blocker it is deepest in (0 if in none): every
        point nearer it than this is inside that blocker by :meth:`contains`'s own test
        (``side > 1e-9``), whose threshold is taken off before measuring. In C where
        :mod:`oprlab.table.kernels` says so."""
        if not self.polygons:
            return 0.0
        if self._depth is None:
            # one over each half-plane's normal length, and a padding that puts the padded
            # half-planes infinitely far
            norm = np.hypot(self.nx, self.ny)
            inv = np.where(norm > 0, 1.0 / np.where(norm > 0, norm, 1.0), 0.0)
            self._depth = (inv, np.where(norm > 0, 0.0, np.inf))
        inv_norm, pad = self._depth
        x, y = float(point[0]), float(point[1])
        compiled = _COMPILED
        if compiled is not None:  # the same sums in C, one call
            deepest = compiled.depth(x, y, self.nx, self.ny, self.d, inv_norm, pad, pad.shape[1])
            return max(0.0, deepest)
        side = (x * self.nx + y * self.ny) - self.d - 1e-9
        inner = (side * inv_norm + pad).min(axis=1)
        return max(0.0, float(inner.max()))

    def _boxes(self) -> tuple[FloatArray, tuple[FloatArray, ...]]:
        """For :meth:`contains` on many points (made when first asked): the half-planes
        stacked (one gather per call, not three) and the polygons' bounding boxes' sides as
        contiguous columns, grown by far more than round-off: a point outside a box is outside
        its polygon, so only points near a polygon are tested against its edges."""
        if self._boxed is None:
            lo = np.minimum.reduceat(self.corners, self._first, axis=0) - _BOX_MARGIN
            hi = np.maximum.reduceat(self.corners, self._first, axis=0) + _BOX_MARGIN
            self._boxed = (
                np.stack([self.nx, self.ny, self.d], axis=1),
                tuple(np.ascontiguousarray(v) for v in (*lo.T, *hi.T)),
            )
        return self._boxed

    def contains(self, points: FloatArray) -> BoolArray:
        """Which points lie strictly inside any of the polygons (in C where
        :mod:`oprlab.table.kernels` says so: the same sides, so the same answers)."""
        compiled = _COMPILED
        if compiled is None:
            return self.contains_numpy(points)
        if not self.polygons or len(points) == 0:
            return np.zeros(len(points), dtype=np.bool_)
        out = np.empty(len(points), dtype=np.bool_)
        try:
            compiled.inside(points, self.nx, self.ny, self.d, self.nx.shape[1], out)
        except (BufferError, TypeError, ValueError):  # strided, or not float64: copied
            (points,) = _contiguous(points)
            compiled.inside(points, self.nx, self.ny, self.d, self.nx.shape[1], out)
        return out

    def fan_clear(
        self, a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray
    ) -> BoolArray | None:
        """In C, where :mod:`oprlab.table.kernels` says so (else ``None``): whether each
        segment ``a -> b[i]`` (``a`` one point: a fan) crosses no edge ``p -> q``
        (:func:`crossed_from`, :func:`crossed_any`) and has none of its sample points at
        ``t`` (0.25, 0.5, 0.75: ``a + (b[i] - a) * t``) inside a polygon (:meth:`contains`):
        the same arithmetic in one call, where numpy made a dozen (the path search's sight
        lines, :meth:`NavGraph.clear`)."""
        compiled = _COMPILED
        if compiled is None or not self.polygons:
            return None
        out = np.empty(len(b), dtype=np.bool_)
        if not len(b):
            return out
        try:
            compiled.fan_clear(a, b, p, q, self.nx, self.ny, self.d, self.nx.shape[1], out)
        except (BufferError, TypeError, ValueError):  # strided, or not float64: copied
            a, b, p, q = _contiguous(a, b, p, q)
            compiled.fan_clear(a, b, p, q, self.nx, self.ny, self.d, self.nx.shape[1], out)
        return out

    def straight_clear(
        self, a: FloatArray, b: FloatArray, p: FloatArray, q: FloatArray, bounds: FloatArray
    ) -> tuple[BoolArray, BoolArray, BoolArray] | None:
        """:meth:`NavGraph.straight` with no terrain to test points against, in C where
        :mod:`oprlab.table.kernels` says so (else ``None``): whether each ``a[i]`` and each
        ``b[i]`` lies within ``bounds`` (least x, least y, most x, most y) and in no polygon,
        and whether each segment's sample points lie in none and it crosses no edge
        ``p -> q``: numpy's comparisons and arithmetic, one call."""
        compiled = _COMPILED
        if compiled is None or not self.polygons:
            return None
        k = len(b)
        free_a, free_b, ok = (np.empty(k, dtype=np.bool_) for _ in range(3))
        if not k:
            return free_a, free_b, ok
        nx, ny, d, corners = self.nx, self.ny, self.d, self.nx.shape[1]
        try:
            compiled.straight_clear(a, b, p, q, nx, ny, d, corners, bounds, free_a, free_b, ok)
        except (BufferError, TypeError, ValueError):  # strided, or not float64: copied
            a, b, p, q = _contiguous(a, b, p, q)
            compiled.straight_clear(a, b, p, q, nx, ny, d, corners, bounds, free_a, free_b, ok)
        return free_a, free_b, ok

    def contains_numpy(self, points: FloatArray) -> BoolArray:
        """:meth:`contains` in numpy (what runs without the kernel)."""
        if not self.polygons or len(points) == 0:
            return np.zeros(len(points), dtype=np.bool_)
        x, y = points[:, 0, None], points[:, 1, None]
        if len(points) * self._flat[0].shape[1] <= _DENSE:
            # few points: every half-plane of every polygon at once, no box test first (the
            # same sides, so the same answers: a point outside a box is outside its polygon)
            nx, ny, d, groups = self._flat
            inner = ((x * nx + y * ny) - d) > 1e-9
            dense: BoolArray = np.logical_and.reduce(inner.reshape(groups), axis=2).any(axis=1)
            return dense
        planes_all, (lox, loy, hix, hiy) = self._boxes()
        near = (x >= lox) & (x <= hix) & (y >= loy) & (y <= hiy)
        i, j = np.nonzero(near)
        out = np.zeros(len(points), dtype=np.bool_)
        if len(i) == 0:
            return out
        pts, planes = points[i], planes_all[j]
        side = (pts[:, 0, None] * planes[:, 0] + pts[:, 1, None] * planes[:, 1]) - planes[:, 2]
        out[i[(side > 1e-9).all(axis=1)]] = True
        return out


def _layout(sizes: tuple[int, ...]) -> tuple[IntArray, IntArray, IntArray, tuple[int, int]]:
    """Where the corners of polygons of ``sizes`` go in :class:`Blockers`' arrays: each
    polygon's first corner in the list of all, each corner's next one round its polygon, each
    corner's slot in the padded ``(polygons, most corners)`` rows (flat), and their shape.
    Kept by the sizes: a move among the same units asks for the same layout again."""
    found = _LAYOUTS.get(sizes)
    if found is None:
        b, k = len(sizes), max(sizes, default=0)
        if b == 0:
            empty = np.zeros(0, dtype=np.intp)
            found = (empty, empty, empty, (0, 0))
        else:
            size = np.array(sizes)
            first = np.concatenate([[0], np.cumsum(size)[:-1]])
            which = np.repeat(np.arange(b), size)
            col = np.arange(len(which)) - first[which]
            nxt = first[which] + (col + 1) % size[which]
            found = (first, nxt, which * k + col, (b, k))
            for x in found[:3]:
                x.flags.writeable = False  # shared by every set of these sizes
        make_room(_LAYOUTS, _LAYOUTS_SIZE)
        _LAYOUTS[sizes] = found
    return found


#: :func:`_layout` by the polygons' sizes.
_LAYOUTS: dict[tuple[int, ...], tuple[IntArray, IntArray, IntArray, tuple[int, int]]] = {}
_LAYOUTS_SIZE = 256

#: Point-and-half-plane pairs up to which :meth:`Blockers.contains` tests every pair.
_DENSE = 4096
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
    exempt_ids = {id(e) for e in exempt}
    seen: set[int] = set() if skip is None else {id(skip)}
    units: list[Placement] = []
    parts: list[tuple[bool, bytes, bytes, bytes]] = []
    for o in [*others, *exempt]:
        if id(o) in seen:
            continue
        seen.add(id(o))
        units.append(o)
        parts.append(
            (id(o) in exempt_ids, o.centres.tobytes(), o.radii.tobytes(), o.removed.tobytes())
        )
    key = (float(radius), float(gap), tuple(parts))
    hit = _BLOCKERS.get(key)
    if hit is not None:
        return hit
    out: list[FloatArray] = []
    for part, o in zip(parts, units, strict=True):
        pkey = (key[0], key[1], part)
        polys = _PARTS.get(pkey)
        if polys is None:
            polys = _lone_polygons(o, key[0], key[1]) if len(o.radii) == 1 and not part[0] else None
            if polys is None:
                keep = o.alive
                c, r = o.centres[keep], o.radii[keep]
                polys = _unit_polygons(part[0], c, r, radius, gap) if len(c) else []
            make_room(_PARTS, 4 * _BLOCKERS_SIZE)
            _PARTS[pkey] = polys
        out += polys
    made = Blockers(out)
    make_room(_BLOCKERS, _BLOCKERS_SIZE)
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
    if len(c) == 1 and reach[0] >= _WIDE:
        return [_octagon_hull(float(c[0, 0]), float(c[0, 1]), float(reach[0]))]
    pts = (c[:, None, :] + reach[:, None, None] * _OCTAGON[None, :, :]).reshape(-1, 2)
    hull = _convex_hull(pts)
    return [hull] if len(hull) >= 3 else []


def _lone_polygons(o: Placement, radius: float, gap: float) -> list[FloatArray] | None:
    """:func:`_unit_polygons` of a unit of one model, read in Python floats (most blockers
    are one model: a hero, a vehicle, a monster); ``None`` when the reach is too small for
    :func:`_octagon_hull`."""
    if o.removed.tolist()[0]:
        return []
    ((x, y),) = o.centres.tolist()
    reach = radius + o.radii.tolist()[0] + gap + CLEARANCE  # in the order numpy adds them
    return [_octagon_hull(x, y, reach)] if reach >= _WIDE else None


#: Reach (inches) past which one model's eight octagon corners, rounded to 1e-9, are eight
#: strict corners of their hull with a single leftmost one (their turns are about a third of
#: the reach squared, round-off far below 1e-12).
_WIDE = 0.01
#: The corners of :data:`_OCTAGON` (as Python floats) in the order :func:`_convex_hull` gives
#: them: from the leftmost (180 degrees), counter-clockwise.
_HULL_CORNERS = tuple(tuple(_OCTAGON[k].tolist()) for k in (4, 5, 6, 7, 0, 1, 2, 3))


def _octagon_hull(x: float, y: float, reach: float) -> FloatArray:
    """:func:`_convex_hull` of one model's octagon of ``reach`` round ``(x, y)``, without the
    sort and the chains: the corners worked out as :func:`_unit_polygons` works them (a
    product, then a sum: the same bits in Python floats as in numpy), rounded as the hull
    rounds them, in the order the chain gives them."""
    return np.array(
        [(round(x + reach * ox, 9), round(y + reach * oy, 9)) for ox, oy in _HULL_CORNERS],
        dtype=np.float64,
    )


_Part = tuple[bool, bytes, bytes, bytes]
_BlockersKey = tuple[float, float, tuple[_Part, ...]]
#: One unit's obstacles by (radius, gap, (exempt, centres, radii, removed)), keyed on the bytes
#: of the whole placement (no alive models picked out just to make the key): most units stand
#: still.
_PARTS: dict[tuple[float, float, _Part], list[FloatArray]] = {}
_BLOCKERS: dict[_BlockersKey, Blockers] = {}
_BLOCKERS_SIZE = 256
