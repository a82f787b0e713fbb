"""Rule systems found by name: ``find_system("gff")``, the one place a name becomes a system.

A system names its parts by where they live (``"oprlab.game.gff"``,
``"oprlab.rules.gff.odds:GffAttack"``) and imports them when first asked, so finding a system
costs nothing: ``oprlab odds`` asks for ``find_system(name).attack`` without loading any game
procedure, and the command line starts fast.

May import the game procedures (``oprlab.game``), the rules' odds adapters and below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any

from oprlab.errors import OptionError, UnknownNameError
from oprlab.game.house import HouseRule, find_house_rule, house_rule_names
from oprlab.game.system import NotDeployed, RuleSystem

if TYPE_CHECKING:  # annotations only: `odds` and `check` need no table model
    from oprlab.table.model import Table

__all__ = ["NO_GAME", "SYSTEMS", "find_system", "system_names"]

#: A deployment zone as drawn: the box ``(xmin, ymin, xmax, ymax)`` and the edge it lies along.
Zone = tuple[tuple[float, float, float, float], str]


_LOADED: dict[str, Any] = {}


def _load(path: str) -> Any:
    """What ``path`` names: a module (``"oprlab.game.gff"``) or a name in one (``"m:Name"``);
    imported on first use, then remembered (a game asks once a decision)."""
    found = _LOADED.get(path)
    if found is None:
        module, _, name = path.partition(":")
        found = import_module(module)
        found = _LOADED[path] = getattr(found, name) if name else found
    return found


def _band(state: Any, lo: float, hi: float) -> Zone:
    """A zone that spans the table's width between ``lo`` and ``hi`` (Riverside, WWPD)."""
    return (0.0, lo, state.table.width, hi), "south" if lo <= 0.0 else "north"


def _gff_zone(state: Any, side: int) -> Zone:
    gff = _load("oprlab.game.gff")
    return gff.deployment_zone(state, side), gff.edge_of(state, side)


def _riverside_zone(state: Any, side: int) -> Zone:
    return _band(state, *_load("oprlab.game.riverside").deployment_zone(state, side))


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
#: The OPR rules classes carry the same string (``GffRules.version``; a test keeps them equal).
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
class _OprSystem:
    """An OPR system (seed 003 or 002): Army Forge lists, the d6 or the clock.

    The game itself is an :class:`~oprlab.game.opr.hooks.OprRules` (``GffRules``,
    ``RiversideRules`` or a house rule's subclass), built on first use; the odds adapters and
    the readings load on their own, so ``oprlab odds`` never imports a game procedure.
    """

    name: str
    title: str
    version: str
    #: Where the rules class, its readings and its odds adapters live (imported when asked).
    rules_at: str
    readings_at: str
    attack_at: str
    exchange_at: str
    zone: Callable[[Any, int], Zone]
    army_format: str = "army-forge"
    commander_family: str = "opr"
    mechanics: tuple[str, ...] = ("d6", "clock")
    #: The house rules played, in the order named (``gff+a+b``: b's mixins wrap a's).
    house: tuple[type[HouseRule], ...] = ()

    @property
    def rules(self) -> Any:
        """The game procedure: one instance of the rules class, made on first use."""
        key = f"{self.name}()"
        found = _LOADED.get(key)
        if found is None:
            found = _LOADED[key] = _composed(self, "rules")()
        return found

    @property
    def readings(self) -> type[Any]:
        return _load(self.readings_at)  # type: ignore[no-any-return]

    @property
    def attack(self) -> Any:
        """The attack odds adapter (:class:`oprlab.rules.query.AttackOdds`)."""
        return _composed(self, "attack")()

    @property
    def exchange(self) -> Any:
        """The melee exchange odds adapter (:class:`oprlab.rules.query.ExchangeSystem`)."""
        return _composed(self, "exchange")()

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
        return self.rules.new_game(
            army_a, army_b, seed=seed, mechanic=mechanic, table=table, readings=readings, log=log
        )

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return self.rules.legal_actions(state)  # type: ignore[no-any-return]

    def is_legal(self, state: Any, action: Any) -> bool:
        return bool(self.rules.is_legal(state, action))

    def apply(self, state: Any, action: Any) -> None:
        self.rules.apply(state, action)

    def score(self, state: Any) -> tuple[int, int]:
        return self.rules.score(state)  # type: ignore[no-any-return]

    def units_left(self, state: Any, side: int) -> int:
        return int(self.rules.units_left(state, side))

    def models_lost(self, state: Any, side: int) -> int:
        return int(self.rules.models_lost(state, side))

    def not_deployed(self, state: Any) -> tuple[NotDeployed, ...]:
        return self.rules.not_deployed(state)  # type: ignore[no-any-return]

    def readings_of(self, state: Any) -> Any:
        return self.rules.readings_of(state)

    def mechanic_name(self, state: Any) -> str:
        return str(self.rules.mechanic_name(state))

    def deployment_zone(self, state: Any, side: int) -> Zone:
        return self.zone(state, side)


