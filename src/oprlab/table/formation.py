"""Where a unit's models may stand: formations, spacing, cohesion and deployment placement.

A unit moves and deploys as a group a player would recognise: compact staggered rows (or a hex
blob) with half-inch gaps, so every model is within 1" of another (seeds 002 "Unit Cohesion",
003 "MOVEMENT"). This module owns the constraints every end position must meet (bases never
overlap, 1" from other units unless charging them, cohesion, inside the table, not in impassable
or on unstable terrain) and :func:`settle`, which turns wished-for positions into legal ones by
moving each model to the nearest legal spot. :mod:`oprlab.table.movement` and
:mod:`oprlab.table.charge` build on it.

Distances between models are measured between the closest points of their bases (seed 002
"Measuring"), so a "gap" below is centre distance minus both radii.

May import ``oprlab.errors``, ``oprlab.table.model``, numpy and shapely.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from oprlab.errors import OptionError
from oprlab.memo import make_room
from oprlab.table.model import FloatArray, Placement, Point, Table, TerrainPiece, TerrainType

BoolArray = npt.NDArray[np.bool_]
#: A rectangle ``(x0, y0, x1, y1)`` in inches.
Rect = tuple[float, float, float, float]

SYSTEMS = ("gff", "riverside")
#: Extra room (inches) kept between a base and terrain it may not touch, against round-off.
CLEARANCE = 0.01
#: Tolerance for "within" and "no overlap" tests.
TOL = 1e-6
#: Cohesion distance (both systems): each model within 1" of another model of its unit.
COHESION = 1.0
#: GFF: each model within 6" of all others.
GFF_SPREAD = 6.0
#: Riverside: all models within a 9" diameter circle, or as close as possible.
RIVERSIDE_DIAMETER = 9.0
#: 1" spacing from models of other units (seed 002 "1" Spacing", 003 "MOVEMENT").
SPACING = 1.0
#: Riverside "Terrain Movement": models may not end their movement on unstable terrain.
UNSTABLE_PRESETS = frozenset({"barricade"})
#: Riverside "Terrain Movement": climb terrain up to 3" tall as part of a move.
CLIMB_LIMIT = 3.0


def check_system(system: str) -> str:
    """Return ``system`` if it is a known rule system, else raise :class:`OptionError`."""
    if system not in SYSTEMS:
        raise OptionError(
            "unknown rule system for movement", value=system, expected="gff or riverside"
        )
    return system


# --- distances between bases -------------------------------------------------------------


def gaps(
    centres_a: FloatArray, radii_a: FloatArray, centres_b: FloatArray, radii_b: FloatArray
) -> FloatArray:
    """Edge-to-edge distances ``(len(a), len(b))`` between round bases (negative = overlap);
    centres and radii may carry leading dimensions (one set of bases a row), each row worked
    out as on its own (the same bits)."""
    diff = centres_a[..., :, None, :] - centres_b[..., None, :, :]
    dist = np.sqrt((diff * diff).sum(axis=-1))
    out: FloatArray = dist - radii_a[..., :, None] - radii_b[..., None, :]
    return out


def _alive(p: Placement) -> tuple[FloatArray, FloatArray]:
    keep = p.alive
    return p.centres[keep], p.radii[keep]


def overlaps(placements: Sequence[Placement], tol: float = TOL) -> bool:
    """Whether any two alive bases overlap, within one unit or across units."""
    cs = [_alive(p) for p in placements]
    if not cs:
        return False
    centres = np.concatenate([c for c, _ in cs])
    radii = np.concatenate([r for _, r in cs])
    if len(radii) < 2:
        return False
    g = gaps(centres, radii, centres, radii)
    np.fill_diagonal(g, np.inf)
    return bool((g < -tol).any())


def spacing_ok(
    placement: Placement,
    others: Sequence[Placement],
    *,
    gap: float = SPACING,
    exempt: Sequence[Placement] = (),
    tol: float = TOL,
) -> bool:
    """Whether the unit keeps ``gap`` inches from every other unit's models.

    ``exempt`` units (the target of a charge, a transport being embarked) may be touched but
    not overlapped.
    """
    centres, radii = _alive(placement)
    for other in others:
        if other is placement:
            continue
        oc, orad = _alive(other)
        if len(oc) == 0 or len(centres) == 0:
            continue
        need = 0.0 if any(other is e for e in exempt) else gap
        if (gaps(centres, radii, oc, orad) < need - tol).any():
            return False
    return True


def enclosing_circle(points: FloatArray) -> tuple[float, float, float]:
    """The smallest circle ``(x, y, r)`` around ``points`` (incremental Welzl, fixed order)."""
    pts = [(float(x), float(y)) for x, y in points]
    if not pts:
        return (0.0, 0.0, 0.0)
    cx, cy, r = pts[0][0], pts[0][1], 0.0

    def inside(p: Point) -> bool:
        return math.hypot(p[0] - cx, p[1] - cy) <= r + 1e-9

    for i, p in enumerate(pts):
        if inside(p):
            continue
        cx, cy, r = p[0], p[1], 0.0
        for j in range(i):
            q = pts[j]
            if inside(q):
                continue
            cx, cy = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            r = math.hypot(p[0] - q[0], p[1] - q[1]) / 2
            for k in range(j):
                s = pts[k]
                if not inside(s):
                    cx, cy, r = _circle3(p, q, s)
    return (cx, cy, r)


def _circle3(a: Point, b: Point, c: Point) -> tuple[float, float, float]:
    d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]))
    if abs(d) < 1e-12:  # collinear: the circle on the farthest pair
        pairs = [(a, b), (a, c), (b, c)]
        p, q = max(pairs, key=lambda pq: math.hypot(pq[0][0] - pq[1][0], pq[0][1] - pq[1][1]))
        return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, math.hypot(p[0] - q[0], p[1] - q[1]) / 2)
    a2, b2, c2 = a[0] ** 2 + a[1] ** 2, b[0] ** 2 + b[1] ** 2, c[0] ** 2 + c[1] ** 2
    ux = (a2 * (b[1] - c[1]) + b2 * (c[1] - a[1]) + c2 * (a[1] - b[1])) / d
    uy = (a2 * (c[0] - b[0]) + b2 * (a[0] - c[0]) + c2 * (b[0] - a[0])) / d
    return (ux, uy, math.hypot(a[0] - ux, a[1] - uy))


def unit_diameter(centres: FloatArray, radii: FloatArray) -> float:
    """Diameter of the smallest circle holding every base (exact for equal bases)."""
    if len(centres) == 0:
        return 0.0
    _, _, r = enclosing_circle(centres)
    return 2 * (r + float(radii.max()))


@lru_cache(maxsize=256)
def riverside_diameter_limit(n: int, radius: float) -> float:
    """Seed 002 "Unit Cohesion": 9", or as close as possible: the tightest blob if that is wider.

    Kept by count and base (every Riverside cohesion test asks it, and the blob is a formation
    laid out afresh: 63 of them in two games for a handful of unit sizes)."""
    if n <= 1:
        return RIVERSIDE_DIAMETER
    blob = formation(n, radius, spacing=0.0, shape="blob")
    return max(RIVERSIDE_DIAMETER, unit_diameter(blob, np.full(n, radius)) + TOL)


def is_coherent(placement: Placement, system: str = "gff", tol: float = TOL) -> bool:
    """Unit Cohesion of the alive models.

    GFF (seed 003 "MOVEMENT"): each model within 1" of another and within 6" of all others.
    Riverside (seed 002 "Unit Cohesion"): each model within 1" of another, and all within a 9"
    diameter circle, or as close as possible (the tightest blob of its bases, when wider).
    """
    check_system(system)
    centres, radii = _alive(placement)
    n = len(centres)
    if n <= 1:
        return True
    g = gaps(centres, radii, centres, radii)
    np.fill_diagonal(g, np.inf)
    if (g.min(axis=1) > COHESION + tol).any():
        return False
    if system == "gff":
        np.fill_diagonal(g, 0.0)
        return bool(g.max() <= GFF_SPREAD + tol)
    limit = riverside_diameter_limit(n, float(radii.max()))
    return unit_diameter(centres, radii) <= limit + tol


# --- formations --------------------------------------------------------------------------


def _unit_vector(facing: Point) -> tuple[float, float]:
    fx, fy = float(facing[0]), float(facing[1])
    norm = math.hypot(fx, fy)
    if not math.isfinite(norm) or norm < 1e-12:
        raise OptionError("facing must be a non-zero direction", value=facing, expected="(dx, dy)")
    return fx / norm, fy / norm


def formation(
    n: int,
    radius: float,
    centre: Point = (0.0, 0.0),
    facing: Point = (0.0, 1.0),
    spacing: float = 0.5,
    *,
    shape: str = "rows",
    per_row: int | None = None,
) -> FloatArray:
    """Centres ``(n, 2)`` of a compact formation whose centroid is ``centre``.

    ``rows``: staggered ranks across ``facing`` (front rank first), ``per_row`` wide (default
    about twice as wide as deep); ``blob``: the hex-lattice points nearest the centre. Neighbours
    stand ``spacing`` inches apart base to base, so a spacing up to 1" keeps Unit Cohesion.
    """
    if n < 1:
        raise OptionError("a formation needs models", value=n, expected="1 or more")
    if not radius > 0 or not math.isfinite(radius):
        raise OptionError("base radius must be positive", value=radius, expected="inches > 0")
    if not 0 <= spacing <= 1:
        raise OptionError("formation spacing out of range", value=spacing, expected="0 to 1 inch")
    if shape not in ("rows", "blob"):
        raise OptionError("unknown formation shape", value=shape, expected="rows or blob")
    fx, fy = _unit_vector(facing)
    pitch = 2 * radius + spacing
    step = pitch * math.sqrt(3) / 2
    local: list[tuple[float, float]] = []
    if shape == "rows":
        width = per_row or math.ceil(n / math.ceil(math.sqrt(n / 2)))
        if width < 1:
            raise OptionError("per_row must be positive", value=per_row, expected="1 or more")
        row = 0
        left = n
        while left > 0:
            m = min(width, left)
            start = (width - m) // 2 if left < width else 0
            for i in range(m):
                local.append(((start + i + 0.5 * (row % 2)) * pitch, -row * step))
            left -= m
            row += 1
    else:
        k = math.ceil(math.sqrt(n)) + 2
        lattice = [
            ((i + 0.5 * (j % 2)) * pitch, j * step)
            for j in range(-k, k + 1)
            for i in range(-k, k + 1)
        ]
        lattice.sort(key=lambda p: (round(p[0] ** 2 + p[1] ** 2, 9), math.atan2(p[1], p[0])))
        local = lattice[:n]
    arr = np.array(local, dtype=np.float64)
    arr -= arr.mean(axis=0)
    # local x runs across the facing (to its right), local y along it
    rx, ry = fy, -fx
    world = np.empty_like(arr)
    world[:, 0] = centre[0] + arr[:, 0] * rx + arr[:, 1] * fx
    world[:, 1] = centre[1] + arr[:, 0] * ry + arr[:, 1] * fy
    return world


# --- where a model may stand ---------------------------------------------------------------


def is_unstable(piece: TerrainPiece) -> bool:
    """Riverside "Terrain Movement": models may not end on unstable terrain (Barricades)."""
    return piece.has(TerrainType.UNSTABLE) or (piece.preset or "").casefold() in UNSTABLE_PRESETS


def is_difficult(piece: TerrainPiece, large: bool = False) -> bool:
    """Difficult terrain; Riverside Barricades are difficult for Large models only."""
    return piece.has(TerrainType.DIFFICULT) or (large and piece.has(TerrainType.DIFFICULT_LARGE))


def is_hazard(piece: TerrainPiece, large: bool = False) -> bool:
    """Terrain a charge may go round: difficult (for this unit) or dangerous."""
    return is_difficult(piece, large) or piece.has(TerrainType.DANGEROUS)


@dataclass(frozen=True, eq=False)
class _Ground:
    """Where a model of one base radius may not stand on one table (terrain does not move)."""

    table: Table
    blocked: Any  # shapely geometry, prepared; None when nothing blocks


_GROUND: dict[tuple[int, float, bool, float], _Ground] = {}
_CACHE_SIZE = 64


def _no_stand_polygons(table: Table, flying: bool, climb_limit: float) -> list[Any]:
    polys = []
    for piece in table.pieces:
        tall = piece.has(TerrainType.ELEVATED) and piece.height > climb_limit
        if piece.has(TerrainType.IMPASSABLE) or is_unstable(piece) or (tall and not flying):
            polys.append(shapely.Polygon(piece.outline))
    return polys


def _ground(table: Table, radius: float, flying: bool, climb_limit: float) -> _Ground:
    key = (id(table), round(radius, 6), flying, climb_limit)
    hit = _GROUND.get(key)
    if hit is not None and hit.table is table:
        return hit
    polys = _no_stand_polygons(table, flying, climb_limit)
    blocked = None
    if polys:
        blocked = shapely.union_all([p.buffer(radius + CLEARANCE, quad_segs=8) for p in polys])
        shapely.prepare(blocked)
    ground = _Ground(table, blocked)
    make_room(_GROUND, _CACHE_SIZE)
    _GROUND[key] = ground
    return ground


def standable(
    table: Table,
    points: FloatArray,
    radius: float,
    *,
    flying: bool = False,
    climb_limit: float = CLIMB_LIMIT,
) -> BoolArray:
    """Which centres a base of ``radius`` may end on: on the table, clear of impassable terrain,
    off unstable terrain (Barricades) and, for models that must climb, off pieces too tall to
    climb (seed 002 "Terrain Movement")."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    x, y = pts[:, 0], pts[:, 1]
    ok: BoolArray = (
        (x >= radius - TOL)
        & (x <= table.width - radius + TOL)
        & (y >= radius - TOL)
        & (y <= table.depth - radius + TOL)
    )
    blocked = _ground(table, radius, flying, climb_limit).blocked
    if blocked is not None and ok.any():
        ok[ok] = ~shapely.contains_xy(blocked, x[ok], y[ok])
    return ok


