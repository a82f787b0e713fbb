"""GFF deployment (seed 003 "Deployment", Scout, Ambush): where a unit may be set up.

Each deploy point is checked against the zone of its side's edge (Scout: 12" deeper), the table,
impassable terrain and the 1" from other units; formations face the enemy edge. The candidates
are a fixed grid, so commanders choose among the same points a replay sees.

May import ``oprlab.table``, ``oprlab.units``, ``oprlab.game``'s state, geometry, deploy_search,
gff_room and gff_setup, and below (``oprlab.memo``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from oprlab.game import deploy_search
from oprlab.game import geometry as geo
from oprlab.game import gff_room as room
from oprlab.game import gff_setup as edges
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.memo import game_memo
from oprlab.table.formation import fits_alone_at, is_coherent
from oprlab.table.model import Placement, Point, Table
from oprlab.units.model import Unit
from oprlab.units.rule_scope import unit_rule

#: Slack for points on a zone's boundary.
EPS = 1e-6

AMBUSH_DISTANCE = 9.0


SCOUT_DEPTH = 12.0


def _zones(table: Table, unit: Unit, opts: GffOptions) -> list[tuple[Placement, room.Zone]]:
    """Each zone ``unit`` may have to deploy in, with its formation there (``gff_room``).

    Any edge the roll-off may give (``GffOptions.edges``), 12" deep (Scout: 24"); Ambush
    units arrive anywhere on the table.
    """
    if unit_rule(unit, "Ambush"):
        return [
            (
                _formation_at_origin(unit, unit.size, facing(0)),
                ("table", (0.0, 0.0, table.width, table.depth), True),
            )
        ]
    depth = table.deployment_depth + (SCOUT_DEPTH if unit_rule(unit, "Scout") else 0.0)
    return [
        (
            _formation_at_origin(unit, unit.size, edges.heading(edge)),
            (f"{edge} deployment zone", edges.zone_box(table, edge, depth), edges.along_y(edge)),
        )
        for edge in edges.EDGE_SETS[opts.edges]
    ]


def edge_of(state: GameState, side: int) -> str:
    """The table edge ``side`` deploys along (``"south"`` for A, ``"north"`` for B until the
    deployment roll-off winner picks, seed 003 "Deployment" 1-2)."""
    chosen = state.edges
    return str(chosen[side]) if chosen else edges.DEFAULT_EDGES[side]


def deployment_zone(state: GameState, side: int, *, scout: bool = False) -> edges.Box:
    """The box ``(xmin, ymin, xmax, ymax)`` a side deploys in: 12" from its edge (Scout: 12"
    more, "within 12" of the deployment zone")."""
    depth = state.table.deployment_depth + (SCOUT_DEPTH if scout else 0.0)
    return edges.zone_box(state.table, edge_of(state, side), depth)


def facing(side: int, edge: str | None = None) -> float:
    """Formations face the enemy edge (``edge``: the side's own; default A south, B north)."""
    return edges.heading(edge or edges.DEFAULT_EDGES[side])


def deploy_problem(state: GameState, us: UnitState, point: Point, per_row: int = 0) -> str | None:
    """Why ``us`` may not be placed centred at ``point`` now (in ranks of ``per_row``; 0: its
    usual formation), or ``None`` if it may.

    Deployment 3: wholly within 12" of its edge; Scout: within 12" of its zone; Ambush: over 9"
    from every enemy unit; always on the table and 1" clear of other units (Movement).
    """
    if not 0 <= per_row <= us.models:
        return f"a formation has 1 to {us.models} models in each rank (0: the usual one)"
    return _deploy_problem(state, us, point, _obstacles(state, us), per_row)


#: Another unit as an obstacle: its placement, a bounding circle (x, y, radius), an enemy?
_Obstacle = tuple[Placement, float, float, float, bool]


def _obstacles(state: GameState, us: UnitState) -> list[_Obstacle]:
    out: list[_Obstacle] = []
    for o in state.units.values():
        if o.uid == us.uid or not o.on_table or o.placement is None:
            continue
        x, y, reach = geo.bounding_circle(o.placement)
        out.append((o.placement, x, y, reach, o.side != us.side))
    return out


