"""Enemy Casters' tokens against a spell (seed 003_8abb008d4113ed75 "Caster(X)": "Models within
18" in line of sight of the caster's unit may spend any number of spell tokens at the same time
before rolling, to give the caster +1/-1 to the roll per token"; seed 000_e2a2d86473ae65c4
"Caster(X)" on the clock). The armies are invented."""

from __future__ import annotations

import pytest

from oprlab.errors import UserError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Phase
from oprlab.mechanics import Mechanic, Test, get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.units.model import Army
from tests.game import Scripted, army, clear_table, put
from tests.game.test_gff_casting import by_test, coven

#: A cheap, hard to hurt Caster and a costly, fragile unit to shield.
WARDS_TEXT = """++ Test Wards [GFF 200pts] ++

Iron Mage [1] Q4+ D2+ | 20pts | Tough(6), Caster(2)
Rod (A1)

Crown Guard [1] Q4+ D6+ | 100pts
Halberd (A2)
"""


def _scene(
    where: dict[str, tuple[float, float]],
    *,
    mechanic: str | Mechanic = "d6",
    a: Army | None = None,
    b: Army | None = None,
) -> GameState:
    """Round 1, side 0 to act, only the units in ``where`` on the table."""
    state = gff.new_game(a or coven(), b or coven(), seed=0, mechanic=mechanic)
    clear_table(state)
    for uid, centre in where.items():
        put(state, uid, centre)
    state.objectives = []
    state.phase = Phase.ACTIVATION
    state.round = 1
    state.active = 0
    return state


def _bolt(value: int, target: str = "B3", boost: int = 0, unit: str = "A1") -> Action:
    return Action(Kind.CAST, unit, target=target, spell="Bolt", value=value, boost=boost)