def on_table(table: Table, placement: Placement) -> bool:
    """Whether every alive base lies wholly on the table."""
    c, r = _alive(placement)
    return bool(
        ((c[:, 0] - r >= -TOL) & (c[:, 0] + r <= table.width + TOL)).all()
        and ((c[:, 1] - r >= -TOL) & (c[:, 1] + r <= table.depth + TOL)).all()
    )


def touches_terrain(
    table: Table, placement: Placement, kind: TerrainType | None = None, preset: str | None = None
) -> BoolArray:
    """Which alive models' bases touch a piece of type ``kind`` (or of ``preset``)."""
    c, r = placement.centres, placement.radii
    out = np.zeros(len(r), dtype=np.bool_)
    for piece in table.pieces:
        if (kind is not None and piece.has(kind)) or (
            preset is not None and (piece.preset or "").casefold() == preset.casefold()
        ):
            poly = shapely.Polygon(piece.outline)
            out |= shapely.dwithin(poly, shapely.points(c), r)
    out &= placement.alive
    return out


def legal_end(
    table: Table,
    placement: Placement,
    others: Sequence[Placement],
    *,
    system: str = "gff",
    exempt: Sequence[Placement] = (),
    flying: bool = False,
) -> list[str]:
    """Every reason the unit may not end where it stands (empty when it may)."""
    problems: list[str] = []
    c, r = _alive(placement)
    if not on_table(table, placement):
        problems.append("a model is off the table")
    for i in range(len(r)):
        if not standable(table, c[i : i + 1], float(r[i]) - CLEARANCE, flying=flying)[0]:
            problems.append(f"model {i} stands in impassable or on unstable terrain")
            break
    if overlaps([placement, *[o for o in others if o is not placement]]):
        problems.append("bases overlap")
    if not spacing_ok(placement, others, exempt=exempt):
        problems.append('a model is within 1" of another unit')
    if not is_coherent(placement, system):
        problems.append("the unit is not in cohesion")
    return problems


