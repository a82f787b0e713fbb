"""Points efficiency: what a unit's attack does per 100 points, against standard targets.

"Which loadout is better per point?" has no answer without saying *against what*, so a unit is
measured against a small set of target profiles, shooting at a stated range and in melee
(charging), by two figures of one attack, both divided by the attacker's cost and multiplied
by 100: the expected wounds, and the probability of destroying the target. The units are then
ranked by their mean expected wounds per 100 points over the targets (ties broken by the mean
P(destroyed) per 100 points). A unit that cannot attack in a mode (no ranged weapon, nothing in
range) scores 0 there and is flagged, since that is what its points buy in that mode.

The standard targets are invented profiles, not any army's units: "Light infantry" (5 models,
Defense 5+), "Line infantry" (5 models, 4+), "Elite" (3 models, 3+), "Monster" (1 model, 3+,
Tough(6)) and "Horde" (10 models, 6+).

May import the core layers (through :mod:`oprlab.analysis.odds`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from oprlab.analysis.odds import OddsResult, Situation, attack_odds, select_weapons
from oprlab.analysis.swing import clock_start_odds
from oprlab.errors import OptionError, UnknownNameError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.units.model import Rule, Unit

__all__ = [
    "DEFAULT_RANGE",
    "MODES",
    "STANDARD_TARGETS",
    "Efficiency",
    "EfficiencyReport",
    "Mode",
    "RankedUnit",
    "check_cost",
    "distinct_units",
    "efficiency_report",
    "per_100",
    "rank_units",
    "standard_target",
    "unit_efficiency",
]

Mode = Literal["shooting", "melee"]
MODES: tuple[Mode, ...] = ("shooting", "melee")
#: Shooting range used unless told otherwise, in inches.
DEFAULT_RANGE = 12.0

#: Invented standard targets (quality matters little to a target; 4+ unless it is the point).
STANDARD_TARGETS: tuple[Unit, ...] = (
    Unit("Light infantry", size=5, quality=5, defense=5),
    Unit("Line infantry", size=5, quality=4, defense=4),
    Unit("Elite", size=3, quality=3, defense=3),
    Unit("Monster", size=1, quality=4, defense=3, rules=(Rule("Tough", 6),)),
    Unit("Horde", size=10, quality=5, defense=6),
)


def standard_target(name: str) -> Unit:
    """A standard target by name (case-insensitive)."""
    key = name.strip().casefold()
    for unit in STANDARD_TARGETS:
        if unit.name.casefold() == key:
            return unit
    raise UnknownNameError(
        "no standard target of that name",
        value=name,
        expected="one of " + ", ".join(u.name for u in STANDARD_TARGETS),
    )


def per_100(value: float, cost: int, unit: str = "") -> float:
    """``value`` per 100 points of a unit costing ``cost``."""
    if cost <= 0:
        raise OptionError(
            f"{unit or 'the unit'!r} has no points cost",
            value=cost,
            expected="a unit with its cost (e.g. '| 60pts' on its line)",
        )
    return value * 100.0 / cost


def check_cost(unit: Unit) -> Unit:
    """``unit`` if it has a points cost to divide by."""
    per_100(0.0, unit.cost, unit.name)
    return unit


@dataclass(frozen=True)
class Efficiency:
    """One unit's attack on one target in one mode, and what it is worth per 100 points."""

    unit: str
    cost: int
    target: str
    mode: Mode
    weapons: tuple[str, ...]
    wounds: float
    p_destroyed: float

    @property
    def wounds_per_100(self) -> float:
        return per_100(self.wounds, self.cost, self.unit)

    @property
    def p_destroyed_per_100(self) -> float:
        return per_100(self.p_destroyed, self.cost, self.unit)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "weapons": list(self.weapons),
            "wounds": self.wounds,
            "p_destroyed": self.p_destroyed,
            "wounds_per_100": self.wounds_per_100,
            "p_destroyed_per_100": self.p_destroyed_per_100,
        }


def situation_for(mode: Mode, distance: float = DEFAULT_RANGE) -> Situation:
    """Shooting at ``distance``, or a charge into melee."""
    if mode == "melee":
        return Situation(melee=True, charging=True)
    return Situation(distance=distance)


def _odds(
    attacker: Unit, target: Unit, situation: Situation, system: str, mechanic: str
) -> OddsResult:
    mech = get_mechanic(mechanic)
    if isinstance(mech, Clock) and mech.start == "random":
        # A random start has no single outcome: mix all 36 start pairs (exact).
        return clock_start_odds(
            attacker, target, system=system, mechanic=mechanic, situation=situation
        ).result
    return attack_odds(attacker, target, system=system, mechanic=mechanic, situation=situation)


