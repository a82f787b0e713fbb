"""Exact odds of a GFF attack (seed 003_8abb008d4113ed75): hand-derived Fractions, invariants,
refusals, and the float fast path against the Fraction path on a grid of cases."""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from typing import TypeVar, Unpack

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist, mean
from oprlab.rules.gff.attack import Situation, impact_profile
from oprlab.rules.gff.exact import AttackOdds, attack_odds, die_result
from oprlab.rules.gff.fast import attack_odds_fast, power
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from tests.rules.gff import WeaponRules

T = TypeVar("T", bound=Hashable)
D6M = D6()
SHOOT = Situation(distance=6.0)


def weapon(
    dice: int = 1, quality: int = 4, melee: bool = False, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name="w", dice=dice, quality=quality, melee=melee, **rules)


def pmf(d: Dist[T]) -> dict[T, Fraction]:
    return {k: v for k, v in d.items() if v}


def test_one_die_q4_against_d4_by_hand() -> None:
    """seed 003 "Shooting" and "Wound Effects": Q4 vs D4, one die, one model: hit 1/2, wound
    1/4; one marker knocks out on 5+ (1/3): destroyed 1/12, Shaken 1/6."""
    odds = attack_odds([weapon()], DefenderProfile(4, 1), SHOOT, D6M)
    assert pmf(odds.hits) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert pmf(odds.wounds) == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert pmf(odds.casualties) == {0: Fraction(11, 12), 1: Fraction(1, 12)}
    assert (odds.p_destroyed, odds.p_shaken) == (Fraction(1, 12), Fraction(1, 6))


def test_binomial_hits_and_wounds() -> None:
    """seed 003 "Shooting": one quality test per attack, one Defense roll per hit: with no
    special rules hits and wounds are binomial (Q3: 2/3; D5: wound 2/3 of hits)."""
    odds = attack_odds([weapon(5, quality=3)], DefenderProfile(5, 10), SHOOT, D6M)
    for k in range(6):
        choose = Fraction(len(list(itertools.combinations(range(5), k))))
        assert odds.hits[k] == choose * Fraction(2, 3) ** k * Fraction(1, 3) ** (5 - k)
        assert odds.wounds[k] == choose * Fraction(4, 9) ** k * Fraction(5, 9) ** (5 - k)
    assert pmf(odds.casualties) == pmf(odds.wounds)  # ten models: every wound kills one


def test_die_result_keeps_a_six_tied_to_its_die() -> None:
    """seed 003 "Rending": the AP(+4) belongs to the hit of the die that rolled the 6, so a
    die's hits and wounds are composed before summing: Rending Q4 vs D2 per die."""
    die = die_result(weapon(rending=True), SHOOT, DefenderProfile(2, 1), D6M)
    # (hits, ordinary wounds, Deadly packets)
    assert pmf(die.map(lambda r: r[1])) == {
        0: Fraction(1, 2) + Fraction(2, 6) * Fraction(5, 6) + Fraction(1, 6) * Fraction(1, 6),
        1: Fraction(2, 6) * Fraction(1, 6) + Fraction(1, 6) * Fraction(5, 6),
    }
    deadly = die_result(weapon(deadly=2), SHOOT, DefenderProfile(4, 1), D6M)
    assert pmf(deadly.map(lambda r: r[2])) == {
        (): Fraction(1, 2),
        (0,): Fraction(1, 4),
        (2,): Fraction(1, 4),
    }


def test_probabilities_sum_to_one_and_casualties_fit_the_unit() -> None:
    """Invariant: every distribution sums to 1; casualties never exceed the unit's models."""
    odds = attack_odds(
        [weapon(12, ap=1, rending=True), weapon(4, deadly=3, blast=3)],
        DefenderProfile(4, 5, tough=2, regeneration=True),
        SHOOT,
        D6M,
    )
    for d in (odds.hits, odds.wounds, odds.casualties):
        assert sum(p for _, p in d.items()) == 1
    assert max(odds.casualties.support) <= 5
    assert odds.p_destroyed == odds.casualties[5]
    assert 0 < odds.p_shaken < 1


