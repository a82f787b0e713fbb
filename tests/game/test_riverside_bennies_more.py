"""The last two Riverside benny uses (seed 000_e2a2d86473ae65c4 "Variants" 5, "Bennies", under
``clock-bennies``) in seed 002_fdb385c07cc953af's activations: a clock set at an activation's
start (so also before a Charge), and a spell's hits defended. The armies are invented."""

from __future__ import annotations

import json
import pickle

import pytest

from oprlab.game import riverside as rv
from oprlab.game import riverside_abilities as ab
from oprlab.game.actions import Action, Kind
from oprlab.game.bennies import bennies_available, clocks_in_play
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.players.gff_choices import spare_bennies, start_clock
from oprlab.players.riverside_choices import defend_choice
from tests.game.test_riverside_game import LINE_TEXT, Scripted, army, put, sample, scene

#: A caster and a plain squad on each side (the caster's tokens: Caster(2)).
CASTERS_TEXT = """++ Reed Circle [GFF 110pts] ++

Reed Seer [1] Q4+ D4+ | 40pts | Caster(2)
Staff (A1)

Reed Guard [6] Q4+ D4+ | 70pts
6x Spear (A1)
"""

BOLT = ab.SPELLS[0]


def _casting_works(c: Check) -> bool:
    """The spell works; every Defense roll and Morale Test fails (picklable)."""
    return c.test is Test.CASTING


# --- "Roll any clock (friend or foe) immediately to any value": at an activation's start ----