#: Deployment is asked about the same units and points many times over (every decision of
#: the deployment lists every unit's candidates again). What depends on positions is memoised
#: on their bytes (``geo.bounding_circle``); what depends on the table and a unit's formation,
#: on their identity (each entry holds the table and the unit, so their ids stay unique while
#: it is there).
_FORMATIONS: dict[tuple[int, int, float, int], tuple[Unit, Placement, float]] = game_memo(
    "game.gff_deploy._FORMATIONS"
)


_STANDS: dict[tuple[object, ...], tuple[Table, Unit, Placement, str | None]] = game_memo(
    "game.gff_deploy._STANDS"
)


_CACHE_LIMIT = 16384


def _origin_formation(
    unit: Unit, models: int, heading: float, per_row: int = 0
) -> tuple[Placement, float]:
    """:func:`_formation_at_origin` by identity, and the radius of the circle that holds it."""
    found = _FORMATIONS.get((id(unit), models, heading, per_row))
    if found is None or found[0] is not unit:
        base = _formation_at_origin(unit, models, heading, per_row)
        own = float((np.hypot(base.centres[:, 0], base.centres[:, 1]) + base.radii).max())
        if len(_FORMATIONS) >= _CACHE_LIMIT:
            _FORMATIONS.clear()
        found = _FORMATIONS[(id(unit), models, heading, per_row)] = (unit, base, own)
    return found[1], found[2]


def _standing(
    state: GameState, us: UnitState, point: Point, zone: edges.Box | None, per_row: int = 0
) -> tuple[Placement, str | None]:
    """The unit's formation at ``point`` and what is wrong there whatever other units do:
    off the table, or (``zone``: the box it deploys in) not wholly inside its zone."""
    table = state.table
    heading = facing(us.side, edge_of(state, us.side))
    # only the table's size matters here (not its terrain): games on equal tables share it
    key = (table.width, table.depth, id(us.unit), us.models, heading, point, zone, per_row)
    found = _STANDS.get(key)
    if found is not None and found[1] is us.unit:
        return found[2], found[3]
    base, _ = _origin_formation(us.unit, us.models, heading, per_row)
    p = geo.translated(base, point[0], point[1])
    problem: str | None = None
    if not geo.inside_table(table, p):
        problem = "the unit does not fit on the table there"  # (cheaper than fits: first)
    elif zone is not None:
        x0, y0, x1, y1 = zone
        xs, ys, r = p.centres[:, 0], p.centres[:, 1], p.radii
        if (
            float((ys - r).min()) < y0 - EPS
            or float((ys + r).max()) > y1 + EPS
            or float((xs - r).min()) < x0 - EPS
            or float((xs + r).max()) > x1 + EPS
        ):
            problem = "the unit must be wholly inside its deployment zone"
    if len(_STANDS) >= _CACHE_LIMIT:
        _STANDS.clear()
    _STANDS[key] = (table, us.unit, p, problem)
    return p, problem


def _deploy_problem(
    state: GameState, us: UnitState, point: Point, obstacles: list[_Obstacle], per_row: int = 0
) -> str | None:
    ambush = state.phase == Phase.AMBUSH
    zone = None if ambush else deployment_zone(state, us.side, scout=us.reserve == "scout")
    p, problem = _standing(state, us, point, zone, per_row)
    if problem is not None:
        return problem
    heading = facing(us.side, edge_of(state, us.side))
    _, own = _origin_formation(us.unit, us.models, heading, per_row)
    near: list[Placement] = []
    for other, x, y, reach, enemy in obstacles:
        apart = math.hypot(x - point[0], y - point[1]) - reach - own  # a lower bound of the gap
        if ambush and enemy and apart <= AMBUSH_DISTANCE and geo.gap(p, other) <= AMBUSH_DISTANCE:
            return 'Ambush units deploy over 9" from enemy units'
        if apart < geo.SPACING + 0.5:
            near.append(other)
    if state.table.pieces:
        # A unit that does not fit alone does not fit beside others either (the table edge,
        # terrain and cohesion are its own; other units only add overlaps and spacing): a
        # known answer alone settles a point whatever stands near it.
        alone = geo._known_fits(state.table, p, []) if near else None
        if alone is False or not geo.fits(state.table, p, near):
            return 'the unit must stand clear of impassable terrain and 1" from other units'
    elif any(geo.gap(p, o) < geo.SPACING - EPS for o in near):
        return 'units may not be within 1" of other units'
    return None


