"""The rules commander reads who stands round each marker once a decision: every marker's
enemies that could reach it by a Rush and friends on it for a side at once (needs.py
``_around``), and every unit's nearness to every marker in one numpy pass (view.py
``near_objectives``). Both must be what a unit-by-unit reading gives: a unit within 3" of a
marker seizes or contests it (seed 003 "Mission"), an enemy within its Rush plus 3" could reach
it, a Shaken unit does neither (seed 003 "Shaken")."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import OBJECTIVE_RANGE
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.view import View, move_allowance
from oprlab.players.rules_commander import RulesCommander
from tests.players.checked_games import play_checked


def _one_by_one(
    state: GameState, view: View, side: int, objective: int
) -> tuple[list[UnitState], list[UnitState]]:
    """The marker's Rush-reaching enemies and the friends on it, unit by unit."""
    position = state.objectives[objective].position
    group = view.enemies(side)  # the gaps as the commander measures them (hypot)
    enemies = [
        e
        for e, gap in zip(group.units, group.gaps(position), strict=True)
        if not e.shaken
        and e.placement is not None
        and gap <= move_allowance(state, e.unit, Kind.RUSH) + 3.0
    ]
    assert group.units == state.enemies(side)
    friends = [
        f
        for f in state.friends(side)
        if not f.shaken
        and f.placement is not None
        and geo.within(f.placement, position, OBJECTIVE_RANGE)
    ]
    return enemies, friends


def test_around_every_marker_at_once_is_the_unit_by_unit_reading() -> None:
    seen = {"markers": 0, "enemies": 0, "friends": 0, "near": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            view = self._read(state)
            for u, close in view.near_objectives().items():
                placement = state.units[u].placement
                assert placement is not None
                assert close == [
                    geo.within(placement, o.position, OBJECTIVE_RANGE) for o in state.objectives
                ]
                seen["near"] += sum(close)
            for side in (0, 1):
                for i in range(len(state.objectives)):
                    found = self._around(state, view, side, i)
                    assert found == _one_by_one(state, view, side, i)
                    seen["markers"] += 1
                    seen["enemies"] += len(found[0])
                    seen["friends"] += len(found[1])
            return super()._best_action(state, actions)

    play_checked(Checking, ((3, True), (4, False)))
    assert seen["markers"] > 500
    assert seen["enemies"] > 200 and seen["friends"] > 100 and seen["near"] > 100
