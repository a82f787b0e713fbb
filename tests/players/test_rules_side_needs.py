"""The rules commander works out each marker's need once a side (scoring.py ``_side_needs``)
and halves it unit by unit where a friend stands on the marker: every unit's worth of the
markers must be what :meth:`_need` gives it marker by marker (seed 003 "Mission": a marker the
side holds needs a unit less while no enemy could take it, and less again with a friend on it),
with and without ``Style.contest_need``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from oprlab.game.actions import Action
from oprlab.game.state import GameState
from oprlab.players.rules.needs import OBJECTIVE_VALUE
from oprlab.players.rules.style import RULES, Style
from oprlab.players.rules_commander import RulesCommander
from tests.players.checked_games import play_checked


@pytest.mark.parametrize("style", [RULES, replace(RULES, contest_need=True, last_round_push=True)])
def test_worth_by_side_is_each_units_need_marker_by_marker(style: Style) -> None:
    seen = {"units": 0, "guarded": 0, "differ": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            view = self._read(state)
            full = OBJECTIVE_VALUE * self._last_round(state)
            for us in state.units.values():
                if not us.on_table:
                    continue
                one_by_one = [
                    (o.position, self._need(state, us, i, o.controller, None) * full)
                    for i, o in enumerate(state.objectives)
                ]
                worth = self._worth(state, view, us, None)
                assert worth == one_by_one  # the same floats, bit for bit
                seen["units"] += 1
                needs = self._side_needs(state, view, us)
                seen["guarded"] += any(
                    w != n * full for (_, w), (_, n, _) in zip(worth, needs, strict=True)
                )
                seen["differ"] += len({w for _, w in worth}) > 1
            return super()._best_action(state, actions)

    play_checked(lambda seed: Checking(seed, style))
    assert seen["units"] > 500
    assert seen["guarded"] > 50 and seen["differ"] > 100
