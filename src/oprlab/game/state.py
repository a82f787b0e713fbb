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
from oprlab.rng import copy_rng
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
    #: ``objectives._grid``: the placing rules' grid (a tuple, replaced whole, never changed).
    marker_grid: object = None
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

    def clone(self, rng: np.random.Generator | None = None) -> GameState:
        """An independent copy for search: what a deep copy would give, made by hand.

        Each field is treated as :data:`STATE_FIELDS` says: the table, the armies, the units'
        profiles, the mechanic, the procedure and the frozen values are shared (they never
        change during a game; sharing the profiles also keeps caches keyed on their identity
        warm), the sight caches are shared (their keys include every position), every unit's
        state and placement, the markers, the lists and the generator are copied, and the log
        shares its events (they are never changed once added; a copy only appends its own).
        ``rng``: the copy's dice stream instead of a copy of this game's (a search reseeds).
        """
        new = object.__new__(GameState)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields["units"] = {uid: _copy_unit(u) for uid, u in self.units.items()}
        fields["dice"] = Dice(
            self.dice.mechanic,
            self.dice.state,
            rng if rng is not None or self.dice.rng is None else copy_rng(self.dice.rng),
        )
        fields["objectives"] = [Objective(o.position, o.controller) for o in self.objectives]
        fields["log"] = EventLog(list(self.log.events), self.log.enabled)
        fields["last_activation"] = list(self.last_activation)
        fields["edges"] = list(self.edges)
        fields["home_edges"] = list(self.home_edges)
        fields["not_deployed"] = dict(self.not_deployed)
        if self.roll_off is not None:
            fields["roll_off"] = copy.copy(self.roll_off)
        if self.rolled_in is not None:
            uid, activation, touching = self.rolled_in
            fields["rolled_in"] = (uid, activation, touching.copy())
        fields["memo"] = _copy_memo(self.memo)
        fields["offered"] = None  # a copy's actions are checked when applied
        waiting = [name for name in _WAITING if fields[name] is not None]
        if waiting:  # an attack or spell half done: rare, so a deep copy that maps the units
            memo = _deep_memo(self, new)
            for name in waiting:
                fields[name] = copy.deepcopy(fields[name], memo)
        return new

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


#: How :meth:`GameState.clone` copies each field of a unit's state: ``shared`` are never
#: changed in place (numbers, strings, the frozen profile), ``copied`` are copied. A new field
#: must be put in one of the two (a test compares them with the dataclass).
UNIT_FIELDS: dict[str, tuple[str, ...]] = {
    "shared": (
        "uid",
        "side",
        "unit",
        "models",
        "markers",
        "shaken",
        "fatigued",
        "activated",
        "reserve",
        "arrived",
        "routed",
        "spell_tokens",
    ),
    "copied": ("placement",),
}

#: The same for the game's fields: ``shared`` never change in place during a game (the table,
#: the armies, the procedure, frozen values, numbers) or are caches whose keys hold every
#: position (``sight``); ``copied`` are copied by :meth:`GameState.clone` itself; ``deep``
#: (an attack or spell half done) are deep-copied with the units mapped to the copy's.
STATE_FIELDS: dict[str, tuple[str, ...]] = {
    "shared": (
        "system",
        "table",
        "armies",
        "seed",
        "rules",
        "rounds",
        "round",
        "phase",
        "active",
        "first",
        "finished_first",
        "winner",
        "done",
        "pending",
        "activations",
        "options",
        "mechanic_name",
        "objectives_left",
        "teleported",
        "after_spell",
        "sight",
    ),
    "copied": (
        "units",
        "dice",
        "objectives",
        "log",
        "last_activation",
        "edges",
        "home_edges",
        "roll_off",
        "not_deployed",
        "rolled_in",
        "memo",
        "offered",
    ),
    "deep": ("casting", "defending", "strike_back"),
}
_WAITING = STATE_FIELDS["deep"]


def _copy_unit(us: UnitState) -> UnitState:
    new = object.__new__(UnitState)
    new.__dict__.update(us.__dict__)
    if us.placement is not None:
        new.placement = us.placement.copy()
    return new


def _copy_memo(memo: Memo) -> Memo:
    """The remembered answers, in containers of the copy's own (``sight`` shared: its keys
    hold every position). Each entry's value is replaced, never changed, once stored."""
    return Memo(
        deploy_boxes=_copy_keyed(memo.deploy_boxes),
        deploy_options=_copy_keyed(memo.deploy_options),
        deploy_points=memo.deploy_points,
        marker_grid=memo.marker_grid,
        charge=dict(memo.charge),
        sight=memo.sight,
    )


def _copy_keyed(entry: object) -> object:
    """A ``(key, dict)`` memo entry with a dict of its own (answers are added to it)."""
    if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[1], dict):
        return (entry[0], dict(entry[1]))
    return entry


def _deep_memo(old: GameState, new: GameState) -> dict[int, object]:
    """A deep copy's memo that maps what :meth:`GameState.clone` shares to itself and what it
    copied to the copy, so a deep-copied field points into the copy as a deep copy would."""
    memo: dict[int, object] = {
        id(x): x for x in (old.table, old.armies, old.rules, old.sight, old.dice.mechanic)
    }
    for uid, us in old.units.items():
        twin = new.units[uid]
        memo[id(us)] = twin
        memo[id(us.unit)] = us.unit
        if us.placement is not None and twin.placement is not None:
            memo[id(us.placement)] = twin.placement
            memo[id(us.placement.centres)] = twin.placement.centres
            memo[id(us.placement.removed)] = twin.placement.removed
            memo[id(us.placement.radii)] = twin.placement.radii
    return memo
