"""The 57.3 Combat Equation Summary of seed 001_7377b7b33dc9f88d, equation by equation, with the
57.1/57.2 melee modifiers a duel uses; expected values worked out by hand from the text."""

from __future__ import annotations

import pytest

from oprlab.rules.dq.combat import (
    AttackKind,
    DefenceSituation,
    StrikeSituation,
    avoid_chance,
    defence,
    engaged_initiative,
    fumble_check_chance,
    melee_defence_modifiers,
    melee_strike_modifiers,
    repulse_succeeds,
    restrain_chance,
    roll_under,
    special_damage,
    stay_conscious_chance,
    strike_chance,
    stun_recovery_chance,
    unengaged_initiative,
    withdraw_succeeds,
)
from oprlab.rules.dq.tables import DamageRoll, ModifierTotal
from tests.game.dq import fighter

KNIGHT = fighter(
    "knight", ps=18, md=14, ag=13, pc=12, bc=55, rank=5, modifier=4, shield=15, ms=3, warrior=4
)


def test_engaged_initiative() -> None:
    """seed 001 57.3 "Engaged Initiative: PC + modified AG + weapon Rank + warrior Rank":
    12 + 13 + 5 + 4 = 34; after a fumble ("Reduce Initiative by 10") 24."""
    assert engaged_initiative(KNIGHT) == 34
    assert engaged_initiative(KNIGHT, 10) == 24


def test_unengaged_initiative() -> None:
    """seed 001 57.3 "Unengaged Initiative: D10 + (PC + 2 x Military Scientist)": D10 7 + 12 +
    2 x 3 = 25; from 19 to 28 over the D10."""
    assert unengaged_initiative(7, KNIGHT) == 25
    assert [unengaged_initiative(d, KNIGHT) for d in (1, 10)] == [19, 28]


def test_strike_chance_with_ranked_weapon() -> None:
    """seed 001 57.3 "Strike Chance with ranked weapon: Weapon Base Chance + attacker's modified
    Manual Dexterity + (4 x Rank with weapon) + Magic + Modifiers": 55 + 14 + 20 = 89; with
    magic 10 and 57.1's -15 (charging with a non-pole weapon) and -10 (no Fatigue): 74."""
    assert strike_chance(KNIGHT) == 89
    magic = fighter(bc=55, md=14, rank=5, magic_strike=10)
    mods = melee_strike_modifiers(
        magic, AttackKind.STRIKE, StrikeSituation(no_fatigue=True, charging=True)
    )
    assert mods == ModifierTotal(chance=-25)
    assert strike_chance(magic, AttackKind.STRIKE, mods) == 89 + 10 - 25
    # A chance cannot go below 0.
    assert strike_chance(fighter(bc=0, md=0), AttackKind.STRIKE, ModifierTotal(-50)) == 0


def test_strike_modifiers_of_melee() -> None:
    """seed 001 57.1 Melee: +20 charging with a pole weapon or shield (a shield rush), -15
    with another weapon, -20 offensive withdrawal, +10 flank, +30 rear, +20 defender prone."""
    spear = fighter(pole=True)
    charge = StrikeSituation(charging=True)
    assert melee_strike_modifiers(spear, AttackKind.STRIKE, charge).chance == 20
    assert melee_strike_modifiers(KNIGHT, AttackKind.SHIELD_RUSH, charge).chance == 20
    assert melee_strike_modifiers(KNIGHT, AttackKind.STRIKE, charge).chance == -15
    assert melee_strike_modifiers(KNIGHT, AttackKind.TRAMPLE, charge).chance == 0
    others = StrikeSituation(offensive_withdrawal=True, defender_down=True, facing="rear")
    assert melee_strike_modifiers(KNIGHT, AttackKind.STRIKE, others).chance == -20 + 20 + 30
    assert melee_strike_modifiers(KNIGHT, AttackKind.STRIKE, StrikeSituation(facing="flank")) == (
        ModifierTotal(10)
    )


