"""The 57.3 Combat Equation Summary of seed 001_7377b7b33dc9f88d, one function per equation.

Initiative (engaged and unengaged), the strike chance with a ranked weapon, the three Defences,
the special attacks' numbers (shield rush, disarm, trip, knockout, entangle, restrain, trample),
fumble, withdraw, repulse, staying conscious and stun recovery. Each takes the fighter
(:class:`~oprlab.units.dq_fighter.DqFighter`) and the situation as plain values, so the fight (game
layer), the fighters' habits and the tests all use the same arithmetic. Readings of the unclear
lines: ``docs/rules/dq.md`` ("57.3 in a fight").

"Roll under X" is read as DragonQuest's success roll: a D100 roll of at most X succeeds.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.units`` and ``oprlab.rules.dq``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Literal

from oprlab.errors import check_range
from oprlab.rules.dq.tables import (
    Applied,
    DamageRoll,
    ModifierTotal,
    modified_chance,
    modifier,
    total_defence_modifiers,
    total_strike_chance_modifiers,
)
from oprlab.units.dq_fighter import DqFighter

__all__ = [
    "DISARM_PENALTY",
    "FUMBLE_INITIATIVE_PENALTY",
    "STAY_CONSCIOUS_EN",
    "TRIP_BASE_CHANCE",
    "WITHDRAW_TARGET",
    "AttackKind",
    "DefenceSituation",
    "Facing",
    "RepulseReading",
    "StrikeSituation",
    "avoid_chance",
    "defence",
    "engaged_initiative",
    "fumble_check_chance",
    "melee_defence_modifiers",
    "melee_strike_modifiers",
    "repulse_succeeds",
    "restrain_chance",
    "roll_under",
    "special_damage",
    "stay_conscious_chance",
    "strike_chance",
    "stun_recovery_chance",
    "unengaged_initiative",
    "withdraw_succeeds",
]

Facing = Literal["front", "rear", "flank"]
#: "Repulse a charge attack: D10 >= prepared weapon Rank" as printed, or the other way round.
RepulseReading = Literal["as-printed", "rank-or-less"]

#: 57.3 "Disarm: -20 to strike chance".
DISARM_PENALTY = -20
#: 57.3 "Trip: Weapon BC reduced to 40%"; "Trample: ... BC 40".
TRIP_BASE_CHANCE = 40
#: 57.3 "Fumble: Reduce Initiative by 10".
FUMBLE_INITIATIVE_PENALTY = 10
#: 57.3 "Stay conscious: If EN <= 3".
STAY_CONSCIOUS_EN = 3
#: 57.3 "Withdraw from close combat: (D10 + friendly PS - hostile PS) >= 10".
WITHDRAW_TARGET = 10


class AttackKind(StrEnum):
    """What a melee attack tries to do: a plain strike or one of 57.3's special attacks."""

    STRIKE = "strike"
    SHIELD_RUSH = "shield rush"
    DISARM = "disarm"
    TRIP = "trip"
    KNOCKOUT = "knockout"
    ENTANGLE = "entangle"
    RESTRAIN = "restrain"
    TRAMPLE = "trample"


def roll_under(roll: int, chance: int) -> bool:
    """A D100 "roll under" ``chance``: the roll succeeds when it is at most the chance."""
    return roll <= chance


# --- Initiative --------------------------------------------------------------------------------


def engaged_initiative(fighter: DqFighter, penalty: int = 0) -> int:
    """57.3 "Engaged Initiative": PC + modified AG + weapon Rank + warrior Rank (less a fumble's
    10 for the pulse after it)."""
    c = fighter.characteristics
    return c.pc + c.ag + fighter.weapon.rank + fighter.skills.warrior - penalty


def unengaged_initiative(d10: int, fighter: DqFighter) -> int:
    """57.3 "Unengaged Initiative": D10 + (PC + 2 x Military Scientist)."""
    check_range("d10", d10, 1, 10)
    return d10 + fighter.characteristics.pc + 2 * fighter.skills.military_scientist


# --- Strike chance and Defence -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StrikeSituation:
    """What 57.1's melee lines ask about the attacker and the attack.

    Attributes:
        no_fatigue: the attacker has no Fatigue left (-10).
        offensive_withdrawal: the attack is an offensive withdrawal (-20).
        charging: the attack ends a charge (+20 with a pole weapon or a shield, else -15).
        defender_down: the defender is kneeling or prone (+20).
        facing: the defender's hex attacked (flank +10, rear +30).
    """

    no_fatigue: bool = False
    offensive_withdrawal: bool = False
    charging: bool = False
    defender_down: bool = False
    facing: Facing = "front"


