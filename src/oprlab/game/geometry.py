"""The game's view of the table: distances, moves, sight and cover, behind one small seam.

The game asks these questions in rules words (how far apart, can it see, does it have cover,
move it toward there); this module answers them with :mod:`oprlab.table`. Keeping the seam
narrow lets the table's implementation improve without touching the game procedure.

A game asks the same questions many times over an unchanged table (every decision lists and
scores every unit's actions again), so distances, centroids and whether a unit fits are
memoised on the bytes of the positions (and the table's identity): moving or removing a model
changes the key, so no answer is ever stale, and every answer has the same bits as before.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from oprlab.errors import OptionError
from oprlab.memo import by_table, game_memo, known, make_room
from oprlab.table import charge, planar
from oprlab.table.cover import has_cover
from oprlab.table.formation import legal_end
from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.table.movement import MoveRules, move_unit
from oprlab.table.sight import SightCache, visible
from oprlab.units.model import Unit

#: GFF cohesion: within 1" of another member; formations leave this gap between bases.
FORMATION_GAP = 0.5
#: Units may only be within 1" of other units when charging.
SPACING = 1.0
#: How far two placements' :func:`bounding_circle` gap may fall short of its exact value in
#: floats (the bound itself is at most the models' :func:`gap`): a listing skips a unit on
#: the circles only when they are farther apart than this more than asked.
BOUND_MARGIN = 1e-6


def formation(
    unit: Unit, models: int, centre: Point, facing: float = 0.0, per_row: int = 0
) -> Placement:
    """A compact formation: rows of up to 5 models (``per_row``, when given) facing ``facing``
    (radians), centred on its bases' box."""
    r = base_radius(unit)
    step = 2 * r + FORMATION_GAP
    per_row = min(per_row or 5, max(1, models))
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
    centres = planar.rotate(local, c, s) + np.asarray(centre)
    return Placement(centres, np.full(models, r), large=is_large(unit))


def alive_centres(p: Placement) -> np.ndarray:
    return p.centres[p.alive]


# Games ask the same distances again and again (every decision re-reads an unchanged table), so
# the answers are memoised on the bytes of the positions: moving or removing a model changes the
# key, so an answer is never stale. Each memo is dropped whole when it grows past its limit;
# they hold only numbers and games share them, so they stay global (oprlab.memo). A game asks
# about 30 centroids and 140 gaps: each limit holds over 100 games, so a long run fills them
# early and then stays level (issue 15).
_MEMO_LIMIT = 16384
_CENTROIDS_LIMIT = 4096
_CENTROIDS: dict[tuple[bytes, bytes], Point] = {}
_GAPS: dict[tuple[bytes, ...], float] = {}


def centroid(p: Placement) -> Point:
    key = (p.centres.tobytes(), p.removed.tobytes())
    found = _CENTROIDS.get(key)
    if found is None:
        c = alive_centres(p).mean(axis=0)
        found = (float(c[0]), float(c[1]))
        if len(_CENTROIDS) >= _CENTROIDS_LIMIT:
            _CENTROIDS.clear()
        _CENTROIDS[key] = found
    return found


#: A placement's positions as bytes (centres, radii, removed): :func:`gap`'s memo key is the two
#: units' keys one after the other.
GapKey = tuple[bytes, bytes, bytes]


def gap_key(p: Placement) -> GapKey:
    """A placement by its models' centres, bases and losses: all a unit-to-unit answer reads of
    it (two units never share centres, but a key without the bases would answer for a unit of
    other bases standing where one stood)."""
    return (p.centres.tobytes(), p.radii.tobytes(), p.removed.tobytes())


def gap(a: Placement, b: Placement) -> float:
    """Unit to unit: the closest models, base edge to base edge (seed 002 "Measuring")."""
    key = (
        a.centres.tobytes(),
        a.radii.tobytes(),
        a.removed.tobytes(),
        b.centres.tobytes(),
        b.radii.tobytes(),
        b.removed.tobytes(),
    )
    found = _GAPS.get(key)
    return _gap_kept(a, b, key) if found is None else found


def keyed_gap(a: Placement, a_key: GapKey, b: Placement, b_key: GapKey) -> float:
    """:func:`gap` given each placement's :func:`gap_key`: a listing that measures every unit
    of a side to the same enemies reads each enemy's bytes once."""
    key = a_key + b_key
    found = _GAPS.get(key)
    return _gap_kept(a, b, key) if found is None else found