@dataclass(frozen=True)
class _WwpdProcedure:
    """WWPD (seed 004): its own forces, its own dice convention, I-go-U-go turns."""

    name: str = "wwpd"
    title: str = "WWPD"
    version: str = VERSIONS["wwpd"]
    army_format: str = "wwpd"
    commander_family: str = "wwpd"
    mechanics: tuple[str, ...] = ("wwpd",)
    #: WWPD's dice have their own odds (``oprlab check wwpd``, :mod:`oprlab.rules.wwpd.exact`),
    #: not the OPR unit-against-unit queries.
    attack: Any = None
    exchange: Any = None

    @property
    def readings(self) -> type[Any]:
        return _wwpd().GameOptions  # type: ignore[no-any-return]

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
        return _wwpd().new_game(army_a, army_b, seed=seed, table=table, options=readings, log=log)

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return _wwpd().legal_actions(state)  # type: ignore[no-any-return]

    def is_legal(self, state: Any, action: Any) -> bool:
        return bool(_wwpd().is_legal(state, action))

    def apply(self, state: Any, action: Any) -> None:
        _wwpd().apply(state, action)

    def score(self, state: Any) -> tuple[int, int]:
        return _wwpd().score(state)  # type: ignore[no-any-return]

    def units_left(self, state: Any, side: int) -> int:
        return int(_wwpd().units_left(state, side))

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
        return _band(state, *_wwpd().deployment_zone(state, side))


def _wwpd() -> Any:
    return _load("oprlab.game.wwpd")


# --- house rules (oprlab.game.house) ---------------------------------------------------------


def _composed(system: _OprSystem, part: str) -> type:
    """The class of one part of ``system`` (``rules``, ``attack``, ``exchange``): the system's
    own, or with house rules ``type(...)`` of their mixins over it, made once a system.

    The composed rules class carries the composed name and version and pickles by name; the
    composed dice clauses (:func:`_dice`) are set on both the rules (``attack_hooks``) and the
    attack adapter (``hooks``), so games, exact odds and sampling roll the same clauses, and
    the fast odds cache (keyed on that object) never mixes them with the system's own.
    """
    base: type = _load(
        {"rules": system.rules_at, "attack": system.attack_at}.get(part, system.exchange_at)
    )
    if not system.house:
        return base
    key = f"{system.name}:{part}"
    found = _LOADED.get(key)
    if found is None:
        mixins = [m for h in system.house if (m := getattr(h, part)) is not None]
        attrs: dict[str, Any] = {"name": system.name}
        dice = _dice(system)
        if part == "rules":
            attrs.update(version=system.version, __reduce__=_reduce_rules)
            if dice is not None:
                attrs["attack_hooks"] = dice
        elif part == "attack" and dice is not None:
            attrs["hooks"] = dice
        names = "+".join(h.name for h in system.house)
        found = _LOADED[key] = type(f"{base.__name__}+{names}", (*reversed(mixins), base), attrs)
    return found


def _dice(system: _OprSystem) -> Any:
    """The composed dice clauses of ``system``'s house rules, one object a system, or ``None``
    when none of them changes a dice clause."""
    mixins = [h.dice for h in system.house if h.dice is not None]
    if not mixins:
        return None
    key = f"{system.name}:dice"
    found = _LOADED.get(key)
    if found is None:
        base = getattr(_load(system.attack_at), "hooks", None)
        if base is None:
            raise OptionError(
                f"the {system.name.partition('+')[0]} odds have no dice clauses to change",
                value=system.name,
                expected="house rules that change only its procedure hooks",
            )
        names = "+".join(h.name for h in system.house if h.dice is not None)
        cls = type(f"{type(base).__name__}+{names}", (*reversed(mixins), type(base)), {})
        found = _LOADED[key] = cls()
    return found


