"""A whole GFF game (seed 003): objectives, deployment, four rounds, morale, the winner.

The procedure is written as OpenSpiel-style functions on a :class:`GameState`:
:func:`legal_actions` lists the decisions open to the side to act in canonical order,
:func:`is_legal` checks any action (a move to any point), and :func:`apply` carries one out,
rolling every check through the game's mechanic and logging every event. Commanders only ever
choose among actions; dice enter through the mechanic with the game's seeded generator.

Readings (docs/rules/gff.md "Full games"): the deployment roll-off winner deploys on the low
edge (y = 0) and goes first in round 1; Ambush units arrive at the start of round 2; each
shooting unit fires all its ranged weapons that reach at one target; casualties are the models
furthest from the attacker's side removed last (the defender keeps its front); roll-offs and
the D3 of objectives use the game's generator under every mechanic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from oprlab.errors import OptionError, UserError
from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.events import EventLog
from oprlab.game.state import GameState, Objective, UnitState
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.melee import UnitState as MeleeState
from oprlab.rules.gff.melee import resolve_exchange
from oprlab.rules.gff.profile import attack_profile, defender_profile
from oprlab.rules.gff.resolve import AttackResult, Roller, resolve_attack
from oprlab.table.model import Placement, Point, Table
from oprlab.units.model import Army, Unit

ROUNDS = 4
OBJECTIVE_RANGE = 3.0
OBJECTIVE_SPACING = 9.0
AMBUSH_DISTANCE = 9.0
HERO_AURA = 12.0
SCOUT_DEPTH = 12.0


# --- setup --------------------------------------------------------------------------------


def new_game(
    army_a: Army,
    army_b: Army,
    *,
    seed: int,
    mechanic: str | Mechanic = "d6",
    table: Table | None = None,
    log: bool = True,
) -> GameState:
    """A game ready for objectives and deployment; checks that both armies can play."""
    for i, army in enumerate((army_a, army_b)):
        if not army.units:
            raise UserError(f"army {i + 1} has no units", value=army.name, expected="a unit")
        if army.system and army.system.upper() not in {"GFF", "GF"}:
            raise UserError(
                f"army {i + 1} is for another game system",
                value=army.system,
                expected="a GFF (or GF) list for the gff rules",
            )
    mech = get_mechanic(mechanic) if isinstance(mechanic, str) else mechanic
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    units: dict[str, UnitState] = {}
    for side, army in enumerate((army_a, army_b)):
        for i, unit in enumerate(army.units):
            uid = f"{'AB'[side]}{i + 1}"
            reserve = "ambush" if unit.has("Ambush") else "scout" if unit.has("Scout") else None
            units[uid] = UnitState(uid, side, unit, None, unit.size, reserve=reserve)
    state = GameState(
        system="gff",
        table=table or Table(),
        armies=(army_a, army_b),
        units=units,
        mechanic=mech,
        mech_state=mech.initial_state([u.owner for u in units.values()], rng),
        rng=rng,
        seed=seed,
        log=EventLog(enabled=log),
    )
    first = int(state.rng.integers(2))  # roll-off: the winner places the first objective
    count = int(state.rng.integers(1, 4)) + 2  # D3 + 2
    state.extra["objectives_left"] = count
    state.active = first
    state.phase = "objectives"
    state.extra["mechanic_name"] = mechanic if isinstance(mechanic, str) else mech.name
    state.log.add("setup", seed=seed, mechanic=repr(mech), objectives=count, first=first)
    return state


def _zone_y(table: Table, side: int) -> tuple[float, float]:
    d = table.deployment_depth
    return (0.0, d) if side == 0 else (table.depth - d, table.depth)


def objective_candidates(state: GameState) -> list[Point]:
    """Points outside both deployment zones, over 9" from other markers (a 3" grid)."""
    t = state.table
    pts: list[Point] = []
    for x in np.arange(3.0, t.width - 2.9, 3.0):
        for y in np.arange(t.deployment_depth + 1.5, t.depth - t.deployment_depth - 1.4, 3.0):
            p = (float(x), float(y))
            if all(math.dist(p, o.position) > OBJECTIVE_SPACING for o in state.objectives):
                pts.append(p)
    return pts


def deploy_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres where the unit's formation fits wholly inside its zone, clear of others."""
    t = state.table
    lo, hi = _zone_y(t, us.side)
    if us.reserve == "scout":
        lo, hi = (
            (0.0, t.deployment_depth + SCOUT_DEPTH)
            if us.side == 0
            else (t.depth - t.deployment_depth - SCOUT_DEPTH, t.depth)
        )
    pts: list[Point] = []
    facing = 0.0 if us.side == 0 else math.pi
    others = state.placements_except(us.uid)
    for y in np.linspace(lo + 2.5, hi - 2.5, 3):
        for x in np.arange(4.0, t.width - 3.9, 4.0):
            p = geo.formation(us.unit, us.models, (float(x), float(y)), facing)
            ys = p.centres[:, 1]
            if ys.min() - p.radii[0] < lo or ys.max() + p.radii[0] > hi:
                continue
            if geo.inside_table(t, p) and all(geo.gap(p, o) >= geo.SPACING for o in others):
                pts.append((float(x), float(y)))
    return pts


