"""The special rules Diceless OPR translates (seed 000_e2a2d86473ae65c4 "Other Rules"), as data,
and played through the clock where the seed gives the effect."""

from __future__ import annotations

import pytest

from oprlab.errors import OptionError, UnknownNameError
from oprlab.mechanics.base import Check, Owner, Test
from oprlab.mechanics.clock import Clock, ClockState, increment
from oprlab.mechanics.dopr_rules import (
    DOPR_RULES,
    Condition,
    LandingSix,
    dopr_rule,
    rules_affecting,
)

RED = Owner("red", "raiders")
CLOCK = Clock()

SEED_RULES = [
    "Aircraft",
    "AP",
    "Caster",
    "Entrenched",
    "Fearless",
    "Furious",
    "Impact",
    "Indirect",
    "Poison",
    "Regeneration",
    "Relentless",
    "Rending",
    "Stealth",
]


def at(value: int) -> ClockState:
    return ClockState({("red",): value})


def test_every_listed_rule_is_translated() -> None:
    """seed 000 "Other Rules": the thirteen listed rules, each with a one-line summary."""
    assert sorted(r.name for r in DOPR_RULES.values()) == sorted(SEED_RULES)
    for rule in DOPR_RULES.values():
        assert rule.summary and "\n" not in rule.summary and len(rule.summary) <= 100
        assert rule.affects


@pytest.mark.parametrize(
    ("name", "test", "target", "adds"),
    [
        ("Regeneration", Test.REGENERATION, 5, 4),
        ("Fearless", Test.MORALE, 4, 3),
        ("Caster", Test.CASTING, 4, 3),
        ("Impact", Test.HIT, 2, 1),
    ],
)
def test_rules_that_are_checks(name: str, test: Test, target: int, adds: int) -> None:
    """seed 000 "Other Rules": Regeneration adds 4, Fearless and Caster add 3, Impact is Q2+
    and adds 1; the clock agrees with the data."""
    rule = dopr_rule(name)
    assert (rule.check, rule.target, rule.increment) == (test, target, adds)
    assert increment(Check(test, target)) == adds


@pytest.mark.parametrize(
    ("name", "test", "adjustment", "condition"),
    [
        ("Aircraft", Test.HIT, 1, Condition.ALWAYS),
        ("Entrenched", Test.HIT, 2, Condition.OVER_12_INCHES),
        ("Indirect", Test.HIT, 1, Condition.SHOOTING_AFTER_MOVING),
        ("Stealth", Test.HIT, 1, Condition.OVER_12_INCHES),
        ("Poison", Test.REGENERATION, 1, Condition.ALWAYS),
        ("Rending", Test.REGENERATION, 1, Condition.ALWAYS),
    ],
)
def test_penalties(name: str, test: Test, adjustment: int, condition: Condition) -> None:
    """seed 000 "Other Rules": Aircraft, Indirect, Stealth add 1 to the attack, Entrenched 2;
    Poison and Rending add 1 to Regeneration checks."""
    rule = dopr_rule(name)
    assert (rule.adjusts, rule.adjustment_for(), rule.condition) == (test, adjustment, condition)


def test_ap_adds_x_to_defense() -> None:
    """seed 000 "Other Rules" AP(X): the defender adds X to its Defense increment."""
    ap = dopr_rule("AP(2)")
    assert ap.adjusts is Test.DEFENSE and ap.adjustment_for(2) == 2 and ap.takes_x
    check = Check(Test.DEFENSE, 3, modifier=-ap.adjustment_for(2))
    assert increment(check) == 4


def test_ratings_are_checked() -> None:
    """A rated rule needs its X; an unrated one takes none."""
    with pytest.raises(OptionError, match=r"AP\(X\) needs its rating"):
        dopr_rule("AP").adjustment_for()
    with pytest.raises(OptionError, match="takes no rating"):
        dopr_rule("Stealth").adjustment_for(1)


