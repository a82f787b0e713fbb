"""WWPD target numbers and hit allocation (seed 004_b5c87f7769291d1c)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oprlab.errors import OptionError
from oprlab.mechanics import Check
from oprlab.mechanics import Test as Kind
from oprlab.mechanics.wwpd import Wwpd
from oprlab.rules.wwpd import (
    Phase,
    allocate_hits,
    allocate_melee_hits,
    allocate_shooting_hits,
    can_fire_after_moving,
    cover_save_target,
    defensive_save_target,
    ranged_phase,
    to_hit_target,
    to_wound_target,
)

# ---------------------------------------------------------------- To Hit


def test_to_hit_basic_four_plus() -> None:
    """seed 004 "To Hit": "The basic number needed to hit is 4+" (equal skills)."""
    for skill in range(5):
        assert to_hit_target(skill, skill) == 4
        assert to_hit_target(skill, skill, phase="melee") == 4


def test_to_hit_relative_skill() -> None:
    """seed 004 "To Hit": -1 per level the attacker is better, +1 per level the defender is."""
    assert to_hit_target(3, 2) == 3
    assert to_hit_target(4, 1) == 1
    assert to_hit_target(4, 0) == 0
    assert to_hit_target(1, 2) == 5
    assert to_hit_target(0, 4) == 8
    assert to_hit_target(3, 1, phase=Phase.MELEE) == 2


def test_to_hit_shooting_modifiers() -> None:
    """seed 004 "To Hit": Concealed +1, target Cowering +1, shooter Cowering/Suppressed -2 to hit,
    moved -1 with small arms; in Shooting and Firefight alike."""
    for phase in ("shooting", "firefight"):
        assert to_hit_target(2, 2, phase=phase, concealed=True) == 5
        assert to_hit_target(2, 2, phase=phase, target_cowering=True) == 5
        assert to_hit_target(2, 2, phase=phase, attacker_cowering_or_suppressed=True) == 6
        assert to_hit_target(2, 2, phase=phase, moved=True) == 5
        everything = to_hit_target(
            3,
            2,
            phase=phase,
            concealed=True,
            target_cowering=True,
            attacker_cowering_or_suppressed=True,
            moved=True,
        )
        assert everything == 3 + 1 + 1 + 2 + 1


def test_to_hit_heavy_weapons_after_moving() -> None:
    """seed 004 "To Hit": "Certain heavy weapons may suffer a -2 penalty or be unable to fire"."""
    assert to_hit_target(2, 2, moved=True, heavy_moved_penalty=2) == 6
    assert to_hit_target(2, 2, moved=False, heavy_moved_penalty=2) == 4
    assert to_hit_target(2, 2, moved=False, heavy_moved_penalty=None) == 4
    assert not can_fire_after_moving(True, None)
    assert can_fire_after_moving(False, None)
    assert can_fire_after_moving(True, 2)
    with pytest.raises(OptionError, match="unable to fire after moving"):
        to_hit_target(2, 2, moved=True, heavy_moved_penalty=None)
    with pytest.raises(OptionError, match="heavy moved penalty"):
        to_hit_target(2, 2, moved=True, heavy_moved_penalty=-1)


def test_to_hit_melee_has_relative_skill_only() -> None:
    """seed 004 "To Hit": "Modifiers apply in Shooting and Firefight" only."""
    assert (
        to_hit_target(
            2,
            3,
            phase=Phase.MELEE,
            concealed=True,
            target_cowering=True,
            attacker_cowering_or_suppressed=True,
            moved=True,
            heavy_moved_penalty=None,
        )
        == 5
    )


def test_to_hit_off_the_die_uses_the_dice_convention() -> None:
    """seed 004 "Dice Conventions" with "To Hit": 4 vs 0 needs 0+ (double 1s fail)."""
    wwpd = Wwpd()
    assert wwpd.p_success(Check(Kind.HIT, to_hit_target(4, 0))) == Fraction(35, 36)
    target = to_hit_target(2, 2, concealed=True, attacker_cowering_or_suppressed=True)
    assert target == 7
    assert wwpd.p_success(Check(Kind.HIT, target)) == Fraction(1, 36)


@pytest.mark.parametrize(("attacker", "defender"), [(5, 2), (-1, 2), (2, 5), (2, -1)])
def test_to_hit_skill_out_of_range(attacker: int, defender: int) -> None:
    """seed 004 "Basic Characteristics": skills run from 0 to 4."""
    with pytest.raises(OptionError, match="0 to 4"):
        to_hit_target(attacker, defender)


def test_to_hit_bad_phase() -> None:
    """No to-hit rolls in Movement; unknown phases are named in the error."""
    with pytest.raises(OptionError, match="Movement"):
        to_hit_target(2, 2, phase=Phase.MOVEMENT)
    with pytest.raises(OptionError, match="shooting, firefight, melee"):
        to_hit_target(2, 2, phase="assault")


# ---------------------------------------------------------------- To Wound


def test_to_wound_lasgun() -> None:
    """seed 004 "To Wound" Example: the Guardsman wounds a Cultist on 2+, an Ork (Toughness 1)
    on 3+, a Space Marine (Toughness 1, Armor 2) on 5+."""
    assert to_wound_target(0, 0) == 2
    assert to_wound_target(1, 0) == 3
    assert to_wound_target(1, 2) == 5


def test_to_wound_bolter() -> None:
    """seed 004 "To Wound" Example, bolter (Massive 1) against "the same Cultist Ork and Space
    Marine" (three targets): Cultist still 2+, Ork 2+, Space Marine 4+."""
    assert to_wound_target(0, 0, massive=1) == 2
    assert to_wound_target(1, 0, massive=1) == 2
    assert to_wound_target(1, 2, massive=1) == 4


