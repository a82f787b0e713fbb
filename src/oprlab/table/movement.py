"""Moving a unit on the table: allowances, paths around terrain, and a unit's move as a group.

How far: Advance 6", Rush and Charge 12" (seeds 002 "Activation Actions", 003 "ACTIVATION");
Fast +2"/+4", Slow -2"/-4"; if any model moves in or through difficult terrain no model moves
more than 6" (Strider and Flying ignore it); models climb pieces up to 3" tall, the vertical
distance counting toward the move (seed 002 "Terrain Movement"); nobody enters impassable
terrain; Flying moves over units and terrain and measures as if the board were flat.

Which way: each model follows a shortest path round terrain and other units
(:mod:`oprlab.table.paths`, :mod:`oprlab.table.blockers`).

As a group: the unit's centroid walks its own path toward the goal and the models keep their
formation around it, re-forming in compact rows where terrain or other units are in the way,
so a unit moves as a player would move it, not as a smear of independent models. If the models
cannot all reach their spots within the allowance, the unit goes less far.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.units`` and ``oprlab.table``'s
``model``, ``formation``, ``blockers`` and ``paths``; numpy and shapely.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Owner, Test
from oprlab.memo import make_room
from oprlab.table.blockers import NO_BLOCKERS, Blockers, blockers_for
from oprlab.table.formation import (
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
from oprlab.table.model import FloatArray, Placement, Point, Table, TerrainType
from oprlab.table.paths import (
    NAV_CACHE_SIZE,
    NavGraph,
    Path,
    as_point,
    find_path,
    nav_graph,
    polyline_length,
    walk,
)
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
    make_room(_POLYS, 4 * NAV_CACHE_SIZE)
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
    moved = [i for i, pts in enumerate(paths) if len(pts) > 1 and polyline_length(pts) > 1e-9]
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
    _models: tuple[FloatArray, FloatArray, FloatArray] | None = field(default=None, init=False)

    def models(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The moving models' starts and radii and the starts' centroid, picked out once a
        move (every try of the search read them afresh; nothing writes to them)."""
        if self._models is None:
            starts = self.unit.centres[self.idx]
            self._models = (starts, self.unit.radii[self.idx], starts.mean(axis=0))
        return self._models

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

    def path(
        self, radius: float, start: FloatArray, goal: FloatArray, within: float = math.inf
    ) -> Path:
        """A model's path (:func:`oprlab.table.paths.find_path`; ``within`` as there)."""
        nav = self.nav(radius)
        if nav is None:
            length = float(np.hypot(*(goal - start)))
            pts = (as_point(start),) if length <= 1e-12 else (as_point(start), as_point(goal))
            return Path(pts, length, 0.0)
        if float(np.hypot(*(goal - start))) <= 1e-12:
            return Path((as_point(start),), 0.0, 0.0)
        return find_path(nav, as_point(start), as_point(goal), self.blocks(radius), within=within)


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
        group = (rounded == r).nonzero()[0]
        nav = m.nav(float(r))
        if nav is None:
            for k in group:
                pts = (
                    (as_point(starts[k]),)
                    if lengths[k] <= 1e-12
                    else (as_point(starts[k]), as_point(goals[k]))
                )
                out[k] = Path(pts, float(lengths[k]), 0.0)
            continue
        blocks = m.blocks(float(r))
        a, b = starts[group], goals[group]
        free_a, free_b, direct = nav.straight(a, b, blocks)
        ok = free_a & free_b & direct
        climbs = nav.climb(a, b)
        pending: list[int] = []
        for j, k in enumerate(group):
            if lengths[k] <= 1e-12:
                out[k] = Path((as_point(starts[k]),), 0.0, 0.0)
            elif ok[j]:
                out[k] = Path(
                    (as_point(starts[k]), as_point(goals[k])), float(lengths[k]), float(climbs[j])
                )
            else:
                pending.append(int(k))
        if pending and guide is not None and len(guide) > 2:
            for i, path in zip(
                pending, _guided(nav, blocks, starts, goals, pending, guide), strict=True
            ):
                out[i] = path
        at = {int(k): j for j, k in enumerate(group)}
        for i in pending:
            if out[i] is None:
                j = at[i]  # the straight test just made, not made again
                known = (bool(free_a[j]), bool(free_b[j]), bool(direct[j]))
                out[i] = find_path(
                    nav, as_point(starts[i]), as_point(goals[i]), blocks, straight=known
                )
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
            Path(
                tuple(as_point(p) for p in pts),
                float(seg_len[mine].sum()),
                float(climb[mine].sum()),
            )
        )
    return out


def _plan_for(
    m: Mover, slots: FloatArray, allow: float, advanced: float, guide: FloatArray | None = None
) -> tuple[_Plan | None, float]:
    """Paths for every alive model to its slot, or ``None`` and by how much the slowest model
    misses (``inf`` when a slot cannot be reached at all)."""
    starts, radii, _ = m.models()
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
    radii = m.models()[1]
    for shape in ("rows", "blob"):
        wish = formation(
            len(radii), float(radii.max()), as_point(c), as_point(heading), shape=shape
        )
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
    starts, radii, c0 = m.models()
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
    starts, radii, c0 = m.models()
    stay = _Plan(
        starts.copy(), tuple((as_point(p),) for p in starts), np.zeros(len(starts)), 0.0, allow
    )
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
    idx = unit_placement.alive.nonzero()[0]
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
            table, unit, starts, [(as_point(c),) for c in starts], np.zeros(len(idx)), rules, allow
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
    idx = unit.alive.nonzero()[0]
    n = len(unit.radii)
    new = unit.copy()
    all_paths: list[tuple[Point, ...]] = [(as_point(c),) for c in unit.centres]
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
        for i in moved.placement.alive.nonzero()[0]
    )
    if not stand_ok:  # flying rules let it end on tall pieces; a teleporting walker may not
        return _result(
            table, unit_placement, unit_placement.alive.nonzero()[0], None, base, distance
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
        for i in rolls.nonzero()[0]
        for _ in range(tough)
    ]


def _touching(table: Table, placement: Placement, kind: TerrainType) -> BoolArray:
    polys = _terrain_polygons(table, kind)
    if len(polys) == 0:
        return np.zeros(len(placement.radii), dtype=np.bool_)
    pts = shapely.points(placement.centres)
    near = shapely.dwithin(pts[:, None], polys[None, :], placement.radii[:, None])
    return np.asarray(near.any(axis=1), dtype=np.bool_)
