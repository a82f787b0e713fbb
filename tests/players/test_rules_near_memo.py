"""The rules commander's reading of who stands within 3" of each marker (seed 003 "Mission": a
unit within 3" of a marker seizes or contests it), remembered between decisions by the bytes of
each unit's models' places (players/rules/view.py ``View.near_objectives``): every row must be
the one :func:`geometry.within` gives for the unit where it stands now, moved or not."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game import geometry as geo
from oprlab.game.actions import Action
from oprlab.game.gff import OBJECTIVE_RANGE
from oprlab.game.state import GameState
from oprlab.players.rules import view as view_module
from oprlab.players.rules_commander import RulesCommander
from tests.players.checked_games import play_checked


def test_near_rows_remembered_between_decisions_are_each_units_own() -> None:
    seen = {"rows": 0, "remembered": 0, "changed": 0}
    last: dict[str, list[bool]] = {}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            known = dict(view_module._NEAR)
            near = self._read(state).near_objectives()
            for u in state.units.values():
                if not u.on_table:
                    continue
                assert u.placement is not None
                own = [
                    geo.within(u.placement, o.position, OBJECTIVE_RANGE) for o in state.objectives
                ]
                assert near[u.uid] == own, u.uid
                seen["rows"] += 1
                seen["remembered"] += any(row is near[u.uid] for row in known.values())
                seen["changed"] += u.uid in last and last[u.uid] != own
                last[u.uid] = own
            return super()._best_action(state, actions)

    play_checked(Checking)
    # most rows come from the memo, and units do walk onto and off markers between decisions
    assert seen["remembered"] > seen["rows"] // 2, seen
    assert seen["changed"] > 5, seen
