"""Each special rule of seed 003_8abb008d4113ed75 that touches an attack, one test at least per
rule: the hook that implements it, hand-derived odds, and hand-written dice through
``resolve_attack`` (a scripted d6 whose faces the test chooses)."""

from __future__ import annotations

from fractions import Fraction
from typing import Unpack

from oprlab.mechanics import Check, Test
from oprlab.mechanics.clock import increment
from oprlab.mechanics.d6 import D6, face_outcome, outcome_table
from oprlab.prob import Dist
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    bane_reroll,
    blast_multiplier,
    defense_check,
    extra_hits,
    hit_check,
    hit_modifiers,
    hits_from,
    ignores_cover,
    impact_attack,
    impact_check,
    impact_profile,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.gff.exact import attack_odds, wounds_per_hit
from oprlab.rules.gff.profile import (
    AttackProfile,
    DefenderProfile,
    counter_models,
    defender_profile,
    impact_dice,
)
from oprlab.rules.gff.resolve import resolve_attack
from oprlab.units.model import Rule, Unit, Weapon
from tests.rules.gff import WeaponRules
from tests.rules.gff.scripted import scripted_roller

D6M = D6()
SHOOT = Situation(distance=6.0)
FAR = Situation(distance=12.0)
AT_NINE = Situation(distance=9.0)
MOVED = Situation(distance=6.0, moved=True)
COVER = Situation(distance=6.0, cover=True)
BLOCKERS = Situation(distance=6.0, cover=True, cover_from_blockers=True)
MELEE = Situation(melee=True)
CHARGE = Situation(melee=True, charging=True)
FATIGUED = Situation(melee=True, fatigued=True)
ONE = DefenderProfile(defense=4, models=1)
REGEN = DefenderProfile(defense=4, models=1, regeneration=True)
#: Tough(3): one wound rolls no wound effect, so a script needs no face for it.
TOUGH = DefenderProfile(defense=4, models=1, tough=3)
REGEN_TOUGH = DefenderProfile(defense=4, models=1, tough=3, regeneration=True)


def weapon(
    dice: int = 1, quality: int = 4, melee: bool = False, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name="w", dice=dice, quality=quality, melee=melee, **rules)


def hitting(check: Check) -> list[int]:
    """The faces on which ``check`` succeeds."""
    return [o.natural for o in outcome_table(check) if o.success]


def one_die(p: AttackProfile, s: Situation, d: DefenderProfile, face: int) -> tuple[Hit, ...]:
    """The hits an attack die of ``p`` makes on ``face``."""
    return hits_from(p, s, d, face_outcome(hit_check(p, s, d), face))


def pmf(d: Dist[int]) -> dict[int, Fraction]:
    return {k: v for k, v in d.items() if v}


# --- Shooting and Melee ------------------------------------------------------------------


def test_shooting_one_quality_test_per_attack_each_success_a_hit() -> None:
    """seed 003 "Shooting": one quality test per attack, each success is a hit; then one
    Defense die per hit, each failed block one wound. Q4 attacks: 4, 3, 6 -> 2 hits; D4
    blocks: 5 (blocked), 2 (wound)."""
    roller, die = scripted_roller(4, 3, 6, 5, 2)
    result = resolve_attack([weapon(3)], DefenderProfile(4, 3), SHOOT, roller)
    assert (result.hits, result.wounds, result.casualties) == (2, 1, 1)
    assert [c.test for c in die.asked] == [Test.HIT] * 3 + [Test.DEFENSE] * 2
    assert die.done


def test_melee_striking_works_like_shooting() -> None:
    """seed 003 "Melee / Striking": works like shooting; Q4 vs D4 one die: hit 1/2, wound 1/4."""
    odds = attack_odds([weapon(1, melee=True)], ONE, MELEE, D6M)
    assert pmf(odds.hits) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    assert pmf(odds.wounds) == {0: Fraction(3, 4), 1: Fraction(1, 4)}


def test_cover_gives_plus_one_defense_against_shooting_only() -> None:
    """seed 003 "Cover Terrain": +1 to Defense rolls when blocking hits from shooting (D4 -> 3+);
    no cover in melee."""
    p = weapon()
    assert hitting(defense_check(p, COVER, ONE, Hit(0))) == [3, 4, 5, 6]
    assert hitting(defense_check(p, SHOOT, ONE, Hit(0))) == [4, 5, 6]
    melee_cover = Situation(melee=True, cover=True)
    assert hitting(defense_check(weapon(melee=True), melee_cover, ONE, Hit(0))) == [4, 5, 6]