@dataclass(frozen=True, slots=True)
class DefenceSituation:
    """What 57.2's melee lines and 57.3's three Defences ask about the defender.

    Attributes:
        no_fatigue: the defender has no Fatigue left (-10).
        stunned: the defender is stunned (-15; Defence is then Magic + modifiers only).
        defensive_withdrawal: the defender is making a defensive withdrawal (+20).
        evading: the defender is evading (+10, and +4 per Rank with its prepared weapon).
        weapon_prepared: the defender holds its weapon (not disarmed): evading's rank bonus.
        facing: front (AG + shield), or rear/flank (AG, no shield).
    """

    no_fatigue: bool = False
    stunned: bool = False
    defensive_withdrawal: bool = False
    evading: bool = False
    weapon_prepared: bool = True
    facing: Facing = "front"


def melee_strike_modifiers(
    fighter: DqFighter, kind: AttackKind, situation: StrikeSituation
) -> ModifierTotal:
    """The 57.1 melee modifiers of this attack, totalled.

    Charging: a shield rush or a pole weapon is "charging with pole weapon or shield" (+20); a
    strike with any other weapon is "charging with non-pole weapon" (-15); a trample is neither.
    """
    keys: list[str | Applied] = []
    if situation.no_fatigue:
        keys.append("melee_attacker_no_fatigue")
    if situation.offensive_withdrawal:
        keys.append("melee_offensive_withdrawal")
    if situation.charging and kind != AttackKind.TRAMPLE:
        with_pole_or_shield = kind == AttackKind.SHIELD_RUSH or fighter.weapon.pole
        keys.append(
            "melee_charge_pole_or_shield" if with_pole_or_shield else "melee_charge_other_weapon"
        )
    if situation.facing == "flank":
        keys.append("melee_flank_hex")
    elif situation.facing == "rear":
        keys.append("melee_rear_hex")
    if situation.defender_down:
        keys.append("melee_defender_down")
    return _strike_total(tuple(keys))


@lru_cache(maxsize=1024)
def _strike_total(keys: tuple[str | Applied, ...]) -> ModifierTotal:
    return total_strike_chance_modifiers(keys)


@lru_cache(maxsize=1024)
def _defence_total(keys: tuple[str | Applied, ...]) -> ModifierTotal:
    return total_defence_modifiers(keys)


def strike_chance(
    fighter: DqFighter, kind: AttackKind = AttackKind.STRIKE, modifiers: ModifierTotal | None = None
) -> int:
    """57.3 "Strike Chance with ranked weapon": Weapon Base Chance + modified MD + (4 x Rank
    with weapon) + Magic + Modifiers (57.1); a disarm takes 20 off; a trip and a trample use a
    Base Chance of 40 ("Weapon BC reduced to 40%": a weapon below 40 keeps its own).

    The total is floored at 0 (a chance cannot be negative).
    """
    base = fighter.weapon.base_chance
    if kind == AttackKind.TRIP:
        base = min(base, TRIP_BASE_CHANCE)
    elif kind == AttackKind.TRAMPLE:
        base = TRIP_BASE_CHANCE
    total = base + fighter.characteristics.md + 4 * fighter.weapon.rank + fighter.magic_strike
    if kind == AttackKind.DISARM:
        total += DISARM_PENALTY
    return modified_chance(total, modifiers or ModifierTotal())


def melee_defence_modifiers(fighter: DqFighter, situation: DefenceSituation) -> ModifierTotal:
    """The 57.2 melee modifiers of this defender, totalled (evading counts its weapon Rank)."""
    keys: list[str | Applied] = []
    if situation.no_fatigue:
        keys.append("melee_defender_no_fatigue")
    if situation.stunned:
        keys.append("melee_defender_stunned")
    if situation.defensive_withdrawal:
        keys.append("melee_defensive_withdrawal")
    if situation.evading:
        keys.append("melee_evading")
        rank = fighter.weapon.rank if situation.weapon_prepared else 0
        keys.append(Applied(modifier("melee_evading_rank"), rank))
    return _defence_total(tuple(keys))