def test_an_enemy_caster_in_reach_may_resist_before_the_roll() -> None:
    """The spell is paid for, then the other side decides (RESIST, 0 allowed); each token is
    -1 to the casting roll and is spent; then the caster takes its action."""
    mech = Scripted(by_test(casting=False))
    state = _scene({"A1": (24.0, 10.0), "B2": (30.0, 20.0), "B3": (24.0, 20.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 2
    state.units["B2"].spell_tokens = 3
    gff.apply(state, _bolt(2))
    assert state.units["A1"].spell_tokens == 0 and mech.of(Test.CASTING) == []
    assert state.phase == "resist" and state.active == 1
    listed = gff.legal_actions(state)
    assert [(a.unit, a.target, a.value) for a in listed] == [("B2", "A1", v) for v in (0, 1, 2)]
    assert gff.is_legal(state, Action(Kind.RESIST, "B2", target="A1", value=3))  # unlisted
    gff.apply(state, Action(Kind.RESIST, "B2", target="A1", value=2))
    (check,) = mech.of(Test.CASTING)
    assert check.modifier == -2 and check.owner.unit == "A1"
    assert state.units["B2"].spell_tokens == 1
    (resist,) = state.log.of_kind("resist")
    assert resist["tokens"] == 2 and resist["casters"] == {"B2": 2}
    (cast,) = state.log.of_kind("cast")
    assert cast["resisted"] == 2
    assert state.phase == "act" and state.active == 0
    assert all(a.unit == "A1" for a in gff.legal_actions(state))


def test_boost_and_resist_add_up_and_the_nearest_enemy_caster_pays_first() -> None:
    """+1 per friendly token, -1 per enemy token on one roll; resisting tokens come from the
    nearest enemy Caster first (docs/rules/gff.md)."""
    mech = Scripted(by_test(casting=True))
    where = {"A1": (24.0, 10.0), "A2": (20.0, 10.0), "B1": (36.0, 20.0), "B2": (28.0, 18.0)}
    state = _scene({**where, "B3": (24.0, 24.0)}, mechanic=mech)
    state.units["A1"].spell_tokens = 1
    state.units["A2"].spell_tokens = 1
    state.units["B1"].spell_tokens = 4
    state.units["B2"].spell_tokens = 1
    gff.apply(state, _bolt(1, boost=1))
    assert [a.value for a in gff.legal_actions(state)] == [0, 1, 2, 3]  # boost + 2
    gff.apply(state, Action(Kind.RESIST, "B1", target="A1", value=3))
    assert mech.of(Test.CASTING)[0].modifier == 1 - 3
    assert state.units["B2"].spell_tokens == 0 and state.units["B1"].spell_tokens == 2
    assert state.log.of_kind("resist")[0]["casters"] == {"B2": 1, "B1": 2}


def test_no_resisting_from_beyond_18_inches_or_without_tokens() -> None:
    """Only Casters "within 18"" holding tokens: otherwise the roll follows at once."""
    for where, tokens in (({"B2": (24.0, 40.0)}, 3), ({"B2": (30.0, 20.0)}, 0)):
        mech = Scripted(by_test(casting=True))
        state = _scene({"A1": (24.0, 10.0), "B3": (24.0, 20.0), **where}, mechanic=mech)
        state.units["A1"].spell_tokens = 1
        state.units["B2"].spell_tokens = tokens
        gff.apply(state, _bolt(1))
        assert state.phase == "act" and len(mech.of(Test.CASTING)) == 1
        assert "resisted" not in state.log.of_kind("cast")[0]


def test_on_the_clock_resisting_tokens_add_to_the_total() -> None:
    """seed 000 "Caster(X)": add 3, extra tokens subtracted (min 0), "If the clock rolls over,
    the spell fails". The other side's tokens are added (the clock's most is 5): from 1, one
    resisting token takes the clock to 5 and the spell works, four take it only to 6 (the most
    is 5); from 2, two take it to 7: it rolls over (to 1) and fails."""
    for start, resist, landing, works in ((1, 1, 5, True), (2, 2, 1, False), (1, 4, 6, True)):
        mech = get_mechanic("clock")
        state = _scene({"A1": (24.0, 10.0), "B2": (30.0, 20.0), "B3": (24.0, 20.0)}, mechanic=mech)
        assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
        key = mech.clock_key(state.units["A1"].owner)
        state.mech_state = state.mech_state.with_clock(key, start)
        state.units["A1"].spell_tokens = 1
        state.units["B2"].spell_tokens = 4
        gff.apply(state, _bolt(1))
        gff.apply(state, Action(Kind.RESIST, "B2", target="A1", value=resist))
        assert isinstance(state.mech_state, ClockState)
        assert state.log.of_kind("cast")[0]["success"] is works
        assert state.mech_state.clocks[key] == landing  # the spell's hits use side B's clock


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Action(Kind.RESIST, "B2", target="A1", value=4), "resist: 0 up to"),
        (Action(Kind.RESIST, "B3", target="A1", value=1), "enemy Caster"),
        (Action(Kind.RESIST, "B2", target="A1", value=1, boost=1), "spell and a boost"),
    ],
)
def test_bad_resists_say_what_is_wrong(action: Action, message: str) -> None:
    """Bad input raises the oprlab error with the bad action and what would be right."""
    state = _scene({"A1": (24.0, 10.0), "B2": (30.0, 20.0), "B3": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 1
    state.units["B2"].spell_tokens = 3
    with pytest.raises(UserError, match="side to act"):  # side A acts: no spell to resist
        gff.apply(state, Action(Kind.RESIST, "B2", target="A1", value=1))
    gff.apply(state, _bolt(1))
    with pytest.raises(UserError, match=message):
        gff.apply(state, action)


def test_rules_commander_resists_only_when_the_saving_beats_the_tokens_worth() -> None:
    """The habit (docs/rules/gff.md): a Bolt on 10-point Acolytes is not worth the tokens (they
    would hurt the Storm Seer more); a Bolt on the 100-point Crown Guard from a Caster its Bolt
    barely hurts is resisted to the most that still changes the roll (boost + 2)."""
    rules = get_commander("rules")
    state = _scene({"A1": (24.0, 10.0), "B2": (30.0, 20.0), "B3": (24.0, 20.0)})
    state.units["A1"].spell_tokens = 1
    state.units["B2"].spell_tokens = 3
    gff.apply(state, _bolt(1))
    assert rules.choose(state, gff.legal_actions(state)).value == 0
    wards = army(WARDS_TEXT)
    state = _scene({"A1": (24.0, 10.0), "B1": (30.0, 20.0), "B2": (24.0, 20.0)}, a=wards, b=wards)
    state.units["A1"].spell_tokens = 1
    state.units["B1"].spell_tokens = 3
    gff.apply(state, _bolt(1, target="B2"))
    choice = rules.choose(state, gff.legal_actions(state))
    assert choice.kind is Kind.RESIST and choice.value == 2
    random = get_commander("random", 1)
    assert random.choose(state, gff.legal_actions(state)) in gff.legal_actions(state)