# --- special rules ------------------------------------------------------------------------


def test_ap_gives_minus_x_to_defense() -> None:
    """seed 003 "AP(X)": targets get -X to Defense rolls: D4 vs AP(1) blocks on 5+, vs AP(2) only
    on a 6; the hit carries the weapon's AP."""
    p = weapon(ap=2)
    (hit,) = one_die(p, SHOOT, ONE, 4)
    assert hit == Hit(2)
    assert hitting(defense_check(p, SHOOT, ONE, Hit(1))) == [5, 6]
    assert hitting(defense_check(p, SHOOT, ONE, Hit(2))) == [6]
    assert hitting(defense_check(p, SHOOT, ONE, Hit(5))) == [6]  # a 6 always blocks


def test_bane_rerolls_unmodified_defense_six() -> None:
    """seed 003 "Bane": the target must re-roll unmodified Defense results of 6 (the re-roll
    stands, even another 6). Q4 hit on 4; Defense 6 re-rolled into 3 -> one wound."""
    bane = weapon(bane=True)
    roller, die = scripted_roller(4, 6, 3)
    assert resolve_attack([bane], TOUGH, SHOOT, roller).wounds == 1
    assert [c.test for c in die.asked] == [Test.HIT, Test.DEFENSE, Test.DEFENSE]
    roller, die = scripted_roller(4, 6, 6)
    assert resolve_attack([bane], ONE, SHOOT, roller).wounds == 0
    assert die.done
    roller, die = scripted_roller(4, 6)  # without Bane a 6 simply blocks
    assert resolve_attack([weapon()], ONE, SHOOT, roller).wounds == 0
    assert die.done
    # D4: wounds on 1-3 (1/2) and on a re-rolled 6 that fails (1/6 * 1/2): 7/12.
    assert pmf(wounds_per_hit(bane, SHOOT, ONE, Hit(0), D6M))[1] == Fraction(7, 12)
    # "unmodified": with cover a natural 5 blocks and is never re-rolled; a natural 6 is.
    assert not bane_reroll(bane, face_outcome(defense_check(bane, COVER, ONE, Hit(0)), 5))
    assert bane_reroll(bane, face_outcome(defense_check(bane, COVER, ONE, Hit(3)), 6))


def test_bane_ignores_regeneration() -> None:
    """seed 003 "Bane": ignores Regeneration; D4 with Regeneration still takes a wound on 1/2."""
    bane = weapon(bane=True)
    assert not regenerates(bane, REGEN)
    roller, die = scripted_roller(4, 2)  # no Regeneration die is asked for
    assert resolve_attack([bane], REGEN_TOUGH, SHOOT, roller).wounds == 1
    assert die.done


def test_blast_multiplies_hits_up_to_models_in_target() -> None:
    """seed 003 "Blast(X)": each hit is multiplied by X, where X is up to as many hits as enemy
    models in the target unit (and within 3" of it)."""
    blast = weapon(blast=3)
    assert blast_multiplier(blast, DefenderProfile(4, 5)) == 3
    assert blast_multiplier(blast, DefenderProfile(4, 2)) == 2
    assert blast_multiplier(blast, DefenderProfile(4, 5, near=1)) == 1
    assert len(one_die(blast, SHOOT, DefenderProfile(4, 5), 4)) == 3
    odds = attack_odds([blast], DefenderProfile(4, 5), SHOOT, D6M)
    assert pmf(odds.hits) == {0: Fraction(1, 2), 3: Fraction(1, 2)}


def test_blast_multiplies_after_other_special_rules() -> None:
    """seed 003 "Blast(X)": "after resolving other special rules": a Surge 6 makes 2 hits, and
    Blast(3) makes them 6."""
    p = weapon(blast=3, surge=True)
    hits = one_die(p, SHOOT, DefenderProfile(4, 5), 6)
    assert len(hits) == 6
    assert sum(h.extra for h in hits) == 3


def test_blast_ignores_cover() -> None:
    """seed 003 "Blast(X)": ignores cover: D4 in cover still needs 4+ against it."""
    blast = weapon(blast=3)
    assert ignores_cover(blast, COVER)
    assert hitting(defense_check(blast, COVER, ONE, Hit(0))) == [4, 5, 6]