def defence(
    fighter: DqFighter,
    situation: DefenceSituation | None = None,
    *,
    perception: bool = False,
) -> int:
    """57.3 "Defence": Front: modified AG (+ PC, see below) + Shield + Modifiers (57.2) + Magic;
    Rear or Flank: modified AG + Modifiers + Magic; Stunned: Modifiers + Magic. Floored at 0.

    ``perception``: 57.3 adds PC to the front Defence; seed 001's "Defence Calculation" ("as
    current ie AG + Shield bonus + Magical Defence + modifiers") does not. Off by default (the
    latter), like ``docs/profiles.md``; rule option ``defence_perception``.
    """
    s = situation or DefenceSituation()
    mods = melee_defence_modifiers(fighter, s)
    base = fighter.magic_defence
    if not s.stunned:
        base += fighter.characteristics.ag
        if s.facing == "front":
            base += fighter.shield.defence if fighter.shield is not None else 0
            base += fighter.characteristics.pc if perception else 0
    return modified_chance(base, mods)


# --- Special attacks -----------------------------------------------------------------------------


def avoid_chance(kind: AttackKind, defender: DqFighter, *, weapon_prepared: bool = True) -> int:
    """The defender's D100 chance to avoid a special attack that landed (57.3).

    Shield Rush, Trip, Entangle: 3 x AG. Disarm: MD + Rank (2 x MD + Rank if two handed); a
    defender with no weapon in hand has nothing to lose (100). Other kinds have nothing to avoid.
    """
    c = defender.characteristics
    if kind in (AttackKind.SHIELD_RUSH, AttackKind.TRIP, AttackKind.ENTANGLE):
        return 3 * c.ag
    if kind == AttackKind.DISARM:
        if not weapon_prepared:
            return 100
        md = 2 * c.md if defender.weapon.two_handed else c.md
        return md + defender.weapon.rank
    return 0


def restrain_chance(attacker: DqFighter, defender: DqFighter) -> int:
    """57.3 "Restrain": 3 x ((PS + AG of attacker) - (PS + AG of defender)), as a D100 chance
    (0 or less cannot succeed)."""
    a, d = attacker.characteristics, defender.characteristics
    return 3 * ((a.ps + a.ag) - (d.ps + d.ag))


def special_damage(kind: AttackKind, attacker: DqFighter) -> DamageRoll:
    """The damage roll of an attack: the weapon's, except Trip ("Damage to D10") and Trample
    ("Damage [D + (size in hexes)]", read as D10 + hexes)."""
    if kind == AttackKind.TRIP:
        return DamageRoll(10, 0)
    if kind == AttackKind.TRAMPLE:
        return DamageRoll(10, attacker.hexes)
    return DamageRoll(attacker.weapon.die, attacker.weapon.modifier)


# --- Fumble, withdraw, repulse, staying conscious, stun ------------------------------------------


def fumble_check_chance(initiative: int) -> int:
    """57.3 "Fumble": reduce Initiative by 10, then roll under it on D100 or roll on the Fumble
    Table: the chance of escaping the table is the Initiative less 10."""
    return initiative - FUMBLE_INITIATIVE_PENALTY


def withdraw_succeeds(d10: int, friendly_ps: int, hostile_ps: int) -> bool:
    """57.3 "Withdraw from close combat": (D10 + total friendly PS - total hostile PS) >= 10."""
    check_range("d10", d10, 1, 10)
    return d10 + friendly_ps - hostile_ps >= WITHDRAW_TARGET


def repulse_succeeds(d10: int, rank: int, reading: RepulseReading = "as-printed") -> bool:
    """57.3 "Repulse a charge attack: D10 >= prepared weapon Rank".

    As printed, a low Rank repulses more easily (Rank 0 or 1 always does); ``rank-or-less``
    reads it the other way round (D10 <= Rank), where skill helps. See docs/rules/dq.md.
    """
    check_range("d10", d10, 1, 10)
    return d10 >= rank if reading == "as-printed" else d10 <= rank


def stay_conscious_chance(en: int, wp: int) -> int | None:
    """57.3 "Stay conscious: If EN <= 3, roll under (EN x WP)"; ``None`` above 3 (no roll)."""
    if en > STAY_CONSCIOUS_EN:
        return None
    return en * wp


def stun_recovery_chance(wp: int, fatigue_left: int) -> int:
    """57.3 "Stun recovery": (2 x WP) + current Fatigue, a D100 chance."""
    return 2 * wp + fatigue_left
