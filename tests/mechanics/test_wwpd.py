"""The WWPD dice convention (seed 004_b5c87f7769291d1c, "Dice Conventions")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Outcome, get_mechanic
from oprlab.mechanics import Test as Kind
from oprlab.mechanics.wwpd import (
    MAX_TARGET,
    MIN_TARGET,
    Wwpd,
    p_success,
    roll_paths,
    sample_successes,
)
from oprlab.prob import Dist
from oprlab.rng import make_rng

SEED = "seed 004_b5c87f7769291d1c"
TARGETS = range(MIN_TARGET, MAX_TARGET + 1)
TWO_DICE = list(itertools.product(range(1, 7), repeat=2))


def text_succeeds(target: int, a: int, b: int, armoured_vehicle: bool = False) -> bool:
    """The clause read literally over a first die ``a`` and a possible reroll ``b``."""
    if target <= 1:  # "re-roll any 1s. If the re-rolled result is also a 1, the roll fails."
        return not (a == 1 and b == 1)
    if target >= 7:  # "re-roll any sixes. If the second result is also a six, it succeeds."
        return not armoured_vehicle and a == 6 and b == 6
    return a >= target


def text_outcomes(target: int) -> Dist[Outcome]:
    """Outcomes by brute force over both dice; the reroll is ignored where none is made."""
    pairs = []
    for a, b in TWO_DICE:
        rerolled = (target <= 1 and a == 1) or (target >= 7 and a == 6)
        shown = b if rerolled else a
        ok = text_succeeds(target, a, b)
        pairs.append((Outcome(ok, shown, False, shown == 1, int(ok)), Fraction(1, 36)))
    return Dist.from_pairs(pairs)


@pytest.mark.parametrize("target", TARGETS)
def test_brute_force_every_target(target: int) -> None:
    """seed 004 "Dice Conventions": every target in range, enumerated over two dice."""
    expected = Fraction(sum(text_succeeds(target, a, b) for a, b in TWO_DICE), 36)
    check = Check(Kind.HIT, target)
    assert p_success(target) == expected
    assert Wwpd().p_success(check) == expected
    assert Wwpd().outcomes(check) == text_outcomes(target)
    assert Wwpd().outcomes(check).probability(lambda o: o.success) == expected


@pytest.mark.parametrize("target", TARGETS)
def test_brute_force_armoured_vehicle(target: int) -> None:
    """seed 004 "Dice Conventions": "You cannot harm a buttoned up tank, if you need a 7 or more."""
    expected = Fraction(sum(text_succeeds(target, a, b, True) for a, b in TWO_DICE), 36)
    check = Check(Kind.TO_WOUND, target, armoured_vehicle=True)
    assert p_success(target, armoured_vehicle=True) == expected
    assert Wwpd().p_success(check) == expected
    assert Wwpd().outcomes(check).probability(lambda o: o.success) == expected


def test_armoured_vehicle_only_matters_to_wound() -> None:
    """seed 004 "Dice Conventions": the exception is for rolling to-wound, not other rolls."""
    assert Wwpd().p_success(Check(Kind.TO_WOUND, 7, armoured_vehicle=True)) == 0
    assert Wwpd().p_success(Check(Kind.SAVE, 7, armoured_vehicle=True)) == Fraction(1, 36)
    assert Wwpd().p_success(Check(Kind.TO_WOUND, 6, armoured_vehicle=True)) == Fraction(1, 6)
    assert Wwpd().outcomes(Check(Kind.TO_WOUND, 9, armoured_vehicle=True)) == Dist.point(
        Outcome(False, 0)
    )


def test_icepool_one_plus_and_seven_plus() -> None:
    """seed 004 "Dice Conventions": 1+ rerolls 1s once, 7+ needs a 6 then a 6 (icepool oracle)."""
    one_plus = icepool.d6.reroll([1], depth=1)
    seven_plus = icepool.d6.reroll([6], depth=1)
    assert p_success(1) == one_plus.probability(">=", 2)
    assert p_success(7) == seven_plus.probability("==", 6)
    for target in range(2, 7):
        assert p_success(target) == icepool.d6.probability(">=", target)
    # The final die shown matches icepool's rerolled die face by face.
    for target, die in ((1, one_plus), (7, seven_plus)):
        naturals = Wwpd().outcomes(Check(Kind.HIT, target)).map(lambda o: o.natural)
        assert {n: naturals[n] for n in range(1, 7)} == {
            n: die.probability("==", n) for n in range(1, 7)
        }


def test_no_graded_scale_above_six() -> None:
    """seed 004 "Dice Conventions", Geek Notes: the graded 7 = 6 then 4+ scale was rejected."""
    assert {p_success(t) for t in range(7, MAX_TARGET + 1)} == {Fraction(1, 36)}
    assert {p_success(t) for t in range(MIN_TARGET, 2)} == {Fraction(35, 36)}


def test_dice_rerolled_at_most_once() -> None:
    """seed 004 "Dice Conventions": "Dice may only ever be re-rolled once"."""
    for target in TARGETS:
        paths = roll_paths(target)
        assert all(1 <= len(p.dice) <= 2 for p in paths)
        assert sum(p.probability for p in paths) == 1
        assert any(len(p.dice) == 2 for p in paths) == (target <= 1 or target >= 7)


