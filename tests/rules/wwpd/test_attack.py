"""The WWPD attack pipeline (seed 004_b5c87f7769291d1c): dice, allocation, wounds, saves."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TypedDict, Unpack

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Outcome, Test, get_mechanic
from oprlab.mechanics.wwpd import p_success
from oprlab.rules.wwpd.attack import (
    Attack,
    Conditions,
    DiceRoller,
    Options,
    Volley,
    allocate,
    can_damage,
    defender_order,
    kits,
    melee_attack,
    merged,
    representative_skill,
    resolve,
    save_target,
    shooting_attack,
    single_out_pick,
    wound_target,
)
from oprlab.rules.wwpd.exact import chain_probability
from oprlab.rules.wwpd.targets import Phase
from oprlab.units.profiles import WwpdModel, WwpdUnit, WwpdWeapon, load_wwpd

# Invented units in oprlab's profile format (docs/profiles.md).
FORCE = """
system: wwpd
name: Test Force
units:
  - name: Rifle Team
    models:
      - {name: Leader, ranged_skill: 3, melee_skill: 2, leadership: 3}
      - {name: Rifleman, count: 3, ranged_skill: 2, melee_skill: 2, leadership: 4}
    weapons:
      - {name: Rifle, count: 3, range: 24, rate_of_fire: 2}
      - {name: Grenade Tube, range: 18, rate_of_fire: 1, high_explosive: 1, massive: 1}
      - {name: Knife, count: 4}
  - name: Brutes
    models:
      - {name: Brute, count: 3, ranged_skill: 1, melee_skill: 3, leadership: 4, toughness: 1,
         melee_attacks: 3}
    weapons:
      - {name: Cleaver, count: 3, massive: 1, melee_offense: 1}
  - name: Wardens
    models:
      - {name: Warden, count: 2, ranged_skill: 2, melee_skill: 2, leadership: 4, armor: 2,
         melee_defense: 1}
    weapons:
      - {name: Shield Maul, count: 2, melee_defense: 1}
  - name: Crawler
    models:
      - {name: Crawler, ranged_skill: 2, melee_skill: 1, leadership: 4, toughness: 1, armor: 3,
         vehicle: true}
    weapons:
      - {name: Lance, range: 36, rate_of_fire: 2, massive: 1, anti_tank: 2}
"""


def units() -> dict[str, WwpdUnit]:
    return {u.name: u for u in load_wwpd(FORCE, "test").units}


class Stats(TypedDict, total=False):
    """A test model's profile beside its skills and Leadership."""

    toughness: int
    armor: int
    vehicle: bool
    melee_attacks: int
    melee_defense: int
    melee_offense: int


def trooper(name: str, **kw: Unpack[Stats]) -> WwpdUnit:
    model = WwpdModel(name, ranged_skill=2, melee_skill=2, leadership=4, **kw)
    return WwpdUnit(name, ((1, model),))


class Recorder:
    """A roller whose checks succeed by a rule the test gives, recording every check."""

    def __init__(self, succeeds: Callable[[Check], bool] = lambda c: True) -> None:
        self.succeeds = succeeds
        self.checks: list[Check] = []

    def roll(self, check: Check) -> Outcome:
        self.checks.append(check)
        ok = self.succeeds(check)
        return Outcome(success=ok, natural=6 if ok else 1)

    def of(self, test: Test) -> list[Check]:
        return [c for c in self.checks if c.test is test]


class Ratings(TypedDict, total=False):
    """A test weapon's ratings beside its range and Rate of Fire."""

    massive: int
    ap: int


def gun(name: str = "Lasgun", **kw: Unpack[Ratings]) -> WwpdUnit:
    """A Guardsman (skill 2) carrying one weapon of Rate of Fire 1."""
    g = WwpdModel("Guardsman", ranged_skill=2, melee_skill=2, leadership=4)
    return WwpdUnit("Guardsman", ((1, g),), ((1, WwpdWeapon(name, 24, 1, **kw)),))


# ---------------------------------------------------------------- models and weapons