def fits_alone_at(
    table: Table, xs: FloatArray, ys: FloatArray, radii: FloatArray, alive: BoolArray
) -> BoolArray:
    """Whether :func:`legal_end` finds nothing wrong (GFF, no other unit near) with a formation
    of ``radii`` (``alive`` models) standing at each row of ``xs``/``ys``: one numpy pass for
    a deployment grid on a terrain table instead of one check a point (issue 13). Every test
    is :func:`legal_end`'s arithmetic element by element (the same bits): on the table, each
    model standable, no bases overlapping, in cohesion (a two-term sum and a square root are
    rounded the same whatever the array's shape)."""
    x, y, r = xs[:, alive], ys[:, alive], radii[alive]
    ok: BoolArray = np.asarray(
        ((x - r >= -TOL) & (x + r <= table.width + TOL)).all(axis=1)
        & ((y - r >= -TOL) & (y + r <= table.depth + TOL)).all(axis=1),
        dtype=np.bool_,
    )
    for radius in np.unique(r).tolist():  # standable is asked of one base size at a time
        cols = r == radius
        rows = np.flatnonzero(ok)
        pts = np.stack((x[rows][:, cols], y[rows][:, cols]), axis=-1).reshape(-1, 2)
        stand = standable(table, pts, radius - CLEARANCE).reshape(len(rows), int(cols.sum()))
        ok[rows] = stand.all(axis=1)
    n = len(r)
    if n < 2 or not ok.any():
        return ok
    rows = np.flatnonzero(ok)
    c = np.stack((x[rows], y[rows]), axis=-1)
    g = gaps(c, r, c, r)  # a row a point, as legal_end's overlaps and is_coherent ask it
    diagonal = np.eye(n, dtype=np.bool_)[None, :, :]
    g = np.where(diagonal, np.inf, g)
    fine = ~(g < -TOL).any(axis=(1, 2))  # overlaps
    fine &= ~(g.min(axis=2) > COHESION + TOL).any(axis=1)  # is_coherent: each within 1"
    fine &= np.where(diagonal, 0.0, g).max(axis=(1, 2)) <= GFF_SPREAD + TOL  # all within 6"
    ok[rows] = fine
    return ok


