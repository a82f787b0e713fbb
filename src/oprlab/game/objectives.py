"""Objective markers and the end of a game, shared by the GFF, Riverside and WWPD procedures.

The texts settle markers the same way once each system has said which units may claim them
(seed 003 "Mission" 4-6, seed 002 "End Phase"; WWPD borrows GFF's mission): one side near takes
a marker, both sides near make it neutral, nobody near leaves it as it was; the most markers
after the last round wins. Each procedure only says who may hold (Shaken, late arrivals).
Both OPR procedures also offer markers on one 3" grid between the deployment zones, each
checking its own placing rules (:func:`candidates`).

May import ``oprlab.game.geometry``, ``oprlab.game.events``, ``oprlab.game.state`` and
``oprlab.table.model``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game.events import EventLog
from oprlab.game.state import GameState, Objective
from oprlab.table.model import Placement, Point

#: Seed 003 "Mission" 4 (and seed 002): a unit within 3" of a marker may seize it.
OBJECTIVE_RANGE = 3.0


def candidates(state: GameState, problem: Callable[[GameState, Point], str | None]) -> list[Point]:
    """Points of a 3" grid between the deployment zones where a marker may go (``problem``:
    the system's placing rules, ``None`` where a marker may stand)."""
    t = state.table
    pts: list[Point] = []
    for x in np.arange(3.0, t.width - 2.9, 3.0):
        for y in np.arange(t.deployment_depth + 1.5, t.depth - t.deployment_depth - 1.4, 3.0):
            p = (float(x), float(y))
            if problem(state, p) is None:
                pts.append(p)
    return pts


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
    state.winner, state.done, state.phase = winner_of(markers), True, "over"
    state.log.add("end", objectives=list(markers), winner=state.winner)


def winner_of(held_markers: tuple[int, int]) -> int | None:
    """The side holding more markers; ``None`` for a draw."""
    a, b = held_markers
    return None if a == b else int(b > a)


def units_left(state: GameState, side: int) -> int:
    """Units of ``side`` still in play."""
    return sum(u.alive for u in state.side_units(side))