def test_counter_takes_impact_dice_per_model() -> None:
    """seed 003 "Counter": the charging unit gets -1 total Impact rolls per model with Counter."""
    pikes = Unit(
        "Pikes",
        size=3,
        quality=4,
        defense=4,
        weapons=(Weapon("Pike", 1, count=2, rules=(Rule("Counter"),)), Weapon("Knife", 1)),
    )
    assert counter_models(pikes) == 2
    assert counter_models(Unit("Rabble", 3, 5, 5)) == 0
    assert counter_models(Unit("Wall", 2, 4, 4, rules=(Rule("Counter"),))) == 2
    impact = impact_attack(4, 3, CHARGE, counter=counter_models(pikes))
    assert impact is not None
    assert impact.dice == 1
    assert impact_attack(4, 2, CHARGE, counter=2) is None


def test_deadly_multiplies_each_wound() -> None:
    """seed 003 "Deadly(X)": assign each wound to one model and multiply it by X; a single
    model with Tough(6) takes 3 markers from one unblocked Deadly(3) hit."""
    deadly = weapon(deadly=3)
    failed = face_outcome(defense_check(deadly, SHOOT, ONE, Hit(0)), 2)
    blocked = face_outcome(defense_check(deadly, SHOOT, ONE, Hit(0)), 5)
    assert (wounds_from_block(deadly, failed), wounds_from_block(deadly, blocked)) == (3, 0)
    roller, _ = scripted_roller(4, 2)
    result = resolve_attack([deadly], DefenderProfile(4, 1, tough=6), SHOOT, roller)
    assert (result.wounds, result.markers, result.casualties) == (3, 3, 0)


def test_deadly_is_resolved_first() -> None:
    """seed 003 "Deadly(X)": hits from Deadly must be resolved first: its dice are rolled before
    the plain weapon's, though listed second (plain Q5, Deadly Q3)."""
    plain = AttackProfile("plain", dice=1, quality=5, melee=False)
    deadly = AttackProfile("deadly", dice=1, quality=3, melee=False, deadly=2)
    roller, die = scripted_roller(6, 6, 1, 1)
    # Deadly wound (2) kills one of the two models without carrying over, then the plain wound
    # marks the last model; resolved the other way round the last model would take 2 markers.
    result = resolve_attack([plain, deadly], DefenderProfile(4, 2, tough=3), SHOOT, roller)
    assert [c.target for c in die.asked[:2]] == [3, 5]
    assert (result.casualties, result.markers) == (1, 1)


def test_deadly_wounds_do_not_carry_over() -> None:
    """seed 003 "Deadly(X)": wounds do not carry over to other models: 3 dice against 4 models
    (never reaching the last) kill exactly as many models as a plain weapon, though Deadly(3)
    deals three times the wounds."""
    squad = DefenderProfile(4, 4)
    deadly = attack_odds([weapon(3, deadly=3)], squad, SHOOT, D6M)
    plain = attack_odds([weapon(3)], squad, SHOOT, D6M)
    assert deadly.casualties == plain.casualties
    assert deadly.wounds == plain.wounds.map(lambda w: 3 * w)


def test_fear_counts_extra_wounds_in_melee() -> None:
    """seed 003 "Fear(X)": counts as having dealt +X wounds when checking wound effects in melee.
    Tough(3) single model, one wound, Fear(2): it rolls at 3 and a 5 knocks it out (8+)."""
    tough = DefenderProfile(4, 1, tough=3)
    roller, die = scripted_roller(4, 1, 5)
    result = resolve_attack([weapon(melee=True)], tough, MELEE, roller, fear=2)
    assert (result.casualties, result.destroyed) == (1, True)
    assert die.done
    roller, _ = scripted_roller(4, 1, 4)  # 4 + 3 = 7: Shaken; Fear leaves no marker behind
    result = resolve_attack([weapon(melee=True)], tough, MELEE, roller, fear=2)
    assert (result.shaken, result.markers) == (True, 1)
    roller, die = scripted_roller(4, 1)  # without Fear one marker is short of Tough(3)
    result = resolve_attack([weapon(melee=True)], tough, MELEE, roller)
    assert (result.shaken, result.casualties, result.markers) == (False, 0, 1)
    assert die.done


def test_fear_needs_a_wound_and_melee() -> None:
    """seed 003 "Fear(X)": "must deal at least one wound to check", and only in melee."""
    tough = DefenderProfile(4, 1, tough=3)
    roller, die = scripted_roller(4, 5)  # blocked: no wound, no check
    assert not resolve_attack([weapon(melee=True)], tough, MELEE, roller, fear=2).shaken
    assert die.done
    roller, die = scripted_roller(4, 1)  # shooting: Fear does nothing
    assert resolve_attack([weapon()], tough, SHOOT, roller, fear=2).markers == 1
    assert die.done


