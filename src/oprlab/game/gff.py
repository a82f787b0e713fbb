"""A whole GFF game (seed 003): objectives, deployment, four rounds, morale, the winner.

The procedure is written as OpenSpiel-style functions on a :class:`GameState`:
:func:`legal_actions` lists the decisions open to the side to act in canonical order,
:func:`is_legal` checks any action (a move to any point), and :func:`apply` carries one out,
rolling every check through the game's mechanic and logging every event. Commanders only ever
choose among actions; dice enter through the mechanic with the game's seeded generator.

An activation is one or two decisions: the action (Hold, Advance, Rush, Charge, or Idle when
Shaken), then, after Hold or Advance with a target in range, the shooting (``SHOOT``: up to two
targets with different weapon types, or hold fire), and after a melee in which one unit was
destroyed, the survivor's move of up to 3" (``CONSOLIDATE``, decided by the survivor's side).
The other side may interrupt with its own decisions: ``RESIST`` (phase ``resist``) before a
spell's roll and ``DEFEND`` (phase ``defend``) before the Defense rolls of a shot, of each
attack of a melee exchange or of a spell's hits. Under clock-bennies an activation may start
with phase ``clocks``: the side sets any clock in play with a benny, or passes.

Readings (docs/rules/gff.md "Full games"): the deployment roll-off winner picks a table edge
(``CHOOSE_ZONE``; :class:`~oprlab.game.gff_setup.GffOptions`), deploys first and goes first in
round 1; models standing in dangerous terrain roll when their unit activates (once per
activation by default); Scout and Ambush units always use their rule and Ambush units arrive
at the start of round 2; casualties are the defender's choice, made by a fixed habit (keep
models on objectives, remove those nearest the attacker, keep cohesion);
morale tests use the Quality of a Hero that is not Shaken when the morale step begins; morale
comes before objectives at the end of a round; roll-offs and the D3 of objectives use the game's
generator under every mechanic. Under ``clock-bennies`` a Shoot or Charge may spend a benny on
one extra attack, before a shot a benny may set any clock to 1..6 (``SET_CLOCK``, seed 000
variation 5; also at the start of each activation), and once an attack's hits are known the
side hit may spend bennies to defend against them (``DEFEND``, :mod:`oprlab.game.gff_defend`).
Armies with a unit too big for its deployment zone are refused (:mod:`oprlab.game.gff_room`).
A Limited weapon is used in one attack, then leaves the unit's profile
(:mod:`oprlab.game.gff_limited`); a Blast shot shares its hits with the enemy units within 3"
of its target (:mod:`oprlab.game.gff_blast`).
Caster(X) units get X spell tokens each round (at most 6) and may try each spell of
:data:`SPELLS` once per activation (``CAST``) before their action, the other side's Casters in
reach may spend tokens against it first (``RESIST``); army lists carry no spells, so
:data:`SPELLS` is oprlab's stand-in (docs/rules/gff.md "Caster"). Movement, line of sight and
cover come from :mod:`oprlab.game.geometry`.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from oprlab.errors import OptionError, UserError
from oprlab.game import activation, bennies, benny_defence, deploy_search, objectives
from oprlab.game import casting as caster
from oprlab.game import casualties as losses
from oprlab.game import geometry as geo
from oprlab.game import gff_blast as blast
from oprlab.game import gff_casting as casting
from oprlab.game import gff_defend as defend
from oprlab.game import gff_limited as limited
from oprlab.game import gff_melee as fight
from oprlab.game import gff_moves as moves
from oprlab.game import gff_room as room
from oprlab.game import gff_setup as edges
from oprlab.game import gff_shooting as shooting
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_casting import Casting
from oprlab.game.gff_setup import GffOptions
from oprlab.game.gff_shooting import others as _others
from oprlab.game.gff_shooting import (
    ranged_weapons,
    shooting_targets,
)
from oprlab.game.gff_shooting import seeing as _seeing
from oprlab.game.opr.hooks import OprRules, Step, opr_rules
from oprlab.game.state import GameState, Objective, Pending, Phase, UnitState
from oprlab.mechanics import Check, Mechanic, Test
from oprlab.mechanics.clock_state import ClockState
from oprlab.rules.gff import melee
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    defense_check,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.gff.melee import Side
from oprlab.rules.gff.melee import UnitState as MeleeState
from oprlab.rules.gff.profile import AttackProfile, defender_profile
from oprlab.rules.gff.resolve import AttackResult, Roller, finish, resolve_attack
from oprlab.rules.gff.wounds import take_wounds
from oprlab.table import charge as table_charge
from oprlab.table.formation import is_coherent
from oprlab.table.model import Placement, Point, Table
from oprlab.table.movement import MoveRules, dangerous_terrain_checks
from oprlab.table.special_moves import PUSH_TARGET, fall, land
from oprlab.units.model import Army, Unit, Weapon
from oprlab.units.rule_scope import any_has, unit_rule

ROUNDS = 4
OBJECTIVE_RANGE = objectives.OBJECTIVE_RANGE
OBJECTIVE_SPACING = objectives.OBJECTIVE_SPACING
AMBUSH_DISTANCE = 9.0
HERO_AURA = 12.0
SCOUT_DEPTH = 12.0
#: After Combat: "the other may move by up to 3"", "chargers must ... separate by 1"".
CONSOLIDATE_INCHES = 3.0
SEPARATE_INCHES = 1.0
#: Striking: "Models must strike enemies within 2" horizontally".
STRIKE_RANGE = 2.0
#: Fearless: "roll one die. On a 4+ it counts as passed instead".
FEARLESS_ROLL = 4
EPS = 1e-6
DEPLOY_PHASES = (Phase.ZONE, Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)
#: Caster(X) (shared with Riverside: :mod:`oprlab.game.casting`).
SPELL_TOKENS_MAX = caster.SPELL_TOKENS_MAX
CASTING_ROLL = caster.CASTING_ROLL
BOOST_RANGE = caster.BOOST_RANGE
BOOST_LISTED = caster.BOOST_LISTED
#: Clock values a benny may set (:data:`oprlab.game.bennies.CLOCK_VALUES`).
CLOCK_VALUES = bennies.CLOCK_VALUES


Spell = caster.Spell
#: The spells every Caster knows (:data:`oprlab.game.casting.SPELLS`).
SPELLS = caster.SPELLS


# --- setup --------------------------------------------------------------------------------


def new_game(
    army_a: Army,
    army_b: Army,
    *,
    seed: int,
    mechanic: str | Mechanic = "d6",
    table: Table | None = None,
    log: bool = True,
    options: GffOptions | None = None,
    rules: OprRules | None = None,
) -> GameState:
    """A game ready for objectives and deployment; checks that both armies can play.

    ``rules``: the procedure that plays it (:class:`GffRules`, or a house rule's subclass).
    """
    for i, army in enumerate((army_a, army_b)):
        if not army.units:
            raise UserError(f"army {i + 1} has no units", value=army.name, expected="a unit")
        if army.system and army.system.upper() not in {"GFF", "GF"}:
            raise UserError(
                f"army {i + 1} is for another game system",
                value=army.system,
                expected="a GFF (or GF) list for the gff rules",
            )
    opts = options or GffOptions()
    t = table or Table()
    for i, army in enumerate((army_a, army_b)):
        for unit in army.units:
            room.check_room(i, army, unit, _zones(t, unit, opts), (t.width, t.depth))
    state = activation.new_state(
        "gff",
        army_a,
        army_b,
        seed=seed,
        mechanic=mechanic,
        table=table,
        rounds=ROUNDS,
        log=log,
        rules=rules or GffRules(),
    )
    first = int(state.rng.integers(2))  # Mission 2: roll-off; the winner places the first marker
    count = int(state.rng.integers(1, 4)) + 2  # Mission 1: D3 + 2
    if state.table.objectives:  # a table that comes with its markers (table.deploy)
        count = len(state.table.objectives)
    state.objectives_left = count
    state.options = opts
    state.edges = list(edges.DEFAULT_EDGES)
    state.active = first
    state.phase = Phase.OBJECTIVES
    state.mechanic_name = mechanic if isinstance(mechanic, str) else state.mechanic.name
    state.log.add("setup", seed=seed, mechanic=repr(state.mechanic), objectives=count, first=first)
    if state.table.objectives:
        for point in state.table.objectives:
            state.objectives.append(Objective(point))
            state.log.add("objective", side=None, at=list(point))
        state.objectives_left = 0
        _start_deployment(state)
    elif opr_rules(state).placing_done(state):  # no point for a marker at all (a tiny table)
        _start_deployment(state)
    return state


def _zones(table: Table, unit: Unit, opts: GffOptions) -> list[tuple[Placement, room.Zone]]:
    """Each zone ``unit`` may have to deploy in, with its formation there (``gff_room``).

    Any edge the roll-off may give (``GffOptions.edges``), 12" deep (Scout: 24"); Ambush
    units arrive anywhere on the table.
    """
    if unit_rule(unit, "Ambush"):
        return [
            (
                _formation_at_origin(unit, unit.size, facing(0)),
                ("table", (0.0, 0.0, table.width, table.depth), True),
            )
        ]
    depth = table.deployment_depth + (SCOUT_DEPTH if unit_rule(unit, "Scout") else 0.0)
    return [
        (
            _formation_at_origin(unit, unit.size, edges.heading(edge)),
            (f"{edge} deployment zone", edges.zone_box(table, edge, depth), edges.along_y(edge)),
        )
        for edge in edges.EDGE_SETS[opts.edges]
    ]


def options_of(state: GameState) -> GffOptions:
    """The game's readings (:class:`~oprlab.game.gff_setup.GffOptions`)."""
    opts = state.options
    return opts if isinstance(opts, GffOptions) else GffOptions()