def unit_efficiency(
    attacker: Unit,
    target: Unit,
    *,
    mode: Mode,
    distance: float = DEFAULT_RANGE,
    system: str = "gff",
    mechanic: str = "d6",
) -> Efficiency | None:
    """The attack's efficiency, or ``None`` if the unit cannot attack in this mode."""
    check_cost(attacker)
    situation = situation_for(mode, distance)
    try:
        select_weapons(attacker, situation)
    except OptionError:
        return None
    result = _odds(attacker, target, situation, system, mechanic)
    return Efficiency(
        unit=attacker.name,
        cost=attacker.cost,
        target=target.name,
        mode=mode,
        weapons=result.weapons,
        wounds=result.wounds.mean,
        p_destroyed=result.p_destroyed,
    )


@dataclass(frozen=True)
class RankedUnit:
    """A unit's row in a ranking: one entry per target (``None``: cannot attack)."""

    rank: int
    unit: Unit
    by_target: tuple[Efficiency | None, ...]

    @property
    def can_attack(self) -> bool:
        return any(e is not None for e in self.by_target)

    @property
    def mean_wounds_per_100(self) -> float:
        return _mean([0.0 if e is None else e.wounds_per_100 for e in self.by_target])

    @property
    def mean_p_destroyed_per_100(self) -> float:
        return _mean([0.0 if e is None else e.p_destroyed_per_100 for e in self.by_target])

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "unit": self.unit.name,
            "cost": self.unit.cost,
            "can_attack": self.can_attack,
            "mean_wounds_per_100": self.mean_wounds_per_100,
            "mean_p_destroyed_per_100": self.mean_p_destroyed_per_100,
            "targets": [None if e is None else e.to_json() for e in self.by_target],
        }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def distinct_units(units: Iterable[Unit]) -> tuple[Unit, ...]:
    """``units`` without repeats: copies (``2x Team``) differ only in their ids."""
    seen: set[Unit] = set()
    out: list[Unit] = []
    for unit in units:
        key = replace(unit, uid="", joined_to=None)
        if key not in seen:
            seen.add(key)
            out.append(unit)
    return tuple(out)


def rank_units(
    rows: Iterable[tuple[Unit, tuple[Efficiency | None, ...]]],
) -> tuple[RankedUnit, ...]:
    """Rank by mean expected wounds per 100 points, then mean P(destroyed) per 100 points."""
    unranked = [RankedUnit(0, unit, effs) for unit, effs in rows]
    unranked.sort(key=lambda r: (-r.mean_wounds_per_100, -r.mean_p_destroyed_per_100, r.unit.name))
    return tuple(replace(r, rank=i) for i, r in enumerate(unranked, start=1))


@dataclass(frozen=True)
class EfficiencyReport:
    """Every unit against every target, ranked per mode."""

    targets: tuple[Unit, ...]
    distance: float
    system: str
    mechanic: str
    rankings: dict[str, tuple[RankedUnit, ...]]

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "mechanic": self.mechanic,
            "range": self.distance,
            "targets": [
                {"name": t.name, "size": t.size, "defense": t.defense, "tough": t.tough}
                for t in self.targets
            ],
            **{mode: [r.to_json() for r in rows] for mode, rows in self.rankings.items()},
        }


def efficiency_report(
    attackers: Iterable[Unit],
    targets: Sequence[Unit] = STANDARD_TARGETS,
    *,
    distance: float = DEFAULT_RANGE,
    system: str = "gff",
    mechanic: str = "d6",
    modes: Sequence[Mode] = MODES,
) -> EfficiencyReport:
    """Each distinct attacker against each target, per mode, ranked."""
    units = distinct_units(attackers)
    if not units:
        raise OptionError("no units to rank", expected="one unit or more")
    if not targets:
        raise OptionError("no targets", expected="one target or more")
    if not distance >= 0:
        raise OptionError("range out of range", value=distance, expected="0 or more inches")
    rankings: dict[str, tuple[RankedUnit, ...]] = {}
    for mode in modes:
        rows = [
            (
                unit,
                tuple(
                    unit_efficiency(
                        unit, t, mode=mode, distance=distance, system=system, mechanic=mechanic
                    )
                    for t in targets
                ),
            )
            for unit in units
        ]
        rankings[mode] = rank_units(rows)
    return EfficiencyReport(tuple(targets), distance, system, mechanic, rankings)