def test_furious_charging_six_makes_one_extra_hit() -> None:
    """seed 003 "Furious": when charging, unmodified 6s to hit in melee deal 1 extra hit; only
    the original counts as a 6 (with Rending only it gets AP(+4))."""
    p = weapon(melee=True, furious=True, rending=True)
    assert one_die(p, CHARGE, ONE, 6) == (Hit(4), Hit(0, extra=True))
    assert len(one_die(p, CHARGE, ONE, 5)) == 1
    assert len(one_die(p, MELEE, ONE, 6)) == 1  # not charging
    assert extra_hits(weapon(furious=True), Situation(charging=True), True) == 0  # not melee
    odds = attack_odds([weapon(melee=True, furious=True)], ONE, CHARGE, D6M)
    assert pmf(odds.hits) == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}


def test_impact_rolls_x_dice_after_charging_each_two_plus_a_hit() -> None:
    """seed 003 "Impact(X)": roll X dice when attacking after charging, unless fatigued; each 2+
    is a hit (a Q5 unit too). Impact(2): 1 misses, 2 hits."""
    impact = impact_attack(5, 2, CHARGE)
    assert impact is not None
    assert impact == impact_profile(5, 2)
    assert (impact.dice, impact.ap, impact.melee) == (2, 0, True)
    assert hitting(hit_check(impact, CHARGE, ONE)) == [2, 3, 4, 5, 6]
    assert hitting(impact_check(CHARGE)) == [2, 3, 4, 5, 6]
    assert impact_attack(5, 2, Situation(melee=True, charging=True, fatigued=True)) is None
    assert impact_attack(5, 2, MELEE) is None
    assert impact_attack(5, 2, SHOOT) is None
    roller, die = scripted_roller(1, 2, 3)  # Impact dice 1 and 2, then Defense 3
    assert resolve_attack([impact], TOUGH, CHARGE, roller).hits == 1
    assert die.done
    odds = attack_odds([impact_profile(5, 3)], ONE, CHARGE, D6M)
    assert odds.hits[3] == Fraction(5, 6) ** 3
    # seed 000 "Impact(X)": on the clock each Impact die adds only 1.
    assert increment(hit_check(impact, CHARGE, ONE)) == 1


def test_impact_dice_are_per_model() -> None:
    """seed 003 "Impact(X)": X dice for each model that has the rule."""
    assert impact_dice(Unit("Beast", 1, 4, 4, rules=(Rule("Impact", 2),))) == 2
    assert impact_dice(Unit("Riders", 2, 5, 4, rules=(Rule("Impact", 1, count=2),))) == 2
    assert impact_dice(Unit("Riders", 3, 5, 4, rules=(Rule("Impact", 1, count=2),))) == 2
    assert impact_dice(Unit("Herd", 3, 5, 4, rules=(Rule("Impact", 1),))) == 3
    assert impact_dice(Unit("Foot", 3, 5, 4)) == 0


def test_indirect_minus_one_after_moving() -> None:
    """seed 003 "Indirect": -1 to hit rolls when shooting after moving (Q4 -> 5+)."""
    p = weapon(indirect=True)
    assert hit_modifiers(p, MOVED, ONE) == [-1]
    assert hitting(hit_check(p, MOVED, ONE)) == [5, 6]
    assert hit_modifiers(p, SHOOT, ONE) == []
    assert (
        hit_modifiers(weapon(melee=True, indirect=True), Situation(melee=True, moved=True), ONE)
        == []
    )


def test_indirect_ignores_cover_from_sight_obstructions_only() -> None:
    """seed 003 "Indirect": ignores cover from sight obstructions; cover from standing inside
    cover terrain ("Cover Terrain") still counts."""
    p = weapon(indirect=True)
    assert hitting(defense_check(p, BLOCKERS, ONE, Hit(0))) == [4, 5, 6]
    assert hitting(defense_check(p, COVER, ONE, Hit(0))) == [3, 4, 5, 6]
    assert hitting(defense_check(weapon(), BLOCKERS, ONE, Hit(0))) == [3, 4, 5, 6]
    assert not ignores_cover(p)


