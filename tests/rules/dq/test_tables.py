"""DragonQuest combat tables (seed 001_7377b7b33dc9f88d): Table 2, damage, 57.1/57.2, evading."""

from __future__ import annotations

from fractions import Fraction

import pytest

from oprlab.errors import OptionError, UnknownNameError
from oprlab.mechanics.dq import opposed_result_dist, quality_dist, success_quality
from oprlab.prob import Dist
from oprlab.rules.dq import (
    AIMING,
    DEFENCE_MODIFIERS,
    STRIKE_CHANCE_MODIFIERS,
    TABLE_2,
    Applied,
    AssassinAttack,
    Damage,
    DamageRoll,
    ParryResult,
    assassin_roll_modifier,
    damage,
    damage_dist,
    knockout_succeeds,
    may_parry,
    missile_range_steps,
    modified_chance,
    modifier,
    parry_chance,
    parry_result,
    total_defence_modifiers,
    total_strike_chance_modifiers,
)

SEED = "seed 001_7377b7b33dc9f88d"
D10_PLUS_2 = DamageRoll(10, 2)


# --- Table 2 --------------------------------------------------------------------------------


def test_table_2_rows() -> None:
    """seed 001 "Table 2": names, letters, armour FT at 1-2, EN at 3-4, none at 5-6."""
    assert [r.name for r in TABLE_2] == [
        "Poor",
        "Average",
        "Better",
        "Crucial",
        "Decisive",
        "Excellent",
        "Fantastic",
    ]
    assert "".join(r.letter for r in TABLE_2) == "PABCDEF"
    assert [r.armour for r in TABLE_2] == [None, "FT", "FT", "EN", "EN", None, None]
    assert [r.possible_grievous for r in TABLE_2] == [False] * 4 + [True] * 3
    assert [r.maximum for r in TABLE_2] == [False, False, True, False, False, True, True]
    assert [r.level for r in TABLE_2] == list(range(7))
    assert TABLE_2[0].description == "Blocked"
    assert TABLE_2[6].extra == 10


def test_damage_each_level() -> None:
    """seed 001 "Table 2" and "Armour Definition": D10+2 rolling 7, FT 3, EN 2, DR 1; DR applies
    at every level, FT at 1-2, EN at 3-4, no armour at 5-6; Maximum uses 12."""
    got = [damage(lv, D10_PLUS_2, 7, ft_armour=3, en_armour=2, dr=1) for lv in range(7)]
    assert got == [
        Damage(),
        Damage(fatigue=3),  # 7 - 3 - 1
        Damage(fatigue=8),  # 12 - 3 - 1
        Damage(endurance=4),  # 7 - 2 - 1
        Damage(endurance=4, possible_grievous=True),
        Damage(endurance=11, possible_grievous=True),  # 12 - 1
        Damage(endurance=21, possible_grievous=True),  # 12 + 10 - 1
    ]


def test_damage_never_negative_and_maximum_needs_no_roll() -> None:
    """seed 001 "Armour Definition": armour cannot push damage below 0; a Maximum result deals
    the weapon's maximum, so no roll is needed."""
    assert damage(1, D10_PLUS_2, 3, ft_armour=5, dr=2) == Damage()
    assert damage(3, DamageRoll(6), 2, en_armour=9) == Damage()
    assert damage(5, DamageRoll(6), dr=20) == Damage(possible_grievous=True)
    assert damage(2, DamageRoll(8, -1)) == Damage(fatigue=7)


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: damage(1, D10_PLUS_2), "roll"),
        (lambda: damage(3, D10_PLUS_2, 13), "roll"),
        (lambda: damage(3, D10_PLUS_2, 2), "roll"),
        (lambda: damage(7, D10_PLUS_2, 5), "result quality"),
        (lambda: damage(1, D10_PLUS_2, 5, ft_armour=-1), "ft_armour"),
        (lambda: damage(1, D10_PLUS_2, 5, dr=-2), "dr"),
        (lambda: DamageRoll(0), "damage die"),
    ],
)
def test_damage_bad_inputs(call: object, where: str) -> None:
    """seed 001 "Table 2": the roll must be one the weapon can make; armour is not negative."""
    assert callable(call)
    with pytest.raises(OptionError, match=where):
        call()


@pytest.mark.parametrize("level", range(7))
def test_damage_dist_matches_each_roll(level: int) -> None:
    """seed 001 "Table 2": the exact damage of one result level over the weapon's faces."""
    weapon = DamageRoll(6, 1)
    brute = Dist.uniform(
        damage(level, weapon, face + 1, ft_armour=2, en_armour=3, dr=1) for face in range(1, 7)
    )
    assert damage_dist(level, weapon, ft_armour=2, en_armour=3, dr=1) == brute