def test_modifier_is_folded_in() -> None:
    """seed 004 "Dice Conventions": modifiers may move the target below 2 or above 6."""
    wwpd = Wwpd()
    assert wwpd.difficulty(Check(Kind.HIT, 4, modifier=3)) == 1
    assert wwpd.p_success(Check(Kind.HIT, 4, modifier=3)) == Fraction(35, 36)
    assert wwpd.p_success(Check(Kind.HIT, 4, modifier=-3)) == Fraction(1, 36)
    assert wwpd.p_success(Check(Kind.HIT, 5, replacements=(3,))) == Fraction(2, 3)


def test_outcome_fields() -> None:
    """Outcomes: fumble exactly when a 1 is shown (always a failure); no criticals in WWPD."""
    for target in TARGETS:
        for outcome, _ in Wwpd().outcomes(Check(Kind.HIT, target)).items():
            assert outcome.fumble == (outcome.natural == 1)
            assert not (outcome.fumble and outcome.success)
            assert not outcome.critical
            assert outcome.quality == int(outcome.success)
    assert Wwpd().p_critical(Check(Kind.HIT, 4)) == 0


@pytest.mark.parametrize("target", [MIN_TARGET - 1, MAX_TARGET + 1, 100, -50])
def test_targets_out_of_bounds(target: int) -> None:
    """Targets far off the die are a caller's bug: the error names the allowed range."""
    with pytest.raises(OptionError, match=f"{MIN_TARGET} to {MAX_TARGET}"):
        p_success(target)
    with pytest.raises(OptionError, match=f"{MIN_TARGET} to {MAX_TARGET}"):
        Wwpd().outcomes(Check(Kind.HIT, target))
    with pytest.raises(OptionError):
        Wwpd().sample(Check(Kind.HIT, target), None, make_rng(1).rng)


@pytest.mark.parametrize("test", [Kind.WOUND_EFFECT, Kind.STRIKE, Kind.DEFENCE])
def test_rejects_checks_that_are_not_x_plus(test: Kind) -> None:
    """Marker counts and D100 chances are not WWPD targets."""
    with pytest.raises(OptionError, match="X\\+"):
        Wwpd().outcomes(Check(test, 4))


def test_rejects_unmodified_six_only() -> None:
    """WWPD has no Fatigue-style checks; asking for one is an error, not silently ignored."""
    with pytest.raises(OptionError, match="unmodified"):
        Wwpd().p_success(Check(Kind.HIT, 4, unmodified_six_only=True))


@pytest.mark.parametrize("target", [-2, 1, 3, 6, 7, 12])
def test_sample_matches_outcomes(target: int) -> None:
    """Sampling follows the listed outcomes: seeded frequencies within 5 sigma of exact."""
    rng = make_rng(4004 + target).rng
    wwpd = Wwpd()
    check = Check(Kind.HIT, target)
    exact = wwpd.outcomes(check)
    n = 20_000
    counts: dict[Outcome, int] = {}
    for _ in range(n):
        o = wwpd.sample(check, None, rng)
        counts[o] = counts.get(o, 0) + 1
    assert set(counts) <= set(exact.support)
    for outcome, p in exact.items():
        sigma = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts.get(outcome, 0) / n - float(p)) < 5 * sigma + 1e-9


def test_sample_is_reproducible_and_vehicle_rolls_nothing() -> None:
    """The same seed gives the same dice; an impossible check consumes no randomness."""
    check = Check(Kind.HIT, 7)
    a = [Wwpd().sample(check, None, make_rng(9).rng) for _ in range(3)]
    b = [Wwpd().sample(check, None, make_rng(9).rng) for _ in range(3)]
    assert a == b
    rng = make_rng(5).rng
    untouched = make_rng(5).rng
    out = Wwpd().sample(Check(Kind.TO_WOUND, 8, armoured_vehicle=True), None, rng)
    assert out == Outcome(False, 0)
    assert rng.integers(1, 7) == untouched.integers(1, 7)


@pytest.mark.parametrize("target", [0, 1, 2, 4, 6, 7, 9])
def test_sample_successes_vectorised(target: int) -> None:
    """The numpy fast path counts successes at the exact rate (within 5 sigma)."""
    n = 200_000
    hits = sample_successes(target, n, make_rng(target + 40).rng)
    p = float(p_success(target))
    assert abs(hits / n - p) < 5 * (p * (1 - p) / n) ** 0.5
    assert sample_successes(target, 0, make_rng(1).rng) == 0
    assert sample_successes(7, 1000, make_rng(1).rng, armoured_vehicle=True) == 0


def test_sample_successes_bad_count() -> None:
    """A negative number of dice is refused with the value."""
    with pytest.raises(OptionError, match="0 or more"):
        sample_successes(4, -1, np.random.default_rng(0))


def test_registered_by_name() -> None:
    """The mechanic is found by name in the registry."""
    mechanic = get_mechanic("wwpd")
    assert isinstance(mechanic, Wwpd)
    assert mechanic.p_success(Check(Kind.SAVE, 1)) == Fraction(35, 36)