def test_regeneration_ignores_each_wound_on_five_plus() -> None:
    """seed 003 "Regeneration": roll one die for each wound; on a 5+ it is ignored. Deadly(2)
    hit unblocked: Regeneration 5 and 2 -> one wound stays."""
    assert hitting(regeneration_check(SHOOT)) == [5, 6]
    roller, die = scripted_roller(4, 1, 5, 2)
    result = resolve_attack(
        [weapon(deadly=2)], DefenderProfile(4, 1, tough=3, regeneration=True), SHOOT, roller
    )
    assert result.wounds == 1
    assert [c.test for c in die.asked][-2:] == [Test.REGENERATION] * 2
    # D4, no AP: 1/2 unblocked, 2/3 of that stays.
    assert pmf(wounds_per_hit(weapon(), SHOOT, REGEN, Hit(0), D6M)) == {
        0: Fraction(2, 3),
        1: Fraction(1, 3),
    }


def test_regeneration_needs_all_models() -> None:
    """seed 003 "Regeneration": "When a unit where all models have this rule takes wounds"."""
    every = Unit("Trolls", 2, 4, 4, rules=(Rule("Regeneration", count=2),))
    some = Unit("Trolls", 2, 4, 4, rules=(Rule("Regeneration", count=1),))
    assert defender_profile(every).regeneration
    assert not defender_profile(some).regeneration
    assert regenerates(weapon(), defender_profile(every))


def test_relentless_over_nine_inches_six_makes_extra_hit() -> None:
    """seed 003 "Relentless": shooting at enemies over 9" away, unmodified 6s deal 1 extra hit."""
    p = weapon(relentless=True)
    assert extra_hits(p, FAR, True) == 1
    assert extra_hits(p, AT_NINE, True) == 0  # 9" is not over 9"
    assert extra_hits(p, FAR, False) == 0
    assert extra_hits(AttackProfile("c", 1, 4, True, relentless=True), CHARGE, True) == 0
    assert one_die(p, FAR, ONE, 6) == (Hit(0), Hit(0, extra=True))


def test_reliable_attacks_at_quality_two_plus() -> None:
    """seed 003 "Reliable": attacks at Quality 2+; a Q6 unit hits on 2+, and with Stealth's -1
    on 3+ (a replacement, then modifiers)."""
    p = weapon(quality=6, reliable=True)
    assert hitting(hit_check(p, SHOOT, ONE)) == [2, 3, 4, 5, 6]
    assert hitting(hit_check(p, FAR, DefenderProfile(4, 1, stealth=True))) == [3, 4, 5, 6]


def test_rending_six_adds_ap_four() -> None:
    """seed 003 "Rending": on unmodified 6s to hit, those hits get AP(+4), added to the
    weapon's AP; other hits keep the weapon's AP."""
    p = weapon(ap=1, rending=True)
    assert one_die(p, SHOOT, ONE, 6) == (Hit(5),)
    assert one_die(p, SHOOT, ONE, 5) == (Hit(1),)
    # Q4 vs D2: 4-5 hit at AP(0), wound on a 1 (1/6); a 6 at AP(4), blocked only on a 6.
    odds = attack_odds([weapon(rending=True)], DefenderProfile(2, 1), SHOOT, D6M)
    assert odds.wounds[1] == Fraction(2, 6) * Fraction(1, 6) + Fraction(1, 6) * Fraction(5, 6)


def test_rending_ignores_regeneration() -> None:
    """seed 003 "Rending": ignores Regeneration."""
    assert not regenerates(weapon(rending=True), REGEN)
    roller, die = scripted_roller(4, 1)
    assert resolve_attack([weapon(rending=True)], REGEN_TOUGH, SHOOT, roller).wounds == 1
    assert die.done


def test_stealth_minus_one_when_shot_from_over_nine_inches() -> None:
    """seed 003 "Stealth": units where all models have it, shot from over 9" away: -1 to hit."""
    stealthy = DefenderProfile(4, 1, stealth=True)
    assert hit_modifiers(weapon(), FAR, stealthy) == [-1]
    assert hitting(hit_check(weapon(), FAR, stealthy)) == [5, 6]
    assert hit_modifiers(weapon(), AT_NINE, stealthy) == []
    assert hit_modifiers(weapon(melee=True), MELEE, stealthy) == []
    assert not defender_profile(Unit("Scouts", 2, 4, 4, rules=(Rule("Stealth", count=1),))).stealth
    assert defender_profile(Unit("Scouts", 2, 4, 4, rules=(Rule("Stealth"),))).stealth