def ambush_candidates(state: GameState, us: UnitState) -> list[Point]:
    """Centres anywhere over 9" from enemy units (a 4" grid)."""
    t = state.table
    pts: list[Point] = []
    enemies = [e.placement for e in state.enemies(us.side) if e.placement is not None]
    others = state.placements_except(us.uid)
    for x in np.arange(4.0, t.width - 3.9, 4.0):
        for y in np.arange(4.0, t.depth - 3.9, 4.0):
            p = geo.formation(us.unit, us.models, (float(x), float(y)))
            if not geo.inside_table(t, p):
                continue
            if all(geo.gap(p, e) > AMBUSH_DISTANCE for e in enemies) and all(
                geo.gap(p, o) >= geo.SPACING for o in others
            ):
                pts.append((float(x), float(y)))
    return pts


# --- legal actions ------------------------------------------------------------------------


def _to_deploy(state: GameState, side: int) -> list[UnitState]:
    phase = state.phase
    want = "scout" if phase == "scout" else "ambush" if phase == "ambush" else None
    return [
        u for u in state.side_units(side) if u.placement is None and u.alive and u.reserve == want
    ]


def _can_activate(state: GameState, side: int) -> list[UnitState]:
    return [u for u in state.side_units(side) if u.on_table and not u.activated]


def move_allowance(unit: Unit, kind: Kind) -> float:
    """Advance 6", Rush/Charge 12"; Fast +2"/+4", Slow -2"/-4" (seed 003)."""
    base = {Kind.ADVANCE: 6.0, Kind.RUSH: 12.0, Kind.CHARGE: 12.0}.get(kind, 0.0)
    if not base:
        return 0.0
    fast = 2.0 if kind is Kind.ADVANCE else 4.0
    if unit.has("Fast"):
        base += fast
    if unit.has("Slow"):
        base -= fast
    return base


def move_goals(state: GameState, us: UnitState) -> list[Point]:
    """Canonical destinations: each objective, each enemy unit, and back toward home."""
    goals: list[Point] = [o.position for o in state.objectives]
    for e in state.enemies(us.side):
        assert e.placement is not None
        goals.append(geo.centroid(e.placement))
    assert us.placement is not None
    cx, _ = geo.centroid(us.placement)
    home = 0.0 if us.side == 0 else state.table.depth
    goals.append((cx, home))
    return goals


def shooting_targets(state: GameState, us: UnitState) -> list[str]:
    """Enemy units that some ranged weapon of ``us`` reaches (line of sight: the table's)."""
    assert us.placement is not None
    reach = max((w.range or 0 for w in us.unit.weapons if not w.melee), default=0)
    if reach <= 0:
        return []
    return [
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None and geo.gap(us.placement, e.placement) <= reach
    ]


def charge_targets(state: GameState, us: UnitState) -> list[str]:
    """Enemy units within charge distance (at least one model can reach base contact)."""
    assert us.placement is not None
    if not any(w.melee for w in us.unit.weapons) and not us.unit.has("Impact"):
        return []
    reach = move_allowance(us.unit, Kind.CHARGE)
    return [
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None and geo.gap(us.placement, e.placement) <= reach
    ]