def edge_of(state: GameState, side: int) -> str:
    """The table edge ``side`` deploys along (``"south"`` for A, ``"north"`` for B until the
    deployment roll-off winner picks, seed 003 "Deployment" 1-2)."""
    chosen = state.edges
    return str(chosen[side]) if chosen else edges.DEFAULT_EDGES[side]


def deployment_zone(state: GameState, side: int, *, scout: bool = False) -> edges.Box:
    """The box ``(xmin, ymin, xmax, ymax)`` a side deploys in: 12" from its edge (Scout: 12"
    more, "within 12" of the deployment zone")."""
    depth = state.table.deployment_depth + (SCOUT_DEPTH if scout else 0.0)
    return edges.zone_box(state.table, edge_of(state, side), depth)


def facing(side: int, edge: str | None = None) -> float:
    """Formations face the enemy edge (``edge``: the side's own; default A south, B north)."""
    return edges.heading(edge or edges.DEFAULT_EDGES[side])


def objective_problem(state: GameState, point: Point) -> str | None:
    return opr_rules(state).objective_problem(state, point)


def _marker_placing(state: GameState, point: Point) -> str | None:
    """Mission 3 but the spacing: on the table, outside the deployment zones."""
    t = state.table
    x, y = point
    if not (0.0 <= x <= t.width and 0.0 <= y <= t.depth):
        return "objective marker off the table"
    if not edges.outside_zones(t, edges.EDGE_SETS[options_of(state).edges], point):
        return "objective markers go outside the deployment zones"
    return None


def objective_candidates(state: GameState) -> list[Point]:
    return opr_rules(state).objective_candidates(state)


def deploy_problem(state: GameState, us: UnitState, point: Point, per_row: int = 0) -> str | None:
    """Why ``us`` may not be placed centred at ``point`` now (in ranks of ``per_row``; 0: its
    usual formation), or ``None`` if it may.

    Deployment 3: wholly within 12" of its edge; Scout: within 12" of its zone; Ambush: over 9"
    from every enemy unit; always on the table and 1" clear of other units (Movement).
    """
    if not 0 <= per_row <= us.models:
        return f"a formation has 1 to {us.models} models in each rank (0: the usual one)"
    return _deploy_problem(state, us, point, _obstacles(state, us), per_row)


#: Another unit as an obstacle: its placement, a bounding circle (x, y, radius), an enemy?
_Obstacle = tuple[Placement, float, float, float, bool]


def _obstacles(state: GameState, us: UnitState) -> list[_Obstacle]:
    out: list[_Obstacle] = []
    for o in state.units.values():
        if o.uid == us.uid or not o.on_table or o.placement is None:
            continue
        x, y, reach = _bounding_circle(o.placement)
        out.append((o.placement, x, y, reach, o.side != us.side))
    return out


#: Deployment is asked about the same units and points many times over (every decision of
#: the deployment lists every unit's candidates again). What depends on positions is memoised
#: on their bytes; what depends on the table and a unit's formation, on their identity (each
#: entry holds the table and the unit, so their ids stay unique while it is there).
_CIRCLES: dict[tuple[bytes, bytes, bytes], tuple[float, float, float]] = {}
_FORMATIONS: dict[tuple[int, int, float, int], tuple[Unit, Placement, float]] = {}
_STANDS: dict[tuple[object, ...], tuple[Table, Unit, Placement, str | None]] = {}
_CACHE_LIMIT = 16384


def _bounding_circle(p: Placement) -> tuple[float, float, float]:
    """The alive models' mean centre and the radius of the circle round it that holds them."""
    key = (p.centres.tobytes(), p.radii.tobytes(), p.removed.tobytes())
    found = _CIRCLES.get(key)
    if found is None:
        c, r = p.centres[p.alive], p.radii[p.alive]
        mid = c.mean(axis=0)
        reach = float((np.hypot(c[:, 0] - mid[0], c[:, 1] - mid[1]) + r).max())
        found = (float(mid[0]), float(mid[1]), reach)
        if len(_CIRCLES) >= _CACHE_LIMIT:
            _CIRCLES.clear()
        _CIRCLES[key] = found
    return found


def _origin_formation(
    unit: Unit, models: int, heading: float, per_row: int = 0
) -> tuple[Placement, float]:
    """:func:`_formation_at_origin` by identity, and the radius of the circle that holds it."""
    found = _FORMATIONS.get((id(unit), models, heading, per_row))
    if found is None or found[0] is not unit:
        base = _formation_at_origin(unit, models, heading, per_row)
        own = float((np.hypot(base.centres[:, 0], base.centres[:, 1]) + base.radii).max())
        if len(_FORMATIONS) >= _CACHE_LIMIT:
            _FORMATIONS.clear()
        found = _FORMATIONS[(id(unit), models, heading, per_row)] = (unit, base, own)
    return found[1], found[2]


def _standing(
    state: GameState, us: UnitState, point: Point, zone: edges.Box | None, per_row: int = 0
) -> tuple[Placement, str | None]:
    """The unit's formation at ``point`` and what is wrong there whatever other units do:
    off the table, or (``zone``: the box it deploys in) not wholly inside its zone."""
    table = state.table
    heading = facing(us.side, edge_of(state, us.side))
    # only the table's size matters here (not its terrain): games on equal tables share it
    key = (table.width, table.depth, id(us.unit), us.models, heading, point, zone, per_row)
    found = _STANDS.get(key)
    if found is not None and found[1] is us.unit:
        return found[2], found[3]
    base, _ = _origin_formation(us.unit, us.models, heading, per_row)
    p = geo.translated(base, point[0], point[1])
    problem: str | None = None
    if not geo.inside_table(table, p):
        problem = "the unit does not fit on the table there"  # (cheaper than fits: first)
    elif zone is not None:
        x0, y0, x1, y1 = zone
        xs, ys, r = p.centres[:, 0], p.centres[:, 1], p.radii
        if (
            float((ys - r).min()) < y0 - EPS
            or float((ys + r).max()) > y1 + EPS
            or float((xs - r).min()) < x0 - EPS
            or float((xs + r).max()) > x1 + EPS
        ):
            problem = "the unit must be wholly inside its deployment zone"
    if len(_STANDS) >= _CACHE_LIMIT:
        _STANDS.clear()
    _STANDS[key] = (table, us.unit, p, problem)
    return p, problem


def _deploy_problem(
    state: GameState, us: UnitState, point: Point, obstacles: list[_Obstacle], per_row: int = 0
) -> str | None:
    ambush = state.phase == Phase.AMBUSH
    zone = None if ambush else deployment_zone(state, us.side, scout=us.reserve == "scout")
    p, problem = _standing(state, us, point, zone, per_row)
    if problem is not None:
        return problem
    heading = facing(us.side, edge_of(state, us.side))
    _, own = _origin_formation(us.unit, us.models, heading, per_row)
    near: list[Placement] = []
    for other, x, y, reach, enemy in obstacles:
        apart = math.hypot(x - point[0], y - point[1]) - reach - own  # a lower bound of the gap
        if ambush and enemy and apart <= AMBUSH_DISTANCE and geo.gap(p, other) <= AMBUSH_DISTANCE:
            return 'Ambush units deploy over 9" from enemy units'
        if apart < geo.SPACING + 0.5:
            near.append(other)
    if state.table.pieces:
        # A unit that does not fit alone does not fit beside others either (the table edge,
        # terrain and cohesion are its own; other units only add overlaps and spacing): a
        # known answer alone settles a point whatever stands near it.
        alone = geo._known_fits(state.table, p, []) if near else None
        if alone is False or not geo.fits(state.table, p, near):
            return 'the unit must stand clear of impassable terrain and 1" from other units'
    elif any(geo.gap(p, o) < geo.SPACING - EPS for o in near):
        return 'units may not be within 1" of other units'
    return None


@lru_cache(maxsize=1024)
def _formation_at_origin(unit: Unit, models: int, heading: float, per_row: int = 0) -> Placement:
    """The deployment formation centred on (0, 0); candidates translate it (never mutate).
    ``per_row``: models in each rank (0: the usual ranks of up to 5)."""
    return geo.formation(unit, models, (0.0, 0.0), heading, per_row)


def deploy_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres where the unit's formation fits wholly inside its zone, clear of others."""
    return list(_deploy_points(state, us))


def ambush_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres anywhere over 9" from enemy units (a 4" grid)."""
    return list(_ambush_points(state, us))


def _deploy_points(state: GameState, us: UnitState) -> Iterator[Point]:
    """Three rows across the zone's depth, one point every 4" along its edge."""
    x0, y0, x1, y1 = deployment_zone(state, us.side, scout=us.reserve == "scout")
    obstacles = _obstacles(state, us)
    t = state.table
    if edges.along_y(edge_of(state, us.side)):
        for y in np.linspace(y0 + 2.5, y1 - 2.5, 3):
            for x in np.arange(4.0, t.width - 3.9, 4.0):
                p = (float(x), float(y))
                if _deploy_problem(state, us, p, obstacles) is None:
                    yield p
        return
    for x in np.linspace(x0 + 2.5, x1 - 2.5, 3):
        for y in np.arange(4.0, t.depth - 3.9, 4.0):
            p = (float(x), float(y))
            if _deploy_problem(state, us, p, obstacles) is None:
                yield p