def test_surge_six_makes_extra_hit() -> None:
    """seed 003 "Surge": on unmodified 6s to hit, 1 extra hit, shooting or melee; a 5 made 6 by
    Thrust's +1 is not unmodified."""
    assert len(one_die(weapon(surge=True), SHOOT, ONE, 6)) == 2
    assert len(one_die(weapon(melee=True, surge=True), MELEE, ONE, 6)) == 2
    thrusting = weapon(melee=True, surge=True, thrust=True)
    assert len(one_die(thrusting, CHARGE, ONE, 5)) == 1


def test_thrust_charging_plus_one_to_hit_and_ap() -> None:
    """seed 003 "Thrust": when charging, +1 to hit rolls and AP(+1) in melee (Q4 -> 3+)."""
    p = weapon(melee=True, ap=1, thrust=True)
    assert hit_modifiers(p, CHARGE, ONE) == [+1]
    assert hitting(hit_check(p, CHARGE, ONE)) == [3, 4, 5, 6]
    assert one_die(p, CHARGE, ONE, 3) == (Hit(2),)
    assert hit_modifiers(p, MELEE, ONE) == []
    assert one_die(p, MELEE, ONE, 4) == (Hit(1),)
    shooting = weapon(thrust=True)
    assert hit_modifiers(shooting, Situation(charging=True), ONE) == []


def test_unstoppable_ignores_negative_modifiers() -> None:
    """seed 003 "Unstoppable": ignores all negative modifiers to this weapon (Stealth, Indirect);
    bonuses stay (Thrust), and Fatigue is no modifier."""
    stealthy = DefenderProfile(4, 1, stealth=True)
    p = weapon(indirect=True, unstoppable=True)
    moved_far = Situation(distance=12.0, moved=True)
    assert hit_modifiers(p, moved_far, stealthy) == []
    assert hitting(hit_check(p, moved_far, stealthy)) == [4, 5, 6]
    assert hit_modifiers(weapon(melee=True, thrust=True, unstoppable=True), CHARGE, ONE) == [1]
    assert hitting(hit_check(weapon(melee=True, unstoppable=True), FATIGUED, ONE)) == [6]


def test_unstoppable_ignores_regeneration() -> None:
    """seed 003 "Unstoppable": ignores Regeneration."""
    assert not regenerates(weapon(unstoppable=True), REGEN)
    roller, die = scripted_roller(4, 1)
    assert resolve_attack([weapon(unstoppable=True)], REGEN_TOUGH, SHOOT, roller).wounds == 1
    assert die.done


def test_fatigue_only_unmodified_six_in_melee() -> None:
    """seed 003 "Fatigue": after charging or striking back, units only hit on unmodified 6s in
    melee (even Q2, Reliable or Thrust); shooting is not affected."""
    assert hitting(hit_check(weapon(quality=2, melee=True), FATIGUED, ONE)) == [6]
    assert hitting(hit_check(weapon(melee=True, reliable=True), FATIGUED, ONE)) == [6]
    tired_charge = Situation(melee=True, charging=True, fatigued=True)
    assert hitting(hit_check(weapon(melee=True, thrust=True), tired_charge, ONE)) == [6]
    assert hitting(hit_check(weapon(quality=2), Situation(fatigued=True), ONE)) == [2, 3, 4, 5, 6]
    odds = attack_odds([weapon(3, quality=2, melee=True)], ONE, FATIGUED, D6M)
    assert odds.hits[0] == Fraction(5, 6) ** 3


def test_shaken_strikes_back_as_fatigued() -> None:
    """seed 003 "Wound Effects / Shaken": may strike back counting as fatigued: a Shaken unit's
    strike back is a melee attack with ``fatigued=True`` and hits only on 6s."""
    striking_back = Situation(melee=True, fatigued=True)
    roller, die = scripted_roller(5, 6, 2)
    result = resolve_attack([weapon(2, quality=3, melee=True)], TOUGH, striking_back, roller)
    assert (result.hits, result.wounds) == (1, 1)
    assert die.done


def test_extra_hits_stack_and_never_count_as_six() -> None:
    """seed 003 "Furious" and "Surge": each deals 1 extra hit on an unmodified 6, so a Surge
    weapon of a Furious unit makes 3 hits on a charge; the extras carry no Rending AP(+4)."""
    p = weapon(melee=True, furious=True, surge=True, rending=True, ap=1)
    assert one_die(p, CHARGE, ONE, 6) == (Hit(5), Hit(1, extra=True), Hit(1, extra=True))
    assert extra_hits(p, CHARGE, True) == 2
    assert extra_hits(p, MELEE, True) == 1