def test_defence_front() -> None:
    """seed 001 57.3 "Defence: Front: Modified AG + PC + Shield defence + Modifiers + Magic";
    "Defence Calculation" omits PC: 13 + 15 = 28 by default, 13 + 12 + 15 = 40 with PC."""
    assert defence(KNIGHT) == 28
    assert defence(KNIGHT, perception=True) == 40
    assert defence(fighter(ag=13, shield=15, magic_defence=5)) == 33


def test_defence_rear_or_flank() -> None:
    """seed 001 57.3 "Defence: Rear or Flank: Modified AG + Modifiers + Magic" (no shield, and
    "Defence Calculation": "Shield is NOT applied")."""
    for facing in ("rear", "flank"):
        assert defence(KNIGHT, DefenceSituation(facing=facing)) == 13
        assert defence(KNIGHT, DefenceSituation(facing=facing), perception=True) == 13


def test_defence_stunned() -> None:
    """seed 001 57.3 "Defence: Stunned: Modifiers + Magic" with 57.2 Melee "-15 defender is
    stunned": magic 20 gives 5; no magic gives 0 (never below 0)."""
    stunned = DefenceSituation(stunned=True)
    assert defence(fighter(ag=13, shield=15, magic_defence=20), stunned) == 5
    assert defence(KNIGHT, stunned) == 0


def test_defence_modifiers_of_melee() -> None:
    """seed 001 57.2 Melee: -10 no Fatigue, -15 stunned, +20 defensive withdrawal, +10 evading,
    +4 per Rank with the prepared weapon when evading (none when disarmed)."""
    evading = DefenceSituation(evading=True)
    assert melee_defence_modifiers(KNIGHT, evading).chance == 10 + 4 * 5
    assert defence(KNIGHT, evading) == 28 + 30
    disarmed = DefenceSituation(evading=True, weapon_prepared=False)
    assert defence(KNIGHT, disarmed) == 28 + 10
    tired = DefenceSituation(no_fatigue=True, defensive_withdrawal=True)
    assert defence(KNIGHT, tired) == 28 - 10 + 20


def test_shield_rush() -> None:
    """seed 001 57.3 "Shield Rush: Normal SC and damage. 3 x AG to avoid"."""
    assert strike_chance(KNIGHT, AttackKind.SHIELD_RUSH) == strike_chance(KNIGHT) == 89
    assert special_damage(AttackKind.SHIELD_RUSH, KNIGHT) == DamageRoll(10, 4)
    assert avoid_chance(AttackKind.SHIELD_RUSH, KNIGHT) == 39


def test_disarm() -> None:
    """seed 001 57.3 "Disarm: -20 to strike chance. MD + Rank to avoid (2 x MD + Rank if two
    handed)": 89 - 20 = 69; the knight avoids on 14 + 5 = 19, a two-handed MD 9 Rank 2 fighter
    on 2 x 9 + 2 = 20; a fighter with nothing in hand has nothing to lose."""
    assert strike_chance(KNIGHT, AttackKind.DISARM) == 69
    assert avoid_chance(AttackKind.DISARM, KNIGHT) == 19
    assert avoid_chance(AttackKind.DISARM, fighter(md=9, rank=2, two_handed=True)) == 20
    assert avoid_chance(AttackKind.DISARM, KNIGHT, weapon_prepared=False) == 100


def test_trip() -> None:
    """seed 001 57.3 "Trip: Weapon BC reduced to 40%, and Damage to D10. 3 x AG to avoid":
    40 + 14 + 20 = 74 for the knight; a weapon already below 40 keeps its own."""
    assert strike_chance(KNIGHT, AttackKind.TRIP) == 74
    assert strike_chance(fighter(bc=30, md=10), AttackKind.TRIP) == 40
    assert special_damage(AttackKind.TRIP, KNIGHT) == DamageRoll(10, 0)
    assert avoid_chance(AttackKind.TRIP, KNIGHT) == 39


