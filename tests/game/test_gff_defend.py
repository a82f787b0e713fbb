"""Bennies defending against hits (seed 000_e2a2d86473ae65c4 "Variants" 5, "Bennies": "Defend
against any single attack (even if it would have bypassed Defense)"), in the GFF game (seed
003_8abb008d4113ed75 "Shooting"). The armies are invented."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.errors import UserError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_defend import Defending, Rolled, defended_hits, resolve_hits, roll_hits
from oprlab.game.state import GameState
from oprlab.mechanics import Mechanic, Test, get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.players.gff_choices import defend
from oprlab.rules.gff.attack import Hit, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import Roller, resolve_attack
from tests.game import Scripted, line, specials
from tests.game.test_gff_rounds import scene

PROFILES = [
    AttackProfile("Rifle", 6, 4, False, ap=1),
    AttackProfile("Lance", 3, 3, False, deadly=3, rending=True),
    AttackProfile("Shell", 2, 4, False, blast=3, bane=True),
    AttackProfile("Claw", 4, 3, True, furious=True, surge=True),
]
DEFENDERS = [
    DefenderProfile(defense=4, models=5),
    DefenderProfile(defense=5, models=1, tough=6, regeneration=True),
    DefenderProfile(defense=3, models=3, tough=3, markers=1),
]


@pytest.mark.parametrize("defender", DEFENDERS)
def test_the_split_attack_is_the_attack_die_for_die(defender: DefenderProfile) -> None:
    """With nothing defended, rolling the hits and then the rest is ``resolve_attack``: the same
    result and the same dice drawn, for every rule that touches hits and blocks."""
    situation = Situation(distance=10.0, charging=True, melee=False)
    for seed in range(150):
        one = Roller(get_mechanic("d6"), None, np.random.default_rng(seed))
        two = Roller(get_mechanic("d6"), None, np.random.default_rng(seed))
        whole = resolve_attack(PROFILES, defender, situation, one)
        rolled = roll_hits(PROFILES, defender, situation, two)
        split = resolve_hits(rolled, defender, situation, two)
        assert split == whole
        assert one.rng is not None and two.rng is not None
        assert one.rng.integers(1 << 30) == two.rng.integers(1 << 30)


def test_defended_hits_are_the_ones_that_hurt_most() -> None:
    """Deadly hits first, then the highest AP (a Rending 6's AP(+4)), then the list order."""
    lance = AttackProfile("Lance", 1, 4, False, deadly=3)
    rifle = AttackProfile("Rifle", 3, 4, False, ap=1)
    rolled: Rolled = ((lance, (Hit(0),)), (rifle, (Hit(1), Hit(5), Hit(1))))
    assert defended_hits(rolled, 1) == {(0, 0)}
    assert defended_hits(rolled, 2) == {(0, 0), (1, 1)}
    assert defended_hits(rolled, 3) == {(0, 0), (1, 1), (1, 0)}
    assert defended_hits(rolled, 9) == {(0, 0), (1, 0), (1, 1), (1, 2)}


def _shot(mechanic: Mechanic | str) -> GameState:
    """The Gun Post (Heavy Gun 30" A3, Flamer 12" A3) holds and shoots at a Rifle Squad."""
    state = scene(specials(), line(), {"A3": (24.0, 8.0), "B2": (24.0, 17.0)}, mechanic=mechanic)
    gff.apply(state, Action(Kind.HOLD, "A3"))
    return state


def _shot_waiting(state: GameState) -> Defending:
    """The shot waiting for the defender's decision."""
    assert isinstance(state.defending, Defending)
    return state.defending


def test_the_defender_spends_bennies_on_hits_before_the_defense_rolls() -> None:
    """Once the hits are known (6 dice all hit) and before any Defense roll, side B decides:
    0 up to one benny per hit (it has 4). Each defended hit rolls no Defense and wounds no one;
    the others roll as usual. Play then passes on as after any shot."""
    mech = get_mechanic("clock-bennies")
    state = _shot(mech)
    assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
    gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
    assert state.phase == "defend" and state.active == 1
    hits = sum(len(h) for _, h in _shot_waiting(state).rolled)
    listed = gff.legal_actions(state)
    assert [(a.unit, a.target, a.value) for a in listed] == [
        ("B2", "A3", n) for n in range(min(hits, 4) + 1)
    ]
    b_clock = mech.clock_key(state.units["B2"].owner)
    before = state.mech_state.clocks.get(b_clock, 1)
    gff.apply(state, listed[-1])
    (shot,) = state.log.of_kind("shoot")
    assert shot["defended"] == min(hits, 4) and shot["hits"] == hits
    assert gff.bennies_available(state, 1) == 4 - min(hits, 4)
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["hits"], benny["side"]) == ("defend", min(hits, 4), 1)
    assert isinstance(state.mech_state, ClockState)
    if hits <= 4:  # every hit defended: no Defense roll stepped side B's clock
        assert shot["wounds"] == 0
        assert state.mech_state.clocks.get(b_clock, 1) == before
    # B's activation starts: with bennies left it may first set a clock (phase "clocks")
    assert state.phase == ("clocks" if hits < 4 else "activation") and state.active == 1