def test_kits_hand_weapons_out_in_order() -> None:
    """seed 004 "Weapons": a unit's weapons, one ranged and one melee weapon per model in list
    order (our reading of the per-unit weapon list, docs/rules/wwpd.md)."""
    team = kits(units()["Rifle Team"])
    assert [k.profile.name for k in team] == ["Leader", "Rifleman", "Rifleman", "Rifleman"]
    assert [[w.name for w in k.ranged] for k in team] == [
        ["Rifle"],
        ["Rifle"],
        ["Rifle"],
        ["Grenade Tube"],
    ]
    assert all(k.melee is not None and k.melee.name == "Knife" for k in team)
    surplus = WwpdUnit(
        "Crew",
        ((2, WwpdModel("Gunner", 2, 2, 4)),),
        ((3, WwpdWeapon("Gun", 24, 2)),),
    )
    assert [len(k.ranged) for k in kits(surplus)] == [2, 1]
    assert kits(surplus)[0].melee is None


def test_defender_keeps_key_models() -> None:
    """seed 004 "Allocation of Hits": "the defending player may chose which model is Hit"; the
    Geek Note wants to keep the special weapons: the most common kit takes spare hits first."""
    team = kits(units()["Rifle Team"])
    assert defender_order(team) == (1, 2, 0, 3)


def test_representative_skill() -> None:
    """seed 004 "To Hit": "Attacker and defender compare relative skill", judged by the skill
    most of the unit's models have (ties: the higher)."""
    models = [k.profile for k in kits(units()["Rifle Team"])]
    assert representative_skill(models, "ranged") == 2
    assert representative_skill(models[:2], "ranged") == 3
    assert representative_skill(models, "melee") == 2
    with pytest.raises(OptionError):
        representative_skill([], "ranged")


# ---------------------------------------------------------------- to hit


def test_shooting_volleys_per_weapon_and_skill() -> None:
    """seed 004 "To Hit": each model rolls its Rate of Fire; 4+ adjusted by relative skill (the
    skill-3 Leader hits skill-2 targets on 3+)."""
    u = units()
    attack = shooting_attack(u["Rifle Team"], u["Wardens"])
    got = [(v.name, v.dice, v.to_hit) for v in attack.volleys]
    assert got == [("Rifle", 4, 4), ("Rifle", 2, 3), ("Grenade Tube", 1, 4)]
    assert attack.volleys[2].high_explosive == 1 and attack.volleys[2].massive == 1


def test_shooting_modifiers() -> None:
    """seed 004 "To Hit": Concealed +1, target Cowering +1, Cowering or Suppressed shooters -2,
    moved -1 (small arms), all in Shooting and Firefight."""
    u = units()
    for phase in (Phase.SHOOTING, Phase.FIREFIGHT):
        c = Conditions(
            phase,
            concealed=True,
            target_cowering=True,
            attacker_cowering_or_suppressed=True,
            moved=True,
        )
        attack = shooting_attack(u["Rifle Team"], u["Wardens"], c)
        assert [v.to_hit for v in attack.volleys] == [4 + 5, 3 + 5, 4 + 5]


def test_shooting_range_and_firing_models() -> None:
    """seed 004 "Allocation of Hits": "The model must be in range of the firing weapon"; weapons
    that do not reach, and models that cannot fire, roll nothing."""
    u = units()
    attack = shooting_attack(u["Rifle Team"], u["Wardens"], distance=20)
    assert [v.name for v in attack.volleys] == ["Rifle", "Rifle"]
    attack = shooting_attack(
        u["Rifle Team"],
        u["Wardens"],
        firing=[False, True, True, True],
        attacker_alive=[True, True, False, True],
    )
    assert [(v.name, v.dice) for v in attack.volleys] == [("Rifle", 2), ("Grenade Tube", 1)]
    attack = shooting_attack(u["Rifle Team"], u["Wardens"], in_range={"Rifle": [True, False]})
    hits = allocate(attack, [2, 3, 1])
    assert hits[0] == (2, 0) and hits[1] == (3, 0) and hits[2] == (0, 1)


def test_melee_to_hit_by_melee_skill() -> None:
    """seed 004 "To Hit": melee compares Melee Skill; each model rolls its Rate of Attacks."""
    u = units()
    attack = melee_attack(u["Brutes"], u["Rifle Team"])
    assert [(v.dice, v.to_hit, v.massive, v.melee_offense) for v in attack.volleys] == [
        (9, 3, 1, 1)
    ]
    back = melee_attack(u["Rifle Team"], u["Brutes"])
    assert [(v.dice, v.to_hit) for v in back.volleys] == [(4, 5)]


