"""Morale Tests (seed 002_fdb385c07cc953af "Morale Tests", "Melee Attacks: Morale Test",
"Terms: Shaken"): when a unit tests, with what, and what failing does."""

from __future__ import annotations

from typing import Unpack

from oprlab.mechanics.base import Test
from oprlab.rules.riverside.attack import Readings, Situation
from oprlab.rules.riverside.casualties import remove_casualties
from oprlab.rules.riverside.morale import (
    fails_automatically,
    half_strength,
    melee_loser,
    morale_check,
    morale_due,
    morale_failure,
)
from oprlab.rules.riverside.profile import DefenderProfile, HeroProfile
from tests.rules.riverside import DefenderState

SHOOT = Situation()
MELEE = Situation(melee=True)


def unit(models: int, **state: Unpack[DefenderState]) -> DefenderProfile:
    return DefenderProfile(defense=4, models=models, quality=5, **state)


def test_half_or_less_remaining_tests() -> None:
    """seed 002 "Morale Tests": a test when half or less of the models remain from the amount
    the unit started the game with."""
    d = unit(10)
    assert morale_due(d, remove_casualties(d, 5), SHOOT)
    assert not morale_due(d, remove_casualties(d, 4), SHOOT)


def test_counts_from_the_start_of_the_game() -> None:
    """seed 002 "Morale Tests": "from the amount it started the game with", not this attack's."""
    d = unit(6, started=10)
    assert morale_due(d, remove_casualties(d, 1), SHOOT)


def test_only_after_taking_a_wound() -> None:
    """seed 002 "Morale Tests": "Whenever a unit takes a wound": no wound, no test."""
    d = unit(3, started=10)
    assert half_strength(d, remove_casualties(d, 0))
    assert not morale_due(d, remove_casualties(d, 0), SHOOT)


def test_single_model_half_its_tough() -> None:
    """seed 002 "Morale Tests": a single model unit tests once it has taken at least half of
    its Tough value in wounds (Tough(6): 3 wounds; Tough(3): 2 wounds)."""
    big = unit(1, tough=6)
    assert not morale_due(big, remove_casualties(big, 2), SHOOT)
    assert morale_due(big, remove_casualties(big, 3), SHOOT)
    small = unit(1, tough=3)
    assert not morale_due(small, remove_casualties(small, 1), SHOOT)
    assert morale_due(small, remove_casualties(small, 2), SHOOT)
    earlier = unit(1, tough=6, wounds=2)  # wounds from an earlier attack count
    assert morale_due(earlier, remove_casualties(earlier, 1), SHOOT)


def test_destroyed_unit_does_not_test() -> None:
    d = unit(2)
    assert not morale_due(d, remove_casualties(d, 2), SHOOT)


def test_no_morale_from_wounds_in_melee() -> None:
    """seed 002 "Melee Attacks: Morale Test": units in melee don't take morale tests from
    wounds; the unit that caused fewer wounds loses (a tie has no lowest total)."""
    d = unit(10)
    assert not morale_due(d, remove_casualties(d, 8), MELEE)
    assert melee_loser(2, 3) == "attacker"
    assert melee_loser(4, 1) == "defender"
    assert melee_loser(2, 2) is None


def test_morale_test_is_a_quality_test() -> None:
    """seed 002 "Morale Tests": "the unit rolls a Quality Test"; a Hero left alone tests with
    its own Quality."""
    d = unit(2, hero=HeroProfile(tough=3, quality=3))
    check = morale_check(d, remove_casualties(d, 1), SHOOT)
    assert (check.test, check.target) == (Test.MORALE, 5)
    assert morale_check(d, remove_casualties(d, 2), SHOOT).target == 3


def test_shaken_units_always_fail() -> None:
    """seed 002 "Morale Tests" / "Terms: Shaken": Shaken units automatically fail."""
    assert fails_automatically(unit(5, shaken=True))
    assert not fails_automatically(unit(5))


def test_failure_shakes_when_shooting_and_routs_in_melee_at_half() -> None:
    """seed 002 "Morale Tests": a failed test Shakes the unit; "Results of the Morale Test"
    (melee): Rout when half or less remain, else Shaken. rout_when_shooting applies Results to
    Ranged Attacks too."""
    d = unit(10)
    half = remove_casualties(d, 5)
    most = remove_casualties(d, 2)
    assert morale_failure(d, half, SHOOT) == "shaken"
    assert morale_failure(d, half, SHOOT, Readings(rout_when_shooting=True)) == "rout"
    assert morale_failure(d, half, MELEE) == "rout"
    assert morale_failure(d, most, MELEE) == "shaken"
    single = unit(1, tough=6)
    assert morale_failure(single, remove_casualties(single, 3), MELEE) == "rout"
    assert morale_failure(single, remove_casualties(single, 2), MELEE) == "shaken"
