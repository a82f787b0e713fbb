"""The rule-system boundary: what every layer above the game asks, and never branches around.

A :class:`RuleSystem` owns a game procedure (python-chess's variant, OpenSpiel's game): it says
how its armies are read, which mechanics it accepts, which readings of its text can be switched,
and it makes, lists, checks and applies the decisions of a game. The play loop, series, stored
results, commanders and the command line hold a system object found by name
(:func:`oprlab.game.systems.find_system`) and call it; none of them compares a system's name.

May import ``oprlab.game.events``, ``oprlab.table``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, get_args, runtime_checkable

from oprlab.errors import OptionError
from oprlab.version import __version__

if TYPE_CHECKING:  # annotations only: `odds` and `check` need no table model
    from oprlab.table.model import Table

__all__ = [
    "ROLL_OFF_WINNERS",
    "GameResult",
    "NotDeployed",
    "RuleSystem",
    "check_roll_off_winner",
    "flat_readings",
    "roll_off",
]

#: ``roll_off_winner`` of every system's readings: the dice decide the roll-off that decides
#: who goes first (the rule), or side A / side B wins it. An experimenter's option (the lab's
#: ``first`` factor), not a reading of any text.
RollOffWinner = Literal["rolloff", "A", "B"]
ROLL_OFF_WINNERS: tuple[str, ...] = get_args(RollOffWinner)


@dataclass(frozen=True)
class NotDeployed:
    """A unit that found no room to deploy: out of the game from the start, neither in play
    nor a casualty (:mod:`oprlab.game.deploy_search`)."""

    unit: str
    name: str
    side: int
    models: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game and everything needed to reproduce it.

    Attributes:
        seed: the game's seed (its table, dice and commander streams derive from it).
        system: the system's full name (``gff``, ``gff+fortifications``).
        mechanic: how checks were resolved (``d6``, ``clock-bennies``, ``wwpd``).
        winner: 0, 1, or ``None`` for a draw.
        objectives: markers each side held at the end.
        units_left: units each side still had.
        models_lost: models each side lost (routed units count whole).
        rounds: rounds played.
        decisions: decisions taken (the length of the game).
        commanders: the commanders' names, side A first.
        commander_revisions: their revisions (``players.base.REVISIONS``: bumped whenever a
            change alters a commander's play), side A first; ``""`` for one without.
        rules_version: the procedure's version (seed text and revision, house rules).
        rule_options: the readings played, as (name, plain value) pairs.
        not_deployed: units that found no room to deploy (not counted in ``models_lost``).
    """

    seed: int
    system: str
    mechanic: str
    winner: int | None
    objectives: tuple[int, int]
    units_left: tuple[int, int]
    models_lost: tuple[int, int]
    rounds: int
    decisions: int
    commanders: tuple[str, str]
    rules_version: str = ""
    rule_options: tuple[tuple[str, Any], ...] = ()
    not_deployed: tuple[NotDeployed, ...] = ()
    #: Not compared: a results file of ``battle --out`` does not store revisions yet, and a
    #: game read back from one is the game that was stored.
    commander_revisions: tuple[str, str] = field(default=("", ""), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "system": self.system,
            "mechanic": self.mechanic,
            "winner": self.winner,
            "objectives": list(self.objectives),
            "units_left": list(self.units_left),
            "models_lost": list(self.models_lost),
            "rounds": self.rounds,
            "decisions": self.decisions,
            "commanders": list(self.commanders),
            "commander_revisions": list(self.commander_revisions),
            "rules_version": self.rules_version,
            "rule_options": dict(self.rule_options),
            "not_deployed": [n.to_json() for n in self.not_deployed],
            "oprlab": __version__,
        }


@runtime_checkable
class RuleSystem(Protocol):
    """A rule system with a full-game procedure, behind one narrow interface.

    Attributes:
        name: how it is found (``gff``, ``riverside``, ``wwpd``; house rules joined by ``+``).
        title: how captions and accounts name it (``GFF``).
        version: the seed text it implements and the procedure's revision (bumped whenever a
            change of rules changes games), plus each house rule's name and version.
        readings: the frozen dataclass of its switchable readings (``--rules-option``).
        army_format: how its armies are read: ``"army-forge"`` (Army Forge text or JSON) or
            ``"wwpd"`` (a WWPD force file).
        commander_family: which commanders know how to play it (``"opr"``, ``"wwpd"``).
        mechanics: the resolution mechanics it accepts, by name prefix (the first is its
            default).
        attack: its attack odds adapter (:class:`oprlab.rules.query.AttackOdds`), or ``None``.
        exchange: its melee exchange odds adapter (:class:`oprlab.rules.query.ExchangeSystem`),
            or ``None``.
    """

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def readings(self) -> type[Any]: ...
    @property
    def army_format(self) -> str: ...
    @property
    def commander_family(self) -> str: ...
    @property
    def mechanics(self) -> tuple[str, ...]: ...
    @property
    def attack(self) -> Any: ...
    @property
    def exchange(self) -> Any: ...

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
        """A game ready for its first decision; checks that both armies can play it."""
        ...

    def legal_actions(self, state: Any) -> Sequence[Any]:
        """The decisions open to the side to act, in canonical order."""
        ...

    def is_legal(self, state: Any, action: Any) -> bool:
        """Whether ``action`` may be applied now (also actions no list names: any point)."""
        ...

    def apply(self, state: Any, action: Any) -> None:
        """Carry out ``action``, rolling every check through the game's dice and logging it."""
        ...

    def score(self, state: Any) -> tuple[int, int]:
        """Objective markers each side holds now."""
        ...

    def units_left(self, state: Any, side: int) -> int:
        """Units of ``side`` still in the game."""
        ...

    def models_lost(self, state: Any, side: int) -> int:
        """Models of ``side`` lost so far (routed units count whole; units that never found
        room to deploy are not losses)."""
        ...

    def not_deployed(self, state: Any) -> tuple[NotDeployed, ...]:
        """The units that found no room to deploy, and why."""
        ...

    def readings_of(self, state: Any) -> Any:
        """The readings a game is played under."""
        ...

    def mechanic_name(self, state: Any) -> str:
        """The name of the mechanic a game resolves its checks with."""
        ...

    def deployment_zone(
        self, state: Any, side: int
    ) -> tuple[tuple[float, float, float, float], str]:
        """Where ``side`` deployed: the box ``(xmin, ymin, xmax, ymax)`` and its table edge."""
        ...


def flat_readings(readings: Any) -> tuple[tuple[str, Any], ...]:
    """A readings dataclass as (name, value) pairs of plain values (nested ones by ``repr``)."""
    pairs = ((f.name, getattr(readings, f.name)) for f in dataclasses.fields(readings))
    return tuple((k, v if isinstance(v, str | int | float | bool) else repr(v)) for k, v in pairs)


def roll_off(drawn: int, fixed: str) -> int:
    """The winner of a roll-off whose dice gave side ``drawn``: that side, or the side
    ``fixed`` names (``"A"``: 0, ``"B"``: 1). The dice are rolled either way, so every later
    roll of the game is the same as with the roll-off left to them."""
    return drawn if fixed == "rolloff" else ROLL_OFF_WINNERS.index(fixed) - 1


def check_roll_off_winner(value: str) -> None:
    """Raise the one-line error for a ``roll_off_winner`` that is not rolloff, A or B."""
    if value not in ROLL_OFF_WINNERS:
        raise OptionError(
            "unknown roll-off winner",
            value=value,
            expected=" or ".join(ROLL_OFF_WINNERS),
            where="roll_off_winner",
        )