def test_melee_reach() -> None:
    """seed 004 "Allocation of Hits", Melee: hits on models within 2" of the attacker, evenly,
    those in base contact first; a model with nobody within 2" does not strike."""
    u = units()
    reach = [
        ([True, True, False, False], [False, True, False, False]),
        None,
        ([False, False, False, True], [False, False, False, False]),
    ]
    attack = melee_attack(u["Brutes"], u["Rifle Team"], reach=reach)
    assert [v.dice for v in attack.volleys] == [3, 3]
    hits = allocate(attack, [3, 2])
    assert hits == ((1, 2, 0, 0), (0, 0, 0, 2))


def test_bad_inputs() -> None:
    """Attacks happen in Shooting, Firefight or Melee; masks have one entry per model."""
    u = units()
    with pytest.raises(OptionError, match="Shooting, Firefight or Melee"):
        Conditions(Phase.MOVEMENT)
    with pytest.raises(OptionError, match="Shooting, Firefight or Melee"):
        Conditions("bogus")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="Shooting or Firefight"):
        shooting_attack(u["Rifle Team"], u["Wardens"], Conditions(Phase.MELEE))
    with pytest.raises(OptionError, match="one entry per model"):
        shooting_attack(u["Rifle Team"], u["Wardens"], target_alive=[True])
    with pytest.raises(OptionError, match="one entry per model"):
        melee_attack(u["Brutes"], u["Wardens"], reach=[None])
    with pytest.raises(OptionError, match="dice"):
        Volley("x", -1, 4)
    attack = shooting_attack(u["Rifle Team"], u["Wardens"])
    with pytest.raises(OptionError, match="one hit count per volley"):
        allocate(attack, [1])


# ---------------------------------------------------------------- to wound (worked examples)


def test_worked_examples_through_the_pipeline() -> None:
    """seed 004 "To Wound" Example: the Guardsman's lasgun wounds a Cultist on 2+, an Ork
    (Toughness 1) on 3+ and a Space Marine (Toughness 1, Armor 2) on 5+; a bolter (Massive 1)
    2+, 2+, 4+; a Heavy Bolter (Massive 2, AP 1) the Ork on 2+ and the Space Marine on 3+."""
    targets = {
        "Cultist": trooper("Cultist"),
        "Ork": trooper("Ork", toughness=1),
        "Space Marine": trooper("Space Marine", toughness=1, armor=2),
    }
    weapons: dict[str, tuple[Ratings, dict[str, int]]] = {
        "lasgun": ({}, {"Cultist": 2, "Ork": 3, "Space Marine": 5}),
        "bolter": ({"massive": 1}, {"Cultist": 2, "Ork": 2, "Space Marine": 4}),
        "heavy bolter": ({"massive": 2, "ap": 1}, {"Ork": 2, "Space Marine": 3}),
    }
    for name, (ratings, expected) in weapons.items():
        for target_name, x in expected.items():
            roller = Recorder(lambda c: c.test is not Test.SAVE)
            result = resolve(shooting_attack(gun(name, **ratings), targets[target_name]), roller)
            assert [c.target for c in roller.of(Test.TO_WOUND)] == [x], (name, target_name)
            assert roller.of(Test.SAVE) == [Check(Test.SAVE, 3)]
            assert result.casualties == 1


def test_a_failed_save_removes_the_model() -> None:
    """seed 004 "To Wound" and "Cover and Defensive Saves": a wound that is not saved removes
    the model (no wounds per model beyond Toughness); a saved wound does nothing."""
    marine = trooper("Space Marine", toughness=1, armor=2)
    saved = Recorder()
    assert resolve(shooting_attack(gun(), marine), saved).removed == ()
    failed = Recorder(lambda c: c.test is not Test.SAVE)
    result = resolve(shooting_attack(gun(), marine), failed)
    assert result.removed == (0,) and result.wounds == 1 and result.saves == 0


def test_roll_order_and_removed_models_roll_no_more() -> None:
    """seed 004 "Allocation of Hits": "Once the attacking unit has rolled to-Hit, the defending
    player must allocate each Hit": every to-hit die first; then hit by hit; hits left on a
    removed model are not rolled."""
    u = units()
    roller = Recorder(lambda c: c.test is not Test.SAVE)
    result = resolve(shooting_attack(u["Rifle Team"], u["Wardens"]), roller)
    kinds = [c.test for c in roller.checks]
    assert kinds[:7] == [Test.HIT] * 7
    assert Test.HIT not in kinds[7:]
    assert result.hits == (4, 2, 1) and result.allocation[0] == (2, 2)
    assert sorted(result.removed) == [0, 1]
    assert len(roller.of(Test.TO_WOUND)) == 2  # one per model: each went at its first wound


