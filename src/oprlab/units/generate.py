"""Random legal army lists at a points limit, drawn from a *pool* of units (seeded).

The balance lab prices units by playing many lists nobody chose by hand, so a list here is
drawn, not built: units are added one at a time, each drawn with equal chance from the pool
units that still fit (points left, the entry's ``max`` copies, and every limit of
:func:`~oprlab.units.validate.validate_army`, Force Org included for GFF lists), until none
fits. Every limit only gets harder as a list grows, so a unit that does not fit once is
dropped for the rest of the list. The same pool, points and generator give the same list.

A pool is a TOML file (docs/experiments.md "Unit pools")::

    name = "Lantern skirmishers"      # required: names the lists
    system = "GFF"                    # the lists' game system (default GFF)
    book = "Lantern Covenant (v1.0)"  # optional: the lists' book

    [[units]]
    text = '''
    Glass Rifle Team [2] Q4+ D5+ | 30pts | 2x Relentless
    2x Glass Rifle (24", A1, AP(1)), 2x Bayonet (A1)
    '''
    max = 2                           # optional: at most this many copies in one list

Errors name the file and key (``pool.toml: units[2].text:1``), the bad value and what would be
right. May import ``oprlab.units``, ``oprlab.errors``, pydantic, numpy; no I/O.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from oprlab.errors import OprlabError, ParseError
from oprlab.units.model import Army, Unit
from oprlab.units.text import parse_unit_text, slug
from oprlab.units.validate import errors, validate_army

__all__ = ["MAX_POOL_UNITS", "Pool", "PoolUnit", "generate_army", "parse_pool"]

#: Units in one pool: a pool is a designer's short list, and the lab fits one value per unit.
MAX_POOL_UNITS = 64
#: The largest points limit a list is drawn at (2,000 points is a large OPR game).
MAX_POOL_POINTS = 10_000


@dataclass(frozen=True)
class PoolUnit:
    """One unit a list may take, and the most copies of it one list may hold (None: only the
    system's limits)."""

    unit: Unit
    max: int | None = None


@dataclass(frozen=True)
class Pool:
    """A pool: its name, the lists' system and book, and its units in file order."""

    name: str
    system: str
    book: str
    units: tuple[PoolUnit, ...]


class _UnitIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str = Field(description="the unit's two lines in Army Forge text")
    max: int | None = Field(None, ge=1, le=100, description="the most copies in a list, 1-100")


class _PoolIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: str = Field(min_length=1, max_length=200, description="the pool's name")
    system: str = Field("GFF", min_length=1, max_length=20, description="e.g. GFF or AOFS")
    book: str = Field("", max_length=200, description="the lists' book, e.g. 'Pool (v1.0)'")
    units: list[_UnitIn] = Field(
        min_length=1, max_length=MAX_POOL_UNITS, description="[[units]] tables with text"
    )


def _key_path(loc: Sequence[int | str]) -> str:
    out = ""
    for seg in loc:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out or "(top level)"


def parse_pool(text: str, source: str = "<pool>") -> Pool:
    """Read a pool from TOML text (``source`` names it in errors).

    Raises:
        ParseError: not TOML, an unknown or missing key, a unit text that does not read, an
            entry holding other than one unit, two entries of the same name, Quality and
            Defense.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"not TOML ({exc})", where=source, expected="a TOML pool file") from None
    try:
        raw = _PoolIn.model_validate(data)
    except ValidationError as exc:
        errs = exc.errors(include_url=False)
        err = next((e for e in errs if e["type"] == "extra_forbidden"), errs[0])
        where = f"{source}: {_key_path(tuple(err['loc']))}"
        if err["type"] == "extra_forbidden":
            raise ParseError(
                "unknown key",
                value=err["loc"][-1],
                where=where,
                expected="name, system, book, units; in units: text, max",
            ) from None
        if err["type"] == "missing":
            raise ParseError(
                "missing key", where=where, expected="name and at least one [[units]] with text"
            ) from None
        msg = str(err["msg"]).removeprefix("Value error, ")
        raise ParseError(msg, value=err.get("input"), where=where) from None
    units: list[PoolUnit] = []
    seen: dict[tuple[str, int, int], int] = {}
    for i, entry in enumerate(raw.units):
        at = f"{source}: units[{i}].text"
        got = parse_unit_text(entry.text.strip("\n"), at)
        if len(got) != 1 or got[0].joined_to is not None:
            raise ParseError(
                f"holds {len(got)} units",
                value=entry.text.strip()[:80],
                where=at,
                expected="one unit (its two lines, no '{k}x' and no joined hero)",
            )
        unit = got[0]
        key = (unit.name.casefold(), unit.quality, unit.defense)
        if key in seen:
            raise ParseError(
                f"the same unit as units[{seen[key]}]",
                value=unit.name,
                where=at,
                expected="each unit once (give 'max' for how many copies a list may hold)",
            )
        seen[key] = i
        if unit.cost <= 0:
            raise ParseError(
                "a pool unit needs a cost",
                value=f"{unit.cost}pts",
                where=at,
                expected="a cost of 1pts or more",
            )
        units.append(PoolUnit(unit, entry.max))
    return Pool(raw.name, raw.system, raw.book, tuple(units))


def _army(pool: Pool, points: int, units: Sequence[Unit], name: str) -> Army:
    named = []
    for j, u in enumerate(units):
        named.append(
            Unit(
                u.name, u.size, u.quality, u.defense, u.cost, u.rules, u.weapons,
                uid=f"{slug(u.name)}-{j + 1}",
            )
        )  # fmt: skip
    books = (pool.book,) if pool.book else ()
    return Army(name=name, system=pool.system, points=points, units=tuple(named), books=books)


def generate_army(pool: Pool, points: int, rng: np.random.Generator, name: str = "") -> Army:
    """A random legal list of ``pool`` at ``points`` (spending at most that), drawn with
    ``rng``: one unit at a time, uniformly among the units that still fit.

    Raises:
        ParseError: ``points`` out of range, or no unit of the pool fits in it.
    """
    if not 1 <= points <= MAX_POOL_POINTS:
        raise ParseError(
            "points limit out of range",
            value=points,
            where="--points",
            expected=f"1 to {MAX_POOL_POINTS:,}",
        )
    label = name or f"{pool.name} {points}pts"
    chosen: list[Unit] = []
    copies = [0] * len(pool.units)
    open_ = list(range(len(pool.units)))
    while open_:
        pick = open_[int(rng.integers(len(open_)))]
        entry = pool.units[pick]
        trial = [*chosen, entry.unit]
        full = entry.max is not None and copies[pick] >= entry.max
        if full or errors(validate_army(_army(pool, points, trial, label))):
            open_.remove(pick)  # limits only tighten as the list grows
            continue
        chosen = trial
        copies[pick] += 1
    if not chosen:
        cheapest = min(p.unit.cost for p in pool.units)
        raise ParseError(
            f"no unit of the pool fits in {points}pts",
            value=points,
            where="--points",
            expected=f"at least {cheapest}pts (the cheapest unit) and room for its limits",
        )
    army = _army(pool, points, chosen, label)
    if errors(validate_army(army)):  # pragma: no cover - each step was checked
        raise OprlabError(f"generated an illegal list: {validate_army(army)[0]}")
    return army
