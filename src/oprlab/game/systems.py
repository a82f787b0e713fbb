"""Rule systems found by name: ``find_system("gff")``, the one place a name becomes a system.

May import the game procedures (``oprlab.game``) and below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from oprlab.errors import OptionError
from oprlab.game import deploy_search, gff, riverside, wwpd
from oprlab.game.gff_setup import GffOptions
from oprlab.game.riverside import RiversideOptions
from oprlab.game.system import NotDeployed, RuleSystem
from oprlab.table.model import Table

__all__ = ["NO_GAME", "SYSTEMS", "find_system", "system_names"]

#: A deployment zone as drawn: the box ``(xmin, ymin, xmax, ymax)`` and the edge it lies along.
Zone = tuple[tuple[float, float, float, float], str]


def _band(state: Any, lo: float, hi: float) -> Zone:
    """A zone that spans the table's width between ``lo`` and ``hi`` (Riverside, WWPD)."""
    return (0.0, lo, state.table.width, hi), "south" if lo <= 0.0 else "north"


def _gff_zone(state: Any, side: int) -> Zone:
    return gff.deployment_zone(state, side), gff.edge_of(state, side)


def _riverside_zone(state: Any, side: int) -> Zone:
    return _band(state, *riverside.deployment_zone(state, side))


#: Each procedure's version: the seed text it implements and a revision, bumped whenever a
#: change of rules changes games (with the pinned log hashes), so stored results say which
#: rules played them.
#: gff r6 / riverside r5 (issue 11): a crowded deployment zone offers packed spots in any
#: coherent formation instead of losing units the 4" grid could not place; a unit that still
#: finds no room is listed apart (``not_deployed``), not counted as lost nor, in GFF, as a
#: starting unit for Morale. Only games with a crowded zone change: every pinned game is the same.
#: gff r7 / riverside r6 / wwpd r2 (issue 10): the dice come from the seed's own stream
#: (``oprlab.rng``); GFF models shoot and strike by their own range and reach, melee casualties
#: keep the fighters and the strike back is the charged side's decision; a marker with no point
#: over 9" away goes at the farthest point; rules some models have act through those models'
#: weapons. Every pinned game changed (the dice streams).
VERSIONS: dict[str, str] = {
    "gff": "003_8abb008d4113ed75 r7",
    "riverside": "002_fdb385c07cc953af r6",
    "wwpd": "004_b5c87f7769291d1c r2",
}

#: Systems oprlab knows that have no full-game procedure, and what they offer instead.
NO_GAME: dict[str, str] = {
    "dq": "DragonQuest combat (seed 001) has no full-game procedure: see `oprlab dq` and "
    "`oprlab compare-mechanics --dq`",
}


@dataclass(frozen=True)
class _OprProcedure:
    """An OPR system (seed 003 or 002): Army Forge lists, the d6 or the clock."""

    name: str
    title: str
    version: str
    readings: type[Any]
    procedure: ModuleType
    zone: Callable[[Any, int], Zone]
    army_format: str = "army-forge"
    commander_family: str = "opr"
    mechanics: tuple[str, ...] = ("d6", "clock")

    def new_game(
        self,
        army_a: Any,
        army_b: Any,
        *,
        seed: int,
        mechanic: Any = None,
        table: Table | None = None,
        readings: Any = None,
        log: bool = True,
    ) -> Any:
        return self.procedure.new_game(
            army_a,
            army_b,
            seed=seed,
            mechanic="d6" if mechanic is None else mechanic,
            table=table,
            log=log,
            options=readings,
        )

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return self.procedure.legal_actions(state)  # type: ignore[no-any-return]

    def is_legal(self, state: Any, action: Any) -> bool:
        return bool(self.procedure.is_legal(state, action))

    def apply(self, state: Any, action: Any) -> None:
        self.procedure.apply(state, action)

    def score(self, state: Any) -> tuple[int, int]:
        return self.procedure.score(state)  # type: ignore[no-any-return]

    def units_left(self, state: Any, side: int) -> int:
        return int(self.procedure.units_left(state, side))

    def models_lost(self, state: Any, side: int) -> int:
        missing = deploy_search.missing(state)
        return sum(
            u.unit.size if u.routed else u.unit.size - max(0, u.models)
            for u in state.side_units(side)
            if u.uid not in missing
        )

    def not_deployed(self, state: Any) -> tuple[NotDeployed, ...]:
        return tuple(
            NotDeployed(uid, u.unit.name, u.side, u.unit.size, reason)
            for uid, reason in deploy_search.missing(state).items()
            for u in (state.units[uid],)
        )

    def readings_of(self, state: Any) -> Any:
        return self.procedure.options_of(state)

    def mechanic_name(self, state: Any) -> str:
        return str(state.extra.get("mechanic_name", state.mechanic.name))

    def deployment_zone(self, state: Any, side: int) -> Zone:
        return self.zone(state, side)