def test_defended_hits_roll_no_defense_and_the_rest_do() -> None:
    """Defending 2 of the hits (a scripted mechanic: every die hits, every block fails): the
    Defense rolls are one per undefended hit, even against hits that would bypass Defense."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)
    state = _shot(mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 2})
    gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
    gff.apply(state, Action(Kind.DEFEND, "B2", target="A3", value=2))
    assert len(mech.of(Test.DEFENSE)) == 6 - 2
    assert state.log.of_kind("shoot")[0]["wounds"] == 4


def test_a_split_shot_asks_for_each_target_in_turn() -> None:
    """seed 003 "Shooting" (two targets): each target's hits are one attack: side B decides for
    the first (the Heavy Gun at the far squad), then the shot at the second (the Flamer) goes on
    and side B decides again."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)
    where = {"A3": (24.0, 8.0), "B2": (24.0, 17.0), "B3": (40.0, 30.0)}
    state = scene(specials(), line(), where, mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 4})
    gff.apply(state, Action(Kind.HOLD, "A3"))
    split = Action(Kind.SHOOT, "A3", target="B3", second="B2", split=("Flamer",))
    gff.apply(state, split)
    assert state.phase == "defend" and _shot_waiting(state).target == "B3"
    gff.apply(state, Action(Kind.DEFEND, "B3", target="A3", value=0))
    assert state.phase == "defend" and _shot_waiting(state).target == "B2"
    gff.apply(state, Action(Kind.DEFEND, "B2", target="A3", value=1))
    assert [e["target"] for e in state.log.of_kind("shoot")] == ["B3", "B2"]
    assert [e["defended"] for e in state.log.of_kind("shoot")] == [0, 1]
    assert state.phase == "activation" and gff.bennies_available(state, 1) == 3


def test_no_decision_without_bennies_or_under_the_d6() -> None:
    """Only under clock-bennies with bennies left: otherwise the shot resolves at once."""
    for mechanic, bennies in (("d6", None), ("clock-bennies", 0)):
        state = _shot(mechanic)
        if bennies is not None:
            assert isinstance(state.mech_state, ClockState)
            state.mech_state = state.mech_state.with_bennies("side1", bennies)
        gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
        assert state.phase == "activation" and "defended" not in state.log.of_kind("shoot")[0]


def test_bad_defences_say_what_is_wrong() -> None:
    """More bennies than hits or than the side has, or at the wrong moment, are refused."""
    mech = Scripted(lambda c: True)
    state = _shot(mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 2})
    with pytest.raises(UserError, match="side to act"):
        gff.apply(state, Action(Kind.DEFEND, "B2", target="A3", value=1))
    gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
    for bad, message in (
        (Action(Kind.DEFEND, "B2", target="A3", value=3), "spend 0 to 2"),
        (Action(Kind.DEFEND, "B2", target="B2", value=1), "the unit hit and the shooter"),
        (Action(Kind.DEFEND, "B2", target="A3", value=1, benny=True), "benny"),
    ):
        with pytest.raises(UserError, match=message):
            gff.apply(state, bad)


def test_rules_commander_defends_a_threatened_unit_with_spare_bennies() -> None:
    """The habit (docs/rules/gff.md): defend as many hits as spare bennies allow (one is kept
    for each round to come) when the hits threaten the last model, a Hero or a quarter of the
    unit's points; random commanders choose among the listed values."""
    mech = Scripted(lambda c: True)
    state = _shot(mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 5})
    gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
    actions = gff.legal_actions(state)
    # Round 1: 3 rounds to come keep 3 bennies, 2 are spare: 6 hits on D5+ Rifles threaten
    # far more than a quarter of their points.
    assert defend(state, actions).value == 2
    assert get_commander("rules").choose(state, actions).value == 2
    state.round = 3  # one round to come: 4 spare
    assert defend(state, actions).value == 4
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 1})
    assert defend(state, gff.legal_actions(state)).value == 0  # none spare
    assert get_commander("random", 2).choose(state, actions) in actions
