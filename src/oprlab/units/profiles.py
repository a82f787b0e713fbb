"""WWPD forces and DragonQuest combatants, read from a small YAML (or JSON) format of ours.

Army Forge has no lists for WWPD (seed 004_b5c87f7769291d1c) or DragonQuest (seed
001_7377b7b33dc9f88d), so oprlab reads their profiles from a format documented, with a full
example of each, in ``docs/profiles.md``. Values are frozen dataclasses; the loaders parse with
``yaml.safe_load`` (JSON is read as JSON), check the shape with pydantic, and raise a
:class:`~oprlab.errors.ParseError` on the first problem, naming the source and the path of the bad
value (``forces.yaml: units[0].models[1].ranged_skill``), the value, and what would be right.
Unknown keys are rejected, so a misspelt key never silently falls back to a default.

This is one of the explicit file loaders of the units layer: the functions take the text (the
caller reads the file), so the module itself does no I/O. May import ``oprlab.errors``.
"""

from __future__ import annotations

import json
import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from oprlab.display import printable
from oprlab.errors import ParseError
from oprlab.limits import (
    DOCS,
    MAX_ARMY_MODELS,
    MAX_ARMY_UNITS,
    MAX_UNIT_SIZE,
    MAX_WEAPON_ATTACKS,
    MAX_WEAPONS_PER_MODEL,
    check_nesting,
)

__all__ = [
    "TARGET_TYPES",
    "DqArmour",
    "DqCombatant",
    "DqDefence",
    "DqDefenceParts",
    "DqStrikeParts",
    "DqWeapon",
    "Facing",
    "TargetType",
    "WwpdForce",
    "WwpdModel",
    "WwpdUnit",
    "WwpdWeapon",
    "load_dq",
    "load_wwpd",
    "parse_damage",
    "strike_chance_from_parts",
]

# --------------------------------------------------------------------------------------------
# WWPD values (seed 004 "Basic Characterisics", "Weapons")
# --------------------------------------------------------------------------------------------

#: Skill ratings run from 0 ("does not bear contemplating") to 4 ("elite of the elite").
SKILL_RANGE = (0, 4)
#: Leadership is a target number, 2+ (fearless) to 6+ (awful).
LEADERSHIP_RANGE = (2, 6)
#: Ratings of special characteristics: whole numbers 0..9, as ``oprlab.rules.wwpd`` accepts.
RATING_RANGE = (0, 9)
#: Target types a weapon may prefer ("Allocation of Hits"): the one type distinction a WWPD
#: model profile carries is ``vehicle`` (``WwpdModel.vehicle``); every other model is infantry.
TargetType = Literal["infantry", "vehicle"]
TARGET_TYPES: tuple[str, ...] = ("infantry", "vehicle")


@dataclass(frozen=True, slots=True)
class WwpdWeapon:
    """A WWPD weapon: ranged (a range and a Rate of Fire) or melee (no range).

    Attributes:
        name: the weapon's name.
        range: range in inches; ``None`` for melee equipment.
        rate_of_fire: dice per model when shooting; ``None`` for melee equipment, whose dice are
            the model's Rate of Attacks (``WwpdModel.melee_attacks``).
        massive: reduces the target's Toughness.
        ap: Armor Piercing, reduces the target's Armor.
        high_explosive: reduces Cover Saves (ranged weapons only).
        anti_tank: may damage vehicles.
        melee_defense: improves the wielder's Defensive Save (melee weapons only).
        melee_offense: worsens the enemy's Defensive Save (melee weapons only).
        single_out: the attacker may single out one target model in range, which takes every
            hit from the weapon (ranged weapons only; "Allocation of Hits").
        prefers: a target type whose models take the weapon's hits before other models on the
            same count (``"infantry"`` or ``"vehicle"``; ranged weapons only); ``None``: none.
    """

    name: str
    range: int | None = None
    rate_of_fire: int | None = None
    massive: int = 0
    ap: int = 0
    high_explosive: int = 0
    anti_tank: int = 0
    melee_defense: int = 0
    melee_offense: int = 0
    single_out: bool = False
    prefers: TargetType | None = None

    @property
    def melee(self) -> bool:
        return self.range is None