def _gap_kept(a: Placement, b: Placement, key: tuple[bytes, ...]) -> float:
    found = _gap(a, b)
    if len(_GAPS) >= _MEMO_LIMIT:
        _GAPS.clear()
    _GAPS[key] = found
    return found


#: Each placement's bounding circle, by the bytes of its positions (deployment asks about the
#: same standing units for every point of every unit's grid).
_CIRCLES: dict[tuple[bytes, bytes, bytes], tuple[float, float, float]] = {}


def bounding_circle(p: Placement, key: GapKey | None = None) -> tuple[float, float, float]:
    """The alive models' mean centre and the radius of the circle round it that holds them
    (``key``: the placement's :func:`gap_key`, when the caller has it)."""
    if key is None:
        key = gap_key(p)
    found = _CIRCLES.get(key)
    if found is None:
        c, r = p.centres[p.alive], p.radii[p.alive]
        mid = c.mean(axis=0)
        reach = float((np.hypot(c[:, 0] - mid[0], c[:, 1] - mid[1]) + r).max())
        found = (float(mid[0]), float(mid[1]), reach)
        if len(_CIRCLES) >= _MEMO_LIMIT:
            _CIRCLES.clear()
        _CIRCLES[key] = found
    return found


def formation_at_points(
    base: Placement,
    points: Sequence[Point],
    table: Table,
    zone: tuple[float, float, float, float] | None = None,
) -> tuple[
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
]:
    """A formation ``base`` (centred on the origin) moved to each of ``points`` at once: the
    points' x and y as columns, every model's x and y (one row a point, the same sums as
    :func:`translated`), and whether it stands wholly on the table (:func:`inside_table`'s
    arithmetic) and, given a ``zone`` box ``(x0, y0, x1, y1)``, wholly inside it (within
    1e-6). Deployment checks a whole grid with it in one numpy call per question."""
    px = np.array([p[0] for p in points], dtype=np.float64)[:, None]
    py = np.array([p[1] for p in points], dtype=np.float64)[:, None]
    xs = base.centres[:, 0][None, :] + px
    ys = base.centres[:, 1][None, :] + py
    r, alive = base.radii, base.alive
    xa, ya, ra = xs[:, alive], ys[:, alive], r[alive]
    # each model's tests joined first, then one reduction a question (a numpy reduction costs
    # several element-wise passes): the same comparisons of the same sums
    fine = np.asarray(
        (
            ((xa - ra) >= 0)
            & ((ya - ra) >= 0)
            & ((xa + ra) <= table.width)
            & ((ya + ra) <= table.depth)
        ).all(axis=1),
        dtype=np.bool_,
    )
    if zone is not None:
        x0, y0, x1, y1 = zone
        fine &= ~(
            ((ys - r) < y0 - _ZONE_EPS)
            | ((ys + r) > y1 + _ZONE_EPS)
            | ((xs - r) < x0 - _ZONE_EPS)
            | ((xs + r) > x1 + _ZONE_EPS)
        ).any(axis=1)
    return px, py, xs, ys, fine


#: The deployment zones' tolerance (each system's deploy check allows 1e-6 past its edges).
_ZONE_EPS = 1e-6


def gap_lower_bounds(
    xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], own: float, other: Placement
) -> npt.NDArray[np.float64]:
    """For a formation standing at each point ``(xs, ys)``, its models within ``own`` of the
    point, a lower bound of its :func:`gap` to ``other`` (which has a model alive): the points'
    distances to ``other``'s bounding circle less ``own``. Deployment settles most grid points
    with it in one numpy call instead of one gap a point."""
    x, y, reach = bounding_circle(other)
    out: npt.NDArray[np.float64] = np.hypot(xs - x, ys - y) - reach - own
    return out


