"""The procedure core the GFF and Riverside games share: a fresh game, rounds, activations.

Both OPR texts play rounds the same way: the sides alternate activating their units, a side
with nothing left lets the other activate the rest (seed 003 "Playing the Game", seed 002
"Activation Phase"), the side that finished activating first starts the next round, the units
are fresh again and no longer Fatigued, markers are settled at the end of each round and the
last round ends the game. Deployment alternates too ("Commanders alternate deploying units").
What differs stays in each procedure and comes in as a hook: what ends a round (GFF's Morale,
Riverside's End Phase), what starts the next, which units still have room to deploy, which
actions come before moving (GFF: Hold, or Idle alone when Shaken; Riverside: Hold and Idle).

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.game.events``,
``oprlab.game.geometry``, ``oprlab.game.objectives``, ``oprlab.errors``, ``oprlab.mechanics``,
``oprlab.table.model``, ``oprlab.units.model`` and
``oprlab.units.rule_scope``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import replace

from oprlab.errors import UserError
from oprlab.game import geometry as geo
from oprlab.game import objectives
from oprlab.game.actions import Action, Kind, listed
from oprlab.game.events import EventLog
from oprlab.game.state import GameState, Objective, Phase, Rules, UnitState
from oprlab.mechanics import Mechanic, get_mechanic
from oprlab.mechanics.dice import Dice
from oprlab.rng import generator
from oprlab.table.model import Placement, Point, Table
from oprlab.units.model import Army
from oprlab.units.rule_scope import unit_rule

#: A procedure's step that takes only the state (ending or starting a round, ...).
Step = Callable[[GameState], None]


def new_state(
    system: str,
    army_a: Army,
    army_b: Army,
    *,
    seed: int,
    mechanic: str | Mechanic,
    table: Table | None,
    rounds: int,
    log: bool,
    rules: Rules,
) -> GameState:
    """A game before its objectives: every unit off the table (Ambush and Scout units in their
    reserve, A1.. and B1.. by list order), the mechanic's state and the seeded generator."""
    mech = get_mechanic(mechanic) if isinstance(mechanic, str) else mechanic
    rng = generator(seed, "dice")  # the game's dice: its own stream of the seed (oprlab.rng)
    units: dict[str, UnitState] = {}
    for side, army in enumerate((army_a, army_b)):
        for i, unit in enumerate(army.units):
            uid = f"{'AB'[side]}{i + 1}"
            reserve = next((r for r in ("ambush", "scout") if unit_rule(unit, r.title())), None)
            units[uid] = UnitState(uid, side, unit, None, unit.size, reserve=reserve)
    return GameState(
        system=system,
        table=table or Table(),
        armies=(army_a, army_b),
        units=units,
        dice=Dice(mech, mech.initial_state([u.owner for u in units.values()], rng), rng),
        seed=seed,
        rules=rules,
        rounds=rounds,
        log=EventLog(enabled=log),
    )


def is_legal(validate: Callable[[GameState, Action], object], state: GameState, a: Action) -> bool:
    """Whether ``validate`` (a procedure's checker, raising a ``UserError``) accepts ``a``."""
    try:
        validate(state, a)
    except UserError:
        return False
    return True


def on_table(state: GameState, to: Point | None) -> bool:
    """Whether ``to`` is a point of the table (edges included)."""
    t = state.table
    return to is not None and 0 <= to[0] <= t.width and 0 <= to[1] <= t.depth


def objective_action_problem(
    state: GameState, a: Action, problem: Callable[[GameState, Point], str | None]
) -> str | None:
    """Why a ``PLACE_OBJECTIVE`` may not be taken now (``problem``: the system's placing
    rules), or ``None``."""
    if state.phase != Phase.OBJECTIVES or a.to is None:
        return "no objective marker to place now"
    return problem(state, a.to)


def deploy_action_problem(
    state: GameState,
    us: UnitState,
    a: Action,
    problem: Callable[[GameState, UnitState, Point, int], str | None],
    *,
    may_deploy: bool,
) -> str | None:
    """Why a ``DEPLOY`` of ``us`` may not be taken now (``may_deploy``: it is waiting in this
    deployment phase; ``problem``: the system's rules for where it stands in the action's
    formation), or ``None``."""
    if not may_deploy:
        return "this unit cannot deploy now"
    if a.to is None or a.target:
        return "deploy needs a position and no target"
    return problem(state, us, a.to, a.formation)


def move_or_charge_problem(
    state: GameState,
    a: Action,
    charge_targets: Callable[[], Sequence[str]],
    *,
    has_melee: bool,
    out_of_reach: str,
) -> str | None:
    """Why an Advance, Rush or Charge ``a`` may not be taken (others pass), or ``None``: a move
    needs a point on the table, a charge a listed target (``out_of_reach`` says why not, in the
    system's words) and, with a benny, a melee weapon for the extra attack."""
    if a.kind in (Kind.ADVANCE, Kind.RUSH) and (not on_table(state, a.to) or a.target):
        return "a move needs a point on the table and no target"
    if a.kind is Kind.CHARGE and (a.to is not None or a.target not in charge_targets()):
        return out_of_reach
    if a.kind is Kind.CHARGE and a.benny and not has_melee:
        return "a benny's extra attack needs a melee weapon"
    return None


