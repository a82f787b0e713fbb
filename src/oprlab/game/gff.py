"""A whole GFF game (seed 003): objectives, deployment, four rounds, morale, the winner.

The procedure is written as OpenSpiel-style functions on a :class:`GameState`:
:func:`legal_actions` lists the decisions open to the side to act in canonical order,
:func:`is_legal` checks any action (a move to any point), and :func:`apply` carries one out,
rolling every check through the game's mechanic and logging every event. Commanders only ever
choose among actions; dice enter through the mechanic with the game's seeded generator. The
procedure both OPR texts share (rounds, deployment, the unit's action) is written once in
:mod:`oprlab.game.opr`; :class:`GffRules` fills its hooks as seed 003 says, with the GFF steps in
``gff_deploy``, ``gff_moving``, ``gff_losses``, ``gff_spells``, ``gff_fire`` and ``gff_fight``.

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

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics``,
``oprlab.game.opr`` and the ``gff_*`` modules, and below.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import attrgetter

from oprlab.errors import OptionError, UserError
from oprlab.game import activation, bennies, benny_defence, objectives
from oprlab.game import casting as caster
from oprlab.game import geometry as geo
from oprlab.game import gff_defend as defend
from oprlab.game import gff_melee as fight
from oprlab.game import gff_room as room
from oprlab.game import gff_setup as edges
from oprlab.game import gff_shooting as shooting
from oprlab.game.actions import Action, Kind, listed
from oprlab.game.gff_deploy import (
    AMBUSH_DISTANCE,
    SCOUT_DEPTH,
    _formation_at_origin,
    _to_deploy,
    _zones,
    deploy_candidates,
    deploy_options,
    deploy_problem,
    deployment_zone,
    edge_of,
    facing,
    no_room_reason,
)
from oprlab.game.gff_fight import (
    CONSOLIDATE_INCHES,
    SEPARATE_INCHES,
    STRIKE_RANGE,
    _charge,
    _consolidate_step,
    _fight,
    _melee_weapons,
    _strike_back,
    _struck,
    charging,
    with_extra_attack,
)
from oprlab.game.gff_fire import _fire_plan, _land, _next_share, _shoot_step, _shot_result
from oprlab.game.gff_losses import FEARLESS_ROLL, HERO_AURA, casualty_order, morale
from oprlab.game.gff_moving import _begin, _move, move_allowance
from oprlab.game.gff_setup import GffOptions, options_of
from oprlab.game.gff_shooting import (
    ranged_weapons,
    shooting_targets,
)
from oprlab.game.gff_spells import (
    _cast,
    _cast_problem,
    _resist,
    _resist_problem,
    _spell_result,
    _to_act,
    cast_actions,
    resist_actions,
    spell_helpers,
    spell_resisters,
    spell_targets,
)
from oprlab.game.opr.hooks import OprRules, Step, opr_rules
from oprlab.game.state import GameState, Objective, Pending, Phase, UnitState
from oprlab.game.system import roll_off
from oprlab.mechanics import Mechanic
from oprlab.rules.gff.attack import HOOKS
from oprlab.rules.gff.profile import defender_profile
from oprlab.table.model import Placement, Point, Table
from oprlab.units.model import Army
from oprlab.units.rule_scope import unit_rule

ROUNDS = 4
OBJECTIVE_RANGE = objectives.OBJECTIVE_RANGE
OBJECTIVE_SPACING = objectives.OBJECTIVE_SPACING
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
    opr_rules(state).after_setup(state)  # house rules: before any die (game.house)
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


# --- what a unit can do -------------------------------------------------------------------


_can_activate = activation.can_activate
_uid = attrgetter("uid")


def move_goals(state: GameState, us: UnitState, foes: activation.Foes | None = None) -> list[Point]:
    """Canonical destinations: each objective, each enemy unit, and back toward home (``foes``:
    the listing's markers and enemies, read once for all its units)."""
    goals = list((foes or activation.Foes(state, us.side)).goals)
    assert us.placement is not None
    goals.append(edges.home_point(state.table, edge_of(state, us.side), geo.centroid(us.placement)))
    return list(dict.fromkeys(goals))  # two goals at one point are one action


def charge_targets(
    state: GameState, us: UnitState, foes: activation.Foes | None = None
) -> list[str]:
    """Enemy units within charge distance (at least one model can reach base contact)."""
    here = us.placement
    assert here is not None
    reach, _ = charging(us.unit)
    if reach is None:
        return []
    own = geo.gap_key(here)
    x, y, spread = geo.bounding_circle(here, own)
    far = reach + spread + geo.BOUND_MARGIN
    return [
        uid
        for uid, there, key, (ex, ey, their) in (foes or activation.Foes(state, us.side)).placed()
        if math.hypot(ex - x, ey - y) - their <= far  # the circles' gap bounds the models' gap
        and geo.keyed_gap(here, own, there, key) <= reach
    ]


bennies_available = bennies.bennies_available


def legal_actions(state: GameState) -> list[Action]:
    """Every decision open to the side to act, in canonical order (the game's own rules)."""
    return state.rules.legal_actions(state)


def unit_actions(
    state: GameState, us: UnitState, foes: activation.Foes | None = None
) -> list[Action]:
    """The actions one unit may take on activation (its shooting is the next decision), in
    canonical order (Hold first, then :func:`activation.unit_action_list`'s)."""
    if us.shaken:
        return [listed(Kind.IDLE, us.uid)]  # Shaken: must stay idle to stop being Shaken
    acts = [listed(Kind.HOLD, us.uid)]
    if unit_rule(us.unit, "Immobile"):
        return acts
    if foes is None:
        goals = move_goals(state, us)
    else:  # the listing's goals, deduplicated and sorted once, and this unit's way home
        assert us.placement is not None
        home = edges.home_point(state.table, edge_of(state, us.side), geo.centroid(us.placement))
        goals = foes.ordered_goals(home)
    targets = charge_targets(state, us, foes)
    extra = charging(us.unit)[1] and bennies_available(state, us.side) > 0
    return activation.unit_action_list(us, acts, goals, targets, benny_charges=extra)


caster_rating = caster.caster_rating


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
    acts = [listed(Kind.CONSOLIDATE, us.uid)]  # made once (a frozen Action is dear to build)
    return acts + [listed(Kind.CONSOLIDATE, us.uid, to=g) for g in dict.fromkeys(goals)]


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


def _set_clock_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    return bennies.set_clock_problem(state, us, a, attack="the unit shoots")


# --- apply --------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> None:
    """Carry out ``action`` (checked: an illegal action raises a clear error)."""
    state.rules.apply(state, action)


def _start_deployment(state: GameState) -> None:
    drawn = int(state.rng.integers(2))  # Deployment 1: roll-off
    first = roll_off(drawn, options_of(state).roll_off_winner)
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


_set_clock = bennies.set_clock


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
            waiting.rolled,
            blow.target,
            blow.situation,
            roller,
            defended=a.value,
            fear=blow.fear,
            hooks=opr_rules(state).attack_hooks,
        )
        x = _struck(state, waiting.charger, waiting.charged, waiting.exchange, blow, r)
        _fight(state, waiting.charger, waiting.charged, x, roller, waiting.defended + a.value)
        return
    if isinstance(waiting, defend.SpellDefending):
        caster = state.units[waiting.attacker]
        r = defend.resolve_hits(
            waiting.rolled,
            waiting.defender,
            waiting.situation,
            roller,
            defended=a.value,
            hooks=opr_rules(state).attack_hooks,
        )
        _spell_result(state, caster, us, waiting.spell, r, roller, defended=a.value)
        _to_act(state, caster, waiting.tried)
        return
    shot = waiting
    d = defender_profile(us.unit, models=us.models, markers=us.markers, shaken=us.shaken)
    result = defend.resolve_hits(
        shot.rolled,
        d,
        shot.situation,
        roller,
        defended=a.value,
        hooks=opr_rules(state).attack_hooks,
    )
    _shot_result(state, shot, result, roller, defended=a.value)
    after = _next_share(state, shot)
    if after is not None and _land(state, after, roller):
        return  # another unit hit by the Blast decides in turn
    shooter = state.units[shot.shooter]
    state.pending = Pending(Phase.SHOOT, shooter.uid, shot.side, moved=shot.moved)
    _fire_plan(state, shooter, shot.rest, moved=shot.moved, extra=False, side=shot.side)


