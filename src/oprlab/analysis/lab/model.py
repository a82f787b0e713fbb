"""The experiment file: a designer's question as TOML, checked before any game is played.

An experiment crosses *factors* (system, readings, mechanic, commanders, table, first) over
*matchups* (two armies each); every combination is a *cell*, and every cell plays the same
seeds (:mod:`oprlab.analysis.lab.design`). The first level of each factor is its baseline:
each other level's effect is measured against it. How many games a cell plays is a stopping
rule (:class:`Stop`). docs/experiments.md shows the file.

Errors name the key path in the file, the bad value and what would be right (one
:class:`~oprlab.errors.ParseError` line). May import errors, limits, files, game (options,
systems), mechanics, players' names; pydantic and tomllib.
"""

from __future__ import annotations

import tomllib
import typing
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from oprlab.errors import OptionError, ParseError, UserError
from oprlab.files import read_text
from oprlab.limits import MAX_GAMES, check_limit

__all__ = [
    "MAX_CELLS",
    "MAX_MATCHUPS",
    "Experiment",
    "Factors",
    "Matchup",
    "Stop",
    "load_experiment",
    "parse_experiment",
]

#: Cells of one experiment (matchups x every factor's levels): each plays every seed twice,
#: so a hundred cells of a thousand seeds is already 200,000 games.
MAX_CELLS = 64
#: Matchups of one experiment.
MAX_MATCHUPS = 16
#: Levels of one factor.
MAX_LEVELS = 16
#: Seeds per cell (each seed is played in both seats: two games).
MAX_SEEDS = MAX_GAMES // 2

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True)

TableLevel = Annotated[str, Field(description="open, generated or file:PATH")]


class Matchup(BaseModel):
    """Two armies: files (Army Forge text or JSON) or bundled sample names."""

    model_config = _STRICT
    a: str = Field(
        description="army A: a file, a sample name such as gff/shooty-150, or pool:FILE "
        "(a list drawn from a unit pool per seed)"
    )
    b: str = Field(description="army B: a file, a sample name, or pool:FILE")
    points: int | None = Field(
        None, ge=1, le=10_000, description="the points limit of lists drawn from a pool, 1-10,000"
    )

    def pool(self, side: str) -> str | None:
        """The pool file of side ``a`` or ``b``, or None for a fixed army."""
        ref = str(getattr(self, side))
        return ref.removeprefix("pool:") if ref.startswith("pool:") else None


class Factors(BaseModel):
    """The factors crossed over the matchups; each a list of levels, the first the baseline."""

    model_config = _STRICT
    system: list[str] = Field(["gff"], description="rule systems, e.g. ['gff', 'riverside']")
    mechanic: list[str] = Field(["d6"], description="mechanics, e.g. ['d6', 'clock']")
    readings: list[dict[str, str | int | float | bool]] = Field(
        [{}],
        description="tables of rule options (KEY = VALUE, as --rules-option), e.g. [{}, "
        "{edges = 'all'}]",
    )
    commanders: list[str | list[str]] = Field(
        ["rules"],
        description="commanders: 'rules', 'random', or [A's, B's] per army, e.g. ['rules', "
        "'random']",
    )
    table: list[TableLevel] = Field(["open"], description="tables: open, generated, file:PATH")
    first: list[Literal["rolloff", "A", "B"]] = Field(
        ["rolloff"],
        description="who wins the roll-off that decides who goes first: rolloff (the dice), "
        "A or B (that army of the matchup, whichever side it plays), e.g. ['rolloff', 'A']",
    )

    @field_validator("system", "mechanic", "readings", "commanders", "table", "first")
    @classmethod
    def _levels(cls, value: list[Any]) -> list[Any]:
        if not value:
            raise ValueError("a factor needs at least one level")
        if len(value) > MAX_LEVELS:
            raise ValueError(f"at most {MAX_LEVELS} levels")
        if len({repr(v) for v in value}) != len(value):
            raise ValueError("a level is given twice")
        return value

    @field_validator("commanders")
    @classmethod
    def _pairs(cls, value: list[str | list[str]]) -> list[str | list[str]]:
        for level in value:
            if isinstance(level, list) and len(level) != 2:
                raise ValueError("a pair of commanders is [army A's, army B's]")
        return value

    @field_validator("table")
    @classmethod
    def _tables(cls, value: list[str]) -> list[str]:
        for level in value:
            if level not in ("open", "generated") and not level.startswith("file:"):
                raise ValueError(f"unknown table {level!r}: open, generated or file:PATH")
        return value