def test_knockout_strike_chance() -> None:
    """seed 001 57.3 "Knockout: Must get a Result Quality of 3 or better": the strike itself is
    a normal one (its result is judged in the fight: tests/game/dq)."""
    assert strike_chance(KNIGHT, AttackKind.KNOCKOUT) == 89
    assert avoid_chance(AttackKind.KNOCKOUT, KNIGHT) == 0


def test_entangle() -> None:
    """seed 001 57.3 "Entangle: Normal SC. 3 x AG to avoid"."""
    whip = fighter(md=12, bc=45, rank=3, entangling=True)
    assert strike_chance(whip, AttackKind.ENTANGLE) == 45 + 12 + 12
    assert avoid_chance(AttackKind.ENTANGLE, fighter(ag=11)) == 33


def test_restrain() -> None:
    """seed 001 57.3 "Restrain: 3 x ((PS + AG of attacker) - (PS + AG of defender))":
    3 x ((28 + 8) - (14 + 12)) = 30; the weaker cannot restrain (a negative chance)."""
    troll, novice = fighter(ps=28, ag=8), fighter(ps=14, ag=12)
    assert restrain_chance(troll, novice) == 30
    assert restrain_chance(novice, troll) == -30
    assert not roll_under(1, -30)


def test_trample() -> None:
    """seed 001 57.3 "Trample (by multihex figure): Automatic knockdown. BC 40. Damage
    [D+(size in hexes)]": a 2-hex MD 9 Rank 2 troll strikes at 40 + 9 + 8 = 57 for D10 + 2."""
    troll = fighter(md=9, rank=2, bc=45, hexes=2, modifier=6)
    assert strike_chance(troll, AttackKind.TRAMPLE) == 57
    assert special_damage(AttackKind.TRAMPLE, troll) == DamageRoll(10, 2)


def test_fumble() -> None:
    """seed 001 57.3 "Fumble: Reduce Initiative by 10. Roll under Initiative on D100 or roll on
    the Fumble Table": the knight (initiative 34) escapes the table on 24 or less."""
    assert fumble_check_chance(engaged_initiative(KNIGHT)) == 24
    assert roll_under(24, 24) and not roll_under(25, 24)


def test_withdraw() -> None:
    """seed 001 57.3 "Withdraw from close combat: (D10 + total friendly PS - total hostile PS)
    >= 10": PS 18 against 14 needs a D10 of 6."""
    assert [withdraw_succeeds(d, 18, 14) for d in (5, 6)] == [False, True]
    assert not withdraw_succeeds(10, 14, 15)
    assert withdraw_succeeds(10, 15, 15)


@pytest.mark.parametrize(
    ("d10", "rank", "printed", "other"),
    [(3, 0, True, False), (3, 3, True, True), (3, 4, False, True), (10, 9, True, False)],
)
def test_repulse(d10: int, rank: int, printed: bool, other: bool) -> None:
    """seed 001 57.3 "Repulse a charge attack: D10 >= prepared weapon Rank", as printed; the
    reading ``rank-or-less`` turns it round (D10 <= Rank)."""
    assert repulse_succeeds(d10, rank) is printed
    assert repulse_succeeds(d10, rank, "rank-or-less") is other


def test_stay_conscious() -> None:
    """seed 001 57.3 "Stay conscious: If EN <= 3, roll under (EN*WP)": EN 3 WP 15 gives 45,
    EN 1 gives 15, EN 4 needs no roll."""
    assert stay_conscious_chance(3, 15) == 45
    assert stay_conscious_chance(1, 15) == 15
    assert stay_conscious_chance(4, 15) is None


def test_stun_recovery() -> None:
    """seed 001 57.3 "Stun recovery: (2 x WP) + current Fatigue": WP 15, FT 7 left: 37."""
    assert stun_recovery_chance(15, 7) == 37
    assert stun_recovery_chance(15, 0) == 30
