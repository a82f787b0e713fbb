"""Bennies setting any clock at the start of an activation (seed 000_e2a2d86473ae65c4 "Variants"
5, "Bennies": "Roll any clock (friend or foe) immediately to any value"), in the GFF game (seed
003_8abb008d4113ed75 "Playing the Game": alternating activations). The armies are invented."""

from __future__ import annotations

import pytest

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players.gff_choices import start_clock
from oprlab.players.rules_commander import RulesCommander
from tests.game import line
from tests.game.test_gff_rounds import scene

ON = GffOptions(set_clock_at_activation=True)
FAR = {"A2": (5.0, 5.0), "A3": (12.0, 5.0), "B2": (43.0, 43.0), "B3": (36.0, 43.0)}


def _game(scope: str = "army", options: GffOptions = ON, bennies: int = 4) -> GameState:
    """Side A holds with A2 (nothing in range): side B's activation starts next."""
    mech = get_mechanic("clock-bennies", scope=scope, bennies=bennies)
    state = scene(line(), line(), FAR, mechanic=mech)
    state.options = options
    gff.apply(state, Action(Kind.HOLD, "A2"))
    return state


def _clock(state: GameState, uid: str) -> int:
    mech, clocks = state.mechanic, state.mech_state
    assert isinstance(mech, Clock) and isinstance(clocks, ClockState)
    return clocks.clocks.get(mech.clock_key(state.units[uid].owner), 1)


@pytest.mark.parametrize(("scope", "clocks"), [("army", 2), ("global", 1), ("unit", 4)])
def test_the_side_to_activate_may_set_any_clock_in_play_first(scope: str, clocks: int) -> None:
    """At the start of side B's activation (it has bennies): phase ``clocks``, listing a pass
    and each clock in play (own or enemy, named by a unit using it) at 1..6."""
    state = _game(scope)
    assert state.phase == "clocks" and state.active == 1
    listed = gff.legal_actions(state)
    assert listed[0] == Action(Kind.SET_CLOCK) and len(listed) == 1 + 6 * clocks
    assert len(gff.clocks_in_play(state)) == clocks
    assert {a.value for a in listed[1:]} == set(gff.CLOCK_VALUES)


def test_setting_a_clock_spends_a_benny_and_the_activation_goes_on() -> None:
    """Side B runs side A's clock up to 5: one benny spent, logged; B then picks its unit, and
    side A's next activation starts with its own offer."""
    state = _game()
    gff.apply(state, Action(Kind.SET_CLOCK, target="A2", value=5))
    assert _clock(state, "A2") == 5 and gff.bennies_available(state, 1) == 3
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["value"], benny["when"], benny["side"]) == (
        "set_clock",
        5,
        "activation",
        1,
    )
    assert state.phase == "activation" and state.active == 1
    assert all(a.kind is not Kind.SET_CLOCK for a in gff.legal_actions(state))
    gff.apply(state, Action(Kind.HOLD, "B2"))
    assert state.phase == "clocks" and state.active == 0


def test_passing_spends_nothing() -> None:
    state = _game()
    gff.apply(state, Action(Kind.SET_CLOCK))
    assert gff.bennies_available(state, 1) == 4 and state.phase == "activation"
    assert state.log.of_kind("benny") == []


def test_no_offer_without_bennies_the_option_or_the_clock() -> None:
    """Off by option, with no bennies left, or under the d6: activations start as before."""
    assert _game(options=GffOptions(set_clock_at_activation=False)).phase == "activation"
    assert _game(bennies=0).phase == "activation"
    state = scene(line(), line(), FAR, mechanic="d6")
    state.options = ON
    gff.apply(state, Action(Kind.HOLD, "A2"))
    assert state.phase == "activation"


def test_bad_start_clock_actions_are_refused() -> None:
    """Values outside 1..6, a unit off the table, a unit named as the setter, or an
    activation before the decision are refused; a set outside the phase too."""
    state = _game()
    for bad in (
        Action(Kind.SET_CLOCK, target="A2", value=7),
        Action(Kind.SET_CLOCK, target="A1", value=3),
        Action(Kind.SET_CLOCK, "B2", target="A2", value=3),
        Action(Kind.HOLD, "B2"),
    ):
        assert not gff.is_legal(state, bad), bad
    gff.apply(state, Action(Kind.SET_CLOCK))
    assert not gff.is_legal(state, Action(Kind.SET_CLOCK, target="A2", value=3))


def test_rules_commander_resets_its_own_high_clock_else_runs_up_a_low_enemy_clock() -> None:
    """The habit (docs/rules/gff.md): own clock at 4+ -> 1; else an enemy clock at 1-2 -> 5;
    only with a benny to spare beyond one for each round to come (round 1: 4 bennies, 1)."""
    state = _game()
    mech = state.mechanic
    assert isinstance(mech, Clock)
    listed = gff.legal_actions(state)
    assert start_clock(state, listed) == Action(Kind.SET_CLOCK, target="A2", value=5)
    b_key = mech.clock_key(state.units["B2"].owner)
    state.mech_state = ClockState(clocks={b_key: 4}, bennies={"side0": 4, "side1": 4})
    assert start_clock(state, listed) == Action(Kind.SET_CLOCK, target="B2", value=1)
    assert RulesCommander().choose(state, listed) == Action(Kind.SET_CLOCK, target="B2", value=1)
    a_key = mech.clock_key(state.units["A2"].owner)
    state.mech_state = ClockState(clocks={a_key: 3}, bennies={"side0": 4, "side1": 4})
    assert start_clock(state, listed) == Action(Kind.SET_CLOCK)  # nothing worth a benny
    state.mech_state = ClockState(clocks={b_key: 4}, bennies={"side0": 4, "side1": 3})
    assert start_clock(state, listed) == Action(Kind.SET_CLOCK)  # none to spare