@dataclass(frozen=True, slots=True)
class WwpdModel:
    """One WWPD model profile.

    Attributes:
        name: the profile's name (``"Rifleman"``).
        ranged_skill: 0..4.
        melee_skill: 0..4.
        leadership: the target number, 2..6 (``4`` for 4+).
        toughness: levels of Toughness (0: human).
        armor: levels of Armor (0: no appreciable armour).
        vehicle: an armoured vehicle (a to-wound of 7+ against it cannot succeed).
        melee_attacks: the model's melee Rate of Attacks.
        melee_defense: the model's own Melee Defense (traits, force fields, magic).
        melee_offense: the model's own Melee Offense.
    """

    name: str
    ranged_skill: int
    melee_skill: int
    leadership: int
    toughness: int = 0
    armor: int = 0
    vehicle: bool = False
    melee_attacks: int = 1
    melee_defense: int = 0
    melee_offense: int = 0


@dataclass(frozen=True, slots=True)
class WwpdUnit:
    """A WWPD unit: its models and weapons, each as ``(count, profile)``."""

    name: str
    models: tuple[tuple[int, WwpdModel], ...]
    weapons: tuple[tuple[int, WwpdWeapon], ...] = ()

    @property
    def size(self) -> int:
        """How many models the unit has."""
        return sum(n for n, _ in self.models)


@dataclass(frozen=True, slots=True)
class WwpdForce:
    """A WWPD force: a name and its units."""

    name: str
    units: tuple[WwpdUnit, ...]


# --------------------------------------------------------------------------------------------
# DQ values (seed 001 "57.3 Combat Equation Summary", "Defence Calculation", Table 2 armour)
# --------------------------------------------------------------------------------------------

Facing = Literal["front", "flank", "rear"]

_DAMAGE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")


def parse_damage(text: str) -> tuple[int, int, int]:
    """``(dice, sides, bonus)`` of a damage roll: ``"D10+2"`` is ``(1, 10, 2)``.

    Raises:
        ParseError: ``text`` is not ``[n]D<sides>[+/-bonus]``.
    """
    m = _DAMAGE.match(text)
    if m is None or int(m.group(2)) < 1 or (m.group(1) and int(m.group(1)) < 1):
        raise ParseError(
            "not a damage roll", value=text, expected='dice like "D10", "D10+2" or "2D6-1"'
        )
    dice = int(m.group(1)) if m.group(1) else 1
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    return dice, int(m.group(2)), bonus


@dataclass(frozen=True, slots=True)
class DqWeapon:
    """A DQ weapon.

    Attributes:
        name: the weapon's name.
        damage: the damage roll, normalized (``"D10+2"``).
        base_chance: the weapon's Base Chance; needed only when the strike chance is built from
            its parts.
    """

    name: str
    damage: str
    base_chance: int | None = None

    @property
    def damage_roll(self) -> tuple[int, int, int]:
        """``(dice, sides, bonus)`` of :attr:`damage`."""
        return parse_damage(self.damage)


@dataclass(frozen=True, slots=True)
class DqStrikeParts:
    """The parts of a strike chance besides the weapon (57.3 "Strike Chance with ranked weapon").

    Attributes:
        manual_dexterity: the attacker's modified Manual Dexterity.
        magic: magical bonuses to strike.
        modifiers: standing modifiers (57.1).
    """

    manual_dexterity: int
    magic: int = 0
    modifiers: int = 0


