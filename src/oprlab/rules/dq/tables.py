"""DragonQuest combat tables as data (seed 001_7377b7b33dc9f88d, opposed-rolling playtest).

Table 2 (what each result quality does, which armour applies) and the damage it deals; the
57.1 strike chance and 57.2 defence modifier lists with their totals; aiming and the assassin's
dice modifier; the evading parry (and the 57.3 parry result); the 57.3 knockout requirement.
The D100 roll and its qualities are the ``dq`` mechanic (:mod:`oprlab.mechanics.dq`).

Sign convention shared with the mechanic: a *roll modifier* is a bonus taken off the dice roll
(aiming's "-5 off the dice roll" is ``roll=5``). Readings: ``docs/rules/dq.md``.

May import ``oprlab.errors``, ``oprlab.prob`` and ``oprlab.mechanics``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Literal

from oprlab.errors import OptionError, UnknownNameError, check_range
from oprlab.mechanics.dq import (
    AVERAGE,
    BETTER,
    CRUCIAL,
    DECISIVE,
    EXCELLENT,
    FANTASTIC,
    MAX_CHANCE,
    POOR,
    QUALITY_LETTERS,
    QUALITY_NAMES,
    opposed_qualities_dist,
)
from oprlab.prob import Dist

# --- Table 2: result quality ------------------------------------------------------------------

Armour = Literal["FT", "EN"]
Track = Literal["fatigue", "endurance"]


@dataclass(frozen=True, slots=True)
class ResultQuality:
    """One row of Table 2.

    Attributes:
        level: 0..6, the result quality (attack quality - defence quality).
        name: the quality's name (Poor .. Fantastic).
        letter: P, A, B, C, D, E, F.
        description: what the result does, as the table names it.
        track: where the damage goes (``None`` for Blocked).
        armour: the armour that applies (``None``: Blocked, or no armour at 5-6).
        maximum: the weapon's maximum damage is dealt instead of a roll.
        extra: damage added on top (Fantastic: +10).
        possible_grievous: a specific grievous injury is possible.
    """

    level: int
    name: str
    letter: str
    description: str
    track: Track | None
    armour: Armour | None
    maximum: bool
    extra: int
    possible_grievous: bool


def _row(
    level: int,
    description: str,
    track: Track | None,
    armour: Armour | None,
    *,
    maximum: bool = False,
    extra: int = 0,
    grievous: bool = False,
) -> ResultQuality:
    name, letter = QUALITY_NAMES[level], QUALITY_LETTERS[level]
    return ResultQuality(level, name, letter, description, track, armour, maximum, extra, grievous)


TABLE_2: tuple[ResultQuality, ...] = (
    _row(POOR, "Blocked", None, None),
    _row(AVERAGE, "Fatigue", "fatigue", "FT"),
    _row(BETTER, "Maximum Fatigue", "fatigue", "FT", maximum=True),
    _row(CRUCIAL, "Endurance", "endurance", "EN"),
    _row(DECISIVE, "Endurance & Possible Spec Grievous", "endurance", "EN", grievous=True),
    _row(
        EXCELLENT,
        "Maximum Endurance & Possible Spec Grievous",
        "endurance",
        None,
        maximum=True,
        grievous=True,
    ),
    _row(
        FANTASTIC,
        "Maximum Endurance + 10 & Possible Spec Grievous",
        "endurance",
        None,
        maximum=True,
        extra=10,
        grievous=True,
    ),
)


def result_row(level: int) -> ResultQuality:
    """The Table 2 row of a result quality 0..6."""
    return TABLE_2[check_range("result quality", level, POOR, FANTASTIC)]


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """A weapon's damage: one die plus a modifier (``D10 + 2`` is ``DamageRoll(10, 2)``)."""

    die: int = 10
    modifier: int = 0

    def __post_init__(self) -> None:
        check_range("damage die", self.die, 1, 100)
        check_range("damage modifier", self.modifier, -100, 100)

    @property
    def minimum(self) -> int:
        return 1 + self.modifier

    @property
    def maximum(self) -> int:
        """What a Maximum result deals: the die's top face plus the modifier."""
        return self.die + self.modifier

    def dist(self) -> Dist[int]:
        """The exact distribution of the damage roll."""
        return Dist.uniform(face + self.modifier for face in range(1, self.die + 1))


