"""The rules commander counts the units near each marker once a decision and takes the asking
unit out (scoring.py ``_sides_near``): the sides must be those of every other unit that would
seize or contest the marker at the round's end (seed 003 "Mission"; a Shaken unit yet to
activate rallies and counts, seed 003 "Shaken"), asked unit by unit, and with a charge's
target taken out too (only the markers a unit taken out is near are counted again)."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.actions import Action
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules_commander import RulesCommander
from tests.players.checked_games import play_checked


def _one_by_one(
    cmd: RulesCommander, state: GameState, us: UnitState, skip: UnitState | None = None
) -> list[set[int]]:
    near = cmd._read(state).near_objectives()
    out: list[set[int]] = [set() for _ in state.objectives]
    for other in state.units.values():
        if other is us or other is skip or not cmd._holds(state, other):
            continue
        for sides, close in zip(out, near[other.uid], strict=True):
            if close:
                sides.add(other.side)
    return out


def test_sides_near_counted_once_are_those_of_every_other_unit() -> None:
    seen = {"units": 0, "held by both": 0, "shaken": 0, "pairs near": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            for us in state.units.values():
                assert self._sides_near(state, us) == _one_by_one(self, state, us)
                seen["units"] += 1
                seen["shaken"] += us.shaken and us.on_table
                seen["held by both"] += any(len(s) == 2 for s in self._sides_near(state, us))
                for skip in state.units.values():  # a charge's target taken out too
                    sides = self._sides_near(state, us, skip)
                    assert sides == _one_by_one(self, state, us, skip)
                    seen["pairs near"] += sides != self._sides_near(state, us)
            return super()._best_action(state, actions)

    play_checked(Checking)
    assert seen["units"] > 500
    assert seen["held by both"] > 0 and seen["shaken"] > 0 and seen["pairs near"] > 100


def test_swing_shared_by_alike_units_is_each_units_own() -> None:
    """``_swing`` is worked out once a decision for units of a side that count near the same
    markers (most are near none): each unit's must be its own, counted from its sides near."""
    seen = {"units": 0, "shared": 0, "near": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            view = self._read(state)
            for us in state.units.values():
                base, swing = self._swing_of(state, us)
                assert self._swing(state, view, us) == (base, swing)
                seen["units"] += 1
                seen["near"] += bool(swing) and any(view.near_objectives().get(us.uid, []))
            seen["shared"] += len(view.swings) - len(view.side_swings)
            return super()._best_action(state, actions)

    play_checked(Checking)
    assert seen["units"] > 500 and seen["shared"] > 500 and seen["near"] > 50
