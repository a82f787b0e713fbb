"""One decision's reading of the table, shared by every action the rules commander scores.

Speed: one decision scores dozens of actions against the same table, so the table is read once
(every unit's models, centroids, the distance from a point to every enemy unit in one numpy
call, who stands near each marker) and what actions share is memoised. Every number is computed
with the same floating-point operations, in the same order, as the per-call helpers it replaced,
so choices (and so game logs) are bit for bit the same.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import shapely

from oprlab.game import geometry as geo
from oprlab.game.actions import Kind
from oprlab.game.gff import OBJECTIVE_RANGE
from oprlab.game.state import GameState, UnitState
from oprlab.table.model import Placement, TerrainType
from oprlab.units.model import Unit

Point = tuple[float, float]
FloatArray = npt.NDArray[np.float64]

#: Reductions called as ufuncs: ``a.max()``, ``a.min()`` and ``a.all()`` reach these same
#: calls through numpy's Python wrappers (``_methods``), a few microseconds each. Whether any
#: element is set is ``np.count_nonzero``, a plain C call (a third of a ufunc's reduce).
MAX_OF, MIN_OF, ALL_OF = np.maximum.reduce, np.minimum.reduce, np.logical_and.reduce

#: The kinds of action the commander compares, by plain names: in Python 3.11 ``EnumType``
#: defines ``__getattr__``, so every attribute of an enum class (``Kind.HOLD``) is looked up
#: through a slow hook (about 0.5 us, 15 times a global's cost), and a decision compares kinds
#: hundreds of times.
HOLD, RUSH, ADVANCE, CHARGE, IDLE, CAST = (
    Kind.HOLD,
    Kind.RUSH,
    Kind.ADVANCE,
    Kind.CHARGE,
    Kind.IDLE,
    Kind.CAST,
)


class Units:
    """Some units' alive models in one array: a point's distance to each unit in one call.

    :meth:`gaps` is :func:`geometry.point_gap` measured as the commander always has (``hypot``
    of the offsets, less the base radius, the closest model, at least 0), for every unit at once;
    the per-unit minimum of one array equals the minimum over that unit's own models.
    """

    def __init__(self, units: list[UnitState]) -> None:
        self.units = units
        self._gaps: dict[Point, list[float]] = {}
        #: each unit's alive models, kept only when a unit has none left (:meth:`gaps`)
        self.models: list[tuple[FloatArray, FloatArray]] = []
        self.whole = True  # no unit without models left
        self.starts = np.zeros(0, dtype=np.intp)
        if not units:
            return
        places: list[Placement] = []
        for u in units:
            assert u.placement is not None  # every unit placed
            places.append(u.placement)
        # every unit's models in one array, the removed ones dropped by one mask: a mask per
        # unit cost a few numpy calls each, and a decision builds two groups
        removed = np.concatenate([p.removed for p in places])
        sizes = np.fromiter(map(len, (p.radii for p in places)), dtype=np.intp, count=len(places))
        ends = np.add.accumulate(sizes)  # ``np.cumsum``'s own sums, without its wrapper
        centres = np.concatenate([p.centres for p in places])
        radii = np.concatenate([p.radii for p in places])
        if np.count_nonzero(removed):  # a C call, without a ufunc's dispatch
            alive = ~removed
            before = np.zeros(len(alive) + 1, dtype=np.intp)
            np.add.accumulate(alive, dtype=np.intp, out=before[1:])
            self.starts = before[ends - sizes]  # the alive models ahead of each unit
            self.whole = bool(ALL_OF(before[ends] > self.starts))
            centres, radii = centres[alive], radii[alive]
        else:  # no model removed (early in a game): each unit's models from its first on
            self.starts = ends - sizes
            self.whole = bool(ALL_OF(sizes > 0))
        self.x, self.y = centres[:, 0], centres[:, 1]
        self.r = radii
        if not self.whole:
            self.models = [(p.centres[p.alive], p.radii[p.alive]) for p in places]

    def prefetch(self, points: Sequence[Point]) -> None:
        """Measure from many points in one call (the same numbers :meth:`gaps` gives)."""
        todo = [p for p in dict.fromkeys(points) if p not in self._gaps]
        if not todo or not self.units or not self.whole:
            return
        px = np.array([p[0] for p in todo], dtype=np.float64)
        py = np.array([p[1] for p in todo], dtype=np.float64)
        for p, row in zip(todo, self.gaps_from(px, py).tolist(), strict=True):
            self._gaps[p] = row

    def gaps_from(self, px: FloatArray, py: FloatArray) -> FloatArray:
        """The gaps from each point (``px[i]``, ``py[i]``) to each unit, a row per point, in one
        call: :meth:`gaps`'s numbers. Every unit must have models (``whole``)."""
        d = np.hypot(self.x[None, :] - px[:, None], self.y[None, :] - py[:, None]) - self.r[None, :]
        low = np.minimum.reduceat(d, self.starts, axis=1)
        # max(0.0, v) for each v (NaN and -0.0 give 0.0 as max does), in one call
        out: FloatArray = np.where(low > 0.0, low, 0.0)
        return out

    def gaps(self, at: Point) -> list[float]:
        """The gap from ``at`` to each unit's closest base edge, in unit order."""
        found = self._gaps.get(at)
        if found is not None:
            return found
        if not self.units:
            found = []
        elif self.whole:
            d = np.hypot(self.x - at[0], self.y - at[1]) - self.r
            low = np.minimum.reduceat(d, self.starts)
            found = np.where(low > 0.0, low, 0.0).tolist()
        else:  # a unit without models: measure one by one (as before, an empty min raises)
            found = [
                max(0.0, float((np.hypot(c[:, 0] - at[0], c[:, 1] - at[1]) - r).min()))
                for c, r in self.models
            ]
        self._gaps[at] = found
        return found