def test_to_wound_heavy_bolter() -> None:
    """seed 004 "To Wound" Example, Heavy Bolter (Massive 2, AP 1): Ork 2+, Space Marine 3+."""
    assert to_wound_target(1, 0, massive=2, ap=1) == 2
    assert to_wound_target(1, 2, massive=2, ap=1) == 3


def test_to_wound_never_better_than_two_plus() -> None:
    """seed 004 "To Wound": once reduced to 0, Massive and AP have no more effect."""
    for massive in range(10):
        for ap in range(10):
            assert to_wound_target(0, 0, massive=massive, ap=ap) == 2
    assert to_wound_target(3, 2) == 7
    assert to_wound_target(3, 2, massive=1) == 6
    assert to_wound_target(3, 2, ap=5) == 5


@pytest.mark.parametrize(
    "kwargs",
    [
        {"toughness": -1, "armor": 0},
        {"toughness": 0, "armor": -1},
        {"toughness": 0, "armor": 0, "massive": -1},
        {"toughness": 0, "armor": 0, "ap": 10},
    ],
)
def test_to_wound_bad_ratings(kwargs: dict[str, int]) -> None:
    """Ratings are whole levels from 0; the error names the range."""
    with pytest.raises(OptionError, match="0 to 9"):
        to_wound_target(**kwargs)


# ---------------------------------------------------------------- Cover and Defensive Saves


def test_cover_save_basic() -> None:
    """seed 004 "Cover and Defensive Saves": basic 3+ in Shooting, 5+ in Firefight."""
    assert cover_save_target("shooting") == 3
    assert cover_save_target(Phase.FIREFIGHT) == 5


def test_cover_save_bonuses() -> None:
    """seed 004 "Cover and Defensive Saves": Soft Cover +1, Hard Cover +2, Cowering +1."""
    assert cover_save_target("firefight", soft_cover=True) == 4
    assert cover_save_target("firefight", hard_cover=True) == 3
    assert cover_save_target("firefight", cowering=True) == 4
    assert cover_save_target("firefight", hard_cover=True, cowering=True) == 2


def test_cover_save_soft_and_hard() -> None:
    """Reading (docs/rules/wwpd.md): a model counts its best cover only, unless stacking."""
    assert cover_save_target("firefight", soft_cover=True, hard_cover=True) == 3
    assert cover_save_target("firefight", soft_cover=True, hard_cover=True, stack_cover=True) == 2


