"""Caster(X) spells and clock-bennies' "set a clock" in the full GFF game.

Seed 003_8abb008d4113ed75 "Caster(X)" (tokens each round, at most 6; spend the spell's value,
roll one die, 4+ works on a target in line of sight; friendly Casters within 18" in line of
sight add +1 per token), seed 000_e2a2d86473ae65c4 "Caster(X)" (the clock adds 3, each extra
token takes 1 off, down to 0) and variation 5 "Bennies" (set any clock, friend or foe, to any
value). The spell itself is oprlab's stand-in (``gff.SPELLS``: Bolt, 2 hits per token, AP(1)).
The armies are invented.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from oprlab.errors import UserError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState, Phase
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.players.rules_commander import RulesCommander
from oprlab.units.model import Army
from tests.game import Scripted, army, clear_table, line, play_setup, put, specials

#: Two Casters (X = 2 and 1) and a squad without spells.
COVEN_TEXT = """++ Test Coven [GFF 150pts] ++

Storm Seer [1] Q4+ D5+ | 40pts | Hero, Tough(3), Caster(2)
Staff (A1)

Hedge Witch [1] Q4+ D5+ | 30pts | Caster(1)
Wand (12", A1)

Acolytes [3] Q5+ D5+ | 30pts
3x Knife (A1)
"""


def coven() -> Army:
    return army(COVEN_TEXT)


def scene(
    where: dict[str, tuple[float, float]],
    *,
    mechanic: str | Mechanic = "d6",
    a: Army | None = None,
) -> GameState:
    """Round 1, side 0 to act, only the units in ``where`` on the table."""
    state = gff.new_game(a or coven(), line(), seed=0, mechanic=mechanic)
    clear_table(state)
    for uid, centre in where.items():
        put(state, uid, centre)
    state.objectives = []
    state.phase = Phase.ACTIVATION
    state.round = 1
    state.active = 0
    return state


def by_test(**results: bool) -> Callable[[Check], bool]:
    """Checks succeed by test name (``casting=True, defense=False``); others fail."""
    return lambda check: results.get(check.test.value, False)


def bolt(value: int, target: str = "B2", boost: int = 0, unit: str = "A1") -> Action:
    return Action(Kind.CAST, unit, target=target, spell="Bolt", value=value, boost=boost)


def no_casting(state: GameState, actions: Sequence[Action]) -> Action:
    return next(a for a in actions if a.kind is not Kind.CAST)


# --- tokens ---------------------------------------------------------------------------------


def test_tokens_arrive_each_round_and_cap_at_six() -> None:
    """seed 003 "Caster(X)": "Gets X spell tokens at the start of each round, but can't hold
    more than 6 tokens at once": Caster(2) holds 2, 4, 6, 6; Caster(1) 1, 2, 3, 4 (never cast)."""
    state = play_setup(gff.new_game(coven(), line(), seed=3), no_casting)
    while not state.done:
        gff.apply(state, no_casting(state, gff.legal_actions(state)))
    events = state.log.of_kind("tokens")
    seer = [e for e in events if e["unit"] == "A1"]
    witch = [e for e in events if e["unit"] == "A2"]
    assert [e["tokens"] for e in seer] == [2, 4, 6, 6]
    assert [e["gained"] for e in seer] == [2, 2, 2, 0]
    assert [e["tokens"] for e in witch] == [1, 2, 3, 4]
    assert {e["unit"] for e in events} == {"A1", "A2"}  # units without Caster get none


def test_caster_rating_reads_x() -> None:
    """seed 003 "Caster(X)": X is the rule's rating; other units are not Casters."""
    units = coven().units
    assert [gff.caster_rating(u) for u in units] == [2, 1, 0]


# --- casting --------------------------------------------------------------------------------


def test_cast_spends_tokens_and_rolls_one_die_for_4_plus() -> None:
    """seed 003 "Caster(X)": "spend as many tokens as the spell's value ... Roll one die, on 4+
    resolve the effect"; casting comes before the unit's action, which is one activation."""
    mech = Scripted(by_test(casting=False))
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 3
    listed = [a for a in gff.legal_actions(state) if a.kind is Kind.CAST]
    assert {a.value for a in listed} == {1, 2, 3} and {a.target for a in listed} == {"B2"}
    gff.apply(state, bolt(2))
    assert state.units["A1"].spell_tokens == 1
    (check,) = mech.of(Test.CASTING)
    assert (check.target, check.modifier, check.owner.unit) == (4, 0, "A1")
    (cast,) = state.log.of_kind("cast")
    assert (cast["value"], cast["success"], cast["boost"], cast["tokens"]) == (2, False, 0, 1)
    assert state.phase == "act" and state.active == 0
    # "only one try per spell": the unit now takes its action, with no second Bolt.
    after = gff.legal_actions(state)
    assert after and all(a.unit == "A1" and a.kind is not Kind.CAST for a in after)
    assert not gff.is_legal(state, bolt(1))
    gff.apply(state, Action(Kind.HOLD, "A1"))
    assert state.activations == 1 and state.units["A1"].activated
    assert len(state.log.of_kind("activate")) == 1


def test_boost_adds_one_per_token_from_friendly_casters_in_reach() -> None:
    """seed 003 "Caster(X)": models within 18" in line of sight of the caster's unit "may spend
    any number of spell tokens at the same time before rolling, to give the caster +1 ... per
    token": the Hedge Witch's 2 tokens give +2 and are spent."""
    mech = Scripted(by_test(casting=False))
    state = scene({"A1": (24.0, 10.0), "A2": (30.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 1
    state.units["A2"].spell_tokens = 2
    assert {a.boost for a in gff.legal_actions(state) if a.unit == "A1"} >= {0, 1, 2}
    assert not gff.is_legal(state, bolt(1, boost=3))  # more than the helpers hold
    gff.apply(state, bolt(1, boost=2))
    (check,) = mech.of(Test.CASTING)
    assert check.modifier == 2
    assert state.units["A2"].spell_tokens == 0 and state.units["A1"].spell_tokens == 0
    assert state.log.of_kind("cast")[0]["helpers"] == {"A2": 2}


def test_no_boost_from_a_caster_beyond_18_inches() -> None:
    """seed 003 "Caster(X)": only models "within 18"" of the caster's unit may add tokens."""
    state = scene({"A1": (24.0, 10.0), "A2": (24.0, 40.0), "B2": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 1
    state.units["A2"].spell_tokens = 2
    assert {a.boost for a in gff.legal_actions(state) if a.kind is Kind.CAST} == {0}
    assert not gff.is_legal(state, bolt(1, boost=1))


def test_clock_casting_adds_3_and_each_boost_token_takes_one_off_down_to_0() -> None:
    """seed 000 "Caster(X)": "add 3 to the clock ... If spending extra spell tokens, subtract
    them from the total (to a minimum of 0)": from 1 the clock goes to 4 unboosted, stays at 1
    with three tokens of boost."""
    for boost, clock in ((0, 4), (1, 3), (3, 1)):
        mech = get_mechanic("clock")
        state = scene({"A1": (24.0, 10.0), "A2": (30.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
        state.units["A1"].spell_tokens = 1
        state.units["A2"].spell_tokens = 3
        gff.apply(state, bolt(1, boost=boost))
        assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
        cast = state.log.of_kind("cast")[0]
        assert cast["success"]
        spells = state.log.of_kind("spell")
        assert spells and spells[0]["hits"] == 2
        # The spell's Defense checks run on side1's clock: side0's clock shows the cast only.
        assert state.mech_state.clocks[mech.clock_key(state.units["A1"].owner)] == clock


def test_the_spell_hits_its_target() -> None:
    """oprlab's Bolt (docs/rules/gff.md "Caster"): value V gives 2V hits at AP(1) on the target;
    every failed block is a wound: 2 hits on the 3 Rifle Squad models remove 2."""
    mech = Scripted(by_test(casting=True, defense=False))
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 1
    gff.apply(state, bolt(1))
    blocks = mech.of(Test.DEFENSE)
    assert len(blocks) == 2 and all(c.modifier == -1 for c in blocks)  # AP(1)
    (spell,) = state.log.of_kind("spell")
    assert (spell["target"], spell["hits"], spell["casualties"]) == ("B2", 2, 2)
    assert state.units["B2"].models == 1


def test_a_failed_cast_does_nothing_but_spend_the_tokens() -> None:
    """seed 003 "Caster(X)": the effect resolves only "on 4+"; the tokens are spent anyway."""
    mech = Scripted(by_test(casting=False, defense=False))
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 3
    gff.apply(state, bolt(3))
    assert not mech.of(Test.DEFENSE) and not state.log.of_kind("spell")
    assert state.units["A1"].spell_tokens == 0 and state.units["B2"].models == 3


def test_a_shaken_caster_must_stay_idle() -> None:
    """seed 003 "Wound Effects": a Shaken unit "must spend one full activation idle": no
    casting."""
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 3
    state.units["A1"].shaken = True
    assert gff.legal_actions(state) == [Action(Kind.IDLE, "A1")]
    with pytest.raises(UserError, match="Shaken"):
        gff.apply(state, bolt(1))


def test_target_must_be_in_sight_within_18_inches() -> None:
    """seed 003 "Caster(X)": "a target in line of sight"; oprlab's Bolt reaches 18"."""
    state = scene({"A1": (24.0, 5.0), "B2": (24.0, 40.0)})
    state.units["A1"].spell_tokens = 3
    assert not any(a.kind is Kind.CAST for a in gff.legal_actions(state))
    assert not gff.is_legal(state, bolt(1))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action(Kind.CAST, "A1", target="B2", spell="Fireball", value=1), "unknown spell"),
        (bolt(4), "value in"),
        (bolt(3), "not enough spell tokens"),
        (bolt(1, boost=-1), "boost"),
        (Action(Kind.HOLD, "A1", value=2), "only casting"),
    ],
)
def test_bad_casts_say_what_is_wrong(action: Action, message: str) -> None:
    """Bad input raises the oprlab error with the bad action and what would be right."""
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 2
    with pytest.raises(UserError, match=message):
        gff.apply(state, action)


def test_rules_commander_casts_its_largest_bolt() -> None:
    """The rules commander casts when it has tokens and a target, at the largest value its
    tokens allow and without boosting."""
    state = scene({"A1": (24.0, 10.0), "B2": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 2
    choice = RulesCommander().choose(state, gff.legal_actions(state))
    assert choice == bolt(2)
    gff.apply(state, choice)
    after = RulesCommander().choose(state, gff.legal_actions(state))
    assert after.kind is not Kind.CAST and after.unit == "A1"


def test_same_seed_same_log_with_casters() -> None:
    """DESIGN "seeded, reproducible play": a game with Casters replays exactly."""
    logs = []
    for _ in range(2):
        _, state = play_game(
            coven(), line(), [get_commander("rules", 7), get_commander("rules", 8)], seed=7
        )
        logs.append(state.log.events)
        assert state.log.of_kind("tokens")
    assert logs[0] == logs[1]


# --- bennies: set a clock -------------------------------------------------------------------


def _gun_post(mechanic: str | Mechanic) -> GameState:
    state = scene({"A3": (24.0, 8.0), "B2": (24.0, 17.0)}, mechanic=mechanic, a=specials())
    gff.apply(state, Action(Kind.HOLD, "A3"))
    assert state.phase == "shoot"
    return state


def test_a_benny_sets_any_clock_before_the_shot() -> None:
    """seed 000 variation 5 "Bennies": "Roll any clock (friend or foe) immediately to any
    value": before shooting, the foe's clock goes to 6; the benny is spent and counted, and only
    one clock is set per activation."""
    mech = get_mechanic("clock-bennies")
    state = _gun_post(mech)
    listed = {(a.target, a.value) for a in gff.legal_actions(state) if a.kind is Kind.SET_CLOCK}
    assert listed == {(uid, v) for uid in ("A3", "B2") for v in range(1, 7)}
    before = gff.bennies_available(state, 0)
    gff.apply(state, Action(Kind.SET_CLOCK, "A3", target="B2", value=6))
    assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
    assert state.mech_state.clocks[mech.clock_key(state.units["B2"].owner)] == 6
    assert gff.bennies_available(state, 0) == before - 1
    (benny,) = state.log.of_kind("benny")
    assert (benny["use"], benny["value"], benny["clock"]) == ("set_clock", 6, ["side1"])
    assert state.phase == "shoot"
    assert not any(a.kind is Kind.SET_CLOCK for a in gff.legal_actions(state))
    assert not gff.is_legal(state, Action(Kind.SET_CLOCK, "A3", target="A3", value=1))


def test_setting_clocks_needs_bennies() -> None:
    """seed 000 variation 5: bennies are spent; with none left (or no clock) there is none."""
    for mechanic, bennies in (("d6", None), ("clock-bennies", 0)):
        state = _gun_post(mechanic)
        if bennies is not None:
            assert isinstance(state.mech_state, ClockState)
            state.mech_state = state.mech_state.with_bennies("side0", bennies)
        act = Action(Kind.SET_CLOCK, "A3", target="A3", value=1)
        assert act not in gff.legal_actions(state)
        with pytest.raises(UserError, match="no bennies"):
            gff.apply(state, act)
    state = _gun_post("clock-bennies")
    for bad in (
        Action(Kind.SET_CLOCK, "A3", target="A3", value=7),
        Action(Kind.SET_CLOCK, "A3", target="Z9", value=1),
    ):
        assert not gff.is_legal(state, bad)


def test_rules_commander_sets_its_clock_to_1_before_a_shot() -> None:
    """With a benny to spare and its clock at 5 (a 4+ shot would roll over), the rules
    commander sets its clock to 1 so the shot's first checks succeed; at 2 it just shoots."""
    for clock, expected in ((5, Kind.SET_CLOCK), (2, Kind.SHOOT)):
        mech = get_mechanic("clock-bennies")
        state = _gun_post(mech)
        assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
        key = mech.clock_key(state.units["A3"].owner)
        state.mech_state = state.mech_state.with_clock(key, clock)
        choice = RulesCommander().choose(state, gff.legal_actions(state))
        assert choice.kind is expected
        if expected is Kind.SET_CLOCK:
            assert (choice.target, choice.value) == ("A3", 1)
            gff.apply(state, choice)
            assert state.mech_state.clocks[key] == 1
