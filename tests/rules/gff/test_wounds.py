"""Groups & Wounds, Wound Effects, Tough(X) and Deadly's allocation (seed 003_8abb008d4113ed75),
hook by hook and through ``resolve_attack`` with hand-written dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oprlab.mechanics import Owner, Test
from oprlab.mechanics.d6 import D6, outcome_table
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.exact import attack_odds
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import resolve_attack
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, take_wounds, wound_effect_check
from tests.rules.gff.scripted import scripted_roller

D6M = D6()
OWNER = Owner(army="defender", unit="defender")
SHOOT = Situation(distance=6.0)


def knocked_out_faces(d: DefenderProfile, damage: Damage, fear: int = 0) -> list[int]:
    """The faces of the wound-effect die that knock the model out."""
    check = wound_effect_check(d, damage, OWNER, fear)
    return [o.natural for o in outcome_table(check) if not o.success]


# --- Groups & Wounds ------------------------------------------------------------------------


def test_each_wound_kills_one_model_until_the_last() -> None:
    """seed 003 "Groups & Wounds": each wound kills one model until only one last model remains;
    only the last model accumulates wounds."""
    squad = DefenderProfile(5, models=3)
    assert take_wounds(squad, [], 1) == Damage(killed=1, markers=0)
    assert take_wounds(squad, [], 2) == Damage(killed=2, markers=0)
    assert take_wounds(squad, [], 4) == Damage(killed=2, markers=2)
    assert take_wounds(DefenderProfile(5, models=1), [], 3) == Damage(killed=0, markers=3)


def test_only_the_last_model_rolls_for_wound_effects() -> None:
    """seed 003 "Groups & Wounds": only the last model rolls to see if it is Shaken or Knocked
    Out: two wounds on three models roll nothing; a third wound makes the last model roll."""
    squad = DefenderProfile(5, models=3)
    assert not rolls_wound_effect(squad, take_wounds(squad, [], 2))
    assert rolls_wound_effect(squad, take_wounds(squad, [], 3))
    # Q4 x3 all hit (4, 5, 6), three failed blocks, wound effect 5 + 1 marker = 6: Knocked Out.
    roller, die = scripted_roller(4, 5, 6, 1, 2, 3, 5)
    result = resolve_attack([AttackProfile("g", 3, 4, False)], squad, SHOOT, roller)
    assert (result.casualties, result.destroyed, result.markers) == (3, True, 0)
    assert [c.test for c in die.asked][-1] is Test.WOUND_EFFECT
    assert die.done


@given(models=st.integers(1, 6), wounds=st.integers(0, 12))
def test_groups_and_wounds_conserves_wounds(models: int, wounds: int) -> None:
    """seed 003 "Groups & Wounds": every wound either kills a model that is not the last or
    marks the last one; never more models than the unit has."""
    damage = take_wounds(DefenderProfile(4, models), [], wounds)
    assert damage.killed + damage.markers == wounds
    assert damage.killed == min(wounds, models - 1)


# --- Deadly ---------------------------------------------------------------------------------


def test_deadly_wound_kills_one_model_without_carry_over() -> None:
    """seed 003 "Deadly(X)": assign each wound to one model and multiply it by X; wounds do not
    carry over to other models if the original target is killed."""
    squad = DefenderProfile(4, models=3)
    assert take_wounds(squad, [3], 0) == Damage(killed=1, markers=0)
    assert take_wounds(squad, [3, 3], 0) == Damage(killed=2, markers=0)
    assert take_wounds(squad, [3, 3, 3], 0) == Damage(killed=2, markers=3)
    assert take_wounds(squad, [0, 2], 0) == Damage(killed=1, markers=0)  # all regenerated


def test_deadly_is_resolved_before_other_wounds() -> None:
    """seed 003 "Deadly(X)": hits from Deadly must be resolved first: a Deadly(2) wound kills one
    of two models, then a plain wound marks the last (not 2 markers from Deadly)."""
    pair = DefenderProfile(4, models=2, tough=3)
    assert take_wounds(pair, [2], 1) == Damage(killed=1, markers=1)


def test_deadly_on_the_last_model_adds_x_markers() -> None:
    """seed 003 "Deadly(X)" with Tough(X): a single Tough(3) model hit by one Deadly(3) wound
    has 3 markers and rolls (Knocked Out on 8+: a 5 or 6)."""
    hero = DefenderProfile(4, models=1, tough=3)
    damage = take_wounds(hero, [3], 0)
    assert damage == Damage(killed=0, markers=3)
    assert rolls_wound_effect(hero, damage)
    assert knocked_out_faces(hero, damage) == [5, 6]


# --- Wound Effects and Tough ----------------------------------------------------------------


def test_wound_effect_one_to_five_shaken_six_plus_knocked_out() -> None:
    """seed 003 "Wound Effects": place a marker per wound, roll one die adding the markers:
    1-5 Shaken, 6+ Knocked Out. One marker: 5 and 6 knock out; two markers: 4+."""
    model = DefenderProfile(4, models=1)
    assert knocked_out_faces(model, Damage(markers=1)) == [5, 6]
    assert knocked_out_faces(model, Damage(markers=2)) == [4, 5, 6]
    check = wound_effect_check(model, Damage(markers=1), OWNER)
    assert D6M.p_success(check) == Fraction(4, 6)  # success: stays in play, Shaken


def test_wound_effect_is_a_table_lookup_not_a_test() -> None:
    """seed 003 "Wound Effects": die + markers against the table; a natural 1 with 5 markers is
    6+ (Knocked Out), since "rolls of 1 always fail" governs tests, not this lookup."""
    model = DefenderProfile(4, models=1)
    assert knocked_out_faces(model, Damage(markers=5)) == [1, 2, 3, 4, 5, 6]


def test_markers_accumulate_across_attacks() -> None:
    """seed 003 "Wound Effects": markers stay next to the model: a model with 1 marker that
    takes 1 more wound rolls with 2 (Knocked Out on 4+)."""
    model = DefenderProfile(4, models=1, markers=1)
    assert knocked_out_faces(model, Damage(markers=1)) == [4, 5, 6]
    roller, _ = scripted_roller(4, 1, 3)
    result = resolve_attack([AttackProfile("g", 1, 4, False)], model, SHOOT, roller)
    assert (result.shaken, result.markers) == (True, 2)


def test_shaken_gets_plus_one_to_wound_effect_rolls() -> None:
    """seed 003 "Wound Effects / Shaken": gets +1 to wound effect rolls: a Shaken model with one
    new marker is Knocked Out on 4+ (4 + 1 + 1 = 6)."""
    shaken = DefenderProfile(4, models=1, shaken=True)
    assert knocked_out_faces(shaken, Damage(markers=1)) == [4, 5, 6]
    odds = attack_odds([AttackProfile("g", 1, 4, False)], shaken, SHOOT, D6M)
    plain = attack_odds([AttackProfile("g", 1, 4, False)], DefenderProfile(4, 1), SHOOT, D6M)
    assert odds.p_destroyed == Fraction(1, 4) * Fraction(1, 2)
    assert plain.p_destroyed == Fraction(1, 4) * Fraction(1, 3)


def test_tough_three_example_rolls_at_three_wounds_knocked_out_on_eight() -> None:
    """seed 003 "Tough(X)" example: a model with Tough(3) only rolls for wound effects once it
    has taken 3 wounds, and is Knocked Out on rolls of 8+."""
    hero = DefenderProfile(4, models=1, tough=3)
    assert not rolls_wound_effect(hero, Damage(markers=1))
    assert not rolls_wound_effect(hero, Damage(markers=2))
    assert rolls_wound_effect(hero, Damage(markers=3))
    assert knocked_out_faces(hero, Damage(markers=3)) == [5, 6]  # 5 + 3 = 8
    assert knocked_out_faces(hero, Damage(markers=4)) == [4, 5, 6]  # 4 + 4 = 8
    wounded = DefenderProfile(4, models=1, tough=3, markers=2)
    assert rolls_wound_effect(wounded, Damage(markers=1))  # 2 old + 1 new markers


@pytest.mark.parametrize("tough", [1, 2, 3, 6])
def test_tough_knocked_out_on_five_plus_x(tough: int) -> None:
    """seed 003 "Tough(X)": Knocked Out on rolls of 5+X or more (die + markers)."""
    hero = DefenderProfile(4, models=1, tough=tough)
    for markers in range(tough, tough + 6):
        faces = knocked_out_faces(hero, Damage(markers=markers))
        assert faces == [f for f in range(1, 7) if f + markers >= 5 + tough]


def test_fear_counts_as_extra_wounds_for_the_check_only() -> None:
    """seed 003 "Fear(X)": counts as having dealt +X wounds when checking wound effects (must
    deal at least one wound): Tough(3) with 1 marker and Fear(2) rolls, at 3 (KO on 5+)."""
    hero = DefenderProfile(4, models=1, tough=3)
    assert rolls_wound_effect(hero, Damage(markers=1), fear=2)
    assert not rolls_wound_effect(hero, Damage(markers=0), fear=2)
    assert knocked_out_faces(hero, Damage(markers=1), fear=2) == [5, 6]


def test_no_wound_no_roll() -> None:
    """seed 003 "Wound Effects": only a model that takes wounds rolls; no model, no roll."""
    assert not rolls_wound_effect(DefenderProfile(4, 1), Damage())
    assert not rolls_wound_effect(DefenderProfile(4, 0), Damage(markers=1))