def gaps_at_points(
    xs: npt.NDArray[np.float64],
    ys: npt.NDArray[np.float64],
    base: Placement,
    others: Sequence[Placement],
) -> npt.NDArray[np.float64]:
    """For a formation standing at each row of ``xs``/``ys`` (:func:`formation_at_points`'s
    models of ``base``), its :func:`gap` to each of ``others`` (each with a model alive), a
    row a point: the same sums (so the same bits) for every point in one numpy pass.
    GFF's and Riverside's deployments ask it of the grid points near a unit."""
    ka = base.alive
    cb = np.concatenate([o.centres[o.alive] for o in others])
    rb = np.concatenate([o.radii[o.alive] for o in others])
    first = np.cumsum([0] + [int(o.alive.sum()) for o in others[:-1]])
    dx = xs[:, ka][:, :, None] - cb[:, 0][None, None, :]
    dy = ys[:, ka][:, :, None] - cb[:, 1][None, None, :]
    d = np.sqrt(dx * dx + dy * dy) - base.radii[ka][None, :, None] - rb[None, None, :]
    out: npt.NDArray[np.float64] = np.maximum(
        np.minimum.reduceat(d.min(axis=1), first, axis=1), 0.0
    )
    return out


def settle_points(
    points: Sequence[Point],
    settled: npt.NDArray[np.bool_],
    bad: npt.NDArray[np.bool_],
    wrong: Callable[[Point], str | None],
    ground: npt.NDArray[np.bool_] | None = None,
) -> list[bool]:
    """Whether a unit may deploy at each point, from what one numpy pass settled: a point
    cleared of every unit (``settled``) may, unless ``ground`` (given for the settled points
    only) says it stands on bad ground; a ``bad`` point may not; the rest are asked of
    ``wrong`` (the deployment's one-point check) one by one."""
    if ground is not None:
        bad[settled] = ~ground
        settled[settled] = ground
    return [
        yes or (not no and wrong(p) is None)
        for p, no, yes in zip(points, bad.tolist(), settled.tolist(), strict=True)
    ]


#: Up to this many model pairs a plain Python loop measures faster than numpy: each numpy call
#: costs about a microsecond whatever its size, and ``_gap`` makes about fifteen (issue 13).
_SMALL_PAIRS = 64


def _alive_lists(p: Placement) -> tuple[list[list[float]], list[float]]:
    """The living models' centres and radii as Python floats (for the small-size loops)."""
    gone = p.removed.tolist()
    return (
        [c for c, out in zip(p.centres.tolist(), gone, strict=True) if not out],
        [r for r, out in zip(p.radii.tolist(), gone, strict=True) if not out],
    )


def _nearest_edges(
    ca: list[list[float]], ra: list[float], cb: list[list[float]], rb: list[float]
) -> list[float]:
    """From each model of the first list (centres, radii) to the nearest of the second, base
    edge to base edge, not clamped at 0: the same operations in the same order as the numpy
    formulas of :func:`_gap` and :func:`model_gaps`, in Python floats (few pairs)."""
    lows: list[float] = []
    for (x, y), r in zip(ca, ra, strict=True):
        low = math.inf
        for (u, v), s in zip(cb, rb, strict=True):
            dx, dy = x - u, y - v
            d = math.sqrt(dx * dx + dy * dy) - r - s
            if d < low:
                low = d
        lows.append(low)
    return lows


def _gap(a: Placement, b: Placement) -> float:
    # The Euclidean norm of each offset, as ``np.linalg.norm(..., axis=2)`` computes it (the
    # square root of the summed squares), without its overhead: the same bits. Few pairs are
    # measured in Python floats, in the same order of operations: IEEE square roots, products
    # and differences are exact to the last bit either way, so the minimum is the same.
    ca, ra = _alive_lists(a)
    cb, rb = _alive_lists(b)
    if ca and cb and len(ca) * len(cb) <= _SMALL_PAIRS:
        return max(0.0, min(_nearest_edges(ca, ra, cb, rb)))
    return float(max(0.0, edge_gaps(a, b).min()))


def edge_gaps(a: Placement, b: Placement) -> npt.NDArray[np.float64]:
    """Each living model of ``a`` (a row) to each living model of ``b``, base edge to base edge
    (negative where bases overlap). The Euclidean norm of each offset as
    ``np.linalg.norm(..., axis=2)`` computes it (the square root of the summed squares),
    without its overhead: the same bits."""
    ka, kb = a.alive, b.alive
    cna, cnb = a.centres[ka], b.centres[kb]
    dxs = cna[:, 0][:, None] - cnb[:, 0][None, :]
    dys = cna[:, 1][:, None] - cnb[:, 1][None, :]
    out: npt.NDArray[np.float64] = (
        np.sqrt(dxs * dxs + dys * dys) - a.radii[ka][:, None] - b.radii[kb][None, :]
    )
    return out


