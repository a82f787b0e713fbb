"""Pydantic models of Army Forge JSON: what a list or army-book entry may contain.

These models only check shapes and types (strict: ``"3"`` is not a quality, ``true`` is not a
count); whether a size, quality, defense, cost or attack count is in range is the validation's
business (:mod:`oprlab.units.validate`), the same for text lists and JSON. They normalise the
few fields Army Forge writes in several ways (string or numeric ratings, base sizes as strings,
game-system codes or ids). Turning them into :mod:`oprlab.units.model`
values, merging combined units and resolving joins is :mod:`oprlab.units.forge_json`'s job.

Field names are Army Forge's camelCase (via an alias generator), so pydantic error locations are
JSON paths. Unknown fields are ignored: Army Forge adds fields often, and oprlab needs few.

May import ``pydantic``, ``oprlab.units.model``, ``oprlab.display``.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeGuard

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    Tag,
)
from pydantic.alias_generators import to_camel

from oprlab.display import printable
from oprlab.units.model import Rule

__all__ = [
    "GAME_SYSTEM_IDS",
    "GAME_SYSTEM_SLUGS",
    "GEAR_TAGS",
    "ArmyIn",
    "BasesIn",
    "RuleIn",
    "UnitIn",
    "WeaponIn",
    "parse_rating",
]

#: Army Forge's numeric game-system ids (``gameSystemToEnum`` in its source).
GAME_SYSTEM_IDS: dict[int, str] = {2: "GF", 3: "GFF", 4: "AOF", 5: "AOFS", 6: "AOFR"}
#: Army Forge's game-system slugs, as army books name their system.
GAME_SYSTEM_SLUGS: dict[str, str] = {
    "grimdark-future": "GF",
    "grimdark-future-firefight": "GFF",
    "age-of-fantasy": "AOF",
    "age-of-fantasy-skirmish": "AOFS",
    "age-of-fantasy-regiments": "AOFR",
}
#: Discriminator tags of a gear entry; they appear in pydantic locations but not in the JSON.
GEAR_TAGS = frozenset({"<weapon>", "<item>"})

_CODE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_INTEGER = re.compile(r"[+-]?\d+")
#: One rule label inside a non-numeric rating: ``Fearless`` or ``Caster(3)``.
_INNER_RULE = re.compile(r"([A-Za-z][A-Za-z0-9' &/-]*?)\s*(?:\(\s*([+-]?\d+)\s*\))?")
_MM = re.compile(r"(\d+)\s*(?:mm)?", re.IGNORECASE)


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_rating(value: object) -> int | tuple[Rule, ...] | None:
    """A rule's rating, which Army Forge writes as a number, a string, or an item's rules.

    ``3`` and ``"3"`` are 3; ``""`` and ``null`` are no rating; a string of rule labels
    (``"Fearless"``, ``"Fearless, Caster(3)"``), as items sometimes carry, becomes those rules.

    Raises:
        ValueError: for anything else (pydantic turns it into an error at the rating's path).
    """
    if value is None:
        return None
    if _is_int(value):
        return int(value)
    if not isinstance(value, str):
        raise ValueError('expected a whole number, a numeric string, "" or rule names')
    text = value.strip()
    if not text:
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    inner: list[Rule] = []
    for part in text.split(","):
        m = _INNER_RULE.fullmatch(part.strip())
        if m is None:
            raise ValueError(
                'expected a whole number, a numeric string, "" or rule names such as '
                "'Fearless' or 'Caster(3)'"
            )
        inner.append(Rule(m.group(1), int(m.group(2)) if m.group(2) else None))
    return tuple(inner)


def _parse_mm(value: object) -> int | None:
    """A base size; Army Forge writes mm as strings (``"32"``), ``""``/``"none"`` for none."""
    if value is None:
        return None
    if _is_int(value) and int(value) >= 0:
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if text.casefold() in ("", "none", "-"):
            return None
        m = _MM.fullmatch(text)
        if m is not None:
            return int(m.group(1))
    raise ValueError('expected a base size in whole millimetres such as "32", or "none"')


def _parse_game_system(value: object) -> str:
    """The upper-case game-system code (``"GFF"``) for a code, slug or numeric id."""
    if value is None:
        return ""
    known = ", ".join(f"{k} ({v})" for k, v in GAME_SYSTEM_IDS.items())
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return ""
        if text.casefold() in GAME_SYSTEM_SLUGS:
            return GAME_SYSTEM_SLUGS[text.casefold()]
        if _CODE.fullmatch(text):
            return text.upper()
        if text.isdigit():
            value = int(text)
    if _is_int(value) and int(value) in GAME_SYSTEM_IDS:
        return GAME_SYSTEM_IDS[int(value)]
    raise ValueError(
        'expected a game-system code such as "gff" or "aof", a slug such as '
        f'"grimdark-future", or a numeric id: {known}'
    )


def _parse_id(value: object) -> str | None:
    """An id, which Army Forge writes as a string (and old books sometimes as a number)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if _is_int(value):
        return str(value)
    raise ValueError("expected a string id")


def _gear_kind(value: Any) -> str:
    """Whether a ``weapons``/``loadout`` entry is an item (carries rules) or a weapon."""
    if isinstance(value, dict) and value.get("type") == "ArmyBookItem":
        return "<item>"
    return "<weapon>"


Count = Annotated[StrictInt, Field(ge=0)]
Name = Annotated[StrictStr, Field(min_length=1), AfterValidator(printable)]
#: Text that is printed (a list's name, its books): control characters neutralised.
Shown = Annotated[StrictStr, AfterValidator(printable)]
Rating = Annotated[int | tuple[Rule, ...] | None, PlainValidator(parse_rating)]
Mm = Annotated[int | None, PlainValidator(_parse_mm)]
GameSystem = Annotated[str, PlainValidator(_parse_game_system)]
Id = Annotated[str | None, PlainValidator(_parse_id)]


class _In(BaseModel):
    model_config = ConfigDict(
        extra="ignore", frozen=True, alias_generator=to_camel, populate_by_name=True
    )


class RuleIn(_In):
    """A special rule (``rules``/``specialRules`` entry) or an item (``items`` entry).

    Items carry their rules in ``content``; ``count`` (per model or per item) is kept when given.
    """

    name: Name
    rating: Rating = None
    count: Count | None = None
    content: list[RuleIn] | None = None
    type: StrictStr | None = None


class WeaponIn(_In):
    """A weapon (``weapons``/``loadout``/``equipment`` entry); ``range`` 0 or missing = melee."""

    name: Name
    attacks: StrictInt
    range: Count | None = None
    count: Count = 1
    attacks_multiplier: Count = 1
    special_rules: list[RuleIn] = []


Gear = Annotated[
    Annotated[WeaponIn, Tag("<weapon>")] | Annotated[RuleIn, Tag("<item>")],
    Discriminator(_gear_kind),
]


class BasesIn(_In):
    """Base sizes in millimetres (strings in Army Forge)."""

    round: Mm = None
    square: Mm = None


class UnitIn(_In):
    """One unit entry of a shared list (2023 or current shape) or of an army book."""

    name: Name
    size: StrictInt
    quality: StrictInt
    defense: StrictInt
    cost: StrictInt
    id: Id = None
    selection_id: StrictStr | None = None
    combined: StrictBool | None = None
    join_to_unit: StrictStr | None = None
    rules: list[RuleIn] | None = None
    special_rules: list[RuleIn] | None = None
    items: list[RuleIn] | None = None
    loadout: list[Gear] | None = None
    weapons: list[Gear] | None = None
    equipment: list[Gear] | None = None
    bases: BasesIn | None = None
    army_id: Id = None


class ArmyIn(_In):
    """A shared list's top level, or an army book's (``name``, ``versionString``, ``units``).

    ``books`` is oprlab's own field (Army Forge lists only give each unit's ``armyId``).
    """

    name: Shown | None = None
    game_system: GameSystem = ""
    game_system_id: GameSystem = ""
    game_system_slug: GameSystem = ""
    points_limit: Count | None = None
    list_points: Count | None = None
    version_string: StrictStr | None = None
    books: list[Shown] | None = None
    units: list[UnitIn]
