"""Clock-bennies both procedures share (``oprlab.game.bennies``, ``oprlab.game.benny_defence``).

Seed 000_e2a2d86473ae65c4 variation 5 "Bennies": "grant a single extra attack to any unit",
"Roll any clock (friend or foe) immediately to any value", "Defend against any single attack"
(one benny, one hit: the ones that hurt most). The armies are invented.
"""

from __future__ import annotations

from oprlab.game import bennies, benny_defence
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Pending, Phase
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from tests.game import line
from tests.game.test_gff_rounds import scene

WHERE = {"A2": (10.0, 10.0), "B2": (10.0, 30.0)}


def _game(mechanic: str = "clock-bennies", **kw: object) -> GameState:
    mech = get_mechanic(mechanic, **kw) if mechanic == "clock-bennies" else mechanic
    state = scene(line(), line(), WHERE, mechanic=mech)
    state.pending = Pending(Phase.SHOOT, "A2", 0)
    state.phase = Phase.SHOOT
    return state


def test_no_bennies_under_other_mechanics() -> None:
    state = _game("d6")
    assert bennies.bennies_available(state, 0) == 0 and not bennies.can_set_clocks(state, 0)
    assert bennies.set_clock_actions(state, state.units["A2"], ["B2"], need_target=False) == []


def test_extra_attack_spends_one() -> None:
    """Variation 5: a benny grants a single extra attack (logged with its unit)."""
    state = _game(bennies=2)
    bennies.spend_extra_attack(state, state.units["A2"])
    assert bennies.bennies_available(state, 0) == 1 and bennies.bennies_available(state, 1) == 2
    assert state.log.of_kind("benny")[-1]["use"] == "extra_attack"


def test_one_clock_per_activation_named_once() -> None:
    """Any clock, friend or foe, to 1..6; with one clock for the army, one name per clock."""
    state = _game(scope="army")
    us = state.units["A2"]
    acts = bennies.set_clock_actions(state, us, ["B2"], need_target=False)
    assert {(a.target, a.value) for a in acts} == {
        (u, v) for u in ("A2", "B2") for v in bennies.CLOCK_VALUES
    }
    assert bennies.set_clock_actions(state, us, [], need_target=True) == []
    assert len(bennies.set_clock_actions(state, us, [], need_target=False)) == 6
    a = Action(Kind.SET_CLOCK, "A2", target="B2", value=5)
    assert bennies.set_clock_problem(state, us, a, attack="x") is None
    bennies.set_clock(state, us, a)
    mech, clocks = state.mechanic, state.mech_state
    assert isinstance(mech, Clock) and isinstance(clocks, ClockState)
    assert clocks.clocks[mech.clock_key(state.units["B2"].owner)] == 5
    assert state.pending is not None and state.pending.clock_set
    assert bennies.set_clock_problem(state, us, a, attack="x") == "one clock per activation"
    assert bennies.set_clock_actions(state, us, ["B2"], need_target=False) == []


def test_set_clock_problems() -> None:
    state = _game()
    us = state.units["A2"]
    bad_value = Action(Kind.SET_CLOCK, "A2", target="B2", value=7)
    assert bennies.set_clock_problem(state, us, bad_value, attack="x") == "a clock is set to 1..6"
    nobody = Action(Kind.SET_CLOCK, "A2", target="Z9", value=2)
    assert "on the table" in str(bennies.set_clock_problem(state, us, nobody, attack="x"))
    state.phase = Phase.ACTIVATION
    ok = Action(Kind.SET_CLOCK, "A2", target="B2", value=2)
    said = bennies.set_clock_problem(state, us, ok, attack="the unit shoots")
    assert said == "a benny sets a clock before the unit shoots"


def test_defended_hits_hurt_most_first() -> None:
    """Deadly first, then the highest AP, then hits without Cover, then the rolling order."""
    lines = [(1, [0, 2], True), (3, [0], True), (1, [2], False)]
    assert benny_defence.defended_hits(lines, 1) == {(1, 0)}
    assert benny_defence.defended_hits(lines, 2) == {(1, 0), (2, 0)}
    assert benny_defence.defended_hits(lines, 3) == {(1, 0), (2, 0), (0, 1)}
    assert benny_defence.defended_hits(lines, 0) == set()
    assert benny_defence.defended_hits(lines, -1) == set()


def test_defend_listing_and_problems() -> None:
    """0 up to one benny per hit, no more than the side has; the unit hit names the attacker."""
    acts = benny_defence.defend_actions("B2", "A2", hits=3, bennies=2)
    assert [(a.unit, a.target, a.value) for a in acts] == [("B2", "A2", v) for v in (0, 1, 2)]
    ok = Action(Kind.DEFEND, "B2", target="A2", value=2)

    def problem(a: Action, unit: str = "B2") -> str | None:
        return benny_defence.defend_problem("B2", "A2", 3, unit, a, 2, who="the attacker")

    assert problem(ok) is None
    assert problem(ok, unit="B1") == "defend names the unit hit and the attacker"
    assert "only the number" in str(problem(Action(Kind.DEFEND, "B2", target="A2", choice="x")))
    assert "spend 0 to 2" in str(problem(Action(Kind.DEFEND, "B2", target="A2", value=3)))


def test_spend_defence_logs_once() -> None:
    state = _game(bennies=3)
    benny_defence.spend_defence(state, state.units["B2"], 2)
    benny_defence.spend_defence(state, state.units["B2"], 0)
    assert bennies.bennies_available(state, 1) == 1
    assert [e["hits"] for e in state.log.of_kind("benny")] == [2]