@pytest.mark.parametrize(
    ("name", "test", "effect", "condition"),
    [
        ("Furious", Test.HIT, LandingSix.DOUBLE_HIT, Condition.WHEN_CHARGING),
        ("Relentless", Test.HIT, LandingSix.DOUBLE_HIT, Condition.AS_WRITTEN),
        ("Rending", Test.HIT, LandingSix.AP4, Condition.ALWAYS),
        ("Poison", Test.DEFENSE, LandingSix.SECOND_DEFENSE, Condition.ALWAYS),
    ],
)
def test_landing_six_effects(
    name: str, test: Test, effect: LandingSix, condition: Condition
) -> None:
    """seed 000 "Other Rules": Furious (charging) and Relentless double a hit landing on 6
    before modifiers; Rending gives it AP(4); Poison's Defense landing on 6 needs a second
    check."""
    rule = dopr_rule(name)
    assert (rule.landing_six_on, rule.landing_six, rule.condition) == (test, effect, condition)


def test_caster_minimum_is_zero() -> None:
    """seed 000 "Caster(X)": spent tokens subtract down to 0, unlike the general 1..5 clamp."""
    caster = dopr_rule("Caster")
    assert caster.min_increment == 0 and caster.subtracts_spent_tokens
    assert all(r.min_increment == 1 for r in DOPR_RULES.values() if r is not caster)
    assert increment(Check(Test.CASTING, 4, modifier=+4)) == 0


def test_regeneration_on_the_clock() -> None:
    """seed 000 "Regeneration": increment by 4; if the clock does not roll over, the wound is
    ignored."""
    regen = dopr_rule("Regeneration")
    assert regen.check is not None and regen.target is not None
    check = Check(regen.check, regen.target, owner=RED)
    assert CLOCK.resolve(check, at(2)).success
    assert not CLOCK.resolve(check, at(3)).success


def test_rending_adds_one_to_regeneration() -> None:
    """seed 000 "Rending": Regeneration against it adds 5 instead of 4. Under the literal
    unmodified-6 rule the one position the +1 would flip (clock 2: lands 6 unmodified) is saved,
    so the penalty only moves the clock further; with overrides off it flips that check."""
    rending = dopr_rule("Rending")
    check = Check(Test.REGENERATION, 5, modifier=-rending.adjustment_for(), owner=RED)
    plain = Check(Test.REGENERATION, 5, owner=RED)
    assert increment(check) == 5
    literal = CLOCK.resolve(check, at(2))
    assert literal.success and literal.natural == 6
    assert literal.state != CLOCK.resolve(plain, at(2)).state
    assert not Clock(overrides=False).resolve(check, at(2)).success
    for start in range(1, 7):
        assert CLOCK.resolve(check, at(start)).success == CLOCK.resolve(plain, at(start)).success


def test_poison_second_defense_usually_fails() -> None:
    """seed 000 "Poison": an unmodified Defense landing on 6 forces a second check, which fails
    from a clock left at 6 unless the first check's modifiers moved the clock elsewhere."""
    first = CLOCK.resolve(Check(Test.DEFENSE, 4, owner=RED), at(3))
    assert first.natural == 6 and first.success
    second = CLOCK.resolve(Check(Test.DEFENSE, 4, owner=RED), first.state)
    assert not second.success
    penalised = CLOCK.resolve(Check(Test.DEFENSE, 4, modifier=-1, owner=RED), at(3))
    assert penalised.natural == 6 and penalised.success  # clock rolled over to 1
    assert CLOCK.resolve(Check(Test.DEFENSE, 4, owner=RED), penalised.state).success


def test_lookup_and_filter() -> None:
    """Names are found case-insensitively, with or without a rating; unknown names say so."""
    assert dopr_rule("  rending ") is dopr_rule("Rending")
    assert dopr_rule("Impact(3)").name == "Impact"
    assert dopr_rule("AP (4)").name == "AP"
    with pytest.raises(UnknownNameError, match="no translation"):
        dopr_rule("Tough(3)")
    assert [r.name for r in rules_affecting(Test.REGENERATION)] == [
        "Poison",
        "Regeneration",
        "Rending",
    ]
    assert dopr_rule("Rending").affects == (Test.REGENERATION, Test.HIT)
