"""Caster(X) as both procedures play it (``oprlab.game.casting``).

Seed 003_8abb008d4113ed75 "Caster(X)": X tokens at the start of each round, at most 6; one try
per spell, paying its value; models within 18" in line of sight may add +1/-1 per token; one
die, 4+. The line of sight and the targets are the systems' (given here as plain functions).
The armies are invented.
"""

from __future__ import annotations

from oprlab.game import casting, gff, riverside
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.mechanics import Test
from tests.game import army, clear_table, put

COVEN_TEXT = """++ Test Coven [GFF 150pts] ++

Storm Seer [1] Q4+ D5+ | 40pts | Hero, Tough(3), Caster(2)
Staff (A1)

Hedge Witch [1] Q4+ D5+ | 30pts | Caster(1)
Wand (12", A1)

Marsh Witch [1] Q4+ D5+ | 30pts | Caster(3)
Wand (12", A1)
"""


def _scene(where: dict[str, tuple[float, float]], tokens: dict[str, int]) -> GameState:
    state = gff.new_game(army(COVEN_TEXT), army(COVEN_TEXT), seed=0)
    clear_table(state)
    for uid, centre in where.items():
        put(state, uid, centre)
        state.units[uid].spell_tokens = tokens.get(uid, 0)
    return state


def test_tokens_each_round_at_most_six() -> None:
    """seed 003 "Caster(X)": gets X tokens at the start of each round, never more than 6."""
    state = riverside.new_game(army(COVEN_TEXT), army(COVEN_TEXT), seed=0)
    state.units["A3"].spell_tokens = 5
    casting.give_spell_tokens(state)
    assert state.units["A1"].spell_tokens == 2 and state.units["A2"].spell_tokens == 1
    assert state.units["A3"].spell_tokens == casting.SPELL_TOKENS_MAX
    gained = {e["unit"]: e["gained"] for e in state.log.of_kind("tokens")}
    assert gained["A3"] == 1


def test_casters_near_within_18_seeing_nearest_first() -> None:
    """seed 003 "Caster(X)": helpers "within 18" in line of sight", with tokens; nearest first."""
    state = _scene(
        {"A1": (10.0, 10.0), "A2": (10.0, 25.0), "A3": (10.0, 18.0), "B1": (10.0, 40.0)},
        {"A1": 2, "A2": 1, "A3": 3, "B1": 2},
    )
    us = state.units["A1"]
    units = list(state.units.values())
    near = casting.casters_near(us, units, lambda f: True)
    assert [f.uid for f in near] == ["A3", "A2"]  # B1 beyond 18", A1 itself never
    blind = casting.casters_near(us, units, lambda f: f.uid != "A3")
    assert [f.uid for f in blind] == ["A2"]
    state.units["A2"].spell_tokens = 0
    assert [f.uid for f in casting.casters_near(us, units, lambda f: True)] == ["A3"]


def test_pay_takes_nearest_first() -> None:
    """Tokens come from the nearest helper first; what each paid is returned by uid."""
    state = _scene({"A2": (10.0, 10.0), "A3": (20.0, 10.0)}, {"A2": 1, "A3": 3})
    paid = casting.pay([state.units["A2"], state.units["A3"]], 3)
    assert paid == {"A2": 1, "A3": 2}
    assert state.units["A2"].spell_tokens == 0 and state.units["A3"].spell_tokens == 1


def test_casting_check_is_a_four_plus_with_boost_and_resist() -> None:
    """seed 003 "Caster(X)": a 4+, +1 per boosting token, -1 per resisting token."""
    state = _scene({"A1": (10.0, 10.0)}, {"A1": 2})
    check = casting.casting_check(state.units["A1"], boost=2, resist=3)
    assert check.test is Test.CASTING and check.target == 4 and check.modifier == -1


def test_cast_actions_list_each_value_target_and_boost() -> None:
    """One try per spell, values the tokens pay for, every target, boosts up to the spare."""
    state = _scene({"A1": (10.0, 10.0)}, {"A1": 2})
    us = state.units["A1"]
    acts = casting.cast_actions(us, (), 1, lambda sp: ["B1", "B2"])
    assert {(a.value, a.target, a.boost) for a in acts} == {
        (v, t, b) for v in (1, 2) for t in ("B1", "B2") for b in (0, 1)
    }
    assert all(a.kind is Kind.CAST and a.spell == "Bolt" for a in acts)
    assert casting.cast_actions(us, ("Bolt",), 1, lambda sp: ["B1"]) == []


def test_cast_problem_says_what_is_wrong() -> None:
    state = _scene({"A1": (10.0, 10.0)}, {"A1": 2})
    us = state.units["A1"]

    def problem(a: Action, tried: tuple[str, ...] = (), spare: int = 0) -> str | None:
        helper = state.units["A2"]
        helper.spell_tokens = spare
        return casting.cast_problem(us, a, tried, lambda sp: ["B1"], lambda: [helper])

    def bolt(value: int = 1, target: str = "B1", boost: int = 0) -> Action:
        return Action(Kind.CAST, "A1", target=target, spell="Bolt", value=value, boost=boost)

    assert problem(bolt()) is None
    assert problem(bolt(boost=1), spare=1) is None
    assert "unknown spell" in str(problem(Action(Kind.CAST, "A1", spell="Fog", value=1)))
    assert "one try" in str(problem(bolt(), tried=("Bolt",)))
    assert "not enough" in str(problem(bolt(value=3)))
    assert "line of sight" in str(problem(bolt(target="B2")))
    assert "boost" in str(problem(bolt(boost=2), spare=1))
    assert casting.spell("Bolt") is casting.SPELLS[0] and casting.spell("Fog") is None
