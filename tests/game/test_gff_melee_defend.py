"""Bennies defending in melee and against spells (seed 000_e2a2d86473ae65c4 "Variants" 5,
"Bennies": "Defend against any single attack"), in the GFF game (seed 003_8abb008d4113ed75
"Melee": Charging, Striking; "Caster(X)"). The armies are invented."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_defend import MeleeDefending, SpellDefending, resolve_hits, roll_hits
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import Test, get_mechanic
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.players.gff_choices import defend
from oprlab.rules.gff import melee
from oprlab.rules.gff.melee import UnitState as MeleeState
from oprlab.rules.gff.resolve import Roller
from oprlab.units.model import Army
from tests.game import Scripted, army, line, strike_back
from tests.game.test_gff_casting import coven
from tests.game.test_gff_casting import scene as cast_scene
from tests.game.test_gff_rounds import scene

#: Every rule that changes an exchange's steps: Impact, Counter, Furious, Fear, Tough.
BRAWL_TEXT = """++ Test Brawl [GFF 150pts] ++

Tusk Riders [3] Q4+ D4+ | 60pts | Impact(1), Fear(1)
3x Tusk (A2, Furious)

Pike Wall [4] Q4+ D5+ | 40pts
4x Pike (A1, Counter), 4x Knife (A1)

Ogre [1] Q4+ D4+ | 50pts | Tough(3)
Club (A3, AP(1))
"""

ALL = GffOptions(defend="all")


def brawl() -> Army:
    return army(BRAWL_TEXT)


@pytest.mark.parametrize(("a", "d"), [(0, 1), (0, 2), (2, 1), (1, 0)])
def test_the_exchange_taken_apart_is_the_exchange_die_for_die(a: int, d: int) -> None:
    """seed 003 "Melee" (Impact, Counter strikes first, strike, strike back): driven one attack
    at a time, each attack split at its Defense rolls with nothing defended, the exchange is
    ``resolve_exchange``: the same result and the same dice drawn, d6 and clock."""
    units = brawl().units
    for mech_name in ("d6", "clock"):
        mech = get_mechanic(mech_name)
        for seed in range(40):
            state = mech.initial_state(list(melee.OWNERS), np.random.default_rng(seed))
            one = Roller(mech, state, np.random.default_rng(seed))
            two = Roller(mech, state, np.random.default_rng(seed))
            whole = melee.resolve_exchange(units[a], units[d], one)
            x = melee.start_exchange(units[a], units[d])
            while (found := melee.next_blow(x)) is not None:
                blow, x = found
                rolled = roll_hits(blow.weapons, blow.target, blow.situation, two)
                r = resolve_hits(rolled, blow.target, blow.situation, two, fear=blow.fear)
                x = melee.after_blow(x, blow, r)
            assert melee.exchange_result(x) == whole
            assert one.state == two.state
            assert one.rng is not None and two.rng is not None
            assert one.rng.integers(1 << 30) == two.rng.integers(1 << 30)


def test_a_shaken_charger_may_start_an_exchange_in_a_game_and_strikes_as_fatigued() -> None:
    """A unit Shaken by dangerous terrain on its way in still fights (docs/rules/gff.md): the
    game's exchange takes it, striking as fatigued; ``resolve_exchange`` still refuses it."""
    units = brawl().units
    x = melee.start_exchange(
        units[1], units[2], attacker_state=MeleeState(4, 0, True), shaken_charger=True
    )
    found = melee.next_blow(x)
    assert found is not None and found[0].situation.fatigued
    with pytest.raises(ValueError, match="Shaken"):
        melee.start_exchange(units[1], units[2], attacker_state=MeleeState(4, 0, True))


def _charge(bennies: tuple[int, int], options: GffOptions = ALL) -> tuple[GameState, Scripted]:
    """A Rifle Squad (3x Knife A1) charges another; every die hits, every Defense roll fails,
    every wound effect is Shaken (not out)."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)
    state = scene(line(), line(), {"A2": (24.0, 20.0), "B2": (24.0, 25.0)}, mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": bennies[0], "side1": bennies[1]})
    state.options = options
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    strike_back(state)
    return state, mech


def test_the_charged_unit_defends_against_the_strikes_once_its_hits_are_known() -> None:
    """seed 000 variation 5 in melee: the charger's 3 Knife hits are known, then side B spends
    up to one benny per hit (it has 2) before its Defense rolls; the defended hits roll no
    Defense. The exchange then goes on: B's 2 models left strike back (2 Defense rolls)."""
    state, mech = _charge((0, 2))
    assert state.phase == "defend" and state.active == 1
    waiting = state.defending
    assert isinstance(waiting, MeleeDefending)
    assert (waiting.attacker, waiting.target, waiting.blow.step) == ("A2", "B2", melee.Step.STRIKE)
    listed = gff.legal_actions(state)
    assert [(a.kind, a.unit, a.target, a.value) for a in listed] == [
        (Kind.DEFEND, "B2", "A2", n) for n in range(3)
    ]
    assert mech.of(Test.DEFENSE) == []  # nothing rolled for Defense yet
    gff.apply(state, listed[-1])
    assert state.phase == "strike_back" and state.active == 1  # B decides, then strikes
    strike_back(state)
    assert len(mech.of(Test.DEFENSE)) == 1 + 2
    (fight,) = state.log.of_kind("melee")
    assert fight["wounds_dealt"] == 1 and fight["wounds_taken"] == 2 and fight["defended"] == 2
    assert gff.bennies_available(state, 1) == 0
    assert state.units["B2"].models == 2 and state.units["A2"].models == 1
    assert state.phase == "activation" and state.active == 1