def test_vehicle_needs_anti_tank() -> None:
    """seed 004 "Weapons": "Anti-Tank weapons may damage Vehicles": other hits do nothing (no
    roll); Anti-Tank takes its rating off the vehicle's Armor; "Dice Conventions": a to-wound of
    7+ against an armoured vehicle cannot succeed."""
    u = units()
    crawler = u["Crawler"]
    roller = Recorder()
    result = resolve(shooting_attack(u["Rifle Team"], crawler), roller)
    assert result.total_hits == 7 and result.unharmed == 7 and result.removed == ()
    assert roller.of(Test.TO_WOUND) == []
    lance = shooting_attack(crawler, crawler)
    assert wound_target(lance.volleys[0], crawler.models[0][1]) == 2 + 0 + 1
    roller = Recorder()
    resolve(lance, roller)
    assert all(c.armoured_vehicle for c in roller.of(Test.TO_WOUND))
    heavy = WwpdModel("Bastion", 2, 2, 4, toughness=3, armor=4, vehicle=True)
    weak = Volley("Light AT", 1, 4, anti_tank=1)
    assert wound_target(weak, heavy) == 8
    attack = Attack((weak,), (heavy,), (True,), (0,))
    assert chain_probability(attack, weak, 0) == 0
    infantry = WwpdModel("Ogre", 2, 2, 4, toughness=3, armor=4)
    assert chain_probability(Attack((weak,), (infantry,), (True,), (0,)), weak, 0) > 0


# ---------------------------------------------------------------- saves


def test_cover_saves_by_phase() -> None:
    """seed 004 "Cover and Defensive Saves": 3+ in Shooting, 5+ in Firefight; Soft Cover +1,
    Hard Cover +2, Cowering +1; each level of High Explosive -1, so HE can remove the save."""
    u = units()
    for phase, base in ((Phase.SHOOTING, 3), (Phase.FIREFIGHT, 5)):
        attack = shooting_attack(u["Rifle Team"], u["Wardens"], Conditions(phase))
        rifle, tube = attack.volleys[0], attack.volleys[2]
        assert save_target(attack, rifle, 0) == base
        assert save_target(attack, tube, 0) == base + 1
        covered = shooting_attack(
            u["Rifle Team"],
            u["Wardens"],
            Conditions(phase, soft_cover=True, hard_cover=True, target_cowering=True),
        )
        assert save_target(covered, covered.volleys[0], 0) == base - 3
        stacked = shooting_attack(
            u["Rifle Team"],
            u["Wardens"],
            Conditions(phase, soft_cover=True, hard_cover=True),
            options=Options(stack_cover=True),
        )
        assert save_target(stacked, stacked.volleys[0], 0) == base - 3
    flamer = Volley("Flamer", 1, 4, high_explosive=2)
    cultist = trooper("Cultist").models[0][1]
    attack = Attack((flamer,), (cultist,), (True,), (0,), Conditions(Phase.FIREFIGHT))
    assert save_target(attack, flamer, 0) is None
    roller = Recorder(lambda c: c.test is not Test.SAVE)
    assert resolve(attack, roller).removed == (0,) and roller.of(Test.SAVE) == []
    kept = Attack(
        (flamer,),
        (cultist,),
        (True,),
        (0,),
        Conditions(Phase.FIREFIGHT),
        options=Options(save_removed_above_six=False),
    )
    assert save_target(kept, flamer, 0) == 7


def test_defensive_save_in_melee() -> None:
    """seed 004 "Cover and Defensive Saves": in Melee the basic Defensive Save is 5+; "Weapons":
    Melee Defense increases it and Melee Offense decreases it (model and equipment add up)."""
    u = units()
    attack = melee_attack(u["Brutes"], u["Wardens"])
    assert attack.melee_defense == (2, 2)
    assert save_target(attack, attack.volleys[0], 0) == 5 - 2 + 1
    back = melee_attack(u["Wardens"], u["Rifle Team"])
    assert save_target(back, back.volleys[0], 0) == 5


# ---------------------------------------------------------------- allocation and rolling


def test_allocation_across_volleys() -> None:
    """seed 004 "Allocation of Hits": evenly across the unit's weapons (earlier hits count);
    hits no model in range can take are lost."""
    m = trooper("Cultist").models[0][1]
    a = Volley("A", 3, 4)
    b = Volley("B", 3, 4, eligible=(False, False, True))
    c = Volley("C", 2, 4, eligible=(True, False, False))
    attack = Attack((a, b, c), (m, m, m), (True, True, False), (0, 0, 0))
    assert allocate(attack, [3, 2, 1]) == ((2, 1, 0), (0, 0, 0), (1, 0, 0))


