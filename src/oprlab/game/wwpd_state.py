"""What a WWPD game is and how it ends: the switchable readings (:class:`GameOptions`), the
decisions (:class:`Kind`, :class:`WwpdAction`), a unit and a whole game at one moment
(:class:`WwpdUnitState`, :class:`WwpdState`), and GFF's markers, the score and the end (a side
with no units left loses at once). The turns are played by :mod:`oprlab.game.wwpd`, which
re-exports these names.

May import ``oprlab.errors``, ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``,
``oprlab.mechanics`` and ``oprlab.game``'s state, events and ``objectives``.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

import numpy as np

from oprlab.errors import OptionError
from oprlab.game import objectives
from oprlab.game.events import EventLog
from oprlab.game.state import Objective
from oprlab.game.system import RollOffWinner, check_roll_off_winner
from oprlab.mechanics import Mechanic
from oprlab.rng import copy_rng
from oprlab.rules.wwpd.attack import Kit, Options
from oprlab.table.model import Placement, Point, Table
from oprlab.table.sight import SightCache
from oprlab.units.profiles import WwpdForce, WwpdUnit

ROUNDS = 4
#: Movement and charge reach: the seed gives none; GFF's Advance (6") for both.
MOVE_INCHES = 6.0
CHARGE_INCHES = 6.0
#: "Hits must be taken on models within 2" of the attacker" (Allocation of Hits, Melee).
MELEE_RANGE = 2.0
#: GFF objectives (seed 003 Mission): seized within 3".
OBJECTIVE_RANGE = 3.0
#: Terrain presets counted as Hard Cover ("actual military fortifications"); other cover is Soft.
HARD_COVER_PRESETS = frozenset({"ruins", "barricade"})
#: Base diameters (mm): infantry, Toughness 1, Toughness 2+, vehicles.
BASE_MM = {"infantry": 25.0, "tough": 32.0, "big": 40.0, "vehicle": 75.0}
FORMATION_GAP = 0.5
EPS = 1e-6

Pinning = Literal["off", "losses", "leadership"]
PINNING_CHOICES: tuple[str, ...] = ("off", "losses", "leadership")


@dataclass(frozen=True)
class GameOptions:
    """The readings of a WWPD game that can be switched (``docs/rules/wwpd.md``).

    Attributes:
        rounds: rounds played; each round is one turn of each player.
        move: inches a unit moves in its Movement phase.
        charge: charge reach: inches from a unit to an enemy it may charge.
        pinning: when a unit is pinned by fire: ``"leadership"`` (it lost models and failed a
            Leadership roll), ``"losses"`` (it lost models), or ``"off"`` (never).
        cowering: units may cower instead of firing in the Firefight.
        simultaneous_firefight: Firefight attacks are all rolled before casualties are removed
            (``False``: each attack is resolved at once, in declaration order).
        attack: the attack pipeline's options (cover stacking, saves past 6+).
        roll_off_winner: who wins the roll-off (deploys first and plays first): ``"rolloff"``
            the dice (the rule), ``"A"`` / ``"B"`` that side. An experimenter's option, not a
            reading (:func:`oprlab.game.system.roll_off`).
    """

    rounds: int = ROUNDS
    move: float = MOVE_INCHES
    charge: float = CHARGE_INCHES
    pinning: Pinning = "leadership"
    cowering: bool = True
    simultaneous_firefight: bool = True
    attack: Options = field(default_factory=Options)
    roll_off_winner: RollOffWinner = "rolloff"

    def __post_init__(self) -> None:
        check_roll_off_winner(self.roll_off_winner)
        if not 1 <= self.rounds <= 20:
            raise OptionError("rounds out of range", value=self.rounds, expected="1 to 20")
        for name in ("move", "charge"):
            value = getattr(self, name)
            if not (math.isfinite(value) and 0 <= value <= 48):
                raise OptionError(f"{name} out of range", value=value, expected="0 to 48 inches")
        if self.pinning not in PINNING_CHOICES:
            raise OptionError(
                "unknown pinning rule", value=self.pinning, expected=" or ".join(PINNING_CHOICES)
            )


class Kind(StrEnum):
    """Decisions in a WWPD game, in the order legal actions are listed."""

    DEPLOY = "deploy"
    HOLD = "hold"  # Movement: stay; Shooting/Firefight: hold fire; Melee: do not charge
    MOVE = "move"
    SHOOT = "shoot"  # Shooting or Firefight, at ``target``
    COWER = "cower"  # Firefight: instead of firing
    CHARGE = "charge"


_KIND_ORDER = {k: i for i, k in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class WwpdAction:
    """One decision: ``kind`` by ``unit``, to a point or at a target unit."""

    kind: Kind
    unit: str
    to: Point | None = None
    target: str = ""

    def sort_key(self) -> tuple[str, int, str, tuple[float, float]]:
        return (self.unit, _KIND_ORDER[self.kind], self.target, self.to or (-1.0, -1.0))

    def __str__(self) -> str:
        text = f"{self.kind.value} {self.unit}"
        if self.to is not None:
            text += f" to ({self.to[0]:.1f}, {self.to[1]:.1f})"
        if self.target:
            text += f" at {self.target}"
        return text


@dataclass
class WwpdUnitState:
    """One unit during a game.

    Attributes:
        uid: unique in the game (``A1``, ``B2``).
        side: 0 or 1.
        unit: the unit's profile.
        kits: its models and what each carries (index order = placement order).
        placement: where its models stand (``None`` until deployed).
        alive: per model, still in play.
        moved: moved in this turn's Movement phase.
        pinned: pinned (and Suppressed) until the end of the turn.
        cowering: cowering until the end of the turn.
        decided: has made its decision in the current phase.
    """

    uid: str
    side: int
    unit: WwpdUnit
    kits: tuple[Kit, ...]
    placement: Placement | None = None
    alive: list[bool] = field(default_factory=list)
    moved: bool = False
    pinned: bool = False
    cowering: bool = False
    decided: bool = False

    @property
    def models(self) -> int:
        return sum(self.alive)

    @property
    def destroyed(self) -> bool:
        return self.models == 0

    @property
    def on_table(self) -> bool:
        return self.placement is not None and not self.destroyed


#: An objective marker and the side controlling it (``None``: neutral): GFF's own.
Marker = Objective


@dataclass
class WwpdState:
    """Everything a WWPD game is at one moment (mutable; :meth:`clone` for search).

    ``player`` is whose turn it is; ``active`` is the side deciding now (the opponent in its
    half of the Firefight).
    """

    table: Table
    forces: tuple[WwpdForce, WwpdForce]
    units: dict[str, WwpdUnitState]
    mechanic: Mechanic
    rng: np.random.Generator
    seed: int
    options: GameOptions
    markers: list[Marker] = field(default_factory=list)
    log: EventLog = field(default_factory=EventLog)
    round: int = 0
    turn: int = 0
    player: int = 0
    active: int = 0
    first: int = 0
    phase: str = "deploy"
    declared: list[tuple[str, str]] = field(default_factory=list)
    winner: int | None = None
    done: bool = False
    sight: SightCache = field(default_factory=lambda: SightCache(maxsize=256))
    extra: dict[str, Any] = field(default_factory=dict)
    #: Bumped by every change; answers worked out for one version are kept in ``memo``.
    version: int = 0
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)

    system = "wwpd"

    def clone(self, rng: np.random.Generator | None = None) -> WwpdState:
        """An independent copy for search: what a deep copy would give, made by hand
        (:data:`WWPD_STATE_FIELDS`: the table, the forces, the profiles, the mechanic and the
        options shared, the sight cache shared (its keys hold every position), the units, the
        markers and the lists copied, the log's events shared (never changed once added)).
        ``rng``: the copy's dice stream instead of a copy of this game's."""
        new = object.__new__(WwpdState)
        fields = new.__dict__
        fields.update(self.__dict__)
        units = {uid: _copy_unit(u) for uid, u in self.units.items()}
        fields["units"] = units
        fields["rng"] = copy_rng(self.rng) if rng is None else rng
        fields["markers"] = [Marker(m.position, m.controller) for m in self.markers]
        fields["log"] = EventLog(list(self.log.events), self.log.enabled)
        fields["declared"] = list(self.declared)
        if self.extra or self.memo:  # remembered lists name units: point them at the copy's
            memo: dict[int, object] = {id(u): units[uid] for uid, u in self.units.items()}
            memo.update((id(u.unit), u.unit) for u in self.units.values())
            memo.update((id(x), x) for x in (self.table, self.forces, self.sight))
            fields["extra"] = copy.deepcopy(self.extra, memo)
            fields["memo"] = copy.deepcopy(self.memo, memo)
        else:
            fields["extra"], fields["memo"] = {}, {}
        return new

    def side_units(self, side: int) -> list[WwpdUnitState]:
        return [u for u in self.units.values() if u.side == side]

    def enemies(self, side: int) -> list[WwpdUnitState]:
        return [u for u in self.units.values() if u.side != side and u.on_table]

    def friends(self, side: int) -> list[WwpdUnitState]:
        return [u for u in self.units.values() if u.side == side and u.on_table]

    def others(self, *uids: str) -> list[Placement]:
        """Placements of every unit on the table except ``uids``."""
        return [
            u.placement
            for u in self.units.values()
            if u.uid not in uids and u.on_table and u.placement is not None
        ]


#: How :meth:`WwpdState.clone` treats each field (a test compares them with the dataclasses):
#: ``shared`` never change in place (or are caches keyed on every position), ``copied`` are
#: copied; ``extra`` and ``memo`` are deep-copied with the units mapped to the copy's.
WWPD_UNIT_FIELDS: dict[str, tuple[str, ...]] = {
    "shared": ("uid", "side", "unit", "kits", "moved", "pinned", "cowering", "decided"),
    "copied": ("placement", "alive"),
}
WWPD_STATE_FIELDS: dict[str, tuple[str, ...]] = {
    "shared": (
        "table",
        "forces",
        "mechanic",
        "seed",
        "options",
        "round",
        "turn",
        "player",
        "active",
        "first",
        "phase",
        "winner",
        "done",
        "sight",
        "version",
    ),
    "copied": ("units", "rng", "markers", "log", "declared"),
    "deep": ("extra", "memo"),
}


def _copy_unit(us: WwpdUnitState) -> WwpdUnitState:
    new = object.__new__(WwpdUnitState)
    new.__dict__.update(us.__dict__)
    new.alive = list(us.alive)
    if us.placement is not None:
        new.placement = us.placement.copy()
    return new


# --- objectives and the end ---------------------------------------------------------------


def controllers(state: WwpdState) -> list[set[int]]:
    """For each marker, the sides with a unit within 3" of it now."""
    holders = (
        (us.side, us.placement)
        for us in state.units.values()
        if us.on_table and us.placement is not None
    )
    return objectives.sides_near(state.markers, holders)


def update_markers(state: WwpdState) -> None:
    """GFF Mission: seize a marker alone, keep it after leaving, neutralise it contested."""
    objectives.settle_markers(
        state.markers, controllers(state), state.log, state.round, key="marker"
    )


def score(state: WwpdState) -> tuple[int, int]:
    """Markers each side controls."""
    return objectives.held(state.markers)


def units_left(state: WwpdState, side: int) -> int:
    return sum(not u.destroyed for u in state.side_units(side))


def _check_end(state: WwpdState) -> None:
    """A side with no units left loses at once."""
    if state.done or state.phase == "deploy":
        return
    left = (units_left(state, 0), units_left(state, 1))
    if left[0] and left[1]:
        return
    update_markers(state)
    winner = None if not (left[0] or left[1]) else (0 if left[0] else 1)
    _finish(state, winner=winner, reason="a side has no units left")


def _finish(state: WwpdState, *, winner: int | None = None, reason: str = "rounds played") -> None:
    held = score(state)
    if reason == "rounds played":
        winner = objectives.winner_of(held)
    state.winner = winner
    state.done = True
    state.phase = "over"
    state.log.add("end", markers=list(held), winner=winner, reason=reason, round=state.round)
