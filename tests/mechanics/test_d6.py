"""The OPR d6 roll (seeds 002 "Rolling Dice", "Critical Hit Abilities"; 003 general principles,
wound effects, Tough), checked against hand-derived odds, brute force and icepool."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Test
from oprlab.mechanics.d6 import D6, face_outcome, face_table, outcome_table, resolve_faces
from oprlab.mechanics.registry import describe, get_mechanic

D6_MECHANIC = D6()
OPR_TESTS = [t for t in Test if t not in {Test.TO_WOUND, Test.SAVE, Test.STRIKE, Test.DEFENCE}]
ROLL_TESTS = [t for t in OPR_TESTS if t is not Test.WOUND_EFFECT]


def succeeding_faces(check: Check) -> list[int]:
    return [o.natural for o, _ in D6_MECHANIC.outcomes(check).items() if o.success]


def oracle(check: Check, face: int) -> tuple[bool, bool]:
    """An independent reading of the rules text: (success, critical) for one face."""
    if check.test is Test.WOUND_EFFECT:
        return face + check.target - check.modifier < 5 + check.tough, False
    # A replacement replaces the base difficulty; the roller orders them so the lowest stands.
    needed = (min(check.replacements) if check.replacements else check.target) - check.modifier
    ok = face == 6 or (face != 1 and face >= needed and not check.unmodified_six_only)
    return ok, ok and face >= check.critical_from


def test_quality_test_succeeds_on_target_or_higher() -> None:
    """seed 003 "Quality Tests": score the quality value or higher; Q4+ succeeds on 4, 5, 6."""
    assert succeeding_faces(Check(Test.HIT, 4)) == [4, 5, 6]
    assert D6_MECHANIC.p_success(Check(Test.QUALITY, 4)) == Fraction(1, 2)


def test_cover_modifier_lowers_difficulty() -> None:
    """seed 002 "Rolling Dice": Defense 4 in Cover (+1) is a 3+; a 3 defends."""
    check = Check(Test.DEFENSE, 4, modifier=+1)
    assert succeeding_faces(check) == [3, 4, 5, 6]


def test_replacements_then_modifiers_example_1() -> None:
    """seed 002 "Rolling Dice" Example 1: Q5, Good Shot (4+), Reliable (2+), Stealth -> 3+."""
    check = Check(Test.HIT, 5, replacements=(4, 2), modifier=-1)
    assert succeeding_faces(check) == [3, 4, 5, 6]
    # The roller picks the order of replacements, so the lowest stands whatever the order given.
    assert D6_MECHANIC.outcomes(Check(Test.HIT, 5, replacements=(2, 4), modifier=-1)) == (
        D6_MECHANIC.outcomes(check)
    )


def test_ap4_only_natural_six_example_2() -> None:
    """seed 002 "Rolling Dice" Example 2: AP 4 against Defense 4 (or 5): only a natural 6."""
    for defense in (4, 5):
        assert succeeding_faces(Check(Test.DEFENSE, defense, modifier=-4)) == [6]


def test_natural_one_always_fails_and_six_always_succeeds() -> None:
    """seed 002 "Rolling Dice" / seed 003 "Modifiers": 1 always fails, 6 always succeeds."""
    assert succeeding_faces(Check(Test.HIT, 2, modifier=+3)) == [2, 3, 4, 5, 6]
    assert succeeding_faces(Check(Test.DEFENSE, 6, modifier=-5)) == [6]


def test_fatigue_hits_only_on_unmodified_six() -> None:
    """seed 003 "Fatigue": only unmodified results of 6 hit, whatever the bonuses."""
    assert succeeding_faces(Check(Test.HIT, 2, modifier=+2, unmodified_six_only=True)) == [6]


def test_critical_hit_is_a_six() -> None:
    """seed 002 "Critical Hit": rolls of 6 are Critical Hits, even when a penalty makes 6 the
    only success."""
    dist = D6_MECHANIC.outcomes(Check(Test.HIT, 4, modifier=-3))
    assert [o.natural for o, _ in dist.items() if o.critical] == [6]
    assert D6_MECHANIC.p_critical(Check(Test.HIT, 4, modifier=-3)) == Fraction(1, 6)


def test_critical_extended_to_five_must_succeed() -> None:
    """seed 002 "Critical Hit": extended to 5, that roll must succeed to be critical."""
    assert face_outcome(Check(Test.HIT, 4, critical_from=5), 5).critical
    failing = face_outcome(Check(Test.HIT, 6, modifier=-1, critical_from=5), 5)
    assert not failing.success and not failing.critical
    assert D6_MECHANIC.p_critical(Check(Test.HIT, 6, modifier=-1, critical_from=5)) == Fraction(
        1, 6
    )


def test_fumble_is_a_natural_one() -> None:
    """seed 002 "Rolling Dice": a natural 1 is reported as a fumble, on any check."""
    fumbles = [o.natural for o, _ in D6_MECHANIC.outcomes(Check(Test.HIT, 2)).items() if o.fumble]
    assert fumbles == [1]


def test_wound_effect_table() -> None:
    """seed 003 "Wound Effects": die + markers, 1-5 Shaken (stays), 6+ Knocked Out."""
    one_marker = Check(Test.WOUND_EFFECT, 1)
    assert succeeding_faces(one_marker) == [1, 2, 3, 4]
    assert D6_MECHANIC.p_success(Check(Test.WOUND_EFFECT, 2)) == Fraction(3, 6)


def test_tough_example() -> None:
    """seed 003 "Tough(X)": Tough(3) with 3 wounds is Knocked Out on 8+, i.e. die 5 or 6."""
    assert succeeding_faces(Check(Test.WOUND_EFFECT, 3, tough=3)) == [1, 2, 3, 4]
    assert succeeding_faces(Check(Test.WOUND_EFFECT, 4, tough=3)) == [1, 2, 3]


def test_shaken_gets_plus_one_to_wound_effect() -> None:
    """seed 003 "Wound Effects": Shaken gets +1 to wound effect rolls (modifier -1 here)."""
    assert succeeding_faces(Check(Test.WOUND_EFFECT, 1, modifier=-1)) == [1, 2, 3]


def test_wound_effect_has_no_natural_overrides() -> None:
    """seed 003 "Wound Effects" is a table lookup: a 1 with 5 markers is still 6+ (Knocked
    Out), and a 6 with no net markers above Tough is not forced either way."""
    assert not face_outcome(Check(Test.WOUND_EFFECT, 5), 1).success
    assert face_outcome(Check(Test.WOUND_EFFECT, 1, tough=3), 6).success
    assert not face_outcome(Check(Test.WOUND_EFFECT, 1), 6).critical


@given(
    markers=st.integers(0, 8),
    tough=st.integers(1, 6),
    shaken=st.booleans(),
)
def test_wound_effect_matches_icepool(markers: int, tough: int, shaken: bool) -> None:
    """seed 003 "Wound Effects", "Tough(X)": P(Knocked Out) = P(d6 + markers (+1) >= 5 + X)."""
    check = Check(Test.WOUND_EFFECT, markers, modifier=-1 if shaken else 0, tough=tough)
    expected = (icepool.d6 + markers + int(shaken)).probability(">=", 5 + tough)
    assert 1 - D6_MECHANIC.p_success(check) == Fraction(expected)


check_strategy = st.builds(
    Check,
    test=st.sampled_from(ROLL_TESTS),
    target=st.integers(2, 6),
    replacements=st.lists(st.integers(2, 6), max_size=2).map(tuple),
    modifier=st.integers(-6, 6),
    critical_from=st.integers(2, 6),
    unmodified_six_only=st.booleans(),
)


@given(check_strategy)
def test_probabilities_sum_to_one_and_match_brute_force(check: Check) -> None:
    """seed 002 "Rolling Dice": the listed outcomes are the six faces, each 1/6."""
    dist = D6_MECHANIC.outcomes(check)
    assert sum(p for _, p in dist.items()) == 1
    for face in range(1, 7):
        outcome = next(o for o, _ in dist.items() if o.natural == face)
        assert dist[outcome] == Fraction(1, 6)
        assert (outcome.success, outcome.critical) == oracle(check, face)
        assert outcome.quality == int(outcome.success)
        assert outcome.fumble == (face == 1)


@given(check_strategy)
def test_p_success_matches_icepool(check: Check) -> None:
    """seed 002 "Rolling Dice": P(success) equals icepool's d6 under the same difficulty."""
    needed = (min(check.replacements) if check.replacements else check.target) - check.modifier
    if check.unmodified_six_only:
        expected = Fraction(1, 6)
    else:
        expected = Fraction(icepool.d6.probability(">=", min(6, max(2, needed))))
    assert D6_MECHANIC.p_success(check) == expected


