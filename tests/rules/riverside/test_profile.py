"""Reading units and weapons into Riverside profiles (seed 002_fdb385c07cc953af), and refusing
impossible profiles with the oprlab error family."""

from __future__ import annotations

from typing import Any

import pytest

from oprlab.errors import OptionError
from oprlab.rules.riverside.profile import (
    AttackProfile,
    DefenderProfile,
    HeroProfile,
    attack_profile,
    defender_profile,
    hero_profile,
)
from oprlab.units.model import Rule, Unit, Weapon

GUN = Weapon("Plasma Popper", attacks=2, range=24, count=3, rules=(Rule("AP", 1), Rule("Rending")))
BLASTER = Weapon("Slag Mortar", attacks=1, range=30, rules=(Rule("Blast", 3), Rule("Shock")))
CLAW = Weapon("Claw", attacks=2, rules=(Rule("Reliable"),))


def test_weapon_rules_are_read_into_fields() -> None:
    """seed 002 "Critical Hit Abilities": Rending, Blast[X], Shock and Reliable are weapon rules;
    AP(X) is read from the weapon; dice = count x attacks."""
    unit = Unit("Rust Crew", 3, quality=4, defense=5, weapons=(GUN, BLASTER, CLAW))
    gun = attack_profile(unit, GUN)
    assert (gun.dice, gun.ap, gun.rending, gun.melee, gun.blast) == (6, 1, True, False, 1)
    blast = attack_profile(unit, BLASTER)
    assert (blast.blast, blast.shock, blast.rending) == (3, True, False)
    claw = attack_profile(unit, CLAW)
    assert (claw.melee, claw.reliable, claw.dice) == (True, True, 2)


def test_extra_shooty_gives_shooty() -> None:
    """seed 002 "Extra Shooty": "This model and its unit have Shooty" (crits stay on 6)."""
    unit = Unit("Gunnies", 5, 5, 5, rules=(Rule("Extra Shooty"),), weapons=(GUN,))
    p = attack_profile(unit, GUN)
    assert p.shooty and p.critical_from == 6


def test_extra_shooty_on_shooty_unit_crits_on_five() -> None:
    """seed 002 "Extra Shooty": "If they already had Shooty, Shooty now Critically Hits on a
    5 or 6" (ranged weapons; a melee weapon keeps 6)."""
    unit = Unit("Gunnies", 5, 5, 5, rules=(Rule("Shooty"), Rule("Extra Shooty")))
    assert attack_profile(unit, GUN).critical_from == 5
    assert attack_profile(unit, CLAW).critical_from == 6


def test_unit_rules_fold_into_weapons() -> None:
    """seed 002 "Furious", "Rolling Dice" Example 1 (Good Shot): unit rules act through weapons."""
    unit = Unit("Brawlers", 5, 5, 5, rules=(Rule("Furious"), Rule("Good Shot"), Rule("Shooty")))
    p = attack_profile(unit, CLAW)
    assert p.furious and p.good_shot and p.shooty


def test_defender_profile_reads_tough_regeneration_stealth() -> None:
    """seed 002 "Remove Casualties" (Tough), "Rending" (Regeneration), Example 1 (Stealth)."""
    unit = Unit(
        "Mossbacks",
        3,
        quality=4,
        defense=3,
        rules=(Rule("Tough", 3), Rule("Regeneration"), Rule("Stealth", count=2)),
    )
    d = defender_profile(unit)
    assert (d.defense, d.models, d.tough, d.quality, d.regeneration) == (3, 3, 3, 4, True)
    assert not d.stealth  # only 2 of 3 models have it
    assert d.start_size == 3 and not d.single_model


def test_joined_hero_counts_in_the_unit() -> None:
    """seed 002 "Terms: Unit": a joined Hero is one more model of the unit (Blast, morale)."""
    boss = Unit("Warboss", 1, quality=3, defense=3, rules=(Rule("Hero"), Rule("Tough", 3)))
    squad = Unit("Grunts", 5, quality=5, defense=5)
    d = defender_profile(squad, hero=hero_profile(boss, wounds=1))
    assert d.size == 6 and d.start_size == 6 and d.blast_models == 6
    assert d.hero == HeroProfile(tough=3, wounds=1, quality=3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"models": -1},
        {"tough": 0},
        {"tough": 3, "wounds": 3},
        {"wounds": 1},  # Tough 1 models never carry wounds
        {"defense": 7},
        {"quality": 1},
        {"models": 0, "tough": 3, "wounds": 1},
        {"models": 5, "started": 4},
    ],
)
def test_bad_defender_profiles_are_refused(kwargs: dict[str, Any]) -> None:
    """A profile no unit can be in raises OptionError with the bad value (not an assert)."""
    base: dict[str, Any] = {"defense": 4, "models": 5, "quality": 4}
    with pytest.raises(OptionError) as err:
        DefenderProfile(**{**base, **kwargs})
    assert err.value.value is not None


@pytest.mark.parametrize(
    "kwargs",
    [{"quality": 7}, {"dice": -1}, {"ap": -1}, {"blast": 0}, {"deadly": 0}, {"critical_from": 4}],
)
def test_bad_attack_profiles_are_refused(kwargs: dict[str, int]) -> None:
    base = {"name": "Gun", "dice": 2, "quality": 4, "melee": False}
    with pytest.raises(OptionError):
        AttackProfile(**{**base, **kwargs})  # type: ignore[arg-type]


def test_bad_hero_is_refused() -> None:
    with pytest.raises(OptionError, match="wounds out of range"):
        HeroProfile(tough=2, wounds=2)
