"""Riverside deployment (seed 002 "Deployment Phase", Scout and Ambush Deployment): the zones,
formations in Riverside cohesion, and where a unit may be set up.

May import ``oprlab.table``, ``oprlab.units``, ``oprlab.game``'s state, geometry,
deploy_search, gff_room and riverside_options, and below.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from oprlab.game import deploy_search
from oprlab.game import geometry as geo
from oprlab.game import gff_room as room
from oprlab.game.riverside_options import SYSTEM, options_of
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.table.formation import CLEARANCE, is_coherent, standable
from oprlab.table.formation import formation as formation_centres
from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.units.model import Army, Unit
from oprlab.units.rule_scope import unit_rule

EPS = 1e-6

#: Ambush Deployment: "anywhere over 9" away from enemy units".
AMBUSH_DISTANCE = 9.0


#: Scout Deployment: "12" beyond the boundaries of the commander's Deployment Zone".
SCOUT_DEPTH = 12.0


DEPLOY_PHASES = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)


def _check_room(army_a: Army, army_b: Army, table: Table) -> None:
    """Refuse a unit whose formation fits neither deployment band even on an empty table
    (``gff_room``; Ambush units: the whole table)."""
    for i, army in enumerate((army_a, army_b)):
        for unit in army.units:
            if unit_rule(unit, "Ambush"):
                box = (0.0, 0.0, table.width, table.depth)
                zones = [(_formation_at_origin(unit, unit.size, True), ("table", box, True))]
            else:
                deep = table.deployment_depth + (SCOUT_DEPTH if unit_rule(unit, "Scout") else 0.0)
                zones = [
                    (_formation_at_origin(unit, unit.size, up), ("deployment zone", box, True))
                    for up, box in (
                        (True, (0.0, 0.0, table.width, deep)),
                        (False, (0.0, table.depth - deep, table.width, table.depth)),
                    )
                ]
            room.check_room(i, army, unit, zones, (table.width, table.depth))


def edge(state: GameState, side: int) -> int:
    """Which table edge a side deploys on: 0 along ``y = 0``, 1 along ``y = depth``."""
    edges: list[int] = state.home_edges
    return edges[side]


def deployment_zone(state: GameState, side: int, *, scout: bool = False) -> tuple[float, float]:
    """The band of y a side deploys in (Scout: 12" beyond its zone's boundary)."""
    t = state.table
    depth = t.deployment_depth + (SCOUT_DEPTH if scout else 0.0)
    return (0.0, depth) if edge(state, side) == 0 else (t.depth - depth, t.depth)


def home_edge(state: GameState, side: int) -> float:
    return 0.0 if edge(state, side) == 0 else state.table.depth


def facing(state: GameState, side: int) -> tuple[float, float]:
    """Formations face the enemy's edge."""
    return (0.0, 1.0) if edge(state, side) == 0 else (0.0, -1.0)


@lru_cache(maxsize=1024)
def _formation_at_origin(unit: Unit, models: int, up: bool, per_row: int = 0) -> Placement:
    """A compact formation centred on (0, 0) in Riverside cohesion (rows, else a blob);
    ``per_row``: staggered ranks of that many models instead (perhaps not coherent)."""
    r = base_radius(unit)
    face = (0.0, 1.0) if up else (0.0, -1.0)
    if per_row:
        centres = formation_centres(models, r, (0.0, 0.0), face, 0.5, per_row=min(per_row, models))
        return Placement(centres, np.full(models, r), large=is_large(unit))
    for shape in ("rows", "blob"):
        centres = formation_centres(models, r, (0.0, 0.0), face, 0.5, shape=shape)
        p = Placement(centres, np.full(models, r), large=is_large(unit))
        if is_coherent(p, SYSTEM):
            return p
    return p


@lru_cache(maxsize=1024)
def _footprint(unit: Unit, models: int, up: bool) -> float:
    return deploy_search.footprint(_formation_at_origin(unit, models, up))


@lru_cache(maxsize=4096)
def _coherent(unit: Unit, models: int, up: bool, per_row: int) -> bool:
    return is_coherent(_formation_at_origin(unit, models, up, per_row), SYSTEM)


@lru_cache(maxsize=1024)
def _shapes(unit: Unit, models: int, up: bool) -> list[tuple[int, Placement]]:
    """The usual formation, then ranks of each width that keeps Unit Cohesion (seed 002)."""

    def make(k: int) -> Placement | None:
        return _formation_at_origin(unit, models, up, k) if _coherent(unit, models, up, k) else None

    return deploy_search.shapes(models, _formation_at_origin(unit, models, up), make)


def formation_at(state: GameState, us: UnitState, centre: Point, per_row: int = 0) -> Placement:
    """The unit's formation centred at ``centre`` facing the enemy edge (a fresh copy), in
    ranks of ``per_row`` (0: its usual formation)."""
    base = _formation_at_origin(us.unit, us.models, edge(state, us.side) == 0, per_row)
    return geo.translated(base, centre[0], centre[1])


def deploy_problem(state: GameState, us: UnitState, point: Point, per_row: int = 0) -> str | None:
    """Why ``us`` may not be deployed centred at ``point`` now (in ranks of ``per_row``; 0:
    its usual formation), or ``None`` if it may.

    Normal and Scout: every base inside the (Scout) Deployment Zone; Ambush: over 9" from every
    enemy unit; always on the table, off impassable and unstable terrain, 1" from other units
    ("1\\" Spacing": nor be deployed within 1"), in Unit Cohesion.
    """
    if per_row:
        if not 1 <= per_row <= us.models:
            return f"a formation has 1 to {us.models} models in each rank (0: the usual one)"
        if not _coherent(us.unit, us.models, edge(state, us.side) == 0, per_row):
            return "the unit would not be in Unit Cohesion in that formation"
    p = formation_at(state, us, point, per_row)
    if not geo.inside_table(state.table, p):
        return "the unit does not fit on the table there"
    if state.phase != Phase.AMBUSH:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        ys, r = p.centres[:, 1], p.radii
        if float((ys - r).min()) < lo - EPS or float((ys + r).max()) > hi + EPS:
            return "the unit must be inside its deployment zone"
    else:
        for e in state.enemies(us.side):
            if e.placement is not None and geo.gap(p, e.placement) <= AMBUSH_DISTANCE:
                return 'Ambush units deploy over 9" away from enemy units'
    for o in state.placements_except(us.uid):
        if geo.gap(p, o) < geo.SPACING - EPS:
            return 'units may not be deployed within 1" of other units'
    return _ground_problem(state, us, p)  # a coherent formation stays so wherever it stands


def _ground_problem(state: GameState, us: UnitState, p: Placement) -> str | None:
    radius = float(p.radii[0]) - CLEARANCE
    if (
        state.table.pieces
        and not standable(state.table, p.centres, radius, flying=unit_rule(us.unit, "Flying")).all()
    ):
        return "a model would stand in impassable or on unstable terrain"
    return None


def deploy_options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    """The spots offered to ``us`` with its formation there: the grid in its usual formation,
    or, once its side's units outgrow the grid, packed spots in any shape it may take
    (:mod:`oprlab.game.deploy_search`)."""
    return deploy_search.remembered(state, us, lambda: _options(state, us))


def _options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    t = state.table
    ambush = state.phase == Phase.AMBUSH
    if ambush:
        zone = (0.0, 0.0, t.width, t.depth)
    else:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        zone = (0.0, lo, t.width, hi)
    up = edge(state, us.side) == 0
    need = sum(_footprint(u.unit, u.models, up) for u in _to_deploy(state, us.side))
    if ambush or not deploy_search.crowded(state, zone, need):
        grid = deploy_candidates(state, us)
        if grid:
            return [(p, 0) for p in grid]
    blocks = deploy_search.blockers(state, us, AMBUSH_DISTANCE if ambush else geo.SPACING)
    return list(
        deploy_search.packed_options(
            state,
            zone,
            _shapes(us.unit, us.models, up),
            blocks,
            lambda p, k: (
                _ground_problem(state, us, formation_at(state, us, p, k)) if t.pieces else None
            ),
        )
    )


def no_room_reason(state: GameState, us: UnitState) -> str:
    """Why ``us`` finds no spot: where it had to stand and what was in the way."""
    others = sum(u.on_table for u in state.units.values())
    shapes = len(_shapes(us.unit, us.models, edge(state, us.side) == 0))
    where = {
        "ambush": 'over 9" from every enemy unit',
        "scout": "in its Scout Deployment Zone",
    }.get(state.phase, "in its Deployment Zone")
    return (
        f'no spot {where}, 1" from the {others} units on the table and off impassable or '
        f"unstable terrain, in any of {shapes} formations of its {us.models} models"
    )


def deploy_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Legal centres on a grid: 4" across, rows through the zone (the table for Ambush).

    Remembered until a unit is placed (the phase deciding whether to go on asks first, the
    listing of actions next).
    """
    key = (
        state.phase,
        state.round,
        us.uid,
        us.models,
        sum(u.on_table for u in state.units.values()),
    )
    memo = state.memo.deploy_points
    if isinstance(memo, tuple) and memo[0] == key:
        return list(memo[1])
    pts = _deploy_grid(state, us)
    state.memo.deploy_points = (key, tuple(pts))
    return pts


def _deploy_grid(state: GameState, us: UnitState) -> list[Point]:
    t = state.table
    if state.phase == Phase.AMBUSH:
        ys = [float(y) for y in np.arange(4.0, t.depth - 3.9, 4.0)]
    else:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        rows = max(3, int((hi - lo) // 5))
        ys = [float(y) for y in np.linspace(lo + 2.5, hi - 2.5, rows)]
    points = [(float(x), y) for y in ys for x in np.arange(4.0, t.width - 3.9, 4.0)]
    return [p for p, ok in zip(points, _clear_points(state, us, points), strict=True) if ok]


#: How far a bound measured with numpy's ``hypot`` must clear a limit to settle a point without
#: :func:`deploy_problem` (which measures with ``sqrt``; the two may differ in the last digit).
_MARGIN = 1e-6


def _clear_points(state: GameState, us: UnitState, points: list[Point]) -> list[bool]:
    """For each point, whether :func:`deploy_problem` finds nothing wrong there in the usual
    formation (issue 13: one numpy call per question for all points instead of one per point).

    The table and the zone are checked for every point at once with the same arithmetic as
    :func:`deploy_problem` (so the same answers), and the ground for all points in one call; a
    point that passes and stands clear of every other unit's bounding circle with room to spare
    needs nothing more. A point near a unit gets :func:`deploy_problem`'s own gap tests, with
    the same arithmetic for all such points at once (one at a time they were 243 calls of
    its in two games); only a unit with no model left sends points to it one by one.
    """
    if not points:
        return []
    t = state.table
    ambush = state.phase == Phase.AMBUSH
    base = _formation_at_origin(us.unit, us.models, edge(state, us.side) == 0)
    zone = None
    if not ambush:  # its band of the table (Ambush: anywhere on it)
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        zone = (0.0, lo, t.width, hi)
    px, py, xs, ys, fine = geo.formation_at_points(base, points, t, zone)
    r = base.radii
    settled = fine.copy()
    own = float((np.hypot(base.centres[:, 0], base.centres[:, 1]) + r).max())
    units = state.placements_except(us.uid)
    others = [(o, geo.SPACING) for o in units]
    if ambush:  # over 9" from each enemy (deploy_problem asks every enemy that has a place)
        enemies = [e.placement for e in state.enemies(us.side)]
        others += [(e, AMBUSH_DISTANCE) for e in enemies if e is not None]
    empty = False
    for o, limit in others:
        if not o.alive.any():
            settled[:] = False
            empty = True
            break
        settled &= geo.gap_lower_bounds(px[:, 0], py[:, 0], own, o) > limit + _MARGIN
    bad = ~fine  # off the table or out of the zone: deploy_problem says so first
    ask = ~settled & ~bad
    if not empty and ask.any():
        # near a unit: deploy_problem's own gap tests (the same bits), for those points at once
        apart = np.ones(int(ask.sum()), dtype=np.bool_)
        gaps = geo.gaps_at_points(xs[ask], ys[ask], base, [o for o, _ in others])
        for k, (_, limit) in enumerate(others):
            g = gaps[:, k]
            # deploy_problem: any unit under 1" (less EPS), an Ambush unit's enemy within 9"
            apart &= g >= limit - EPS if k < len(units) else g > limit
        settled[ask] = apart
        bad[ask] = ~apart
    ground = None
    if t.pieces and settled.any():  # clear of every unit: only the ground is left to ask
        radius = float(r[0]) - CLEARANCE
        centres = np.stack([xs[settled], ys[settled]], axis=2).reshape(-1, 2)
        flying = unit_rule(us.unit, "Flying")
        stands = standable(t, centres, radius, flying=flying).reshape(-1, len(r))
        ground = np.asarray(stands.all(axis=1), dtype=np.bool_)
    return geo.settle_points(points, settled, bad, lambda p: deploy_problem(state, us, p), ground)


def _to_deploy(state: GameState, side: int) -> list[UnitState]:
    """Units of ``side`` to be deployed in the current deployment phase."""
    phase = state.phase
    if phase == Phase.AMBUSH:
        if state.round < options_of(state).ambush_round:
            return []
        want: str | None = "ambush"
    else:
        want = "scout" if phase == Phase.SCOUT else None
    return [
        u
        for u in state.side_units(side)
        if u.placement is None and u.alive and u.reserve == want and phase in DEPLOY_PHASES
    ]