def test_equal_outcomes_merge() -> None:
    """Outcomes of one face are distinct; the distribution keeps all six, summing to 1."""
    dist = D6_MECHANIC.outcomes(Check(Test.WOUND_EFFECT, 2))
    assert len(dist) == 6
    assert dist.probability(lambda o: not o.success) == Fraction(3, 6)


def test_sample_uses_one_draw_per_check() -> None:
    """sample() consumes exactly one rng.integers call: the same stream gives the same faces."""
    check = Check(Test.HIT, 4)
    a, b = np.random.default_rng(7), np.random.default_rng(7)
    sampled = [D6_MECHANIC.sample(check, None, a).natural for _ in range(50)]
    assert sampled == [int(b.integers(6)) + 1 for _ in range(50)]


def test_sample_frequency_agrees_with_outcomes() -> None:
    """Sampled success frequency for Q3+ (p = 2/3) over 60,000 draws, seed 2024, lies within
    five standard errors (0.0096) of the exact probability."""
    check = Check(Test.HIT, 3)
    rng = np.random.default_rng(2024)
    n = 60_000
    hits = sum(D6_MECHANIC.sample(check, None, rng).success for _ in range(n))
    p = float(D6_MECHANIC.p_success(check))
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5


@given(check_strategy)
def test_face_table_matches_outcomes(check: Check) -> None:
    """The vectorised table and resolve_faces agree with the per-face outcomes."""
    success, critical = face_table(check)
    table = outcome_table(check)
    assert list(success) == [o.success for o in table]
    assert list(critical) == [o.critical for o in table]
    faces = np.array([6, 1, 3, 3, 5])
    s, c = resolve_faces(check, faces)
    assert list(s) == [table[f - 1].success for f in faces]
    assert list(c) == [table[f - 1].critical for f in faces]
    with pytest.raises(ValueError):
        success[0] = not success[0]  # read-only: cached tables cannot be corrupted


