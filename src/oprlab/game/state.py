"""The mutable game state: units on the table, the round, objectives, clocks and the log.

Like python-chess's ``Board`` the state is one mutable object with a cheap :meth:`clone` for
search; it pickles (the generator included), so a game can be saved and resumed exactly.

May import ``oprlab.table``, ``oprlab.mechanics``, ``oprlab.units``, ``oprlab.game.events`` and
``oprlab.game.actions``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

import numpy as np
import numpy.typing as npt

from oprlab.game.actions import Action, Kind
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
        # :attr:`alive` spelled out: asked tens of thousands of times a game
        return (
            self.models > 0
            and not self.routed
            and self.placement is not None
            and self.reserve is None
        )

    @property
    def owner(self) -> Owner:
        return Owner(army=f"side{self.side}", unit=self.uid)


@dataclass
class Objective:
    """An objective marker and who controls it (``None``: neutral)."""

    position: Point
    controller: int | None = None


class Phase(StrEnum):
    """What a game waits for now: a step of setup, the activations, or a paused decision."""

    SETUP = "setup"
    OBJECTIVES = "objectives"  # placing objective markers
    ZONE = "zone"  # GFF: the deployment roll-off winner picks a table edge
    ZONES = "zones"  # Riverside: the zone and activation-order picks
    DEPLOY = "deploy"
    SCOUT = "scout"
    AMBUSH = "ambush"
    ACTIVATION = "activation"  # a side picks a unit and its action
    CLOCKS = "clocks"  # clock-bennies: a clock may be set before an activation
    ACT = "act"  # a Caster has cast and still chooses its action
    SHOOT = "shoot"  # after Hold or Advance
    SPECIAL = "special"  # Riverside: after a move, an ability (Teleport) may still be used
    RESIST = "resist"  # the other side resists a spell
    DEFEND = "defend"  # the defender spends bennies against an attack
    STRIKE_BACK = "strike_back"  # GFF: the charged unit strikes back or not
    CONSOLIDATE = "consolidate"  # After Combat: the survivor may move up to 3"
    OVER = "over"


@dataclass(frozen=True)
class Pending:
    """The second half of an activation, waiting for a decision.

    Attributes:
        step: the phase it waits in: ``SHOOT`` (after Hold or Advance), ``CONSOLIDATE`` (after
            a melee in which one unit was destroyed: the survivor may move up to 3"), ``ACT``
            (GFF: a Caster has cast and still chooses its action), ``SPECIAL``, ``RESIST``,
            ``DEFEND``, ``STRIKE_BACK``.
        unit: the unit that shoots or moves.
        side: the side whose activation this is (play passes on from it afterwards).
        moved: the shooter moved this activation (Indirect).
        cast: spells already tried this activation (GFF Caster: one try per spell).
        clock_set: a benny already set a clock this activation (GFF clock-bennies).
    """

    step: Phase
    unit: str
    side: int
    moved: bool = False
    cast: tuple[str, ...] = ()
    clock_set: bool = False


class Rules(Protocol):
    """The game's own procedure (:class:`oprlab.game.opr.hooks.OprRules`), as the state and
    the layers above reach it: decisions, and the rule answers a commander asks for."""

    def legal_actions(self, state: GameState) -> list[Action]: ...

    def is_legal(self, state: GameState, action: Action) -> bool: ...

    def apply(self, state: GameState, action: Action) -> None: ...

    def move_allowance(self, unit: Unit, kind: Kind) -> float: ...

    def shooting_targets(self, state: GameState, us: UnitState) -> list[str]: ...


@dataclass
class RollOff:
    """Riverside "Choosing Deployment Zone and Activation Order": the roll-off and its picks.

    Attributes:
        winner: the side that won the roll-off.
        took: what the winner chose to choose (``"zone"`` or ``"first"``), once chosen.
        edge: the side that picked the zone and the edge it picked (0 low, 1 high).
        first: the side that activates first, once picked.
    """

    winner: int
    took: str | None = None
    edge: tuple[int, int] | None = None
    first: int | None = None


@dataclass
class Memo:
    """Answers a procedure remembers for speed, keyed on what they depend on."""

    deploy_boxes: object = None
    deploy_options: object = None
    deploy_points: object = None
    charge: dict[object, bool] = field(default_factory=dict)
    sight: SightCache | None = None


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
    #: The procedure that plays this game (hooks reached through it, house rules included).
    rules: Rules
    rounds: int = 4
    round: int = 0
    phase: Phase = Phase.SETUP
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
    #: The readings played (the system's options; ``None``: its defaults).
    options: object = None
    #: The mechanic as asked for (a registered name; else the mechanic's own name).
    mechanic_name: str = ""
    #: Objective markers still to place.
    objectives_left: int = 0
    #: GFF: the table edge each side deploys along (empty: the default edges).
    edges: list[str] = field(default_factory=list)
    #: Riverside: the edge each side deploys on, 0 along ``y = 0``, 1 along ``y = depth``.
    home_edges: list[int] = field(default_factory=lambda: [0, 1])
    #: Riverside: the zones roll-off while its picks are made.
    roll_off: RollOff | None = None
    #: Units that found no room to deploy, with the reason (by uid).
    not_deployed: dict[str, str] = field(default_factory=dict)
    #: GFF: the unit, activation and models that rolled for dangerous terrain as it activated.
    rolled_in: tuple[str, int, npt.NDArray[np.bool_]] | None = None
    #: Riverside: the unit that teleported this activation (empty: none).
    teleported: str = ""
    #: A spell waiting for the other side's resisting tokens (phase ``resist``).
    casting: object = None
    #: An attack waiting for the defender's ``DEFEND`` decision (phase ``defend``).
    defending: object = None
    #: GFF: a charge waiting for the charged side's ``STRIKE_BACK`` decision.
    strike_back: object = None
    #: Riverside: the caster's step, kept while the spell's target decides on its bennies.
    after_spell: Pending | None = None
    #: Answers remembered for speed (never part of what a game is).
    memo: Memo = field(default_factory=lambda: Memo())
    #: Line-of-sight answers keyed on every position: safe to share between clones.
    sight: SightCache = field(default_factory=SightCache)
    #: The actions ``legal_actions`` listed last, until one is applied: applying one of these
    #: very objects needs no second check (:meth:`OprHooks.apply`). Never part of the game.
    offered: Sequence[object] | None = field(default=None, repr=False, compare=False)

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

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        """Reseed the dice (a search's copy rolls its own, never the real game's)."""
        self.dice.rng = value

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
        if self.offered is not None:
            memo[id(self.offered)] = None  # a copy's actions are checked when applied
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