@dataclass(frozen=True, slots=True)
class Damage:
    """What one strike deals after armour: fatigue, endurance, and whether a grievous may follow.

    The extra damage of a specific grievous injury (which no armour or DR reduces) comes from
    the grievous injury tables, not modelled here.
    """

    fatigue: int = 0
    endurance: int = 0
    possible_grievous: bool = False


def _check_armour(ft_armour: int, en_armour: int, dr: int) -> None:
    check_range("ft_armour", ft_armour, 0, 100)
    check_range("en_armour", en_armour, 0, 100)
    check_range("dr", dr, 0, 100)


def _deal(row: ResultQuality, rolled: int, ft_armour: int, en_armour: int, dr: int) -> Damage:
    if row.track is None:
        return Damage()
    armour = {"FT": ft_armour, "EN": en_armour, None: 0}[row.armour]
    # "DR ... stacks with both FT and EN, applies vs all Result Qualities"; never below 0.
    dealt = max(0, rolled + row.extra - armour - dr)
    if row.track == "fatigue":
        return Damage(fatigue=dealt, possible_grievous=row.possible_grievous)
    return Damage(endurance=dealt, possible_grievous=row.possible_grievous)


def damage(
    level: int,
    weapon: DamageRoll,
    roll: int | None = None,
    *,
    ft_armour: int = 0,
    en_armour: int = 0,
    dr: int = 0,
) -> Damage:
    """The damage one strike of result quality ``level`` deals (Table 2 and Armour Definition).

    Args:
        level: the result quality 0..6.
        weapon: the weapon's damage roll; Maximum results deal its maximum.
        roll: the damage rolled (modifier included); needed for levels 1, 3 and 4 only.
        ft_armour: normal armour, subtracted from fatigue damage (levels 1-2).
        en_armour: endurance armour, subtracted from endurance damage (levels 3-4).
        dr: damage reduction, subtracted at every level, on top of FT or EN.
    """
    row = result_row(level)
    _check_armour(ft_armour, en_armour, dr)
    if row.track is None or row.maximum:
        return _deal(row, weapon.maximum, ft_armour, en_armour, dr)
    if roll is None:
        raise OptionError(
            f"a {row.description} result needs the damage roll",
            expected=f"roll from {weapon.minimum} to {weapon.maximum}",
            where="roll",
        )
    check_range("roll", roll, weapon.minimum, weapon.maximum)
    return _deal(row, roll, ft_armour, en_armour, dr)


def damage_dist(
    result: int | Dist[int],
    weapon: DamageRoll,
    *,
    ft_armour: int = 0,
    en_armour: int = 0,
    dr: int = 0,
) -> Dist[Damage]:
    """The exact distribution of :class:`Damage` for a result level or a distribution of them."""
    _check_armour(ft_armour, en_armour, dr)
    levels: Dist[int] = Dist.point(result) if isinstance(result, int) else result
    rolls = weapon.dist()

    def one(level: int) -> Dist[Damage]:
        row = result_row(level)
        if row.track is None or row.maximum:
            return Dist.point(_deal(row, weapon.maximum, ft_armour, en_armour, dr))
        return rolls.map(lambda r: _deal(row, r, ft_armour, en_armour, dr))

    return levels.bind(one)


#: "Knockout: Must get a Result Quality of 3 or better" (57.3).
KNOCKOUT_MIN_RESULT = CRUCIAL


def knockout_succeeds(result_level: int) -> bool:
    """Whether a knockout attempt's result quality is good enough (57.3)."""
    return result_row(result_level).level >= KNOCKOUT_MIN_RESULT


# --- 57.1 and 57.2: modifier lists -------------------------------------------------------------


class Section(StrEnum):
    """Which summary a modifier belongs to."""

    STRIKE_CHANCE = "57.1"
    DEFENCE = "57.2"