# --- settling wished-for positions into legal ones -----------------------------------------


def _ring_offsets() -> list[FloatArray]:
    """Candidate displacements in chunks of growing distance (searched nearest first)."""
    chunks: list[FloatArray] = []
    bands = (
        np.array([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.65, 0.8, 1.0]),
        np.concatenate([np.arange(1.25, 3.01, 0.25), np.arange(3.5, 8.01, 0.5)]),
        np.arange(9.0, 16.01, 1.0),
    )
    for band in bands:
        pts: list[tuple[float, float]] = []
        for rho in band:
            if rho == 0:
                pts.append((0.0, 0.0))
                continue
            k = max(8, math.ceil(2 * math.pi * rho / 0.3))
            for a in range(k):
                t = 2 * math.pi * a / k
                pts.append((rho * math.cos(t), rho * math.sin(t)))
        arr = np.array(pts, dtype=np.float64)
        order = np.lexsort((np.arctan2(arr[:, 1], arr[:, 0]), np.round(np.hypot(*arr.T), 9)))
        chunks.append(arr[order])
    return chunks


RING_OFFSETS = _ring_offsets()


@dataclass(frozen=True)
class Neighbours:
    """Other units' alive models, with the gap each needs: 1" (spacing) or 0 (exempt)."""

    centres: FloatArray
    radii: FloatArray
    need: FloatArray

    @staticmethod
    def of(
        others: Sequence[Placement],
        *,
        exempt: Sequence[Placement] = (),
        gap: float = SPACING,
        skip: Placement | None = None,
    ) -> Neighbours:
        units = [o for o in others if o is not skip]
        needs = [0.0 if any(o is e for e in exempt) else gap for o in units]
        for e in exempt:
            if e is skip or any(e is o for o in others):
                continue
            units.append(e)
            needs.append(0.0)
        if not units:
            empty = np.zeros((0, 2))
            return Neighbours(empty, np.zeros(0), np.zeros(0))
        # every unit's models at once: one concatenation and one pick of the alive ones
        removed = np.concatenate([u.removed for u in units])
        keep = ~removed
        sizes = [len(u.radii) for u in units]
        return Neighbours(
            np.concatenate([u.centres for u in units])[keep],
            np.concatenate([u.radii for u in units])[keep],
            np.repeat(np.array(needs, dtype=np.float64), sizes)[keep],
        )