@lru_cache(maxsize=1024)
def _formation_at_origin(unit: Unit, models: int, heading: float, per_row: int = 0) -> Placement:
    """The deployment formation centred on (0, 0); candidates translate it (never mutate).
    ``per_row``: models in each rank (0: the usual ranks of up to 5)."""
    return geo.formation(unit, models, (0.0, 0.0), heading, per_row)


def deploy_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres where the unit's formation fits wholly inside its zone, clear of others."""
    return list(_deploy_points(state, us))


def ambush_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres anywhere over 9" from enemy units (a 4" grid)."""
    return list(_ambush_points(state, us))


def _deploy_points(state: GameState, us: UnitState) -> Iterator[Point]:
    return _grid_points(state, us, _deploy_grid(state, us))


def _deploy_grid(state: GameState, us: UnitState) -> list[Point]:
    """Three rows across the zone's depth, one point every 4" along its edge (a new list of
    :func:`_zone_grid`'s points: every deployment decision asks it for each unit to place)."""
    zone = deployment_zone(state, us.side, scout=us.reserve == "scout")
    t = state.table
    return list(_zone_grid(zone, t.width, t.depth, edges.along_y(edge_of(state, us.side))))


def _zone_grid(zone: edges.Box, width: float, depth: float, along_y: bool) -> tuple[Point, ...]:
    """:func:`_deploy_grid`'s points for a zone box, the table's size and whether the edge runs
    along x (the rows') or y: all it reads, so the key. Numbers only; emptied whole at its
    limit (a game asks a few zones)."""
    key = (zone, width, depth, along_y)
    found = _ZONE_GRIDS.get(key)
    if found is None:
        x0, y0, x1, y1 = zone
        if along_y:
            found = tuple(
                (float(x), float(y))
                for y in np.linspace(y0 + 2.5, y1 - 2.5, 3)
                for x in np.arange(4.0, width - 3.9, 4.0)
            )
        else:
            found = tuple(
                (float(x), float(y))
                for x in np.linspace(x0 + 2.5, x1 - 2.5, 3)
                for y in np.arange(4.0, depth - 3.9, 4.0)
            )
        if len(_ZONE_GRIDS) >= _ZONE_GRIDS_LIMIT:
            _ZONE_GRIDS.clear()
        _ZONE_GRIDS[key] = found
    return found


_ZONE_GRIDS: dict[tuple[edges.Box, float, float, bool], tuple[Point, ...]] = {}
_ZONE_GRIDS_LIMIT = 64


def _ambush_points(state: GameState, us: UnitState) -> Iterator[Point]:
    return _grid_points(state, us, _ambush_grid(state))


def _grid_points(state: GameState, us: UnitState, grid: list[Point]) -> Iterator[Point]:
    """:func:`_clear_points` of a deployment grid; on an open table, from the points that
    passed when fewer units stood there, where the same unit asked then (issue 13: every
    deployment decision asks again for every unit still to place, so a side's deployment cost
    grew with the square of its units).

    On an open table a point passes when the unit stands on the table and in its zone there
    and keeps the gap from each other unit (1"; Ambush: over 9" from enemies), each unit
    asked on its own (:func:`_deploy_problem`): so the points that pass among more units are
    those that passed before and keep the gap from the units placed since, in the same
    order. No unit moves during a deployment phase, so the phase, the round and which units
    stand name the positions.

    Units that stand alike (:func:`deploy_search.stands_as`; with their side, reserve and
    models, all that a unit's formation, zone and gaps read) share the answer: a unit asked
    first takes up where another of its shape left off (issue 13: each unit placed left the
    next of its kind to check the whole grid afresh)."""
    if state.table.pieces:
        return _clear_points(state, us, grid)
    on = tuple(  # UnitState.on_table spelled out (each unit, each time a unit is asked)
        [
            uid
            for uid, o in state.units.items()
            if o.placement is not None
            and o.reserve is None
            and o.models > 0
            and not o.routed
            and uid != us.uid
        ]
    )
    when = ("gff", state.phase, state.round)
    edge = edge_of(state, us.side)
    shape = deploy_search.stands_as(us.unit)
    asked = (shape, us.models, us.side, us.reserve, edge, len(grid), grid[0], grid[-1])
    memo = state.memo.deploy_points
    entries: dict[object, _GridAnswer] = (
        memo[1] if isinstance(memo, tuple) and memo[0] == when else {}
    )
    hit = entries.get(asked)
    if hit is not None and hit[1] is not state.table:
        hit = None  # another table under the same key (ids are reused)
    if hit is not None and hit[2] == on:
        return iter(hit[3])
    if hit is not None and set(hit[2]) < set(on):
        newcomers: list[_Obstacle] = []
        for uid in on:
            o = state.units[uid]
            if uid not in hit[2] and o.placement is not None:
                x, y, reach = geo.bounding_circle(o.placement)
                newcomers.append((o.placement, x, y, reach, o.side != us.side))
        got, box = _among_newcomers(state, us, hit[3], newcomers, hit[4]), hit[4]
    else:
        got = tuple(_clear_points(state, us, grid))
        box = _box(got)
    # a new dict, never one changed in place: a copy of the state shares this memo's value
    state.memo.deploy_points = (when, {**entries, asked: (us.unit, state.table, on, got, box)})
    return iter(got)


