"""Objective control and the end of an OPR game, shared by the GFF and Riverside procedures.

Both texts settle markers the same way once each system has said which sides may claim each
marker (seed 003 "Mission" 4-6, seed 002 "End Phase"): one side near takes it, both sides near
make it neutral, nobody near leaves it as it was; the most markers after the last round wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.state import GameState


def settle(state: GameState, near: Sequence[set[int]]) -> None:
    """Update each marker's controller from the sides near it, logging every change."""
    for i, (obj, sides) in enumerate(zip(state.objectives, near, strict=True)):
        before = obj.controller
        if len(sides) == 1:
            obj.controller = next(iter(sides))
        elif len(sides) == 2:
            obj.controller = None
        if obj.controller != before:
            state.log.add("control", objective=i, controller=obj.controller, round=state.round)


def score(state: GameState) -> tuple[int, int]:
    """Markers each side controls."""
    return (
        sum(o.controller == 0 for o in state.objectives),
        sum(o.controller == 1 for o in state.objectives),
    )


def finish(state: GameState) -> None:
    """End the game: the side with more markers wins; equal is a draw."""
    held = score(state)
    state.winner = None if held[0] == held[1] else int(held[1] > held[0])
    state.done = True
    state.phase = "over"
    state.log.add("end", objectives=list(held), winner=state.winner)


def units_left(state: GameState, side: int) -> int:
    """Units of ``side`` still in play."""
    return sum(u.alive for u in state.side_units(side))