def _ambush_points(state: GameState, us: UnitState) -> Iterator[Point]:
    t = state.table
    obstacles = _obstacles(state, us)
    for x in np.arange(4.0, t.width - 3.9, 4.0):
        for y in np.arange(4.0, t.depth - 3.9, 4.0):
            p = (float(x), float(y))
            if _deploy_problem(state, us, p, obstacles) is None:
                yield p


def deploy_options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    """The spots offered to ``us`` with its formation there: the grid in its usual ranks, or,
    once its side's units outgrow the grid, packed spots in any shape it may take
    (:mod:`oprlab.game.deploy_search`). Remembered until a unit is placed."""
    return deploy_search.remembered(state, us, lambda: list(_options(state, us)))


def _options(state: GameState, us: UnitState) -> Iterator[deploy_search.Option]:
    ambush = state.phase == Phase.AMBUSH
    zone = (
        (0.0, 0.0, state.table.width, state.table.depth)
        if ambush
        else deployment_zone(state, us.side, scout=us.reserve == "scout")
    )
    heading = facing(us.side, edge_of(state, us.side))
    need = sum(_footprint(u.unit, u.models, heading) for u in _to_deploy(state, us.side))
    if ambush or not deploy_search.crowded(state, zone, need):
        grid = _ambush_points(state, us) if ambush else _deploy_points(state, us)
        first = next(grid, None)
        if first is not None:
            yield first, 0
            yield from ((p, 0) for p in grid)
            return
    blocks = deploy_search.blockers(state, us, AMBUSH_DISTANCE if ambush else geo.SPACING)
    yield from deploy_search.packed_options(
        state,
        zone,
        _shapes(us.unit, us.models, heading),
        blocks,
        lambda p, k: _ground(state, us, p, k),
    )


def _ground(state: GameState, us: UnitState, point: Point, per_row: int) -> str | None:
    """What a packed spot (:mod:`oprlab.game.deploy_search`) leaves to check: terrain."""
    if not state.table.pieces:
        return None
    heading = facing(us.side, edge_of(state, us.side))
    p = geo.translated(_origin_formation(us.unit, us.models, heading, per_row)[0], *point)
    if not geo.fits(state.table, p, []):
        return "the unit must stand clear of impassable terrain"
    return None


@lru_cache(maxsize=1024)
def _footprint(unit: Unit, models: int, heading: float) -> float:
    return deploy_search.footprint(_formation_at_origin(unit, models, heading))


@lru_cache(maxsize=1024)
def _shapes(unit: Unit, models: int, heading: float) -> list[tuple[int, Placement]]:
    """The usual formation, then ranks of each width that keeps GFF cohesion (each model
    within 1" of another and 6" of all others, seed 003 "MOVEMENT")."""

    def make(k: int) -> Placement | None:
        p = _formation_at_origin(unit, models, heading, k)
        return p if is_coherent(p, "gff") else None

    return deploy_search.shapes(models, _formation_at_origin(unit, models, heading), make)


def no_room_reason(state: GameState, us: UnitState) -> str:
    """Why ``us`` finds no spot: where it had to stand and what was in the way."""
    others = sum(u.on_table for u in state.units.values())
    shapes = len(_shapes(us.unit, us.models, facing(us.side, edge_of(state, us.side))))
    if state.phase == Phase.AMBUSH:
        where = 'over 9" from every enemy unit'
    else:
        depth = state.table.deployment_depth + (SCOUT_DEPTH if us.reserve == "scout" else 0.0)
        where = f'within {depth:g}" of the {edge_of(state, us.side)} edge'
    return (
        f'no spot {where}, 1" from the {others} units on the table and off impassable '
        f"terrain, in any of {shapes} formations of its {us.models} models"
    )


# --- what a unit can do -------------------------------------------------------------------


def _to_deploy(state: GameState, side: int) -> list[UnitState]:
    phase = state.phase
    want = "scout" if phase == Phase.SCOUT else "ambush" if phase == Phase.AMBUSH else None
    return [
        u for u in state.side_units(side) if u.placement is None and u.alive and u.reserve == want
    ]


_can_activate = activation.can_activate


#: :func:`move_allowance` by the unit's identity (a frozen Unit's hash walks every field): each
#: entry holds its unit, so the id cannot be reused while the entry is there.
_ALLOWANCES: dict[tuple[int, Kind], tuple[Unit, float]] = {}


def move_allowance(unit: Unit, kind: Kind) -> float:
    """Advance 6", Rush/Charge 12"; Fast +2"/+4", Slow -2"/-4" (seed 003)."""
    found = _ALLOWANCES.get((id(unit), kind))
    if found is not None and found[0] is unit:
        return found[1]
    if len(_ALLOWANCES) >= 4096:
        _ALLOWANCES.clear()
    inches = _move_allowance(unit, kind)
    _ALLOWANCES[(id(unit), kind)] = (unit, inches)
    return inches


@lru_cache(maxsize=4096)
def _move_allowance(unit: Unit, kind: Kind) -> float:
    base = {Kind.ADVANCE: 6.0, Kind.RUSH: 12.0, Kind.CHARGE: 12.0}.get(kind, 0.0)
    if not base:
        return 0.0
    fast = 2.0 if kind is Kind.ADVANCE else 4.0
    if unit_rule(unit, "Fast"):
        base += fast
    if unit_rule(unit, "Slow"):
        base -= fast
    return base


def move_goals(state: GameState, us: UnitState) -> list[Point]:
    """Canonical destinations: each objective, each enemy unit, and back toward home."""
    goals = activation.marker_and_enemy_goals(state, us)
    assert us.placement is not None
    goals.append(edges.home_point(state.table, edge_of(state, us.side), geo.centroid(us.placement)))
    return list(dict.fromkeys(goals))  # two goals at one point are one action


def charge_targets(state: GameState, us: UnitState) -> list[str]:
    """Enemy units within charge distance (at least one model can reach base contact)."""
    assert us.placement is not None
    if not any(w.melee for w in us.unit.weapons) and not any_has(us.unit, "Impact"):
        return []
    reach = move_allowance(us.unit, Kind.CHARGE)
    return [
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None and geo.gap(us.placement, e.placement) <= reach
    ]


bennies_available = bennies.bennies_available


def legal_actions(state: GameState) -> list[Action]:
    """Every decision open to the side to act, in canonical order (the game's own rules)."""
    return state.rules.legal_actions(state)


def unit_actions(state: GameState, us: UnitState) -> list[Action]:
    """The actions one unit may take on activation (its shooting is the next decision)."""
    if us.shaken:
        return [Action(Kind.IDLE, us.uid)]  # Shaken: must stay idle to stop being Shaken
    acts = [Action(Kind.HOLD, us.uid)]
    if unit_rule(us.unit, "Immobile"):
        return acts
    goals = move_goals(state, us)
    targets = charge_targets(state, us)
    extra = bool(_melee_weapons(us.unit)) and bennies_available(state, us.side) > 0
    return activation.unit_action_list(us, acts, goals, targets, benny_charges=extra)


def _melee_weapons(unit: Unit) -> list[Weapon]:
    return [w for w in unit.weapons if w.melee]


caster_rating = caster.caster_rating


def spell_targets(state: GameState, us: UnitState, spell: Spell) -> list[str]:
    """Enemy units within the spell's range and in line of sight of one of the caster's models.

    Seed 003 "Caster(X)": "resolve the effect on a target in line of sight".
    """
    assert us.placement is not None
    out = []
    for e in state.enemies(us.side):
        assert e.placement is not None
        if geo.gap(us.placement, e.placement) <= spell.range and _seeing(state, us, e).any():
            out.append(e.uid)
    return out


def spell_helpers(state: GameState, us: UnitState) -> list[UnitState]:
    """Friendly Casters with tokens within 18" and in line of sight of ``us``, nearest first.

    Seed 003 "Caster(X)": they "may spend any number of spell tokens at the same time".
    """
    return _casters_near(state, us, state.friends(us.side))


def _casters_near(state: GameState, us: UnitState, units: list[UnitState]) -> list[UnitState]:
    """Seed 003: GFF's line of sight (some model of the Caster sees the unit)."""
    return caster.casters_near(us, units, lambda f: bool(_seeing(state, f, us).any()))


def cast_actions(state: GameState, us: UnitState, tried: tuple[str, ...] = ()) -> list[Action]:
    """The spells ``us`` may try now: each spell not yet tried, value, target and boost.

    A Shaken unit casts nothing: it "must spend one full activation idle".
    """
    if us.shaken or us.spell_tokens <= 0 or not us.on_table:
        return []
    spare = sum(f.spell_tokens for f in spell_helpers(state, us))
    return caster.cast_actions(us, tried, spare, lambda sp: spell_targets(state, us, sp))


_spell = caster.spell


can_set_clocks = bennies.can_set_clocks


def shoot_actions(state: GameState, us: UnitState) -> list[Action]:
    """Hold fire, each target, each split (:func:`gff_shooting.shoot_actions`), then a benny
    setting a clock before the shot."""
    acts = shooting.shoot_actions(state, us)
    targets = list(dict.fromkeys(a.target for a in acts if a.target))
    return acts + set_clock_actions(state, us, targets)


def set_clock_actions(state: GameState, us: UnitState, targets: list[str]) -> list[Action]:
    """Before the shot, a benny may set a clock: the shooter's or a target's, to 1..6.

    Seed 000 variation 5: "Roll any clock (friend or foe) immediately to any value". One clock
    per activation; the clocks are named by a unit that uses them (one name per clock).
    """
    return bennies.set_clock_actions(state, us, targets, need_target=False)


