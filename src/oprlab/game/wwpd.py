"""A whole WWPD game (seed 004_b5c87f7769291d1c): I-go-U-go turns over GFF's objectives.

Each turn belongs to one player and has the seed's four phases ("Turns and Phases"):

1. **Movement**: the player's units each hold or move (6", our choice: the seed gives no
   distances); a unit that moved shoots at -1 this turn.
2. **Shooting**: "all shooting over 12"": only the player's units fire, at targets over 12" away.
3. **Firefight**: "all shooting within 12"": the player's units and then the opponent's each fire
   at a target within 12", cower, or hold; by default the fire is simultaneous (every declared
   attack is rolled before any casualty is removed). Cover saves are worse (5+ basic).
4. **Melee**: the player's units that are not pinned (nor cowering) and have an enemy within
   charge reach (6") may charge; the charger's and the charged unit's models within 2" of an
   enemy both fight, casualties removed together; then the charger steps back 1" if both remain.

Pinning and Cowering are named by the seed but not defined: by default a unit that loses models
to Shooting or Firefight tests its Leadership (the best in the unit) and on a failure is pinned,
i.e. Suppressed (-2 to hit) and unable to charge, until the end of the turn; a unit may cower
instead of firing in the Firefight (+1 Cover Save, +1 to be hit) until the end of the turn.
:class:`GameOptions` switches these readings.

The seed has no mission, so GFF's is used (seed 003): D3+2 markers outside the 12" deployment
zones on opposite edges, seized by a side with a unit within 3" and no enemy there at the end of
each round, kept until the enemy seizes or contests them; the side holding most markers after 4
rounds wins (a round is one turn of each player; the roll-off winner deploys first and plays
first). A side with no units left loses at once.

The procedure is OpenSpiel-style like :mod:`oprlab.game.gff`: :func:`legal_actions` in canonical
order, :func:`is_legal`, :func:`apply`, played by :func:`oprlab.game.play.play_game` through the
``wwpd`` rule system (:mod:`oprlab.game.systems`) like every other; dice go through the
``wwpd`` mechanic with the game's seeded generator, and every decision and roll result is
logged. Readings:
``docs/rules/wwpd.md`` "Full games".

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics``,
``oprlab.game.geometry`` and ``oprlab.game.events``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from oprlab.errors import OptionError, UserError
from oprlab.game import geometry as geo
from oprlab.game import objectives
from oprlab.game.events import EventLog
from oprlab.game.state import Objective
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.rng import generator
from oprlab.rules.wwpd.attack import (
    Attack,
    AttackResult,
    Conditions,
    DiceRoller,
    Kit,
    Options,
    defender_order,
    kits,
    melee_attack,
    resolve,
    shooting_attack,
)
from oprlab.rules.wwpd.targets import FIREFIGHT_RANGE, Phase
from oprlab.table.charge import CONTACT_TOL
from oprlab.table.deploy import objective_count, place_objectives
from oprlab.table.measure import centres_in
from oprlab.table.model import MM_PER_INCH, Placement, Point, Table
from oprlab.table.sight import SightCache
from oprlab.units.profiles import WwpdForce, WwpdUnit

__all__ = [
    "GameOptions",
    "Kind",
    "Marker",
    "WwpdAction",
    "WwpdState",
    "WwpdUnitState",
    "apply",
    "invalidate",
    "is_legal",
    "legal_actions",
    "new_game",
    "score",
]

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
    """

    rounds: int = ROUNDS
    move: float = MOVE_INCHES
    charge: float = CHARGE_INCHES
    pinning: Pinning = "leadership"
    cowering: bool = True
    simultaneous_firefight: bool = True
    attack: Options = field(default_factory=Options)

    def __post_init__(self) -> None:
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

    def clone(self) -> WwpdState:
        return copy.deepcopy(self)

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


# --- setup --------------------------------------------------------------------------------


def base_radius(k: Kit) -> float:
    """A model's base radius (inches): 25mm infantry, larger for Toughness, 75mm vehicles."""
    p = k.profile
    if p.vehicle:
        kind = "vehicle"
    elif p.toughness >= 2:
        kind = "big"
    else:
        kind = "tough" if p.toughness else "infantry"
    return BASE_MM[kind] / MM_PER_INCH / 2


