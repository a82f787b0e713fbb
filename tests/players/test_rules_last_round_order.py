"""Scene tests for the order of the rules commander's activations in GFF's last round
(``Style.last_round_order``, issue 14): seed 003 "Mission" 4-6, the markers held when the game
ends after round 4 win it, so in the last round a unit that attacks goes before one that only
walks onto a marker (its contesters broken first, its walk shown to the enemy as late as it can
be)."""

from __future__ import annotations

from dataclasses import replace

from oprlab.game import gff
from oprlab.game.actions import Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

ORDER = replace(RULES, last_round_order=True)
#: A marker nobody holds, a Rush (12") ahead of the second Rifle Squad.
MARKER = (40.0, 22.0)


def _shooter_and_walker(round_: int) -> GameState:
    """A Rifle Squad (A2) 20" from Brutes (rifles 24"; the Brutes' charge reach 13"), a second
    one (A3) far from both, 12" short of a marker nobody holds."""
    return scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (10.0, 10.0), "A3": (40.0, 10.0), "B1": (10.0, 30.0)},
        objectives=(MARKER,),
        round_=round_,
    )


def test_in_the_last_round_the_unit_that_shoots_goes_before_the_one_that_walks() -> None:
    """``rules`` walks the second squad onto the marker first (the marker outweighs a rifle
    volley); with the habit the first squad shoots first, and the walk waits for later."""
    state = _shooter_and_walker(round_=4)
    assert state.round == state.rounds
    actions = gff.legal_actions(state)
    plain = RulesCommander(0, RULES).choose(state, actions)
    assert plain.unit == "A3" and plain.kind in (Kind.RUSH, Kind.ADVANCE)
    ordered = RulesCommander(0, ORDER).choose(state, actions)
    assert ordered.unit == "A2" and ordered.kind in (Kind.HOLD, Kind.ADVANCE)
    commander = RulesCommander(0, ORDER)
    assert commander._attacks(state, ordered) and not commander._attacks(state, plain)


def test_before_the_last_round_the_order_is_the_scores() -> None:
    """Round 3 of 4: the habit leaves the choice to the scores."""
    state = _shooter_and_walker(round_=3)
    actions = gff.legal_actions(state)
    assert RulesCommander(0, ORDER).choose(state, actions) == RulesCommander(0, RULES).choose(
        state, actions
    )


def test_with_nothing_to_attack_the_walker_goes_first() -> None:
    """The Brutes out of every rifle's range: no unit attacks, so the best walk is played."""
    state = scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (10.0, 10.0), "A3": (40.0, 10.0), "B1": (10.0, 46.0)},
        objectives=(MARKER,),
        round_=4,
    )
    actions = gff.legal_actions(state)
    pick = RulesCommander(0, ORDER).choose(state, actions)
    assert pick == RulesCommander(0, RULES).choose(state, actions) and pick.unit == "A3"