def settle(
    table: Table,
    desired: FloatArray,
    radii: FloatArray,
    neighbours: Neighbours,
    *,
    flying: bool = False,
    cohesion: bool = True,
    allowed: Callable[[FloatArray, float], BoolArray] | None = None,
    order: Sequence[int] | None = None,
    fixed: FloatArray | None = None,
    fixed_radii: FloatArray | None = None,
    keep: BoolArray | None = None,
    reach: tuple[FloatArray, float] | None = None,
) -> FloatArray | None:
    """Legal centres as near as possible to ``desired``, or ``None`` when a model finds none.

    Models are placed one by one (``order``, default nearest the group's centre first); each
    takes the nearest spot (within 16") that is on the table, standable, clear of the models
    already placed (``fixed`` ones of the same unit count as placed), keeps its gap to
    ``neighbours`` and passes ``allowed``.
    A model that has to shift must also land within 1" of a model already placed (``cohesion``),
    so a unit that settles stays together. ``keep`` marks models whose desired spot must be
    used as it is (they fail rather than shift). ``reach`` ``(starts, distance)`` keeps each
    model within that straight distance of where it starts (a move's allowance).
    """
    if order is None:
        centre = desired.mean(axis=0)
        order = [int(i) for i in np.argsort(np.hypot(*(desired - centre).T), kind="stable")]
    placed_c = np.zeros((0, 2)) if fixed is None else fixed.copy()
    placed_r = np.zeros(0) if fixed_radii is None else fixed_radii.copy()
    out = desired.copy()
    for i in order:
        r = float(radii[i])
        only = keep is not None and bool(keep[i])
        found = _nearest_spot(
            table,
            desired[i],
            r,
            neighbours,
            flying,
            cohesion and len(placed_r) > 0,
            placed_c,
            placed_r,
            allowed,
            None if reach is None else (reach[0][i], reach[1]),
            only,
        )
        if found is None:
            return None
        out[i] = found
        placed_c = np.vstack([placed_c, found[None, :]])
        placed_r = np.append(placed_r, r)
    return out