def formation(unit_kits: Sequence[Kit], centre: Point, facing: float = 0.0) -> Placement:
    """A compact formation of the unit's models: rows of up to 5 facing ``facing`` (radians)."""
    radii = np.array([base_radius(k) for k in unit_kits], dtype=np.float64)
    n = len(unit_kits)
    step = 2 * float(radii.max()) + FORMATION_GAP
    per_row = min(5, max(1, n))
    rows = math.ceil(n / per_row)
    pts = []
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        pts.append(((col - (in_row - 1) / 2) * step, -(row - (rows - 1) / 2) * step))
    local = np.array(pts, dtype=np.float64)
    c, s = math.cos(facing), math.sin(facing)
    centres = local @ np.array([[c, -s], [s, c]]).T + np.asarray(centre)
    return Placement(centres, radii, large=any(k.profile.vehicle for k in unit_kits))


def facing(side: int) -> float:
    return 0.0 if side == 0 else math.pi


def home_edge(state: WwpdState, side: int) -> float:
    return 0.0 if side == 0 else state.table.depth


def deployment_zone(state: WwpdState, side: int) -> tuple[float, float]:
    """The band of y a side deploys in: 12" deep along its own edge (opposite edges)."""
    d = state.table.deployment_depth
    return (0.0, d) if side == 0 else (state.table.depth - d, state.table.depth)


def new_game(
    force_a: WwpdForce,
    force_b: WwpdForce,
    *,
    seed: int,
    table: Table | None = None,
    options: GameOptions | None = None,
    mechanic: str | Mechanic = "wwpd",
    log: bool = True,
) -> WwpdState:
    """A game ready for deployment: markers placed, the roll-off made."""
    for i, force in enumerate((force_a, force_b)):
        if not force.units:
            raise UserError(f"force {i + 1} has no units", value=force.name, expected="a unit")
    mech = get_mechanic(mechanic) if isinstance(mechanic, str) else mechanic
    rng = generator(seed, "dice")  # the game's dice: its own stream of the seed (oprlab.rng)
    units: dict[str, WwpdUnitState] = {}
    for side, force in enumerate((force_a, force_b)):
        for i, unit in enumerate(force.units):
            uid = f"{'AB'[side]}{i + 1}"
            k = kits(unit)
            units[uid] = WwpdUnitState(uid, side, unit, k, alive=[True] * len(k))
    state = WwpdState(
        table=table or Table(),
        forces=(force_a, force_b),
        units=units,
        mechanic=mech,
        rng=rng,
        seed=seed,
        options=options or GameOptions(),
        log=EventLog(enabled=log),
    )
    points = state.table.objectives
    if not points:
        points = place_objectives(state.table, rng, objective_count(rng))  # D3+2 markers
    state.markers = [Marker((float(x), float(y))) for x, y in points]
    first = int(rng.integers(2))  # roll-off: the winner deploys first and plays first
    state.first = state.active = state.player = first
    state.phase = "deploy"
    state.log.add(
        "setup",
        seed=seed,
        system="wwpd",
        mechanic=mech.name,
        markers=[list(m.position) for m in state.markers],
        first=first,
        options={
            "rounds": state.options.rounds,
            "move": state.options.move,
            "charge": state.options.charge,
            "pinning": state.options.pinning,
            "cowering": state.options.cowering,
            "simultaneous_firefight": state.options.simultaneous_firefight,
        },
    )
    _next_deployer(state)
    return state


def _to_deploy(state: WwpdState, side: int) -> list[WwpdUnitState]:
    return [u for u in state.side_units(side) if u.placement is None and not u.destroyed]


def deploy_problem(state: WwpdState, us: WwpdUnitState, point: Point) -> str | None:
    """Why ``us`` may not be placed centred at ``point``, or ``None`` if it may."""
    p = formation(us.kits, point, facing(us.side))
    if not geo.inside_table(state.table, p):
        return "the unit does not fit on the table there"
    lo, hi = deployment_zone(state, us.side)
    ys, r = p.centres[:, 1], p.radii
    if float((ys - r).min()) < lo - EPS or float((ys + r).max()) > hi + EPS:
        return "the unit must be wholly inside its deployment zone"
    if not geo.fits(state.table, p, state.others(us.uid)):
        return 'the unit may not stand there (terrain, or within 1" of another unit)'
    return None


def deploy_candidates(state: WwpdState, us: WwpdUnitState) -> list[Point]:
    """Centres where the unit fits in its zone: a 4" grid, three rows deep."""
    key = ("deploy", us.uid, state.version)
    if key not in state.memo:
        state.memo[key] = _deploy_candidates(state, us)
    found: list[Point] = state.memo[key]
    return found