@dataclass(frozen=True, slots=True)
class DqDefenceParts:
    """The parts of a Defence (57.3 "Defence: Front / Rear or Flank / Stunned").

    Attributes:
        agility: modified Agility.
        shield: the shield's defence (front only).
        magic: magical defence.
        modifiers: standing modifiers (57.2).
        perception: 57.3 adds PC to the front Defence while the "Defence Calculation" section
            does not; 0 (the default) follows the latter.
    """

    agility: int
    shield: int = 0
    magic: int = 0
    modifiers: int = 0
    perception: int = 0


@dataclass(frozen=True, slots=True)
class DqDefence:
    """A combatant's Defence by facing: front, rear or flank (no shield), and stunned."""

    front: int
    rear_flank: int
    stunned: int

    def value(self, facing: Facing = "front", *, stunned: bool = False) -> int:
        """The Defence against an attack from ``facing``; stunned combatants have one Defence."""
        if stunned:
            return self.stunned
        return self.front if facing == "front" else self.rear_flank

    @classmethod
    def from_parts(cls, parts: DqDefenceParts) -> DqDefence:
        """Front: AG + PC + shield + magic + modifiers; rear or flank drop PC and the shield;
        stunned keeps only magic and modifiers."""
        base = parts.magic + parts.modifiers
        return cls(
            front=parts.agility + parts.perception + parts.shield + base,
            rear_flank=parts.agility + base,
            stunned=base,
        )


@dataclass(frozen=True, slots=True)
class DqArmour:
    """Armour by Table 2's kinds: FT (against Fatigue damage), EN (against Endurance damage),
    DR (damage reduction, against every result)."""

    ft: int = 0
    en: int = 0
    dr: int = 0


@dataclass(frozen=True, slots=True)
class DqCombatant:
    """A DQ combatant, with its strike chance and defence worked out.

    Attributes:
        name: the combatant's name.
        weapon: the weapon it strikes with.
        weapon_rank: its Rank with that weapon.
        strike_chance: the Strike Chance (given, or weapon Base Chance + modified MD +
            4 x Rank + magic + modifiers).
        defence: its Defence by facing (given, or from parts).
        armour: FT, EN and DR armour.
        strike_parts: the parts the strike chance was built from, if it was.
        defence_parts: the parts the defence was built from, if it was.
    """

    name: str
    weapon: DqWeapon
    weapon_rank: int
    strike_chance: int
    defence: DqDefence
    armour: DqArmour = DqArmour()
    strike_parts: DqStrikeParts | None = None
    defence_parts: DqDefenceParts | None = None


def strike_chance_from_parts(weapon: DqWeapon, rank: int, parts: DqStrikeParts) -> int:
    """57.3: Weapon Base Chance + modified MD + (4 x Rank with weapon) + Magic + Modifiers."""
    if weapon.base_chance is None:
        raise ParseError(
            "the weapon has no base_chance", value=weapon.name, expected="a base_chance"
        )
    return weapon.base_chance + parts.manual_dexterity + 4 * rank + parts.magic + parts.modifiers


# --------------------------------------------------------------------------------------------
# The file schemas (pydantic); each Field's description is the "expected" of its errors
# --------------------------------------------------------------------------------------------


class _In(BaseModel):
    # strict: "2" is not 2 and true is not 1; lists stay lists (strict tuples reject them).
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def _name() -> Any:
    return Field(min_length=1, description="a non-empty name")


#: A name as given, with control characters neutralised (it is printed).
Name = typing.Annotated[str, AfterValidator(printable)]


def _count(high: int = MAX_UNIT_SIZE) -> Any:
    return Field(
        default=1, ge=1, le=high, description=f"a whole number from 1 to {high} (see {DOCS})"
    )


def _rating() -> Any:
    low, high = RATING_RANGE
    return Field(default=0, ge=low, le=high, description=f"a whole number from {low} to {high}")


def _skill() -> Any:
    low, high = SKILL_RANGE
    return Field(ge=low, le=high, description=f"a skill from {low} to {high}")


def _whole() -> Any:
    return Field(default=None, description="a whole number")