#: How far round each chunk of :data:`RING_OFFSETS` reaches (inches).
_RING_REACH = [float(np.hypot(*chunk.T).max()) for chunk in RING_OFFSETS]
#: Inches by which a neighbour must stand clear of a whole chunk to be left out of its test
#: (the gaps are a hypotenuse less two radii: round-off is ~1e-13).
_FAR_MARGIN = 1e-6


def _nearest_spot(
    table: Table,
    want: FloatArray,
    r: float,
    neighbours: Neighbours,
    flying: bool,
    cohesive: bool,
    placed_c: FloatArray,
    placed_r: FloatArray,
    allowed: Callable[[FloatArray, float], BoolArray] | None,
    reach: tuple[FloatArray, float] | None,
    only: bool,
) -> FloatArray | None:
    """:func:`settle`'s spot for one model: the first candidate round ``want``, nearest first,
    that passes every test, or ``None``.

    Every test is per candidate, so each is asked only of the candidates the tests before it
    left (the cheap ones first), and the neighbours' gaps leave out the models that stand
    clear of the whole chunk with room to spare: the same first candidate as testing every
    candidate against every model (issue 13: a re-formed unit's settle compared ~1,500
    candidates of a chunk with every model on the table)."""
    if len(neighbours.radii):
        near_d = np.hypot(*(neighbours.centres - want).T) - neighbours.radii - r
        room = near_d - neighbours.need - TOL - _FAR_MARGIN
    for c, chunk in enumerate(RING_OFFSETS[:1] if only else RING_OFFSETS):
        cand = want + (chunk[:1] if only else chunk)
        ok = standable(table, cand, r, flying=flying)
        if reach is not None:
            ok &= np.hypot(*(cand - reach[0]).T) <= reach[1] + TOL
        idx = ok.nonzero()[0]
        if len(idx) and len(placed_r):
            sub = cand[idx]
            g = gaps(sub, np.full(len(sub), r), placed_c, placed_r)
            good = (g >= TOL).all(axis=1)
            if cohesive:
                shifted = np.hypot(*(sub - want).T) > 1e-9
                good &= ~shifted | (g <= COHESION - TOL).any(axis=1)
            idx = idx[good]
        if len(idx) and len(neighbours.radii):
            close = room <= _RING_REACH[c]
            if close.any():
                sub = cand[idx]
                g = gaps(
                    sub, np.full(len(sub), r), neighbours.centres[close], neighbours.radii[close]
                )
                idx = idx[(g >= neighbours.need[close][None, :] + TOL).all(axis=1)]
        if len(idx) and allowed is not None:
            idx = idx[allowed(cand[idx], r)]
        if len(idx):
            found: FloatArray = cand[int(idx[0])]
            return found
    return None


# --- deployment ----------------------------------------------------------------------------