class Stop(BaseModel):
    """How many games a cell plays: a fixed number of seeds, or until a target is reached.

    ``fixed``: ``seeds`` seeds. ``width``: seeds in batches until the cell's 95% interval on
    army A's score is narrower than ``width`` (at most ``seeds``). ``sprt``: batches until the
    sequential test of each effect decides whether the variant moves the score by at least
    ``d`` (error rates ``alpha``, ``beta``; at most ``seeds``).
    """

    model_config = _STRICT
    rule: Literal["fixed", "width", "sprt", "handicap"] = Field(
        "fixed", description="fixed, width, sprt or handicap"
    )
    seeds: int = Field(
        50,
        ge=2,
        le=MAX_SEEDS,
        description=f"seeds per cell (each played in both seats), 2 to {MAX_SEEDS:,}; the most "
        "a stopping rule may play",
    )
    batch: int = Field(20, ge=2, le=MAX_SEEDS, description="seeds between two looks, 2 or more")
    width: float = Field(0.1, gt=0, lt=1, description="target width of the 95% interval, 0 to 1")
    d: float = Field(0.1, gt=0, lt=1, description="the smallest effect that matters, 0 to 1")
    alpha: float = Field(0.05, gt=0, lt=0.5, description="false-alarm rate, 0 to 0.5")
    beta: float = Field(0.1, gt=0, lt=0.5, description="miss rate, 0 to 0.5")
    low: int = Field(-60, ge=-10_000, le=10_000, description="handicap: the least points added")
    high: int = Field(60, ge=-10_000, le=10_000, description="handicap: the most points added")


class Experiment(BaseModel):
    """A whole experiment file."""

    model_config = _STRICT
    name: str = Field(description="a name for the report")
    question: str = Field("", description="the question, in words, for the report")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="the experiment seed, 0 to 2**63-1")
    matchups: list[Matchup] = Field(
        description="[[matchups]] tables, each with a and b", min_length=1
    )
    factors: Factors = Field(
        default_factory=lambda: Factors.model_validate({}), description="a [factors] table"
    )
    stop: Stop = Field(
        default_factory=lambda: Stop.model_validate({}), description="a [stop] table"
    )
    dice: Literal["stream", "keyed"] = Field(
        "stream",
        description="how every cell's games roll: stream (each die the next of the seed's "
        "stream) or keyed (each activation its own dice, keyed on the seed, round and unit: "
        "cells that part still roll alike; gff and riverside)",
    )

    @field_validator("matchups")
    @classmethod
    def _few(cls, value: list[Matchup]) -> list[Matchup]:
        if len(value) > MAX_MATCHUPS:
            raise ValueError(f"at most {MAX_MATCHUPS} matchups")
        return value

    def decided(self) -> dict[str, Any]:
        """What decides the games (everything but the name, question and stopping rule): the
        part of the file that enters the experiment's hash, so growing ``seeds`` or changing
        the rule reuses every stored game."""
        decided = self.model_dump(include={"seed", "matchups", "factors"})
        if self.dice != "stream":  # the stream's experiments keep the hashes they were stored by
            decided["dice"] = self.dice
        return decided