class Group(StrEnum):
    """The headings within 57.1 and 57.2."""

    CLOSE = "close combat"
    MELEE = "melee combat"
    RANGED = "ranged combat"
    VISIBILITY = "visibility"
    MISC = "miscellaneous"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One line of 57.1 or 57.2.

    Attributes:
        key: a stable name to pick it by (``"melee_rear_hex"``).
        situation: the situation, in our words.
        value: the change to the chance, per unit of ``per`` if that is set.
        section: 57.1 (strike chance) or 57.2 (defence).
        group: its heading.
        per: what the value is counted per (``"point of PS"``); empty for a flat modifier.
        roll: a bonus taken off the dice roll as well (aiming: 5).
    """

    key: str
    situation: str
    value: int
    section: Section
    group: Group
    per: str = ""
    roll: int = 0


@dataclass(frozen=True, slots=True)
class Applied:
    """A modifier that counts per something, with its count (PS 14: ``Applied(ps_mod, 14)``)."""

    modifier: Modifier
    count: int = 1


@dataclass(frozen=True, slots=True)
class ModifierTotal:
    """The total of chosen modifiers: to the chance, and the bonus taken off the dice roll."""

    chance: int = 0
    roll: int = 0


_S, _D = Section.STRIKE_CHANCE, Section.DEFENCE
_C, _M, _R, _V, _X = Group.CLOSE, Group.MELEE, Group.RANGED, Group.VISIBILITY, Group.MISC

STRIKE_CHANCE_MODIFIERS: tuple[Modifier, ...] = (
    Modifier("close_attacker_ps", "attacker's Physical Strength", 1, _S, _C, "point of PS"),
    Modifier("close_attacker_no_fatigue", "attacker has no Fatigue left", -20, _S, _C),
    Modifier("melee_attacker_no_fatigue", "attacker has no Fatigue left", -10, _S, _M),
    Modifier("melee_offensive_withdrawal", "attack made in an offensive withdrawal", -20, _S, _M),
    Modifier("melee_charge_pole_or_shield", "charge with a pole weapon or shield", 20, _S, _M),
    Modifier("melee_charge_other_weapon", "charge with a weapon that is not a pole", -15, _S, _M),
    Modifier("melee_flank_hex", "attack into a flank hex", 10, _S, _M),
    Modifier("melee_rear_hex", "attack into a rear hex", 30, _S, _M),
    Modifier("melee_defender_down", "defender kneeling or prone", 20, _S, _M),
    Modifier("ranged_flank_hex", "shot into a flank hex", 10, _S, _R),
    Modifier("ranged_rear_hex", "shot into a rear hex", 20, _S, _R),
    Modifier("ranged_attacker_kneeling", "attacker kneeling", 10, _S, _R),
    Modifier("ranged_aim", "aimed shot (also 5 off the dice roll)", 20, _S, _R, roll=5),
    Modifier("ranged_snapshot", "snapshot", -15, _S, _R),
    Modifier("ranged_thrown_hex", "thrown weapon, per hex travelled", -3, _S, _R, "hex"),
    Modifier(
        "ranged_missile_range",
        "missile, per 5 hexes or part beyond the first 5",
        -3,
        _S,
        _R,
        "5 hexes or part beyond the first 5",
    ),
    Modifier("visibility_starry_or_shadowy", "starry night or shadowy interior", -10, _S, _V),
    Modifier("visibility_cloudy_night", "cloudy night", -20, _S, _V),
    Modifier("visibility_cave_or_unlit", "cave or unlit interior", -30, _S, _V),
    Modifier("visibility_pitch_black", "pitch blackness", -40, _S, _V),
    Modifier("visibility_unseen", "attacker cannot see the defender", -50, _S, _V),
    Modifier("misc_secondary_hand", "weapon in the attacker's secondary hand", -20, _S, _X),
    Modifier("misc_multiple_strike", "multiple strike", -10, _S, _X),
    Modifier("misc_multi_hex_b_class", "multi-hex strike, B class two-handed", -20, _S, _X),
    Modifier("misc_attacker_airborne", "attacker airborne", -10, _S, _X),
)

DEFENCE_MODIFIERS: tuple[Modifier, ...] = (
    Modifier("close_defender_ps", "defender's Physical Strength", 1, _D, _C, "point of PS"),
    Modifier("close_defender_no_fatigue", "defender has no Fatigue left", -20, _D, _C),
    Modifier("close_defender_stunned", "defender stunned", -20, _D, _C),
    Modifier("melee_defender_no_fatigue", "defender has no Fatigue left", -10, _D, _M),
    Modifier("melee_defender_stunned", "defender stunned", -15, _D, _M),
    Modifier("melee_defensive_withdrawal", "defensive withdrawal", 20, _D, _M),
    Modifier("melee_evading", "defender evading", 10, _D, _M),
    Modifier(
        "melee_evading_rank",
        "evading, per rank with the prepared weapon",
        4,
        _D,
        _M,
        "rank with the prepared weapon",
    ),
    Modifier("ranged_defender_stunned", "defender stunned", -10, _D, _R),
    Modifier("ranged_defender_moving", "defender moving", 5, _D, _R),
    Modifier("ranged_defender_down", "defender kneeling or prone", 10, _D, _R),
    Modifier("ranged_evading", "defender evading", 20, _D, _R),
    Modifier("ranged_sheltered_hex", "defender in a sheltered hex", 20, _D, _R),
    Modifier("misc_defender_airborne", "defender airborne", 20, _D, _X),
)

_BY_KEY = {m.key: m for m in STRIKE_CHANCE_MODIFIERS + DEFENCE_MODIFIERS}


def modifier(key: str) -> Modifier:
    """The 57.1 or 57.2 modifier with this key."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise UnknownNameError(
            "unknown DQ modifier", value=key, expected="one of " + ", ".join(sorted(_BY_KEY))
        ) from None


