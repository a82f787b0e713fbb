"""A whole Riverside game (seed 002_fdb385c07cc953af): objectives, phases, four rounds, winner.

The procedure follows :mod:`oprlab.game.gff` as OpenSpiel-style functions on a
:class:`GameState`: :func:`legal_actions` lists the decisions of the side to act in canonical
order, :func:`is_legal` checks any action (a move to any point), :func:`apply` carries one out,
rolling every check through the game's mechanic and logging every event. Attacks are resolved by
:mod:`oprlab.game.riverside_combat` with the Riverside pipeline.

Seed 002 in order: "Placing Objectives" (D3+2 markers; the roll-off winner places first; then
alternately, outside the deployment zones, over 9" apart, not in impassable terrain); "Choosing
Deployment Zone and Activation Order" (a roll-off: the winner takes one, the loser the other);
then 4 rounds of "Round Phases": Beginning (units are no longer Fatigued), Deployment (round 1:
Normal then Scout; rounds 2-4: Ambush; the side that activates first this round deploys first,
then alternate), Activation (alternate; after round 1 the side that finished activating first
last round starts), End (objective control). After round 4 the side holding more markers wins.

An activation is the action (Hold, Advance, Rush, Charge, Idle), then after Hold or Advance, if
some model may shoot, the Ranged Attack (``SHOOT``: one target per weapon type, at most two
targets, or hold fire). Special Abilities (``CAST``, ``TELEPORT``;
:mod:`oprlab.game.riverside_abilities`) may come before the action, or after the move and before
the attack; a spell with enemy Casters in reach waits for their ``RESIST`` decision. The
deployment roll-off's outcome is three ``CHOOSE_ZONE`` decisions (:func:`zone_picks`).

Under ``clock-bennies`` (seed 000 variation 5) a Shoot or Charge may spend a benny on one extra
attack die (``benny=True``), before the Ranged Attack a benny may set any clock (``SET_CLOCK``),
so may the side to activate at its activation's start (phase ``clocks``: any clock in play, or a
pass), and once an attack's hits are known (a shot's volley, the charger's attack, the Return
Strikes, a spell's hits) the side hit may spend bennies to defend against them (``DEFEND``,
phase ``defend``; :mod:`oprlab.game.riverside_defend`), as in the GFF game.

Readings (docs/rules/riverside.md "Full games"): the roll-off winner places the first marker;
Scout units always use the Scout phase and Ambush units arrive in :attr:`RiversideOptions.
ambush_round` (round 2 by default; a unit with no room waits a round); a Shaken unit may take any
action (only Idle removes Shaken); abilities come before a Charge, not during its move; the
defender always strikes back; roll-offs and the D3 use the game's generator under every mechanic.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and
``oprlab.game``'s state, actions, events, geometry, objectives, ``riverside_combat``,
``riverside_defend``, ``riverside_abilities``, ``gff_room`` and the procedure pieces shared with
GFF: ``activation`` (rounds and alternation), ``bennies`` and ``benny_defence``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

import numpy as np

from oprlab.errors import OptionError, UserError
from oprlab.game import activation, bennies, benny_defence, deploy_search, objectives
from oprlab.game import geometry as geo
from oprlab.game import gff_room as room
from oprlab.game import riverside_abilities as abilities
from oprlab.game import riverside_combat as combat
from oprlab.game import riverside_defend as defend
from oprlab.game.actions import Action, Kind
from oprlab.game.bennies import bennies_available
from oprlab.game.opr.hooks import OprRules, Step, opr_rules
from oprlab.game.state import GameState, Pending, Phase, RollOff, UnitState
from oprlab.mechanics import Mechanic
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import READINGS, Readings
from oprlab.table import charge as table_charge
from oprlab.table.deploy import objective_ok
from oprlab.table.formation import CLEARANCE, is_coherent, standable
from oprlab.table.formation import formation as formation_centres
from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.table.movement import MoveRules, unit_allowance
from oprlab.units.model import Army, Unit
from oprlab.units.rule_scope import any_has, unit_rule

SYSTEM = "riverside"
#: "The game consist of 4 Rounds".
ROUNDS = 4
#: End Phase: "within 3" of an objective".
OBJECTIVE_RANGE = objectives.OBJECTIVE_RANGE
#: Placing Objectives: "over 9" away from other markers".
OBJECTIVE_SPACING = objectives.OBJECTIVE_SPACING
#: Ambush Deployment: "anywhere over 9" away from enemy units".
AMBUSH_DISTANCE = 9.0
#: Scout Deployment: "12" beyond the boundaries of the commander's Deployment Zone".
SCOUT_DEPTH = 12.0
#: Units deployed on this round "may not contest objective markers".
LATE_ROUND = 4
#: OPR army lists Riverside can play (Army Forge game-system codes; empty: not said).
OPR_SYSTEMS = frozenset({"", "GF", "GFF", "AOF", "AOFS", "AOFR"})
DEPLOY_PHASES = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)
EPS = 1e-6

WinnerTakes = Literal["choose", "first", "zone"]
#: The roll-off winner's ``CHOOSE_ZONE``: what it chooses ("Choosing Deployment Zone and
#: Activation Order"); then the picks: a zone (an edge) and who activates first.
WINNER_PICKS = ("first", "zone")
EDGE_PICKS = ("high", "low")  # y = depth, y = 0
ORDER_PICKS = ("follow", "lead")  # the picker activates second / first
#: Phases in which the unit in ``state.pending`` may still use Special Abilities.
ABILITY_STEPS = (Phase.ACT, Phase.SHOOT, Phase.SPECIAL)


@dataclass(frozen=True)
class RiversideOptions:
    """Choices seed 002 leaves to the commanders, fixed for a game (docs/rules/riverside.md).

    Attributes:
        winner_takes: what the deployment roll-off winner chooses: ``"choose"`` (default: its
            commander decides, a ``CHOOSE_ZONE`` decision), or forced: ``"first"`` (who
            activates first; the loser then chooses the zone) or ``"zone"`` (the zone; the
            loser then chooses who activates first).
        ambush_round: the round (2-4) Ambush units are deployed in.
        strike_back: the charged unit strikes back ("may choose to strike back").
        tie: equal melee wound totals: ``"none"`` nobody tests, ``"both"`` both test.
        impact: Impact(X) read as in GFF inside the charge (``"with_attack"``) or ``"none"``.
        readings: the attack pipeline's readings (Rending, Extra Shooty, Rout when shooting).
        stuck_markers: when no point is left for a marker over 9" from the others:
            ``"farthest"`` (it goes at a point farthest from them) or ``"stop"`` (no more
            markers; ``game.objectives``).
    """

    winner_takes: WinnerTakes = "choose"
    ambush_round: int = 2
    strike_back: bool = True
    tie: combat.TieReading = "none"
    impact: combat.ImpactReading = "with_attack"
    readings: Readings = field(default=READINGS)
    stuck_markers: str = "farthest"

    def __post_init__(self) -> None:
        if self.winner_takes not in ("choose", "first", "zone"):
            raise OptionError(
                "unknown roll-off choice",
                value=self.winner_takes,
                expected="'choose', 'first' or 'zone'",
            )
        if not 2 <= self.ambush_round <= ROUNDS:
            raise OptionError(
                "Ambush units deploy in rounds 2-4",
                value=self.ambush_round,
                expected="2, 3 or 4",
                where="ambush_round",
            )
        if self.tie not in ("none", "both"):
            raise OptionError("unknown melee tie reading", value=self.tie, expected="none or both")
        if self.impact not in ("with_attack", "none"):
            raise OptionError(
                "unknown Impact reading", value=self.impact, expected="with_attack or none"
            )
        if self.stuck_markers not in objectives.STUCK_READINGS:
            raise OptionError(
                "unknown stuck markers reading",
                value=self.stuck_markers,
                expected=" or ".join(objectives.STUCK_READINGS),
                where="stuck_markers",
            )

    @property
    def melee(self) -> combat.MeleeOptions:
        return combat.MeleeOptions(strike_back=self.strike_back, tie=self.tie, impact=self.impact)


# --- setup --------------------------------------------------------------------------------


def new_game(
    army_a: Army,
    army_b: Army,
    *,
    seed: int,
    mechanic: str | Mechanic = "d6",
    table: Table | None = None,
    log: bool = True,
    options: RiversideOptions | None = None,
    rules: OprRules | None = None,
) -> GameState:
    """A Riverside game ready for its objective markers; checks that both armies can play.

    ``rules``: the procedure that plays it (:class:`RiversideRules`, or a house rule's).

    Any OPR list plays (GF, GFF, AoF ...): Riverside is a way of playing OPR armies, and the
    shipped GFF samples are OPR lists.
    """
    for i, army in enumerate((army_a, army_b)):
        if not army.units:
            raise UserError(f"army {i + 1} has no units", value=army.name, expected="a unit")
        if army.system.upper() not in OPR_SYSTEMS:
            raise UserError(
                f"army {i + 1} is not an OPR list",
                value=army.system,
                expected="an OPR list (GF, GFF, AOF, AOFS or AOFR) for the riverside rules",
            )
    opts = options or RiversideOptions()
    _check_room(army_a, army_b, table or Table())
    state = activation.new_state(
        SYSTEM,
        army_a,
        army_b,
        seed=seed,
        mechanic=mechanic,
        table=table,
        rounds=ROUNDS,
        log=log,
        rules=rules or RiversideRules(),
    )
    state.options = opts
    state.mechanic_name = mechanic if isinstance(mechanic, str) else state.mechanic.name
    state.home_edges = [0, 1]  # until the roll-off: side 0 low (y = 0), side 1 high
    winner = int(state.rng.integers(2))  # "The commanders roll-off"
    count = int(state.rng.integers(1, 4)) + 2  # "D3+2 objective markers"
    state.objectives_left = count
    state.active = winner  # "the winner picks who places the first": it places first
    state.phase = Phase.OBJECTIVES
    state.log.add("setup", seed=seed, mechanic=repr(state.mechanic), objectives=count, first=winner)
    if opr_rules(state).placing_done(state):  # no point for a marker at all (a tiny table)
        _choose_zones(state)
    return state


def _check_room(army_a: Army, army_b: Army, table: Table) -> None:
    """Refuse a unit whose formation fits neither deployment band even on an empty table
    (``gff_room``; Ambush units: the whole table)."""
    for i, army in enumerate((army_a, army_b)):
        for unit in army.units:
            if unit_rule(unit, "Ambush"):
                box = (0.0, 0.0, table.width, table.depth)
                zones = [(_formation_at_origin(unit, unit.size, True), ("table", box, True))]
            else:
                deep = table.deployment_depth + (SCOUT_DEPTH if unit_rule(unit, "Scout") else 0.0)
                zones = [
                    (_formation_at_origin(unit, unit.size, up), ("deployment zone", box, True))
                    for up, box in (
                        (True, (0.0, 0.0, table.width, deep)),
                        (False, (0.0, table.depth - deep, table.width, table.depth)),
                    )
                ]
            room.check_room(i, army, unit, zones, (table.width, table.depth))


def options_of(state: GameState) -> RiversideOptions:
    opts = state.options
    return opts if isinstance(opts, RiversideOptions) else RiversideOptions()


def edge(state: GameState, side: int) -> int:
    """Which table edge a side deploys on: 0 along ``y = 0``, 1 along ``y = depth``."""
    edges: list[int] = state.home_edges
    return edges[side]


def deployment_zone(state: GameState, side: int, *, scout: bool = False) -> tuple[float, float]:
    """The band of y a side deploys in (Scout: 12" beyond its zone's boundary)."""
    t = state.table
    depth = t.deployment_depth + (SCOUT_DEPTH if scout else 0.0)
    return (0.0, depth) if edge(state, side) == 0 else (t.depth - depth, t.depth)


def home_edge(state: GameState, side: int) -> float:
    return 0.0 if edge(state, side) == 0 else state.table.depth


def facing(state: GameState, side: int) -> tuple[float, float]:
    """Formations face the enemy's edge."""
    return (0.0, 1.0) if edge(state, side) == 0 else (0.0, -1.0)


def objective_problem(state: GameState, point: Point) -> str | None:
    return opr_rules(state).objective_problem(state, point)


def _marker_placing(state: GameState, point: Point) -> str | None:
    """ "Placing Objectives" but the spacing: outside the zones, not in impassable terrain."""
    t = state.table
    x, y = point
    if not (0.0 <= x <= t.width and 0.0 <= y <= t.depth):
        return "objective marker off the table"
    if y <= t.deployment_depth or y >= t.depth - t.deployment_depth:
        return "objective markers go outside the deployment zones"
    if not objective_ok(t, point):
        return "objective markers can't be placed in impassable terrain"
    return None


def objective_candidates(state: GameState) -> list[Point]:
    return opr_rules(state).objective_candidates(state)


@lru_cache(maxsize=1024)
def _formation_at_origin(unit: Unit, models: int, up: bool, per_row: int = 0) -> Placement:
    """A compact formation centred on (0, 0) in Riverside cohesion (rows, else a blob);
    ``per_row``: staggered ranks of that many models instead (perhaps not coherent)."""
    r = base_radius(unit)
    face = (0.0, 1.0) if up else (0.0, -1.0)
    if per_row:
        centres = formation_centres(models, r, (0.0, 0.0), face, 0.5, per_row=min(per_row, models))
        return Placement(centres, np.full(models, r), large=is_large(unit))
    for shape in ("rows", "blob"):
        centres = formation_centres(models, r, (0.0, 0.0), face, 0.5, shape=shape)
        p = Placement(centres, np.full(models, r), large=is_large(unit))
        if is_coherent(p, SYSTEM):
            return p
    return p


@lru_cache(maxsize=1024)
def _footprint(unit: Unit, models: int, up: bool) -> float:
    return deploy_search.footprint(_formation_at_origin(unit, models, up))


@lru_cache(maxsize=4096)
def _coherent(unit: Unit, models: int, up: bool, per_row: int) -> bool:
    return is_coherent(_formation_at_origin(unit, models, up, per_row), SYSTEM)


@lru_cache(maxsize=1024)
def _shapes(unit: Unit, models: int, up: bool) -> list[tuple[int, Placement]]:
    """The usual formation, then ranks of each width that keeps Unit Cohesion (seed 002)."""

    def make(k: int) -> Placement | None:
        return _formation_at_origin(unit, models, up, k) if _coherent(unit, models, up, k) else None

    return deploy_search.shapes(models, _formation_at_origin(unit, models, up), make)


def formation_at(state: GameState, us: UnitState, centre: Point, per_row: int = 0) -> Placement:
    """The unit's formation centred at ``centre`` facing the enemy edge (a fresh copy), in
    ranks of ``per_row`` (0: its usual formation)."""
    base = _formation_at_origin(us.unit, us.models, edge(state, us.side) == 0, per_row)
    return geo.translated(base, centre[0], centre[1])


def deploy_problem(state: GameState, us: UnitState, point: Point, per_row: int = 0) -> str | None:
    """Why ``us`` may not be deployed centred at ``point`` now (in ranks of ``per_row``; 0:
    its usual formation), or ``None`` if it may.

    Normal and Scout: every base inside the (Scout) Deployment Zone; Ambush: over 9" from every
    enemy unit; always on the table, off impassable and unstable terrain, 1" from other units
    ("1\\" Spacing": nor be deployed within 1"), in Unit Cohesion.
    """
    if per_row:
        if not 1 <= per_row <= us.models:
            return f"a formation has 1 to {us.models} models in each rank (0: the usual one)"
        if not _coherent(us.unit, us.models, edge(state, us.side) == 0, per_row):
            return "the unit would not be in Unit Cohesion in that formation"
    p = formation_at(state, us, point, per_row)
    if not geo.inside_table(state.table, p):
        return "the unit does not fit on the table there"
    if state.phase != Phase.AMBUSH:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        ys, r = p.centres[:, 1], p.radii
        if float((ys - r).min()) < lo - EPS or float((ys + r).max()) > hi + EPS:
            return "the unit must be inside its deployment zone"
    else:
        for e in state.enemies(us.side):
            if e.placement is not None and geo.gap(p, e.placement) <= AMBUSH_DISTANCE:
                return 'Ambush units deploy over 9" away from enemy units'
    for o in state.placements_except(us.uid):
        if geo.gap(p, o) < geo.SPACING - EPS:
            return 'units may not be deployed within 1" of other units'
    return _ground_problem(state, us, p)  # a coherent formation stays so wherever it stands


def _ground_problem(state: GameState, us: UnitState, p: Placement) -> str | None:
    radius = float(p.radii[0]) - CLEARANCE
    if (
        state.table.pieces
        and not standable(state.table, p.centres, radius, flying=unit_rule(us.unit, "Flying")).all()
    ):
        return "a model would stand in impassable or on unstable terrain"
    return None


def deploy_options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    """The spots offered to ``us`` with its formation there: the grid in its usual formation,
    or, once its side's units outgrow the grid, packed spots in any shape it may take
    (:mod:`oprlab.game.deploy_search`)."""
    return deploy_search.remembered(state, us, lambda: _options(state, us))


def _options(state: GameState, us: UnitState) -> list[deploy_search.Option]:
    t = state.table
    ambush = state.phase == Phase.AMBUSH
    if ambush:
        zone = (0.0, 0.0, t.width, t.depth)
    else:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        zone = (0.0, lo, t.width, hi)
    up = edge(state, us.side) == 0
    need = sum(_footprint(u.unit, u.models, up) for u in _to_deploy(state, us.side))
    if ambush or not deploy_search.crowded(state, zone, need):
        grid = deploy_candidates(state, us)
        if grid:
            return [(p, 0) for p in grid]
    blocks = deploy_search.blockers(state, us, AMBUSH_DISTANCE if ambush else geo.SPACING)
    return list(
        deploy_search.packed_options(
            state,
            zone,
            _shapes(us.unit, us.models, up),
            blocks,
            lambda p, k: (
                _ground_problem(state, us, formation_at(state, us, p, k)) if t.pieces else None
            ),
        )
    )


def no_room_reason(state: GameState, us: UnitState) -> str:
    """Why ``us`` finds no spot: where it had to stand and what was in the way."""
    others = sum(u.on_table for u in state.units.values())
    shapes = len(_shapes(us.unit, us.models, edge(state, us.side) == 0))
    where = {
        "ambush": 'over 9" from every enemy unit',
        "scout": "in its Scout Deployment Zone",
    }.get(state.phase, "in its Deployment Zone")
    return (
        f'no spot {where}, 1" from the {others} units on the table and off impassable or '
        f"unstable terrain, in any of {shapes} formations of its {us.models} models"
    )


def deploy_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Legal centres on a grid: 4" across, rows through the zone (the table for Ambush).

    Remembered until a unit is placed (the phase deciding whether to go on asks first, the
    listing of actions next).
    """
    key = (
        state.phase,
        state.round,
        us.uid,
        us.models,
        sum(u.on_table for u in state.units.values()),
    )
    memo = state.memo.deploy_points
    if isinstance(memo, tuple) and memo[0] == key:
        return list(memo[1])
    pts = _deploy_grid(state, us)
    state.memo.deploy_points = (key, tuple(pts))
    return pts


def _deploy_grid(state: GameState, us: UnitState) -> list[Point]:
    t = state.table
    if state.phase == Phase.AMBUSH:
        ys = [float(y) for y in np.arange(4.0, t.depth - 3.9, 4.0)]
    else:
        lo, hi = deployment_zone(state, us.side, scout=us.reserve == "scout")
        rows = max(3, int((hi - lo) // 5))
        ys = [float(y) for y in np.linspace(lo + 2.5, hi - 2.5, rows)]
    return [
        (float(x), y)
        for y in ys
        for x in np.arange(4.0, t.width - 3.9, 4.0)
        if deploy_problem(state, us, (float(x), y)) is None
    ]


# --- what a unit can do -------------------------------------------------------------------


def _to_deploy(state: GameState, side: int) -> list[UnitState]:
    """Units of ``side`` to be deployed in the current deployment phase."""
    phase = state.phase
    if phase == Phase.AMBUSH:
        if state.round < options_of(state).ambush_round:
            return []
        want: str | None = "ambush"
    else:
        want = "scout" if phase == Phase.SCOUT else None
    return [
        u
        for u in state.side_units(side)
        if u.placement is None and u.alive and u.reserve == want and phase in DEPLOY_PHASES
    ]


_can_activate = activation.can_activate


def move_allowance(unit: Unit, kind: Kind) -> float:
    """Advance 6", Rush 12", Charge 12"; Fast and Slow as in GFF (not in seed 002)."""
    if kind not in (Kind.ADVANCE, Kind.RUSH, Kind.CHARGE):
        return 0.0
    return unit_allowance(unit, kind.value)


def move_goals(state: GameState, us: UnitState) -> list[Point]:
    """Canonical destinations: each objective, each enemy unit, and back toward home."""
    goals = activation.marker_and_enemy_goals(state, us)
    assert us.placement is not None
    cx, _ = geo.centroid(us.placement)
    goals.append((cx, home_edge(state, us.side)))
    return list(dict.fromkeys(goals))  # two goals at one point are one action


def _rules(unit: Unit) -> MoveRules:
    return MoveRules.of(unit, SYSTEM)


def charge_targets(state: GameState, us: UnitState) -> list[str]:
    """Enemy units at least one model can reach base contact with ("Charge Action")."""
    assert us.placement is not None
    if not any(w.melee for w in us.unit.weapons) and not any_has(us.unit, "Impact"):
        return []
    reach = move_allowance(us.unit, Kind.CHARGE)
    out = []
    for e in state.enemies(us.side):
        assert e.placement is not None
        if geo.gap(us.placement, e.placement) > reach:
            continue
        if _can_charge(state, us, e.placement, reach):
            out.append(e.uid)
    return out


_CHARGE_MEMO_SIZE = 4096


def _key(p: Placement) -> tuple[bytes, bytes]:
    return (p.centres.tobytes(), p.removed.tobytes())


def _can_charge(state: GameState, us: UnitState, target: Placement, reach: float) -> bool:
    """:func:`oprlab.table.charge.can_charge`, remembered by the positions that can matter.

    Paths are at most ``reach`` long, so only units within reach (plus bases and spacing) of
    the charger can be in the way; most pairs are unchanged from one decision to the next.
    """
    assert us.placement is not None
    # A unit farther than this can neither stand in a path nor crowd a spot in contact.
    margin = reach + geo.SPACING + 2 * float(us.placement.radii.max()) + 0.5
    others = [
        p
        for p in state.placements_except(us.uid)
        if p is not target and geo.gap(us.placement, p) <= margin
    ]
    key = (
        reach,
        unit_rule(us.unit, "Flying"),
        unit_rule(us.unit, "Strider"),
        _key(us.placement),
        _key(target),
        tuple(sorted(_key(p) for p in others)),
    )
    memo = state.memo.charge
    if key not in memo:
        if len(memo) >= _CHARGE_MEMO_SIZE:
            memo.clear()
        memo[key] = _straight_charge(state.table, us.placement, target, others, reach) or (
            table_charge.can_charge(
                state.table, us.placement, target, reach, others, rules=_rules(us.unit)
            )
        )
    return bool(memo[key])


#: A straight charge must be this much shorter than the move for the quick answer to stand
#: (the table's own search tries contact spots at fixed angles, a little off the straight line).
_STRAIGHT_SLACK = 0.25
#: Pairs of models (nearest first) tried for a straight charge before the path search.
_STRAIGHT_TRIES = 64


def _straight_charge(
    table: Table, unit: Placement, target: Placement, others: Sequence[Placement], reach: float
) -> bool:
    """A sufficient condition for a legal charge on a table with no terrain: some charging
    model can go in a straight line, clear of other units by 1" and of the target's other
    bases, to a free spot touching the target's model nearest to it. Otherwise the table's
    path search answers (:func:`oprlab.table.charge.can_charge`)."""
    if table.pieces:
        return False
    tc, tr = target.centres[target.alive], target.radii[target.alive]
    oc = [o.centres[o.alive] for o in others]
    orr = [o.radii[o.alive] for o in others]
    blocks_c = np.concatenate(oc) if oc else np.zeros((0, 2))
    blocks_r = np.concatenate(orr) if orr else np.zeros(0)
    ac, ar = unit.centres[unit.alive], unit.radii[unit.alive]
    d = np.linalg.norm(ac[:, None, :] - tc[None, :, :], axis=2) - ar[:, None] - tr[None, :]
    pairs = np.argwhere(d <= reach - _STRAIGHT_SLACK)
    order = np.argsort(d[pairs[:, 0], pairs[:, 1]], kind="stable")[:_STRAIGHT_TRIES]
    for i, j in pairs[order]:
        a, ra = ac[i], float(ar[i])
        v = a - tc[j]
        n = float(np.hypot(*v))
        if n < EPS:
            continue
        spot = tc[j] + v / n * (tr[j] + ra + 0.01)
        if not (ra <= spot[0] <= table.width - ra and ra <= spot[1] <= table.depth - ra):
            continue
        if _segment_clear(a, spot, ra, blocks_c, blocks_r + geo.SPACING) and _segment_clear(
            a, spot, ra, np.delete(tc, j, axis=0), np.delete(tr, j) - EPS
        ):
            return True
    return False


def _segment_clear(
    a: np.ndarray, b: np.ndarray, ra: float, centres: np.ndarray, need: np.ndarray
) -> bool:
    """A base of radius ``ra`` swept from ``a`` to ``b`` keeps ``need`` from every centre."""
    if len(centres) == 0:
        return True
    ab = b - a
    length2 = float(ab @ ab)
    t = np.clip(((centres - a) @ ab) / length2, 0.0, 1.0) if length2 > 0 else np.zeros(len(need))
    closest = a + t[:, None] * ab
    gap = np.hypot(*(centres - closest).T) - ra
    return bool((gap >= need).all())


def shooting_targets(state: GameState, us: UnitState) -> dict[str, tuple[str, ...]]:
    """Enemy units some model may shoot (LoS and a weapon in range), with the weapon types."""
    if not combat.ranged_weapons(us.unit):
        return {}
    return combat.reachable_types(us, combat.look(state, us))


def legal_actions(state: GameState) -> list[Action]:
    """Every decision open to the side to act, in canonical order (the game's own rules)."""
    return state.rules.legal_actions(state)


def ability_actions(state: GameState, us: UnitState) -> list[Action]:
    """Special Abilities ``us`` may use now: spells not yet tried, Teleport once.

    Seed 002 "Special Abilities": "before or after moving and in any order, but ... before a
    Ranged or Melee Attack"; seed 002 "Teleport": "Once per activation, before attack".
    """
    tried = _tried(state, us)
    acts = abilities.cast_actions(state, us, tried)
    if not _teleported(state, us):
        acts += abilities.teleport_actions(state, us)
    return acts


def _tried(state: GameState, us: UnitState) -> tuple[str, ...]:
    p = state.pending
    return p.cast if p is not None and p.unit == us.uid else ()


def _teleported(state: GameState, us: UnitState) -> bool:
    return bool(state.teleported == us.uid)


@dataclass(frozen=True)
class SpellCast:
    """A spell waiting for the other side's resisting tokens: the ``CAST`` and the tokens
    friendly Casters paid towards it (by uid)."""

    action: Action
    helped: dict[str, int]


def casting(state: GameState) -> tuple[UnitState, Action, dict[str, int]]:
    """The spell waiting for the other side's resisting tokens."""
    c = state.casting
    assert isinstance(c, SpellCast)
    return state.units[c.action.unit], c.action, c.helped


def zone_picks(state: GameState) -> tuple[int, tuple[str, ...]]:
    """Who chooses now in "Choosing Deployment Zone and Activation Order", and the picks.

    The roll-off winner first chooses what to choose (``"zone"`` or ``"first"``, or the one
    :attr:`RiversideOptions.winner_takes` forces), then makes that pick (an edge ``"low"``
    / ``"high"``, or ``"lead"`` / ``"follow"``: it activates first or second); the loser then
    makes the other pick.
    """
    ro = state.roll_off
    assert ro is not None
    w = ro.winner
    took = ro.took
    if took is None:
        forced = options_of(state).winner_takes
        return w, WINNER_PICKS if forced == "choose" else (forced,)
    if took == "zone":
        return (w, EDGE_PICKS) if ro.edge is None else (1 - w, ORDER_PICKS)
    return (w, ORDER_PICKS) if ro.first is None else (1 - w, EDGE_PICKS)


def unit_actions(state: GameState, us: UnitState) -> list[Action]:
    """The actions one unit may take ("Activation Actions"); its shooting is the next decision.

    Every unit may take every action: seed 002 only says Idle removes Shaken (a Shaken unit
    that does something else stays Shaken). Immobile units (a GFF rule) only Hold or Idle.
    """
    acts = [Action(Kind.HOLD, us.uid), Action(Kind.IDLE, us.uid)]
    if unit_rule(us.unit, "Immobile"):
        return acts
    goals = move_goals(state, us)
    targets = charge_targets(state, us)
    extra = bool(combat.melee_weapons(us.unit)) and bennies_available(state, us.side) > 0
    return activation.unit_action_list(us, acts, goals, targets, benny_charges=extra)


def shoot_actions(state: GameState, us: UnitState) -> list[Action]:
    """Hold fire; every weapon type at one target; one type at a second target.

    "Choose one target for each ranged weapon type ... A maximum of 2 different targets": the
    listed splits send one weapon type to a second target and the others to the first;
    :func:`is_legal` accepts any split of the types over two targets.
    """
    targets = shooting_targets(state, us)
    shots = [Action(Kind.SHOOT, us.uid, target=t) for t in targets]
    if len(combat.weapon_types(us.unit)) >= 2:
        for w in combat.weapon_types(us.unit):
            for t2, types2 in targets.items():
                if w not in types2:
                    continue
                for t1, types1 in targets.items():
                    if t1 != t2 and any(v != w for v in types1):
                        shots.append(Action(Kind.SHOOT, us.uid, target=t1, second=t2, split=(w,)))
    acts = [Action(Kind.SHOOT, us.uid), *shots]
    if shots and bennies_available(state, us.side) > 0:
        acts += [replace(a, benny=True) for a in shots]  # seed 000 "Bennies": an extra attack
    return acts + set_clock_actions(state, us, list(targets))


def set_clock_actions(state: GameState, us: UnitState, targets: list[str]) -> list[Action]:
    """Before the Ranged Attack, a benny may set a clock: the shooter's or a target's, to 1..6.

    Seed 000 variation 5: "Roll any clock (friend or foe) immediately to any value". One clock
    per activation, only with a target to shoot at (the shooting step also waits for Special
    Abilities with none); each clock is named by one unit using it.
    """
    return bennies.set_clock_actions(state, us, targets, need_target=True)


def defending(state: GameState) -> defend.Defending:
    """The volley waiting for the defending side's ``DEFEND`` decision."""
    shot = state.defending
    assert isinstance(shot, defend.Defending)
    return shot


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` may be taken now (the game's own rules)."""
    return state.rules.is_legal(state, action)


_on_table = activation.on_table


def _validate(state: GameState, a: Action) -> UnitState | None:
    def bad(msg: str) -> UserError:
        return UserError(msg, value=str(a), expected="an action from legal_actions()")

    if state.done:
        raise bad("the game is over")
    if a.benny and a.kind not in (Kind.SHOOT, Kind.CHARGE):
        raise bad("a benny buys an extra attack: only when shooting or charging")
    if a.benny and bennies_available(state, state.active) <= 0:
        raise bad("no bennies left (bennies come with the clock-bennies mechanic)")
    if a.kind is not Kind.SHOOT and (a.second or a.split):
        raise bad("only shooting takes a second target or a weapon split")
    if a.kind is Kind.CONSOLIDATE:
        raise bad("Riverside has no move after combat")
    if a.kind is not Kind.CAST and (a.spell or a.boost):
        raise bad("only casting takes a spell and a boost")
    if a.kind not in (Kind.CAST, Kind.RESIST, Kind.SET_CLOCK, Kind.DEFEND) and a.value:
        raise bad("only casting, resisting, setting a clock and defending take a value")
    if a.kind is not Kind.CHOOSE_ZONE and a.choice:
        raise bad("only the roll-off choice takes a choice")
    if a.formation and a.kind is not Kind.DEPLOY:
        raise bad("only deploying takes a formation")
    if a.kind is Kind.CHOOSE_ZONE:
        if state.phase != Phase.ZONES or a.unit or a.target or a.to is not None:
            raise bad("no deployment zone or activation order to choose now")
        _, picks = zone_picks(state)
        if a.choice not in picks:
            raise bad(f"choose one of {', '.join(picks)}")
        return None
    if a.kind is Kind.RESIST:
        if state.phase != Phase.RESIST or a.unit or a.to is not None:
            raise bad("no spell to resist now")
        caster = casting(state)[0]
        spare = sum(f.spell_tokens for f in abilities.resisters(state, caster))
        if a.target != caster.uid or not 0 <= a.value <= spare:
            raise bad("resist the spell being cast with 0 up to the tokens of your Casters")
        return None
    if a.kind is Kind.PLACE_OBJECTIVE:
        problem = activation.objective_action_problem(state, a, objective_problem)
        if problem:
            raise bad(problem)
        return None
    if state.phase == Phase.CLOCKS or (a.kind is Kind.SET_CLOCK and not a.unit):
        problem = (
            bennies.start_clock_problem(state, a)
            if state.phase == Phase.CLOCKS
            else "a clock without a unit is set only at an activation's start"
        )
        if problem:
            raise bad(problem)
        return None
    us = state.units.get(a.unit)
    if us is None or us.side != state.active:
        raise bad("not a unit of the side to act")
    if a.kind is Kind.DEPLOY:
        waiting = state.phase in DEPLOY_PHASES and us in _to_deploy(state, us.side)
        problem = activation.deploy_action_problem(state, us, a, deploy_problem, may_deploy=waiting)
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.DEFEND:
        if state.phase != Phase.DEFEND or not isinstance(state.defending, defend.Defending):
            raise bad("no attack to defend against now")
        problem = defend.defend_problem(
            defending(state), us.uid, a, bennies_available(state, us.side)
        )
        if problem:
            raise bad(problem)
        return us
    if a.kind is Kind.SET_CLOCK:
        problem = _set_clock_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    p = state.pending
    going_on = state.phase in ABILITY_STEPS and p is not None and p.unit == us.uid
    if a.kind is Kind.SHOOT:
        if state.phase == Phase.SPECIAL and going_on:
            if a.target or a.to is not None:
                raise bad("a Rush makes no attack")
            return us
        if state.phase != Phase.SHOOT or not going_on:
            raise bad("this unit cannot shoot now")
        problem = _shot_problem(state, us, a)
        if problem:
            raise bad(problem)
        return us
    fresh = state.phase == Phase.ACTIVATION and not us.activated and us.on_table
    if a.kind in (Kind.CAST, Kind.TELEPORT):
        if not (fresh or going_on):
            raise bad("Special Abilities come in the unit's activation, before its attack")
        if a.kind is Kind.CAST:
            problem = abilities.cast_problem(state, us, a, _tried(state, us))
        elif not unit_rule(us.unit, "Teleport"):
            problem = "only units with Teleport teleport"
        elif _teleported(state, us):
            problem = "Teleport is once per activation"
        elif a.target or not _on_table(state, a.to):
            problem = "Teleport needs a point on the table and no target"
        else:
            problem = None
        if problem:
            raise bad(problem)
        return us
    if not (fresh or (going_on and state.phase == Phase.ACT)):
        raise bad("this unit cannot activate now")
    if a.kind is Kind.IDLE and not fresh:
        raise bad("Idle: the unit may not use any Special Abilities")
    if unit_rule(us.unit, "Immobile") and a.kind not in (Kind.HOLD, Kind.IDLE):
        raise bad("Immobile units may only Hold or Idle")
    if a.kind in (Kind.HOLD, Kind.IDLE) and (a.to is not None or a.target):
        raise bad("Hold and Idle take no move and no target (targets come after Hold)")
    problem = activation.move_or_charge_problem(
        state,
        a,
        lambda: charge_targets(state, us),
        has_melee=bool(combat.melee_weapons(us.unit)),
        out_of_reach="no model can reach base contact with that target",
    )
    if problem:
        raise bad(problem)
    return us


def _set_clock_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    return bennies.set_clock_problem(state, us, a, attack="the unit's Ranged Attack")


def _shot_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    if not a.target:
        if a.second or a.split or a.benny:
            return "a second target, a split or a benny needs a first target"
        return None
    if a.to is not None:
        return "shooting takes no move"
    targets = shooting_targets(state, us)
    if a.target not in targets:
        return "no model has LoS and a weapon in range of that target"
    if not a.second and not a.split:
        return None
    if not a.second or not a.split:
        return "a second target needs the weapon types that fire at it, and the reverse"
    if a.second == a.target or a.second not in targets:
        return "the second target must be another unit some model may shoot"
    types = combat.weapon_types(us.unit)
    if len(set(a.split)) != len(a.split) or not set(a.split) <= set(types):
        return "split names each of the unit's ranged weapon types at most once"
    if any(w not in targets[a.second] for w in a.split):
        return "a weapon type split to the second target does not reach it"
    if not any(w not in a.split for w in targets[a.target]):
        return "no other weapon type reaches the first target"
    return None


# --- apply --------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> None:
    """Carry out ``action`` (checked: an illegal action raises a clear error)."""
    state.rules.apply(state, action)


def preferred_edge(state: GameState) -> int:
    """The zone a commander choosing it takes: the edge nearer the markers (a tie: y = 0)."""
    t = state.table
    low = sum(o.position[1] - t.deployment_depth for o in state.objectives)
    high = sum(t.depth - t.deployment_depth - o.position[1] for o in state.objectives)
    return 0 if low <= high + EPS else 1


def _choose_zones(state: GameState) -> None:
    """ "The commanders roll-off and the winner chooses either the Deployment Zone ... or who
    activates first, the loser chooses the other": ``CHOOSE_ZONE`` decisions (:func:`zone_picks`).
    """
    winner = int(state.rng.integers(2))
    state.roll_off = RollOff(winner)
    state.phase = Phase.ZONES
    state.active = winner


def _choose_zone(state: GameState, a: Action) -> None:
    ro = state.roll_off
    assert ro is not None
    side = state.active
    state.log.add("choose_zone", side=side, choice=a.choice)
    if a.choice in WINNER_PICKS:
        ro.took = a.choice
    elif a.choice in EDGE_PICKS:
        ro.edge = (side, 0 if a.choice == "low" else 1)
    else:
        ro.first = side if a.choice == "lead" else 1 - side
    if ro.edge is None or ro.first is None:
        state.active = zone_picks(state)[0]  # the next pick's chooser
        return
    picker, chosen = ro.edge
    edges = [0, 0]
    edges[picker] = chosen
    edges[1 - picker] = 1 - chosen
    state.home_edges = edges
    state.first = ro.first
    winner = ro.winner
    state.roll_off = None
    state.log.add(
        "roll_off", winner=winner, took=ro.took, first=state.first, zone_chooser=picker,
        edges=edges,
    )  # fmt: skip
    opr_rules(state).start_round(state, 1)


def _begin(state: GameState, us: UnitState) -> None:
    """Count the activation once (Special Abilities and the action are one activation)."""
    if state.phase != Phase.ACTIVATION:
        return
    activation.count_activation(state, us)


def _cast(state: GameState, us: UnitState, a: Action) -> None:
    """A spell (seed 003 "Caster(X)"): pay, let the enemy resist if it can, roll."""
    step = state.phase if state.phase in ABILITY_STEPS else Phase.ACT
    p = state.pending
    moved = p.moved if p is not None else False
    tried = _tried(state, us)
    _begin(state, us)
    helped = abilities.pay_for_cast(state, us, a)
    clock_set = p is not None and p.unit == us.uid and p.clock_set
    state.pending = Pending(
        step, us.uid, us.side, moved=moved, cast=(*tried, a.spell), clock_set=clock_set
    )
    state.phase = step
    if abilities.resisters(state, us):  # "at the same time before rolling": their decision
        state.casting = SpellCast(a, helped)
        state.phase = Phase.RESIST
        state.active = 1 - us.side
        return
    _finish_cast(state, us, a, helped, 0)


def _finish_cast(
    state: GameState, us: UnitState, a: Action, helped: dict[str, int], resist: int
) -> None:
    roller = state.dice
    waiting = abilities.resolve_cast(
        state, us, a, helped, resist, roller, options_of(state).readings
    )
    pending = state.pending
    assert pending is not None
    if waiting is not None:  # the target's side decides on its bennies first (DEFEND)
        state.after_spell = pending
        _ask_defender(state, waiting, roller)
        return
    _after_spell(state, us, pending)


def _after_spell(state: GameState, us: UnitState, pending: Pending) -> None:
    """The caster's activation goes on from the step it cast in."""
    state.pending = pending
    state.phase = pending.step
    state.active = pending.side
    _after_ability(state, us)


def _teleport(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 002 "Teleport": once per activation, before the attack, before or after moving."""
    step = state.phase if state.phase in ABILITY_STEPS else Phase.ACT
    p = state.pending
    moved = p.moved if p is not None else False
    tried = _tried(state, us)
    _begin(state, us)
    abilities.teleport(state, us, a)
    state.teleported = us.uid
    clock_set = p is not None and p.unit == us.uid and p.clock_set
    state.pending = Pending(step, us.uid, us.side, moved=moved, cast=tried, clock_set=clock_set)
    state.phase = step
    _after_ability(state, us)


def _after_ability(state: GameState, us: UnitState) -> None:
    """After a Rush, the activation ends once no Special Ability is left to use."""
    if state.phase == Phase.SPECIAL and not ability_actions(state, us):
        _end_activation(state, us.side)


def _activate(state: GameState, us: UnitState, a: Action) -> None:
    tried = _tried(state, us)
    _begin(state, us)
    state.pending = None
    state.phase = Phase.ACTIVATION
    activation.log_activation(state, us, a, shaken=us.shaken)
    assert us.placement is not None
    if a.kind is Kind.IDLE:
        if us.shaken:
            us.shaken = False  # Idle: "remove the Shaken condition"
            state.log.add("rally", unit=us.uid)
        _end_activation(state, us.side)
    elif a.kind is Kind.HOLD:
        _offer_shot(state, us, moved=False, tried=tried)
    elif a.kind in (Kind.ADVANCE, Kind.RUSH):
        assert a.to is not None
        _move(state, us, a)
        if a.kind is Kind.ADVANCE and us.alive:
            _offer_shot(state, us, moved=True, tried=tried)
        elif us.alive:
            _offer_special(state, us, tried)
        else:
            _end_activation(state, us.side)
    elif a.kind is Kind.CHARGE:
        _charge(state, us, state.units[a.target], benny=a.benny)


def _move(state: GameState, us: UnitState, a: Action) -> None:
    assert us.placement is not None and a.to is not None
    before = geo.centroid(us.placement)
    moved = geo.move_unit_toward(
        state.table,
        us.placement,
        state.placements_except(us.uid),
        a.to,
        move_allowance(us.unit, a.kind),
        unit=us.unit,
        system=SYSTEM,
    )
    us.placement = moved.placement
    after = geo.centroid(us.placement)
    state.log.add("move", unit=us.uid, distance=round(math.dist(before, after), 3))
    roller = state.dice
    combat.dangerous_terrain(state, us, moved.dangerous, roller, a.kind.value)


def _offer_shot(
    state: GameState, us: UnitState, *, moved: bool, tried: tuple[str, ...] = ()
) -> None:
    """Hold and Advance "use Ranged Attack": the targets are the next decision, if any (or a
    Special Ability still to use before it)."""
    state.pending = Pending(Phase.SHOOT, us.uid, us.side, moved=moved, cast=tried)
    state.phase = Phase.SHOOT
    if shooting_targets(state, us) or ability_actions(state, us):
        return
    _end_activation(state, us.side)


def _offer_special(state: GameState, us: UnitState, tried: tuple[str, ...]) -> None:
    """After a Rush move: Special Abilities may still be used "after moving"."""
    state.pending = Pending(Phase.SPECIAL, us.uid, us.side, moved=True, cast=tried)
    state.phase = Phase.SPECIAL
    _after_ability(state, us)


def _end_activation(state: GameState, side: int) -> None:
    """ "Commanders alternate Activating" (:meth:`oprlab.game.opr.rounds.Rounds.end_activation`)."""
    opr_rules(state).end_activation(state, side)


def _shoot_step(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 002 "Ranged Attacks": the chosen targets, each attacked and tested in turn."""
    pending = state.pending
    assert pending is not None
    if a.target and state.phase == Phase.SHOOT:
        targets = shooting_targets(state, us)
        plan = [(a.target, tuple(w for w in targets[a.target] if w not in a.split))]
        if a.second:
            plan.append((a.second, tuple(a.split)))
        volleys = combat.volleys(state, us, plan)
        if a.benny:
            _spend_benny(state, us)
            if volleys:  # "a single extra attack" against the (first) target
                volleys[0] = volleys[0].with_extra_die()
        _fire_volleys(state, us, tuple(volleys), pending.side)
        return
    if state.phase == Phase.SHOOT:
        state.log.add("hold_fire", unit=us.uid)
    _end_activation(state, pending.side)


def _fire_volleys(
    state: GameState, us: UnitState, volleys: tuple[defend.Volley, ...], side: int
) -> None:
    """Each volley in turn; a defender with bennies gets a ``DEFEND`` decision once the hits
    are known (seed 002 "Roll Attacks" done, "Roll Defense" not yet), which pauses the rest."""
    readings = options_of(state).readings
    roller = state.dice
    for i, v in enumerate(volleys):
        target = state.units[v.target]
        if not target.on_table:
            continue
        d = combat.defender(target)
        rolled = defend.roll_hits(v.groups, d, roller, readings)
        if defend.hit_count(rolled) and bennies_available(state, target.side) > 0:
            shot = defend.Defending(us.uid, v.target, side, rolled, volley=v, rest=volleys[i + 1 :])
            _ask_defender(state, shot, roller)
            return
        result = defend.resolve_hits(rolled, d, roller, readings)
        combat.volley_result(state, us, v, d, result)
    _end_activation(state, side)


def _ask_defender(state: GameState, shot: defend.Defending, roller: Roller) -> None:
    """Pause the attack for the ``DEFEND`` decision of the side hit (seed 000 "Bennies")."""
    state.defending = shot
    state.pending = Pending(Phase.DEFEND, shot.target, shot.side)
    state.phase = Phase.DEFEND
    state.active = state.units[shot.target].side


def _fight(state: GameState, fight: defend.Fight, side: int, roller: Roller) -> None:
    """Seed 002 "Melee Attacks" from ``fight.step`` on: the charger's attack, Return Strikes,
    the Morale Test. Once a strike's hits are known, a struck side with bennies decides
    (``DEFEND``) before its Defense rolls, which pauses the fight."""
    opts = options_of(state)
    us, target = state.units[fight.charger], state.units[fight.target]
    while fight.step != "morale":
        charging = fight.step == "charge"
        if not charging and not (opts.strike_back and target.alive and us.alive):
            fight = fight.after(0)
            continue
        striker, struck = (us, target) if charging else (target, us)
        st = combat.plan_strike(
            state, striker, struck, charging=charging, options=opts.melee,
            extra=charging and fight.extra,
        )  # fmt: skip
        d = combat.defender(struck)
        if not st.weapons:
            fight = fight.after(combat.strike_result(state, st, d, None))
            continue
        rolled = defend.roll_hits(st.groups, d, roller, opts.readings)
        if defend.hit_count(rolled) and bennies_available(state, struck.side) > 0:
            shot = defend.Defending(st.unit, st.target, side, rolled, strike=st, fight=fight)
            _ask_defender(state, shot, roller)
            return
        result = defend.resolve_hits(rolled, d, roller, opts.readings)
        fight = fight.after(combat.strike_result(state, st, d, result))
    combat.melee_end(
        state, us, target, fight.dealt, fight.taken, roller, options=opts.melee,
        readings=opts.readings,
    )  # fmt: skip
    _end_activation(state, side)


def _defend(state: GameState, us: UnitState, a: Action) -> None:
    """Spend ``a.value`` bennies on as many hits, then roll the rest of the volley and go on."""
    shot, state.defending = state.defending, None
    assert isinstance(shot, defend.Defending)
    benny_defence.spend_defence(state, us, a.value)
    readings = options_of(state).readings
    roller = state.dice
    attacker = state.units[shot.attacker]
    if shot.spell:  # a spell's hits: the caster's activation then goes on
        abilities.spell_defended(state, shot, a.value, roller, readings)
        pending, state.after_spell = state.after_spell, None
        assert isinstance(pending, Pending)
        _after_spell(state, attacker, pending)
        return
    d = combat.defender(us)
    result = defend.resolve_hits(shot.rolled, d, roller, readings, defended=a.value)
    if shot.strike is not None and shot.fight is not None:
        wounds = combat.strike_result(state, shot.strike, d, result, defended=a.value)
        _fight(state, shot.fight.after(wounds), shot.side, roller)
        return
    assert shot.volley is not None
    combat.volley_result(state, attacker, shot.volley, d, result, defended=a.value)
    _fire_volleys(state, attacker, shot.rest, shot.side)


_spend_benny = bennies.spend_extra_attack
_set_clock = bennies.set_clock


def _charge(state: GameState, us: UnitState, target: UnitState, *, benny: bool = False) -> None:
    """Seed 002 "Charge Action": move up to 12" into base contact, then the Melee Attack.

    ``benny``: one extra attack die in the charger's attack, the benny spent once the Melee
    Attack comes (a charge that cannot be made, or a charger lost on the way, keeps it)."""
    assert us.placement is not None and target.placement is not None
    others = [p for p in state.placements_except(us.uid) if p is not target.placement]
    start = us.placement
    try:
        res = table_charge.charge_move(
            state.table,
            us.placement,
            target.placement,
            others,
            move_allowance(us.unit, Kind.CHARGE),
            rules=_rules(us.unit),
        )
    except OptionError:  # listed targets are reachable; kept for scripted scenes
        state.log.add("charge_failed", unit=us.uid, target=target.uid)
        _end_activation(state, us.side)
        return
    us.placement = res.placement
    state.log.add(
        "charge",
        unit=us.uid,
        target=target.uid,
        distance=round(math.dist(geo.centroid(start), geo.centroid(us.placement)), 3),
        in_contact=int(res.in_contact.sum()),
    )
    roller = state.dice
    combat.dangerous_terrain(state, us, res.move.dangerous, roller, "charge")
    if not (us.alive and target.alive):
        _end_activation(state, us.side)
        return
    if benny:
        _spend_benny(state, us)
    combat.pile_in(state, us, target)
    _fight(state, defend.Fight(us.uid, target.uid, extra=benny), us.side, roller)


# --- End Phase ------------------------------------------------------------------------------


def contesting(state: GameState, us: UnitState) -> bool:
    """Whether a unit may control or contest markers: on the table, not Shaken ("They cannot
    contest objectives"), not deployed on round 4."""
    return us.on_table and not us.shaken and us.arrived != LATE_ROUND


def controllers(state: GameState) -> list[set[int]]:
    """For each marker, the sides with a unit able to hold it within 3" right now."""
    return opr_rules(state).controllers(state)


def update_objectives(state: GameState) -> None:
    """End Phase: one side near takes control; both: neutral; nobody: unchanged ("Leaving an
    objective does not stop them from being controlled")."""
    opr_rules(state).update_objectives(state)


#: Shared with the other OPR procedure (``oprlab.game.objectives``).
score = objectives.score
units_left = objectives.units_left


class RiversideRules(OprRules):
    """Seed 002 (Riverside): the procedure's hooks as its text says them."""

    name = "riverside"
    version = "002_fdb385c07cc953af r6"
    readings = RiversideOptions

    setup = staticmethod(new_game)

    def marker_problem(self, state: GameState, point: Point) -> str | None:
        """ "Placing Objectives" but the spacing: outside the zones, not in impassable
        terrain."""
        return _marker_placing(state, point)

    objectives_placed = staticmethod(_choose_zones)

    def zone_choices(self, state: GameState) -> Sequence[str]:
        return zone_picks(state)[1]

    choose_zone = staticmethod(_choose_zone)
    to_deploy = staticmethod(_to_deploy)
    deploy_options = staticmethod(deploy_options)
    no_room_reason = staticmethod(no_room_reason)

    def deployed_placement(self, state: GameState, us: UnitState, action: Action) -> Placement:
        assert action.to is not None
        return formation_at(state, us, action.to, action.formation)

    def waits_for_room(self, state: GameState, us: UnitState) -> bool:
        """An Ambush unit with no room waits for the next round's Ambush phase (lost after
        round 4); a Normal or Scout unit with no room is lost."""
        if state.phase == Phase.AMBUSH and state.round < state.rounds:
            state.log.add("no_room", unit=us.uid, side=us.side, phase=state.phase, waits=True)
            return True
        return False

    def scout_phase(self, state: GameState) -> None:
        """Round 1: Normal, then Scout Deployment."""
        state.log.add("deployment_phase", round=state.round, phase="scout", first=state.first)

    def round_beginning(self, state: GameState, n: int) -> None:
        state.log.add("beginning", round=n)

    def round_deployment(self, state: GameState, n: int) -> bool:
        """Round 1: Normal then Scout Deployment; rounds 2-4: Ambush ("The commander that will
        activate first ... deploys first")."""
        state.phase = Phase.DEPLOY if n == 1 else Phase.AMBUSH
        state.log.add("deployment_phase", round=n, phase=state.phase, first=state.first)
        return True

    def round_end(self, state: GameState) -> None:
        state.log.add("activation_end", round=state.round, finished_first=state.finished_first)

    may_hold = staticmethod(contesting)
    unit_actions = staticmethod(unit_actions)
    special_actions = staticmethod(ability_actions)

    def step_actions(self, state: GameState, us: UnitState, phase: Phase) -> list[Action]:
        if phase not in ABILITY_STEPS:
            return []
        if phase == Phase.ACT:  # after a Special Ability: the action (Idle may use none)
            out = [a for a in unit_actions(state, us) if a.kind is not Kind.IDLE]
        elif phase == Phase.SHOOT:
            out = shoot_actions(state, us)
        else:  # "special", after a Rush: nothing more (SHOOT without a target) ends it
            out = [Action(Kind.SHOOT, us.uid)]
        return out + ability_actions(state, us)

    def defend_actions(self, state: GameState) -> list[Action]:
        return defend.defend_actions(defending(state), bennies_available(state, state.active))

    def resist_actions(self, state: GameState) -> list[Action]:
        return abilities.resist_actions(state, casting(state)[0])

    validate = staticmethod(_validate)

    def resist(self, state: GameState, us: UnitState | None, action: Action) -> None:
        caster, a, helped = casting(state)
        state.casting = None
        _finish_cast(state, caster, a, helped, action.value)

    def steps(self) -> dict[Kind, Step]:
        return {
            Kind.DEPLOY: self.deploy,
            Kind.SHOOT: _shoot_step,
            Kind.CAST: _cast,
            Kind.TELEPORT: _teleport,
            Kind.SET_CLOCK: _set_clock,
            Kind.DEFEND: _defend,
        }

    activate = staticmethod(_activate)
    move_allowance = staticmethod(move_allowance)

    def shooting_targets(self, state: GameState, us: UnitState) -> list[str]:
        return sorted(shooting_targets(state, us))


__all__: Sequence[str] = [
    "RiversideOptions",
    "RiversideRules",
    "apply",
    "charge_targets",
    "contesting",
    "controllers",
    "deploy_candidates",
    "deploy_problem",
    "deployment_zone",
    "edge",
    "formation_at",
    "is_legal",
    "legal_actions",
    "new_game",
    "objective_candidates",
    "objective_problem",
    "preferred_edge",
    "score",
    "shooting_targets",
    "units_left",
    "update_objectives",
]
