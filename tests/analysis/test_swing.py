"""Measures of swing against hand-computed values, and the clock over its starting values
against a brute-force replay of the clock written here from seed 000."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from oprlab.analysis.odds import Situation, attack_odds
from oprlab.analysis.swing import (
    StartedClock,
    clock_start_odds,
    entropy_bits,
    mixture,
    p_far,
    pmf_mean,
    pmf_sd,
    sample_clock_starts,
    swing,
)
from oprlab.errors import OptionError
from oprlab.mechanics import Check, Owner, Test
from oprlab.units.model import Rule, Unit, Weapon

#: Two Q4+ shots, no special rules; targets of Defense 3+ and 4+.
SHOOTERS = Unit("Test Shooters", 2, 4, 4, cost=40, weapons=(Weapon("Rifle", 1, range=24, count=2),))
LINE = Unit("Test Line", 5, 4, 4, cost=50)
ONE_SHOT = Unit("Seed Shooter", 1, 4, 4, cost=10, weapons=(Weapon("Rifle", 1, range=24),))
D3_TARGET = Unit("Seed Target", 1, 4, 3, cost=10)


# --- measures ------------------------------------------------------------------------------


def test_fair_coin() -> None:
    """P(0) = P(1) = 1/2: mean 1/2, sd 1/2, one bit, never 2 away from the mean."""
    s = swing([0.5, 0.5])
    assert s.mean == pytest.approx(0.5)
    assert s.sd == pytest.approx(0.5)
    assert s.entropy_bits == pytest.approx(1.0)
    assert s.p_far == 0.0
    assert s.p_off_by_1 == 0.0  # |0 - 0.5| = |1 - 0.5| = 0.5 < 1


def test_uniform_0_to_4() -> None:
    """Uniform on 0..4: mean 2, variance (4+1+0+1+4)/5 = 2, log2(5) bits, P(far) = P(0)+P(4)."""
    pmf = [0.2] * 5
    assert pmf_mean(pmf) == pytest.approx(2.0)
    assert pmf_sd(pmf) == pytest.approx(math.sqrt(2.0))
    assert entropy_bits(pmf) == pytest.approx(math.log2(5))
    assert p_far(pmf) == pytest.approx(0.4)
    assert p_far(pmf, 1) == pytest.approx(0.8)
    assert p_far(pmf, 3) == 0.0


def test_binomial_4_half() -> None:
    """Binomial(4, 1/2) = (1, 4, 6, 4, 1)/16: mean 2, sd 1, entropy by hand, P(far) = 2/16."""
    pmf = [1 / 16, 4 / 16, 6 / 16, 4 / 16, 1 / 16]
    by_hand = 2 * (1 / 16) * 4 + 2 * (4 / 16) * 2 + (6 / 16) * math.log2(16 / 6)
    assert pmf_mean(pmf) == pytest.approx(2.0)
    assert pmf_sd(pmf) == pytest.approx(1.0)
    assert entropy_bits(pmf) == pytest.approx(by_hand)
    assert p_far(pmf) == pytest.approx(2 / 16)


def test_certain_result_has_no_swing() -> None:
    s = swing([0.0, 0.0, 1.0])
    assert (s.mean, s.sd, s.entropy_bits, s.p_far, s.p_off_by_1) == (2.0, 0.0, 0.0, 0.0, 0.0)


def test_far_counts_a_result_exactly_at_the_distance() -> None:
    """Thirds on 0, 1, 2: the float mean is 1 give or take rounding; 0 and 2 are 1 away."""
    third = 1 / 3
    assert p_far([third, third, third], 1) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "pmf", [[], [1.5, -0.5], [0.5, 0.4], [float("nan"), 1.0]], ids=["empty", "neg", "sum", "nan"]
)
def test_bad_pmfs_are_refused(pmf: list[float]) -> None:
    with pytest.raises(OptionError):
        swing(pmf)


def test_far_distance_must_be_positive() -> None:
    with pytest.raises(OptionError, match="positive"):
        p_far([1.0], 0)


def test_mixture() -> None:
    assert mixture([[1.0], [0.0, 1.0]]) == [0.5, 0.5]
    assert mixture([[1.0], [0.0, 0.0, 1.0]], [0.25, 0.75]) == [0.25, 0.0, 0.75]
    with pytest.raises(OptionError):
        mixture([[1.0]], [0.5, 0.5])
    with pytest.raises(OptionError):
        mixture([])


# --- the clock from given starts -------------------------------------------------------------


def test_seed_example_quality_and_defense_checks() -> None:
    """seed 000_e2a2d86473ae65c4 "Quality and Defense Checks": a Q4+ unit attacks a D3+
    unit; the attacker's clock at 2 goes to 5 (hit), the defender's at 5 would reach 7 and
    rolls over to 1 (the Defense check fails). "Wound Checks": the clock at 1 adds 1 + 1
    marker, lands on 3, does not roll over: stunned, not knocked out."""
    result = clock_start_odds(ONE_SHOT, D3_TARGET, starts=[(2, 5)]).result
    assert result.hits.pmf == (0.0, 1.0)
    assert result.wounds.pmf == (0.0, 1.0)
    assert result.casualties.pmf == (1.0,)
    assert result.p_destroyed == 0.0 and result.p_shaken == 1.0


def test_seed_example_swapped_starts_miss() -> None:
    """seed 000_e2a2d86473ae65c4 "Quality and Defense Checks": with the attacker's clock at
    5, adding 3 rolls over (8 -> 2) and the attack fails: starts are (attacker, defender)."""
    result = clock_start_odds(ONE_SHOT, D3_TARGET, starts=[(5, 2)]).result
    assert result.hits.pmf == (1.0,)


def test_started_clock_sets_clocks_in_order_of_first_use() -> None:
    clock = StartedClock((3, 6))
    first = clock.resolve(Check(Test.HIT, 4, owner=Owner("a", "a")))
    assert first.natural == 6 and first.success  # 3 + 3
    second = clock.resolve(Check(Test.DEFENSE, 2, owner=Owner("b", "b")), first.state)
    assert second.natural == 1 and not second.success  # 6 + 1 rolls over to 1
    again = clock.resolve(Check(Test.HIT, 4, owner=Owner("a", "a")), second.state)
    assert again.natural == 3  # the attacker's clock kept its 6, + 3 -> 9 -> 3


def test_started_clock_refuses_bad_starts() -> None:
    with pytest.raises(OptionError):
        StartedClock((0, 1))
    with pytest.raises(OptionError):
        StartedClock(())


def _replay(attacker_start: int, defender_start: int, dice: int, quality: int, defense: int) -> int:
    """Seed 000 by hand: each die adds Q - 1 to the attacker's clock (rolling over past 6
    fails), then each hit adds D - 1 to the defender's; returns the wounds."""
    clock, hits = attacker_start, 0
    for _ in range(dice):
        clock += quality - 1
        if clock > 6:
            clock -= 6
        else:
            hits += 1
    clock, wounds = defender_start, 0
    for _ in range(hits):
        clock += defense - 1
        if clock > 6:
            clock -= 6
            wounds += 1
    return wounds


