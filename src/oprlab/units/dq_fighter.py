"""DragonQuest fighters: the characteristics, weapon, shield, armour and skills a whole fight
needs (seed 001_7377b7b33dc9f88d, "57.3 Combat Equation Summary"), read from a small YAML file.

A fighter file holds one fighter; ``docs/profiles.md`` ("DragonQuest fighters") documents every
key with a full example. Unlike the ``combatants`` files of :mod:`oprlab.units.profiles` (a strike
chance and a defence, enough for one strike), a fighter carries what the 57.3 equations are built
from (PS, MD, AG, PC, WP, EN, FT, ranks), so initiative, staying conscious, stun recovery, disarm,
trip and withdrawal can be worked out. Loading stops at the first problem and raises a
:class:`~oprlab.errors.ParseError` naming the source, the key path, the value and what would be
right, through the same machinery as the other profile files.

Units layer: the functions take the text (the caller reads the file); may import
``oprlab.errors`` and ``oprlab.units.profiles``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from oprlab.errors import ParseError

# The profile files' shared reading machinery (strict pydantic models, first error as a path).
from oprlab.units.profiles import _check_system, _In, _raise_first, _read, parse_damage

__all__ = [
    "CHARACTERISTICS",
    "MAX_SKILL_RANK",
    "Aim",
    "Characteristics",
    "DqFighter",
    "FighterArmour",
    "FighterWeapon",
    "Shield",
    "Skills",
    "load_dq_fighter",
]

#: The characteristics 57.3 uses, by their DragonQuest abbreviations (MA is kept, unused in melee).
CHARACTERISTICS = ("PS", "MD", "AG", "MA", "EN", "FT", "WP", "PC")
#: Ranks with a weapon or a skill run 0..10 (as :data:`oprlab.rules.dq.MAX_RANK`).
MAX_SKILL_RANK = 10
#: Generous bounds: DQ humans run about 5..25, great monsters higher; beyond 99 is a typo.
MAX_CHARACTERISTIC = 99
#: What a fighter fights for: ``kill`` strikes to harm; ``capture`` tries knockouts and restraint.
Aim = Literal["kill", "capture"]


@dataclass(frozen=True, slots=True)
class Characteristics:
    """The characteristics the 57.3 equations read (DQ abbreviations in the file).

    Attributes:
        ps: Physical Strength (withdraw, restrain).
        md: Manual Dexterity, as modified (strike chance, avoiding a disarm).
        ag: Agility, as modified (defence, initiative, avoiding shield rush, trip, entangle).
        ma: Magical Aptitude (no melee equation uses it; kept so a sheet can be copied whole).
        en: Endurance, the fighter's life: at 0 it is dead, at 3 or less it may faint.
        ft: Fatigue, spent first by Fatigue results; at 0 further fatigue damage is Endurance.
        wp: Willpower (staying conscious, stun recovery).
        pc: Perception (initiative; front defence under 57.3's reading).
    """

    ps: int
    md: int
    ag: int
    ma: int
    en: int
    ft: int
    wp: int
    pc: int


@dataclass(frozen=True, slots=True)
class FighterWeapon:
    """The weapon a fighter strikes with.

    Attributes:
        name: its name.
        base_chance: the weapon's Base Chance (57.3 "Strike Chance with ranked weapon").
        rank: the fighter's Rank with it, 0..10.
        damage: the damage roll as written, normalized (``"D10+4"``).
        die: sides of the damage die (10 for ``D10+4``).
        modifier: added to the die (4 for ``D10+4``).
        two_handed: held in both hands (avoiding a disarm is then 2 x MD + Rank).
        pole: a pole weapon (charging with it is +20, 57.1).
        entangling: may be used to entangle (57.3 "Entangle").
    """

    name: str
    base_chance: int
    rank: int
    damage: str
    die: int
    modifier: int
    two_handed: bool = False
    pole: bool = False
    entangling: bool = False


@dataclass(frozen=True, slots=True)
class Shield:
    """A shield: its bonus to the front Defence (not to rear or flank, not when stunned)."""

    name: str
    defence: int


@dataclass(frozen=True, slots=True)
class FighterArmour:
    """Armour by Table 2's kinds: FT against Fatigue damage, EN against Endurance damage, DR
    (damage reduction) against both."""

    name: str = "none"
    ft: int = 0
    en: int = 0
    dr: int = 0


@dataclass(frozen=True, slots=True)
class Skills:
    """Skill ranks the 57.3 equations and the Assassin section use, each 0..10.

    Attributes:
        military_scientist: adds 2 per rank to the unengaged initiative.
        assassin: the grievous bonus (in a duel, from the front: 1 per 3 full ranks).
        warrior: "warrior Rank" of the engaged initiative.
    """

    military_scientist: int = 0
    assassin: int = 0
    warrior: int = 0


@dataclass(frozen=True, slots=True)
class DqFighter:
    """One DragonQuest fighter, as a fight needs it.

    Attributes:
        name: the fighter's name.
        characteristics: PS, MD, AG, MA, EN, FT, WP, PC.
        weapon: the prepared weapon.
        shield: a shield, or ``None``.
        armour: FT, EN and DR armour.
        skills: Military Scientist, Assassin and Warrior ranks.
        magic_strike: magic added to the strike chance.
        magic_defence: Magical Defence, added to every Defence (the only part left when stunned).
        hexes: how many hexes the figure fills; 2 or more may trample (57.3 "Trample").
        aim: ``kill`` or ``capture`` (the fighters' habits read it).
    """

    name: str
    characteristics: Characteristics
    weapon: FighterWeapon
    shield: Shield | None = None
    armour: FighterArmour = FighterArmour()
    skills: Skills = Skills()
    magic_strike: int = 0
    magic_defence: int = 0
    hexes: int = 1
    aim: Aim = "kill"


# --------------------------------------------------------------------------------------------
# The file schema (pydantic); each Field's description is the "expected" of its errors
# --------------------------------------------------------------------------------------------


def _char(description: str, low: int = 0) -> Any:
    return Field(
        ge=low,
        le=MAX_CHARACTERISTIC,
        description=f"{description}, a whole number from {low} to {MAX_CHARACTERISTIC}",
    )


def _rank(what: str) -> Any:
    return Field(
        default=0, ge=0, le=MAX_SKILL_RANK, description=f"{what} from 0 to {MAX_SKILL_RANK}"
    )


class _CharacteristicsIn(_In):
    PS: int = _char("Physical Strength")
    MD: int = _char("Manual Dexterity")
    AG: int = _char("Agility")
    MA: int = _char("Magical Aptitude")
    EN: int = _char("Endurance", 1)
    FT: int = _char("Fatigue", 1)
    WP: int = _char("Willpower")
    PC: int = _char("Perception")


class _WeaponIn(_In):
    name: str = Field(min_length=1, description="a non-empty name")
    base_chance: int = Field(ge=0, le=100, description="a Base Chance from 0 to 100")
    rank: int = _rank("a Rank with the weapon")
    damage: str = Field(description='one die plus a modifier, like "D10+4" or "D10-1"')
    two_handed: bool = Field(default=False, description="true or false")
    pole: bool = Field(default=False, description="true or false")
    entangling: bool = Field(default=False, description="true or false")

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        try:
            dice, sides, bonus = parse_damage(value)
        except ParseError:
            raise ValueError('not a damage roll; expected one die like "D10+4"') from None
        if dice != 1:
            raise ValueError('a fighter\'s weapon rolls one die; expected e.g. "D10+4"')
        if not 2 <= sides <= 100 or not -20 <= bonus <= 50:
            raise ValueError("expected a die of 2 to 100 sides and a modifier from -20 to +50")
        return f"D{sides}" + (f"{bonus:+d}" if bonus else "")


class _ShieldIn(_In):
    name: str = Field(min_length=1, description="a non-empty name")
    defence: int = Field(ge=0, le=50, description="the shield's Defence bonus, 0 to 50")


class _ArmourIn(_In):
    name: str = Field(default="none", min_length=1, description="a non-empty name")
    ft: int = Field(default=0, ge=0, le=50, description="FT armour, 0 to 50")
    en: int = Field(default=0, ge=0, le=50, description="EN armour, 0 to 50")
    dr: int = Field(default=0, ge=0, le=50, description="damage reduction, 0 to 50")


class _SkillsIn(_In):
    military_scientist: int = _rank("a Military Scientist rank")
    assassin: int = _rank("an Assassin rank")
    warrior: int = _rank("a warrior Rank")


class _MagicIn(_In):
    strike: int = Field(default=0, ge=-100, le=100, description="magic to strike, -100 to 100")
    defence: int = Field(default=0, ge=-100, le=100, description="Magical Defence, -100 to 100")


class _FighterIn(_In):
    system: Literal["dq"] = Field(default="dq", description='"dq"')
    name: str = Field(min_length=1, description="a non-empty name")
    characteristics: _CharacteristicsIn = Field(
        description="a mapping with keys " + ", ".join(CHARACTERISTICS)
    )
    weapon: _WeaponIn = Field(description="a weapon {name, base_chance, rank, damage}")
    shield: _ShieldIn | None = Field(default=None, description="a shield {name, defence}")
    armour: _ArmourIn = Field(default_factory=_ArmourIn, description="{name, ft, en, dr}")
    skills: _SkillsIn = Field(
        default_factory=_SkillsIn, description="{military_scientist, assassin, warrior}"
    )
    magic: _MagicIn = Field(default_factory=_MagicIn, description="{strike, defence}")
    hexes: int = Field(default=1, ge=1, le=10, description="the figure's size in hexes, 1 to 10")
    aim: Aim = Field(default="kill", description='"kill" or "capture"')


def load_dq_fighter(text: str, source: str) -> DqFighter:
    """Read one DragonQuest fighter from ``text`` (YAML or JSON); ``source`` names it in errors.

    Raises:
        ParseError: the text is not YAML/JSON, is a file of another kind, or a value is missing,
            unknown or out of range.
    """
    data = _read(text, source, _FighterIn)
    _check_system(data, "dq", source)
    if isinstance(data, dict) and "combatants" in data:
        raise ParseError(
            "a file of DQ combatants (a strike chance and a defence each) cannot fight a duel",
            where=f"{source}: combatants",
            expected="one fighter: name, characteristics, weapon (docs/profiles.md)",
        )
    try:
        parsed = _FighterIn.model_validate(data)
    except ValidationError as exc:
        _raise_first(exc, _FighterIn, source)
    c, w, a, s = parsed.characteristics, parsed.weapon, parsed.armour, parsed.skills
    _, sides, bonus = parse_damage(w.damage)
    weapon = FighterWeapon(
        w.name, w.base_chance, w.rank, w.damage, sides, bonus, w.two_handed, w.pole, w.entangling
    )
    return DqFighter(
        name=parsed.name,
        characteristics=Characteristics(c.PS, c.MD, c.AG, c.MA, c.EN, c.FT, c.WP, c.PC),
        weapon=weapon,
        shield=None if parsed.shield is None else Shield(parsed.shield.name, parsed.shield.defence),
        armour=FighterArmour(a.name, a.ft, a.en, a.dr),
        skills=Skills(s.military_scientist, s.assassin, s.warrior),
        magic_strike=parsed.magic.strike,
        magic_defence=parsed.magic.defence,
        hexes=parsed.hexes,
        aim=parsed.aim,
    )
