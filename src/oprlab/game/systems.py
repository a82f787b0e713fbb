"""Rule systems found by name: ``find_system("gff")``, the one place a name becomes a system.

May import the game procedures (``oprlab.game``) and below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from oprlab.errors import OptionError
from oprlab.game import wwpd
from oprlab.game.gff import GffRules
from oprlab.game.riverside import RiversideRules
from oprlab.game.system import NotDeployed, RuleSystem
from oprlab.table.model import Table

__all__ = ["NO_GAME", "SYSTEMS", "find_system", "system_names"]

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
#: The OPR systems' revisions are their classes' ``version`` (``GffRules``, ``RiversideRules``):
#: bump them there.
VERSIONS: dict[str, str] = {
    "gff": GffRules.version,
    "riverside": RiversideRules.version,
    "wwpd": "004_b5c87f7769291d1c r2",
}

#: Systems oprlab knows that have no full-game procedure, and what they offer instead.
NO_GAME: dict[str, str] = {
    "dq": "DragonQuest combat (seed 001) has no full-game procedure: see `oprlab dq` and "
    "`oprlab compare-mechanics --dq`",
}


@dataclass(frozen=True)
class _WwpdProcedure:
    """WWPD (seed 004): its own forces, its own dice convention, I-go-U-go turns."""

    name: str = "wwpd"
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


def _wwpd_missing(state: Any) -> dict[str, str]:
    found = state.extra.get("not_deployed")
    return found if isinstance(found, dict) else {}


#: The systems with a full-game procedure, by name.
SYSTEMS: dict[str, RuleSystem] = {
    "gff": GffRules(),
    "riverside": RiversideRules(),
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