def zone_polygon(zone: Rect | Sequence[Point] | Any) -> Any:
    """A zone as a shapely polygon: a rectangle ``(x0, y0, x1, y1)``, corner points, or a
    shapely polygon."""
    if hasattr(zone, "geom_type"):
        geom: Any = zone
        if geom.geom_type not in ("Polygon", "MultiPolygon") or geom.is_empty:
            raise OptionError("a zone must be a polygon", value=geom.geom_type, expected="Polygon")
        return geom
    items = list(zone)
    if len(items) == 4 and all(isinstance(v, int | float) for v in items):
        x0, y0, x1, y1 = (float(v) for v in items)
        if not (x1 > x0 and y1 > y0):
            raise OptionError(
                "a zone rectangle needs x0 < x1 and y0 < y1",
                value=tuple(items),
                expected="(x0, y0, x1, y1)",
            )
        return shapely.box(x0, y0, x1, y1)
    try:
        poly = shapely.Polygon([(float(x), float(y)) for x, y in items])
    except (TypeError, ValueError) as exc:
        raise OptionError(
            "a zone must be a rectangle or a list of corners",
            value=zone,
            expected="(x0, y0, x1, y1) or [(x, y), ...]",
        ) from exc
    if poly.is_empty or not poly.is_valid or poly.area <= 0:
        raise OptionError(
            "a zone polygon must be simple with an area", value=items, expected="3+ corners"
        )
    return poly


def place_in_zone(
    table: Table,
    unit_size: int,
    radius: float,
    zone: Rect | Sequence[Point] | Any,
    others: Sequence[Placement] = (),
    rng: np.random.Generator | None = None,
    *,
    system: str = "gff",
    large: bool = False,
    facing: Point | None = None,
    spacing: float = 0.5,
    flying: bool = False,
    tries: int = 200,
) -> Placement | None:
    """Deploy a unit wholly inside ``zone`` in a compact formation, or ``None`` if it cannot fit.

    Every base lies inside the zone, on ground it may stand on, 1" from other units' models
    (seed 002 "1" Spacing": nor be deployed within 1"), and the unit is in cohesion. Anchor spots
    are tried nearest the zone's centre first, or in an order drawn from ``rng``. The formation
    faces ``facing`` (default: toward the table's centre).
    """
    check_system(system)
    if unit_size < 1:
        raise OptionError("a unit needs at least one model", value=unit_size, expected="1 or more")
    if not radius > 0 or not math.isfinite(radius):
        raise OptionError("base radius must be positive", value=radius, expected="inches > 0")
    poly = zone_polygon(zone)
    inner = poly.buffer(-(radius + CLEARANCE))
    if inner.is_empty:
        return None
    shapely.prepare(inner)
    cx, cy = poly.centroid.x, poly.centroid.y
    if facing is None:
        dx, dy = table.width / 2 - cx, table.depth / 2 - cy
        facing = (dx, dy) if math.hypot(dx, dy) > 1e-9 else (0.0, 1.0)
    x0, y0, x1, y1 = inner.bounds
    xs = np.arange(x0, x1 + 1e-9, 1.0)
    ys = np.arange(y0, y1 + 1e-9, 1.0)
    grid = np.array([(x, y) for y in ys for x in xs], dtype=np.float64).reshape(-1, 2)
    grid = grid[shapely.contains_xy(inner, grid[:, 0], grid[:, 1])]
    if len(grid) == 0:
        grid = np.array([[inner.centroid.x, inner.centroid.y]])
    if rng is None:
        grid = grid[np.argsort(np.hypot(grid[:, 0] - cx, grid[:, 1] - cy), kind="stable")]
    else:
        grid = grid[rng.permutation(len(grid))]
    neighbours = Neighbours.of(others)
    radii = np.full(unit_size, float(radius))

    def in_zone(points: FloatArray, r: float) -> BoolArray:
        result: BoolArray = shapely.contains_xy(inner, points[:, 0], points[:, 1])
        return result

    for anchor in grid[:tries]:
        for shape in ("rows", "blob"):
            desired = formation(
                unit_size, radius, (anchor[0], anchor[1]), facing, spacing, shape=shape
            )
            got = settle(table, desired, radii, neighbours, flying=flying, allowed=in_zone)
            if got is None:
                continue
            placement = Placement(got, radii.copy(), large)
            if is_coherent(placement, system):
                return placement
    return None
