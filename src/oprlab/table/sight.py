"""Line of sight, one swappable function per rule system, batched over a whole activation.

Riverside (seed 002 "Line of Sight"): a model sees another if at least 10% of the other's base is
visible from the first model's centre. The base is sampled with :data:`UNIT_DISC`, 30 fixed
points in three rings of equal area share (2, 8 and 20 points, each standing for 1/30 of the
base), and a model is seen when at least :data:`LOS_MIN_CLEAR` (4) of the 30 sight lines are
clear: against a straight edge at any angle that is 8.2% to 11.2% of the base visible (see
docs/rules/riverside.md for the sampling error). Models of the shooter's own unit never block;
models of other units block as discs, except that Large models see and are seen over Small
ones; LoS Blocking terrain blocks. GFF (seed 003): a simpler reading, a model sees another if the
segment between their centres crosses no sight blocker; models never block.

Blocking terrain (Forest, Forest Wall, any piece of type ``blocking``) blocks a sight line only
where the line passes through a part of the piece that the shooter or the target does not stand
in: a model in a forest sees out and is seen, a line through a forest between two models is
blocked (seed 002 Forest: "LoS Blocking terrain for units behind the Forest"). The same "strictly
between" test decides whether a model is *behind* Cover Terrain (used by ``cover.py``).

Everything is computed for all shooter-model x target-model pairs of an activation at once
(``*_all`` functions take every target unit): numpy segment-edge crossings for terrain (after a
cut by each piece's enclosing circle), numpy segment-disc distances for models, shapely for
point-in-polygon. :class:`SightCache` memoises results keyed on the exact
bytes of every position, so anything moving gives a new key. May import ``oprlab.table.model``,
``oprlab.table.terrain``, ``oprlab.table.measure`` and ``oprlab.errors``.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

import numpy as np
import numpy.typing as npt
import shapely  # type: ignore[import-untyped, unused-ignore]

from oprlab.errors import OptionError, UnknownNameError
from oprlab.table.measure import elevation
from oprlab.table.model import FloatArray, Placement, Table, TerrainType
from oprlab.table.terrain import TerrainGeometry, terrain_geometry

BoolArray = npt.NDArray[np.bool_]
T = TerrainType

#: Riverside: "at least 10% of the second model is visible".
LOS_SHARE = 0.10


def ring_samples(counts: Sequence[int] = (2, 8, 20), twist: float = 0.1) -> FloatArray:
    """Points on the unit disc in rings of equal area share, fixed order.

    Ring ``i`` holds ``counts[i]`` points evenly spaced (odd rings turned half a step) at the
    radius that halves the area of its annulus, so each point stands for ``1 / sum(counts)`` of
    the disc. The pattern is turned by ``twist`` radians so that no point lies on an axis
    through the centre: models standing in a straight row along an axis would otherwise line
    sample points up exactly with the gaps between touching bases.
    """
    total = sum(counts)
    out: list[tuple[float, float]] = []
    done = 0
    for i, n in enumerate(counts):
        radius = math.sqrt((done + n / 2) / total)
        for j in range(n):
            theta = twist + (j + 0.5 * (i % 2)) * 2 * math.pi / n
            out.append((radius * math.cos(theta), radius * math.sin(theta)))
        done += n
    return np.array(out, dtype=np.float64)


#: The 30 sample points of a base (unit radius): rings of 2, 8 and 20 points.
UNIT_DISC: FloatArray = ring_samples()
#: Clear sight lines (of the 30) needed to see a model. Calibrated: with a straight edge hiding
#: part of a base at any angle, 4 clear points means 8.2% to 11.2% of the base visible, the
#: closest band around the rule's 10% that 30 points give (3 points would be 6.1% to 8.2%).
LOS_MIN_CLEAR = 4
#: One sample at the centre: the GFF centre-to-centre sight line.
CENTRE: FloatArray = np.zeros((1, 2))


def elevated_choice(value: Elevated | str) -> Elevated:
    """``value`` as an :class:`Elevated`, or an :class:`OptionError` listing the choices."""
    try:
        return Elevated(value)
    except ValueError:
        raise OptionError(
            "unknown Elevated choice",
            value=value,
            expected="one of " + ", ".join(e.value for e in Elevated),
        ) from None


class Elevated(StrEnum):
    """Seed 002 Elevated Terrain: what a shooter higher up than its target takes.

    ``SEE_OVER``: LoS Blocking Terrain only gives the target Cover; ``IGNORE_COVER``: ignore
    Cover granted to the target by terrain; ``NONE``: no bonus.
    """

    NONE = "none"
    SEE_OVER = "see_over"
    IGNORE_COVER = "ignore_cover"


GapFrom = Literal["target", "shooter"]


@dataclass(frozen=True, eq=False)
class SightLines:
    """What each sight line from a shooter's centre to a sample point of a target's base meets.

    The ``(s, t, k)`` arrays run over shooter models, target models and sample points.

    Attributes:
        terrain: the line passes through LoS Blocking terrain (a part strictly between).
        models: the line passes through a blocking model of another unit.
        cover_in: the sample point is in Cover Terrain (type ``cover``).
        behind_cover: a Cover Terrain piece lies strictly between.
        behind_low: a piece of type ``cover_behind`` (Hill, Barricade) lies strictly between.
        elevated: ``(s, t)``: the shooter stands higher than the target on Elevated terrain.
        shooter_alive: ``(s,)`` living shooter models.
        target_alive: ``(t,)`` living target models.
        same_unit: the shooter's unit is the target (models see themselves).
    """

    terrain: BoolArray
    models: BoolArray
    cover_in: BoolArray
    behind_cover: BoolArray
    behind_low: BoolArray
    elevated: BoolArray
    shooter_alive: BoolArray
    target_alive: BoolArray
    same_unit: bool

    @property
    def samples(self) -> int:
        return int(self.terrain.shape[2])

    def part(self, start: int, stop: int, same_unit: bool) -> SightLines:
        """The lines to target models ``start:stop`` (one unit of a batched trace)."""
        cut = slice(start, stop)
        return SightLines(
            terrain=self.terrain[:, cut],
            models=self.models[:, cut],
            cover_in=self.cover_in[:, cut],
            behind_cover=self.behind_cover[:, cut],
            behind_low=self.behind_low[:, cut],
            elevated=self.elevated[:, cut],
            shooter_alive=self.shooter_alive,
            target_alive=self.target_alive[cut],
            same_unit=same_unit,
        )


def _placement_key(p: Placement) -> tuple[bytes, bytes, bytes, bool]:
    return (
        np.ascontiguousarray(p.centres).tobytes(),
        np.ascontiguousarray(p.radii).tobytes(),
        np.ascontiguousarray(p.removed).tobytes(),
        bool(p.large),
    )


class SightCache:
    """Memoised :class:`SightLines`, keyed on the table and the bytes of every position.

    Moving, removing or resizing any model changes the key, so a stale answer is never
    returned; the oldest entries go first once ``maxsize`` is reached. One cache per game.
    """

    def __init__(self, maxsize: int = 1024) -> None:
        if maxsize < 1:
            raise OptionError("cache size out of range", value=maxsize, expected="1 or more")
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._data: OrderedDict[tuple[object, ...], tuple[Table, tuple[SightLines, ...]]] = (
            OrderedDict()
        )

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        self._data.clear()

    def get_or_make(
        self,
        table: Table,
        key: tuple[object, ...],
        make: Callable[[], tuple[SightLines, ...]],
    ) -> tuple[SightLines, ...]:
        full = (id(table), *key)
        found = self._data.get(full)
        if found is not None and found[0] is table:
            self.hits += 1
            self._data.move_to_end(full)
            return found[1]
        self.misses += 1
        lines = make()
        self._data[full] = (table, lines)  # holding the table keeps its id unique
        if len(self._data) > self.maxsize:
            self._data.popitem(last=False)
        return lines


def sight_lines(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    *,
    samples: FloatArray = UNIT_DISC,
    models_block: bool = True,
    target_blocks: bool = False,
    gap_from: GapFrom = "target",
    cache: SightCache | None = None,
) -> SightLines:
    """Trace every sight line from the shooter's model centres to the target's base samples.

    Args:
        others: units other than the shooter's and the target's; their models may block.
        samples: sample points on a unit disc, scaled to each target base.
        models_block: whether other units' models block at all (Riverside yes, GFF no).
        target_blocks: whether the target unit's other models hide a target model (default no:
            a unit does not hide itself from the unit shooting at it; see docs/rules).
        gap_from: who must be over a piece's ``cover_gap`` from it for its cover to count.
        cache: a :class:`SightCache` to memoise in.
    """
    return sight_lines_all(
        table, shooter, [target], others, samples=samples, models_block=models_block,
        target_blocks=target_blocks, gap_from=gap_from, cache=cache,
    )[0]  # fmt: skip


def sight_lines_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    *,
    samples: FloatArray = UNIT_DISC,
    models_block: bool = True,
    target_blocks: bool = False,
    gap_from: GapFrom = "target",
    cache: SightCache | None = None,
) -> tuple[SightLines, ...]:
    """:func:`sight_lines` for several targets at once, one :class:`SightLines` per target.

    Each target's models also block sight to the other targets (as if they were in
    ``others``), so the answers equal one :func:`sight_lines` call per target, traced in one
    batch: the way one activation looks at every enemy unit.
    """
    if gap_from not in ("target", "shooter"):
        raise OptionError("gap_from", value=gap_from, expected="'target' or 'shooter'")
    samples = np.asarray(samples, dtype=np.float64).reshape(-1, 2)

    def make() -> tuple[SightLines, ...]:
        return _trace(
            table, shooter, targets, others, samples, models_block, target_blocks, gap_from
        )

    if cache is None:
        return make()
    key = (
        samples.tobytes(),
        models_block,
        target_blocks,
        gap_from,
        tuple(t is shooter for t in targets),
        _placement_key(shooter),
        tuple(_placement_key(t) for t in targets),
        tuple(_placement_key(o) for o in others),
    )
    return cache.get_or_make(table, key, make)


#: Candidates per block in :func:`_crossings`: keeps the temporaries in the CPU cache.
_BLOCK = 32


def _crossings(start: FloatArray, end: FloatArray, edges: FloatArray) -> npt.NDArray[np.int64]:
    """How many polygon edges each segment ``start -> end`` crosses (its ends excluded).

    ``start`` is ``(c, 2)``, ``end`` ``(c, k, 2)`` and ``edges`` ``(c, e, 2, 2)``; the answer
    is ``(c, k)``. Sign tests only, no division: the segment's ends must lie strictly on
    either side of the edge's line, and the edge's corners on either side of the segment's
    line, a corner on the line counting as the negative side (the crossing-number rule), so a
    line through a corner counts it once and a line grazing a corner counts it 0 or 2 times.
    """
    out = np.empty(end.shape[:2], dtype=np.int64)
    for i in range(0, len(start), _BLOCK):
        cut = slice(i, i + _BLOCK)
        out[cut] = _crossings_block(start[cut], end[cut], edges[cut])
    return out


def _crossings_block(
    start: FloatArray, end: FloatArray, edges: FloatArray
) -> npt.NDArray[np.int64]:
    q0, q1 = edges[:, :, 0, :], edges[:, :, 1, :]  # (c, e, 2)
    ex, ey = q1[..., 0] - q0[..., 0], q1[..., 1] - q0[..., 1]  # (c, e)
    sx, sy = start[:, None, 0], start[:, None, 1]  # (c, 1)
    base = ex * q0[..., 1] - ey * q0[..., 0]
    side_start = (ex * sy - ey * sx - base)[:, None, :]  # (c, 1, e)
    # which side of each edge's line the sample points are on, times the start's side
    a = np.multiply(ex[:, None, :], end[:, :, None, 1])  # (c, k, e)
    b = np.multiply(ey[:, None, :], end[:, :, None, 0])
    a -= b
    a -= base[:, None, :]
    a *= side_start
    hit = a < 0
    # which side of the sight line each edge's corners are on
    dx = (end[..., 0] - sx)[:, :, None]  # (c, k, 1)
    dy = (end[..., 1] - sy)[:, :, None]
    np.multiply(dx, (q0[..., 1] - sy)[:, None, :], out=a)
    np.multiply(dy, (q0[..., 0] - sx)[:, None, :], out=b)
    corner0 = a > b
    np.multiply(dx, (q1[..., 1] - sy)[:, None, :], out=a)
    np.multiply(dy, (q1[..., 0] - sx)[:, None, :], out=b)
    hit &= corner0 != (a > b)
    return np.asarray(hit.sum(axis=-1), dtype=np.int64)


def _segment_point_distance(a: FloatArray, b: FloatArray, q: FloatArray) -> FloatArray:
    """Distance from points ``q`` to segments ``a -> b`` (all broadcast, last axis 2)."""
    ab = b - a
    aq = q - a
    length2 = np.sum(ab * ab, axis=-1)
    t = np.clip(np.sum(aq * ab, axis=-1) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    near = a + t[..., None] * ab - q
    return np.asarray(np.hypot(near[..., 0], near[..., 1]), dtype=np.float64)


def _trace(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement],
    samples: FloatArray,
    models_block: bool,
    target_blocks: bool,
    gap_from: GapFrom,
) -> tuple[SightLines, ...]:
    sizes = [len(t.radii) for t in targets]
    bounds = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    s_xy, s_r = shooter.centres, shooter.radii
    t_xy = np.concatenate([t.centres for t in targets]) if targets else np.zeros((0, 2))
    t_r = np.concatenate([t.radii for t in targets]) if targets else np.zeros(0)
    group = np.repeat(np.arange(len(targets)), sizes)
    ns, nt, k = len(s_xy), len(t_xy), len(samples)
    pts = t_xy[:, None, :] + t_r[:, None, None] * samples[None, :, :]  # (t, k, 2)
    spread = float(np.max(np.hypot(samples[:, 0], samples[:, 1]))) if k else 0.0
    shape = (ns, nt, k)
    terrain = np.zeros(shape, dtype=np.bool_)
    behind_cover = np.zeros(shape, dtype=np.bool_)
    behind_low = np.zeros(shape, dtype=np.bool_)
    cover_in = np.zeros(shape, dtype=np.bool_)

    geom = terrain_geometry(table)
    rel = np.flatnonzero(geom.mask(T.BLOCKING) | geom.mask(T.COVER) | geom.mask(T.COVER_BEHIND))
    if ns and nt and len(rel):
        _trace_terrain(
            (s_xy, s_r), (t_xy, t_r), pts, geom, rel, gap_from, spread,
            terrain, behind_cover, behind_low, cover_in,
        )  # fmt: skip

    models = np.zeros(shape, dtype=np.bool_)
    if models_block and ns and nt:
        _block_by_models(models, shooter, targets, others, pts, group, target_blocks)

    elev_s = elevation(table, s_xy)
    elev_t = elevation(table, t_xy)
    whole = SightLines(
        terrain=terrain,
        models=models,
        cover_in=cover_in,
        behind_cover=behind_cover,
        behind_low=behind_low,
        elevated=elev_s[:, None] > elev_t[None, :],
        shooter_alive=shooter.alive.copy(),
        target_alive=np.concatenate([t.alive for t in targets]) if targets else np.zeros(0, bool),
        same_unit=False,
    )
    return tuple(
        whole.part(int(bounds[i]), int(bounds[i + 1]), t is shooter) for i, t in enumerate(targets)
    )


def _trace_terrain(
    shooter: tuple[FloatArray, FloatArray],
    target: tuple[FloatArray, FloatArray],
    pts: FloatArray,
    geom: TerrainGeometry,
    rel: npt.NDArray[np.intp],
    gap_from: GapFrom,
    spread: float,
    terrain: BoolArray,
    behind_cover: BoolArray,
    behind_low: BoolArray,
    cover_in: BoolArray,
) -> None:
    """Fill the terrain arrays (in place) for the relevant pieces ``rel``.

    ``shooter`` and ``target`` are ``(centres, radii)``; ``pts`` the target sample points.
    """
    s_xy, (t_xy, t_r) = shooter[0], target
    nt, k = len(t_xy), pts.shape[1]
    bounds = geom.bounds[rel]  # (r, 4)
    flat = pts.reshape(-1, 2)
    in_s = _points_in(s_xy, geom, rel, bounds)  # (s, r)
    in_t = _points_in(flat, geom, rel, bounds).reshape(nt, k, len(rel))  # (t, k, r)
    gap_ok = _gap_ok(shooter, target, geom, rel, gap_from)  # (s, t, r)
    cover = geom.mask(T.COVER)[rel]
    if cover.any():
        cover_in |= np.any(in_t[None, :, :, cover] & gap_ok[:, :, None, cover], axis=3)
    # a piece can cut a sight line only if its enclosing circle comes within the target's
    # radius of the centre-to-centre segment (every sight line of the fan lies that close)
    circles = geom.circles[rel]
    d = _segment_point_distance(
        s_xy[:, None, None, :], t_xy[None, :, None, :], circles[None, None, :, :2]
    )  # (s, t, r)
    near = d <= circles[None, None, :, 2] + t_r[None, :, None] * spread
    si, ti, ri = np.nonzero(near)
    if not len(si):
        return
    # crossings, grouped by the pieces' true edge counts (no work on padding)
    count = np.zeros((len(si), k), dtype=np.int64)
    n_edges = geom.n_edges[rel[ri]]
    for e in np.unique(n_edges):
        m = n_edges == e
        count[m] = _crossings(s_xy[si[m]], pts[ti[m]], geom.edges[rel[ri[m]], :e])
    between = count > in_s[si, ri][:, None] + in_t[ti, :, ri]
    ok = gap_ok[si, ti, ri][:, None]
    for kind, out, use_gap in (
        (T.BLOCKING, terrain, False),
        (T.COVER, behind_cover, True),
        (T.COVER_BEHIND, behind_low, True),
    ):
        m = geom.mask(kind)[rel[ri]]
        if m.any():
            np.logical_or.at(out, (si[m], ti[m]), between[m] & ok[m] if use_gap else between[m])


def _points_in(
    points: FloatArray, geom: TerrainGeometry, rel: npt.NDArray[np.intp], bounds: FloatArray
) -> npt.NDArray[np.int64]:
    """``(n, r)`` 1 where a point is in (or on) piece ``rel[r]``, else 0."""
    out = np.zeros((len(points), len(rel)), dtype=np.int64)
    x, y = points[:, 0], points[:, 1]
    box = (
        (x[:, None] >= bounds[None, :, 0])
        & (x[:, None] <= bounds[None, :, 2])
        & (y[:, None] >= bounds[None, :, 1])
        & (y[:, None] <= bounds[None, :, 3])
    )
    for r in np.flatnonzero(box.any(axis=0)):
        idx = np.flatnonzero(box[:, r])
        out[idx, r] = shapely.intersects_xy(geom.polygons[rel[r]], x[idx], y[idx])
    return out


def _gap_ok(
    shooter: tuple[FloatArray, FloatArray],
    target: tuple[FloatArray, FloatArray],
    geom: TerrainGeometry,
    rel: npt.NDArray[np.intp],
    gap_from: GapFrom,
) -> BoolArray:
    """``(s, t, r)``: whether piece ``rel[r]``'s cover gap is met (always, without a gap).

    Seed 002 Barricade: cover "for units behind the Barricade when over 1\" from" it; the
    distance is from the base (of the target, or of the shooter with ``gap_from="shooter"``).
    """
    ns, nt = len(shooter[1]), len(target[1])
    ok = np.ones((ns, nt, len(rel)), dtype=np.bool_)
    gaps = geom.gaps[rel]
    for r in np.flatnonzero(gaps > 0):
        xy, radii = target if gap_from == "target" else shooter
        dist = np.asarray(
            shapely.distance(shapely.points(xy), geom.polygons[rel[r]]), dtype=np.float64
        )
        far = dist - radii > gaps[r]
        ok[:, :, r] = far[None, :] if gap_from == "target" else far[:, None]
    return ok


def _block_by_models(
    out: BoolArray,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement],
    pts: FloatArray,
    group: npt.NDArray[np.intp],
    target_blocks: bool,
) -> None:
    """Mark sight lines that pass through a blocking model's base (in place).

    Blockers are the living models of every unit but the shooter's; a target unit's models do
    not hide each other (unless ``target_blocks``, then only a model itself is left out); a
    Small model does not block when the shooter or the target is Large.
    """
    xy: list[FloatArray] = []
    rad: list[FloatArray] = []
    b_group: list[npt.NDArray[np.int64]] = []
    b_index: list[npt.NDArray[np.int64]] = []
    b_large: list[npt.NDArray[np.bool_]] = []
    seen = {id(shooter)}
    offset = 0
    units = [(g, t) for g, t in enumerate(targets)] + [(-1, o) for o in others]
    for g, unit in units:
        n = len(unit.radii)
        if id(unit) not in seen:
            seen.add(id(unit))
            keep = unit.alive
            count = int(keep.sum())
            xy.append(unit.centres[keep])
            rad.append(unit.radii[keep])
            b_group.append(np.full(count, g, dtype=np.int64))
            index = offset + np.flatnonzero(keep) if g >= 0 else np.full(count, -1)
            b_index.append(np.asarray(index, dtype=np.int64))
            b_large.append(np.full(count, unit.large, dtype=np.bool_))
        if g >= 0:
            offset += n
    if not xy or not sum(len(r) for r in rad):
        return
    bxy, br = np.concatenate(xy), np.concatenate(rad)
    bg, bi, bl = np.concatenate(b_group), np.concatenate(b_index), np.concatenate(b_large)
    s_xy = shooter.centres
    t_xy = np.concatenate([t.centres for t in targets])
    t_r = np.concatenate([t.radii for t in targets])
    # which blockers may hide which target model at all
    same = bg[None, :] == group[:, None]  # (t, b)
    if target_blocks:
        same &= bi[None, :] == np.arange(len(t_xy))[:, None]
    t_large = np.array([t.large for t in targets], dtype=np.bool_)[group] | shooter.large
    allowed = ~same & ~(t_large[:, None] & ~bl[None, :])
    # pair level: a blocker can touch the fan only if it comes within its radius + the target's
    d = _segment_point_distance(
        s_xy[:, None, None, :], t_xy[None, :, None, :], bxy[None, None, :, :]
    )  # (s, t, b)
    cand = (d < br[None, None, :] + t_r[None, :, None]) & allowed[None, :, :]
    si, ti, bj = np.nonzero(cand)
    if not len(si):
        return
    dist = _segment_point_distance(s_xy[si][:, None, :], pts[ti], bxy[bj][:, None, :])  # (c, k)
    np.logical_or.at(out, (si, ti), dist < br[bj][:, None] - 1e-9)


# --------------------------------------------------------------------------------------------
# The systems.


def _finish(lines: SightLines, seen: BoolArray) -> BoolArray:
    seen = seen & lines.shooter_alive[:, None] & lines.target_alive[None, :]
    if lines.same_unit:
        n = min(seen.shape)
        idx = np.arange(n)
        seen[idx, idx] = lines.shooter_alive[:n]  # "Models have LoS to themselves"
    return seen


def riverside_share(lines: SightLines, elevated: Elevated = Elevated.SEE_OVER) -> FloatArray:
    """``(s, t)``: the share of each target base visible from each shooter centre (0 to 1)."""
    terrain = lines.terrain
    if elevated == Elevated.SEE_OVER:
        terrain = terrain & ~lines.elevated[:, :, None]
    clear = ~(terrain | lines.models)
    return np.asarray(clear.mean(axis=2), dtype=np.float64)


def riverside_seen(lines: SightLines, elevated: Elevated = Elevated.SEE_OVER) -> BoolArray:
    """``(s, t)``: at least 10% of the target base visible (4 of the 30 sample lines clear)."""
    k = lines.samples
    need = LOS_MIN_CLEAR if k == len(UNIT_DISC) else math.ceil(LOS_SHARE * k - 1e-9)
    return _finish(lines, riverside_share(lines, elevated) * k >= need - 1e-9)


def riverside_visible_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    *,
    elevated: Elevated = Elevated.SEE_OVER,
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """Seed 002 LoS: at least 10% of the target's base visible from the shooter's centre."""
    lines = sight_lines_all(
        table, shooter, targets, others, target_blocks=target_blocks, cache=cache
    )
    choice = elevated_choice(elevated)
    return tuple(riverside_seen(part, choice) for part in lines)


def gff_visible_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    *,
    elevated: Elevated = Elevated.NONE,
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """GFF reading: the centre-to-centre segment crosses no sight blocker; models never block.

    ``others``, ``elevated`` and ``target_blocks`` are accepted for a common signature and
    ignored (seed 003 has no Elevated terrain and no model blocking).
    """
    del others, elevated, target_blocks
    lines = sight_lines_all(
        table, shooter, targets, (), samples=CENTRE, models_block=False, cache=cache
    )
    return tuple(_finish(part, ~part.terrain[:, :, 0]) for part in lines)


VisibleFn = Callable[..., tuple[BoolArray, ...]]

#: One line-of-sight function per rule system (batched over targets); swap or add one here.
LOS_SYSTEMS: dict[str, VisibleFn] = {"riverside": riverside_visible_all, "gff": gff_visible_all}


def visible_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    elevated: Elevated = Elevated.SEE_OVER,
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """:func:`visible` for every target of an activation, traced in one batch.

    Every target also blocks sight to the others (Riverside), as do ``others`` (the remaining
    units); the answers equal one :func:`visible` call per target with the other targets added
    to ``others``.
    """
    fn = LOS_SYSTEMS.get(system)
    if fn is None:
        raise UnknownNameError(
            "unknown rule system for line of sight",
            value=system,
            expected="one of " + ", ".join(LOS_SYSTEMS),
        )
    return fn(
        table,
        shooter,
        targets,
        others,
        elevated=elevated_choice(elevated),
        target_blocks=target_blocks,
        cache=cache,
    )


def visible(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    elevated: Elevated = Elevated.SEE_OVER,
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> BoolArray:
    """``(shooter models, target models)``: which shooter model sees which target model.

    Removed models see nothing and are seen by none. ``others`` are the units that are neither
    the shooter's nor the target's (pass ``target is shooter`` for a unit looking at itself).
    ``elevated`` is the Riverside Elevated Terrain choice; ``target_blocks`` makes the target
    unit's models hide each other.
    """
    return visible_all(
        table, shooter, [target], others, system, elevated=elevated,
        target_blocks=target_blocks, cache=cache,
    )[0]  # fmt: skip