def _box(points: tuple[Point, ...]) -> edges.Box:
    """The box around ``points`` (an empty one far off the table when there are none)."""
    if not points:
        return (math.inf, math.inf, math.inf, math.inf)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _among_newcomers(
    state: GameState,
    us: UnitState,
    points: tuple[Point, ...],
    newcomers: list[_Obstacle],
    box: edges.Box,
) -> tuple[Point, ...]:
    """The ``points`` (each passing among the units standing before) that also pass among
    ``newcomers``, in order. A point whose bound to every newcomer clears what
    :func:`_clear_points` asks of its own bound (the gap plus half an inch; Ambush: 9" from an
    enemy) by ``_MARGIN`` more (``math.hypot`` here, numpy's there: they may differ in the last
    digit) passes there without a gap measured; only the rest are asked of it.

    A newcomer whose bound clears ``box`` (around the points) so, by one more margin, clears
    every point (issue 13: the enemy deploying in the other zone was measured to each point
    of each unit still to place): left out, as it passes every point. Outside Ambush the
    points are asked of the rest in Python floats (:func:`_clear_of_newcomers`)."""
    base, own = _origin_formation(us.unit, us.models, facing(us.side, edge_of(state, us.side)))
    ambush = state.phase == Phase.AMBUSH
    near = geo.SPACING + 0.5 + 2 * _MARGIN
    far = AMBUSH_DISTANCE + 2 * _MARGIN
    x0, y0, x1, y1 = box
    close: list[_Obstacle] = []
    for o in newcomers:
        _, x, y, reach, enemy = o
        dx = max(x0 - x, x - x1, 0.0)
        dy = max(y0 - y, y - y1, 0.0)
        apart = math.hypot(dx, dy) - reach - own - _MARGIN
        if apart < near or (ambush and enemy and apart <= far):
            close.append(o)
    if not close:
        return points
    if not ambush and all(o[0].alive.any() for o in close):
        return _clear_of_newcomers(points, base, own, close)
    doubtful: list[Point] = []
    for point in points:
        for _, x, y, reach, enemy in close:
            apart = math.hypot(x - point[0], y - point[1]) - reach - own
            if apart < near or (ambush and enemy and apart <= far):
                doubtful.append(point)
                break
    if not doubtful:
        return points
    passed = set(_clear_points(state, us, doubtful, close, placed=True))
    asked = set(doubtful)
    return tuple(p for p in points if p in passed or p not in asked)