def test_cover_save_one_plus_fails_on_double_ones() -> None:
    """seed 004 "Cover and Defensive Saves", Geek Note: cover and cowering easily give 1+ or
    better, and "A model with a 1+ cover save will fail on double 1s"."""
    one_plus = cover_save_target("shooting", soft_cover=True, cowering=True)
    assert one_plus == 1
    better = cover_save_target("shooting", hard_cover=True, cowering=True)
    assert better == 0
    for target in (one_plus, better):
        assert Wwpd().p_success(Check(Kind.SAVE, target)) == 1 - Fraction(1, 36)


def test_cover_save_high_explosive() -> None:
    """seed 004 "Cover and Defensive Saves": each HE level takes 1 off the save, "even the basic
    Save", and can "remove Cover Saves altogether" (default: a save past 6+ is gone)."""
    assert cover_save_target("shooting", high_explosive=1) == 4
    assert cover_save_target("shooting", high_explosive=3) == 6
    assert cover_save_target("shooting", high_explosive=4) is None
    assert cover_save_target("firefight", high_explosive=2) is None
    assert cover_save_target("firefight", hard_cover=True, high_explosive=2) == 5


def test_cover_save_past_six_as_dice_convention() -> None:
    """Option (docs/rules/wwpd.md): keep a save past 6+ as a 7+ roll (a 6 then a 6)."""
    target = cover_save_target("shooting", high_explosive=6, save_removed_above_six=False)
    assert target == 9
    assert Wwpd().p_success(Check(Kind.SAVE, target)) == Fraction(1, 36)


def test_cover_save_bad_inputs() -> None:
    """Cover saves are for Shooting and Firefight; HE is a rating from 0."""
    with pytest.raises(OptionError, match="defensive_save_target"):
        cover_save_target("melee")
    with pytest.raises(OptionError, match="unknown phase"):
        cover_save_target("overwatch")
    with pytest.raises(OptionError, match="high explosive"):
        cover_save_target("shooting", high_explosive=-1)


def test_defensive_save() -> None:
    """seed 004 "Cover and Defensive Saves" and "Weapons": basic 5+; Melee Defense increases
    the save, Melee Offense decreases it."""
    assert defensive_save_target() == 5
    assert defensive_save_target(melee_defense=1) == 4
    assert defensive_save_target(melee_offense=2) == 7
    assert defensive_save_target(melee_defense=2, melee_offense=1) == 4
    assert defensive_save_target(melee_defense=5) == 0
    with pytest.raises(OptionError, match="melee offense"):
        defensive_save_target(melee_offense=-1)


# ---------------------------------------------------------------- Turns and Phases


def test_phases() -> None:
    """seed 004 "Turns and Phases": Shooting over 12" (active player only), Firefight within
    12" (both players), Melee (both players)."""
    assert list(Phase) == [Phase.MOVEMENT, Phase.SHOOTING, Phase.FIREFIGHT, Phase.MELEE]
    assert ranged_phase(12.5) is Phase.SHOOTING
    assert ranged_phase(12) is Phase.FIREFIGHT
    assert ranged_phase(0) is Phase.FIREFIGHT
    assert not Phase.SHOOTING.both_players_act
    assert Phase.FIREFIGHT.both_players_act and Phase.MELEE.both_players_act
    with pytest.raises(OptionError):
        ranged_phase(-1)


# ---------------------------------------------------------------- Allocation of Hits


def test_allocation_even_spread() -> None:
    """seed 004 "Allocation of Hits": each model in range takes 1 before any takes 2."""
    assert allocate_shooting_hits(7, [True, True, False, True]) == (3, 2, 0, 2)
    assert allocate_shooting_hits(2, [True] * 5) == (1, 1, 0, 0, 0)


def test_allocation_defender_chooses_extras() -> None:
    """seed 004 "Allocation of Hits": "Beyond these guidelines, the defending player may chose"."""
    assert allocate_shooting_hits(5, [True] * 4, order=[3, 1, 0, 2]) == (1, 1, 1, 2)