class _WwpdWeaponIn(_In):
    name: Name = _name()
    count: int = _count(MAX_UNIT_SIZE * MAX_WEAPONS_PER_MODEL)
    range: int | None = Field(
        default=None,
        ge=1,
        description="a range in inches (1 or more); leave it out for melee weapons",
    )
    rate_of_fire: int | None = Field(
        default=None,
        ge=1,
        le=MAX_WEAPON_ATTACKS,
        description=f"a Rate of Fire (1 to {MAX_WEAPON_ATTACKS}) for a ranged weapon",
    )
    massive: int = _rating()
    ap: int = _rating()
    high_explosive: int = _rating()
    anti_tank: int = _rating()
    melee_defense: int = _rating()
    melee_offense: int = _rating()
    single_out: bool = Field(
        default=False,
        description="true if the attacker may single out one target model, else false",
    )
    prefers: TargetType | None = Field(
        default=None, description="a target type: " + " or ".join(TARGET_TYPES)
    )

    @model_validator(mode="after")
    def _kind(self) -> _WwpdWeaponIn:
        if self.range is not None:
            if self.rate_of_fire is None:
                raise ValueError("a ranged weapon needs rate_of_fire")
            if self.melee_defense or self.melee_offense:
                raise ValueError("melee_defense and melee_offense are for melee weapons (no range)")
        else:
            if self.rate_of_fire is not None:
                raise ValueError(
                    "a melee weapon (no range) has no rate_of_fire; "
                    "its dice are the model's melee_attacks"
                )
            if self.high_explosive:
                raise ValueError("high_explosive is for ranged weapons (with a range)")
            if self.single_out or self.prefers is not None:
                raise ValueError(
                    "single_out and prefers are for ranged weapons (with a range): "
                    "the melee allocation clause has neither"
                )
        return self


class _WwpdModelIn(_In):
    name: Name = _name()
    count: int = _count()
    ranged_skill: int = _skill()
    melee_skill: int = _skill()
    leadership: int = Field(
        ge=LEADERSHIP_RANGE[0],
        le=LEADERSHIP_RANGE[1],
        description='a target from 2+ to 6+ (written "4+" or 4)',
    )
    toughness: int = _rating()
    armor: int = _rating()
    vehicle: bool = Field(default=False, description="true for an armoured vehicle, else false")
    melee_attacks: int = Field(
        default=1, ge=0, le=99, description="a melee Rate of Attacks from 0 to 99"
    )
    melee_defense: int = _rating()
    melee_offense: int = _rating()

    @field_validator("leadership", mode="before")
    @classmethod
    def _target(cls, value: Any) -> Any:
        """Accept ``"4+"`` as well as ``4``: players write Leadership as a target."""
        if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*\+\s*", value):
            return int(value.strip().rstrip("+"))
        return value


class _WwpdUnitIn(_In):
    name: Name = _name()
    models: list[_WwpdModelIn] = Field(min_length=1, description="a list of model entries")
    weapons: list[_WwpdWeaponIn] = Field(default=[], description="a list of weapon entries")


class _WwpdForceIn(_In):
    system: Literal["wwpd"] = Field(default="wwpd", description='"wwpd"')
    name: Name = _name()
    units: list[_WwpdUnitIn] = Field(
        min_length=1,
        max_length=MAX_ARMY_UNITS,
        description=f"a list of 1 to {MAX_ARMY_UNITS} units (see {DOCS})",
    )

    @model_validator(mode="after")
    def _models(self) -> _WwpdForceIn:
        for u in self.units:
            size = sum(m.count for m in u.models)
            if size > MAX_UNIT_SIZE:
                raise ValueError(
                    f"unit {u.name!r} has {size} models, over the limit of {MAX_UNIT_SIZE} "
                    f"(see {DOCS})"
                )
        total = sum(m.count for u in self.units for m in u.models)
        if total > MAX_ARMY_MODELS:
            raise ValueError(
                f"the force has {total} models, over the limit of {MAX_ARMY_MODELS} (see {DOCS})"
            )
        return self