def _clear_of_newcomers(
    points: tuple[Point, ...], base: Placement, own: float, close: list[_Obstacle]
) -> tuple[Point, ...]:
    """The ``points`` at which the formation ``base`` (its models within ``own`` of its centre)
    keeps 1" from each of ``close`` (each with a model alive), in order: the gap test of
    :func:`_deploy_problem` on an open table outside Ambush, with its bound (``math.hypot``)
    and :func:`geometry.gap`'s sums in Python floats (the same bits, see ``geometry._gap``).
    The points passed the table, the zone and the units standing before, so that is all
    that is left to ask (issue 13: a few points near a newcomer, a few models each; numpy's
    calls cost more than the sums)."""
    alive = base.alive.tolist()
    mine = [
        (x, y, r)
        for (x, y), r, up in zip(base.centres.tolist(), base.radii.tolist(), alive, strict=True)
        if up
    ]
    theirs = [(x, y, reach, *geo._alive_lists(p)) for p, x, y, reach, _ in close]
    bound = geo.SPACING + 0.5
    least = geo.SPACING - EPS
    kept: list[Point] = []
    for point in points:
        px, py = point
        for x, y, reach, cb, rb in theirs:
            if math.hypot(x - px, y - py) - reach - own >= bound:
                continue
            low = math.inf  # geometry._nearest_edges' sums at the translated models
            for cx, cy, r in mine:
                mx, my = cx + px, cy + py
                for (u, v), s in zip(cb, rb, strict=True):
                    dx, dy = mx - u, my - v
                    d = math.sqrt(dx * dx + dy * dy) - r - s
                    if d < low:
                        low = d
            if max(0.0, low) < least:
                break
        else:
            kept.append(point)
    return tuple(kept)


#: A unit's grid points as :func:`_grid_points` keeps them: the unit and table asked about,
#: the other units standing then (uids), the points that passed and a box around them
#: (:func:`_box`; that of the points first found, which holds those that pass later).
_GridAnswer = tuple[Unit, Table, tuple[str, ...], tuple[Point, ...], edges.Box]


def _ambush_grid(state: GameState) -> list[Point]:
    """A 4" grid over the whole table."""
    t = state.table
    return [
        (float(x), float(y))
        for x in np.arange(4.0, t.width - 3.9, 4.0)
        for y in np.arange(4.0, t.depth - 3.9, 4.0)
    ]


#: How far a bound measured with numpy's ``hypot`` must clear a limit to settle a point without
#: :func:`_deploy_problem` (which measures with ``math.hypot``; the two may differ in the last
#: digit).
_MARGIN = 1e-6


def _models_at(
    base: Placement, points: Sequence[Point]
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
]:
    """The points' x and y as columns and every model's x and y at each: the same sums as
    :func:`geometry.formation_at_points` (so the same bits), without its table and zone tests."""
    px = np.array([p[0] for p in points], dtype=np.float64)[:, None]
    py = np.array([p[1] for p in points], dtype=np.float64)[:, None]
    return px, py, base.centres[:, 0][None, :] + px, base.centres[:, 1][None, :] + py


