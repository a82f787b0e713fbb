"""The hooks of the Riverside attack, one clause of seed 002_fdb385c07cc953af at a time."""

from __future__ import annotations

from typing import Unpack

import pytest

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Outcome, Test
from oprlab.mechanics.d6 import outcome_table
from oprlab.rules.riverside.attack import (
    Hit,
    Readings,
    Situation,
    blast_multiplier,
    bonus_hits,
    cover_applies,
    defense_check,
    hit_check,
    hits_from,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile
from tests.rules.riverside import WeaponRules

SHOOT = Situation()
CHARGE = Situation(melee=True, charging=True)
STRIKE_BACK = Situation(melee=True)
TARGET = DefenderProfile(defense=4, models=5, quality=4)


def gun(
    name: str = "Gun", dice: int = 1, quality: int = 4, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name=name, dice=dice, quality=quality, melee=False, **rules)


def claws(
    name: str = "Claws", dice: int = 1, quality: int = 4, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name=name, dice=dice, quality=quality, melee=True, **rules)


def face(check: Check, natural: int) -> Outcome:
    return outcome_table(check)[natural - 1]


def succeeding(check: Check) -> list[int]:
    return [n for n in range(1, 7) if face(check, n).success]


def roll(p: AttackProfile, s: Situation, natural: int, **kw: object) -> tuple[Hit, ...]:
    d = kw.pop("d", TARGET)
    r = kw.pop("r", Readings())
    assert isinstance(d, DefenderProfile) and isinstance(r, Readings)
    return hits_from(p, s, d, face(hit_check(p, s, d, r), natural), r)


# --- Rolling Dice --------------------------------------------------------------------------


def test_example_1_good_shot_reliable_stealth() -> None:
    """seed 002 "Rolling Dice" Example 1: Quality 5, Good Shot (4+), Reliable (2+), then
    Stealth: success on 3+."""
    p = gun(quality=5, good_shot=True, reliable=True)
    d = DefenderProfile(defense=4, models=5, quality=4, stealth=True)
    check = hit_check(p, SHOOT, d)
    assert check.base_difficulty == 2 and check.modifier == -1
    assert succeeding(check) == [3, 4, 5, 6]


def test_good_shot_replaces_quality_when_shooting_only() -> None:
    """seed 002 Example 1: Good Shot replaces the shooting difficulty with 4+; melee keeps Q."""
    assert succeeding(hit_check(gun(quality=5, good_shot=True), SHOOT, TARGET)) == [4, 5, 6]
    assert succeeding(hit_check(claws(quality=5, good_shot=True), CHARGE, TARGET)) == [5, 6]


def test_stealth_range_reading() -> None:
    """seed 002 Example 1 names no range for Stealth: by default it applies to all shooting;
    the stealth_range reading limits it (GFF: over 9"), never to melee."""
    d = DefenderProfile(defense=4, models=5, quality=4, stealth=True)
    near = Situation(distance=6.0)
    assert hit_check(gun(), near, d).modifier == -1
    assert hit_check(gun(), near, d, Readings(stealth_range=9.0)).modifier == 0
    assert hit_check(gun(), Situation(distance=12.0), d, Readings(stealth_range=9.0)).modifier == -1
    assert hit_check(claws(), CHARGE, d).modifier == 0


def test_example_2_ap4_only_natural_six_defends() -> None:
    """seed 002 "Rolling Dice" Example 2: AP 4 against Defense 4 (the example says 5+ and 9+):
    only a natural 6 succeeds."""
    for defense in (4, 5):
        d = DefenderProfile(defense=defense, models=1, quality=4)
        assert succeeding(defense_check(gun(ap=4), SHOOT, d, Hit(4))) == [6]


def test_cover_example_defense_4_with_cover_is_3_plus() -> None:
    """seed 002 "Rolling Dice": Defense 4 is 4+; Cover's +1 to Defense makes it 3+
    ("Terms: Cover": against Ranged weapons only)."""
    covered = Situation(cover=True)
    assert succeeding(defense_check(gun(), SHOOT, TARGET, Hit(0))) == [4, 5, 6]
    assert succeeding(defense_check(gun(), covered, TARGET, Hit(0))) == [3, 4, 5, 6]
    assert not cover_applies(claws(), Situation(melee=True, cover=True))


def test_blast_ignores_cover() -> None:
    """seed 002 "Blast[X]": "Weapons with Blast ignore cover"."""
    covered = Situation(cover=True)
    assert not cover_applies(gun(blast=3), covered)
    assert succeeding(defense_check(gun(blast=3), covered, TARGET, Hit(0))) == [4, 5, 6]


def test_roll_defense_failure_is_one_wound() -> None:
    """seed 002 "Roll Defense": a success discards the Hit, a failure causes 1 Wound
    (Deadly(X), read as in GFF: X wounds)."""
    check = defense_check(gun(), SHOOT, TARGET, Hit(0))
    assert wounds_from_block(gun(), face(check, 4)) == 0
    assert wounds_from_block(gun(), face(check, 3)) == 1
    assert wounds_from_block(gun(deadly=3), face(check, 3)) == 3


# --- Critical Hits and Bonus Hits ---------------------------------------------------------


def test_critical_hit_is_a_roll_of_six() -> None:
    """seed 002 "Critical Hit": rolls of 6; a 5 is an ordinary hit."""
    p = gun(shooty=True)
    assert len(roll(p, SHOOT, 5)) == 1
    assert len(roll(p, SHOOT, 6)) == 2


def test_widened_critical_must_succeed() -> None:
    """seed 002 "Critical Hit": "If an ability extends Critical Hits to 5, that roll must
    succeed": Q5 with Stealth needs 6+, so a 5 misses and is no Critical Hit."""
    p = gun(quality=5, shooty=True, critical_from=5)
    d = DefenderProfile(defense=4, models=5, quality=4, stealth=True)
    assert roll(p, SHOOT, 5, d=d) == ()
    assert len(roll(p, SHOOT, 6, d=d)) == 2
    assert len(roll(p, SHOOT, 5)) == 2  # Q5 without Stealth: the 5 succeeds and crits


def test_bonus_hit_copies_hit_without_critical_effects() -> None:
    """seed 002 "Bonus Hit": an automatic copy of the hit that can't Critically Hit and has no
    Critical Hit effects; "Rending": the AP(4) does not apply to Bonus Hits."""
    hits = roll(gun(ap=1, rending=True, shooty=True), SHOOT, 6)
    assert hits == (Hit(4), Hit(1, bonus=True))


def test_furious_bonus_hit_only_during_charge_action() -> None:
    """seed 002 "Furious": a Critical Hit during its Charge Action generates 1 Bonus Hit (not
    when striking back, not when shooting)."""
    assert len(roll(claws(furious=True), CHARGE, 6)) == 2
    assert len(roll(claws(furious=True), CHARGE, 5)) == 1
    assert len(roll(claws(furious=True), STRIKE_BACK, 6)) == 1
    assert len(roll(gun(furious=True), SHOOT, 6)) == 1


def test_shooty_bonus_hit_with_ranged_weapons_only() -> None:
    """seed 002 "Shooty": a Critical Hit with a ranged weapon generates 1 Bonus Hit."""
    assert len(roll(gun(shooty=True), SHOOT, 6)) == 2
    assert len(roll(claws(shooty=True), CHARGE, 6)) == 1


def test_extra_shooty_crits_on_five_for_every_effect() -> None:
    """seed 002 "Extra Shooty": Shooty now Critically Hits on a 5 or 6; read as a Critical Hit
    for every effect (default), or for Shooty's Bonus Hit only (widened_critical="shooty")."""
    p = gun(ap=1, shooty=True, rending=True, shock=True, critical_from=5)
    assert roll(p, SHOOT, 5) == (Hit(4),) + (Hit(1, bonus=True),) * 3
    assert roll(p, SHOOT, 5, r=Readings(widened_critical="shooty")) == (
        Hit(1),
        Hit(1, bonus=True),
    )
    assert len(roll(p, SHOOT, 6, r=Readings(widened_critical="shooty"))) == 4
    assert roll(p, SHOOT, 4) == (Hit(1),)


def test_shooty_and_shock_example_four_hits() -> None:
    """seed 002 "Shooty and Shock" example: a 6 with Shooty and a Shock Gun gives one hit, one
    from Shooty and two from Shock: four, not chained."""
    hits = roll(gun(shooty=True, shock=True), SHOOT, 6)
    assert len(hits) == 4 and sum(h.bonus for h in hits) == 3
    assert bonus_hits(gun(shock=True), SHOOT, face(hit_check(gun(), SHOOT, TARGET), 6)) == 2


def test_blast_multiplies_by_x_or_models_whichever_is_less() -> None:
    """seed 002 "Blast[X]": multiply each hit by X or by the models in the target unit."""
    two = DefenderProfile(defense=4, models=2, quality=4)
    assert blast_multiplier(gun(blast=3), TARGET) == 3
    assert blast_multiplier(gun(blast=3), two) == 2
    assert len(roll(gun(blast=3), SHOOT, 4)) == 3
    assert len(roll(gun(blast=3), SHOOT, 4, d=two)) == 2


def test_blast_copies_keep_critical_effects_and_bonus_hits_copy_blast() -> None:
    """seed 002 "Blast[X]": multiplied hits keep AP and effects triggered by Critical Hits;
    "Bonus Hits do copy Blast"."""
    hits = roll(gun(blast=3, rending=True, shooty=True), SHOOT, 6)
    assert sorted(hits, key=lambda h: h.bonus) == [Hit(4)] * 3 + [Hit(0, bonus=True)] * 3


def test_rending_ap4_readings() -> None:
    """seed 002 "Rending": a Critical Hit "has AP(4)": by default the higher of 4 and the
    weapon's AP; the "add" reading adds 4 as in GFF."""
    assert roll(gun(ap=1, rending=True), SHOOT, 6) == (Hit(4),)
    assert roll(gun(ap=5, rending=True), SHOOT, 6) == (Hit(5),)
    assert roll(gun(ap=1, rending=True), SHOOT, 6, r=Readings(rending_ap="add")) == (Hit(5),)
    assert roll(gun(ap=1, rending=True), SHOOT, 5) == (Hit(1),)


def test_rending_regeneration_minus_one() -> None:
    """seed 002 "Rending": Regeneration rolls against its wounds have -1; Regeneration
    (OPR common practice, seed 003) is 5+, so 6+ against Rending."""
    assert succeeding(regeneration_check(gun(), SHOOT)) == [5, 6]
    assert succeeding(regeneration_check(gun(rending=True), SHOOT)) == [6]


def test_fatigued_melee_hits_only_on_six() -> None:
    """seed 002 "Fatigue" / "Terms: Fatigued": melee attacks only succeed on rolls of 6 (a
    Shaken unit counts as Fatigued); shooting is unaffected."""
    tired = Situation(melee=True, fatigued=True)
    assert succeeding(hit_check(claws(quality=2, reliable=True), tired, TARGET)) == [6]
    assert succeeding(hit_check(gun(), Situation(fatigued=True), TARGET)) == [4, 5, 6]


def test_hit_check_names_its_token_pool() -> None:
    """Token pools are per weapon (seed 000 variation 4): the hit check's owner names it."""
    assert hit_check(gun(), SHOOT, TARGET).owner.pool == "Gun"
    assert hit_check(gun(), SHOOT, TARGET).test is Test.HIT


@pytest.mark.parametrize(
    "kwargs",
    [{"rending_ap": "set"}, {"widened_critical": "none"}, {"stealth_range": -1.0}],
)
def test_bad_readings_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        Readings(**kwargs)  # type: ignore[arg-type]
