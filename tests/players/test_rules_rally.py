"""Scene tests for the rules commander's count of markers at the round's end with Shaken units
(``Style.rally_contests``, issue 14): in GFF a Shaken unit's one action is Idle, which rallies
it, so a Shaken unit yet to activate contests its marker again when the round ends (seed 003
"Shaken": "must spend one full activation idle to stop being Shaken"; "Mission" 4 and 6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.scoring import PROJECTION_VALUE
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

RALLY = replace(RULES, rally_contests=True)
MARKER = (24.0, 22.0)


def _shaken_brutes_on_the_marker(activated: bool) -> GameState:
    """A Rifle Squad 10" short of a marker nobody holds; Shaken Brutes stand on it."""
    state = scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (24.0, 24.0)},
        objectives=(MARKER,),
    )
    brutes = state.units["B1"]
    brutes.shaken = True
    brutes.activated = activated
    return state


def test_shaken_enemy_yet_to_activate_still_contests_at_the_round_end() -> None:
    """Round 1 of 4 (the projection weighs 40 x (0.5 + 1/8) points a marker): standing on the
    marker is projected as seizing it (+1) when the Shaken Brutes are not counted (rules),
    as leaving it neutral (0) when they will rally first (they have yet to activate)."""
    state = _shaken_brutes_on_the_marker(activated=False)
    us = state.units["A2"]
    weight = PROJECTION_VALUE * (0.5 + 1 / 8)
    old, new = RulesCommander(0, RULES), RulesCommander(0, RALLY)
    assert old._projected(state, us, MARKER) == pytest.approx(weight)
    assert new._projected(state, us, MARKER) == pytest.approx(0.0)
    rush = Action(Kind.RUSH, "A2", to=MARKER)
    assert old.score(state, rush) - new.score(state, rush) == pytest.approx(weight)


def test_shaken_enemy_that_has_activated_stays_shaken_and_does_not_contest() -> None:
    """Shaken after its activation (by a later attack), it stays Shaken at the round's end
    and "can't contest or seize objectives": both count the marker as seized."""
    state = _shaken_brutes_on_the_marker(activated=True)
    us = state.units["A2"]
    weight = PROJECTION_VALUE * (0.5 + 1 / 8)
    for style in (RULES, RALLY):
        assert RulesCommander(0, style)._projected(state, us, MARKER) == pytest.approx(weight)