def _clear_points(
    state: GameState,
    us: UnitState,
    points: list[Point],
    obstacles: list[_Obstacle] | None = None,
    *,
    placed: bool = False,
) -> Iterator[Point]:
    """The points where :func:`_deploy_problem` finds nothing wrong, in order (issue 13: one
    numpy call per question for all points instead of one per point); among ``obstacles``
    only, if given (default: every other unit on the table); ``placed``: the points are known
    to keep the unit on the table and in its zone (they passed before), so that is not asked.

    The table and the zone are checked for every point at once with the same arithmetic as
    :func:`_standing` (so the same answers); a point that passes and stands clear of every
    other unit's bounding circle with room to spare needs nothing more on a table without
    terrain, and on one with terrain only the unit's own checks, made for all such points at
    once. Any other point (near a unit, on the edge of a bound) is asked of
    :func:`_deploy_problem` itself.
    """
    if not points:
        return
    if obstacles is None:
        obstacles = _obstacles(state, us)
    ambush = state.phase == Phase.AMBUSH
    zone = None if ambush else deployment_zone(state, us.side, scout=us.reserve == "scout")
    heading = facing(us.side, edge_of(state, us.side))
    base, own = _origin_formation(us.unit, us.models, heading)
    if placed:  # the points passed the table and the zone before: the models' places only
        px, py, xs, ys = _models_at(base, points)
        ok = np.ones(len(points), dtype=np.bool_)
    else:  # the table and the zone (wholly inside it, as _standing checks it), all at once
        px, py, xs, ys, ok = geo.formation_at_points(base, points, state.table, zone)
    settled = ok.copy() if not state.table.pieces else np.zeros_like(ok)
    if obstacles:
        ox = np.array([o[1] for o in obstacles], dtype=np.float64)[None, :]
        oy = np.array([o[2] for o in obstacles], dtype=np.float64)[None, :]
        reach = np.array([o[3] for o in obstacles], dtype=np.float64)[None, :]
        apart = np.hypot(ox - px, oy - py) - reach - own  # _deploy_problem's lower bound
        clear = (apart >= geo.SPACING + 0.5 + _MARGIN).all(axis=1)
        if ambush:
            enemy = np.array([o[4] for o in obstacles], dtype=np.bool_)
            clear &= (apart[:, enemy] > AMBUSH_DISTANCE + _MARGIN).all(axis=1)
        settled &= clear
        if not state.table.pieces:
            # on an open table what is left to ask of a point is its gap to each unit:
            # measured for all the points the bounds left at once, as geo.gap measures it
            # (a unit whose bound clears a point by 0.5" more than the spacing cannot fail
            # it). In Ambush, a point with an enemy's bound on the edge of 9" (where the
            # one-point check's own bound decides) is still asked one by one.
            ask = ok & ~clear
            if ambush:
                ask &= ~(np.abs(apart[:, enemy] - AMBUSH_DISTANCE) <= _MARGIN).any(axis=1)
            if ask.any():
                near = enemy if ambush else None
                _gaps_near(ask, apart, near, xs, ys, base, obstacles, ok, settled)
    if state.table.pieces:
        # on a terrain table a point whose bounds clear every unit (so none is near it) is
        # what fits asks of the unit alone: settled for all such points at once, as
        # legal_end's checks (formation.fits_alone_at); the rest are asked one by one
        alone = ok & clear if obstacles else ok.copy()
        if alone.any():
            passes = fits_alone_at(state.table, xs[alone], ys[alone], base.radii, base.alive)
            settled[alone] = passes
            ok[alone] = passes
    fine_at: list[bool] = ok.tolist()
    known_at: list[bool] = settled.tolist()
    for p, fine, known in zip(points, fine_at, known_at, strict=True):
        if known or (fine and _deploy_problem(state, us, p, obstacles) is None):
            yield p


def _gaps_near(
    ask: npt.NDArray[np.bool_],
    apart: npt.NDArray[np.float64],
    enemy: npt.NDArray[np.bool_] | None,
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
    base: Placement,
    obstacles: list[_Obstacle],
    ok: npt.NDArray[np.bool_],
    settled: npt.NDArray[np.bool_],
) -> None:
    """Settle the ``ask`` points of :func:`_clear_points` by their gaps (``ok`` and
    ``settled`` set to whether each passes), measured only to the units whose bound is near
    one of them (issue 13: every unit on the table was measured to every asked point, a numpy
    pass per unit). A unit whose bound clears each asked point by what ``_clear_points`` asks
    of it (the spacing and half an inch; ``enemy``, in Ambush: 9" from an enemy) is at least
    that far from the models, so it passes there whatever the gap: the same answers. Left as
    they are (asked one by one) when a unit measured has no model alive."""
    near_rows = apart[ask]
    near = ~(near_rows >= geo.SPACING + 0.5 + _MARGIN).all(axis=0)
    if enemy is not None:
        near |= enemy & ~(near_rows > AMBUSH_DISTANCE + _MARGIN).all(axis=0)
    kept = np.flatnonzero(near).tolist()
    others = [obstacles[j][0] for j in kept]
    if not all(o.alive.any() for o in others):
        return
    gap = geo.gaps_at_points(xs[ask], ys[ask], base, others)
    passes = (gap >= geo.SPACING - EPS).all(axis=1)
    if enemy is not None:
        passes &= (gap[:, enemy[kept]] > AMBUSH_DISTANCE).all(axis=1)
    ok[ask] = passes
    settled[ask] = passes


def deploy_options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    """The spots offered to ``us`` with its formation there: the grid in its usual ranks, or,
    once its side's units outgrow the grid, packed spots in any shape it may take
    (:mod:`oprlab.game.deploy_search`). Remembered until a unit is placed."""
    return deploy_search.remembered(state, us, lambda: _options(state, us))