def legal_actions(state: GameState) -> list[Action]:
    """Every decision open to the side to act, in canonical order."""
    if state.done:
        return []
    side = state.active
    out: list[Action] = []
    if state.phase == "objectives":
        out = [Action(Kind.PLACE_OBJECTIVE, to=p) for p in objective_candidates(state)]
    elif state.phase in ("deploy", "scout", "ambush"):
        for us in _to_deploy(state, side):
            pts = (
                ambush_candidates(state, us)
                if state.phase == "ambush"
                else deploy_candidates(state, us)
            )
            out.extend(Action(Kind.DEPLOY, us.uid, to=p) for p in pts)
    elif state.phase == "activation":
        for us in _can_activate(state, side):
            out.extend(unit_actions(state, us))
    return sorted(out, key=Action.sort_key)


def unit_actions(state: GameState, us: UnitState) -> list[Action]:
    """The actions one unit may take on activation."""
    if us.shaken:
        return [Action(Kind.IDLE, us.uid)]  # Shaken: must stay idle to stop being Shaken
    acts = [Action(Kind.HOLD, us.uid)]
    acts += [Action(Kind.HOLD, us.uid, target=t) for t in shooting_targets(state, us)]
    if us.unit.has("Immobile"):
        return acts
    for goal in move_goals(state, us):
        acts.append(Action(Kind.ADVANCE, us.uid, to=goal))
        acts.append(Action(Kind.RUSH, us.uid, to=goal))
    acts += [Action(Kind.CHARGE, us.uid, target=t) for t in charge_targets(state, us)]
    return acts


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` may be taken now, including moves to any point of the table."""
    try:
        _validate(state, action)
    except UserError:
        return False
    return True


def _validate(state: GameState, a: Action) -> UnitState | None:
    def bad(msg: str) -> UserError:
        return UserError(msg, value=str(a), expected="an action from legal_actions()")

    if state.done:
        raise bad("the game is over")
    if a.kind is Kind.PLACE_OBJECTIVE:
        if state.phase != "objectives" or a.to is None:
            raise bad("no objective to place now")
        if a.to not in objective_candidates(state):
            raise bad("objective marker not allowed there")
        return None
    us = state.units.get(a.unit)
    if us is None or us.side != state.active:
        raise bad("not a unit of the side to act")
    if a.kind is Kind.DEPLOY:
        if state.phase not in ("deploy", "scout", "ambush") or us not in _to_deploy(state, us.side):
            raise bad("this unit cannot deploy now")
        if a.to is None:
            raise bad("deploy needs a position")
        return us
    if state.phase != "activation" or us.activated or not us.on_table:
        raise bad("this unit cannot activate now")
    if us.shaken and a.kind is not Kind.IDLE:
        raise bad("a Shaken unit must stay idle")
    if a.kind is Kind.IDLE:
        return us
    if us.unit.has("Immobile") and a.kind is not Kind.HOLD:
        raise bad("Immobile units may only Hold")
    if a.kind in (Kind.ADVANCE, Kind.RUSH) and (
        a.to is None
        or not (0 <= a.to[0] <= state.table.width)
        or not (0 <= a.to[1] <= state.table.depth)
    ):
        raise bad("move needs a point on the table")
    if a.kind is Kind.HOLD and a.target and a.target not in shooting_targets(state, us):
        raise bad("target out of range")
    if a.kind is Kind.CHARGE and a.target not in charge_targets(state, us):
        raise bad("target out of charge range")
    return us


# --- apply --------------------------------------------------------------------------------


def apply(state: GameState, action: Action) -> None:
    """Carry out ``action`` (checked: an illegal action raises a clear error)."""
    us = _validate(state, action)
    if action.kind is Kind.PLACE_OBJECTIVE:
        assert action.to is not None
        state.objectives.append(Objective(action.to))
        state.log.add("objective", side=state.active, at=list(action.to))
        state.extra["objectives_left"] -= 1
        state.active = 1 - state.active
        if state.extra["objectives_left"] == 0:
            _start_deployment(state)
        return
    assert us is not None
    if action.kind is Kind.DEPLOY:
        _deploy(state, us, action)
        return
    _activate(state, us, action)


def _start_deployment(state: GameState) -> None:
    first = int(state.rng.integers(2))  # deployment roll-off
    state.first = first
    state.active = first
    state.phase = "deploy"
    state.log.add("deployment", first=first)
    _next_deployer(state)


def _deploy(state: GameState, us: UnitState, action: Action) -> None:
    assert action.to is not None
    facing = 0.0 if us.side == 0 else math.pi
    p = geo.formation(us.unit, us.models, action.to, facing)
    others = state.placements_except(us.uid)
    if not geo.inside_table(state.table, p) or any(geo.gap(p, o) < geo.SPACING for o in others):
        raise UserError("the unit does not fit there", value=str(action), expected="free space")
    us.placement = p
    if us.reserve == "ambush":
        us.arrived = state.round
    us.reserve = None
    state.log.add(
        "deploy", unit=us.uid, side=us.side, at=[round(v, 3) for v in action.to], round=state.round
    )
    state.active = 1 - state.active
    _next_deployer(state)


def _next_deployer(state: GameState) -> None:
    """Alternate deployment; move on to the next phase when nobody has units left to place."""
    while True:
        if _has_room(state, state.active):
            return
        if _to_deploy(state, 1 - state.active):
            state.active = 1 - state.active
            if _has_room(state, state.active):
                return
            _give_up_deploying(state, state.active)
            continue
        _give_up_deploying(state, state.active)
        if state.phase == "deploy":
            state.phase = "scout"
            state.active = state.first
            if any(_to_deploy(state, s) for s in (0, 1)):
                continue
        if state.phase in ("deploy", "scout") and state.round == 0:
            _start_round(state, 1)
            return
        if state.phase == "ambush":
            state.phase = "activation"
            state.active = state.first
            _skip_empty(state)
            return
        return


def _candidates(state: GameState, us: UnitState) -> list[Point]:
    return ambush_candidates(state, us) if state.phase == "ambush" else deploy_candidates(state, us)


def _has_room(state: GameState, side: int) -> bool:
    """Whether ``side`` has a unit to deploy and room for it (units without room are lost)."""
    for us in _to_deploy(state, side):
        if _candidates(state, us):
            return True
        us.models = 0
        state.log.add("no_room", unit=us.uid, side=side, phase=state.phase)
    return False


def _give_up_deploying(state: GameState, side: int) -> None:
    """Units that find no room anywhere stay off the table (and count as lost)."""
    _has_room(state, side)


def _start_round(state: GameState, n: int) -> None:
    state.round = n
    for us in state.units.values():
        us.activated = False
        us.fatigued = False
    if n > 1:
        state.first = state.finished_first if state.finished_first is not None else state.first
    state.finished_first = None
    state.active = state.first
    state.log.add("round", round=n, first=state.first)
    if n > 1 and any(u.reserve == "ambush" and u.alive for u in state.units.values()):
        state.phase = "ambush"
        _next_deployer(state)
        return
    state.phase = "activation"
    _skip_empty(state)


def _skip_empty(state: GameState) -> None:
    """Pass the turn to the other side when the side to act has nothing left to activate."""
    if _can_activate(state, state.active):
        return
    if state.finished_first is None:
        state.finished_first = state.active
    if _can_activate(state, 1 - state.active):
        state.active = 1 - state.active
        return
    _end_round(state)


def _activate(state: GameState, us: UnitState, a: Action) -> None:
    us.activated = True
    roller = Roller(state.mechanic, state.mech_state, state.rng)
    state.log.add(
        "activate",
        round=state.round,
        side=us.side,
        unit=us.uid,
        action=a.kind.value,
        to=None if a.to is None else [round(v, 3) for v in a.to],
        target=a.target,
    )
    assert us.placement is not None
    if a.kind is Kind.IDLE:
        us.shaken = False
        state.log.add("rally", unit=us.uid)
    elif a.kind in (Kind.ADVANCE, Kind.RUSH):
        assert a.to is not None
        before = geo.centroid(us.placement)
        us.placement = geo.move_toward(
            state.table,
            us.placement,
            state.placements_except(us.uid),
            a.to,
            move_allowance(us.unit, a.kind),
        )
        after = geo.centroid(us.placement)
        state.log.add("move", unit=us.uid, distance=round(math.dist(before, after), 3))
        if a.kind is Kind.ADVANCE:
            _shoot_best(state, us, roller, moved=True)
    elif a.kind is Kind.HOLD:
        if a.target:
            _shoot(state, us, state.units[a.target], roller, moved=False)
    elif a.kind is Kind.CHARGE:
        _charge(state, us, state.units[a.target], roller)
    state.mech_state = roller.state
    _after_activation(state)


def _shoot_best(state: GameState, us: UnitState, roller: Roller, *, moved: bool) -> None:
    """After an Advance the unit shoots the closest target it can reach, if any."""
    targets = shooting_targets(state, us)
    if not targets:
        return
    assert us.placement is not None
    place = us.placement
    best = min(targets, key=lambda t: geo.gap(place, _placement(state, t)))
    _shoot(state, us, state.units[best], roller, moved=moved)


def _placement(state: GameState, uid: str) -> Placement:
    p = state.units[uid].placement
    assert p is not None
    return p


def _shoot(
    state: GameState, us: UnitState, target: UnitState, roller: Roller, *, moved: bool
) -> None:
    assert us.placement is not None and target.placement is not None
    distance = geo.gap(us.placement, target.placement)
    weapons = [
        w for w in us.unit.weapons if not w.melee and w.range is not None and w.range >= distance
    ]
    if not weapons:
        return
    alive_share = us.models / max(1, us.unit.size)
    profiles = []
    for w in weapons:
        p = attack_profile(us.unit, w)
        dice = max(1, round(p.dice * alive_share)) if us.models else 0
        profiles.append(replace(p, dice=dice))
    situation = Situation(distance=distance, moved=moved, attacker=us.owner, defender=target.owner)
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    result = resolve_attack(profiles, d, situation, roller)
    state.log.add(
        "shoot",
        unit=us.uid,
        target=target.uid,
        distance=round(distance, 3),
        weapons=[w.name for w in weapons],
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
    )
    _apply_result(state, target, result, us)


def _apply_result(state: GameState, target: UnitState, r: AttackResult, by: UnitState) -> None:
    _remove(state, target, r.casualties, by)
    target.markers = r.markers if target.alive else 0
    if r.shaken and target.alive:
        target.shaken = True
        state.log.add("shaken", unit=target.uid, cause="wound effect")


def _remove(state: GameState, target: UnitState, casualties: int, by: UnitState) -> None:
    """Remove casualties: the models nearest the attacker go first (the defender's front)."""
    if casualties <= 0 or target.placement is None:
        return
    casualties = min(casualties, target.models)
    p = target.placement
    alive = np.flatnonzero(p.alive)
    assert by.placement is not None
    bc = np.asarray(geo.centroid(by.placement))
    order = alive[np.argsort(np.linalg.norm(p.centres[alive] - bc, axis=1), kind="stable")]
    p.removed[order[:casualties]] = True
    target.models -= casualties
    state.log.add("casualties", unit=target.uid, models=casualties, left=target.models)
    if target.models <= 0:
        state.log.add("destroyed", unit=target.uid, side=target.side)


def _charge(state: GameState, us: UnitState, target: UnitState, roller: Roller) -> None:
    assert us.placement is not None and target.placement is not None
    others = state.placements_except(us.uid)
    moved = geo.charge_move(
        state.table, us.placement, target.placement, others, move_allowance(us.unit, Kind.CHARGE)
    )
    if moved is None:
        state.log.add("charge_failed", unit=us.uid, target=target.uid)
        return
    us.placement = moved
    result = resolve_exchange(
        _carried(us),
        _carried(target),
        roller,
        attacker_state=MeleeState(us.models, us.markers, us.shaken, us.fatigued),
        defender_state=MeleeState(target.models, target.markers, target.shaken, target.fatigued),
        owners=(us.owner, target.owner),
    )
    state.log.add(
        "melee",
        unit=us.uid,
        target=target.uid,
        wounds_dealt=result.attacker.wounds_dealt,
        wounds_taken=result.defender.wounds_dealt,
        casualties_dealt=result.defender.casualties,
        casualties_taken=result.attacker.casualties,
        struck_back=result.struck_back,
    )
    for side_state, res, foe in ((us, result.attacker, target), (target, result.defender, us)):
        _remove(state, side_state, side_state.models - res.models, foe)
        side_state.markers = res.markers if side_state.alive else 0
        if res.shaken and side_state.alive and not side_state.shaken:
            side_state.shaken = True
            state.log.add("shaken", unit=side_state.uid, cause="wound effect")
        side_state.fatigued = res.fatigued
    if us.alive and target.alive and target.placement is not None and us.placement is not None:
        # After Combat: chargers move back and separate by 1" (if possible).
        away = geo.centroid(us.placement)
        tc = geo.centroid(target.placement)
        vx, vy = away[0] - tc[0], away[1] - tc[1]
        n = math.hypot(vx, vy) or 1.0
        goal = (away[0] + vx / n * 3, away[1] + vy / n * 3)
        us.placement = geo.move_toward(
            state.table,
            us.placement,
            [o for o in state.placements_except(us.uid) if o is not target.placement],
            goal,
            1.5,
        )


def _carried(us: UnitState) -> Unit:
    return us.unit


def _after_activation(state: GameState) -> None:
    side = state.active
    other = 1 - side
    if _can_activate(state, other):
        if not _can_activate(state, side) and state.finished_first is None:
            state.finished_first = side
        state.active = other
        return
    if _can_activate(state, side):
        if state.finished_first is None:
            state.finished_first = other
        return
    if state.finished_first is None:
        state.finished_first = side
    _end_round(state)


# --- end of round ---------------------------------------------------------------------------


def _end_round(state: GameState) -> None:
    roller = Roller(state.mechanic, state.mech_state, state.rng)
    for side in (state.first, 1 - state.first):
        _morale(state, side, roller)
    state.mech_state = roller.state
    _objectives(state)
    if state.round >= state.rounds:
        _finish(state)
        return
    _start_round(state, state.round + 1)


def _morale(state: GameState, side: int, roller: Roller) -> None:
    """Seed 003 "Morale": at half or less of its starting units, every unit tests."""
    start = len(state.side_units(side))
    alive = [u for u in state.side_units(side) if u.alive]
    if len(alive) * 2 > start:
        return
    heroes = [u for u in alive if u.unit.hero and not u.shaken and u.placement is not None]
    for us in alive:
        if us.placement is None:
            continue
        quality = us.unit.quality
        for h in heroes:  # Hero: friends within 12" may use the hero's Quality
            if h.placement is not None and geo.gap(h.placement, us.placement) <= HERO_AURA:
                quality = min(quality, h.unit.quality)
        check = Check(Test.MORALE, quality, owner=us.owner)
        passed = roller.roll(check).success
        if not passed and us.unit.all_have("Fearless"):
            passed = roller.roll(Check(Test.GENERIC, 4, owner=us.owner)).success
        state.log.add("morale", unit=us.uid, quality=quality, passed=passed)
        if passed:
            continue
        if us.shaken:
            us.routed = True
            state.log.add("routed", unit=us.uid, side=us.side)
        else:
            us.shaken = True
            state.log.add("shaken", unit=us.uid, cause="morale")


def _objectives(state: GameState) -> None:
    """Seize, keep or neutralise each marker (Shaken and just-arrived units cannot)."""
    for i, obj in enumerate(state.objectives):
        near = set()
        for us in state.units.values():
            if not us.on_table or us.shaken or us.placement is None:
                continue
            if us.arrived and us.arrived == state.round:
                continue  # Ambush: cannot seize or contest on the round it deploys
            if geo.within(us.placement, obj.position, OBJECTIVE_RANGE):
                near.add(us.side)
        before = obj.controller
        if len(near) == 1:
            obj.controller = near.pop()
        elif len(near) == 2:
            obj.controller = None
        if obj.controller != before:
            state.log.add("control", objective=i, controller=obj.controller, round=state.round)


def _finish(state: GameState) -> None:
    held = [sum(o.controller == s for o in state.objectives) for s in (0, 1)]
    state.winner = None if held[0] == held[1] else int(held[1] > held[0])
    state.done = True
    state.phase = "over"
    state.log.add("end", objectives=held, winner=state.winner)


def score(state: GameState) -> tuple[int, int]:
    return (
        sum(o.controller == 0 for o in state.objectives),
        sum(o.controller == 1 for o in state.objectives),
    )


def units_left(state: GameState, side: int) -> int:
    return sum(u.alive for u in state.side_units(side))


__all__: Sequence[str] = [
    "OptionError",
    "apply",
    "is_legal",
    "legal_actions",
    "new_game",
]
