"""Scene tests for the rules commander's charges by units that are not fighters in GFF
(``Style.charge_as_move``, issue 14): a charge that cannot reach base contact is scored as
the move it becomes (seed 003 "Charging": "or as close as possible"), and with the habit as
the Rush it is, shot given up and all; one that arrives gives up the shot too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

AS_MOVE = replace(RULES, charge_as_move=True)
MARKER = (24.0, 40.0)


def _squad_before_brutes() -> GameState:
    """Round 1: a Rifle Squad (shooting by its output) 10" from Brutes (no guns, so no
    exposure to shots) who stand on a marker nobody holds."""
    return scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 30.0), "B1": (24.0, 40.0)},
        objectives=(MARKER,),
    )


@pytest.mark.parametrize("arrives", [True, False])
def test_a_shooting_units_charge_gives_up_its_shot(arrives: bool) -> None:
    """Arriving or falling short, the squad's charge scores ``Style.rush_cost`` less with the
    habit (a Rush of the squad is marked down as much); out of cover with no enemy shooter
    and before the depth habit, nothing else changes."""
    state = _squad_before_brutes()
    old, new = RulesCommander(0, RULES), RulesCommander(0, AS_MOVE)
    assert old.role(state.units["A2"].unit) is Role.SHOOTING
    charge = Action(Kind.CHARGE, "A2", target="B1")
    was = old._charge_score(state, charge, arrives)
    assert new._charge_score(state, charge, arrives) == pytest.approx(was - RULES.rush_cost)


def test_a_short_charge_is_no_cheaper_than_the_rush_it_becomes() -> None:
    """A charge that falls short ends where a Rush toward the target would: with the habit it
    scores that Rush's score less ``SHORT_CHARGE`` (1); without, 4 more than the Rush."""
    state = _squad_before_brutes()
    charge = Action(Kind.CHARGE, "A2", target="B1")
    rush = Action(Kind.RUSH, "A2", to=(24.0, 40.0))
    old, new = RulesCommander(0, RULES), RulesCommander(0, AS_MOVE)
    assert new._charge_score(state, charge, False) == pytest.approx(new.score(state, rush) - 1.0)
    assert old._charge_score(state, charge, False) == pytest.approx(old.score(state, rush) + 4.0)


def test_a_fighters_charge_is_unchanged() -> None:
    """The Brutes (a melee unit) charging the squad score as before."""
    state = _squad_before_brutes()
    state.active = 1
    charge = Action(Kind.CHARGE, "B1", target="A2")
    old, new = RulesCommander(0, RULES), RulesCommander(0, AS_MOVE)
    for arrives in (True, False):
        was = old._charge_score(state, charge, arrives)
        assert new._charge_score(state, charge, arrives) == pytest.approx(was)
