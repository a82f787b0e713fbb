"""Scene tests for the rules commander's shots at marker holders in GFF
(``Style.shoot_markers``, issue 14): a shot at a unit contesting a marker is also worth the
chance it breaks the unit (destroyed or Shaken: seed 003 "Shaken" units "can't contest or seize
objectives") times the markers that changes at the round's end ("Mission" 4-6)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import break_chance
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

SHOOT = replace(RULES, shoot_markers=True)
MARKER = (24.0, 20.0)


def _both_on_the_marker() -> GameState:
    """A Rifle Squad and Brutes both within 3" of a marker nobody holds (it would stay
    neutral: "If units from both sides contest a marker, it becomes neutral")."""
    return scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 17.0), "B1": (24.0, 23.0)},
        objectives=(MARKER,),
    )


def test_breaking_the_contesting_unit_is_worth_the_marker() -> None:
    """Round 1 of 4 (a marker at the round's end weighs 40 x (0.5 + 1/8) points): with the
    Brutes broken the squad alone seizes the marker (+1 against neutral), so the shot gains
    that weight times the shot's chance to destroy or Shake them; rules scores the points
    removed only."""
    state = _both_on_the_marker()
    us, brutes = state.units["A2"], state.units["B1"]
    new, old = RulesCommander(0, SHOOT), RulesCommander(0, RULES)
    near = new._read(state).near_objectives()
    assert near["A2"] == [True] and near["B1"] == [True]
    assert new._marker_stake(state, us, brutes) == 1
    shot = Action(Kind.SHOOT, "A2", target="B1")
    assert us.placement is not None and brutes.placement is not None
    chance = break_chance(us, brutes, distance=geo.gap(us.placement, brutes.placement))
    assert 0 < chance < 1
    weight = 40.0 * (0.5 + 1 / 8)
    gain = new._shoot_value(state, shot) - old._shoot_value(state, shot)
    assert gain == pytest.approx(weight * chance)


def test_breaking_a_lone_holder_stops_it_seizing_but_not_holding() -> None:
    """With the squad off the marker the Brutes alone stand by it: on a neutral marker they
    would seize it (-1 for side A), broken they would not (0): a stake of 1. On a marker side
    B already holds, it "stays under player's control even after leaving": no stake, and the
    shot is worth its points only."""

    def lone_brutes(controller: int | None) -> GameState:
        state = scene(
            line(),
            army(BRUTES_TEXT),
            {"A2": (24.0, 8.0), "B1": (24.0, 23.0)},
            objectives=(MARKER,),
        )
        state.objectives[0].controller = controller
        return state

    new, old = RulesCommander(0, SHOOT), RulesCommander(0, RULES)
    state = lone_brutes(None)
    assert new._marker_stake(state, state.units["A2"], state.units["B1"]) == 1
    state = lone_brutes(1)
    assert new._marker_stake(state, state.units["A2"], state.units["B1"]) == 0
    shot = Action(Kind.SHOOT, "A2", target="B1")
    assert new._shoot_value(state, shot) == pytest.approx(old._shoot_value(state, shot))