def test_all_36_starts_match_a_brute_force_replay() -> None:
    """seed 000_e2a2d86473ae65c4 "Random Clocks": each clock starts on a d6, so the attack's
    law is the mixture over the 36 start pairs; checked against a replay written here."""
    mixed = clock_start_odds(SHOOTERS, LINE)
    counts = Counter(_replay(a, d, 2, 4, 4) for a in range(1, 7) for d in range(1, 7))
    expected = tuple(float(Fraction(counts[k], 36)) for k in range(max(counts) + 1))
    assert mixed.result.wounds.pmf == pytest.approx(expected)
    assert len(mixed.starts) == 36 and len(mixed.outcomes) == 36
    for (a, d), out in zip(mixed.starts, mixed.outcomes, strict=True):
        assert out.wounds == _replay(a, d, 2, 4, 4)


@pytest.mark.parametrize("variant", ["clock", "clock-unit", "clock-global", "clock-bennies"])
def test_start_1_is_the_variant_s_own_default(variant: str) -> None:
    """The default start (all clocks at 1) played through StartedClock equals attack_odds."""
    ours = clock_start_odds(SHOOTERS, LINE, mechanic=variant, starts=[(1, 1)]).result
    theirs = attack_odds(SHOOTERS, LINE, mechanic=variant)
    assert ours.hits == theirs.hits and ours.wounds == theirs.wounds
    assert ours.casualties == theirs.casualties


def test_clock_random_is_the_36_start_mixture() -> None:
    random = clock_start_odds(SHOOTERS, LINE, mechanic="clock-random").result
    plain = clock_start_odds(SHOOTERS, LINE, mechanic="clock").result
    assert random.wounds == plain.wounds and random.hits == plain.hits


def test_global_clock_ignores_the_second_start() -> None:
    """A global clock is one clock: only the first start counts."""
    for a in range(1, 7):
        one = clock_start_odds(SHOOTERS, LINE, mechanic="clock-global", starts=[(a, 1)])
        six = clock_start_odds(SHOOTERS, LINE, mechanic="clock-global", starts=[(a, 6)])
        assert one.result.wounds == six.result.wounds


def test_clock_start_odds_refuses_the_d6() -> None:
    with pytest.raises(OptionError, match="clock"):
        clock_start_odds(SHOOTERS, LINE, mechanic="d6")


def test_clock_start_odds_checks_the_situation() -> None:
    with pytest.raises(OptionError, match="cover"):
        clock_start_odds(SHOOTERS, LINE, situation=Situation(melee=True, cover=True))


def test_tough_target_by_replay() -> None:
    """Tough(3): wounds add up on the one model; casualties need 3 wounds (none from 2 shots)."""
    monster = Unit("Test Beast", 1, 4, 4, cost=50, rules=(Rule("Tough", 3),))
    mixed = clock_start_odds(SHOOTERS, monster).result
    counts = Counter(_replay(a, d, 2, 4, 4) for a in range(1, 7) for d in range(1, 7))
    assert mixed.wounds.pmf == pytest.approx([counts[k] / 36 for k in range(max(counts) + 1)])
    assert mixed.p_destroyed == 0.0


def test_sampled_starts_are_seeded_and_agree_with_the_exact_mixture() -> None:
    exact = clock_start_odds(SHOOTERS, LINE).result
    one = sample_clock_starts(SHOOTERS, LINE, samples=3000, seed=7)
    two = sample_clock_starts(SHOOTERS, LINE, samples=3000, seed=7)
    assert one.to_json() == two.to_json()
    assert one.samples == 3000 and one.seed == 7
    interval = one.intervals["wounds_mean"]
    assert interval.n == 3000 and interval.low <= interval.high
    # Five standard errors: a wrong mixture (e.g. starts all at 1) would be far outside.
    half = interval.high - interval.estimate
    assert abs(one.wounds.mean - exact.wounds.mean) < 5 * half / 1.96
    assert len(one.wounds.pmf) <= len(exact.wounds.pmf)


def test_sampled_starts_refuse_zero_samples() -> None:
    with pytest.raises(OptionError, match="samples"):
        sample_clock_starts(SHOOTERS, LINE, samples=0)