def _after_a_idles(mech: Mechanic | str, bennies: tuple[int, int] | None = None) -> GameState:
    """Ford Wardens A1 idle; B1, 7" away, is next to activate (it may charge)."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic=mech)
    if bennies is not None:
        state.mech_state = ClockState(bennies={"side0": bennies[0], "side1": bennies[1]})
    put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 27.0))
    rv.apply(state, Action(Kind.IDLE, "A1"))
    return state


def test_a_side_with_a_benny_starts_its_activation_setting_any_clock_or_passing() -> None:
    """seed 000 "Bennies": "Roll any clock (friend or foe) immediately to any value": the side to
    activate may first set any clock in play (each named by one unit using it) to 1..6, or pass;
    then it picks its unit, and its Charge comes with the clock as set."""
    mech = get_mechanic("clock-bennies")
    assert isinstance(mech, Clock)
    state = _after_a_idles(mech, (2, 2))
    assert state.phase == "clocks" and state.active == 1
    listed = rv.legal_actions(state)
    clocks = clocks_in_play(state)
    assert Action(Kind.SET_CLOCK) in listed  # the pass
    assert {(a.target, a.value) for a in listed if a.target} == {
        (u, v) for u in clocks for v in range(1, 7)
    }
    assert all(a.kind is Kind.SET_CLOCK and not a.unit for a in listed)
    foe = mech.clock_key(state.units["A1"].owner)
    rv.apply(state, Action(Kind.SET_CLOCK, target="A1", value=6))
    assert isinstance(state.mech_state, ClockState)
    assert state.mech_state.clocks[foe] == 6 and bennies_available(state, 1) == 1
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["value"], benny["clock"], benny["when"]) == (
        "set_clock",
        6,
        list(foe),
        "activation",
    )
    assert state.phase == "activation" and state.active == 1
    charges = [a for a in rv.legal_actions(state) if a.kind is Kind.CHARGE]
    assert charges and all(a.unit == "B1" for a in charges)
    rv.apply(state, Action(Kind.CHARGE, "B1", target="A1"))
    assert state.log.of_kind("charge")


def test_passing_spends_nothing() -> None:
    """The pass (no clock, value 0) keeps the benny; the side then picks its unit."""
    state = _after_a_idles("clock-bennies", (2, 2))
    rv.apply(state, Action(Kind.SET_CLOCK))
    assert state.phase == "activation" and bennies_available(state, 1) == 2
    assert not state.log.of_kind("benny")


@pytest.mark.parametrize(("mechanic", "bennies"), [("d6", None), ("clock", None),
                                                   ("clock-bennies", (2, 0))])  # fmt: skip
def test_no_clock_decision_without_bennies(mechanic: str, bennies: tuple[int, int] | None) -> None:
    """Other mechanics (and a side with no benny left) list exactly what they did: no phase
    ``clocks``, no clock without a unit."""
    state = _after_a_idles(mechanic, bennies)
    assert state.phase == "activation" and state.active == 1
    assert not any(a.kind is Kind.SET_CLOCK for a in rv.legal_actions(state))
    assert not rv.is_legal(state, Action(Kind.SET_CLOCK, target="A1", value=1))


def test_start_clock_refusals() -> None:
    """At an activation's start only a clock (a unit on the table using it) and 1..6, or the
    pass; nothing else is legal until it is made."""
    state = _after_a_idles("clock-bennies", (2, 2))
    for bad in (
        Action(Kind.HOLD, "B1"),
        Action(Kind.SET_CLOCK, target="A1", value=7),
        Action(Kind.SET_CLOCK, target="A2", value=1),  # A2 is not on the table
        Action(Kind.SET_CLOCK, "B1", target="A1", value=1),
        Action(Kind.SET_CLOCK, target="A1", value=1, benny=True),
        Action(Kind.SET_CLOCK, value=3),  # a value needs a clock
    ):
        assert not rv.is_legal(state, bad), bad
    with pytest.raises(ValueError, match=r"1\.\.6"):
        rv.apply(state, Action(Kind.SET_CLOCK, target="A1", value=0))


def test_rules_commander_sets_a_clock_by_its_gff_habit() -> None:
    """The rules commander's habit at an activation's start is GFF's (``start_clock``): an own
    clock at 4+ to 1 with a spare benny, else pass; ``rules-v1`` also ran an enemy clock at 1-2
    up to 5 (issue 14: that hands the enemy a reason to spend a benny resetting it, seed 000
    "Bennies": "Roll any clock (friend or foe) immediately to any value")."""
    mech = get_mechanic("clock-bennies")
    assert isinstance(mech, Clock)
    state = _after_a_idles(mech, (0, 5))
    actions = rv.legal_actions(state)
    old = get_commander("rules-v1").choose(state, actions)
    assert old == start_clock(state, actions) and rv.is_legal(state, old)
    assert spare_bennies(state, 1) > 0 and old == Action(Kind.SET_CLOCK, target="A1", value=5)
    picked = get_commander("rules").choose(state, actions)
    assert picked == start_clock(state, actions, enemy_clock=False) == Action(Kind.SET_CLOCK)
    state = _after_a_idles(mech, (0, 1))  # the only benny is kept for the rounds to come
    actions = rv.legal_actions(state)
    assert get_commander("rules-v1").choose(state, actions) == Action(Kind.SET_CLOCK)


def test_random_games_set_clocks_at_activation_starts_and_replay() -> None:
    """seed 002 "Round Phases" under clock-bennies: the new decision is played and replays."""
    logs = []
    for _ in range(2):
        commanders = [get_commander("random", 3), get_commander("random", 4)]
        _, state = play_game(
            sample("shooty-150"),
            sample("melee-150"),
            commanders,
            seed=3,
            mechanic="clock-bennies",
            system="riverside",
        )
        assert state.done and all(bennies_available(state, s) >= 0 for s in (0, 1))
        assert any(e.get("when") == "activation" for e in state.log.of_kind("benny"))
        logs.append(json.dumps(state.log.events))
    assert logs[0] == logs[1]


# --- "Defend against any single attack": a spell's hits ---------------------------------------


def _casting(mech: Scripted, bennies: tuple[int, int]) -> GameState:
    """Reed Seer A1 (3 tokens) may Bolt the Reed Guard B2 (no enemy caster in reach)."""
    state = scene(army(CASTERS_TEXT), army(CASTERS_TEXT), mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": bennies[0], "side1": bennies[1]})
    put(state, "A1", (24.0, 10.0))
    put(state, "A2", (10.0, 10.0), ready=False)
    put(state, "B2", (24.0, 24.0), ready=False)
    state.units["A1"].spell_tokens = 3
    return state


def test_a_spells_hits_are_defended_before_their_defense_rolls() -> None:
    """seed 000 "Bennies": "Defend against any single attack": a spell that works hits its
    target (2 hits per token); before seed 002 "Roll Defense" the side hit spends 0 up to one
    benny per hit; a defended hit rolls nothing; the caster's activation then goes on."""
    mech = Scripted(lambda c: c.test is Test.CASTING)  # the spell works, every Defense fails
    state = _casting(mech, (0, 2))
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=2))
    assert state.phase == "defend" and state.active == 1 and mech.of(Test.DEFENSE) == []
    listed = rv.legal_actions(state)
    assert listed == [Action(Kind.DEFEND, "B2", target="A1", value=n) for n in range(3)]
    assert not rv.is_legal(state, Action(Kind.DEFEND, "B2", target="A1", value=3))
    assert not rv.is_legal(state, Action(Kind.HOLD, "A1"))
    rv.apply(state, Action(Kind.DEFEND, "B2", target="A1", value=2))
    assert len(mech.of(Test.DEFENSE)) == 4 - 2
    (spell,) = state.log.of_kind("spell")
    assert (spell["hits"], spell["wounds"], spell["defended"]) == (4, 2, 2)
    assert state.units["B2"].models == 4 and bennies_available(state, 1) == 0
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["hits"], benny["side"]) == ("defend", 2, 1)
    assert state.phase == "act" and state.active == 0
    assert state.pending is not None and state.pending.unit == "A1"
    assert state.pending.cast == (BOLT.name,)
    assert any(a.kind is Kind.HOLD and a.unit == "A1" for a in rv.legal_actions(state))