def test_merging_neighbours_only() -> None:
    """Merging volleys that roll alike keeps allocation as it was (see docs/rules/wwpd.md)."""
    a, b = Volley("A", 2, 4), Volley("B", 3, 4)
    other = Volley("C", 1, 4, eligible=(True, False))
    assert merged([a, b]) == (Volley("A + B", 5, 4),)
    assert len(merged([a, other, b])) == 3
    assert merged([Volley("A", 0, 4)]) == ()


def test_dice_roller_replays_with_the_seed() -> None:
    """The same seed gives the same attack, roll for roll (the ``wwpd`` mechanic)."""
    u = units()
    attack = shooting_attack(u["Rifle Team"], u["Brutes"], Conditions(Phase.FIREFIGHT))
    one = [resolve(attack, DiceRoller(np.random.default_rng(7))) for _ in range(1)]
    two = [resolve(attack, DiceRoller(np.random.default_rng(7), get_mechanic("wwpd")))]
    assert one == two
    with pytest.raises(OptionError, match="random generator"):
        resolve(attack, DiceRoller(None))


def test_one_plus_to_hit_uses_the_dice_convention() -> None:
    """seed 004 "Dice Conventions": a 1+ to hit rerolls 1s once (the skill-4 shooter against
    skill 1 hits on 1+): the check is sent as it is and the mechanic gives 35/36."""
    ace = WwpdUnit("Ace", ((1, WwpdModel("Ace", 4, 2, 3)),), ((1, WwpdWeapon("Rifle", 24, 1)),))
    target = WwpdUnit("Militia", ((1, WwpdModel("Militia", 1, 1, 5)),))
    attack = shooting_attack(ace, target)
    assert attack.volleys[0].to_hit == 1
    assert p_success(attack.volleys[0].to_hit) == Fraction(35, 36)


# ---------------------------------------------------------------- weapon traits (allocation)

# Invented units: a sniper pair (one marksman rifle that singles out), a gun team that prefers
# vehicles, and a mixed target: a tractor (vehicle) with its crew.
TRAITS = """
name: Traits
units:
  - name: Snipers
    models:
      - {name: Sniper, count: 2, ranged_skill: 3, melee_skill: 2, leadership: 4}
    weapons:
      - {name: Long Rifle, range: 36, rate_of_fire: 1}
      - {name: Marksman Rifle, range: 36, rate_of_fire: 3, ap: 1, single_out: true}
  - name: Gun Team
    models:
      - {name: Gunner, count: 1, ranged_skill: 2, melee_skill: 2, leadership: 4}
    weapons:
      - {name: Hunter Cannon, range: 36, rate_of_fire: 5, massive: 1, anti_tank: 2,
         prefers: vehicle}
  - name: Tractor Crew
    models:
      - {name: Crewman, count: 2, ranged_skill: 2, melee_skill: 2, leadership: 4}
      - {name: Tractor, ranged_skill: 1, melee_skill: 1, leadership: 4, armor: 2,
         vehicle: true}
    weapons:
      - {name: Pistol, count: 2, range: 12, rate_of_fire: 1}
"""


def traits() -> dict[str, WwpdUnit]:
    return {u.name: u for u in load_wwpd(TRAITS, "traits").units}


def test_single_out_puts_every_hit_on_the_chosen_model() -> None:
    """seed 004 "Allocation of Hits": "If the weapon permits the attacker to single out a
    target model, that model must take all hits from the weapon" (the other rifle spreads)."""
    u = traits()
    target = units()["Rifle Team"]  # Leader, 2 Riflemen, the grenadier (index 3)
    attack = shooting_attack(u["Snipers"], target, singled_out={"Marksman Rifle": 0})
    marksman = next(v for v in attack.volleys if v.name == "Marksman Rifle")
    assert marksman.singled_out == 0 and marksman.dice == 3
    rifle = next(v for v in attack.volleys if v.name == "Long Rifle")
    assert rifle.singled_out is None
    hits = [1 if v is rifle else 3 for v in attack.volleys]
    got = dict(zip((v.name for v in attack.volleys), allocate(attack, hits), strict=True))
    assert got["Marksman Rifle"] == (3, 0, 0, 0)
    # the marksman's hits count toward the even spread: the rifle's hit avoids the Leader
    assert got["Long Rifle"][0] == 0 and sum(got["Long Rifle"]) == 1
    # every check succeeds but saves: the singled-out Leader falls to the first hit on him
    r = resolve(attack, Recorder(lambda c: c.test is not Test.SAVE))
    assert 0 in r.removed


