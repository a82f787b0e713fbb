"""Resolving a Riverside attack check by check (seed 002_fdb385c07cc953af "Resolving Attacks"),
with scripted dice for the worked examples and the diceless clock (seed 000_e2a2d86473ae65c4)."""

from __future__ import annotations

import numpy as np

from oprlab.mechanics import get_mechanic
from oprlab.mechanics.base import Test
from oprlab.rules.riverside.attack import Readings, Situation
from oprlab.rules.riverside.casualties import after_attack
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile, HeroProfile
from oprlab.rules.riverside.resolve import Roller, resolve_attack
from tests.rules.riverside.scripted import scripted_roller

SHOCK_GUN = AttackProfile(
    "Shock Gun", dice=1, quality=4, melee=False, shooty=True, shock=True
)  # the example's Gun Freak (Shooty) with a Shock Gun
FIVE = DefenderProfile(defense=4, models=5, quality=4)


def test_shooty_and_shock_example_rolled() -> None:
    """seed 002 "Shooty and Shock" example: a 6 makes four hits; four failed Defense rolls are
    four wounds; 1 of 5 models left is half or less, so a Morale Test; failing it Shakes."""
    roller, dice = scripted_roller([6, 1, 2, 3, 1, 2])
    r = resolve_attack([SHOCK_GUN], FIVE, Situation(), roller)
    assert (r.hits, r.wounds, r.casualties, r.destroyed) == (4, 4, 4, False)
    assert r.morale_test and r.shaken and not r.routed
    assert dice.used == 6


def test_rout_when_shooting_reading() -> None:
    """seed 002 "Results of the Morale Test" applied to shooting: at half strength a failure
    Routs (removed from the game, not counted as destroyed by wounds)."""
    roller, _ = scripted_roller([6, 1, 2, 3, 1, 2])
    r = resolve_attack(
        [SHOCK_GUN], FIVE, Situation(), roller, readings=Readings(rout_when_shooting=True)
    )
    assert r.routed and not r.shaken and not r.destroyed


def test_checks_come_in_rulebook_order() -> None:
    """seed 002 "Resolving Attacks": roll all attacks, then Defense for every Hit, then (our
    reading) Regeneration for each wound, then Remove Casualties and the Morale Test."""
    gun = AttackProfile("Rifle", dice=2, quality=4, melee=False, rending=True)
    d = DefenderProfile(defense=4, models=2, quality=4, regeneration=True)
    roller, dice = scripted_roller([6, 4, 1, 1, 6, 3, 4])
    r = resolve_attack([gun], d, Situation(), roller)
    tests = [c.test for c in dice.checks]
    assert tests == [Test.HIT] * 2 + [Test.DEFENSE] * 2 + [Test.REGENERATION] * 2 + [Test.MORALE]
    # Rending: the regeneration roll of 6 ignores a wound; a 3 does not (6+ against Rending).
    assert (r.hits, r.wounds, r.casualties) == (2, 1, 1)
    assert r.morale_test and not r.shaken  # the Quality test on a 4 passes
    assert dice.checks[2].modifier == -4 and dice.checks[3].modifier == 0  # the 6 is AP(4)


def test_shaken_target_fails_without_rolling() -> None:
    """seed 002 "Morale Tests": Shaken units always fail Morale Tests (no die is rolled)."""
    d = DefenderProfile(defense=4, models=2, quality=2, shaken=True)
    roller, dice = scripted_roller([4, 1])
    r = resolve_attack([SHOCK_GUN], d, Situation(), roller)
    assert r.morale_test and r.shaken and dice.used == 2


def test_melee_has_no_morale_test_from_wounds() -> None:
    """seed 002 "Melee Attacks: Morale Test": no test from wounds; shaken is left open."""
    claws = AttackProfile("Claws", dice=2, quality=4, melee=True, furious=True)
    roller, dice = scripted_roller([6, 2, 1, 1])
    r = resolve_attack([claws], FIVE, Situation(melee=True, charging=True), roller)
    assert (r.hits, r.wounds, r.casualties) == (2, 2, 2)  # Furious Bonus Hit on the charge
    assert not r.morale_test and r.shaken is None and dice.used == 4


def test_fatigued_attacker_hits_only_on_six() -> None:
    """seed 002 "Fatigue": after striking back a unit's melee attacks only succeed on 6s."""
    claws = AttackProfile("Claws", dice=3, quality=2, melee=True)
    roller, _ = scripted_roller([5, 6, 4, 3])
    r = resolve_attack([claws], FIVE, Situation(melee=True, fatigued=True), roller)
    assert (r.hits, r.wounds) == (1, 1)


def test_blast_counts_the_joined_hero() -> None:
    """seed 002 "Blast[X]": the target unit's models, a joined Hero among them."""
    mortar = AttackProfile("Mortar", dice=1, quality=4, melee=False, blast=3)
    d = DefenderProfile(defense=4, models=1, quality=4, hero=HeroProfile(tough=3))
    roller, _ = scripted_roller([4, 1, 1, 4])
    r = resolve_attack([mortar], d, Situation(), roller)
    assert r.hits == 2 and r.casualties == 1 and r.after.hero_wounds == 1
    assert r.morale_test and not r.shaken  # 1 of 2 models left; the Quality test on 4 passes


def test_clock_trace() -> None:
    """seed 000 clock, start 2, seed 002 pipeline. Attacker Q3 Rending, 3 dice (step 2):
    2->4 hit, 4->6 a Critical Hit (AP4), 6->8 rolls over (lands 2): miss. Defender D4 (step 3)
    from 2: the AP0 hit lands 5, blocked; the AP4 hit steps 5 (clamped), rolls over: 1 wound.
    1 of 2 models left: Morale Test Q4 from 4: lands 1, fails: Shaken."""
    clock = get_mechanic("clock", start=2)
    gun = AttackProfile("Needler", dice=3, quality=3, melee=False, rending=True)
    d = DefenderProfile(defense=4, models=2, quality=4)
    roller = Roller(clock, clock.initial_state(), None)
    r = resolve_attack([gun], d, Situation(), roller)
    assert (r.hits, r.wounds, r.casualties, r.morale_test, r.shaken) == (2, 1, 1, True, True)


def test_clock_tokens_need_the_weapon_pool() -> None:
    """seed 000 variation 4: hits spend tokens per weapon pool, so the hit check names it."""
    clock = get_mechanic("clock-tokens")
    gun = AttackProfile("Needler", dice=4, quality=4, melee=False)
    roller = Roller(clock, clock.initial_state(), None)
    r = resolve_attack([gun], FIVE, Situation(), roller)
    # Q4: 3 tokens per attack, 12 for the 4 attacks: all hit. D4: a pool of 3 Defense tokens
    # blocks 3 of the 4 hits: 1 wound.
    assert (r.hits, r.wounds) == (4, 1)


def test_sampled_sequence_carries_wounds() -> None:
    """seed 002 "Remove Casualties": a wounded Tough model keeps its wounds for the next attack."""
    gun = AttackProfile("Rifle", dice=6, quality=2, melee=False, ap=4)
    d = DefenderProfile(defense=6, models=3, quality=4, tough=6)
    rng = np.random.default_rng(7)
    roller = Roller(get_mechanic("d6"), None, rng)
    total = 0
    current: DefenderProfile | None = d
    while current is not None and total < 200:
        r = resolve_attack([gun], current, Situation(), roller)
        total += r.wounds
        current = after_attack(current, r.after)
        if current is not None:
            used = 3 * 6 - (current.models * 6 - current.wounds)
            assert used == min(total, 18)
    assert current is None