def _options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    ambush = state.phase == Phase.AMBUSH
    zone = (
        (0.0, 0.0, state.table.width, state.table.depth)
        if ambush
        else deployment_zone(state, us.side, scout=us.reserve == "scout")
    )
    heading = facing(us.side, edge_of(state, us.side))
    if ambush or not _crowded(state, us.side, zone, heading):
        grid = list(_ambush_points(state, us) if ambush else _deploy_points(state, us))
        if grid:
            return [(p, 0) for p in grid]
    blocks = deploy_search.blockers(state, us, AMBUSH_DISTANCE if ambush else geo.SPACING)
    return list(
        deploy_search.packed_options(
            state,
            zone,
            _shapes(us.unit, us.models, heading),
            blocks,
            lambda p, k: _ground(state, us, p, k),
        )
    )


def _crowded(state: GameState, side: int, zone: edges.Box, heading: float) -> bool:
    """:func:`deploy_search.crowded` for the units ``side`` still has to place, once a listing
    for all its units that deploy in ``zone`` (issue 13: each unit's options summed the others'
    footprints again). Kept with the listing's options (:func:`deploy_search.listing_memo`,
    until a unit is placed or the phase changes); a unit left out for want of room leaves the
    units to place without a unit being placed, so their count is in the key too."""
    memo = deploy_search.listing_memo(state)
    key = ("crowded", side, zone, heading, len(state.not_deployed))
    found = memo.get(key)
    if found is None:
        need = sum(_footprint(u.unit, u.models, heading) for u in _to_deploy(state, side))
        found = memo[key] = deploy_search.crowded(state, zone, need)
    return bool(found)


def _ground(state: GameState, us: UnitState, point: Point, per_row: int) -> str | None:
    """What a packed spot (:mod:`oprlab.game.deploy_search`) leaves to check: terrain."""
    if not state.table.pieces:
        return None
    heading = facing(us.side, edge_of(state, us.side))
    p = geo.translated(_origin_formation(us.unit, us.models, heading, per_row)[0], *point)
    if not geo.fits(state.table, p, []):
        return "the unit must stand clear of impassable terrain"
    return None


def _footprint(unit: Unit, models: int, heading: float) -> float:
    """The area the unit's usual formation needs (:func:`deploy_search.footprint`), by the
    unit's identity: every deployment decision sums it over the units still to place, and an
    ``lru_cache`` hashed the frozen Unit (every field) each time."""
    found = _FOOTPRINTS.get((id(unit), models, heading))
    if found is None or found[0] is not unit:
        area = deploy_search.footprint(_formation_at_origin(unit, models, heading))
        if len(_FOOTPRINTS) >= _CACHE_LIMIT:
            _FOOTPRINTS.clear()
        found = _FOOTPRINTS[(id(unit), models, heading)] = (unit, area)
    return found[1]


_FOOTPRINTS: dict[tuple[int, int, float], tuple[Unit, float]] = game_memo(
    "game.gff_deploy._FOOTPRINTS"
)


@lru_cache(maxsize=1024)
def _shapes(unit: Unit, models: int, heading: float) -> list[tuple[int, Placement]]:
    """The usual formation, then ranks of each width that keeps GFF cohesion (each model
    within 1" of another and 6" of all others, seed 003 "MOVEMENT")."""

    def make(k: int) -> Placement | None:
        p = _formation_at_origin(unit, models, heading, k)
        return p if is_coherent(p, "gff") else None

    return deploy_search.shapes(models, _formation_at_origin(unit, models, heading), make)


def no_room_reason(state: GameState, us: UnitState) -> str:
    """Why ``us`` finds no spot: where it had to stand and what was in the way."""
    others = sum(u.on_table for u in state.units.values())
    shapes = len(_shapes(us.unit, us.models, facing(us.side, edge_of(state, us.side))))
    if state.phase == Phase.AMBUSH:
        where = 'over 9" from every enemy unit'
    else:
        depth = state.table.deployment_depth + (SCOUT_DEPTH if us.reserve == "scout" else 0.0)
        where = f'within {depth:g}" of the {edge_of(state, us.side)} edge'
    return (
        f'no spot {where}, 1" from the {others} units on the table and off impassable '
        f"terrain, in any of {shapes} formations of its {us.models} models"
    )


def _to_deploy(state: GameState, side: int) -> list[UnitState]:
    phase = state.phase
    want = "scout" if phase == Phase.SCOUT else "ambush" if phase == Phase.AMBUSH else None
    return [
        u for u in state.side_units(side) if u.placement is None and u.alive and u.reserve == want
    ]