def test_vectorised_monte_carlo_agrees() -> None:
    """One rng.integers call for many dice, looked up at once; frequency within 5 SE."""
    check = Check(Test.DEFENSE, 5, modifier=+1)
    faces = np.random.default_rng(11).integers(1, 7, size=100_000)
    success, _ = resolve_faces(check, faces)
    p = float(D6_MECHANIC.p_success(check))
    assert abs(success.mean() - p) < 5 * (p * (1 - p) / faces.size) ** 0.5


@pytest.mark.parametrize(
    ("check", "message"),
    [
        (Check(Test.HIT, 7), "difficulty out of range"),
        (Check(Test.HIT, 1), "difficulty out of range"),
        (Check(Test.HIT, 4, replacements=(1,)), "difficulty out of range"),
        (Check(Test.HIT, 4, critical_from=1), "critical_from"),
        (Check(Test.HIT, 4, critical_from=7), "critical_from"),
        (Check(Test.TO_WOUND, 4), "OPR checks only"),
        (Check(Test.WOUND_EFFECT, -1), "wound markers"),
        (Check(Test.WOUND_EFFECT, 1, tough=0), "Tough"),
        (Check(Test.WOUND_EFFECT, 1, replacements=(2,)), "table lookup"),
        (Check(Test.WOUND_EFFECT, 1, unmodified_six_only=True), "table lookup"),
    ],
)
def test_bad_checks_raise_option_error(check: Check, message: str) -> None:
    """Bad inputs name the value and what would be right."""
    with pytest.raises(OptionError, match=message) as info:
        D6_MECHANIC.outcomes(check)
    assert info.value.expected


def test_registered_as_d6() -> None:
    """The module registers itself at import as "d6", with a summary."""
    assert isinstance(get_mechanic("d6"), D6)
    assert dict(describe())["d6"]
    assert repr(D6()) == "D6()"
