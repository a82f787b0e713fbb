"""Room for one more unit in a crowded deployment zone, and units that truly find none.

Both OPR procedures offer deployment spots on a coarse grid (every 4" along the edge, a few
rows across the zone), which is quick and spreads units out. Seed 003 "Deployment" 3 and seed
002 "Deployment Phase" only ask that the unit be placed within its zone, 1" from other units,
so a crowded zone has room the grid misses: the gaps between units are rarely on the grid, and
a unit that does not fit in its usual ranks may fit in deeper or wider ones. When the side's
units outgrow the grid, this module lists the spots a player would try instead: each shape the
unit may take (:func:`shapes`), its bases' box pushed against the zone's sides or standing the
1" gap from units already there (:mod:`oprlab.table.packing`), each checked by the system's own
rules. Only a unit with no such spot is left out, and then the log, the result and the account
say which and why (:func:`not_deployed`).

May import ``oprlab.table``, ``oprlab.units``, ``oprlab.game.state`` and ``oprlab.game.events``
(and ``oprlab.memo``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from oprlab.game.state import GameState, UnitState
from oprlab.memo import game_memo
from oprlab.table import packing
from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.table.packing import Blocker, Rect
from oprlab.units.model import Unit

#: The 1" spacing from other units (seeds 002 "1\" Spacing", 003 "MOVEMENT").
SPACING = 1.0
#: A spot and the formation the unit takes there (0: its usual one; k: ranks of k models).
Option = tuple[Point, int]
#: How many of a side's units still to place may stand in a zone before it counts as crowded:
#: the sum of their footprints (bases' box grown by half the spacing on each side) over the
#: zone's free area. Past it, spots are packed from the start (:func:`crowded`).
CROWDED = 0.5


def shapes(
    models: int,
    standard: Placement,
    make: Callable[[int], Placement | None],
) -> list[tuple[int, Placement]]:
    """The formations a unit of ``models`` may take: its usual one (0) first, then ranks of
    ``k`` models for each ``k`` that gives a new box (``make(k)`` is ``None`` when that shape
    breaks cohesion), widest first."""
    out = [(0, standard)]
    seen = {_size(standard)}
    for k in range(models, 0, -1):
        p = make(k)
        if p is None:
            continue
        size = _size(p)
        if size in seen:
            continue
        seen.add(size)
        out.append((k, p))
    return out


def _size(p: Placement) -> tuple[float, float]:
    x0, y0, x1, y1 = packing.bounds(p)
    return round(x1 - x0, 3), round(y1 - y0, 3)


def blockers(state: GameState, us: UnitState, enemy_gap: float = SPACING) -> list[Blocker]:
    """The units on the table as boxes to keep clear of: ``enemy_gap`` from enemies (Ambush:
    9"), 1" from friends."""
    return [
        (box, enemy_gap if state.units[uid].side != us.side else SPACING)
        for uid, box in _boxes(state).items()
        if uid != us.uid
    ]


def _boxes(state: GameState) -> dict[str, Rect]:
    """The bases' box of each unit on the table, remembered for the deployment phase."""
    memo = state.memo.deploy_boxes
    # no unit moves during a deployment phase: its units and phase name the positions, and
    # the units standing earlier in the phase keep their boxes
    key = (state.phase, state.round, tuple(u.uid for u in state.units.values() if u.on_table))
    if not (isinstance(memo, tuple) and memo[0] == key):
        kept: dict[str, Rect] = (
            memo[1] if isinstance(memo, tuple) and memo[0][:2] == key[:2] else {}
        )
        boxes = {
            o.uid: kept.get(o.uid) or packing.bounds(o.placement)
            for o in state.units.values()
            if o.on_table and o.placement is not None
        }
        memo = state.memo.deploy_boxes = (key, boxes)
    found: dict[str, Rect] = memo[1]
    return found


def terrain_anchors(table: Table, zone: Rect) -> list[Rect]:
    """The boxes of terrain pieces that reach into ``zone``: a unit may have to stand right
    beside one (the system checks where models may stand)."""
    out = []
    for piece in table.pieces:
        xs = [p[0] for p in piece.outline]
        ys = [p[1] for p in piece.outline]
        box = (min(xs), min(ys), max(xs), max(ys))
        if box[2] > zone[0] and box[0] < zone[2] and box[3] > zone[1] and box[1] < zone[3]:
            out.append(box)
    return out


def packed_options(
    state: GameState,
    zone: Rect,
    options: Sequence[tuple[int, Placement]],
    blocks: Sequence[Blocker],
    problem: Callable[[Point, int], str | None],
) -> Iterator[Option]:
    """Each legal spot of each shape: the anchored spots of its box, checked by ``problem``.

    The spots keep the unit's box inside ``zone`` (on the table) and each blocker's gap from
    its box, so the bases are that far apart too; ``problem`` need only check the rest (the
    ground each model stands on). Every spot listed passes the system's whole deployment
    check (tested).
    """
    anchors = terrain_anchors(state.table, zone)
    for per_row, formation in options:
        for point in packing.spots(zone, formation, blocks, anchors):
            if problem(point, per_row) is None:
                yield point, per_row


def footprint(p: Placement) -> float:
    """The area a formation takes with half the 1" spacing around it."""
    x0, y0, x1, y1 = packing.bounds(p)
    return (x1 - x0 + SPACING) * (y1 - y0 + SPACING)


def crowded(state: GameState, zone: Rect, need: float) -> bool:
    """Whether the units still to place, needing ``need`` square inches (the sum of their
    usual formations' :func:`footprint`), need more than :data:`CROWDED` of the zone's area
    left free by the units in it."""
    area = (zone[2] - zone[0] + SPACING) * (zone[3] - zone[1] + SPACING)
    taken = 0.0
    for x0, y0, x1, y1 in _boxes(state).values():
        w = min(x1, zone[2]) - max(x0, zone[0])
        d = min(y1, zone[3]) - max(y0, zone[1])
        if w > 0 and d > 0:
            taken += (w + SPACING) * (d + SPACING)
    return need > CROWDED * max(area - taken, 0.0)


def remembered(state: GameState, us: UnitState, find: Callable[[], list[Option]]) -> list[Option]:
    """``find()`` for ``us`` in order (by point, then formation: the listing's order),
    remembered until a unit is placed or the phase changes (the phase deciding whether a side
    goes on asks first, the listing of actions next).

    Units that stand alike share the answer: where a unit may deploy depends on it only
    through its side, its reserve, its models, their bases and whether it flies (terrain).
    """
    memo = listing_memo(state)
    alike = (us.side, us.reserve, us.models, stands_as(us.unit))
    found = memo.get(alike)
    if found is None:
        found = memo[alike] = tuple(sorted(find()))
    return list(found)


def listing_memo(state: GameState) -> dict[object, Any]:
    """The answers kept until a unit is placed or the phase changes (:func:`remembered`'s,
    and what a system keeps beside them for the same listing, under keys of its own)."""
    # the units on the table counted (UnitState.on_table spelled out: asked of every unit
    # every time a deployment asks a unit's options)
    standing = [
        u
        for u in state.units.values()
        if u.placement is not None and u.reserve is None and u.models > 0 and not u.routed
    ]
    key = (state.phase, state.round, len(standing))
    memo = state.memo.deploy_options
    if not (isinstance(memo, tuple) and memo[0] == key):
        memo = state.memo.deploy_options = (key, {})
    found: dict[object, Any] = memo[1]
    return found


def stands_as(unit: Unit) -> tuple[float, bool, bool]:
    """What of a unit's profile decides where it may stand: its bases' radius, whether it is
    Large and whether it flies. By the unit's identity (each entry holds the unit, so its id
    stays unique while there): every listing of a deployment asked it of each unit, and
    each of the three walks the unit's rules."""
    found = _STANDS_AS.get(id(unit))
    if found is None or found[0] is not unit:
        if len(_STANDS_AS) >= _STANDS_AS_LIMIT:
            _STANDS_AS.clear()
        found = _STANDS_AS[id(unit)] = (
            unit,
            (base_radius(unit), is_large(unit), unit.has("Flying")),
        )
    return found[1]


_STANDS_AS: dict[int, tuple[Unit, tuple[float, bool, bool]]] = game_memo(
    "game.deploy_search._STANDS_AS"
)
_STANDS_AS_LIMIT = 4096


def missing(state: GameState) -> dict[str, str]:
    """The units that found no room to deploy, with the reason (by uid)."""
    found = state.not_deployed
    return found if isinstance(found, dict) else {}


def not_deployed(state: GameState, us: UnitState, reason: str) -> None:
    """Log that ``us`` could not be placed and why, and take it out of the game.

    Its models are not casualties: :func:`oprlab.game.play.result_of` lists the unit apart.
    """
    state.log.add(
        "no_room", unit=us.uid, side=us.side, phase=state.phase, models=us.models, reason=reason
    )
    state.not_deployed[us.uid] = reason
    us.models = 0