def _reduce_rules(self: Any) -> tuple[Callable[[str], Any], tuple[str]]:
    """A composed rules object pickles as its system's name (its class is made at run time)."""
    return _rules_of, (self.name,)


def _rules_of(name: str) -> Any:
    """The rules object of the OPR system called ``name`` (house rules included)."""
    return find_system(name).rules  # type: ignore[attr-defined]


_COMPOSED: dict[str, RuleSystem] = {}


def _with_house(asked: str, base_name: str, names: list[str]) -> RuleSystem:
    """``base_name`` played with the house rules ``names`` (``find_system("gff+a+b")``)."""
    base = find_system(base_name)
    if not isinstance(base, _OprSystem):
        raise OptionError(
            f"{base.name} takes no house rules", value=asked, expected="gff+RULE or riverside+RULE"
        )
    found = [find_house_rule(n) for n in names]
    for h in found:
        if base.name not in h.applies_to:
            fits = [n for n in house_rule_names() if base.name in find_house_rule(n).applies_to]
            raise OptionError(
                f"house rule {h.name} does not apply to {base.name}",
                value=asked,
                expected=f"{h.name} on {' or '.join(h.applies_to)}; house rules for "
                f"{base.name}: {', '.join(fits) or 'none'}",
            )
    if len({h.name for h in found}) < len(found):
        raise OptionError("a house rule named twice", value=asked, expected="each rule once")
    return dataclasses.replace(
        base,
        name="+".join([base.name, *(h.name for h in found)]),
        title=" + ".join([base.title, *(h.name for h in found)]),
        version=base.version + "".join(f" +{h.name} {h.version}" for h in found),
        house=tuple(found),
    )


def _wwpd_missing(state: Any) -> dict[str, str]:
    found = state.extra.get("not_deployed")
    return found if isinstance(found, dict) else {}


#: The systems with a full-game procedure, by name.
SYSTEMS: dict[str, RuleSystem] = {
    "gff": _OprSystem(
        "gff",
        "GFF",
        VERSIONS["gff"],
        "oprlab.game.gff:GffRules",
        "oprlab.game.gff_setup:GffOptions",
        "oprlab.rules.gff.odds:GffAttack",
        "oprlab.rules.gff.odds:GffExchange",
        _gff_zone,
    ),
    "riverside": _OprSystem(
        "riverside",
        "Riverside",
        VERSIONS["riverside"],
        "oprlab.game.riverside:RiversideRules",
        "oprlab.game.riverside:RiversideOptions",
        "oprlab.rules.riverside.odds:RiversideAttack",
        "oprlab.rules.riverside.odds:RiversideExchange",
        _riverside_zone,
    ),
    "wwpd": _WwpdProcedure(),
}


def system_names() -> list[str]:
    """The names :func:`find_system` accepts, sorted."""
    return sorted(SYSTEMS)


def find_system(name: str) -> RuleSystem:
    """The rule system called ``name``; anything else gets one clear error naming what exists.

    ``"gff+fortifications"`` (``"gff+a+b"``) is GFF played with those house rules
    (:mod:`oprlab.game.house`): its name and version name each rule and its version.

    Raises:
        UnknownNameError: an unknown name, or an unknown house rule.
        OptionError: a system with no full-game procedure (DragonQuest); a house rule that does
            not apply to that system, or named twice.
    """
    key = name.strip().lower()
    if key in SYSTEMS:
        return SYSTEMS[key]
    base, plus, rest = key.partition("+")
    if plus:  # house rules: "gff+fortifications", "gff+a+b"
        found = _COMPOSED.get(key)
        if found is None:
            found = _COMPOSED[key] = _with_house(
                name, base.strip(), [n.strip() for n in rest.split("+")]
            )
        return found
    if key in NO_GAME:
        raise OptionError(NO_GAME[key], value=name, expected=" or ".join(system_names()))
    raise UnknownNameError(
        "unknown rule system",
        value=name,
        expected=" or ".join(system_names())
        + ", each OPR one with any +HOUSE_RULE ("
        + ", ".join(house_rule_names())
        + ")",
    )