def test_the_charger_defends_against_the_strike_back() -> None:
    """The strike back is an attack too: the charger's side decides before its Defense rolls
    (side B has no bennies, so the strikes roll on without a pause)."""
    state, mech = _charge((1, 0))
    waiting = state.defending
    assert isinstance(waiting, MeleeDefending) and waiting.blow.step is melee.Step.STRIKE_BACK
    assert (state.active, waiting.attacker, waiting.target) == (0, "B2", "A2")
    assert len(mech.of(Test.DEFENSE)) == 3  # the strikes rolled in full
    gff.apply(state, Action(Kind.DEFEND, "A2", target="B2", value=1))
    (fight,) = state.log.of_kind("melee")
    assert fight["wounds_taken"] == 0 and fight["defended"] == 1  # B's 0 models left: no dice


def test_melee_pauses_only_under_the_all_reading_and_with_bennies() -> None:
    """``GffOptions(defend="shooting")`` (and a side without bennies) rolls the exchange
    through, as before."""
    for bennies, options in (((2, 2), GffOptions(defend="shooting")), ((0, 0), ALL)):
        state, _ = _charge(bennies, options)
        assert state.phase == "activation" and state.log.of_kind("melee")


def test_a_bad_melee_defend_is_refused() -> None:
    """More bennies than hits, or naming the wrong units, is refused with the reason."""
    state, _ = _charge((0, 5))
    for bad in (
        Action(Kind.DEFEND, "B2", target="A2", value=4),
        Action(Kind.DEFEND, "B2", target="B2", value=1),
    ):
        assert not gff.is_legal(state, bad)


def test_the_target_of_a_spell_defends_against_its_hits() -> None:
    """seed 003 "Caster(X)": Bolt at value 2 is 4 hits at AP(1) (a spell's hits are "an
    attack"): side B decides before the Defense rolls; the caster then takes its action."""
    mech = Scripted(lambda c: c.test is not Test.DEFENSE)
    state = cast_scene({"A1": (24.0, 10.0), "B2": (24.0, 22.0)}, mechanic=mech)
    state.mech_state = ClockState(bennies={"side0": 0, "side1": 3})
    state.options = ALL
    state.units["A1"].spell_tokens = 2
    gff.apply(state, Action(Kind.CAST, "A1", target="B2", spell="Bolt", value=2))
    assert state.phase == "defend" and state.active == 1
    assert isinstance(state.defending, SpellDefending)
    assert [a.value for a in gff.legal_actions(state)] == [0, 1, 2, 3]
    gff.apply(state, Action(Kind.DEFEND, "B2", target="A1", value=3))
    (spell,) = state.log.of_kind("spell")
    assert spell["hits"] == 4 and spell["defended"] == 3 and spell["wounds"] == 1
    assert len(mech.of(Test.DEFENSE)) == 1
    assert state.phase == "act" and state.active == 0 and state.pending is not None
    assert state.pending.unit == "A1"


def test_the_rules_commander_defends_a_threatened_unit_in_melee() -> None:
    """The habit (docs/rules/gff.md): the Rifle Squad of 3 models facing 3 sure hits at
    D5+ expects to lose over a quarter of its points: spare bennies go on the hits."""
    state, _ = _charge((0, 6))
    state.round = 1  # 6 bennies, 3 rounds to come: 3 spare
    picked = defend(state, gff.legal_actions(state))
    assert picked.value == 3 and gff.is_legal(state, picked)


@pytest.mark.parametrize("commanders", [("random", "random"), ("rules", "rules")])
def test_games_with_every_benny_use_end_and_replay(commanders: tuple[str, str]) -> None:
    """Random and rules commanders answer every new decision; a seed replays exactly."""
    options = GffOptions(defend="all", set_clock_at_activation=True, charge_dangerous=True)
    logs = []
    for _ in range(2):
        state = gff.new_game(brawl(), coven(), seed=5, mechanic="clock-bennies", options=options)
        players = [get_commander(c, seed=i) for i, c in enumerate(commanders)]
        while not state.done:
            actions = gff.legal_actions(state)
            gff.apply(state, players[state.active].choose(state, actions))
        assert state.done and state.round <= 4
        logs.append(state.log.events)
    assert logs[0] == logs[1]