def model_gaps(a: Placement, b: Placement) -> npt.NDArray[np.float64]:
    """From each model of ``a`` to the closest living model of ``b``, base edge to base edge
    (at least 0; ``inf`` for removed models of ``a``): how far each model shoots."""
    ca, ra = _alive_lists(a)
    cb, rb = _alive_lists(b)
    if ca and cb and len(ca) * len(cb) <= _SMALL_PAIRS:
        # as below in Python floats (the same bits: see _gap), one numpy call for the answer
        each = (max(low, 0.0) for low in _nearest_edges(ca, ra, cb, rb))
        gone = a.removed.tolist()
        return np.array([math.inf if out else next(each) for out in gone], dtype=np.float64)
    ka, kb = a.alive, b.alive
    out = np.full(len(a.radii), np.inf)
    if not ka.any() or not kb.any():
        return out
    out[ka] = np.maximum(edge_gaps(a, b).min(axis=1), 0.0)
    return out


def point_gap(p: Placement, point: Point) -> float:
    """Distance from a point to the closest base edge of a unit."""
    centres, radii = _alive_lists(p)
    if centres and len(centres) <= _SMALL_PAIRS:
        # as below in Python floats (the same bits: see _gap): the point as a model of radius
        # 0 (a square is the same either way round, and taking 0.0 away changes no float)
        (low,) = _nearest_edges([[float(point[0]), float(point[1])]], [0.0], centres, radii)
        return max(0.0, low)
    alive = p.alive
    c = p.centres[alive]
    dxs = c[:, 0] - point[0]
    dys = c[:, 1] - point[1]
    ds = np.sqrt(dxs * dxs + dys * dys) - p.radii[alive]
    return float(max(0.0, ds.min()))


def inside_table(table: Table, p: Placement) -> bool:
    alive = p.alive
    c, r = p.centres[alive], p.radii[alive][:, None]
    low, high = c - r, c + r  # the same differences and sums as one column at a time
    return bool(
        (low >= 0).all() and (high[:, 0] <= table.width).all() and (high[:, 1] <= table.depth).all()
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
    unit: Unit | None = None,
    system: str = "gff",
) -> Placement:
    """Where a unit ends moving toward ``goal``: :func:`move_unit_toward`'s placement."""
    if stop_at > 0:
        cx, cy = centroid(p)
        d = math.hypot(goal[0] - cx, goal[1] - cy)
        if d <= stop_at:
            return p.copy()
        f = (d - stop_at) / d
        goal = (cx + (goal[0] - cx) * f, cy + (goal[1] - cy) * f)
    return move_unit_toward(
        table, p, others, goal, allowance, may_touch=may_touch, unit=unit, system=system
    ).placement


def move_unit_toward(
    table: Table,
    p: Placement,
    others: list[Placement],
    goal: Point,
    allowance: float,
    *,
    may_touch: Placement | None = None,
    unit: Unit | None = None,
    system: str = "gff",
) -> MoveOutcome:
    """Move a unit toward ``goal`` by up to ``allowance`` along a path round terrain.

    The unit keeps its formation, 1" from other units (``may_touch``: the unit it charges),
    coherent and off impassable terrain (:func:`oprlab.table.movement.move_unit`); difficult
    terrain caps the move at 6" unless it has Strider, and Flying ignores terrain.
    """
    rules = MoveRules.of(unit, system) if unit is not None else MoveRules(system=system)
    key = (
        table,
        rules,
        np.array([goal[0], goal[1], allowance], dtype=np.float64).tobytes(),
        placement_key(p),
        None if may_touch is None else placement_key(may_touch),
        *[(placement_key(o), o is p, o is may_touch) for o in others],
    )
    found = _MOVES.get(key)
    if found is None:
        got = move_unit(table, p, others, goal, allowance, rules=rules, charging_target=may_touch)
        found = MoveOutcome(got.placement, float(got.advanced), got.dangerous)
        make_room(_MOVES, _MOVES_SIZE)
        _MOVES[key] = found
    # a copy: the game changes its placements in place (casualties), the memo's never
    return MoveOutcome(found.placement.copy(), found.advanced, found.dangerous.copy())


