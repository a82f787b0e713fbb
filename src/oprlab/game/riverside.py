"""A whole Riverside game (seed 002_fdb385c07cc953af): objectives, phases, four rounds, winner.

The procedure follows :mod:`oprlab.game.gff` as OpenSpiel-style functions on a
:class:`GameState`: :func:`legal_actions` lists the decisions of the side to act in canonical
order, :func:`is_legal` checks any action (a move to any point), :func:`apply` carries one out,
rolling every check through the game's mechanic and logging every event. Attacks are resolved by
:mod:`oprlab.game.riverside_combat` with the Riverside pipeline. The procedure both OPR texts
share (rounds, deployment, the unit's action) is written once in :mod:`oprlab.game.opr`;
:class:`RiversideRules` fills its hooks as seed 002 says, with the Riverside steps in
``riverside_deploy``, ``riverside_charge``, ``riverside_steps`` and ``riverside_attacks``.

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
``riverside_defend``, ``riverside_abilities``, the other ``riverside_*`` modules, ``gff_room``
and the procedure shared with GFF: ``oprlab.game.opr``, ``activation``, ``bennies`` and
``benny_defence``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter

from oprlab.errors import UserError
from oprlab.game import activation, bennies, objectives
from oprlab.game import geometry as geo
from oprlab.game import riverside_abilities as abilities
from oprlab.game import riverside_combat as combat
from oprlab.game import riverside_defend as defend
from oprlab.game.actions import Action, Kind, listed
from oprlab.game.bennies import bennies_available
from oprlab.game.opr.hooks import OprRules, Step, opr_rules
from oprlab.game.riverside_attacks import _charge, _defend, _shoot_step, shooting_targets
from oprlab.game.riverside_charge import charge_targets, move_allowance
from oprlab.game.riverside_deploy import (
    AMBUSH_DISTANCE,
    DEPLOY_PHASES,
    SCOUT_DEPTH,
    _check_room,
    _to_deploy,
    deploy_candidates,
    deploy_options,
    deploy_problem,
    deployment_zone,
    edge,
    facing,
    formation_at,
    home_edge,
    no_room_reason,
)
from oprlab.game.riverside_options import ROUNDS, RiversideOptions, WinnerTakes, options_of
from oprlab.game.riverside_steps import (
    ABILITY_STEPS,
    SpellCast,
    _after_ability,
    _begin,
    _cast,
    _finish_cast,
    _teleport,
    _teleported,
    _tried,
    ability_actions,
    casting,
)
from oprlab.game.state import GameState, Pending, Phase, RollOff, UnitState
from oprlab.game.system import roll_off
from oprlab.mechanics import Mechanic
from oprlab.memo import game_memo, make_room
from oprlab.table.deploy import objective_ok
from oprlab.table.model import Placement, Point, Table
from oprlab.units.model import Army
from oprlab.units.rule_scope import unit_rule

SYSTEM = "riverside"
#: End Phase: "within 3" of an objective".
OBJECTIVE_RANGE = objectives.OBJECTIVE_RANGE
#: Placing Objectives: "over 9" away from other markers".
OBJECTIVE_SPACING = objectives.OBJECTIVE_SPACING
#: Units deployed on this round "may not contest objective markers".
LATE_ROUND = 4
#: OPR army lists Riverside can play (Army Forge game-system codes; empty: not said).
OPR_SYSTEMS = frozenset({"", "GF", "GFF", "AOF", "AOFS", "AOFR"})
EPS = 1e-6

#: The roll-off winner's ``CHOOSE_ZONE``: what it chooses ("Choosing Deployment Zone and
#: Activation Order"); then the picks: a zone (an edge) and who activates first.
WINNER_PICKS = ("first", "zone")
EDGE_PICKS = ("high", "low")  # y = depth, y = 0
ORDER_PICKS = ("follow", "lead")  # the picker activates second / first


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
    held = _CLEAR.get(id(t))
    if held is None or held[0] is not t:
        make_room(_CLEAR, _CLEAR_TABLES)
        held = _CLEAR[id(t)] = (t, {})
    clear = held[1].get(point)
    if clear is None:
        clear = held[1][point] = objective_ok(t, point)
    if not clear:
        return "objective markers can't be placed in impassable terrain"
    return None


#: Whether a marker at a point keeps clear of impassable terrain, by table (held, so its id
#: stays unique) and then point: the placing phase asks it of every point of the 3" grid for
#: each marker and each candidate (2,400 times in two games), and the answer depends on the
#: terrain alone.
_CLEAR: dict[int, tuple[Table, dict[Point, bool]]] = game_memo("game.riverside._CLEAR")
_CLEAR_TABLES = 16


def objective_candidates(state: GameState) -> list[Point]:
    return opr_rules(state).objective_candidates(state)


# --- what a unit can do -------------------------------------------------------------------


_can_activate = activation.can_activate


def move_goals(state: GameState, us: UnitState, foes: activation.Foes | None = None) -> list[Point]:
    """Canonical destinations: each objective, each enemy unit, and back toward home (``foes``:
    the listing's markers and enemies, read once for all its units)."""
    goals = list((foes or activation.Foes(state, us.side)).goals)
    assert us.placement is not None
    cx, _ = geo.centroid(us.placement)
    goals.append((cx, home_edge(state, us.side)))
    return list(dict.fromkeys(goals))  # two goals at one point are one action


def legal_actions(state: GameState) -> list[Action]:
    """Every decision open to the side to act, in canonical order (the game's own rules)."""
    return state.rules.legal_actions(state)


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


def unit_actions(
    state: GameState, us: UnitState, foes: activation.Foes | None = None
) -> list[Action]:
    """The actions one unit may take ("Activation Actions"); its shooting is the next decision.
    In canonical order (:meth:`Action.sort_key`: Hold, the moves and charges, then Idle);
    ``foes``: the listing's markers and enemies, read once for all its units.

    Every unit may take every action: seed 002 only says Idle removes Shaken (a Shaken unit
    that does something else stays Shaken). Immobile units (a GFF rule) only Hold or Idle.
    """
    hold, idle = listed(Kind.HOLD, us.uid), listed(Kind.IDLE, us.uid)  # made once (listed)
    if unit_rule(us.unit, "Immobile"):
        return [hold, idle]
    goals = move_goals(state, us, foes)
    targets = charge_targets(state, us, foes)
    extra = bool(combat.melee_weapons(us.unit)) and bennies_available(state, us.side) > 0
    acts = activation.unit_action_list(us, [hold], goals, targets, benny_charges=extra)
    acts.append(idle)
    return acts


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
    winner = roll_off(int(state.rng.integers(2)), options_of(state).roll_off_winner)
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


_set_clock = bennies.set_clock


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

    def activation_actions(self, state: GameState, side: int) -> list[Action]:
        """As GFF's (:meth:`oprlab.game.gff.GffRules.activation_actions`): the markers and
        enemies read once for all (``Foes``), the units by uid, each unit's actions in order
        already and sorted with its Special Abilities only when it has some."""
        foes = activation.Foes(state, side)
        out: list[Action] = []
        for us in sorted(activation.can_activate(state, side), key=attrgetter("uid")):
            acts = unit_actions(state, us, foes)
            more = ability_actions(state, us)
            out += sorted(acts + more, key=Action.sort_key) if more else acts
        return out

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

    abilities_used = staticmethod(_tried)

    def begin_activation(self, state: GameState, us: UnitState) -> bool:
        _begin(state, us)
        state.pending = None
        state.phase = Phase.ACTIVATION
        return True

    def activation_logged(self, state: GameState, us: UnitState) -> dict[str, object]:
        return {"shaken": us.shaken}  # seed 002: any action, only Idle removes Shaken

    move = staticmethod(_move)
    offer_shot = staticmethod(_offer_shot)
    after_rush = staticmethod(_offer_special)

    def charge(self, state: GameState, us: UnitState, target: UnitState, *, benny: bool) -> None:
        _charge(state, us, target, benny=benny)

    move_allowance = staticmethod(move_allowance)

    def shooting_targets(self, state: GameState, us: UnitState) -> list[str]:
        return sorted(shooting_targets(state, us))


__all__: Sequence[str] = [
    "AMBUSH_DISTANCE",
    "DEPLOY_PHASES",
    "ROUNDS",
    "SCOUT_DEPTH",
    "RiversideOptions",
    "RiversideRules",
    "SpellCast",
    "WinnerTakes",
    "ability_actions",
    "apply",
    "casting",
    "charge_targets",
    "contesting",
    "controllers",
    "defending",
    "deploy_candidates",
    "deploy_problem",
    "deployment_zone",
    "edge",
    "facing",
    "formation_at",
    "home_edge",
    "is_legal",
    "legal_actions",
    "move_allowance",
    "new_game",
    "objective_candidates",
    "objective_problem",
    "options_of",
    "preferred_edge",
    "score",
    "shoot_actions",
    "shooting_targets",
    "units_left",
    "update_objectives",
]