def test_damage_dist_of_a_strike_matches_brute_force() -> None:
    """seed 001 "Steps" 1-4: attack roll, defence roll, Table 2 damage, over 100 x 100 x 6."""
    weapon = DamageRoll(6, 2)
    counts: dict[Damage, int] = {}
    for a in range(1, 101):
        qa = success_quality(a, 140)
        for d in range(1, 101):
            level = max(0, qa - success_quality(d, 45))
            for face in range(1, 7):
                dealt = damage(level, weapon, face + 2, ft_armour=4, en_armour=2, dr=1)
                counts[dealt] = counts.get(dealt, 0) + 1
    result = opposed_result_dist(140, 45)
    exact = damage_dist(result, weapon, ft_armour=4, en_armour=2, dr=1)
    assert exact == Dist(counts)
    assert sum(p for _, p in exact.items()) == 1


def test_knockout_needs_result_3() -> None:
    """seed 001 "57.3 Combat Equation Summary", Knockout: a Result Quality of 3 or better."""
    assert [knockout_succeeds(lv) for lv in range(7)] == [False] * 3 + [True] * 4


# --- 57.1 and 57.2 ---------------------------------------------------------------------------


def test_modifier_lists_as_printed() -> None:
    """seed 001 "57.1" and "57.2": every line, with its value, in its section."""
    assert len(STRIKE_CHANCE_MODIFIERS) == 25
    assert len(DEFENCE_MODIFIERS) == 14
    # The values in the seed's order (per point, per hex, per 5 hexes for the counted ones).
    assert [m.value for m in STRIKE_CHANCE_MODIFIERS] == [
        *(1, -20),
        *(-10, -20, 20, -15, 10, 30, 20),
        *(10, 20, 10, 20, -15, -3, -3),
        *(-10, -20, -30, -40, -50),
        *(-20, -10, -20, -10),
    ]
    assert [m.value for m in DEFENCE_MODIFIERS] == [
        *(1, -20, -20),
        *(-10, -15, 20, 10, 4),
        *(-10, 5, 10, 20, 20),
        20,
    ]
    assert [m.key for m in STRIKE_CHANCE_MODIFIERS if m.per] == [
        "close_attacker_ps",
        "ranged_thrown_hex",
        "ranged_missile_range",
    ]
    assert [m.key for m in DEFENCE_MODIFIERS if m.per] == [
        "close_defender_ps",
        "melee_evading_rank",
    ]
    assert {m.section.value for m in STRIKE_CHANCE_MODIFIERS} == {"57.1"}
    assert {m.section.value for m in DEFENCE_MODIFIERS} == {"57.2"}
    groups_57_1 = [m.group.value for m in STRIKE_CHANCE_MODIFIERS]
    groups_57_2 = [m.group.value for m in DEFENCE_MODIFIERS]
    assert [groups_57_1.count(g) for g in ("close combat", "melee combat", "ranged combat")] == [
        2,
        7,
        7,
    ]
    assert [groups_57_1.count(g) for g in ("visibility", "miscellaneous")] == [5, 4]
    assert [groups_57_2.count(g) for g in ("close combat", "melee combat", "ranged combat")] == [
        3,
        5,
        5,
    ]
    assert groups_57_2.count("miscellaneous") == 1
    assert modifier("melee_rear_hex").value == 30
    assert modifier("ranged_rear_hex").value == 20
    assert modifier("melee_defensive_withdrawal").value == 20
    assert len({m.key for m in STRIKE_CHANCE_MODIFIERS + DEFENCE_MODIFIERS}) == 39


def test_visibility_only_the_worst_counts() -> None:
    """seed 001 "57.1": "All modifications except visibility are cumulative"."""
    total = total_strike_chance_modifiers(
        ["visibility_cloudy_night", "visibility_pitch_black", "melee_rear_hex"]
    )
    assert total.chance == 30 - 40
    assert total_strike_chance_modifiers(["visibility_cloudy_night"]).chance == -20
    both = total_strike_chance_modifiers(["melee_flank_hex", "misc_multiple_strike"])
    assert both.chance == 0


def test_strike_chance_counted_modifiers() -> None:
    """seed 001 "57.1": +1 per point of PS, -3 per hex thrown, -3 per 5 hexes (or fraction)
    beyond the first 5 for missiles."""
    assert [missile_range_steps(h) for h in (0, 5, 6, 10, 11, 23)] == [0, 0, 1, 1, 2, 4]
    total = total_strike_chance_modifiers(
        [
            Applied(modifier("close_attacker_ps"), 15),
            Applied(modifier("ranged_missile_range"), missile_range_steps(12)),
        ]
    )
    assert total.chance == 15 - 6
    thrown = total_strike_chance_modifiers([Applied(modifier("ranged_thrown_hex"), 4)])
    assert thrown.chance == -12