#: :func:`move_unit_toward`'s answers by the table (its value: each game makes its own, equal
#: to the last when the terrain and markers are), the move's rules, goal and allowance, and the
#: bytes of every position (which unit is which by identity): a batch of games between the
#: same armies opens with the same moves (10 of 156 moves in four 300-point games had been
#: made before, all in a game's first turns).
_MOVES: dict[tuple[object, ...], MoveOutcome] = game_memo("game.geometry._MOVES")
_MOVES_SIZE = 1024


@dataclass(frozen=True)
class MoveOutcome:
    """Where a unit ended, how far it got, and which models crossed dangerous terrain."""

    placement: Placement
    advanced: float
    dangerous: npt.NDArray[np.bool_]


def charge_move(
    table: Table,
    p: Placement,
    target: Placement,
    others: list[Placement],
    allowance: float,
    *,
    unit: Unit | None = None,
    system: str = "gff",
) -> Placement | None:
    """Move a charger into base contact with ``target``; ``None`` if no model can reach."""
    rules = MoveRules.of(unit, system) if unit is not None else MoveRules(system=system)
    rest = [o for o in others if o is not target]
    try:
        return charge.charge_move(table, p, target, rest, allowance, rules=rules).placement
    except OptionError:
        return None


def pile_in(
    table: Table,
    defender: Placement,
    attacker: Placement,
    others: list[Placement],
    *,
    unit: Unit | None = None,
) -> Placement:
    """The charged unit's models move up to 3" into base contact (seed 003 Charging)."""
    rules = MoveRules.of(unit) if unit is not None else None
    rest = [o for o in others if o is not attacker and o is not defender]
    return charge.pile_in(table, defender, attacker, rest, rules=rules).placement


def separate(
    table: Table,
    charger: Placement,
    defender: Placement,
    others: list[Placement],
    *,
    unit: Unit | None = None,
) -> Placement:
    """After combat the charger moves back to be 1" from the defender (if possible)."""
    rules = MoveRules.of(unit) if unit is not None else None
    rest = [o for o in others if o is not charger and o is not defender]
    return charge.separate(table, charger, defender, rest, rules=rules).move.placement


#: :func:`fits` answers by table (held, so its id stays unique) and the bytes of every position.
_FITS: dict[tuple[object, ...], tuple[Table, bool]] = game_memo("game.geometry._FITS")


def placement_key(p: Placement) -> tuple[bytes, bytes, bytes, bool]:
    """Everything of a placement an answer about the table can depend on, as a memo key."""
    return (p.centres.tobytes(), p.radii.tobytes(), p.removed.tobytes(), p.large)


def _known_fits(table: Table, p: Placement, others: Sequence[Placement]) -> bool | None:
    """:func:`fits` if it has been asked already (and is still memoised), else ``None``."""
    found: bool | None = known(_FITS, table, (placement_key(p), *map(placement_key, others)))
    return found


def fits(table: Table, p: Placement, others: Sequence[Placement]) -> bool:
    """A unit may stand here: on the table, clear of impassable terrain, 1" from others."""
    key = (placement_key(p), *map(placement_key, others))
    return by_table(_FITS, table, key, lambda: not legal_end(table, p, others), _MEMO_LIMIT)


def within(p: Placement, point: Point, distance: float) -> bool:
    return point_gap(p, point) <= distance


# --- line of sight and cover (oprlab.table.sight / cover) ---------------------------------


def sees(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    *,
    system: str = "gff",
    cache: SightCache | None = None,
) -> npt.NDArray[np.bool_]:
    """Which shooting models see at least one model of ``target`` (seed 003/002 rules)."""
    seen = visible(table, shooter, target, others, system, cache=cache)
    return np.asarray(seen.any(axis=1), dtype=np.bool_)


def in_cover(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    *,
    system: str = "gff",
    blast: bool = False,
    indirect: bool = False,
    cache: SightCache | None = None,
) -> bool:
    """Whether the target has cover from this shooting, judged for the unit as a whole.

    Cover is decided per shooting model by the table; a unit's attack is resolved at once, so
    the target counts as in cover when it has cover from most of the models that can see it.
    """
    seen = sees(table, shooter, target, others, system=system, cache=cache)
    covered = has_cover(
        table, shooter, target, others, system, blast=blast, indirect=indirect, cache=cache
    )
    shooting = covered[seen] if seen.any() else covered
    return bool(shooting.size and shooting.sum() * 2 > shooting.size)