def test_a_spell_defended_with_none_is_the_spell_undefended() -> None:
    """With 0 bennies spent the hits roll the same checks, with the same wounds, casualties and
    Morale Test, as a spell against a side with no benny."""
    runs = []
    for bennies in ((0, 0), (0, 1)):
        mech = Scripted(lambda c: c.test is Test.CASTING)
        state = _casting(mech, bennies)
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=2))
        if state.phase == "defend":
            rv.apply(state, Action(Kind.DEFEND, "B2", target="A1", value=0))
        (spell,) = state.log.of_kind("spell")
        runs.append(
            (
                [(c.test, c.modifier) for c in mech.checks],
                (spell["hits"], spell["wounds"], spell["casualties"]),
                (state.units["B2"].models, state.units["B2"].shaken, state.phase),
            )
        )
    assert runs[0] == runs[1]
    assert runs[0][1] == (4, 4, 4) and runs[0][2] == (2, True, "act")


def test_no_decision_when_the_spell_fails_or_the_side_has_no_benny() -> None:
    """No hits (the casting roll failed) or no benny: no ``DEFEND`` decision."""
    for succeeds, bennies in (
        (lambda c: False, (0, 2)),
        (lambda c: c.test is Test.CASTING, (2, 0)),
    ):
        state = _casting(Scripted(succeeds), bennies)
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
        assert state.phase == "act" and state.defending is None


def test_a_game_paused_for_a_spell_defence_resumes_exactly() -> None:
    """A saved game waiting for a ``DEFEND`` against a spell plays on as the original does."""
    state = _casting(Scripted(_casting_works), (0, 2))
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    twin = pickle.loads(pickle.dumps(state))
    for s in (state, twin):
        rv.apply(s, rv.legal_actions(s)[-1])
    assert json.dumps(state.log.events) == json.dumps(twin.log.events)
    assert state.mech_state == twin.mech_state


def test_rules_commander_defends_a_last_model_against_a_spell() -> None:
    """The GFF habit read with Riverside's Defense rolls: a unit's last model is defended with
    the spare bennies (one kept for each round to come), one per hit."""
    for spare, expected in ((5, 2), (3, 0)):
        state = _casting(Scripted(lambda c: c.test is Test.CASTING), (0, spare))
        state.units["B2"].models = 1
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
        actions = rv.legal_actions(state)
        assert defend_choice(state, actions).value == expected
        assert get_commander("rules").choose(state, actions).value == expected