def _deploy_candidates(state: WwpdState, us: WwpdUnitState) -> list[Point]:
    lo, hi = deployment_zone(state, us.side)
    pts: list[Point] = []
    for y in np.linspace(lo + 2.5, hi - 2.5, 3):
        for x in np.arange(4.0, state.table.width - 3.9, 4.0):
            p = (float(x), float(y))
            if deploy_problem(state, us, p) is None:
                pts.append(p)
    return pts


def _next_deployer(state: WwpdState) -> None:
    """Alternate deployment; units with no room are lost; then the first turn begins."""
    for _ in range(2):
        for us in _to_deploy(state, state.active):
            if deploy_candidates(state, us):
                return
            state.log.add("no_room", unit=us.uid, side=us.side, models=us.models)
            missing = state.extra.setdefault("not_deployed", {})
            missing[us.uid] = (
                f'no spot on the 4" grid of its deployment zone where its {us.models} models '
                'stand 1" from the units already there and off impassable terrain'
            )
            us.alive = [False] * len(us.alive)
        state.active = 1 - state.active
    state.phase = "deployed"
    _check_end(state)  # a side whose units all found no room has lost
    if not state.done:
        _start_round(state, 1)


# --- the turn -----------------------------------------------------------------------------


def _start_round(state: WwpdState, n: int) -> None:
    state.round = n
    state.log.add("round", round=n, first=state.first)
    _start_turn(state, state.first)


def _start_turn(state: WwpdState, side: int) -> None:
    state.turn += 1
    state.player = state.active = side
    for us in state.units.values():
        us.moved = us.pinned = us.cowering = us.decided = False
    state.log.add("turn", round=state.round, turn=state.turn, player=side)
    _enter(state, Phase.MOVEMENT.value, side)


def _enter(state: WwpdState, phase: str, side: int) -> None:
    """Start (half of) a phase for ``side``, skipping ahead while nobody has a decision."""
    state.phase = phase
    state.active = side
    for us in state.units.values():
        us.decided = False
    invalidate(state)
    if _deciders(state):
        return
    _advance(state)


def _advance(state: WwpdState) -> None:
    """The current (half-)phase is over: go to the next one."""
    if state.done:
        return
    phase, player = state.phase, state.player
    if phase == Phase.MOVEMENT.value:
        _enter(state, Phase.SHOOTING.value, player)
    elif phase == Phase.SHOOTING.value:
        _enter(state, Phase.FIREFIGHT.value, player)
    elif phase == Phase.FIREFIGHT.value and state.active == player:
        _enter(state, Phase.FIREFIGHT.value, 1 - player)  # the opponent's units fire back
    elif phase == Phase.FIREFIGHT.value:
        _resolve_declared(state)
        if not state.done:
            _enter(state, Phase.MELEE.value, player)
    elif phase == Phase.MELEE.value:
        _end_turn(state)


def _deciders(state: WwpdState) -> list[WwpdUnitState]:
    """Units of the side to act that still have a decision in this phase."""
    key = ("deciders", state.version)
    if key not in state.memo:
        state.memo[key] = _find_deciders(state)
    found: list[WwpdUnitState] = state.memo[key]
    return found


def invalidate(state: WwpdState) -> None:
    """Something moved, died or decided: forget answers worked out before.

    The procedure calls it itself; code that edits a state by hand (a test's scene) calls it too.
    """
    state.version += 1
    state.memo.clear()


def _find_deciders(state: WwpdState) -> list[WwpdUnitState]:
    out = []
    for us in state.friends(state.active):
        if us.decided:
            continue
        if state.phase == Phase.MOVEMENT.value:
            out.append(us)
        elif state.phase in (Phase.SHOOTING.value, Phase.FIREFIGHT.value):
            if shooting_targets(state, us) or (
                state.phase == Phase.FIREFIGHT.value and _may_cower(state, us)
            ):
                out.append(us)
        elif state.phase == Phase.MELEE.value and charge_targets(state, us):
            out.append(us)
    return out


def _end_turn(state: WwpdState) -> None:
    state.log.add("end_turn", turn=state.turn, player=state.player)
    if state.player == state.first:
        _start_turn(state, 1 - state.first)
        return
    update_markers(state)
    if state.round >= state.options.rounds:
        _finish(state)
        return
    _start_round(state, state.round + 1)


