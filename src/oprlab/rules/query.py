"""What an odds query asks of a rule system, and what it gets back (system-neutral types).

An attack query (one unit's attack on another) and an exchange query (a charge, the strike
back, who comes out ahead) are asked of a rule system's adapters (``rules/<system>/odds.py``),
which the system offers as ``RuleSystem.attack`` and ``RuleSystem.exchange``
(:func:`oprlab.game.systems.find_system`). The analysis layer composes the answers into
distributions, samples and intervals without knowing any system by name.

Adapters are objects whose methods build the system's profiles through ``self``, so a house
rule changes a dice clause by subclassing one and overriding that method; anything that keeps
fast odds between queries must key them on the adapter's type as well as the query.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from oprlab.mechanics import Mechanic, Owner, State
from oprlab.prob import Dist
from oprlab.units.model import Unit, Weapon

if TYPE_CHECKING:
    import numpy.typing as npt

    from oprlab.rules.gff.melee import ExchangeResult, UnitState

__all__ = [
    "AttackOdds",
    "AttackSystem",
    "ExchangeOptions",
    "ExchangeSystem",
    "Outcome",
    "Situation",
    "Summary",
    "deadly_dice",
    "rating",
]


@dataclass(frozen=True)
class Situation:
    """The options of an odds query that describe the attack (system-neutral)."""

    melee: bool = False
    charging: bool = False
    distance: float | None = None
    cover: bool = False
    moved: bool = False
    fatigued: bool = False


@dataclass(frozen=True)
class Summary:
    """What one attack did, or the distribution of it: the common currency of systems."""

    hits: npt.NDArray[np.float64]
    wounds: npt.NDArray[np.float64]
    casualties: npt.NDArray[np.float64]
    p_destroyed: float
    p_shaken: float | None


@dataclass(frozen=True)
class Outcome:
    """One attack's result as counts (for sampling and for certain mechanics)."""

    hits: int
    wounds: int
    casualties: int
    destroyed: bool
    shaken: bool | None


class AttackOdds(Protocol):
    """What a rule system provides for attack odds: an exact summary, a one-attack resolver,
    and the cost of the exact answer (so a query too costly for it is sampled instead)."""

    name: str

    def exact(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> Summary: ...

    def resolve(
        self,
        attacker: Unit,
        weapons: Sequence[Weapon],
        defender: Unit,
        s: Situation,
        m: Mechanic,
        state: Any,
        rng: np.random.Generator | None,
    ) -> Outcome: ...

    def exact_work(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> float: ...


#: The name the odds layer first gave the protocol.
AttackSystem = AttackOdds


@dataclass(frozen=True)
class ExchangeOptions:
    """The choices of an exchange that are not the units themselves.

    Attributes:
        strike_back: the defender chooses to strike back.
        attacker_state: the charger's condition (``None``: fresh).
        defender_state: the defender's condition (``None``: fresh).
        impact_timing: GFF: ``"first"`` or ``"with_strikes"`` (docs/rules/gff.md).
        system_options: options only one rule system has (Riverside: ``impact``, ``tie``,
            ``readings``; docs/rules/riverside.md "Melee exchange").
    """

    strike_back: bool = True
    attacker_state: UnitState | None = None
    defender_state: UnitState | None = None
    impact_timing: str = "first"
    system_options: Mapping[str, Any] = field(default_factory=dict)

    def common(self) -> dict[str, Any]:
        """The options every system's exchange takes, as its keyword arguments."""
        return {
            "strike_back": self.strike_back,
            "attacker_state": self.attacker_state,
            "defender_state": self.defender_state,
        }


class ExchangeSystem(Protocol):
    """What a rule system provides for exchange odds: an exact distribution and a resolver."""

    name: str
    #: The clock owners of the charger's and the defender's checks.
    owners: tuple[Owner, ...]
    #: Figures only this system reports: name -> the event whose probability it is.
    figures: Mapping[str, Callable[[ExchangeResult], bool]]

    def exact(
        self, attacker: Unit, defender: Unit, mech: Mechanic, o: ExchangeOptions
    ) -> Dist[ExchangeResult]: ...

    def resolve(
        self,
        attacker: Unit,
        defender: Unit,
        mech: Mechanic,
        state: State,
        rng: np.random.Generator | None,
        o: ExchangeOptions,
    ) -> ExchangeResult: ...


def rating(w: Weapon, name: str) -> int:
    """A weapon's rating of ``name`` (``Blast(3)``: 3), at least 1 (no rule: 1)."""
    return max(1, w.rating(name) or 1)


def deadly_dice(weapons: Sequence[Weapon], defender: Unit) -> list[tuple[int, int]]:
    """``(dice, X)`` of each Deadly(X) weapon: its attacks times Blast (up to the target's
    models), for the cost of an exact answer."""
    models = max(defender.size, 1)
    return [
        (max(w.count * w.attacks, 0) * min(rating(w, "Blast"), models), rating(w, "Deadly"))
        for w in weapons
        if w.has("Deadly")
    ]
