"""``OprRules``: the OPR procedure's skeleton, written once, and the hooks where texts differ.

GFF (seed 003) and Riverside (seed 002) play the same procedure: place objective markers, pick
zones, deploy, then rounds of alternating activations, each of which may pause for a decision
(shoot, resist a spell, spend bennies, strike back). What is the same is written here once:
the system boundary (:class:`~oprlab.game.system.RuleSystem`), which decisions each phase
offers, how an action is checked and dispatched, objective placement, the score. What the two
texts say differently is a method of this class, reached through ``self`` (never a module
table): ``GffRules`` (:mod:`oprlab.game.gff`) and ``RiversideRules``
(:mod:`oprlab.game.riverside`) override it, and a house rule is one more subclass that
overrides one hook.

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.game.system`` and the
shared procedure modules of ``oprlab.game`` (activation, bennies, objectives, deploy_search),
the procedure's parts in ``oprlab.game.opr`` (rounds, setup, activation) and below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import attrgetter, is_
from typing import Any, ClassVar

from oprlab.game import activation, bennies, deploy_search, objectives
from oprlab.game.actions import Action, Kind
from oprlab.game.actions import listed as listed_action
from oprlab.game.opr.activation import Activation
from oprlab.game.state import GameState, Pending, Phase, UnitState
from oprlab.game.system import NotDeployed
from oprlab.mechanics import Mechanic
from oprlab.memo import game_memo
from oprlab.table.model import Point, Table
from oprlab.units.model import Army, Unit

__all__ = ["DEPLOY_PHASES", "OprRules", "opr_rules"]

#: Phases in which units are set up, one decision a unit.
DEPLOY_PHASES = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)

_uid = attrgetter("uid")

#: A step of the procedure: what an action of one kind does to the game.
Step = Callable[[GameState, UnitState, Action], None]


class OprRules(Activation):
    """One OPR rule system: the procedure's skeleton, and its hooks with no default text.

    Class attributes say what the system is (its name, version, readings, the army format and
    mechanics it accepts); the methods below the RuleSystem surface are the hooks a system
    (or a house rule) overrides.
    """

    name: ClassVar[str]
    version: ClassVar[str]
    readings: ClassVar[type[Any]]
    army_format: ClassVar[str] = "army-forge"
    commander_family: ClassVar[str] = "opr"
    mechanics: ClassVar[tuple[str, ...]] = ("d6", "clock")

    def __init__(self) -> None:
        self._steps = self.steps()

    # --- the system boundary (RuleSystem) ---------------------------------------------------

    def new_game(
        self,
        army_a: Army,
        army_b: Army,
        *,
        seed: int,
        mechanic: str | Mechanic | None = None,
        table: Table | None = None,
        readings: Any = None,
        log: bool = True,
    ) -> GameState:
        """A game ready for its objective markers (the system's setup, :meth:`setup`)."""
        return self.setup(
            army_a,
            army_b,
            seed=seed,
            mechanic="d6" if mechanic is None else mechanic,
            table=table,
            log=log,
            options=readings,
            rules=self,
        )

    def legal_actions(self, state: GameState) -> list[Action]:
        """Every decision open to the side to act, in canonical order."""
        if state.done:
            return []
        phase, side, p = state.phase, state.active, state.pending
        out: list[Action] = []
        if phase == Phase.OBJECTIVES:
            out = [
                listed_action(Kind.PLACE_OBJECTIVE, to=pt)
                for pt in self.objective_candidates(state)
            ]
        elif phase in (Phase.ZONE, Phase.ZONES):
            out = [Action(Kind.CHOOSE_ZONE, choice=c) for c in self.zone_choices(state)]
        elif phase in DEPLOY_PHASES:
            # in canonical order without a sort of the whole listing: Action.sort_key orders
            # by unit, then (all else equal for a DEPLOY) by point and formation, so the units
            # by uid, each with its (point, formation) options as deploy_options gives them
            # (in that order: deploy_search.remembered sorts them once when it finds them)
            for us in sorted(self.to_deploy(state, side), key=_uid):
                out += _deploy_actions(us.uid, self.deploy_options(state, us))
            state.offered = out
            return out
        elif phase == Phase.ACTIVATION:
            listed = state.offered = self.activation_actions(state, side)  # in order already
            return listed
        elif phase == Phase.CLOCKS:
            out = bennies.start_clock_actions(state)
        elif phase == Phase.DEFEND:
            out = self.defend_actions(state)
        elif phase == Phase.RESIST:
            out = self.resist_actions(state)
        elif phase == Phase.STRIKE_BACK:
            out = self.strike_back_actions(state)
        elif p is not None:  # the second half of an activation (act, shoot, consolidate...)
            out = self.step_actions(state, state.units[p.unit], phase)
        listed = sorted(out, key=Action.sort_key)
        state.offered = listed
        return listed

    def is_legal(self, state: GameState, action: Action) -> bool:
        """Whether ``action`` may be taken now, including moves to any point of the table."""
        return activation.is_legal(self.validate, state, action)

    def apply(self, state: GameState, action: Action) -> None:
        """Carry out ``action`` (checked: an illegal action raises a clear error).

        An action that is one of those :meth:`legal_actions` just listed for this state (the
        same object, nothing applied since) is not checked again: the listing made it legal.
        Any other action (a replay file's, the play page's, a copy) is checked in full.
        """
        offered, state.offered = state.offered, None
        # the same object (by identity), looked for in C: a listing holds hundreds
        if offered is not None and any(map(is_, repeat(action), offered)):
            us = state.units.get(action.unit) if action.unit else None
        else:
            us = self.validate(state, action)
        kind = action.kind
        if kind is Kind.PLACE_OBJECTIVE:
            assert action.to is not None
            if activation.place_objective(state, action.to) or self.placing_done(state):
                self.objectives_placed(state)  # "alternate in placing one marker"
            return
        if kind is Kind.CHOOSE_ZONE:
            self.choose_zone(state, action)
            return
        if kind is Kind.SET_CLOCK and state.phase == Phase.CLOCKS:
            self.start_clock(state, action)
            return
        if kind is Kind.RESIST:
            self.resist(state, us, action)
            return
        assert us is not None
        self._steps.get(kind, self.activate)(state, us, action)

    def score(self, state: GameState) -> tuple[int, int]:
        return objectives.score(state)

    def units_left(self, state: GameState, side: int) -> int:
        return objectives.units_left(state, side)

    def models_lost(self, state: GameState, side: int) -> int:
        missing = deploy_search.missing(state)
        return sum(
            u.unit.size if u.routed else u.unit.size - max(0, u.models)
            for u in state.side_units(side)
            if u.uid not in missing
        )

    def not_deployed(self, state: GameState) -> tuple[NotDeployed, ...]:
        return tuple(
            NotDeployed(uid, u.unit.name, u.side, u.unit.size, reason)
            for uid, reason in deploy_search.missing(state).items()
            for u in (state.units[uid],)
        )

    def readings_of(self, state: GameState) -> Any:
        """The game's readings (the system's options; its defaults when none were given)."""
        opts = state.options
        return opts if isinstance(opts, self.readings) else self.readings()

    def mechanic_name(self, state: GameState) -> str:
        return state.mechanic_name or state.mechanic.name

    # --- objectives (GFF Mission 1-3, Riverside "Placing Objectives") ---------------------

    def objective_problem(self, state: GameState, point: Point) -> str | None:
        """Why a marker may not go at ``point``, or ``None`` if it may: :meth:`marker_problem`,
        then over 9" from the others, or as far as the table allows when no point is
        (``stuck_markers``)."""
        stuck = self.readings_of(state).stuck_markers
        problem = self.marker_problem(state, point)
        return problem or objectives.spacing_problem(state, point, self.marker_problem, stuck)

    def objective_candidates(self, state: GameState) -> list[Point]:
        """Legal marker points on a 3" grid (when none is over 9" from the others, the
        farthest: ``stuck_markers``)."""
        stuck = self.readings_of(state).stuck_markers
        return objectives.candidates(state, self.marker_problem, stuck)

    def placing_done(self, state: GameState) -> bool:
        """No more markers: all placed, or none may go (``objectives.stop_if_stuck``)."""
        stuck = self.readings_of(state).stuck_markers
        left = state.objectives_left
        return left == 0 or objectives.stop_if_stuck(state, self.marker_problem, stuck)

    # --- the pauses for the other side's decisions -------------------------------------------

    def ask_defender(
        self, state: GameState, waiting: object, unit: str, side: int, *, moved: bool = False
    ) -> None:
        """Pause an attack whose hits are known for the ``DEFEND`` decision of the side of
        ``unit``, the unit hit (seed 000 variation 5 "Bennies"); ``side`` is the side whose
        activation it is, ``waiting`` the rest of the attack."""
        state.defending = waiting
        state.pending = Pending(Phase.DEFEND, unit, side, moved=moved)
        state.phase = Phase.DEFEND
        state.active = state.units[unit].side

    # --- hooks: where the texts differ ------------------------------------------------------

    #: The system's setup (its module's ``new_game``): check the armies, roll off, count the
    #: markers; called with ``rules=self`` so the game is played by this very object.
    setup: Callable[..., GameState]

    def marker_problem(self, state: GameState, point: Point) -> str | None:
        """Where a marker may go, but the spacing (on the table, outside the zones...). Reads
        the table and the readings only: the game remembers its grid's answers."""
        raise NotImplementedError

    def objectives_placed(self, state: GameState) -> None:
        """The last marker is down: the deployment (or zones) roll-off."""
        raise NotImplementedError

    def zone_choices(self, state: GameState) -> Sequence[str]:
        """The ``CHOOSE_ZONE`` picks open now."""
        raise NotImplementedError

    def choose_zone(self, state: GameState, a: Action) -> None:
        raise NotImplementedError

    def unit_actions(self, state: GameState, us: UnitState) -> list[Action]:
        """The actions a unit may take as it activates (what a Shaken unit may do, too)."""
        raise NotImplementedError

    def special_actions(self, state: GameState, us: UnitState) -> list[Action]:
        """What a unit may do before or besides its action (spells, Teleport)."""
        return []

    def activation_actions(self, state: GameState, side: int) -> list[Action]:
        """Each unit of ``side`` that may activate: :meth:`unit_actions` and
        :meth:`special_actions`, in canonical order (:meth:`Action.sort_key`)."""
        out: list[Action] = []
        for us in activation.can_activate(state, side):
            out += self.unit_actions(state, us)
            out += self.special_actions(state, us)
        return sorted(out, key=Action.sort_key)

    def step_actions(self, state: GameState, us: UnitState, phase: Phase) -> list[Action]:
        """The decisions of an activation's second half (shoot, act after casting...)."""
        return []

    def defend_actions(self, state: GameState) -> list[Action]:
        """The defender's bennies against the attack waiting in ``state.defending``."""
        return []

    def resist_actions(self, state: GameState) -> list[Action]:
        """The other side's resisting tokens against the spell in ``state.casting``."""
        return []

    def strike_back_actions(self, state: GameState) -> list[Action]:
        """The charged side's choice to strike back (GFF only)."""
        return []

    def validate(self, state: GameState, a: Action) -> UnitState | None:
        """The acting unit if ``action`` may be taken now; else a clear ``UserError``."""
        raise NotImplementedError

    def resist(self, state: GameState, us: UnitState | None, action: Action) -> None:
        """Spend the resisting tokens and roll the waiting spell."""
        raise NotImplementedError

    def steps(self) -> dict[Kind, Step]:
        """What each kind of action does, once the unit is known; the rest activate."""
        raise NotImplementedError

    def move_allowance(self, unit: Unit, kind: Kind) -> float:
        """How far ``unit`` moves with the action ``kind`` (inches)."""
        raise NotImplementedError

    def shooting_targets(self, state: GameState, us: UnitState) -> list[str]:
        """The enemy units ``us`` may shoot at now, sorted."""
        raise NotImplementedError

    # --- hooks for house rules ---------------------------------------------------------------
    # Places no text of seed 002 or 003 uses, where a house rule (``oprlab.game.house``) plugs
    # in; their defaults change nothing, so games without house rules stay as they were.

    #: The attack's dice clauses (the ``rules.<system>.attack`` hooks object), the same object
    #: the system's odds adapter uses; a house rule's dice clauses are a subclass of it.
    attack_hooks: ClassVar[Any] = None

    def after_setup(self, state: GameState) -> None:
        """The game is set up (every unit off the table, Ambush and Scout in reserve) and no
        die is rolled yet: a house rule may set units aside (Smuggling Route). Must not roll."""

    def fortified(self, state: GameState, target: UnitState) -> bool:
        """``target`` counts as in cover against shooting, whatever the table (Fortifications)."""
        return False

    def ignores_shaken(self, state: GameState, target: UnitState) -> bool:
        """``target`` ignores a Shaken result of a wound effect roll (Safe House)."""
        return False


def _deploy_actions(uid: str, options: list[deploy_search.Option]) -> tuple[Action, ...]:
    """A ``DEPLOY`` of unit ``uid`` to each of ``options``, in their order: the last answer
    for the unit when its options are the same (issue 13: every deployment decision lists
    every unit's spots again, most unchanged since the last), else each spot's action as made
    for the unit before (a placement nearby takes a few spots away and leaves the rest). The
    actions read the uid and the options only, so the two are the whole key; one entry a
    uid, a game's few dozen, each with the few hundred spots its unit was offered."""
    last = _DEPLOYS.get(uid)
    if last is not None and last[0] == options:
        return last[1]
    if last is None or len(last[2]) >= _DEPLOYS_LIMIT:
        if len(_DEPLOYS) >= _DEPLOYS_LIMIT:
            _DEPLOYS.clear()
        made: dict[deploy_search.Option, Action] = {}
    else:
        made = last[2]
    out: list[Action] = []
    for o in options:
        act = made.get(o)
        if act is None:
            act = made[o] = listed_action(Kind.DEPLOY, uid, to=o[0], formation=o[1])
        out.append(act)
    acts = tuple(out)
    _DEPLOYS[uid] = (list(options), acts, made)
    return acts


_DEPLOYS: dict[
    str,
    tuple[list[deploy_search.Option], tuple[Action, ...], dict[deploy_search.Option, Action]],
] = game_memo("game.opr.hooks._DEPLOYS")
_DEPLOYS_LIMIT = 1024


def opr_rules(state: GameState) -> OprRules:
    """The OPR procedure playing ``state`` (a game made by an :class:`OprRules`)."""
    rules = state.rules
    assert isinstance(rules, OprRules)
    return rules