def test_single_out_habit_and_choice() -> None:
    """seed 004 "Allocation of Hits": the attacker singles out; our habit takes the key model
    in range (the rarest kit: the grenadier), a weapon that cannot hurt a vehicle skips it, and
    the attacker may also decline (``None``: hits are spread evenly)."""
    u = traits()
    team = units()["Rifle Team"]
    attack = shooting_attack(u["Snipers"], team)
    assert [v.singled_out for v in attack.volleys if v.name == "Marksman Rifle"] == [3]
    # out of range of the marksman rifle: the next key model in range, the Leader
    limited = shooting_attack(
        u["Snipers"], team, in_range={"Marksman Rifle": (True, True, True, False)}
    )
    assert [v.singled_out for v in limited.volleys if v.singled_out is not None] == [0]
    # no anti-tank: the tractor is passed over for the crew it can hurt
    crew = u["Tractor Crew"]
    (marksman,) = (w for _, w in u["Snipers"].weapons if w.single_out)
    assert not can_damage(marksman, kits(crew)[2].profile)
    assert single_out_pick(marksman, kits(crew), [True, True, True]) == 1
    assert single_out_pick(marksman, kits(crew), [False, False, True]) == 2
    assert single_out_pick(marksman, kits(crew), [False, False, False]) is None
    spread = shooting_attack(u["Snipers"], team, singled_out={"Marksman Rifle": None})
    assert all(v.singled_out is None for v in spread.volleys)


def test_single_out_bad_choices() -> None:
    """A weapon without the trait, or a model not in play or not in range, is refused."""
    u = traits()
    team = units()["Rifle Team"]
    with pytest.raises(OptionError, match="does not permit") as info:
        shooting_attack(u["Snipers"], team, singled_out={"Long Rifle": 0})
    assert info.value.expected is not None and "Marksman Rifle" in info.value.expected
    with pytest.raises(OptionError, match="singled-out"):
        shooting_attack(u["Snipers"], team, singled_out={"Marksman Rifle": 9})
    with pytest.raises(OptionError, match="singled-out"):
        shooting_attack(
            u["Snipers"], team, target_alive=(False, True, True, True),
            singled_out={"Marksman Rifle": 0},
        )  # fmt: skip
    with pytest.raises(OptionError, match="singled-out"):
        shooting_attack(
            u["Snipers"], team, in_range={"Marksman Rifle": (False, True, True, True)},
            singled_out={"Marksman Rifle": 0},
        )  # fmt: skip
    with pytest.raises(ValueError, match="eligible"):
        single_out_pick(WwpdWeapon("x", 24, 1, single_out=True), kits(team), [True])


def test_preferred_target_type_takes_the_spare_hits() -> None:
    """seed 004 "Allocation of Hits": "the hit must be taken against a preferred target type
    before against any other (This is relevant to certain heavy weapons.)"; evenness comes first
    in the clause's order of priority, so the vehicle takes the hits left after the spread."""
    u = traits()
    attack = shooting_attack(u["Gun Team"], u["Tractor Crew"])
    (cannon,) = attack.volleys
    assert cannon.first == (False, False, True)
    assert allocate(attack, [1]) == ((0, 0, 1),)
    assert allocate(attack, [4]) == ((1, 1, 2),)
    assert allocate(attack, [5]) == ((2, 1, 2),)  # then the defender's order (list order)
    # a unit with no model (or only models) of the type: the plain even spread
    plain = shooting_attack(u["Gun Team"], units()["Rifle Team"])
    assert plain.volleys[0].first is None
    # a weapon without the trait spreads by the defender's order alone
    pistols = shooting_attack(u["Tractor Crew"], u["Tractor Crew"])
    assert pistols.volleys[0].first is None


def test_traits_keep_volleys_apart() -> None:
    """Volleys that single out different models, or none, do not merge."""
    a = Volley("A", 2, 4, singled_out=0)
    assert merged([a, Volley("B", 1, 4, singled_out=0)]) == (Volley("A + B", 3, 4, singled_out=0),)
    assert len(merged([a, Volley("B", 1, 4, singled_out=1)])) == 2
    assert len(merged([a, Volley("B", 1, 4)])) == 2
