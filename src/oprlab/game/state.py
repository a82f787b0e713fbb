"""The mutable game state: units on the table, the round, objectives, clocks and the log.

Like python-chess's ``Board`` the state is one mutable object with a cheap :meth:`clone` for
search; it pickles (the generator included), so a game can be saved and resumed exactly.

May import ``oprlab.table``, ``oprlab.mechanics``, ``oprlab.units`` and ``oprlab.game.events``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oprlab.game.events import EventLog
from oprlab.mechanics import Mechanic, Owner, State
from oprlab.mechanics.dice import Dice
from oprlab.table.model import Placement, Point, Table
from oprlab.table.sight import SightCache
from oprlab.units.model import Army, Unit


@dataclass
class UnitState:
    """One unit during a game.

    Attributes:
        uid: unique in the game (side prefix + the list's uid).
        side: 0 or 1.
        unit: the unit's profile as the list gives it.
        placement: where its models stand (``None`` until deployed).
        models: models still in play.
        markers: wound markers on the last model.
        shaken, fatigued, activated: conditions.
        reserve: ``"ambush"`` or ``"scout"`` while set aside, else ``None``.
        arrived: the round an Ambush unit arrived (it cannot seize or contest that round).
        routed: removed by a failed morale test.
        spell_tokens: Caster(X): tokens held (GFF; at most 6).
    """

    uid: str
    side: int
    unit: Unit
    placement: Placement | None = None
    models: int = 0
    markers: int = 0
    shaken: bool = False
    fatigued: bool = False
    activated: bool = False
    reserve: str | None = None
    arrived: int = 0
    routed: bool = False
    spell_tokens: int = 0

    @property
    def alive(self) -> bool:
        return self.models > 0 and not self.routed

    @property
    def on_table(self) -> bool:
        return self.alive and self.placement is not None and self.reserve is None

    @property
    def owner(self) -> Owner:
        return Owner(army=f"side{self.side}", unit=self.uid)


@dataclass
class Objective:
    """An objective marker and who controls it (``None``: neutral)."""

    position: Point
    controller: int | None = None


@dataclass(frozen=True)
class Pending:
    """The second half of an activation, waiting for a decision.

    Attributes:
        step: ``"shoot"`` (after Hold or Advance) or ``"consolidate"`` (after a melee in which
            one unit was destroyed: the survivor may move up to 3").
        unit: the unit that shoots or moves.
        side: the side whose activation this is (play passes on from it afterwards).
        moved: the shooter moved this activation (Indirect).
        cast: spells already tried this activation (GFF Caster: one try per spell).
        clock_set: a benny already set a clock this activation (GFF clock-bennies).

    GFF also has step ``"act"``: a Caster has cast and still chooses its action.
    """

    step: str
    unit: str
    side: int
    moved: bool = False
    cast: tuple[str, ...] = ()
    clock_set: bool = False


@dataclass
class GameState:
    """Everything a game is at one moment.

    ``last_activation[s]`` numbers side ``s``'s latest activation of the round (``-1``: none
    yet); the side whose last activation came first goes first next round.
    """

    system: str
    table: Table
    armies: tuple[Army, Army]
    units: dict[str, UnitState]
    dice: Dice
    seed: int
    rounds: int = 4
    round: int = 0
    phase: str = "setup"
    active: int = 0
    first: int = 0
    finished_first: int | None = None
    objectives: list[Objective] = field(default_factory=list)
    log: EventLog = field(default_factory=EventLog)
    winner: int | None = None
    done: bool = False
    pending: Pending | None = None
    activations: int = 0
    last_activation: list[int] = field(default_factory=lambda: [-1, -1])
    extra: dict[str, Any] = field(default_factory=dict)
    #: Line-of-sight answers keyed on every position: safe to share between clones.
    sight: SightCache = field(default_factory=SightCache)

    @property
    def mechanic(self) -> Mechanic:
        """How the game's checks come out (the dice's)."""
        return self.dice.mechanic

    @property
    def mech_state(self) -> State:
        """The mechanic's state (clocks, tokens, bennies), kept by the dice."""
        return self.dice.state

    @mech_state.setter
    def mech_state(self, value: State) -> None:
        self.dice.state = value

    @property
    def rng(self) -> np.random.Generator:
        """The seed's dice stream (roll-offs and D3s outside a check draw from it too)."""
        assert self.dice.rng is not None  # games always roll with a generator
        return self.dice.rng

    def clone(self) -> GameState:
        """An independent copy (units, placements, generator, log) for search.

        The table, the armies, the units' profiles, the mechanic and the sight cache are
        shared: the first four never change during a game (profiles are frozen; sharing them
        also keeps caches keyed on a profile's identity warm across clones), and the cache's
        keys include every position.
        """
        shared = (self.table, self.armies, self.dice.mechanic, self.sight)
        memo: dict[int, object] = {id(x): x for x in shared}
        memo.update((id(u.unit), u.unit) for u in self.units.values())
        return copy.deepcopy(self, memo)

    def side_units(self, side: int) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == side]

    def enemies(self, side: int) -> list[UnitState]:
        return [u for u in self.units.values() if u.side != side and u.on_table]

    def friends(self, side: int) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == side and u.on_table]

    def placements_except(self, uid: str) -> list[Placement]:
        return [
            u.placement
            for u in self.units.values()
            if u.uid != uid and u.on_table and u.placement is not None
        ]