def test_allocation_single_out() -> None:
    """seed 004 "Allocation of Hits": a singled-out model must take all hits from the weapon."""
    assert allocate_shooting_hits(4, [True, True, True], singled_out=2) == (0, 0, 4)
    with pytest.raises(OptionError, match="singled-out"):
        allocate_shooting_hits(4, [True, False], singled_out=1)


def test_allocation_preferred_type() -> None:
    """seed 004 "Allocation of Hits": preferred target type before any other, after evenness."""
    assert allocate_shooting_hits(5, [True] * 4, preferred=[False, False, True, False]) == (
        1,
        1,
        2,
        1,
    )


def test_allocation_melee_base_contact_first() -> None:
    """seed 004 "Allocation of Hits", melee: within 2", evenly, base contact before within 2"."""
    within = [True, True, True, False]
    contact = [False, True, False, True]  # a model in base contact is within 2"
    assert allocate_melee_hits(2, within, contact) == (0, 1, 0, 1)
    assert allocate_melee_hits(5, within, contact) == (1, 2, 1, 1)


def test_allocation_counts_earlier_hits() -> None:
    """Evenness counts hits from earlier weapons of the same attack."""
    assert allocate_shooting_hits(3, [True, True, True], taken=[2, 0, 0]) == (0, 2, 1)


def test_allocation_bad_inputs() -> None:
    """Bad hit counts, masks and orders are refused with the value."""
    with pytest.raises(OptionError, match="no model"):
        allocate_hits(1, [False, False])
    assert allocate_hits(0, [False, False]) == (0, 0)
    with pytest.raises(OptionError, match="hits"):
        allocate_hits(-1, [True])
    with pytest.raises(OptionError, match="wrong length"):
        allocate_hits(1, [True], first=[True, False])
    with pytest.raises(OptionError, match="order"):
        allocate_hits(1, [True, True], order=[0, 0])
    with pytest.raises(OptionError, match="taken"):
        allocate_hits(1, [True, True], taken=[0, -1])


@st.composite
def _unit(draw: st.DrawFn) -> tuple[int, list[bool], list[bool], list[int]]:
    models = draw(st.integers(1, 12))
    eligible = draw(st.lists(st.booleans(), min_size=models, max_size=models))
    if not any(eligible):
        eligible[draw(st.integers(0, models - 1))] = True
    first = draw(st.lists(st.booleans(), min_size=models, max_size=models))
    order = draw(st.permutations(range(models)))
    return draw(st.integers(0, 60)), eligible, first, list(order)


@given(_unit())
def test_allocation_properties(unit: tuple[int, list[bool], list[bool], list[int]]) -> None:
    """seed 004 "Allocation of Hits": eligible counts differ by at most 1, the sum is the hits,
    ineligible models take none, and a 'first' model is never below a non-first one."""
    hits, eligible, first, order = unit
    result = allocate_hits(hits, eligible, first=first, order=order)
    assert sum(result) == hits
    assert all(r == 0 for r, e in zip(result, eligible, strict=True) if not e)
    counts = [r for r, e in zip(result, eligible, strict=True) if e]
    assert max(counts) - min(counts) <= 1
    ahead = [r for r, e, f in zip(result, eligible, first, strict=True) if e and f]
    behind = [r for r, e, f in zip(result, eligible, first, strict=True) if e and not f]
    if ahead and behind:
        assert min(ahead) >= max(behind)


@given(_unit(), st.lists(st.integers(0, 5), min_size=12, max_size=12))
def test_allocation_with_earlier_hits(
    unit: tuple[int, list[bool], list[bool], list[int]], earlier: list[int]
) -> None:
    """Water-filling: no model takes a new hit while an eligible model has fewer in total."""
    hits, eligible, first, order = unit
    taken = earlier[: len(eligible)]
    result = allocate_hits(hits, eligible, first=first, order=order, taken=taken)
    assert sum(result) == hits
    totals = [t + r for t, r in zip(taken, result, strict=True)]
    lowest = min(t for t, e in zip(totals, eligible, strict=True) if e)
    for total, new in zip(totals, result, strict=True):
        if new:
            assert total - 1 <= lowest