def parse_experiment(text: str, source: str = "<experiment>") -> Experiment:
    """Read an experiment from TOML text; ``source`` names it in errors.

    Raises:
        ParseError: not TOML, an unknown or missing key, a value out of range, a reading or
            mechanic the system does not know, too many cells.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ParseError(f"not TOML ({exc})", where=source, expected="a TOML file") from None
    try:
        exp = Experiment.model_validate(data)
    except ValidationError as exc:
        _raise_first(exc, source)
    _check_levels(exp, source)
    return exp


def load_experiment(path: str) -> Experiment:
    """Read an experiment file (within the size limit of any input file)."""
    return parse_experiment(read_text(path, "experiment file", "a TOML experiment file"), path)


def _check_levels(exp: Experiment, source: str) -> None:
    """What the schema cannot say: names the registries know, readings each system accepts."""
    from oprlab.game.options import parse_options
    from oprlab.game.play import check_dice
    from oprlab.game.systems import SYSTEMS, find_system
    from oprlab.mechanics import mechanic_names
    from oprlab.players.base import get_commander

    f = exp.factors
    formats: dict[str, str] = {}
    for i, system in enumerate(f.system):
        where = f"{source}: factors.system[{i}]"
        try:
            check_dice(exp.dice, system)  # the schema knows the designs; this, the systems
        except UserError as exc:
            raise ParseError(
                exc.message,
                value=exc.value,
                where=f"{source}: dice",
                expected="dice = 'stream' for wwpd, or only gff and riverside systems",
            ) from None
        try:
            rules = find_system(system)
        except UserError as exc:
            raise ParseError(
                exc.message,
                value=system,
                where=where,
                expected=exc.expected
                or (
                    "gff, riverside or wwpd, with house rules as gff+RULE"
                    + ("" if system in SYSTEMS else " (a known system)")
                ),
            ) from None
        if rules.army_format not in ("army-forge", "wwpd"):
            raise ParseError(
                "the lab plays the OPR systems and WWPD",
                value=system,
                where=where,
                expected="gff, riverside or wwpd, with house rules as gff+RULE",
            )
        formats.setdefault(rules.army_format, system)
        if len(formats) > 1:
            raise ParseError(
                "the systems of one experiment must read the same armies",
                value=system,
                where=where,
                expected=f"systems whose lists are read as {formats[next(iter(formats))]}'s "
                "(gff and riverside read Army Forge lists; wwpd its own forces)",
            )
    _check_pools(exp, source)
    for i, mu in enumerate(exp.matchups):
        side = "a" if mu.pool("a") is not None else "b" if mu.pool("b") is not None else None
        if side is not None and "wwpd" in formats:
            raise ParseError(
                "unit pools hold OPR units with points: WWPD forces have none",
                value=getattr(mu, side),
                where=f"{source}: matchups[{i}].{side}",
                expected="a WWPD force file or sample (wwpd/colonial)",
            )
    clocks = [n for n in mechanic_names() if n.startswith("clock")]
    for i, mechanic in enumerate(f.mechanic):
        for system in f.system:
            own = find_system(system).mechanics
            allowed = [*own, *(c for c in clocks if c not in own)] if "clock" in own else own
            if mechanic not in allowed:
                raise ParseError(
                    f"not a mechanic of {system}",
                    value=mechanic,
                    where=f"{source}: factors.mechanic[{i}]",
                    expected=", ".join(allowed),
                )
    for i, level in enumerate(f.commanders):
        for name in [level] if isinstance(level, str) else level:
            for system in f.system:
                try:
                    get_commander(name, system=system)
                except UserError as exc:
                    raise ParseError(
                        f"unknown commander for {system}",
                        value=name,
                        where=f"{source}: factors.commanders[{i}]",
                        expected=exc.expected,
                    ) from None
    for i, reading in enumerate(f.readings):
        if "roll_off_winner" in reading:
            raise ParseError(
                "the roll-off's winner is the first factor, not a reading",
                value="roll_off_winner",
                where=f"{source}: factors.readings[{i}]",
                expected="first = ['rolloff', 'A'] in [factors] (A: army A of the matchup)",
            )
        for system in f.system:
            try:
                parse_options(system, reading_pairs(reading))
            except OptionError as exc:
                raise ParseError(
                    f"not a {system} reading: {exc.message}",
                    value=exc.value,
                    where=f"{source}: factors.readings[{i}]",
                    expected=exc.expected,
                ) from None
    cells = len(exp.matchups) * len(f.system) * len(f.mechanic) * len(f.readings)
    cells *= len(f.commanders) * len(f.table) * len(f.first)
    try:
        check_limit("cells (matchups x factor levels)", cells, MAX_CELLS, where=source)
    except UserError as exc:
        raise ParseError(
            exc.message, value=exc.value, expected=exc.expected, where=source
        ) from None


def _check_pools(exp: Experiment, source: str) -> None:
    """Pool sides need a points limit; the handicap search needs army A drawn from a pool."""
    for i, mu in enumerate(exp.matchups):
        pooled = mu.pool("a") is not None or mu.pool("b") is not None
        if pooled and mu.points is None:
            raise ParseError(
                "a side drawn from a pool needs a points limit",
                where=f"{source}: matchups[{i}].points",
                expected="points = N (e.g. 150)",
            )
        if exp.stop.rule == "handicap" and mu.pool("a") is None:
            raise ParseError(
                "the handicap search adds points to army A's list, so army A must be drawn "
                "from a pool",
                value=mu.a,
                where=f"{source}: matchups[{i}].a",
                expected="pool:FILE",
            )
    if exp.stop.rule == "handicap" and not exp.stop.low < exp.stop.high:
        raise ParseError(
            "the handicap range is empty",
            value=[exp.stop.low, exp.stop.high],
            where=f"{source}: stop.low",
            expected="low < high",
        )


def reading_pairs(reading: dict[str, Any]) -> list[str]:
    """A readings table as ``--rules-option`` pairs (``KEY=VALUE``)."""
    return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in reading.items()]


def _path(loc: Sequence[int | str]) -> str:
    out = ""
    for seg in loc:
        out += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if out else str(seg))
    return out or "(top level)"


def _description(loc: Sequence[int | str]) -> str | None:
    """The description of the field at ``loc`` (what would be right), if the path has one."""
    model: Any = Experiment
    field = None
    for seg in loc:
        if isinstance(seg, int) or model is None:
            continue
        fields = getattr(model, "model_fields", {})
        if seg not in fields:
            return field.description if field is not None else None
        field = fields[seg]
        model = _model_in(field.annotation)
    return field.description if field is not None else None


def _model_in(annotation: Any) -> Any:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _raise_first(exc: ValidationError, source: str) -> typing.NoReturn:
    """pydantic's first error as one :class:`ParseError`: the key path, the value, the hint."""
    errs = exc.errors(include_url=False)
    err = next((e for e in errs if e["type"] == "extra_forbidden"), errs[0])
    loc = tuple(err["loc"])
    # A union (str | list[str]) reports its member's type as the last path segment: drop it.
    loc = tuple(s for s in loc if not (isinstance(s, str) and ("[" in s or s in _TYPE_TAGS)))
    where = f"{source}: {_path(loc)}"
    if err["type"] == "extra_forbidden":
        raise ParseError("unknown key", value=loc[-1], where=where, expected=_keys_at(loc[:-1]))
    if err["type"] == "missing":
        raise ParseError("missing key", where=where, expected=_description(loc))
    message = str(err["msg"]).removeprefix("Value error, ")
    raise ParseError(message, value=err.get("input"), where=where, expected=_description(loc))


_TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict"}


def _keys_at(loc: Sequence[int | str]) -> str:
    model: Any = Experiment
    for seg in loc:
        if isinstance(seg, int) or model is None:
            continue
        field = getattr(model, "model_fields", {}).get(seg)
        model = _model_in(field.annotation) if field is not None else None
    keys = list(getattr(model, "model_fields", {})) if model is not None else []
    return "one of: " + ", ".join(keys) if keys else "no such key"