@dataclass(frozen=True)
class _WwpdProcedure:
    """WWPD (seed 004): its own forces, its own dice convention, I-go-U-go turns."""

    name: str = "wwpd"
    title: str = "WWPD"
    version: str = VERSIONS["wwpd"]
    readings: type[Any] = wwpd.GameOptions
    army_format: str = "wwpd"
    commander_family: str = "wwpd"
    mechanics: tuple[str, ...] = ("wwpd",)

    def new_game(
        self,
        army_a: Any,
        army_b: Any,
        *,
        seed: int,
        mechanic: Any = None,
        table: Table | None = None,
        readings: Any = None,
        log: bool = True,
    ) -> Any:
        if mechanic is not None and getattr(mechanic, "name", mechanic) != "wwpd":
            raise OptionError(
                "WWPD games roll its own dice", value=str(mechanic), expected="the wwpd mechanic"
            )
        return wwpd.new_game(army_a, army_b, seed=seed, table=table, options=readings, log=log)

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return wwpd.legal_actions(state)

    def is_legal(self, state: Any, action: Any) -> bool:
        return wwpd.is_legal(state, action)

    def apply(self, state: Any, action: Any) -> None:
        wwpd.apply(state, action)

    def score(self, state: Any) -> tuple[int, int]:
        return wwpd.score(state)

    def units_left(self, state: Any, side: int) -> int:
        return wwpd.units_left(state, side)

    def models_lost(self, state: Any, side: int) -> int:
        missing = _wwpd_missing(state)
        return sum(
            not alive for u in state.side_units(side) if u.uid not in missing for alive in u.alive
        )

    def not_deployed(self, state: Any) -> tuple[NotDeployed, ...]:
        return tuple(
            NotDeployed(uid, u.unit.name, u.side, len(u.alive), reason)
            for uid, reason in _wwpd_missing(state).items()
            for u in (state.units[uid],)
        )

    def readings_of(self, state: Any) -> Any:
        return state.options

    def mechanic_name(self, state: Any) -> str:
        return str(state.mechanic.name)

    def deployment_zone(self, state: Any, side: int) -> Zone:
        return _band(state, *wwpd.deployment_zone(state, side))


def _wwpd_missing(state: Any) -> dict[str, str]:
    found = state.extra.get("not_deployed")
    return found if isinstance(found, dict) else {}


#: The systems with a full-game procedure, by name.
SYSTEMS: dict[str, RuleSystem] = {
    "gff": _OprProcedure("gff", "GFF", VERSIONS["gff"], GffOptions, gff, _gff_zone),
    "riverside": _OprProcedure(
        "riverside",
        "Riverside",
        VERSIONS["riverside"],
        RiversideOptions,
        riverside,
        _riverside_zone,
    ),
    "wwpd": _WwpdProcedure(),
}


def system_names() -> list[str]:
    """The names :func:`find_system` accepts, sorted."""
    return sorted(SYSTEMS)


def find_system(name: str) -> RuleSystem:
    """The rule system called ``name``; anything else gets one clear error naming what exists.

    Raises:
        OptionError: an unknown name, or a system with no full-game procedure (DragonQuest).
    """
    key = name.strip().lower()
    if key in SYSTEMS:
        return SYSTEMS[key]
    if key in NO_GAME:
        raise OptionError(NO_GAME[key], value=name, expected=" or ".join(system_names()))
    raise OptionError("unknown rule system", value=name, expected=" or ".join(system_names()))
