"""Objective markers and the end of a game, shared by the GFF, Riverside and WWPD procedures.

The texts settle markers the same way once each system has said which units may claim them
(seed 003 "Mission" 4-6, seed 002 "End Phase"; WWPD borrows GFF's mission): one side near takes
a marker, both sides near make it neutral, nobody near leaves it as it was; the most markers
after the last round wins. Each procedure only says who may hold (Shaken, late arrivals).
Both OPR procedures also offer markers on one 3" grid between the deployment zones, each
checking its own placing rules (:func:`candidates`), and keep them over 9" apart
(:func:`spacing_problem`).

A placement can leave no point over 9" from the markers already placed (seed 003 with every
edge allowed keeps markers in the central 24" square; earlier markers can block the rest).
The texts say nothing of this case; the reading (``stuck``, docs/rules/gff.md "Full games"):
``"farthest"``: the marker goes at a point as far from the others as the placing rules allow
(the grid points farthest from their nearest marker are offered; any point at least as far is
legal); ``"stop"``: no more markers are placed. Either way the phase always has an action or
ends, so no game can stop with nothing to do.

May import ``oprlab.game.geometry``, ``oprlab.game.events``, ``oprlab.game.state`` and
``oprlab.table.model``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game.events import EventLog
from oprlab.game.state import GameState, Objective, Phase
from oprlab.table.model import Placement, Point

#: Seed 003 "Mission" 4 (and seed 002): a unit within 3" of a marker may seize it.
OBJECTIVE_RANGE = 3.0
#: Seeds 003 and 002: markers "over 9" away from each other".
OBJECTIVE_SPACING = 9.0
#: When no point is over 9" from the markers placed: the farthest point, or stop placing.
STUCK_READINGS = ("farthest", "stop")
EPS = 1e-9

#: A system's placing rules apart from the spacing: why a marker may not stand at a point.
#: They read the table and the game's readings only (:func:`_grid` remembers their answers).
Placing = Callable[[GameState, Point], str | None]


def _grid(state: GameState, placing: Placing) -> tuple[Point, ...]:
    """The 3" grid's points ``placing`` allows, remembered for the game (issue 13: each marker
    asked ``placing`` of every grid point twice, for the listing and for the end of placing).

    The key is ``placing`` (a procedure's bound hook: its class and object), the table and the
    readings, and that is enough: a system's placing rules read those only
    (:data:`Placing`; the spacing from the markers placed is :func:`spacing_problem`'s), and
    none of them changes during a game. One entry in the game's own memo."""
    t = state.table
    memo = state.memo.marker_grid
    if isinstance(memo, tuple) and memo[0] == placing and memo[1] is t and memo[2] is state.options:
        found: tuple[Point, ...] = memo[3]
        return found
    pts: list[Point] = []
    for x in np.arange(3.0, t.width - 2.9, 3.0):
        for y in np.arange(t.deployment_depth + 1.5, t.depth - t.deployment_depth - 1.4, 3.0):
            p = (float(x), float(y))
            if placing(state, p) is None:
                pts.append(p)
    grid = tuple(pts)
    state.memo.marker_grid = (placing, t, state.options, grid)
    return grid


def nearest_marker(state: GameState, point: Point) -> float:
    """How far ``point`` is from the nearest marker placed (``inf`` before the first)."""
    return min((math.dist(point, o.position) for o in state.objectives), default=math.inf)


def _floor(state: GameState, placing: Placing) -> float:
    """The farthest a grid point (by the placing rules) gets from its nearest marker."""
    return max((nearest_marker(state, p) for p in _grid(state, placing)), default=-math.inf)


def candidates(state: GameState, placing: Placing, stuck: str = "farthest") -> list[Point]:
    """Points of a 3" grid between the deployment zones where a marker may go: ``placing``
    allows them (the system's rules but the spacing, ``None`` where a marker may stand) and
    they are over 9" from every marker; when none is (``stuck``): the points farthest from
    their nearest marker, or none (placing stops)."""
    grid = _grid(state, placing)
    near = [nearest_marker(state, p) for p in grid]
    apart = [p for p, d in zip(grid, near, strict=True) if d > OBJECTIVE_SPACING]
    if apart or stuck == "stop" or not grid:
        return apart
    best = max(near)
    return [p for p, d in zip(grid, near, strict=True) if d >= best - EPS]


def spacing_problem(
    state: GameState, point: Point, placing: Placing, stuck: str = "farthest"
) -> str | None:
    """Why a marker may not stand at ``point`` for the spacing (the placing rules already
    allow it), or ``None``: over 9" from every marker, or (stuck: no grid point is) at least
    as far from the others as the farthest grid point."""
    d = nearest_marker(state, point)
    if d > OBJECTIVE_SPACING:
        return None
    best = _floor(state, placing)
    if stuck == "farthest" and best <= OBJECTIVE_SPACING and d >= best - EPS:
        return None
    if stuck == "farthest" and best <= OBJECTIVE_SPACING:
        return (
            'no point is over 9" from the other markers: this one goes as far from them as the '
            f'placing rules allow ({best:.2f}")'
        )
    return 'objective markers must be over 9" apart'


def stop_if_stuck(state: GameState, placing: Placing, stuck: str) -> bool:
    """Stop placing markers when none more may go (``stuck="stop"`` with no point over 9"
    from the others, or no point at all): logs ``objectives_stopped``; whether it stopped."""
    left = state.objectives_left
    if left <= 0 or candidates(state, placing, stuck):
        return False
    state.log.add("objectives_stopped", placed=len(state.objectives), left=left)
    state.objectives_left = 0
    return True


def sides_near(
    markers: Sequence[Objective], holders: Iterable[tuple[int, Placement]]
) -> list[set[int]]:
    """For each marker, the sides of the ``(side, placement)`` holders within 3" of it."""
    out: list[set[int]] = [set() for _ in markers]
    for side, placement in holders:
        for i, marker in enumerate(markers):
            if geo.within(placement, marker.position, OBJECTIVE_RANGE):
                out[i].add(side)
    return out


def settle_markers(
    markers: Sequence[Objective],
    near: Sequence[set[int]],
    log: EventLog,
    round_: int,
    *,
    key: str = "objective",
) -> None:
    """Update each marker's controller from the sides near it, logging every change."""
    for i, (marker, sides) in enumerate(zip(markers, near, strict=True)):
        before = marker.controller
        if len(sides) == 1:
            marker.controller = next(iter(sides))
        elif len(sides) == 2:
            marker.controller = None
        if marker.controller != before:
            log.add("control", **{key: i}, controller=marker.controller, round=round_)


def held(markers: Sequence[Objective]) -> tuple[int, int]:
    """Markers each side controls."""
    return (
        sum(m.controller == 0 for m in markers),
        sum(m.controller == 1 for m in markers),
    )


def settle(state: GameState, near: Sequence[set[int]]) -> None:
    """Update the game's markers from the sides near each (see :func:`settle_markers`)."""
    settle_markers(state.objectives, near, state.log, state.round)


def score(state: GameState) -> tuple[int, int]:
    """Markers each side controls."""
    return held(state.objectives)


def finish(state: GameState) -> None:
    """End the game: the side with more markers wins; equal is a draw."""
    markers = score(state)
    state.winner, state.done, state.phase = winner_of(markers), True, Phase.OVER
    state.log.add("end", objectives=list(markers), winner=state.winner)


def winner_of(held_markers: tuple[int, int]) -> int | None:
    """The side holding more markers; ``None`` for a draw."""
    a, b = held_markers
    return None if a == b else int(b > a)


def units_left(state: GameState, side: int) -> int:
    """Units of ``side`` still in play."""
    return sum(u.alive for u in state.side_units(side))
