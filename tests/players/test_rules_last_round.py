"""Scene tests for the rules commander's last-round push in GFF (``Style.last_round_push``,
issue 14): in the last round markers are worth ``LAST_ROUND_WEIGHT`` times as much, on the way
and in the count at the round's end (seed 003 "Mission" 7-8: the game ends after 4 rounds and
the player controlling most markers wins; points removed then decide nothing)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.needs import LAST_ROUND_WEIGHT
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

PUSH = replace(RULES, last_round_push=True)
MARKER = (24.0, 22.0)


def _squad_short_of_a_marker(round_: int) -> GameState:
    """A Rifle Squad 10" short of a marker nobody holds; Brutes far off (out of charge reach
    of the marker)."""
    return scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (24.0, 44.0)},
        objectives=(MARKER,),
        round_=round_,
    )


def test_markers_weigh_three_times_in_the_last_round() -> None:
    """Round 4 of 4: the Rush onto the marker gains its marker terms (being near it, seizing
    it at the round's end) three times over; the danger and the rest are as before."""
    state = _squad_short_of_a_marker(4)
    assert LAST_ROUND_WEIGHT == 3.0
    us = state.units["A2"]
    old, new = RulesCommander(0, RULES), RulesCommander(0, PUSH)
    seized = old._projected(state, us, MARKER)
    assert seized > 0
    assert new._projected(state, us, MARKER) == pytest.approx(3.0 * seized)
    near = old._gains(old._worth(state, old._read(state), us, None), MARKER)
    assert near > 0
    rush = Action(Kind.RUSH, "A2", to=MARKER)
    assert new.score(state, rush) - old.score(state, rush) == pytest.approx(2 * (near + seized))


def test_no_push_before_the_last_round() -> None:
    """Round 3 of 4: later rounds can still undo a marker; the Rush scores as before."""
    state = _squad_short_of_a_marker(3)
    rush = Action(Kind.RUSH, "A2", to=MARKER)
    old, new = RulesCommander(0, RULES), RulesCommander(0, PUSH)
    assert new.score(state, rush) == pytest.approx(old.score(state, rush))
