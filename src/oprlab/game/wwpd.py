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

This module plays the turns and is the rule system's surface; the game's types, markers and
end are in :mod:`oprlab.game.wwpd_state`, bases, formations and deployment zones in
:mod:`oprlab.game.wwpd_setup`, and targets, shooting and melee in :mod:`oprlab.game.wwpd_combat`;
their names are re-exported here.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics``,
``oprlab.game.geometry``, ``oprlab.game.events`` and the ``wwpd_*`` modules.
"""

from __future__ import annotations

import math

from oprlab.errors import UserError
from oprlab.game import geometry as geo
from oprlab.game.events import EventLog
from oprlab.game.system import roll_off
from oprlab.game.wwpd_combat import (
    _charge,
    _fire_now,
    _may_cower,
    _resolve_declared,
    charge_targets,
    cover_of,
    melee_attack_of,
    reach_masks,
    shooting_attack_of,
    shooting_targets,
)
from oprlab.game.wwpd_setup import (
    _to_deploy,
    base_radius,
    deploy_candidates,
    deploy_problem,
    deployment_zone,
    facing,
    formation,
    home_edge,
)
from oprlab.game.wwpd_state import (
    BASE_MM,
    CHARGE_INCHES,
    EPS,
    FORMATION_GAP,
    HARD_COVER_PRESETS,
    MELEE_RANGE,
    MOVE_INCHES,
    OBJECTIVE_RANGE,
    PINNING_CHOICES,
    ROUNDS,
    GameOptions,
    Kind,
    Marker,
    Pinning,
    WwpdAction,
    WwpdState,
    WwpdUnitState,
    _check_end,
    _finish,
    controllers,
    score,
    units_left,
    update_markers,
)
from oprlab.mechanics import Mechanic, get_mechanic
from oprlab.rng import generator
from oprlab.rules.wwpd.attack import kits
from oprlab.rules.wwpd.targets import Phase
from oprlab.table.deploy import objective_count, place_objectives
from oprlab.table.model import Point, Table
from oprlab.units.profiles import WwpdForce

__all__ = [
    "BASE_MM",
    "CHARGE_INCHES",
    "EPS",
    "FORMATION_GAP",
    "HARD_COVER_PRESETS",
    "MELEE_RANGE",
    "MOVE_INCHES",
    "OBJECTIVE_RANGE",
    "PINNING_CHOICES",
    "ROUNDS",
    "GameOptions",
    "Kind",
    "Marker",
    "Pinning",
    "WwpdAction",
    "WwpdState",
    "WwpdUnitState",
    "apply",
    "base_radius",
    "charge_targets",
    "controllers",
    "cover_of",
    "deploy_candidates",
    "deploy_problem",
    "deployment_zone",
    "facing",
    "formation",
    "home_edge",
    "invalidate",
    "is_legal",
    "legal_actions",
    "melee_attack_of",
    "move_goals",
    "new_game",
    "reach_masks",
    "score",
    "shooting_attack_of",
    "shooting_targets",
    "unit_actions",
    "units_left",
    "update_markers",
]


# --- setup --------------------------------------------------------------------------------


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
    # roll-off: the winner deploys first and plays first
    first = roll_off(int(rng.integers(2)), state.options.roll_off_winner)
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


def _targets(state: WwpdState, us: WwpdUnitState) -> list[str]:
    """:func:`shooting_targets` of a unit of the state, kept for the state's version: finding
    who still decides, listing the unit's shots and checking the one chosen ask it in turn of
    the same state (every change bumps the version, :func:`invalidate`)."""
    if state.units.get(us.uid) is not us:
        return shooting_targets(state, us)
    key = ("targets", us.uid, state.version)
    if key not in state.memo:
        state.memo[key] = shooting_targets(state, us)
    found: list[str] = state.memo[key]
    return found


def _find_deciders(state: WwpdState) -> list[WwpdUnitState]:
    out = []
    for us in state.friends(state.active):
        if us.decided:
            continue
        if state.phase == Phase.MOVEMENT.value:
            out.append(us)
        elif state.phase in (Phase.SHOOTING.value, Phase.FIREFIGHT.value):
            if _targets(state, us) or (
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
        acts += [WwpdAction(Kind.SHOOT, us.uid, target=t) for t in _targets(state, us)]
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
        if a.to is not None or a.target not in _targets(state, us):
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