# --- end of round ---------------------------------------------------------------------------


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
    attack_hooks = HOOKS

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

    def activation_actions(self, state: GameState, side: int) -> list[Action]:
        """Each unit's actions, the markers and enemies read once for all (``Foes``), in
        canonical order without a sort of the whole listing: :meth:`Action.sort_key` orders
        by unit first, so the units in order of uid, each with :func:`unit_actions` (in order
        already) and its spells, sorted; the spells follow its actions (a Cast after any
        action, as :class:`Kind` lists them), else the two are sorted together."""
        foes = activation.Foes(state, side)
        out: list[Action] = []
        for us in sorted(activation.can_activate(state, side), key=_uid):
            acts = self.unit_actions(state, us, foes)
            spells = sorted(self.special_actions(state, us), key=Action.sort_key)
            if not spells or acts[-1].sort_key() <= spells[0].sort_key():
                out += acts
                out += spells
            else:
                out += sorted(acts + spells, key=Action.sort_key)
        return out

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

    def begin_activation(self, state: GameState, us: UnitState) -> bool:
        _begin(state, us)  # seed 003: models standing in dangerous terrain roll first
        return us.on_table

    def move(self, state: GameState, us: UnitState, a: Action) -> None:
        assert a.to is not None
        _move(state, us, a.to, move_allowance(us.unit, a.kind), "move")

    def offer_shot(
        self, state: GameState, us: UnitState, *, moved: bool, tried: tuple[str, ...]
    ) -> None:
        _offer_shot(state, us, moved=moved)

    def charge(self, state: GameState, us: UnitState, target: UnitState, *, benny: bool) -> None:
        _charge(state, us, target, benny=benny)

    move_allowance = staticmethod(move_allowance)
    shooting_targets = staticmethod(shooting_targets)


__all__: Sequence[str] = [
    "AMBUSH_DISTANCE",
    "CASTING_ROLL",
    "CLOCK_VALUES",
    "CONSOLIDATE_INCHES",
    "DEPLOY_PHASES",
    "FEARLESS_ROLL",
    "HERO_AURA",
    "OBJECTIVE_RANGE",
    "SCOUT_DEPTH",
    "SEPARATE_INCHES",
    "SPELLS",
    "STRIKE_RANGE",
    "GffRules",
    "OptionError",
    "apply",
    "bennies_available",
    "caster_rating",
    "casualty_order",
    "charge_targets",
    "clocks_in_play",
    "controllers",
    "deploy_candidates",
    "deployment_zone",
    "edge_of",
    "facing",
    "is_legal",
    "legal_actions",
    "morale",
    "move_allowance",
    "move_goals",
    "new_game",
    "objective_candidates",
    "objective_problem",
    "ranged_weapons",
    "score",
    "shooting_targets",
    "spell_helpers",
    "spell_resisters",
    "spell_targets",
    "units_left",
    "update_objectives",
    "with_extra_attack",
]