class _DqWeaponIn(_In):
    name: Name = _name()
    damage: str = Field(description='a damage roll like "D10", "D10+2" or "2D6-1"')
    base_chance: int | None = Field(default=None, ge=0, description="a Base Chance of 0 or more")

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        try:
            dice, sides, bonus = parse_damage(value)
        except ParseError:
            raise ValueError('not a damage roll; expected dice like "D10+2"') from None
        return f"{dice if dice != 1 else ''}D{sides}" + (f"{bonus:+d}" if bonus else "")


def _number_as(key: str) -> Any:
    """A before-validator turning a plain number into ``{key: number}``."""

    def convert(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            return {key: value}
        return value

    return convert


class _DqStrikeIn(_In):
    value: int | None = Field(default=None, description="the Strike Chance, a whole number")
    manual_dexterity: int | None = Field(
        default=None, ge=0, description="a modified Manual Dexterity of 0 or more"
    )
    magic: int | None = _whole()
    modifiers: int | None = _whole()

    @model_validator(mode="after")
    def _one_form(self) -> _DqStrikeIn:
        parts = [
            k for k in ("manual_dexterity", "magic", "modifiers") if getattr(self, k) is not None
        ]
        if self.value is not None and parts:
            raise ValueError(
                f"mixes a given Strike Chance with parts ({', '.join(parts)}); "
                "give a number or {manual_dexterity, magic, modifiers}"
            )
        if self.value is None and self.manual_dexterity is None:
            raise ValueError("needs a number, or manual_dexterity (built from parts)")
        return self


class _DqDefenceIn(_In):
    # Given directly ...
    front: int | None = Field(default=None, description="the front Defence, a whole number")
    rear_flank: int | None = Field(
        default=None, description="the rear and flank Defence, a whole number"
    )
    stunned: int | None = Field(
        default=None, description="the Defence when stunned, a whole number"
    )
    # ... or from parts
    agility: int | None = Field(default=None, ge=0, description="a modified Agility of 0 or more")
    shield: int | None = Field(default=None, ge=0, description="a shield defence of 0 or more")
    magic: int | None = _whole()
    modifiers: int | None = _whole()
    perception: int | None = Field(default=None, ge=0, description="a Perception of 0 or more")

    @model_validator(mode="after")
    def _one_form(self) -> _DqDefenceIn:
        given = [k for k in ("front", "rear_flank", "stunned") if getattr(self, k) is not None]
        parts = [
            k
            for k in ("agility", "shield", "magic", "modifiers", "perception")
            if getattr(self, k) is not None
        ]
        if given and parts:
            raise ValueError(
                f"mixes a given Defence ({', '.join(given)}) with parts ({', '.join(parts)}); "
                "give front (and rear_flank, stunned) or agility (and shield, magic, modifiers, "
                "perception)"
            )
        if given and self.front is None:
            raise ValueError("a given Defence needs front")
        if not given and self.agility is None:
            raise ValueError("needs a number, front (given directly) or agility (from parts)")
        return self

    def build(self) -> tuple[DqDefence, DqDefenceParts | None]:
        if self.agility is None:
            front = self.front if self.front is not None else 0  # _one_form: front is given
            rear = self.rear_flank if self.rear_flank is not None else front
            return DqDefence(front, rear, self.stunned or 0), None
        parts = DqDefenceParts(
            self.agility,
            self.shield or 0,
            self.magic or 0,
            self.modifiers or 0,
            self.perception or 0,
        )
        return DqDefence.from_parts(parts), parts


class _DqArmourIn(_In):
    ft: int = Field(default=0, ge=0, description="FT armour, 0 or more")
    en: int = Field(default=0, ge=0, description="EN armour, 0 or more")
    dr: int = Field(default=0, ge=0, description="damage reduction, 0 or more")


class _DqCombatantIn(_In):
    name: Name = _name()
    weapon: _DqWeaponIn = Field(description="a weapon {name, damage, base_chance}")
    weapon_rank: int = Field(default=0, ge=0, description="a Rank with the weapon, 0 or more")
    strike_chance: _DqStrikeIn = Field(
        description="a Strike Chance, or its parts {manual_dexterity, magic, modifiers}"
    )
    defence: _DqDefenceIn = Field(
        description="a Defence, or {front, rear_flank, stunned}, or its parts "
        "{agility, shield, magic, modifiers, perception}"
    )
    armour: _DqArmourIn = Field(default_factory=_DqArmourIn, description="{ft, en, dr}")

    _strike = field_validator("strike_chance", mode="before")(_number_as("value"))
    _defence = field_validator("defence", mode="before")(_number_as("front"))

    @model_validator(mode="after")
    def _base_chance(self) -> _DqCombatantIn:
        if self.strike_chance.value is None and self.weapon.base_chance is None:
            raise ValueError(
                "the strike chance is built from parts, so weapon.base_chance is needed"
            )
        return self


class _DqFileIn(_In):
    system: Literal["dq"] = Field(default="dq", description='"dq"')
    combatants: list[_DqCombatantIn] = Field(min_length=1, description="a list of combatants")


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def _read(text: str, source: str, schema: type[BaseModel]) -> Any:
    """The data in ``text``: JSON when it looks like JSON, else YAML (``yaml.safe_load``)."""
    body = text.lstrip("\ufeff \t\r\n")
    check_nesting(body, source)
    try:
        return _parse(text, body, source, schema)
    except RecursionError:  # block-style YAML nested hundreds of levels deep
        raise ParseError(
            "nested too deeply", where=source, expected=f"a few levels at most (see {DOCS})"
        ) from None


def _parse(text: str, body: str, source: str, schema: type[BaseModel]) -> Any:
    if body[:1] in ("{", "["):
        try:
            return json.loads(body)
        except json.JSONDecodeError as exc:
            # A YAML flow mapping (``{name: x}``) starts the same way: give YAML its chance.
            try:
                return yaml.safe_load(text)
            except yaml.YAMLError:
                raise ParseError(
                    f"invalid JSON: {exc.msg}",
                    where=f"{source}:{exc.lineno}:{exc.colno}",
                    expected="a JSON object",
                ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark is not None else source
        problem = getattr(exc, "problem", None) or str(exc)
        raise ParseError(
            f"invalid YAML: {problem}", where=where, expected="YAML or JSON text"
        ) from None
    if data is None:
        keys = ", ".join(schema.model_fields)
        raise ParseError("empty file", where=source, expected=f"a mapping with keys {keys}")
    return data


def _check_system(data: Any, system: str, source: str) -> None:
    """A file for another system is named as such, before its keys are found unknown."""
    if isinstance(data, dict) and "system" in data and data["system"] != system:
        raise ParseError(
            "a profile file of another system",
            value=data["system"],
            where=f"{source}: system",
            expected=repr(system),
        )


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for seg in loc:
        if isinstance(seg, int):
            out += f"[{seg}]"
        else:
            out += f".{seg}" if out else seg
    return out or "(top level)"


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation (``X``, ``X | None``, ``list[X]``)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType, list):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def _walk(
    root: type[BaseModel], loc: tuple[int | str, ...]
) -> tuple[type[BaseModel] | None, FieldInfo | None, type[BaseModel] | None]:
    """Follow ``loc`` through the schema: the model holding its last key, that key's field, and
    the model the value at ``loc`` should be (each ``None`` where the path leaves the schema)."""
    holder: type[BaseModel] | None = None
    field: FieldInfo | None = None
    here: type[BaseModel] | None = root
    for seg in loc:
        if isinstance(seg, int):
            continue  # a list element: same model as the list's
        holder, field = here, None
        if here is None or seg not in here.model_fields:
            here = None
            continue
        field = here.model_fields[seg]
        here = _model_in(field.annotation)
    return holder, field, here


def _raise_first(exc: ValidationError, root: type[BaseModel], source: str) -> typing.NoReturn:
    """Turn pydantic's first error into a :class:`ParseError` with the path, value and hint."""
    errs = exc.errors(include_url=False)
    # A misspelt key shows up twice: as unknown, and as the key it should have been, missing.
    # The unknown key is the cause, so it is reported first.
    err = next((e for e in errs if e["type"] == "extra_forbidden"), errs[0])
    loc = tuple(err["loc"])
    holder, field, here = _walk(root, loc)
    kind = err["type"]
    where = f"{source}: {_path(loc)}"
    value = err.get("input")
    if kind == "extra_forbidden":
        keys = ", ".join(holder.model_fields) if holder is not None else ""
        raise ParseError("unknown key", value=loc[-1], where=where, expected=f"one of: {keys}")
    if kind == "missing":
        raise ParseError("missing key", where=where, expected=field.description if field else None)
    if kind in ("model_type", "model_attributes_type", "dict_type") and here is not None:
        expected = (
            field.description if field else "a mapping with keys " + ", ".join(here.model_fields)
        )
        raise ParseError("not a mapping", value=value, where=where, expected=expected)
    message = str(err["msg"]).removeprefix("Value error, ")
    if kind == "value_error" or field is None:
        raise ParseError(message, value=value if kind != "value_error" else None, where=where)
    raise ParseError(message, value=value, where=where, expected=field.description)


def load_wwpd(text: str, source: str) -> WwpdForce:
    """Read a WWPD force from ``text`` (YAML or JSON); ``source`` names it in errors.

    Raises:
        ParseError: the text is not YAML/JSON, or a value is missing, unknown or out of range.
    """
    data = _read(text, source, _WwpdForceIn)
    _check_system(data, "wwpd", source)
    try:
        force = _WwpdForceIn.model_validate(data)
    except ValidationError as exc:
        _raise_first(exc, _WwpdForceIn, source)
    return WwpdForce(
        force.name,
        tuple(
            WwpdUnit(
                u.name,
                tuple((m.count, WwpdModel(**m.model_dump(exclude={"count"}))) for m in u.models),
                tuple((w.count, WwpdWeapon(**w.model_dump(exclude={"count"}))) for w in u.weapons),
            )
            for u in force.units
        ),
    )


def load_dq(text: str, source: str) -> tuple[DqCombatant, ...]:
    """Read DQ combatants from ``text`` (YAML or JSON); ``source`` names it in errors.

    Raises:
        ParseError: the text is not YAML/JSON, or a value is missing, unknown or out of range.
    """
    data = _read(text, source, _DqFileIn)
    _check_system(data, "dq", source)
    try:
        parsed = _DqFileIn.model_validate(data)
    except ValidationError as exc:
        _raise_first(exc, _DqFileIn, source)
    out: list[DqCombatant] = []
    for c in parsed.combatants:
        weapon = DqWeapon(c.weapon.name, c.weapon.damage, c.weapon.base_chance)
        strike_parts: DqStrikeParts | None = None
        sc = c.strike_chance
        if sc.value is None:
            strike_parts = DqStrikeParts(sc.manual_dexterity or 0, sc.magic or 0, sc.modifiers or 0)
            strike = strike_chance_from_parts(weapon, c.weapon_rank, strike_parts)
        else:
            strike = sc.value
        defence, defence_parts = c.defence.build()
        out.append(
            DqCombatant(
                c.name,
                weapon,
                c.weapon_rank,
                strike,
                defence,
                DqArmour(c.armour.ft, c.armour.en, c.armour.dr),
                strike_parts,
                defence_parts,
            )
        )
    return tuple(out)