class View:
    """One decision's reading of the table, shared by every action the commander scores."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.centroids: dict[str, Point] = {}
        self.groups: dict[int, Units] = {}
        self.threats: dict[int, list[tuple[int, UnitState, float]]] = {}
        self.near: dict[str, list[bool]] | None = None
        #: per marker, the units of each side that would hold it at the round's end
        self.holders: list[list[int]] | None = None
        #: per marker, the sides that would hold it at the round's end (``holders`` above 0)
        self.holding: list[set[int]] | None = None
        self.objectives = [o.position for o in state.objectives]
        self.friends: dict[int, list[UnitState]] = {}
        self.worth: dict[tuple[str, str], list[tuple[Point, float]]] = {}
        self.swings: dict[str, tuple[int, list[tuple[float, float, int]]]] = {}
        #: :attr:`swings` by side and the markers a unit counts near (shared, never changed)
        self.side_swings: dict[
            tuple[int, tuple[bool, ...]], tuple[int, list[tuple[float, float, int]]]
        ] = {}
        self.positions: dict[tuple[str, Point, str], float] = {}
        self.projected: dict[tuple[str, Point], float] = {}
        self.charges: dict[tuple[str, str], float] = {}
        self.melee: dict[tuple[str, str, bool], float] = {}
        self.shots: dict[tuple[str, str, int, bool], float] = {}
        #: GFF marker habits: a shot's chance to break its target, the stake of breaking it
        self.breaks: dict[tuple[str, str, int, bool], float] = {}
        self.stakes: dict[tuple[int, str], int] = {}
        self.targets: dict[str, list[str]] = {}
        self.reaches: dict[str, float] = {}
        self.arrivals: dict[tuple[str, str], bool] = {}
        #: per side and marker: the enemies that could reach it by a Rush, the friends on it
        self.around: dict[tuple[int, int], tuple[list[UnitState], list[UnitState]]] = {}
        #: per side and marker: the need of a unit of the side with no unit charged, the
        #: friends on it
        self.needs: dict[int, list[tuple[Point, float, list[UnitState]]]] = {}
        #: per side and marker: the enemies that will contest it at the round's end
        self.contesters: dict[tuple[int, int], list[UnitState]] = {}
        #: per charger and target: the chance the charge destroys or Shakes the target
        self.charge_breaks: dict[tuple[str, str], float] = {}
        #: per charger and target: where the charge arrives (the target's centroid) and where
        #: it falls short (:meth:`Bounds._prefetch` works them out for every charge)
        self.charge_ends: dict[tuple[str, str], tuple[Point, Point]] = {}
        self.crossings: dict[tuple[str, Point], int] = {}
        self.covered: dict[tuple[str, Point], bool] = {}
        self.shooters: dict[int, list[tuple[int, UnitState, float]]] = {}
        self.cover_gain: dict[tuple[str, str], float] = {}
        self.target_cover: dict[tuple[str, str], bool] = {}
        #: :meth:`Scoring._projection_weight`, once a decision
        self.weight: float | None = None
        #: each unit's alive models' centres and radii (:meth:`alive`)
        self.alive_models: dict[str, tuple[FloatArray, FloatArray]] = {}
        self._dangerous: FloatArray | None = None
        self._cover: list[shapely.Polygon] | None = None
        self._points: FloatArray | None = None

    def centroid(self, us: UnitState) -> Point:
        c = self.centroids.get(us.uid)
        if c is None:
            assert us.placement is not None
            c = self.centroids[us.uid] = geo.centroid(us.placement)
        return c

    def alive(self, us: UnitState) -> tuple[FloatArray, FloatArray]:
        """The centres and base radii of the unit's models still in play, selected once a
        decision (the reach and each end's markers read them)."""
        found = self.alive_models.get(us.uid)
        if found is None:
            p = us.placement
            assert p is not None
            if np.count_nonzero(p.removed):
                alive = ~p.removed
                found = (p.centres[alive], p.radii[alive])
            else:  # none removed (most units): the placement's own arrays, read, never written
                found = (p.centres, p.radii)
            self.alive_models[us.uid] = found
        return found

    def dangerous_crossings(self, us: UnitState, here: Point, end: Point) -> int:
        """How many of the unit's models cross dangerous terrain going straight from their
        places to the same places shifted by ``end - here`` (start or end inside counts)."""
        key = (us.uid, end)
        found = self.crossings.get(key)
        if found is not None:
            return found
        if self._dangerous is None:
            self._dangerous = np.array(
                [
                    shapely.Polygon(p.outline)
                    for p in self.state.table.pieces
                    if p.has(TerrainType.DANGEROUS)
                ],
                dtype=object,
            )
        found = 0
        if len(self._dangerous):
            assert us.placement is not None
            starts = us.placement.centres[us.placement.alive]
            shift = np.array([end[0] - here[0], end[1] - here[1]])
            ways = shapely.linestrings(np.stack([starts, starts + shift], axis=1))
            hit = shapely.intersects(ways[:, None], self._dangerous[None, :]).any(axis=1)
            found = int(hit.sum())
        self.crossings[key] = found
        return found

    def in_cover_terrain(self, us: UnitState, here: Point, end: Point, *, whole: bool) -> bool:
        """Whether most of the unit's models, shifted by ``end - here``, stand in Cover Terrain
        (``whole``: the whole base inside a piece, else its centre)."""
        key = (us.uid, end)
        found = self.covered.get(key)
        if found is not None:
            return found
        found = False
        if self.cover_pieces():
            assert us.placement is not None
            alive = us.placement.alive
            shift = np.array([end[0] - here[0], end[1] - here[1]])
            centres = us.placement.centres[alive] + shift
            radii = us.placement.radii[alive]
            spots = shapely.points(centres)
            inside = np.zeros(len(radii), dtype=np.bool_)
            for piece in self.cover_pieces():
                hit = shapely.contains(piece, spots)
                if whole:
                    hit &= shapely.distance(piece.exterior, spots) >= radii
                inside |= hit
            found = bool(2 * int(inside.sum()) > len(radii))
        self.covered[key] = found
        return found

    def cover_pieces(self) -> list[shapely.Polygon]:
        """The table's Cover Terrain pieces (none: no unit stands in cover anywhere)."""
        if self._cover is None:
            self._cover = [
                shapely.Polygon(p.outline)
                for p in self.state.table.pieces
                if p.has(TerrainType.COVER)
            ]
        return self._cover

    def points(self) -> FloatArray:
        """The markers' positions as an array."""
        if self._points is None:
            self._points = np.array(self.objectives, dtype=np.float64).reshape(-1, 2)
        return self._points

    def reach(self, us: UnitState, here: Point) -> float:
        """How far the unit's farthest base edge is from its centroid ``here``."""
        found = self.reaches.get(us.uid)
        if found is None:
            c, r = self.alive(us)
            found = float(MAX_OF(np.hypot(c[:, 0] - here[0], c[:, 1] - here[1]) + r))
            self.reaches[us.uid] = found
        return found

    def enemies(self, side: int) -> Units:
        group = self.groups.get(side)
        if group is None:
            group = self.groups[side] = Units(self.state.enemies(side))
        return group

    def side_friends(self, side: int) -> list[UnitState]:
        found = self.friends.get(side)
        if found is None:
            found = self.friends[side] = self.state.friends(side)
        return found

    def near_objectives(self) -> dict[str, list[bool]]:
        """Each unit on the table: within 3" of each marker (:func:`geometry.within`).

        Measured as ``point_gap`` does (the square root of the summed squared offsets), for
        every model and marker in one call. A unit's row depends only on its models' places
        and the markers', and between two decisions most units stand where they stood: rows are
        remembered by those numbers' bytes (:data:`_NEAR`), and only the units not found there
        are measured (each unit's minimum over its own models, as in one call for all).
        """
        if self.near is None:
            units = [u for u in self.state.units.values() if u.on_table]
            self.near = {}
            if units and self.objectives:
                markers = self.points().tobytes()
                todo: list[tuple[UnitState, tuple[bytes, ...]]] = []
                for u in units:
                    p = u.placement
                    assert p is not None
                    key = (markers, *geo.gap_key(p))
                    found = _NEAR.get(key)
                    if found is None:
                        todo.append((u, key))
                        found = []  # its place in the units' order, filled below
                    self.near[u.uid] = found
                if todo and not self._measure_near(todo):
                    for u in units:  # a unit without models: each one by geometry, as before
                        assert u.placement is not None
                        self.near[u.uid] = [
                            geo.within(u.placement, o, OBJECTIVE_RANGE) for o in self.objectives
                        ]
            else:
                self.near = {u.uid: [False] * len(self.objectives) for u in units}
        return self.near

    def _measure_near(self, todo: list[tuple[UnitState, tuple[bytes, ...]]]) -> bool:
        """Measure :meth:`near_objectives`' rows of the units in ``todo`` (each with its
        :data:`_NEAR` key) in one call and remember them; False (nothing measured) when one of
        them has no model left."""
        units = [u for u, _ in todo]
        group = Units(units)
        if not group.whole:
            return False
        assert self.near is not None
        pts = self.points()
        dx = group.x[None, :] - pts[:, 0][:, None]
        dy = group.y[None, :] - pts[:, 1][:, None]
        d = np.sqrt(dx * dx + dy * dy) - group.r[None, :]
        low = np.minimum.reduceat(d, group.starts, axis=1)
        # max(0.0, v) <= range for each v (NaN and -0.0 give 0.0 as max does)
        close = (np.where(low > 0.0, low, 0.0) <= OBJECTIVE_RANGE).T.tolist()
        if len(_NEAR) + len(units) > _NEAR_LIMIT:
            _NEAR.clear()
        for (u, key), row in zip(todo, close, strict=True):
            self.near[u.uid] = _NEAR[key] = row
        return True


#: :meth:`View.near_objectives`' rows by the bytes of the markers' places and a unit's models'
#: (centres, radii, removed): only numbers, so one global memo, emptied at its limit. The rows
#: are shared between decisions: read, never changed.
_NEAR: dict[tuple[bytes, ...], list[bool]] = {}
_NEAR_LIMIT = 8192


def move_allowance(state: GameState, unit: Unit, kind: Kind) -> float:
    """How far ``unit`` moves with ``kind`` under the game's own text."""
    return state.rules.move_allowance(unit, kind)


def shooting_targets(state: GameState, us: UnitState) -> list[str]:
    """Who ``us`` may shoot now, by the game's own range and line-of-sight rules (Riverside
    traces its sampled sight lines, GFF one centre line)."""
    return state.rules.shooting_targets(state, us)


def held(controller: int | None, near: set[int], side: int) -> int:
    """1 if ``side`` would hold a marker (the sides ``near`` it seize or contest it), -1 if the
    other side would, else 0."""
    ctrl = controller if not near else (next(iter(near)) if len(near) == 1 else None)
    return (ctrl == side) - (ctrl == 1 - side)


def step_toward(start: Point, goal: Point, allowance: float) -> Point:
    d = math.dist(start, goal)
    if d <= allowance or d == 0:
        return goal
    f = allowance / d
    return (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)