def _applied(chosen: Iterable[Modifier | Applied | str], section: Section) -> list[Applied]:
    out: list[Applied] = []
    keys: set[str] = set()
    for item in chosen:
        picked = modifier(item) if isinstance(item, str) else item
        if isinstance(picked, Modifier):
            if picked.per:
                raise OptionError(
                    f"{picked.key} counts per {picked.per}",
                    value=picked.key,
                    expected=f"Applied(modifier({picked.key!r}), count)",
                )
            picked = Applied(picked)
        mod = picked.modifier
        if mod.section != section:
            raise OptionError(
                f"{mod.key} is a {mod.section} modifier", value=mod.key, expected=f"a {section} one"
            )
        if mod.key in keys:
            raise OptionError("modifier chosen twice", value=mod.key, expected="each at most once")
        check_range(f"{mod.key} count", picked.count, 0 if mod.per else 1, 100 if mod.per else 1)
        keys.add(mod.key)
        out.append(picked)
    return out


def total_strike_chance_modifiers(chosen: Iterable[Modifier | Applied | str]) -> ModifierTotal:
    """The total of chosen 57.1 modifiers: cumulative, except that of the visibility
    conditions only the worst counts ("All modifications except visibility are cumulative").
    """
    applied = _applied(chosen, Section.STRIKE_CHANCE)
    cumulative = [a for a in applied if a.modifier.group != Group.VISIBILITY]
    visibility = [a.modifier.value for a in applied if a.modifier.group == Group.VISIBILITY]
    chance = sum(a.modifier.value * a.count for a in cumulative) + min(visibility, default=0)
    return ModifierTotal(chance=chance, roll=sum(a.modifier.roll for a in applied))


def total_defence_modifiers(chosen: Iterable[Modifier | Applied | str]) -> ModifierTotal:
    """The total of chosen 57.2 modifiers ("All modifications are cumulative")."""
    applied = _applied(chosen, Section.DEFENCE)
    return ModifierTotal(
        chance=sum(a.modifier.value * a.count for a in applied),
        roll=sum(a.modifier.roll for a in applied),
    )


def modified_chance(base: int, total: ModifierTotal) -> int:
    """A chance after modifiers; below 0 it counts as 0 (a stunned defender's defence can be)."""
    return min(max(0, base + total.chance), MAX_CHANCE)