def can_activate(state: GameState, side: int) -> list[UnitState]:
    """Units of ``side`` on the table that have not activated this round."""
    return [u for u in state.side_units(side) if u.on_table and not u.activated]


def pass_turn(state: GameState, prefer: int, end_round: Step) -> None:
    """``prefer`` acts if it has a unit left to activate, else the other side; else the round
    ends (``end_round``).

    After an activation ``prefer`` is the other side ("alternate"); when play passes without
    one (a round's start, a unit lost) it is the side to act, which keeps the turn if it can.
    """
    if can_activate(state, prefer):
        state.active = prefer
        return
    if can_activate(state, 1 - prefer):
        state.active = 1 - prefer
        return
    end_round(state)


#: Each unit's Advance and Rush to a point (:func:`listed`'s actions) by unit and point, and its
#: charge with a benny's extra attack by unit and target: every decision lists each unit's moves
#: to every goal again, most unchanged since the last, and one lookup a goal costs less than two
#: of :func:`listed`'s (global memos of values, each emptied whole at its limit).
_MOVES: dict[tuple[str, Point], tuple[Action, Action]] = {}
_BENNY_CHARGES: dict[tuple[str, str], Action] = {}
_MEMO_LIMIT = 16384


def _moves_to(uid: str, goal: Point) -> tuple[Action, Action]:
    key = (uid, goal)
    found = _MOVES.get(key)
    if found is None:
        if len(_MOVES) >= _MEMO_LIMIT:
            _MOVES.clear()
        advance, rush = listed(Kind.ADVANCE, uid, to=goal), listed(Kind.RUSH, uid, to=goal)
        found = _MOVES[key] = (advance, rush)
    return found


def _benny_charge(charge: Action) -> Action:
    key = (charge.unit, charge.target)
    found = _BENNY_CHARGES.get(key)
    if found is None:
        if len(_BENNY_CHARGES) >= _MEMO_LIMIT:
            _BENNY_CHARGES.clear()
        found = _BENNY_CHARGES[key] = replace(charge, benny=True)
    return found


def unit_action_list(
    us: UnitState,
    first: list[Action],
    goals: Sequence[Point],
    charge_targets: Sequence[str],
    *,
    benny_charges: bool,
) -> list[Action]:
    """A unit's actions: ``first`` (Hold, Idle: each system's), Advance to each goal, Rush to
    each, Charge each target, and with ``benny_charges`` each charge again with a benny's extra
    attack (seed 000 "Bennies").

    After ``first`` they come in :meth:`Action.sort_key`'s order (goals by their point, charges
    by target, the benny's after the plain one): GFF's listing takes them as they come, and a
    sort of them finds one ascending run."""
    acts = list(first)
    uid = us.uid
    known = _MOVES.get
    moves = [known((uid, goal)) or _moves_to(uid, goal) for goal in sorted(goals)]
    acts += [advance for advance, _ in moves]
    acts += [rush for _, rush in moves]
    for target in sorted(charge_targets):
        charge = listed(Kind.CHARGE, uid, target=target)
        acts.append(charge)
        if benny_charges:
            acts.append(_benny_charge(charge))
    return acts


#: A unit as :class:`Foes` holds it: its uid, placement, gap key and bounding circle.
Foe = tuple[str, Placement, geo.GapKey, tuple[float, float, float]]


class Foes:
    """What each unit of a side lists its moves and charges against, read once a listing: the
    objective markers and the enemy units' centres (its goals but the way home, as
    :func:`marker_and_enemy_goals`), and the enemy units with their positions' bytes (the key
    of :func:`geometry.gap`'s memo), so a listing of many units asks for each enemy's once;
    and, for Riverside's charges, every unit standing (what may be in a charge's way)."""

    __slots__ = ("_enemies", "_ordered", "_placed", "_side", "_standing", "_state", "goals")

    def __init__(self, state: GameState, side: int) -> None:
        self._state, self._side = state, side
        self.goals: list[Point] = [o.position for o in state.objectives]
        self._enemies = state.enemies(side)
        for e in self._enemies:
            assert e.placement is not None
            self.goals.append(geo.centroid(e.placement))
        self._placed: list[Foe] | None = None
        self._standing: list[Foe] | None = None
        self._ordered: tuple[list[Point], set[Point]] | None = None

    def ordered_goals(self, home: Point) -> list[Point]:
        """:attr:`goals` and then ``home`` (a unit's way home), each point once (the first
        kept), sorted: ``sorted(dict.fromkeys(goals + [home]))``, the goals' part worked out
        once for all the units of a listing."""
        if self._ordered is None:
            shared = sorted(dict.fromkeys(self.goals))
            self._ordered = shared, set(shared)
        shared, seen = self._ordered
        if home in seen:
            return shared
        out = list(shared)
        bisect.insort(out, home)
        return out

    def placed(self) -> list[Foe]:
        """Each enemy unit on the table: its uid, its placement, its gap key and its bounding
        circle (:func:`geometry.bounding_circle`)."""
        if self._placed is None:
            self._placed = [_foe(e) for e in self._enemies]
        return self._placed

    def standing(self) -> list[Foe]:
        """Every unit on the table, either side's, as :meth:`placed` holds it (in the state's
        order: what may stand in the way of a charge)."""
        if self._standing is None:
            side, enemies = self._side, {f[0]: f for f in self.placed()}
            self._standing = [
                enemies[u.uid] if u.side != side else _foe(u)
                for u in self._state.units.values()
                if u.on_table
            ]
        return self._standing