def test_impact_dice_join_the_attack() -> None:
    """seed 003 "Impact(X)": Impact hits (2+) add to the weapons' hits in the same attack."""
    s = Situation(melee=True, charging=True)
    both = attack_odds([weapon(2, melee=True), impact_profile(4, 2)], DefenderProfile(4, 9), s, D6M)
    assert mean(both.hits) == 2 * Fraction(1, 2) + 2 * Fraction(5, 6)


def test_exact_refuses_a_deterministic_mechanic() -> None:
    """The clock's outcome is certain given its state: exact composition refuses it and says
    to resolve it directly."""
    with pytest.raises(OptionError, match="resolve_attack"):
        attack_odds([weapon()], DefenderProfile(4, 1), SHOOT, Clock())
    with pytest.raises(OptionError):
        die_result(weapon(), SHOOT, DefenderProfile(4, 1), Clock())


def test_no_dice_no_hits() -> None:
    """A weapon with no attack dice does nothing."""
    odds = attack_odds([weapon(0)], DefenderProfile(4, 1), SHOOT, D6M)
    assert pmf(odds.hits) == {0: 1}
    assert odds.p_destroyed == 0
    assert odds.p_shaken == 0


# --- fast path --------------------------------------------------------------------------------


def as_array(d: Dist[int], size: int) -> np.ndarray:
    out = np.zeros(size)
    for k, p in d.items():
        out[k] += float(p)
    return out


def assert_close(exact: AttackOdds, fast_odds: object) -> None:
    from oprlab.rules.gff.fast import AttackOddsArrays

    assert isinstance(fast_odds, AttackOddsArrays)
    for name in ("hits", "wounds", "casualties"):
        arr = getattr(fast_odds, name)
        size = max(len(arr), max(getattr(exact, name).support) + 1)
        got = np.zeros(size)
        got[: len(arr)] = arr
        np.testing.assert_allclose(got, as_array(getattr(exact, name), size), rtol=0, atol=1e-12)
    assert abs(fast_odds.p_destroyed - float(exact.p_destroyed)) < 1e-12
    assert abs(fast_odds.p_shaken - float(exact.p_shaken)) < 1e-12


WEAPON_GRID = [
    [weapon(6)],
    [weapon(8, quality=3, ap=1, rending=True)],
    [weapon(4, deadly=3), weapon(6, ap=1)],
    [weapon(3, blast=3, surge=True)],
    [weapon(5, bane=True, relentless=True)],
    [weapon(10, unstoppable=True, indirect=True), weapon(2, deadly=2, bane=True)],
]
DEFENDER_GRID = [
    DefenderProfile(4, 1),
    DefenderProfile(3, 1, tough=3, markers=1),
    DefenderProfile(5, 4, regeneration=True, stealth=True),
    DefenderProfile(2, 2, tough=6, shaken=True),
]
SITUATION_GRID = [
    Situation(distance=6.0),
    Situation(distance=12.0, moved=True, cover=True),
    Situation(melee=True, charging=True),
    Situation(melee=True, fatigued=True),
]


@pytest.mark.parametrize("weapons", WEAPON_GRID)
def test_fast_equals_exact_on_a_grid(weapons: list[AttackProfile]) -> None:
    """The float fast path gives the Fraction path's odds to 1e-12 (every defender, situation,
    with and without Fear)."""
    for d, s, fear in itertools.product(DEFENDER_GRID, SITUATION_GRID, (0, 2)):
        profiles = [replace(p, melee=s.melee) for p in weapons]
        exact = attack_odds(profiles, d, s, D6M, fear=fear)
        assert_close(exact, attack_odds_fast(profiles, d, s, D6M, fear=fear))


def test_power_is_repeated_convolution() -> None:
    """``power(pmf, n)`` is the pmf of the sum of n copies."""
    die = np.array([0.5, 0.25, 0.25])
    expected = np.ones(1)
    for n in range(6):
        np.testing.assert_allclose(power(die, n), expected, atol=1e-15)
        expected = np.convolve(expected, die)