def missile_range_steps(hexes: int) -> int:
    """How often the missile range modifier counts: each 5 hexes, or part, beyond the first 5."""
    check_range("hexes", hexes, 0, 10_000)
    return -(-max(0, hexes - 5) // 5)


#: Aiming: "+20% SC as usual but -5 dice roll modifier".
AIMING = ModifierTotal(chance=20, roll=5)

# --- Assassin -----------------------------------------------------------------------------------

#: Skill and weapon ranks run 0..10.
MAX_RANK = 10


class AssassinAttack(StrEnum):
    """How an assassin strikes: each gives a different grievous bonus per rank."""

    SURPRISE = "surprise"  # 2 per rank
    BEHIND = "behind"  # 1 per rank
    FRONT = "front"  # 1 per 3 full ranks


def assassin_roll_modifier(rank: int, attack: AssassinAttack) -> int:
    """The assassin's grievous bonus, now taken off the dice roll (a positive roll modifier).

    "-2/rank from surprise, -1/rank from behind and -1/3 ranks from in front": from the front
    only full 3 ranks count (rank 5 gives 1).
    """
    check_range("assassin rank", rank, 0, MAX_RANK)
    if attack == AssassinAttack.SURPRISE:
        return 2 * rank
    if attack == AssassinAttack.BEHIND:
        return rank
    return rank // 3


# --- Evading -----------------------------------------------------------------------------------

#: How much better than the attack quality an evader's defence quality must be to parry.
PARRY_MARGIN = 2


def may_parry(attack_quality: int, defence_quality: int) -> bool:
    """Whether an evading figure under melee attack may attempt a parry (Evading)."""
    check_range("attack quality", attack_quality, POOR, FANTASTIC)
    check_range("defence quality", defence_quality, POOR, FANTASTIC)
    return defence_quality - attack_quality >= PARRY_MARGIN


def parry_chance(
    strike_chance: int,
    defence: int,
    strike_roll_modifier: int = 0,
    defence_roll_modifier: int = 0,
    *,
    table_01_row: bool = False,
) -> Fraction:
    """Exact probability that an evader may attempt a parry (defence the evading total)."""
    joint = opposed_qualities_dist(
        strike_chance,
        defence,
        strike_roll_modifier,
        defence_roll_modifier,
        table_01_row=table_01_row,
    )
    return joint.probability(lambda ad: may_parry(*ad))


class ParryResult(StrEnum):
    """57.3 parry result: D10 + evader's rank - attacker's rank."""

    PARRY = "parry"  # 3 or less: parried; the evader must pass next action
    DISARM = "disarm"  # 4-7: disarm, 1 EN damage
    DISARM_RIPOSTE = "disarm and riposte"  # 8+: disarm, the evader may melee attack, 1 EN


#: EN damage a disarm deals (57.3 does not say to whom; see docs/rules/dq.md).
PARRY_DISARM_EN_DAMAGE = 1


def parry_result(d10: int, evader_rank: int, attacker_rank: int) -> ParryResult:
    """The 57.3 parry result for a D10 roll and the two weapon ranks."""
    check_range("d10", d10, 1, 10)
    check_range("evader rank", evader_rank, 0, MAX_RANK)
    check_range("attacker rank", attacker_rank, 0, MAX_RANK)
    total = d10 + evader_rank - attacker_rank
    if total <= 3:
        return ParryResult.PARRY
    if total <= 7:
        return ParryResult.DISARM
    return ParryResult.DISARM_RIPOSTE


__all__ = [
    "AIMING",
    "AVERAGE",
    "BETTER",
    "CRUCIAL",
    "DECISIVE",
    "DEFENCE_MODIFIERS",
    "EXCELLENT",
    "FANTASTIC",
    "KNOCKOUT_MIN_RESULT",
    "MAX_RANK",
    "PARRY_DISARM_EN_DAMAGE",
    "PARRY_MARGIN",
    "POOR",
    "STRIKE_CHANCE_MODIFIERS",
    "TABLE_2",
    "Applied",
    "AssassinAttack",
    "Damage",
    "DamageRoll",
    "Group",
    "Modifier",
    "ModifierTotal",
    "ParryResult",
    "ResultQuality",
    "Section",
    "assassin_roll_modifier",
    "damage",
    "damage_dist",
    "knockout_succeeds",
    "may_parry",
    "missile_range_steps",
    "modified_chance",
    "modifier",
    "parry_chance",
    "parry_result",
    "result_row",
    "total_defence_modifiers",
    "total_strike_chance_modifiers",
]
