"""The system-neutral parts of a melee exchange: its result, who strikes with what, the exact
composition of its stages.

GFF (seed 003 "Melee") and Riverside (seed 002 "Melee Attacks") each run a charge as a short
state machine of attacks (``rules.gff.melee``, ``rules.riverside.melee``): which attacks happen,
in which order, and what follows them are the system's. What they share lives here:

- the result types (:class:`ExchangeResult` with a :class:`SideResult` per :class:`Side`), so
  analysis reads either system's exchange the same way;
- which starting condition a unit may be in (:func:`check_models`; how a unit that lost
  models still strikes, ``carried``, lives with the weapon lines in
  :mod:`oprlab.rules.weapon_lines`);
- the exact driver (:func:`compose_stages`): each stage composed over every joint state the
  earlier stages left, with a cap on the states, the same state machine the sampled drivers roll.

May import ``oprlab.errors``, ``oprlab.prob`` and ``oprlab.units``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol, TypeVar

from oprlab.errors import OprlabError, OptionError
from oprlab.prob import Dist
from oprlab.units.model import Unit

__all__ = [
    "CONSOLIDATE_INCHES",
    "SEPARATE_INCHES",
    "AfterCombat",
    "ExactTooLarge",
    "ExchangeResult",
    "Side",
    "SideResult",
    "StrikeRecord",
    "UnitState",
    "check_models",
    "compose_stages",
    "other",
]

#: After Combat: "If one unit is destroyed, the other may move by up to 3"" (seed 003).
CONSOLIDATE_INCHES = 3
#: After Combat: "Otherwise, chargers must move back and separate by 1"" (seed 003).
SEPARATE_INCHES = 1


class Side(StrEnum):
    """The two units of a melee: the charger and the charged unit."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


def other(side: Side) -> Side:
    """The unit across from ``side``."""
    return Side.DEFENDER if side is Side.ATTACKER else Side.ATTACKER


class AfterCombat(StrEnum):
    """Seed 003 "After Combat": who moves, and how far (systems without it report NONE)."""

    ATTACKER_MOVES = "attacker may move up to 3 inches"
    DEFENDER_MOVES = "defender may move up to 3 inches"
    CHARGER_SEPARATES = "charger moves back 1 inch"
    NONE = "no unit left to move"

    @property
    def mover(self) -> Side | None:
        """The unit that moves (the charger when it separates)."""
        if self is AfterCombat.DEFENDER_MOVES:
            return Side.DEFENDER
        return None if self is AfterCombat.NONE else Side.ATTACKER

    @property
    def inches(self) -> int:
        """How far: up to 3" after destroying the other unit, else back 1" (0: nobody)."""
        if self is AfterCombat.CHARGER_SEPARATES:
            return SEPARATE_INCHES
        return 0 if self is AfterCombat.NONE else CONSOLIDATE_INCHES


@dataclass(frozen=True, slots=True)
class UnitState:
    """A unit's condition going into a melee.

    Attributes:
        models: models still in play.
        markers: wound markers on the last model (GFF), or wounds on the wounded Tough model
            (Riverside).
        shaken: the unit is Shaken.
        fatigued: the unit already charged or struck back this round.
    """

    models: int
    markers: int = 0
    shaken: bool = False
    fatigued: bool = False


@dataclass(frozen=True, slots=True)
class SideResult:
    """One unit after the exchange.

    Attributes:
        wounds_dealt: wounds this unit dealt to the other.
        casualties: models this unit lost in this exchange.
        models: models left.
        markers: wound markers on its last model.
        shaken: Shaken afterwards.
        fatigued: Fatigued afterwards.
    """

    wounds_dealt: int
    casualties: int
    models: int
    markers: int
    shaken: bool
    fatigued: bool

    @property
    def destroyed(self) -> bool:
        return self.models <= 0


class StrikeRecord(Protocol):
    """Any system's record of one attack made during an exchange (GFF ``Strike``)."""

    @property
    def dice(self) -> int: ...


@dataclass(frozen=True, slots=True)
class ExchangeResult:
    """The outcome of one charge and its strike back (system-neutral).

    Attributes:
        attacker: the charging unit afterwards.
        defender: the charged unit afterwards.
        struck_back: the defender struck (with Counter weapons or striking back).
        after_combat: which unit moves after combat, and how far.
        strikes: each attack made, in order (empty in exact distributions).
        system: the rule system that resolved it.
    """

    attacker: SideResult
    defender: SideResult
    struck_back: bool
    after_combat: AfterCombat
    strikes: tuple[StrikeRecord, ...] = field(default=(), compare=False)
    system: str = "gff"

    @property
    def winner(self) -> Side | None:
        """Who won the exchange (``None``: a draw); docs/rules/gff.md "Melee exchange".

        The other unit destroyed wins; otherwise more wounds dealt wins; equal wounds draw.
        """
        a, d = self.attacker, self.defender
        if d.destroyed != a.destroyed:
            return Side.ATTACKER if d.destroyed else Side.DEFENDER
        if a.wounds_dealt != d.wounds_dealt:
            return Side.ATTACKER if a.wounds_dealt > d.wounds_dealt else Side.DEFENDER
        return None


class ExactTooLarge(OprlabError):
    """The exact exchange would hold more joint states than allowed: sample it instead."""


# --- who strikes with what ----------------------------------------------------------------


def check_models(unit: Unit, s: UnitState | None, where: str) -> UnitState:
    """A fresh unit by default; refuse a model count a unit cannot charge or be charged with."""
    if s is None:
        return UnitState(models=unit.size)
    if not 1 <= s.models <= unit.size:
        raise OptionError(
            f"models out of range for {unit.name!r}",
            value=s.models,
            expected=f"1 to {unit.size} (a unit with no models cannot fight)",
            where=where,
        )
    return s


# --- the exact driver ---------------------------------------------------------------------

F = TypeVar("F", bound=Hashable)
B = TypeVar("B", bound=Hashable)
E = TypeVar("E", bound=Hashable)
St = TypeVar("St")


def compose_stages(
    start: F,
    steps: Iterable[St],
    blow: Callable[[St, F], B | None],
    effects: Callable[[B], Dist[E]],
    after: Callable[[F, B, E], F],
    max_states: int,
) -> Dist[F]:
    """Compose each step's attack over every joint state the earlier steps left.

    ``blow`` says which attack a step makes from a state (``None``: none), ``effects`` its
    exact joint effect on the target (memoised here: stages repeat attacks), ``after`` the state
    it leaves. Raises :class:`ExactTooLarge` before a step would pass ``max_states`` branches
    (counted first, stopping early: the composition is the costly part).
    """
    memo: dict[B, Dist[E]] = {}

    def effects_of(b: B) -> Dist[E]:
        if b not in memo:
            memo[b] = effects(b)
        return memo[b]

    def stage(step: St) -> Callable[[F], Dist[F]]:
        def go(f: F) -> Dist[F]:
            b = blow(step, f)
            if b is None:
                return Dist.point(f)
            return effects_of(b).map(lambda e: after(f, b, e))

        return go

    fights: Dist[F] = Dist.point(start)
    for step in steps:
        total = 0
        for f in fights.support:
            b = blow(step, f)
            total += 1 if b is None else len(effects_of(b))
            if total > max_states:
                raise ExactTooLarge(
                    f"the exact exchange would pass {max_states} joint states at the {step} step"
                )
        fights = fights.bind(stage(step))
    return fights
