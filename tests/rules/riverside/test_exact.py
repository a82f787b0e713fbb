"""Exact Riverside odds (seed 002_fdb385c07cc953af "Resolving Attacks") against independent
oracles: a hand derivation, brute force over every sequence of dice through the check-by-check
driver, icepool, and a seeded Monte Carlo of the same driver."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Unpack

import icepool
import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import Readings, Situation
from oprlab.rules.riverside.exact import AttackOdds, attack_odds
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile, HeroProfile
from oprlab.rules.riverside.resolve import AttackResult, resolve_attack
from tests.rules.riverside import DefenderState, WeaponRules
from tests.rules.riverside.scripted import every_roll

D6_MECHANIC = D6()
Row = tuple[int, int, int, bool, bool, bool, bool | None]


def row(r: AttackResult) -> Row:
    return (r.hits, r.wounds, r.casualties, r.destroyed, r.morale_test, r.routed, r.shaken)


def brute_force(
    weapons: Sequence[AttackProfile], d: DefenderProfile, s: Situation, r: Readings
) -> Dist[Row]:
    return every_roll(lambda roller: row(resolve_attack(weapons, d, s, roller, readings=r)))


def assert_matches(odds: AttackOdds, joint: Dist[Row]) -> None:
    assert odds.hits == joint.map(lambda x: x[0])
    assert odds.wounds == joint.map(lambda x: x[1])
    assert odds.casualties == joint.map(lambda x: x[2])
    assert odds.p_destroyed == joint.probability(lambda x: x[3])
    assert odds.p_morale == joint.probability(lambda x: x[4])
    assert odds.p_routed == joint.probability(lambda x: x[5])
    if odds.p_shaken is None:
        assert all(x[6] is None for x in joint.support)
    else:
        assert odds.p_shaken == joint.probability(lambda x: bool(x[6]))


def gun(
    name: str = "Gun", dice: int = 1, quality: int = 4, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name=name, dice=dice, quality=quality, melee=False, **rules)


def target(
    defense: int = 4, models: int = 2, quality: int = 4, **state: Unpack[DefenderState]
) -> DefenderProfile:
    return DefenderProfile(defense=defense, models=models, quality=quality, **state)


CASES = [
    pytest.param(
        [gun(dice=2, ap=1, rending=True, shooty=True, critical_from=5)],
        target(models=3, tough=2),
        Situation(cover=True),
        Readings(),
        id="extra-shooty-rending-cover-tough",
    ),
    pytest.param(
        [gun(ap=1, rending=True, shooty=True, critical_from=5)],
        target(tough=2, wounds=1, started=4),
        Situation(cover=True),
        Readings(widened_critical="shooty", rending_ap="add"),
        id="other-readings-wounded",
    ),
    pytest.param(
        [gun(rending=True, shooty=True)],
        target(defense=3, models=1, tough=2, regeneration=True, hero=HeroProfile(tough=2)),
        Situation(),
        Readings(),
        id="rending-regeneration-hero",
    ),
    pytest.param(
        [gun(blast=3, shooty=True, rending=True)],
        target(defense=5, shaken=True),
        Situation(cover=True),
        Readings(rout_when_shooting=True),
        id="blast-capped-shaken-rout",
    ),
    pytest.param(
        [gun(shock=True, shooty=True, quality=5, good_shot=True)],
        target(models=5),
        Situation(),
        Readings(),
        id="shooty-and-shock",
    ),
    pytest.param(
        [gun(dice=2, deadly=2, ap=2), gun(name="Pistol", dice=1)],
        target(defense=3, models=3, tough=3),
        Situation(),
        Readings(),
        id="deadly-and-ordinary",
    ),
    pytest.param(
        [AttackProfile("Claws", dice=2, quality=3, melee=True, furious=True, rending=True)],
        target(models=3, tough=2),
        Situation(melee=True, charging=True),
        Readings(),
        id="furious-charge",
    ),
    pytest.param(
        [AttackProfile("Claws", dice=2, quality=2, melee=True, furious=True, reliable=True)],
        target(models=3),
        Situation(melee=True, charging=True, fatigued=True),
        Readings(),
        id="fatigued-furious",
    ),
]


@pytest.mark.parametrize(("weapons", "d", "s", "r"), CASES)
def test_exact_equals_brute_force_over_every_die(
    weapons: list[AttackProfile], d: DefenderProfile, s: Situation, r: Readings
) -> None:
    """seed 002 "Resolving Attacks": composing each die's chain exactly gives the same
    distributions, Fraction for Fraction, as rolling every sequence of dice check by check."""
    assert_matches(
        attack_odds(weapons, d, s, D6_MECHANIC, readings=r), brute_force(weapons, d, s, r)
    )


def test_hand_derived_rending_shooty_die() -> None:
    """seed 002 "Rending", "Shooty": one Q4 die vs Defense 4. A 4 or 5 is one AP0 hit (wounds
    1/2); a 6 is an AP(4) hit (wounds 5/6) plus an AP0 Bonus Hit (1/2). P(0) = 1/2 + 1/3 * 1/2 +
    1/6 * 1/6 * 1/2 = 49/72; P(2) = 1/6 * 5/6 * 1/2 = 5/72."""
    odds = attack_odds([gun(rending=True, shooty=True)], target(models=3), Situation(), D6_MECHANIC)
    assert odds.wounds == Dist({0: Fraction(49, 72), 1: Fraction(18, 72), 2: Fraction(5, 72)})
    assert odds.hits == Dist({0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)})


def _blocked(face: int, difficulty: int) -> bool:
    return face == 6 or (face != 1 and face >= difficulty)


def test_icepool_rending_against_regeneration() -> None:
    """seed 002 "Rending": 10 Q4 AP(1) Rending dice vs Defense 4 with Regeneration (5+, 6+
    against Rending): icepool, die by die, agrees with the exact wounds."""

    def wound(ap: int) -> icepool.Die[int]:
        regen = icepool.d6.map(lambda f: 0 if f == 6 else 1)
        return icepool.d6.map(lambda f: 0 if _blocked(f, 4 + ap) else regen)

    per_die = icepool.d6.map(lambda f: 0 if f < 4 else wound(4 if f == 6 else 1))
    expected = 10 @ per_die
    d = target(models=10, regeneration=True)
    odds = attack_odds([gun(dice=10, ap=1, rending=True)], d, Situation(), D6_MECHANIC)
    denominator = expected.denominator()
    assert odds.wounds == Dist({k: Fraction(q, denominator) for k, q in expected.items()})


def test_icepool_extra_shooty_shock_blast_hits() -> None:
    """seed 002 "Extra Shooty", "Shooty and Shock", "Blast[X]": 6 dice, Q5 with Good Shot (4+),
    Shooty critting on 5 or 6, Shock, Blast(3) vs 2 models: a 4 is 2 hits, a 5 or 6 is
    (1 + 1 + 2) x 2 = 8 hits."""
    per_die = icepool.d6.map(lambda f: 0 if f < 4 else (2 if f == 4 else 8))
    expected = 6 @ per_die
    p = gun(dice=6, quality=5, good_shot=True, shooty=True, critical_from=5, shock=True, blast=3)
    odds = attack_odds([p], target(models=2), Situation(cover=True), D6_MECHANIC)
    denominator = expected.denominator()
    assert odds.hits == Dist({k: Fraction(q, denominator) for k, q in expected.items()})


def test_monte_carlo_of_resolve_agrees_with_exact() -> None:
    """The sampled check-by-check driver agrees with the exact odds: every mean and probability
    within 4.5 standard errors (n = 4000, seed 2024; a false alarm has odds below 1e-5)."""
    weapons = [gun(dice=8, ap=1, rending=True, shooty=True), gun(name="Lobber", dice=2, blast=3)]
    d = target(defense=4, models=6, tough=2, regeneration=True, hero=HeroProfile(tough=3))
    s = Situation(cover=True)
    odds = attack_odds(weapons, d, s, D6_MECHANIC)
    n = 4000
    roller = Roller(D6_MECHANIC, None, np.random.default_rng(2024))
    rows = [row(resolve_attack(weapons, d, s, roller)) for _ in range(n)]
    for index, dist in ((0, odds.hits), (1, odds.wounds), (2, odds.casualties)):
        mean = sum(float(p) * k for k, p in dist.items())
        var = sum(float(p) * (k - mean) ** 2 for k, p in dist.items())
        sample = sum(int(x[index] or 0) for x in rows) / n
        assert abs(sample - mean) <= 4.5 * math.sqrt(var / n)
    assert odds.p_shaken is not None
    for index, p in ((3, odds.p_destroyed), (4, odds.p_morale), (6, odds.p_shaken)):
        share = sum(bool(x[index]) for x in rows) / n
        assert abs(share - float(p)) <= 4.5 * math.sqrt(float(p * (1 - p)) / n) + 1e-9
    assert 0 < odds.p_morale < 1 and 0 < odds.p_shaken < 1


def test_probabilities_sum_to_one() -> None:
    odds = attack_odds(
        [gun(dice=5, blast=2, shock=True)], target(models=4, tough=2), Situation(), D6_MECHANIC
    )
    for dist in (odds.hits, odds.wounds, odds.casualties):
        assert sum(p for _, p in dist.items()) == 1
    assert odds.p_shaken is not None
    assert odds.p_destroyed + odds.p_routed + odds.p_shaken <= 1


def test_exact_refuses_the_clock() -> None:
    """The clock is certain given its state: it is played out by resolve_attack instead."""
    with pytest.raises(OptionError, match="exact composition"):
        attack_odds([gun()], target(), Situation(), get_mechanic("clock"))
