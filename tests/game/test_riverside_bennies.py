"""Bennies in Riverside games (seed 000_e2a2d86473ae65c4 "Variants" 5, "Bennies", under the
``clock-bennies`` mechanic) with seed 002_fdb385c07cc953af's "Ranged Attacks", "Resolving
Attacks" and "Melee Attacks". The armies are invented."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable

import numpy as np
import pytest

from oprlab.errors import UserError
from oprlab.game import riverside as rv
from oprlab.game import riverside_combat as combat
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import bennies_available
from oprlab.game.play import play_game
from oprlab.game.riverside_defend import (
    Group,
    Rolled,
    defended_hits,
    resolve_hits,
    roll_hits,
)
from oprlab.game.state import GameState
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.players.riverside_choices import defend_choice
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import Hit, Situation
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile
from oprlab.rules.riverside.resolve import resolve_attack
from tests.game.test_riverside_game import (
    LINE_TEXT,
    MIXED_TEXT,
    Scripted,
    army,
    put,
    sample,
    scene,
)

#: A musket team with knives.
TEAM_TEXT = """++ Ferry Guard [GFF 60pts] ++

Ferry Team [3] Q4+ D4+ | 60pts
3x Musket (24", A1), 3x Knife (A1)
"""

PROFILES = [
    AttackProfile("Rifle", 6, 4, False, ap=1),
    AttackProfile("Lance", 3, 3, False, deadly=3, rending=True),
    AttackProfile("Shell", 2, 4, False, blast=3),
    AttackProfile("Gun", 4, 3, False, shooty=True, shock=True),
]
DEFENDERS = [
    DefenderProfile(defense=4, models=5, quality=4),
    DefenderProfile(defense=5, models=1, quality=3, tough=6, regeneration=True),
    DefenderProfile(defense=3, models=3, quality=5, tough=3, wounds=1),
]


def _draws_same(one: Roller, two: Roller) -> bool:
    assert one.rng is not None and two.rng is not None
    return bool(one.rng.integers(1 << 30) == two.rng.integers(1 << 30))


@pytest.mark.parametrize("d", DEFENDERS)
def test_split_volley_is_resolve_attack_die_for_die(d: DefenderProfile) -> None:
    """seed 002 "Resolving Attacks": rolling the hits, then the rest with nothing defended, is
    the pipeline's attack: the same result and the same dice drawn."""
    s = Situation(distance=10.0)
    d6 = get_mechanic("d6")
    for seed in range(120):
        one = Roller(d6, None, np.random.default_rng(seed))
        two = Roller(d6, None, np.random.default_rng(seed))
        whole = resolve_attack(PROFILES, d, s, one)
        split = resolve_hits(roll_hits([Group(tuple(PROFILES), s)], d, two), d, two)
        assert split == whole and _draws_same(one, two)


@pytest.mark.parametrize("d", DEFENDERS)
def test_split_volley_with_cover_groups_is_resolve_groups(d: DefenderProfile) -> None:
    """seed 002 "Determine Cover" (for each model): with some dice in Cover and some not, the
    split volley is ``resolve_groups`` die for die."""
    open_, covered = Situation(distance=10.0), Situation(distance=10.0, cover=True)
    groups = [Group(tuple(PROFILES[:2]), open_), Group(tuple(PROFILES[2:]), covered)]
    d6 = get_mechanic("d6")
    for seed in range(120):
        one = Roller(d6, None, np.random.default_rng(seed))
        two = Roller(d6, None, np.random.default_rng(seed))
        whole = combat.resolve_groups(groups, d, one)
        split = resolve_hits(roll_hits(groups, d, two), d, two)
        assert split == whole and _draws_same(one, two)


def test_defended_hits_are_the_ones_that_hurt_most() -> None:
    """Deadly hits first, then the highest AP (a Rending hit's AP(4)), then hits without
    Cover, then the rolling order."""
    lance = AttackProfile("Lance", 1, 4, False, deadly=3)
    rifle = AttackProfile("Rifle", 3, 4, False, ap=1)
    in_cover, out = Situation(cover=True), Situation()
    rolled: Rolled = (
        (lance, out, (Hit(0),)),
        (rifle, in_cover, (Hit(1), Hit(4))),
        (rifle, out, (Hit(1),)),
    )
    assert defended_hits(rolled, 1) == {(0, 0)}
    assert defended_hits(rolled, 2) == {(0, 0), (1, 1)}
    assert defended_hits(rolled, 3) == {(0, 0), (1, 1), (2, 0)}
    assert defended_hits(rolled, 9) == {(0, 0), (1, 0), (1, 1), (2, 0)}


def _shooting(mech: Mechanic | str, bennies: tuple[int, int] | None = None) -> GameState:
    """The Ferry Team (3 Muskets) holds 16" from a unit of Ford Wardens, its shot to choose."""
    state = scene(army(TEAM_TEXT), army(LINE_TEXT), mechanic=mech)
    if bennies is not None:
        state.mech_state = ClockState(bennies={"side0": bennies[0], "side1": bennies[1]})
    put(state, "A1", (24.0, 10.0))
    put(state, "B1", (24.0, 26.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    assert state.phase == "shoot"
    return state


@pytest.mark.parametrize("mechanic", ["d6", "clock"])
def test_no_bennies_no_benny_actions(mechanic: str) -> None:
    """Bennies come only with clock-bennies: under other mechanics the lists stay as they were
    and a benny, a clock setting or a defence is refused."""
    state = _shooting(mechanic)
    acts = rv.legal_actions(state)
    assert acts == [Action(Kind.SHOOT, "A1"), Action(Kind.SHOOT, "A1", target="B1")]
    for bad in (
        Action(Kind.SHOOT, "A1", target="B1", benny=True),
        Action(Kind.SET_CLOCK, "A1", target="A1", value=1),
        Action(Kind.DEFEND, "A1", target="B1", value=0),
    ):
        assert not rv.is_legal(state, bad)
        with pytest.raises(UserError):
            rv.apply(state, bad)


def test_shot_with_a_benny_rolls_one_extra_attack_die() -> None:
    """seed 000 "Bennies": "Grant a single extra attack to any unit": a shot with ``benny``
    rolls one more attack die at its target and costs one benny."""
    mech = Scripted(lambda c: c.test is Test.DEFENSE)  # every hit is blocked
    state = _shooting(mech, (2, 0))
    listed = rv.legal_actions(state)
    extra = Action(Kind.SHOOT, "A1", target="B1", benny=True)
    assert extra in listed and Action(Kind.SHOOT, "A1", benny=True) not in listed
    assert not any(a.kind is Kind.SET_CLOCK for a in listed)  # the scripted dice have no clock
    rv.apply(state, extra)
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 4 and len(mech.of(Test.HIT)) == 4
    assert bennies_available(state, 0) == 1
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["side"], benny["unit"]) == ("extra_attack", 0, "A1")


def test_a_split_shot_gets_the_extra_die_at_its_first_target() -> None:
    """seed 002 "Choose Targets" (two targets) with a benny: the extra die goes to the first
    target's attack."""
    mech = Scripted(lambda c: c.test is Test.DEFENSE)
    state = scene(army(MIXED_TEXT), army(LINE_TEXT), mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": 1, "side1": 0})
    put(state, "A1", (24.0, 14.0))
    put(state, "B1", (18.0, 22.0), ready=False)
    put(state, "B2", (34.0, 34.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    split = Action(Kind.SHOOT, "A1", target="B2", second="B1", split=("Torch",), benny=True)
    assert split in rv.legal_actions(state)
    rv.apply(state, split)
    shots = {e["target"]: e["dice"] for e in state.log.of_kind("shoot")}
    assert shots == {"B2": 3, "B1": 4}


def test_charge_with_a_benny_rolls_one_extra_melee_die() -> None:
    """seed 000 "Bennies" on a seed 002 "Charge Action": the charger's Melee Attack has one more
    attack die; Return Strikes are unchanged."""
    dice = {}
    for benny in (False, True):
        mech = Scripted(lambda c: c.test is Test.DEFENSE)
        state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic=mech)
        state.mech_state = ClockState(bennies={"side0": 1, "side1": 0})
        put(state, "A1", (24.0, 20.0))
        put(state, "B1", (24.0, 27.0), ready=False)
        charge = Action(Kind.CHARGE, "A1", target="B1", benny=benny)
        assert charge in rv.legal_actions(state)
        rv.apply(state, charge)
        strikes = {e["step"]: e["dice"] for e in state.log.of_kind("strike")}
        dice[benny] = strikes
        assert bennies_available(state, 0) == (0 if benny else 1)
    assert dice[True]["charge"] == dice[False]["charge"] + 1
    assert dice[True]["return strikes"] == dice[False]["return strikes"]


def test_a_benny_sets_any_clock_before_the_shot() -> None:
    """seed 000 "Bennies": "Roll any clock (friend or foe) immediately to any value": before the
    Ranged Attack, the shooter's clock or a target's, 1..6, one per activation."""
    mech = get_mechanic("clock-bennies")
    assert isinstance(mech, Clock)
    state = _shooting(mech)
    assert isinstance(state.mech_state, ClockState)
    listed = [a for a in rv.legal_actions(state) if a.kind is Kind.SET_CLOCK]
    assert {(a.target, a.value) for a in listed} == {
        (u, v) for u in ("A1", "B1") for v in range(1, 7)
    }
    foe = mech.clock_key(state.units["B1"].owner)
    rv.apply(state, Action(Kind.SET_CLOCK, "A1", target="B1", value=6))
    assert state.mech_state.clocks[foe] == 6
    assert bennies_available(state, 0) == 3
    assert state.phase == "shoot" and state.pending is not None and state.pending.clock_set
    assert not any(a.kind is Kind.SET_CLOCK for a in rv.legal_actions(state))
    assert not rv.is_legal(state, Action(Kind.SET_CLOCK, "A1", target="A1", value=1))
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["value"], benny["clock"]) == ("set_clock", 6, list(foe))


def test_setting_a_clock_is_refused_out_of_place() -> None:
    """A clock is set before the unit's Ranged Attack, to 1..6, named by a unit on the table."""
    state = _shooting("clock-bennies")
    for bad in (
        Action(Kind.SET_CLOCK, "A1", target="A1", value=7),
        Action(Kind.SET_CLOCK, "A1", target="B3", value=1),  # B3 is not on the table
        Action(Kind.SET_CLOCK, "A1", target="A1", value=1, benny=True),
        Action(Kind.SET_CLOCK, "B1", target="B1", value=1),  # not the side to act
    ):
        assert not rv.is_legal(state, bad), bad
    fresh = scene(army(TEAM_TEXT), army(LINE_TEXT), mechanic="clock-bennies")
    put(fresh, "A1", (24.0, 10.0))
    assert not rv.is_legal(fresh, Action(Kind.SET_CLOCK, "A1", target="A1", value=1))


def test_the_defender_spends_bennies_on_hits_before_the_defense_rolls() -> None:
    """seed 000 "Bennies": "Defend against any single attack (even if it would have bypassed
    Defense)", one benny per hit: once the hits are known (seed 002 "Roll Attacks") and before
    "Roll Defense", side B decides; each defended hit rolls no Defense and wounds nobody."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)  # every die hits, every block fails
    state = _shooting(mech, (0, 2))
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    assert state.phase == "defend" and state.active == 1
    assert mech.of(Test.DEFENSE) == []  # paused between the two steps
    listed = rv.legal_actions(state)
    assert listed == [Action(Kind.DEFEND, "B1", target="A1", value=n) for n in range(3)]
    assert not rv.is_legal(state, Action(Kind.DEFEND, "B1", target="A1", value=3))
    assert not rv.is_legal(state, Action(Kind.DEFEND, "B2", target="A1", value=1))
    assert not rv.is_legal(state, Action(Kind.HOLD, "B2"))
    rv.apply(state, Action(Kind.DEFEND, "B1", target="A1", value=2))
    assert len(mech.of(Test.DEFENSE)) == 3 - 2
    (shot,) = state.log.of_kind("shoot")
    assert (shot["hits"], shot["wounds"], shot["defended"]) == (3, 1, 2)
    assert state.units["B1"].models == 4 and bennies_available(state, 1) == 0
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["hits"], benny["side"]) == ("defend", 2, 1)
    assert state.phase == "activation" and state.pending is None


def test_no_decision_without_hits_or_bennies() -> None:
    """No hits, or no bennies on the defending side: the attack is resolved at once."""
    for succeeds, bennies in ((lambda c: c.test is not Test.HIT, (0, 2)), (bool, (2, 0))):
        state = _shooting(Scripted(succeeds), bennies)
        rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
        assert state.phase == "activation" and "defended" not in state.log.of_kind("shoot")[0]


def test_a_split_shot_asks_for_each_target_in_turn() -> None:
    """seed 002 "Choose Targets": each target's attack is resolved in turn, so side B decides
    for the first target, then the second volley is rolled and side B decides again."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)
    state = scene(army(MIXED_TEXT), army(LINE_TEXT), mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 3})
    put(state, "A1", (24.0, 14.0))
    put(state, "B1", (18.0, 22.0), ready=False)
    put(state, "B2", (34.0, 34.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B2", second="B1", split=("Torch",)))
    assert state.phase == "defend" and rv.defending(state).target == "B2"
    rv.apply(state, Action(Kind.DEFEND, "B2", target="A1", value=1))
    assert state.phase == "defend" and rv.defending(state).target == "B1"
    assert [a.value for a in rv.legal_actions(state)] == [0, 1, 2]  # 2 bennies left
    rv.apply(state, Action(Kind.DEFEND, "B1", target="A1", value=0))
    shots = {e["target"]: (e["wounds"], e["defended"]) for e in state.log.of_kind("shoot")}
    assert shots == {"B2": (1, 1), "B1": (4, 0)}
    assert state.phase == "activation"


def test_a_game_paused_for_a_defence_resumes_exactly() -> None:
    """A saved game waiting for a ``DEFEND`` decision plays on as the original does."""
    state = _shooting("clock-bennies")
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    assert state.phase == "defend"
    twin = pickle.loads(pickle.dumps(state))
    for s in (state, twin):
        rv.apply(s, rv.legal_actions(s)[-1])
    assert json.dumps(state.log.events) == json.dumps(twin.log.events)
    assert state.mech_state == twin.mech_state


def _charging(
    bennies: tuple[int, int],
    succeeds: Callable[[Check], bool] = lambda c: c.test is not Test.DEFENSE,
) -> tuple[GameState, Scripted]:
    """Ford Wardens charge Ford Wardens (by default every die hits, every Defense roll fails)."""
    mech = Scripted(succeeds)
    state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": bennies[0], "side1": bennies[1]})
    put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 27.0), ready=False)
    return state, mech


def test_the_charged_unit_defends_before_its_defense_rolls() -> None:
    """seed 002 "Melee Attacks" 3 ("Resolve Attacks" of the charger) with seed 000 "Bennies":
    once the charger's hits are known, the charged side decides; its defended hits roll no
    Defense; then Return Strikes and the Morale Test follow as usual."""
    state, mech = _charging((0, 2))
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    assert state.phase == "defend" and state.active == 1
    assert mech.of(Test.DEFENSE) == [] and state.log.of_kind("strike") == []
    hits = sum(len(h) for _, _, h in rv.defending(state).rolled)
    listed = rv.legal_actions(state)
    assert listed == [Action(Kind.DEFEND, "B1", target="A1", value=n) for n in range(3)]
    rv.apply(state, listed[-1])
    charge, back = state.log.of_kind("strike")
    assert (charge["step"], charge["defended"], charge["wounds"]) == ("charge", 2, hits - 2)
    assert back["step"] == "return strikes" and "defended" not in back  # side A has no bennies
    assert len(mech.of(Test.DEFENSE, "B1")) == hits - 2
    (melee,) = state.log.of_kind("melee")
    assert (melee["wounds_dealt"], melee["wounds_taken"]) == (hits - 2, back["wounds"])
    assert state.phase == "activation" and bennies_available(state, 1) == 0


def test_the_charger_defends_against_return_strikes() -> None:
    """seed 002 "Return Strikes" are an attack too: the charger's side decides once their hits
    are known; with 0 spent every hit rolls Defense."""
    state, mech = _charging(  # only side B's attack dice hit
        (3, 0), lambda c: c.test is Test.MORALE or (c.test is Test.HIT and c.owner.unit == "B1")
    )
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    assert state.phase == "defend" and state.active == 0
    assert [e["step"] for e in state.log.of_kind("strike")] == ["charge"]
    shot = rv.defending(state)
    assert (shot.attacker, shot.target) == ("B1", "A1")
    hits = sum(len(h) for _, _, h in shot.rolled)
    rv.apply(state, Action(Kind.DEFEND, "A1", target="B1", value=0))
    back = state.log.of_kind("strike")[-1]
    assert (back["defended"], back["wounds"]) == (0, hits)
    assert len(mech.of(Test.DEFENSE, "A1")) == hits
    assert state.log.of_kind("melee") and state.phase == "activation"


def test_a_fight_paused_for_a_defence_resumes_exactly() -> None:
    """A saved game waiting for a ``DEFEND`` in melee plays on as the original does."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic="clock-bennies")
    put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 27.0), ready=False)
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1", benny=True))
    assert state.phase == "defend"
    twin = pickle.loads(pickle.dumps(state))
    for s in (state, twin):
        while s.phase == "defend":
            rv.apply(s, rv.legal_actions(s)[-1])
    assert json.dumps(state.log.events) == json.dumps(twin.log.events)
    assert state.mech_state == twin.mech_state and state.log.of_kind("melee")


def test_rules_commander_defends_a_lone_model_with_spare_bennies() -> None:
    """The GFF habit: defend a unit's last model (or a Hero, or a quarter of its points) with
    the bennies beyond one kept for each round to come; otherwise spend none."""
    for spare, expected in ((5, 2), (3, 0)):
        mech = Scripted(lambda c: c.test is not Test.DEFENSE)
        state = _shooting(mech, (0, spare))
        state.units["B1"].models = 1
        rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
        actions = rv.legal_actions(state)
        assert defend_choice(state, actions).value == expected  # 3 rounds to come after round 1
        assert get_commander("rules").choose(state, actions).value == expected


@pytest.mark.parametrize("commander", ["random", "rules"])
def test_full_game_with_bennies_runs_and_replays(commander: str) -> None:
    """seed 002 "Round Phases" under clock-bennies: every new decision is handled by the
    commander, bennies are spent (never below zero) and a seeded game replays exactly."""
    logs = []
    for _ in range(2):
        commanders = [get_commander(commander, 7), get_commander(commander, 8)]
        _, state = play_game(
            sample("shooty-150"),
            sample("melee-150"),
            commanders,
            seed=7,
            mechanic="clock-bennies",
            system="riverside",
        )
        assert state.done and state.round == rv.ROUNDS
        assert all(bennies_available(state, side) >= 0 for side in (0, 1))
        assert state.log.of_kind("benny")
        logs.append(json.dumps(state.log.events))
    assert logs[0] == logs[1]