def consolidate_actions(state: GameState, us: UnitState) -> list[Action]:
    """Stay, or move up to 3" toward an objective or an enemy unit."""
    goals = [o.position for o in state.objectives]
    for e in state.enemies(us.side):
        assert e.placement is not None
        goals.append(geo.centroid(e.placement))
    acts = [Action(Kind.CONSOLIDATE, us.uid)]
    return acts + [Action(Kind.CONSOLIDATE, us.uid, to=g) for g in dict.fromkeys(goals)]


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` may be taken now (the game's own rules)."""
    return state.rules.is_legal(state, action)


_on_table = activation.on_table


def _validate(state: GameState, a: Action) -> UnitState | None:
    def bad(msg: str) -> UserError:
        return UserError(msg, value=str(a), expected="an action from legal_actions()")

    if state.done:
        raise bad("the game is over")
    if a.kind is not Kind.SHOOT and (a.second or a.split):
        raise bad("only shooting takes a second target or a weapon split")
    if a.kind not in (Kind.CAST, Kind.SET_CLOCK) and (a.spell or a.boost):
        raise bad("only casting takes a spell and a boost")
    if a.kind not in (Kind.CAST, Kind.SET_CLOCK, Kind.RESIST, Kind.DEFEND, Kind.STRIKE_BACK) and (
        a.value
    ):
        raise bad(
            "only casting, setting a clock, resisting, defending and striking back take a value"
        )
    if a.benny and a.kind not in (Kind.SHOOT, Kind.CHARGE):
        raise bad("a benny buys an extra attack: only when shooting or charging")
    if a.benny and a.kind is Kind.CHARGE and bennies_available(state, state.active) <= 0:
        raise bad("no bennies left")
    if a.choice and a.kind is not Kind.CHOOSE_ZONE:
        raise bad("only the deployment roll-off winner's zone choice takes a choice")
    if a.formation and a.kind is not Kind.DEPLOY:
        raise bad("only deploying takes a formation")
    if a.kind is Kind.CHOOSE_ZONE:
        if state.phase != Phase.ZONE:
            raise bad("no deployment edge to pick now")
        if a.unit or a.to is not None or a.target or a.benny:
            raise bad("choose_zone takes only a choice")
        offered = zone_choices(state)
        if a.choice not in offered:
            raise bad(f"the roll-off winner picks one of the edges {', '.join(offered)}")
        return None
    if a.kind is Kind.PLACE_OBJECTIVE:
        problem = activation.objective_action_problem(state, a, objective_problem)
        if problem:
            raise bad(problem)
        return None
    if state.phase == Phase.CLOCKS or (a.kind is Kind.SET_CLOCK and not a.unit):
        if state.phase != Phase.CLOCKS or a.kind is not Kind.SET_CLOCK:
            raise bad("at an activation's start: set a clock with a benny, or pass")
        problem = bennies.start_clock_problem(state, a)
        if problem:
            raise bad(problem)
        return None
    us = state.units.get(a.unit)
    if us is None or us.side != state.active:
        raise bad("not a unit of the side to act")
    if a.kind is Kind.DEPLOY:
        waiting = state.phase in DEPLOY_PHASES[1:] and us in _to_deploy(state, us.side)
        problem = activation.deploy_action_problem(state, us, a, deploy_problem, may_deploy=waiting)
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.SET_CLOCK:
        problem = _set_clock_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.DEFEND:
        problem = _defend_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.RESIST:
        problem = _resist_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.STRIKE_BACK or state.phase == Phase.STRIKE_BACK:
        problem = fight.strike_back_problem(state, us, a)
        if problem or a.kind is not Kind.STRIKE_BACK:
            raise bad(problem or "the charged unit decides whether to strike back")
        return us
    acting = state.phase == Phase.ACT and state.pending is not None and state.pending.unit == us.uid
    if a.kind is Kind.CAST:
        if not acting and (state.phase != Phase.ACTIVATION or us.activated or not us.on_table):
            raise bad("this unit cannot activate now")
        problem = _cast_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    if a.kind in (Kind.SHOOT, Kind.CONSOLIDATE):
        step = "shoot" if a.kind is Kind.SHOOT else "consolidate"
        p = state.pending
        if state.phase != step or p is None or p.unit != us.uid:
            raise bad(f"this unit cannot {step} now")
        if a.kind is Kind.SHOOT:
            problem = shooting.shot_problem(state, us, a)
            if problem:
                raise bad(problem)
        elif a.target or (a.to is not None and not _on_table(state, a.to)):
            raise bad("consolidation moves to a point on the table (or stays)")
        return us
    if (not acting and (state.phase != Phase.ACTIVATION or us.activated)) or not us.on_table:
        raise bad("this unit cannot activate now")
    if us.shaken and a.kind is not Kind.IDLE:
        raise bad("a Shaken unit must stay idle")
    if a.kind is Kind.IDLE:
        if not us.shaken:
            raise bad("only Shaken units stay idle (Hold instead)")
        return us
    if unit_rule(us.unit, "Immobile") and a.kind is not Kind.HOLD:
        raise bad("Immobile units may only Hold")
    if a.kind is Kind.HOLD and (a.to is not None or a.target):
        raise bad("Hold takes no move and no target (targets come after it)")
    problem = activation.move_or_charge_problem(
        state,
        a,
        lambda: charge_targets(state, us),
        has_melee=bool(_melee_weapons(us.unit)),
        out_of_reach="target out of charge range",
    )
    if problem:
        raise bad(problem)
    return us


def _cast_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    """Why ``a`` (a ``CAST``) may not be tried now, or ``None`` (seed 003 "Caster(X)")."""
    if us.shaken:
        return "a Shaken unit must stay idle"
    tried = state.pending.cast if state.pending is not None else ()
    return caster.cast_problem(
        us,
        a,
        tried,
        lambda sp: spell_targets(state, us, sp),
        lambda: spell_helpers(state, us),
    )


def _set_clock_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    return bennies.set_clock_problem(state, us, a, attack="the unit shoots")


# --- apply --------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> None:
    """Carry out ``action`` (checked: an illegal action raises a clear error)."""
    state.rules.apply(state, action)


def _start_deployment(state: GameState) -> None:
    first = int(state.rng.integers(2))  # Deployment 1: roll-off
    state.first = first
    state.active = first
    state.phase = Phase.ZONE
    state.log.add("deployment", first=first)


def zone_choices(state: GameState) -> list[str]:
    """The edges the deployment roll-off winner may pick (Deployment 1), in the fixed order."""
    allowed = edges.EDGE_SETS[options_of(state).edges]
    return edges.offered_edges(state.table, allowed, [o.position for o in state.objectives])


def _choose_zone(state: GameState, edge: str) -> None:
    """Deployment 1-2: the winner's edge, the opposite one for the opponent; then deploy."""
    chosen = ["", ""]
    chosen[state.active] = edge
    chosen[1 - state.active] = edges.OPPOSITE[edge]
    state.edges = chosen
    state.log.add("zone", side=state.active, edge=edge, edges=list(chosen))
    state.phase = Phase.DEPLOY
    _next_deployer(state)


def _next_deployer(state: GameState) -> None:
    """Alternate deployment (:meth:`oprlab.game.opr.setup.Deployment.next_deployer`)."""
    opr_rules(state).next_deployer(state)


def _begin(state: GameState, us: UnitState) -> None:
    """Count the activation (once: a cast and the action after it are one activation)."""
    if state.phase == Phase.ACT:
        state.pending = None
        state.phase = Phase.ACTIVATION
        return
    activation.count_activation(state, us)
    _dangerous_start(state, us)


def _dangerous_start(state: GameState, us: UnitState) -> None:
    """Seed 003 "Dangerous Terrain": models "that activate in it" roll at the activation's
    start (Flying too: it ignores terrain only "whilst moving"). Under ``dangerous="once"``
    those models do not roll again for moving across it in this activation."""
    assert us.placement is not None
    checks = dangerous_terrain_checks(state.table, us.placement, None, system="gff")
    if not checks:
        return
    touching = np.zeros(len(us.placement.radii), dtype=np.bool_)
    touching[[c.owner.model for c in checks]] = True
    state.rolled_in = (us.uid, state.activations, touching)
    _dangerous(state, us, len(checks), cause="activation")


def _cast(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 003 "Caster(X)": spend the spell's value in tokens, helpers add +1 per token, roll
    one die, and on a 4+ the spell hits its target; the unit then takes its action."""
    tried = state.pending.cast if state.pending is not None else ()
    _begin(state, us)
    if not us.on_table:  # lost to dangerous terrain as it activated: nothing is cast
        _end_activation(state, us.side)
        return
    spell = _spell(a.spell)
    assert spell is not None
    us.spell_tokens -= a.value
    helped = caster.pay(spell_helpers(state, us), a.boost)
    paid = Casting(us.uid, a, tuple(helped.items()), (*tried, spell.name))
    if spell_resisters(state, us):  # the other side may spend tokens first (RESIST)
        state.casting = paid
        state.pending = Pending(Phase.RESIST, us.uid, us.side, cast=paid.tried)
        state.phase = Phase.RESIST
        state.active = 1 - us.side
        return
    _roll_cast(state, paid, None)


def _roll_cast(state: GameState, c: Casting, resisted: dict[str, int] | None) -> None:
    """Roll the spell: +1 per boosting token, -1 per resisting token; on a success the spell
    hits its target. The caster then takes its action (phase ``act``)."""
    us, a = state.units[c.caster], c.action
    spell = _spell(a.spell)
    assert spell is not None
    against = sum(resisted.values()) if resisted else 0
    roller = state.dice
    # The clock: "add 3 to the clock"; each extra token takes 1 off, down to 0 (Test.CASTING);
    # each resisting token adds 1 (up to the clock's most, 5).
    roll = roller.roll(caster.casting_check(us, a.boost, against))
    state.log.add(
        "cast",
        unit=us.uid,
        spell=spell.name,
        value=a.value,
        target=a.target,
        boost=a.boost,
        helpers=dict(c.helped),
        natural=roll.natural,
        success=roll.success,
        tokens=us.spell_tokens,
        **({} if resisted is None else {"resisted": against}),
    )
    target = state.units[a.target]
    if roll.success and target.on_table:
        roller = state.dice
        waiting = _spell_hits(state, us, target, spell, a.value, roller, c.tried)
        if waiting:  # the target's side decides on its bennies first (DEFEND)
            return
    _to_act(state, us, c.tried)


def _to_act(state: GameState, us: UnitState, tried: tuple[str, ...]) -> None:
    """After a cast the caster chooses its action (phase ``act``)."""
    state.pending = Pending(Phase.ACT, us.uid, us.side, cast=tried)
    state.phase = Phase.ACT
    state.active = us.side


def spell_resisters(state: GameState, us: UnitState) -> list[UnitState]:
    """Enemy Casters with tokens within 18" of the casting unit and seeing it, nearest first.

    Seed 003 "Caster(X)": models "within 18" in line of sight of the caster's unit" may spend
    tokens "to give the caster +1/-1 to the roll per token": the enemy's are the -1.
    """
    return _casters_near(state, us, state.enemies(us.side))


def resist_actions(state: GameState) -> list[Action]:
    """The other side's choice: 0 up to its Casters' tokens (listed to boost + 2)."""
    c = state.casting
    if state.phase != Phase.RESIST or not isinstance(c, Casting):
        return []
    return casting.resist_actions(c, spell_resisters(state, state.units[c.caster]))


def _resist_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    c = state.casting
    if state.phase != Phase.RESIST or not isinstance(c, Casting):
        return "no spell to resist now"
    return casting.resist_problem(c, spell_resisters(state, state.units[c.caster]), us, a)


def _resist(state: GameState, us: UnitState, a: Action) -> None:
    """Spend the resisting tokens, nearest Caster first, then roll the spell."""
    c, state.casting = state.casting, None
    assert isinstance(c, Casting)
    spent = caster.pay(spell_resisters(state, state.units[c.caster]), a.value)
    state.log.add("resist", side=us.side, unit=c.caster, tokens=a.value, casters=spent)
    _roll_cast(state, c, spent)


def _spell_hits(
    state: GameState,
    us: UnitState,
    target: UnitState,
    spell: Spell,
    value: int,
    roller: Roller,
    tried: tuple[str, ...] = (),
) -> bool:
    """The stand-in effect: ``value x hits_per_token`` hits at AP(``spell.ap``), no cover.

    Under ``defend="all"`` a target whose side has bennies may defend against them first
    (the spell's hits are "an attack"): ``True`` when the game now waits for that decision.
    """
    assert us.placement is not None and target.placement is not None
    hits = value * spell.hits_per_token
    p = AttackProfile(name=spell.name, dice=0, quality=us.unit.quality, melee=False, ap=spell.ap)
    distance = geo.gap(us.placement, target.placement)
    situation = Situation(distance=distance, attacker=us.owner, defender=target.owner)
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    if hits and options_of(state).defend == "all" and bennies_available(state, target.side) > 0:
        rolled: defend.Rolled = ((p, (Hit(spell.ap),) * hits),)
        state.defending = defend.SpellDefending(
            us.uid, target.uid, us.side, spell.name, rolled, situation, d, tried
        )
        state.pending = Pending(Phase.DEFEND, target.uid, us.side)
        state.phase = Phase.DEFEND
        state.active = target.side
        return True
    wounds = 0
    for _ in range(hits):
        wounds += wounds_from_block(p, roller.roll(defense_check(p, situation, d, Hit(spell.ap))))
    if wounds and regenerates(p, d):
        wounds = sum(not roller.roll(regeneration_check(situation)).success for _ in range(wounds))
    result = finish(d, take_wounds(d, [], wounds), wounds, hits, situation, roller)
    _spell_result(state, us, target, spell.name, result, roller)
    return False


def _spell_result(
    state: GameState,
    us: UnitState,
    target: UnitState,
    spell: str,
    result: AttackResult,
    roller: Roller,
    defended: int | None = None,
) -> None:
    """Log a spell's hits and apply them to the target."""
    state.log.add(
        "spell",
        unit=us.uid,
        spell=spell,
        target=target.uid,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **({} if defended is None else {"defended": defended}),
    )
    _apply_result(state, target, result, us, roller)


_set_clock = bennies.set_clock


def _activate(state: GameState, us: UnitState, a: Action) -> None:
    _begin(state, us)
    activation.log_activation(state, us, a)
    assert us.placement is not None
    if not us.on_table:  # lost to dangerous terrain as it activated
        _end_activation(state, us.side)
        return
    if a.kind is Kind.IDLE:
        us.shaken = False  # "must spend one full activation idle to stop being Shaken"
        state.log.add("rally", unit=us.uid)
        _end_activation(state, us.side)
    elif a.kind is Kind.HOLD:
        _offer_shot(state, us, moved=False)
    elif a.kind in (Kind.ADVANCE, Kind.RUSH):
        assert a.to is not None
        _move(state, us, a.to, move_allowance(us.unit, a.kind), "move")
        if not us.alive:
            _end_activation(state, us.side)
        elif a.kind is Kind.ADVANCE:
            _offer_shot(state, us, moved=True)
        else:
            _end_activation(state, us.side)
    elif a.kind is Kind.CHARGE:
        _charge(state, us, state.units[a.target], benny=a.benny)


def _move(
    state: GameState,
    us: UnitState,
    to: Point,
    allowance: float,
    event: str,
    *,
    may_touch: Placement | None = None,
) -> None:
    """Move a unit along its path (terrain-aware), then roll for dangerous terrain."""
    assert us.placement is not None
    start = us.placement
    before = geo.centroid(start)
    outcome = geo.move_unit_toward(
        state.table,
        start,
        state.placements_except(us.uid),
        to,
        allowance,
        may_touch=may_touch,
        unit=us.unit,
        system="gff",
    )
    us.placement = outcome.placement
    after = geo.centroid(us.placement)
    state.log.add(
        event,
        unit=us.uid,
        distance=round(math.dist(before, after), 3),
        path=round(outcome.advanced, 3),
    )
    _dangerous_crossed(state, us, start, outcome.dangerous)


def _dangerous_crossed(
    state: GameState, us: UnitState, start: Placement, dangerous: np.ndarray, cause: str = "move"
) -> None:
    """Seed 003 "Dangerous Terrain": models "moving across" it roll (not Flying ones); under
    ``dangerous="once"`` not those that rolled as the unit activated."""
    crossed = np.asarray(dangerous, dtype=np.bool_)
    rolled = state.rolled_in
    once = options_of(state).dangerous == "once"
    if once and rolled is not None and rolled[0] == us.uid and rolled[1] == state.activations:
        crossed = crossed & ~rolled[2]  # one roll per model per activation
    if crossed.any() and not unit_rule(us.unit, "Flying"):
        _dangerous(state, us, int((crossed & start.alive).sum()), cause)


def _dangerous(state: GameState, us: UnitState, models: int, cause: str = "move") -> None:
    """Seed 003 "Dangerous Terrain": each model rolls one die (Tough: that many); a 1 wounds."""
    if models <= 0:
        return
    roller = state.dice
    check = Check(Test.GENERIC, 2, owner=us.owner)
    wounds = sum(not roller.roll(check).success for _ in range(models * us.unit.tough))
    event = {"cause": cause} if cause != "move" else {}  # (moving: as logged before)
    state.log.add("dangerous", unit=us.uid, dice=models * us.unit.tough, wounds=wounds, **event)
    if wounds:
        d = defender_profile(us.unit, models=us.models, markers=us.markers, shaken=us.shaken)
        situation = Situation(defender=us.owner)
        result = finish(d, take_wounds(d, [], wounds), wounds, 0, situation, roller)
        _apply_result(state, us, result, us)


def _offer_shot(state: GameState, us: UnitState, *, moved: bool) -> None:
    """Hold and Advance "can shoot": the targets are the next decision, if any is in range."""
    if shooting_targets(state, us):
        state.pending = Pending(Phase.SHOOT, us.uid, us.side, moved=moved)
        state.phase = Phase.SHOOT
        return
    _end_activation(state, us.side)


def _end_activation(state: GameState, side: int) -> None:
    """Alternate activations (:meth:`oprlab.game.opr.rounds.Rounds.end_activation`)."""
    opr_rules(state).end_activation(state, side)


#: Setting a clock at an activation's start is the same under both OPR texts (game.bennies).
clocks_in_play = bennies.clocks_in_play


def _shoot_step(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 003 "Shooting": up to two targets with different weapon types."""
    pending = state.pending
    assert pending is not None and us.placement is not None
    if not a.target:
        state.log.add("hold_fire", unit=us.uid)
        _end_activation(state, pending.side)
        return
    if a.benny:
        _spend_benny(state, us)
    plan: list[tuple[str, tuple[Weapon, ...], float]] = []
    ranged = ranged_weapons(us.unit)
    for target, second in ((a.target, False), (a.second, True)):
        if not target:
            continue
        d = geo.gap(us.placement, _placement(state, target))
        weapons = tuple(w for w in ranged if (w.name in a.split) == second)
        plan.append((target, weapons, d))  # each model fires what reaches (``_fire``)
    _fire_plan(state, us, tuple(plan), moved=pending.moved, extra=a.benny, side=pending.side)


def _fire_plan(
    state: GameState,
    us: UnitState,
    plan: tuple[tuple[str, tuple[Weapon, ...], float], ...],
    *,
    moved: bool,
    extra: bool,
    side: int,
) -> None:
    """Fire at each target of the plan in turn; a defender's ``DEFEND`` decision pauses it.

    The plan names the weapon lines themselves: a Limited line fired at the first target
    leaves the unit's profile (:mod:`~oprlab.game.gff_limited`) before the second is shot at.
    """
    roller = state.dice
    for i, (uid, weapons, d) in enumerate(plan):
        t = state.units[uid]
        if not t.on_table:
            continue
        rest = plan[i + 1 :]
        shot = list(weapons)
        if _fire(state, us, t, shot, d, roller, moved=moved, extra=extra and i == 0, rest=rest):
            return  # waiting for the defender
    _end_activation(state, side)


_spend_benny = bennies.spend_extra_attack


def with_extra_attack(unit: Unit, models: int) -> Unit:
    """``unit`` with one more melee attack die when ``models`` are left (a benny).

    The melee exchange scales weapon lines to the models left (``melee.carried``), so the extra
    line carries a count that comes out at exactly one weapon: a copy of the unit's first melee
    weapon with one attack.
    """
    first = _melee_weapons(unit)[0]
    count = 1 if 2 * models >= unit.size else -(-unit.size // max(1, models))
    extra = replace(first, attacks=1, count=count)
    return replace(unit, weapons=(*unit.weapons, extra))


def _placement(state: GameState, uid: str) -> Placement:
    p = state.units[uid].placement
    assert p is not None
    return p


def _fire(
    state: GameState,
    us: UnitState,
    target: UnitState,
    weapons: list[Weapon],
    distance: float,
    roller: Roller,
    *,
    moved: bool,
    extra: bool = False,
    rest: tuple[tuple[str, tuple[Weapon, ...], float], ...] = (),
) -> bool:
    """One attack at one target: the weapons the models left carry, fired by those in range
    and line of sight (Indirect: in range), each at its own distance (``gff_shooting``).

    The target has cover when most shooting models see it in cover (``geometry.in_cover``).
    """
    profiles = shooting.fire_profiles(state, us, target, weapons)
    if extra and profiles:  # a benny: "a single extra attack"
        profiles[0] = replace(profiles[0], dice=profiles[0].dice + 1)
    if not profiles:
        return False
    if options_of(state).limited:  # "May only be used once per game"
        limited.spend_limited(us, (p.name for p in profiles), state.log)
    assert us.placement is not None and target.placement is not None
    indirect = all(p.indirect for p in profiles)
    cover = geo.in_cover(
        state.table,
        us.placement,
        target.placement,
        _others(state, us, target),
        system="gff",
        indirect=indirect,
        cache=state.sight,
    )
    situation = Situation(
        distance=distance,
        moved=moved,
        cover=cover,
        attacker=us.owner,
        defender=target.owner,
    )
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    nearby = _blast_nearby(state, us, target, profiles)
    if nearby:  # Blast: X is "up to as many hits as enemy models in the target and within 3""
        d = replace(d, near=blast.blast_models(target, nearby))
    rolled = defend.roll_hits(profiles, d, situation, roller)
    shares: tuple[defend.Share, ...] = ()
    if nearby:  # "Hits must be split evenly between all enemy units within 3""
        parts = blast.split(rolled, [blast.wound_worth(u) for u in (target, *nearby)])
        rolled = parts[0]
        shares = tuple(
            defend.Share(u.uid, part, replace(situation, cover=False, defender=u.owner))
            for u, part in zip(nearby, parts[1:], strict=True)
            if defend.hit_count(part)
        )
    waiting = defend.Defending(
        shooter=us.uid,
        side=state.pending.side if state.pending is not None else us.side,
        target=target.uid,
        rolled=rolled,
        situation=situation,
        weapons=tuple(p.name for p in profiles),
        dice=sum(p.dice for p in profiles),
        distance=distance,
        cover=cover,
        rest=rest,
        moved=moved,
        shares=shares,
    )
    return _land(state, waiting, roller)


def _blast_nearby(
    state: GameState, us: UnitState, target: UnitState, profiles: list[AttackProfile]
) -> list[UnitState]:
    """Blast: the other enemy units within 3" of the target (none for an attack without it)."""
    if not options_of(state).blast_split or not any(p.blast > 1 for p in profiles):
        return []
    return blast.nearby_units(target, state.enemies(us.side))


def _land(state: GameState, shot: defend.Defending, roller: Roller) -> bool:
    """The Defense rolls of a shot on its target, then on each unit Blast shares its hits with.

    Before each unit's rolls its side may spend bennies (seed 000 variation 5): then the game
    waits for its ``DEFEND`` (returns ``True``; :func:`_defend` goes on from there).
    """
    while True:
        target = state.units[shot.target]
        if defend.hit_count(shot.rolled) and bennies_available(state, target.side) > 0:
            state.defending = shot
            state.pending = Pending(Phase.DEFEND, target.uid, shot.side, moved=shot.moved)
            state.phase = Phase.DEFEND
            state.active = target.side
            return True
        d = defender_profile(
            target.unit, models=target.models, markers=target.markers, shaken=target.shaken
        )
        _shot_result(
            state, shot, defend.resolve_hits(shot.rolled, d, shot.situation, roller), roller
        )
        after = _next_share(state, shot)
        if after is None:
            return False
        shot = after


def _next_share(state: GameState, shot: defend.Defending) -> defend.Defending | None:
    """The next unit's share of a Blast attack (one still on the table), if any."""
    shares = shot.shares
    while shares and not state.units[shares[0].unit].on_table:
        shares = shares[1:]
    if not shares:
        return None
    s = shares[0]
    return replace(
        shot,
        target=s.unit,
        rolled=s.rolled,
        situation=s.situation,
        cover=False,
        shares=shares[1:],
        blast_of=shot.blast_of or shot.target,
    )


def _shot_result(
    state: GameState,
    shot: defend.Defending,
    result: AttackResult,
    roller: Roller,
    defended: int | None = None,
) -> None:
    """Log one attack and apply it to its target."""
    event: dict[str, object] = {} if defended is None else {"defended": defended}
    if shot.blast_of:  # a unit near the target takes its share of the Blast hits
        state.log.add(
            "blast",
            unit=shot.shooter,
            target=shot.target,
            of=shot.blast_of,
            hits=result.hits,
            wounds=result.wounds,
            casualties=result.casualties,
            **event,
        )
        _apply_result(state, state.units[shot.target], result, state.units[shot.shooter], roller)
        return
    if shot.shares:
        event["shared"] = [[s.unit, defend.hit_count(s.rolled)] for s in shot.shares]
    state.log.add(
        "shoot",
        unit=shot.shooter,
        target=shot.target,
        distance=round(shot.distance, 3),
        weapons=list(shot.weapons),
        dice=shot.dice,
        cover=shot.cover,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **event,
    )
    _apply_result(state, state.units[shot.target], result, state.units[shot.shooter], roller)


def defend_actions(state: GameState) -> list[Action]:
    """The defender's choice: spend 0 up to one benny per hit (and no more than it has)."""
    shot = state.defending
    if state.phase != Phase.DEFEND or not isinstance(shot, defend.WAITING):
        return []
    return defend.defend_actions(shot, bennies_available(state, state.active))


def _defend_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    shot = state.defending
    if state.phase != Phase.DEFEND or not isinstance(shot, defend.WAITING):
        return "no attack to defend against now"
    return defend.defend_problem(shot, us.uid, a, bennies_available(state, us.side))


def _defend(state: GameState, us: UnitState, a: Action) -> None:
    """Spend ``a.value`` bennies on as many hits, then roll the rest of the attack (a shot,
    one attack of a melee exchange, which then goes on, or a spell's hits)."""
    waiting, state.defending = state.defending, None
    assert isinstance(waiting, defend.WAITING)
    benny_defence.spend_defence(state, us, a.value)
    roller = state.dice
    if isinstance(waiting, defend.MeleeDefending):
        blow = waiting.blow
        r = defend.resolve_hits(
            waiting.rolled, blow.target, blow.situation, roller, defended=a.value, fear=blow.fear
        )
        x = _struck(state, waiting.charger, waiting.charged, waiting.exchange, blow, r)
        _fight(state, waiting.charger, waiting.charged, x, roller, waiting.defended + a.value)
        return
    if isinstance(waiting, defend.SpellDefending):
        caster = state.units[waiting.attacker]
        r = defend.resolve_hits(
            waiting.rolled, waiting.defender, waiting.situation, roller, defended=a.value
        )
        _spell_result(state, caster, us, waiting.spell, r, roller, defended=a.value)
        _to_act(state, caster, waiting.tried)
        return
    shot = waiting
    d = defender_profile(us.unit, models=us.models, markers=us.markers, shaken=us.shaken)
    result = defend.resolve_hits(shot.rolled, d, shot.situation, roller, defended=a.value)
    _shot_result(state, shot, result, roller, defended=a.value)
    after = _next_share(state, shot)
    if after is not None and _land(state, after, roller):
        return  # another unit hit by the Blast decides in turn
    shooter = state.units[shot.shooter]
    state.pending = Pending(Phase.SHOOT, shooter.uid, shot.side, moved=shot.moved)
    _fire_plan(state, shooter, shot.rest, moved=shot.moved, extra=False, side=shot.side)


def _apply_result(
    state: GameState,
    target: UnitState,
    r: AttackResult,
    by: UnitState,
    roller: Roller | None = None,
) -> None:
    """Casualties, markers and Shaken; with ``roller`` (an attack) the attacker may push."""
    _remove(state, target, r.casualties, by)
    target.markers = r.markers if target.alive else 0
    if r.shaken and target.alive and not target.shaken:
        target.shaken = True
        state.log.add("shaken", unit=target.uid, cause="wound effect")
    if r.shaken and roller is not None and options_of(state).special_moves:
        _push(state, target, by, roller)


def _push(state: GameState, target: UnitState, by: UnitState, roller: Roller) -> None:
    """Seed 003 "Pushing": a model that rolled a Shaken result; the attacker rolls one die and
    on a 4+ moves it up to 2" (its habit: :func:`gff_moves.best_push`); off an elevated
    position at least 2" tall it falls ("Falling")."""
    if by is target or not target.alive or target.placement is None:
        return
    roll = roller.roll(Check(Test.GENERIC, PUSH_TARGET, owner=by.owner))
    found = moves.best_push(state, target, _others(state, target)) if roll.success else None
    state.log.add(
        "push",
        unit=by.uid,
        target=target.uid,
        success=roll.success,
        moved=0.0 if found is None else round(found[1].moved, 3),
        drop=0.0 if found is None else round(found[1].drop, 3),
    )
    if found is None:
        return
    index, pushed = found
    target.placement = pushed.placement
    if pushed.falls:
        _fall(state, target, by, index, pushed.drop, roller)


def _fall(
    state: GameState, target: UnitState, by: UnitState, index: int, drop: float, roller: Roller
) -> None:
    """Seed 003 "Falling": one hit at AP(1 per full 3"), or in a unit of several models the
    model is killed; the model is placed within 2" of the bottom."""
    assert target.placement is not None
    f = fall(drop, models_left=target.models)
    foot = target.placement.centres[index]
    landed = land(state.table, target.placement, index, (float(foot[0]), float(foot[1])))
    if landed is not None:
        target.placement = landed
    state.log.add("fall", unit=target.uid, height=round(drop, 3), ap=f.ap, killed=f.killed)
    if f.killed:
        _remove(state, target, 1, by)
        return
    p = AttackProfile(name="Fall", dice=0, quality=by.unit.quality, melee=False, ap=f.ap)
    situation = Situation(attacker=by.owner, defender=target.owner)
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    wounds = wounds_from_block(p, roller.roll(defense_check(p, situation, d, Hit(f.ap))))
    result = finish(d, take_wounds(d, [], wounds), wounds, 1, situation, roller)
    _apply_result(state, target, result, by)  # no roller: a fall pushes nobody


def casualty_order(state: GameState, target: UnitState, by: UnitState, n: int) -> list[int]:
    """Which models of ``target`` go, as the defender would choose them.

    A fixed habit, since seed 003 leaves the choice to the defender: keep models within 3" of
    an objective marker, remove the models nearest the attacker first (the unit falls back), and
    never break cohesion (each model within 1" of another) while another choice keeps it.
    """
    assert target.placement is not None and by.placement is not None
    bc = by.placement.centres.mean(axis=0)  # all its models: it may have just been destroyed
    near_attacker = np.linalg.norm(target.placement.centres - bc, axis=1)
    return losses.casualty_order(state, target.placement, n, near_attacker)


def _remove(
    state: GameState,
    target: UnitState,
    casualties: int,
    by: UnitState,
    *,
    melee_order: bool = False,
) -> None:
    """Remove casualties (the defender's choice: :func:`casualty_order`; in melee
    :func:`gff_melee.casualty_order`, the fighters stay)."""
    if casualties <= 0 or target.placement is None:
        return
    casualties = min(casualties, target.models)
    order = fight.casualty_order if melee_order else casualty_order
    target.placement.removed[order(state, target, by, casualties)] = True
    target.models -= casualties
    state.log.add("casualties", unit=target.uid, models=casualties, left=target.models)
    if target.models <= 0:
        state.log.add("destroyed", unit=target.uid, side=target.side)


def _charge_move(
    state: GameState, us: UnitState, target: UnitState
) -> table_charge.ChargeResult | None:
    """``geometry.charge_move`` keeping the move's result (which models crossed dangerous
    terrain); ``None`` if no model can reach contact."""
    assert us.placement is not None and target.placement is not None
    rest = [o for o in state.placements_except(us.uid) if o is not target.placement]
    try:
        return table_charge.charge_move(
            state.table,
            us.placement,
            target.placement,
            rest,
            move_allowance(us.unit, Kind.CHARGE),
            rules=MoveRules.of(us.unit, "gff"),
        )
    except OptionError:
        return None


def _charge(state: GameState, us: UnitState, target: UnitState, *, benny: bool = False) -> None:
    """Seed 003 "Melee": charge into contact (rolling for dangerous terrain crossed), strike,
    strike back, then After Combat."""
    assert us.placement is not None and target.placement is not None
    res = _charge_move(state, us, target)
    if res is None:
        # No path into contact (terrain or units in the way): "or as close as possible".
        goal = geo.centroid(target.placement)
        allowance = move_allowance(us.unit, Kind.CHARGE)
        _move(state, us, goal, allowance, "move", may_touch=target.placement)
        if not us.alive or geo.gap(us.placement, target.placement) > STRIKE_RANGE:
            state.log.add("charge_failed", unit=us.uid, target=target.uid)
            _end_activation(state, us.side)
            return
    else:
        start = us.placement
        us.placement = res.placement
        if options_of(state).charge_dangerous:  # seed 003: "moving across" it, in contact too
            _dangerous_crossed(state, us, start, res.move.dangerous, "charge")
            if not us.alive:
                _end_activation(state, us.side)
                return
    assert us.placement is not None
    # Charging: "Defenders must do the same by moving up to 3"" into base contact.
    target.placement = geo.pile_in(
        state.table, target.placement, us.placement, _others(state, us, target), unit=target.unit
    )
    striker = us.unit
    if benny:
        _spend_benny(state, us)
        striker = with_extra_attack(us.unit, us.models)
    exchange = melee.start_exchange(
        striker,
        target.unit,
        attacker_state=MeleeState(us.models, us.markers, us.shaken, us.fatigued),
        defender_state=MeleeState(target.models, target.markers, target.shaken, target.fatigued),
        owners=(us.owner, target.owner),
        shaken_charger=True,  # Shaken by dangerous terrain on its way: it strikes as fatigued
    )
    _fight(state, us.uid, target.uid, exchange, state.dice, 0)


def _fight(
    state: GameState, charger: str, charged: str, x: melee.Exchange, roller: Roller, defended: int
) -> None:
    """The exchange, attack by attack (``rules/gff/melee.py``), each made by the models within
    2" of the enemy (counted before it, casualties removed after it: ``gff_melee``). Before its
    first attack the charged side decides whether to strike back (``STRIKE_BACK``); under
    ``defend="all"`` the victim of an attack with hits may first spend bennies (``DEFEND``)."""
    opts = options_of(state)
    may_defend = opts.defend == "all" and isinstance(state.mech_state, ClockState)
    spend = opts.limited
    side = state.units[charger].side
    while (found := melee.next_blow(x := fight.reach(state, x, charger, charged))) is not None:
        blow, after = found
        if blow.striker is Side.DEFENDER and not x.chosen:  # "may choose to strike back"
            if opts.strike_back == "choose":
                _ask_strike_back(
                    state, fight.StrikeBackDeciding(charger, charged, side, x, blow, defended)
                )
                return
            x = replace(x, chosen=True)
            continue
        x = after
        by, hit = (charger, charged) if blow.striker is Side.ATTACKER else (charged, charger)
        if spend:
            limited.spend_limited(state.units[by], (p.name for p in blow.weapons), state.log)
        if may_defend and bennies_available(state, state.units[hit].side) > 0:
            rolled = defend.roll_hits(blow.weapons, blow.target, blow.situation, roller)
            if defend.hit_count(rolled):  # seed 000 variation 5: "any single attack"
                state.defending = defend.MeleeDefending(
                    charger, charged, side, by, hit, x, blow, rolled, defended
                )
                state.pending = Pending(Phase.DEFEND, hit, side)
                state.phase = Phase.DEFEND
                state.active = state.units[hit].side
                return
            r = defend.resolve_hits(rolled, blow.target, blow.situation, roller, fear=blow.fear)
        else:
            r = resolve_attack(blow.weapons, blow.target, blow.situation, roller, fear=blow.fear)
        x = _struck(state, charger, charged, x, blow, r)
    _after_exchange(state, charger, charged, melee.exchange_result(x), roller, defended)


def _struck(
    state: GameState,
    charger: str,
    charged: str,
    x: melee.Exchange,
    blow: melee.Blow,
    r: AttackResult,
) -> melee.Exchange:
    """The exchange after ``blow`` came out as ``r``, its casualties taken off the table."""
    x = melee.after_blow(x, blow, r)
    victim, by = (charged, charger) if blow.striker is Side.ATTACKER else (charger, charged)
    left = x.fight.defender.models if victim == charged else x.fight.attacker.models
    target = state.units[victim]
    _remove(state, target, target.models - left, state.units[by], melee_order=True)
    return x


def _ask_strike_back(state: GameState, waiting: fight.StrikeBackDeciding) -> None:
    """Stop for the charged side's ``STRIKE_BACK`` decision (phase ``strike_back``)."""
    state.strike_back = waiting
    state.pending = Pending(Phase.STRIKE_BACK, waiting.charged, waiting.side)
    state.phase = Phase.STRIKE_BACK
    state.active = state.units[waiting.charged].side


def _strike_back(state: GameState, us: UnitState, a: Action) -> None:
    """The charged side strikes back (``value`` 1) or not (0); the exchange goes on."""
    waiting, state.strike_back = state.strike_back, None
    assert isinstance(waiting, fight.StrikeBackDeciding)
    state.log.add("strike_back", unit=us.uid, target=waiting.charger, chosen=bool(a.value))
    x = waiting.exchange
    x = replace(x, chosen=True) if a.value else melee.without_strike_back(x)
    _fight(state, waiting.charger, waiting.charged, x, state.dice, waiting.defended)


def _after_exchange(
    state: GameState,
    charger: str,
    charged: str,
    result: melee.ExchangeResult,
    roller: Roller,
    defended: int,
) -> None:
    """Log the exchange, apply it to both units, then After Combat."""
    us, target = state.units[charger], state.units[charged]
    state.log.add(
        "melee",
        unit=us.uid,
        target=target.uid,
        wounds_dealt=result.attacker.wounds_dealt,
        wounds_taken=result.defender.wounds_dealt,
        casualties_dealt=result.defender.casualties,
        casualties_taken=result.attacker.casualties,
        struck_back=result.struck_back,
        **({"defended": defended} if defended else {}),
    )
    for side_state, res, foe in ((us, result.attacker, target), (target, result.defender, us)):
        _remove(state, side_state, side_state.models - res.models, foe)
        side_state.markers = res.markers if side_state.alive else 0
        if res.shaken and side_state.alive and not side_state.shaken:
            side_state.shaken = True
            state.log.add("shaken", unit=side_state.uid, cause="wound effect")
            if options_of(state).special_moves:  # the exchange reports Shaken, not each roll
                _push(state, side_state, foe, roller)
        side_state.fatigued = res.fatigued
    if us.alive and target.alive:
        _separate(state, us, target)
    elif us.alive != target.alive:
        survivor = us if us.alive else target
        state.pending = Pending(Phase.CONSOLIDATE, survivor.uid, us.side)
        state.phase = Phase.CONSOLIDATE
        state.active = survivor.side
        return
    _end_activation(state, us.side)


def _separate(state: GameState, us: UnitState, target: UnitState) -> None:
    """After Combat: "chargers must move back and separate by 1" (if possible)"."""
    assert us.placement is not None and target.placement is not None
    us.placement = geo.separate(
        state.table, us.placement, target.placement, _others(state, us, target), unit=us.unit
    )
    state.log.add("separate", unit=us.uid, gap=round(geo.gap(us.placement, target.placement), 3))


def _consolidate_step(state: GameState, us: UnitState, a: Action) -> None:
    pending = state.pending
    assert pending is not None and us.placement is not None
    if a.to is not None:
        _move(state, us, a.to, CONSOLIDATE_INCHES, "consolidate")
    _end_activation(state, pending.side)


# --- end of round ---------------------------------------------------------------------------


def morale(state: GameState, side: int, roller: Roller) -> None:
    """Seed 003 "Morale": at half or less of its starting units, every unit tests.

    A failed test makes a unit Shaken, or routs it if it already was; a Shaken unit always
    fails (Wound Effects), Fearless (all models) then passes on a 4+. Hero: units within 12"
    of a Hero that is not Shaken when the morale step begins may use its Quality. A unit that
    found no room to deploy never started (:mod:`oprlab.game.deploy_search`).
    """
    missing = deploy_search.missing(state)
    start = sum(u.uid not in missing for u in state.side_units(side))
    alive = [u for u in state.side_units(side) if u.alive]
    if len(alive) * 2 > start:
        return
    heroes = [u for u in alive if u.unit.hero and not u.shaken and u.on_table]
    for us in alive:
        if not us.on_table:
            continue  # still in reserve: not on the battlefield to test
        assert us.placement is not None
        quality = us.unit.quality
        for h in heroes:
            if h.placement is not None and geo.gap(h.placement, us.placement) <= HERO_AURA:
                quality = min(quality, h.unit.quality)
        if us.shaken:
            passed = False  # "always fails morale tests"
        else:
            passed = roller.roll(Check(Test.MORALE, quality, owner=us.owner)).success
        fearless = False
        if not passed and unit_rule(us.unit, "Fearless"):
            fearless = True
            passed = roller.roll(Check(Test.GENERIC, FEARLESS_ROLL, owner=us.owner)).success
        state.log.add(
            "morale",
            unit=us.uid,
            round=state.round,
            quality=quality,
            was_shaken=us.shaken,
            fearless=fearless,
            passed=passed,
        )
        if passed:
            continue
        if us.shaken:
            us.routed = True
            state.log.add("routed", unit=us.uid, side=us.side)
        else:
            us.shaken = True
            state.log.add("shaken", unit=us.uid, cause="morale")


def may_hold(state: GameState, us: UnitState) -> bool:
    """Mission 4-6: a unit on the table may seize or contest a marker within 3"; Shaken units
    cannot, nor Ambush units on the round they arrive."""
    return us.on_table and not us.shaken and not (us.arrived and us.arrived == state.round)


def controllers(state: GameState) -> list[set[int]]:
    """For each marker, the sides with a unit able to seize it within 3" right now."""
    return opr_rules(state).controllers(state)


def update_objectives(state: GameState) -> None:
    """Mission 4-6: seize a marker alone, keep it after leaving, neutralise it contested."""
    opr_rules(state).update_objectives(state)


#: Shared with the other OPR procedure (``oprlab.game.objectives``).
score = objectives.score
units_left = objectives.units_left


class GffRules(OprRules):
    """Seed 003 (GFF): the procedure's hooks as its text says them."""

    name = "gff"
    version = "003_8abb008d4113ed75 r7"
    readings = GffOptions

    setup = staticmethod(new_game)

    def marker_problem(self, state: GameState, point: Point) -> str | None:
        """Mission 3 but the spacing: markers are placed before the deployment roll-off
        (Mission 2-3, then Deployment 1), so they go outside the zone of every edge that may
        still be picked (``GffOptions.edges``)."""
        return _marker_placing(state, point)

    objectives_placed = staticmethod(_start_deployment)
    zone_choices = staticmethod(zone_choices)

    def choose_zone(self, state: GameState, action: Action) -> None:
        _choose_zone(state, action.choice)

    to_deploy = staticmethod(_to_deploy)
    deploy_options = staticmethod(deploy_options)
    no_room_reason = staticmethod(no_room_reason)

    def deployed_placement(self, state: GameState, us: UnitState, action: Action) -> Placement:
        """Formations face the enemy edge (seed 003 "Deployment")."""
        assert action.to is not None
        heading = facing(us.side, edge_of(state, us.side))
        base = _formation_at_origin(us.unit, us.models, heading, action.formation)
        return geo.translated(base, action.to[0], action.to[1])

    def arrive(self, state: GameState, us: UnitState) -> None:
        """Ambush units cannot seize markers on the round they arrive."""
        if us.reserve == "ambush":
            us.arrived = state.round

    def deployment_over(self, state: GameState) -> None:
        """After round 1's Normal and Scout units the first round begins; after the Ambush
        units the round's activations."""
        if state.phase in (Phase.DEPLOY, Phase.SCOUT) and state.round == 0:
            self.start_round(state, 1)
        elif state.phase == Phase.AMBUSH:
            self.start_activations(state)

    def round_deployment(self, state: GameState, n: int) -> bool:
        """Ambush: "at the start of any round after the first", the next to act first."""
        if n > 1 and any(u.reserve == "ambush" and u.alive for u in state.units.values()):
            state.phase = Phase.AMBUSH
            return True
        return False

    def clocks_at_activation(self, state: GameState) -> bool:
        return options_of(state).set_clock_at_activation

    def round_end(self, state: GameState) -> None:
        """Seed 003: morale comes before objectives at the end of a round."""
        roller = state.dice
        for side in (state.first, 1 - state.first):
            morale(state, side, roller)

    may_hold = staticmethod(may_hold)
    unit_actions = staticmethod(unit_actions)

    def special_actions(self, state: GameState, us: UnitState) -> list[Action]:
        return cast_actions(state, us)

    def step_actions(self, state: GameState, us: UnitState, phase: Phase) -> list[Action]:
        if phase == Phase.ACT and state.pending is not None:  # a Caster has cast
            return unit_actions(state, us) + cast_actions(state, us, state.pending.cast)
        if phase == Phase.SHOOT:
            return shoot_actions(state, us)
        if phase == Phase.CONSOLIDATE:
            return consolidate_actions(state, us)
        return []

    defend_actions = staticmethod(defend_actions)
    resist_actions = staticmethod(resist_actions)
    strike_back_actions = staticmethod(fight.strike_back_actions)
    validate = staticmethod(_validate)

    def resist(self, state: GameState, us: UnitState | None, action: Action) -> None:
        assert us is not None
        _resist(state, us, action)

    def steps(self) -> dict[Kind, Step]:
        return {
            Kind.DEPLOY: self.deploy,
            Kind.SHOOT: _shoot_step,
            Kind.CONSOLIDATE: _consolidate_step,
            Kind.CAST: _cast,
            Kind.SET_CLOCK: _set_clock,
            Kind.DEFEND: _defend,
            Kind.STRIKE_BACK: _strike_back,
        }

    activate = staticmethod(_activate)
    move_allowance = staticmethod(move_allowance)
    shooting_targets = staticmethod(shooting_targets)


__all__: Sequence[str] = [
    "GffRules",
    "OptionError",
    "apply",
    "controllers",
    "is_legal",
    "legal_actions",
    "morale",
    "new_game",
    "ranged_weapons",
    "shooting_targets",
    "update_objectives",
]