# --- what a unit can do -------------------------------------------------------------------


def _gap(state: WwpdState, a: WwpdUnitState, b: WwpdUnitState) -> float:
    assert a.placement is not None and b.placement is not None
    return geo.gap(a.placement, b.placement)


def _reach(us: WwpdUnitState) -> int:
    return max(
        (w.range or 0 for k, a in zip(us.kits, us.alive, strict=True) if a for w in k.ranged),
        default=0,
    )


def _sees(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> npt.NDArray[np.bool_]:
    assert us.placement is not None and target.placement is not None
    return geo.sees(
        state.table,
        us.placement,
        target.placement,
        state.others(us.uid, target.uid),
        system="gff",
        cache=state.sight,
    )


def shooting_targets(state: WwpdState, us: WwpdUnitState) -> list[str]:
    """Enemy units this unit may fire at in the current phase: over 12" in Shooting, within 12"
    in Firefight; in range of a weapon and seen by a model. Cowering units do not fire."""
    if state.phase not in (Phase.SHOOTING.value, Phase.FIREFIGHT.value) or us.cowering:
        return []
    reach = _reach(us)
    out = []
    for e in state.enemies(us.side):
        d = _gap(state, us, e)
        far = d > FIREFIGHT_RANGE
        if (state.phase == Phase.SHOOTING.value) != far or d > reach:
            continue
        if _sees(state, us, e).any():
            out.append(e.uid)
    return out


def _may_cower(state: WwpdState, us: WwpdUnitState) -> bool:
    """A unit may cower in the Firefight when an enemy is within 12" of it."""
    return state.options.cowering and any(
        _gap(state, us, e) <= FIREFIGHT_RANGE for e in state.enemies(us.side)
    )


def charge_targets(state: WwpdState, us: WwpdUnitState) -> list[str]:
    """Enemy units within charge reach of an unpinned, uncowering unit of the player."""
    if us.side != state.player or us.pinned or us.cowering:
        return []
    if not any(k.profile.melee_attacks > 0 for k, a in zip(us.kits, us.alive, strict=True) if a):
        return []
    return [
        e.uid for e in state.enemies(us.side) if _gap(state, us, e) <= state.options.charge + EPS
    ]


def move_goals(state: WwpdState, us: WwpdUnitState) -> list[Point]:
    """Canonical destinations: each marker, each enemy unit, and back toward home."""
    assert us.placement is not None
    goals: list[Point] = [m.position for m in state.markers]
    for e in state.enemies(us.side):
        assert e.placement is not None
        goals.append(geo.centroid(e.placement))
    cx, _ = geo.centroid(us.placement)
    goals.append((cx, home_edge(state, us.side)))
    return list(dict.fromkeys(goals))  # two goals at one point are one action


def unit_actions(state: WwpdState, us: WwpdUnitState) -> list[WwpdAction]:
    """The decisions open to one unit in the current phase."""
    phase = state.phase
    acts = [WwpdAction(Kind.HOLD, us.uid)]
    if phase == Phase.MOVEMENT.value:
        acts += [WwpdAction(Kind.MOVE, us.uid, to=g) for g in move_goals(state, us)]
    elif phase in (Phase.SHOOTING.value, Phase.FIREFIGHT.value):
        acts += [WwpdAction(Kind.SHOOT, us.uid, target=t) for t in shooting_targets(state, us)]
        if phase == Phase.FIREFIGHT.value and _may_cower(state, us):
            acts.append(WwpdAction(Kind.COWER, us.uid))
    elif phase == Phase.MELEE.value:
        acts += [WwpdAction(Kind.CHARGE, us.uid, target=t) for t in charge_targets(state, us)]
    return acts


def legal_actions(state: WwpdState) -> list[WwpdAction]:
    """Every decision open to the side to act, in canonical order."""
    if state.done:
        return []
    out: list[WwpdAction] = []
    if state.phase == "deploy":
        for us in _to_deploy(state, state.active):
            out += [WwpdAction(Kind.DEPLOY, us.uid, to=p) for p in deploy_candidates(state, us)]
    else:
        for us in _deciders(state):
            out += unit_actions(state, us)
    return sorted(out, key=WwpdAction.sort_key)


def is_legal(state: WwpdState, action: WwpdAction) -> bool:
    """Whether ``action`` may be taken now, including moves to any point of the table."""
    try:
        _validate(state, action)
    except UserError:
        return False
    return True


def _validate(state: WwpdState, a: WwpdAction) -> WwpdUnitState:
    def bad(msg: str) -> UserError:
        return UserError(msg, value=str(a), expected="an action from legal_actions()")

    if state.done:
        raise bad("the game is over")
    us = state.units.get(a.unit)
    if us is None or us.side != state.active:
        raise bad("not a unit of the side to act")
    if a.kind is Kind.DEPLOY:
        if state.phase != "deploy" or us not in _to_deploy(state, us.side):
            raise bad("this unit cannot deploy now")
        if a.to is None or a.target:
            raise bad("deploy needs a position and no target")
        problem = deploy_problem(state, us, a.to)
        if problem:
            raise bad(problem)
        return us
    if us not in _deciders(state):
        raise bad(f"this unit has no decision in the {state.phase} phase")
    if a.kind is Kind.HOLD:
        if a.to is not None or a.target:
            raise bad("hold takes no move and no target")
    elif a.kind is Kind.MOVE:
        t = state.table
        if state.phase != Phase.MOVEMENT.value or a.target or a.to is None:
            raise bad("moves are made in the Movement phase, to a point")
        if not (0 <= a.to[0] <= t.width and 0 <= a.to[1] <= t.depth):
            raise bad("move to a point on the table")
    elif a.kind is Kind.SHOOT:
        if a.to is not None or a.target not in shooting_targets(state, us):
            raise bad("target not in range and sight in this phase")
    elif a.kind is Kind.COWER:
        if state.phase != Phase.FIREFIGHT.value or not _may_cower(state, us) or a.target:
            raise bad('units cower in the Firefight, with an enemy within 12"')
    elif a.kind is Kind.CHARGE and (a.to is not None or a.target not in charge_targets(state, us)):
        raise bad("target not within charge reach (or the unit is pinned)")
    return us


# --- apply --------------------------------------------------------------------------------


def apply(state: WwpdState, action: WwpdAction) -> None:
    """Carry out ``action`` (checked: an illegal action raises a clear error)."""
    us = _validate(state, action)
    invalidate(state)
    if action.kind is Kind.DEPLOY:
        assert action.to is not None
        us.placement = formation(us.kits, action.to, facing(us.side))
        invalidate(state)
        state.log.add("deploy", unit=us.uid, side=us.side, at=_pt(action.to))
        state.active = 1 - state.active
        _next_deployer(state)
        return
    us.decided = True
    state.log.add(
        "decide",
        round=state.round,
        turn=state.turn,
        phase=state.phase,
        side=us.side,
        unit=us.uid,
        action=action.kind.value,
        to=None if action.to is None else _pt(action.to),
        target=action.target,
    )
    if action.kind is Kind.MOVE:
        _move(state, us, action)
    elif action.kind is Kind.SHOOT:
        if state.phase == Phase.FIREFIGHT.value and state.options.simultaneous_firefight:
            state.declared.append((us.uid, action.target))
        else:
            _fire_now(state, us, state.units[action.target])
    elif action.kind is Kind.COWER:
        us.cowering = True
    elif action.kind is Kind.CHARGE:
        _charge(state, us, state.units[action.target])
    invalidate(state)
    if state.done:
        return
    if not _deciders(state):
        _advance(state)


def _pt(p: Point) -> list[float]:
    return [round(float(p[0]), 3), round(float(p[1]), 3)]


def _move(state: WwpdState, us: WwpdUnitState, a: WwpdAction) -> None:
    assert us.placement is not None and a.to is not None
    before = geo.centroid(us.placement)
    us.placement = geo.move_toward(
        state.table, us.placement, state.others(us.uid), a.to, state.options.move
    )
    moved = math.dist(before, geo.centroid(us.placement))
    us.moved = moved > EPS
    state.log.add("move", unit=us.uid, distance=round(moved, 3))


def _roller(state: WwpdState) -> DiceRoller:
    return DiceRoller(state.rng, state.mechanic)


def cover_of(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> tuple[bool, bool]:
    """(soft, hard) cover of ``target`` from ``us``: the table's cover rule (GFF's), Hard when
    most of the target's models stand in a fortification preset (ruins, barricade)."""
    assert us.placement is not None and target.placement is not None
    covered = geo.in_cover(
        state.table,
        us.placement,
        target.placement,
        state.others(us.uid, target.uid),
        system="gff",
        cache=state.sight,
    )
    if not covered:
        return False, False
    hard_pieces = np.array(
        [(p.preset or "").casefold() in HARD_COVER_PRESETS for p in state.table.pieces],
        dtype=np.bool_,
    )
    alive = target.placement.alive
    inside = centres_in(state.table, target.placement.centres[alive])
    hard = bool(hard_pieces.any() and (inside[:, hard_pieces].any(axis=1).sum() * 2 > len(inside)))
    return not hard, hard


def shooting_attack_of(
    state: WwpdState, us: WwpdUnitState, target: WwpdUnitState, phase: Phase | None = None
) -> Attack:
    """The attack ``us`` would make on ``target`` now: models that see it fire the weapons
    that reach it; hits go to models in range of each weapon; cover from the table.

    The attacking commander's choice of a model to single out (weapons with ``single_out``) is
    not a decision of its own: the attacker follows the habit
    :func:`~oprlab.rules.wwpd.attack.single_out_pick` (the rarest kit in range it can damage),
    which keeps the legal actions what they were."""
    assert us.placement is not None and target.placement is not None
    d = _gap(state, us, target)
    phase = phase or (Phase.SHOOTING if d > FIREFIGHT_RANGE else Phase.FIREFIGHT)
    seeing = _sees(state, us, target)
    soft, hard = cover_of(state, us, target)
    conditions = Conditions(
        phase,
        soft_cover=soft,
        hard_cover=hard,
        target_cowering=target.cowering,
        attacker_cowering_or_suppressed=us.cowering or us.pinned,
        moved=us.moved,
    )
    # per attacking model, per target model: base-to-base distance
    pa, pt = us.placement, target.placement
    dist = np.linalg.norm(pa.centres[:, None, :] - pt.centres[None, :, :], axis=2)
    dist = dist - pa.radii[:, None] - pt.radii[None, :]
    in_range: dict[str, list[bool]] = {}
    for i, k in enumerate(us.kits):
        if not (us.alive[i] and seeing[i]):
            continue
        for w in k.ranged:
            row = in_range.setdefault(w.name, [False] * len(target.kits))
            for j in range(len(target.kits)):
                row[j] = row[j] or bool(dist[i, j] <= (w.range or 0))
    return shooting_attack(
        us.unit,
        target.unit,
        conditions,
        attacker_alive=us.alive,
        target_alive=target.alive,
        firing=[bool(s) for s in seeing],
        distance=d,
        in_range={name: row for name, row in in_range.items()},
        order=_order(state, target),
        options=state.options.attack,
    )


def _order(state: WwpdState, target: WwpdUnitState) -> tuple[int, ...]:
    """The defender's habit: spare hits on the most common kit; keep models on markers."""
    base = defender_order(target.kits)
    if target.placement is None or not state.markers:
        return base
    c, r = target.placement.centres, target.placement.radii
    holds = np.zeros(len(r), dtype=np.bool_)
    for m in state.markers:
        holds |= np.linalg.norm(c - np.asarray(m.position), axis=1) - r <= OBJECTIVE_RANGE
    rank = {m: i for i, m in enumerate(base)}
    return tuple(sorted(base, key=lambda i: (bool(holds[i]), rank[i])))


def _fire(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> AttackResult | None:
    """Roll one shooting or firefight attack; casualties are returned, not yet removed."""
    attack = shooting_attack_of(state, us, target, Phase(state.phase))
    if not attack.volleys:
        return None
    result = resolve(attack, _roller(state))
    c = attack.conditions
    # Only attacks with a singling-out weapon carry the extra field, so other logs are unchanged.
    chosen = {v.name: v.singled_out for v in attack.volleys if v.singled_out is not None}
    extra: dict[str, Any] = {"singled_out": chosen} if chosen else {}
    state.log.add(
        state.phase,
        unit=us.uid,
        target=target.uid,
        dice=attack.dice,
        volleys=[[v.name, v.dice, v.to_hit] for v in attack.volleys],
        cover="hard" if c.hard_cover else "soft" if c.soft_cover else "none",
        hits=result.total_hits,
        wounds=result.wounds,
        saves=result.saves,
        casualties=result.casualties,
        **extra,
    )
    return result


def _fire_now(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> None:
    result = _fire(state, us, target)
    if result is not None:
        _remove(state, target, result.removed)
        _pinning(state, target, result.casualties)
        _check_end(state)


def _resolve_declared(state: WwpdState) -> None:
    """The simultaneous Firefight: every declared attack, then every casualty."""
    losses: list[tuple[WwpdUnitState, tuple[int, ...]]] = []
    for uid, target_uid in state.declared:
        us, target = state.units[uid], state.units[target_uid]
        if not (us.on_table and target.on_table):
            continue
        result = _fire(state, us, target)
        if result is not None and result.removed:
            losses.append((target, result.removed))
    state.declared = []
    lost: dict[str, int] = {}
    for target, removed in losses:
        before = target.models
        _remove(state, target, removed)
        lost[target.uid] = lost.get(target.uid, 0) + before - target.models
    for uid, n in lost.items():
        _pinning(state, state.units[uid], n)
    _check_end(state)


def _remove(state: WwpdState, target: WwpdUnitState, removed: Sequence[int]) -> None:
    gone = [i for i in removed if target.alive[i]]
    if not gone or target.placement is None:
        return
    for i in gone:
        target.alive[i] = False
    target.placement.removed[gone] = True
    state.log.add("casualties", unit=target.uid, models=len(gone), left=target.models)
    if target.destroyed:
        state.log.add("destroyed", unit=target.uid, side=target.side)


def _pinning(state: WwpdState, us: WwpdUnitState, lost: int) -> None:
    """A unit that lost models to fire may be pinned (our reading; :class:`GameOptions`)."""
    rule = state.options.pinning
    if lost <= 0 or us.destroyed or us.pinned or rule == "off":
        return
    if rule == "losses":
        us.pinned = True
    else:
        leadership = min(k.profile.leadership for k, a in zip(us.kits, us.alive, strict=True) if a)
        passed = _roller(state).roll(Check(Test.MORALE, leadership)).success
        state.log.add("leadership", unit=us.uid, target=leadership, passed=passed)
        us.pinned = not passed
    if us.pinned:
        state.log.add("pinned", unit=us.uid)


def reach_masks(
    attacker: Placement, defender: Placement
) -> list[tuple[list[bool], list[bool]] | None]:
    """Per attacking model: the defending models within 2" and in base contact (``None``: none
    within 2", or the model is gone)."""
    d = np.linalg.norm(attacker.centres[:, None, :] - defender.centres[None, :, :], axis=2)
    d = d - attacker.radii[:, None] - defender.radii[None, :]
    out: list[tuple[list[bool], list[bool]] | None] = []
    for i in range(len(attacker.radii)):
        if attacker.removed[i]:
            out.append(None)
            continue
        within = [
            bool(d[i, j] <= MELEE_RANGE + EPS) and not defender.removed[j]
            for j in range(len(defender.radii))
        ]
        contact = [w and bool(d[i, j] <= CONTACT_TOL) for j, w in enumerate(within)]
        out.append((within, contact) if any(within) else None)
    return out


def melee_attack_of(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> Attack:
    """``us``'s models within 2" of ``target`` strike it (hits on models in contact first)."""
    assert us.placement is not None and target.placement is not None
    return melee_attack(
        us.unit,
        target.unit,
        attacker_alive=us.alive,
        target_alive=target.alive,
        reach=reach_masks(us.placement, target.placement),
        order=_order(state, target),
        options=state.options.attack,
    )


def _charge(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> None:
    """Charge into base contact; both units' models within 2" fight; then step apart."""
    assert us.placement is not None and target.placement is not None
    moved = geo.charge_move(
        state.table, us.placement, target.placement, state.others(us.uid), state.options.charge
    )
    if moved is None:
        state.log.add("charge_failed", unit=us.uid, target=target.uid)
        return
    us.placement = moved
    roller = _roller(state)
    results = []
    for a, b in ((us, target), (target, us)):
        attack = melee_attack_of(state, a, b)
        r = resolve(attack, roller)
        results.append((b, r))
        state.log.add(
            "melee",
            unit=a.uid,
            target=b.uid,
            dice=attack.dice,
            hits=r.total_hits,
            wounds=r.wounds,
            saves=r.saves,
            casualties=r.casualties,
        )
    for b, r in results:  # both fight: casualties come off together
        _remove(state, b, r.removed)
    if us.on_table and target.on_table:
        assert us.placement is not None and target.placement is not None
        us.placement = geo.separate(
            state.table, us.placement, target.placement, state.others(us.uid, target.uid)
        )
        state.log.add("separate", unit=us.uid, gap=round(_gap(state, us, target), 3))
    _check_end(state)


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