def test_defence_modifiers_all_cumulative() -> None:
    """seed 001 "57.2": "All modifications are cumulative"; +4 per rank when evading."""
    total = total_defence_modifiers(
        [
            "melee_defender_stunned",
            "melee_evading",
            Applied(modifier("melee_evading_rank"), 3),
            modifier("misc_defender_airborne"),
        ]
    )
    assert total.chance == -15 + 10 + 12 + 20
    assert total.roll == 0


def test_modified_chance_floors_at_zero() -> None:
    """seed 001 "Defence Calculation" (Stunned: Magical Defence + modifiers): a defence pushed
    below 0 counts as 0."""
    stunned = total_defence_modifiers(["close_defender_stunned"])
    assert modified_chance(5, stunned) == 0
    assert modified_chance(50, stunned) == 30


@pytest.mark.parametrize(
    ("chosen", "error"),
    [
        (["close_attacker_ps"], OptionError),  # counts per point: needs a count
        (["melee_evading"], OptionError),  # a 57.2 line in a 57.1 total
        (["melee_rear_hex", "melee_rear_hex"], OptionError),
        ([Applied(modifier("melee_rear_hex"), 2)], OptionError),
        (["rear_hex"], UnknownNameError),
    ],
)
def test_bad_modifier_choices(chosen: list[object], error: type[Exception]) -> None:
    """seed 001 "57.1": each line once, in its own list, counted where it counts per unit."""
    with pytest.raises(error):
        total_strike_chance_modifiers(chosen)  # type: ignore[arg-type]


# --- Aiming and the assassin ----------------------------------------------------------------


def test_aiming_is_20_on_the_chance_and_5_off_the_roll() -> None:
    """seed 001 "Ranged": Aiming: +20% SC as usual but -5 dice roll modifier (57.1: +20 aim)."""
    assert total_strike_chance_modifiers(["ranged_aim"]) == AIMING
    assert (AIMING.chance, AIMING.roll) == (20, 5)
    # SC 40 aimed: 60 with 5 off the roll; Decisive (10% of 60 = 6) on rolls up to 11.
    aimed = quality_dist(modified_chance(40, AIMING), AIMING.roll)
    assert aimed.probability(lambda q: q >= 4) == Fraction(11, 100)
    assert quality_dist(60).probability(lambda q: q >= 4) == Fraction(6, 100)


def test_assassin_bonus_as_dice_modifier() -> None:
    """seed 001 "Assassin": -2/rank from surprise, -1/rank from behind, -1/3 ranks in front."""
    assert assassin_roll_modifier(4, AssassinAttack.SURPRISE) == 8
    assert assassin_roll_modifier(4, AssassinAttack.BEHIND) == 4
    assert [assassin_roll_modifier(r, AssassinAttack.FRONT) for r in (2, 3, 5, 6, 10)] == [
        0,
        1,
        1,
        2,
        3,
    ]
    bonus = assassin_roll_modifier(3, AssassinAttack.SURPRISE)  # 6 off the roll
    assert quality_dist(60, bonus).probability(lambda q: q >= 4) == Fraction(12, 100)
    with pytest.raises(OptionError, match="assassin rank"):
        assassin_roll_modifier(11, AssassinAttack.BEHIND)


# --- Evading ---------------------------------------------------------------------------------


def test_parry_needs_defence_two_better() -> None:
    """seed 001 "Evading": a parry when the Defence Quality is two or more better."""
    assert may_parry(1, 3)
    assert may_parry(0, 2)
    assert not may_parry(1, 2)
    assert not may_parry(4, 4)
    with pytest.raises(OptionError, match="defence quality"):
        may_parry(1, 7)


def test_parry_chance_matches_brute_force() -> None:
    """seed 001 "Evading": exact chance of a parry attempt, over 100 x 100 rolls."""
    evading = modified_chance(45, total_defence_modifiers(["melee_evading"]))
    hits = sum(
        1
        for a in range(1, 101)
        for d in range(1, 101)
        if success_quality(d, evading) - success_quality(a, 70) >= 2
    )
    assert parry_chance(70, evading) == Fraction(hits, 10_000)
    assert 0 < hits < 10_000


def test_parry_result() -> None:
    """seed 001 "57.3" Parry result: D10 + evader's Rank - attacker's Rank: 3 or less parry,
    4-7 disarm, 8 or more disarm and riposte."""
    assert [parry_result(d, 2, 2) for d in (1, 3, 4, 7, 8, 10)] == [
        ParryResult.PARRY,
        ParryResult.PARRY,
        ParryResult.DISARM,
        ParryResult.DISARM,
        ParryResult.DISARM_RIPOSTE,
        ParryResult.DISARM_RIPOSTE,
    ]
    assert parry_result(1, 5, 2) == ParryResult.DISARM
    assert parry_result(10, 0, 8) == ParryResult.PARRY
    with pytest.raises(OptionError, match="d10"):
        parry_result(0, 1, 1)