def _foe(us: UnitState) -> Foe:
    """A unit on the table as :class:`Foes` holds it."""
    p = us.placement
    assert p is not None
    key = geo.gap_key(p)
    return us.uid, p, key, geo.bounding_circle(p, key)


def marker_and_enemy_goals(state: GameState, us: UnitState) -> list[Point]:
    """Where a unit may head: each objective marker, then each enemy unit on the table (its
    centre); each system adds its way home."""
    return Foes(state, us.side).goals


def log_activation(state: GameState, us: UnitState, a: Action, **more: object) -> None:
    """Log a unit's activation (its action, where to, its target; ``more`` as the system adds)."""
    state.log.add(
        "activate",
        round=state.round,
        side=us.side,
        unit=us.uid,
        action=a.kind.value,
        to=None if a.to is None else [round(v, 3) for v in a.to],
        target=a.target,
        **more,
    )


def count_activation(state: GameState, us: UnitState) -> None:
    """Mark ``us`` activated and remember when each side last activated (who finished first)."""
    us.activated = True
    state.activations += 1
    state.last_activation[us.side] = state.activations


def begin_round(state: GameState, n: int) -> None:
    """Round ``n`` starts: who finished activating first last round goes first, every unit may
    activate again and is no longer Fatigued; logs ``round``. The side to act is the caller's.
    """
    state.round = n
    for us in state.units.values():
        us.activated = False
        us.fatigued = False  # Fatigue lasts "until the end of that round"
    if n > 1 and state.finished_first is not None:
        state.first = state.finished_first
    state.finished_first = None
    state.last_activation = [-1, -1]
    state.log.add("round", round=n, first=state.first)


def record_finished_first(state: GameState) -> None:
    """The side whose last activation came first (nobody activated: the side that was first)."""
    la = state.last_activation
    state.finished_first = state.first if la[0] == la[1] else int(la[1] < la[0])


def next_round(state: GameState, start_round: Callable[[GameState, int], None]) -> None:
    """After the last round the side with more markers wins; else ``start_round`` the next."""
    if state.round >= state.rounds:
        objectives.finish(state)
        return
    start_round(state, state.round + 1)


def place_objective(state: GameState, at: Point) -> bool:
    """Place one marker and let the other side place the next; whether that was the last."""
    state.objectives.append(Objective(at))
    state.log.add("objective", side=state.active, at=list(at))
    state.objectives_left -= 1
    state.active = 1 - state.active  # the sides alternate placing markers
    return bool(state.objectives_left == 0)


def deployed(state: GameState, us: UnitState, at: Point, formation: int = 0) -> None:
    """Log a deployment (the unit is placed; ``formation``: models in each rank, when not its
    usual formation) and hand the next one to the other side."""
    shape = {"formation": formation} if formation else {}
    state.log.add(
        "deploy",
        unit=us.uid,
        side=us.side,
        at=[round(v, 3) for v in at],
        round=state.round,
        phase=state.phase,
        **shape,
    )
    state.active = 1 - state.active  # "Commanders alternate deploying units"


def deployer_with_room(state: GameState, has_room: Callable[[GameState, int], bool]) -> bool:
    """The side to act deploys next if it has a unit with room, else the other side; whether
    either has one (``has_room`` may drop units without room, as each procedure says)."""
    if has_room(state, state.active):
        return True
    if has_room(state, 1 - state.active):
        state.active = 1 - state.active
        return True
    return False


__all__: Sequence[str] = [
    "Foe",
    "Foes",
    "Step",
    "begin_round",
    "can_activate",
    "count_activation",
    "deploy_action_problem",
    "deployed",
    "deployer_with_room",
    "is_legal",
    "log_activation",
    "marker_and_enemy_goals",
    "move_or_charge_problem",
    "new_state",
    "next_round",
    "objective_action_problem",
    "on_table",
    "pass_turn",
    "place_objective",
    "record_finished_first",
    "unit_action_list",
]
