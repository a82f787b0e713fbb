"""The rules commander's reading of the markers: what standing on each is worth to a unit.

A marker is worth :data:`OBJECTIVE_VALUE` points of enemy removed times its need of the unit:
full where the side does not hold it, less where it does (more while an enemy could take it),
less again with a friend already on it (seed 003 "Mission" 4-6). :class:`Needs` also holds what
every score reads: the style, the one :class:`View` of the table a decision, the habits.
"""

from __future__ import annotations

from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.estimates import Role, break_chance, unit_facts
from oprlab.players.rules.habits import SystemHabits, habits_for
from oprlab.players.rules.style import RULES, Style
from oprlab.players.rules.view import RUSH, Point, View, move_allowance
from oprlab.rng import SeedLike
from oprlab.units.model import Unit

#: How much one objective is worth, in points of enemy removed.
OBJECTIVE_VALUE = 60.0
#: GFF's last round (``Style.last_round_push``): a marker is worth this many times as much
#: (the markers held when it ends decide the game; points removed then decide nothing).
LAST_ROUND_WEIGHT = 3.0
#: A marker's need of a unit where an enemy stands to take or contest it: the side's own
#: marker with an enemy within reach (and, ``Style.contest_need``, one it does not hold that
#: an enemy will contest at the round's end: the unit turns it from theirs to neutral).
CONTESTED_NEED = 0.7
#: A marker's need of a unit where no enemy would take it from the side.
SAFE_NEED = 0.15
#: The share of a marker's need left for a unit when a friend already stands on it.
FRIEND_ON_IT = 0.35


def _guarded(need: float, us: UnitState, friends: list[UnitState]) -> float:
    """``need``, cut to :data:`FRIEND_ON_IT` of it when a friend other than ``us`` is on the
    marker: the one rule :meth:`Needs._need` and :meth:`Needs._worth` both apply."""
    # a friend other than ``us`` (the units are distinct): ``any(f is not us for f in
    # friends)`` without a generator, asked for every unit and marker of a decision
    other = len(friends) > 1 or (len(friends) == 1 and friends[0] is not us)
    return need * (FRIEND_ON_IT if other else 1.0)


class Needs:
    """The commander's style and reading of the table, and each marker's worth to a unit."""

    name = "rules"

    def __init__(self, seed: SeedLike = 0, style: Style = RULES) -> None:
        self.seed = seed
        self.style = style
        self.name = style.name
        self._view: View | None = None

    def _read(self, state: GameState) -> View:
        view = self._view
        if view is None or view.state is not state:
            view = self._view = View(state)
        return view

    def habits(self, state: GameState) -> SystemHabits:
        """This system's habits (its odds, its own decisions), found by its rules class."""
        return habits_for(state)

    def role(self, unit: Unit) -> Role:
        """How the commander classes ``unit`` (melee, shooting or hybrid)."""
        facts = unit_facts(unit)  # by identity: hashing a frozen Unit is slow
        return facts[3] if self.style.role_from_output else facts[1]

    def _last_round(self, state: GameState) -> float:
        """How many times its usual worth a marker is worth now: :data:`LAST_ROUND_WEIGHT`
        in the last round with ``Style.last_round_push`` where the system has it, else 1."""
        push = self.style.last_round_push and self.habits(state).marker_habits
        return LAST_ROUND_WEIGHT if push and state.round >= state.rounds else 1.0

    def _need(
        self,
        state: GameState,
        us: UnitState,
        objective: int,
        controller: int | None,
        contested: UnitState | None,
    ) -> float:
        view = self._read(state)
        need = self._side_need(state, view, us, objective, controller, contested)
        return _guarded(need, us, self._around(state, view, us.side, objective)[1])

    def _side_need(
        self,
        state: GameState,
        view: View,
        us: UnitState,
        objective: int,
        controller: int | None,
        contested: UnitState | None,
    ) -> float:
        """A marker's need of ``us`` before a friend on it halves it (:meth:`_need`): with no
        ``contested`` the same for every unit of the side, so :meth:`_worth` asks it once."""
        found = self._around(state, view, us.side, objective)
        if self.style.contest_need and self.habits(state).marker_habits:
            return self._contest_need(state, view, us, objective, controller, contested)
        enemy_near = any(e is not contested for e in found[0])
        return 1.0 if controller != us.side else (CONTESTED_NEED if enemy_near else SAFE_NEED)

    def _around(
        self, state: GameState, view: View, side: int, objective: int
    ) -> tuple[list[UnitState], list[UnitState]]:
        """The enemies of ``side`` that could reach a marker by a Rush, the friends on it;
        worked out for every marker of the side at once (the enemies able to move and their
        Rush reach, the friends able to hold, read once rather than once a marker)."""
        key = (side, objective)
        found = view.around.get(key)
        if found is None:
            enemies = view.enemies(side)
            rushers = [
                (k, e, move_allowance(state, e.unit, RUSH) + 3.0)
                for k, e in enumerate(enemies.units)
                if not e.shaken and e.placement is not None
            ]
            holders = [
                f for f in view.side_friends(side) if not f.shaken and f.placement is not None
            ]
            near = view.near_objectives()
            for i, o in enumerate(state.objectives):
                gaps = enemies.gaps(o.position)
                view.around[(side, i)] = (
                    [e for k, e, reach in rushers if gaps[k] <= reach],  # could reach it
                    [f for f in holders if near[f.uid][i]],  # friends on it
                )
            found = view.around[key]
        return found

    def _contest_need(
        self,
        state: GameState,
        view: View,
        us: UnitState,
        objective: int,
        controller: int | None,
        contested: UnitState | None,
    ) -> float:
        """``Style.contest_need`` (GFF): a marker's need of ``us`` from who will contest it.

        A marker the side holds needs it while an enemy could reach it by a Rush (as without
        the habit); one it does not hold, while no enemy will contest it at the round's end:
        with one there the unit turns it neutral at best ("If units from both sides contest a
        marker, it becomes neutral", seed 003 "Mission" 4-6), as much as guarding its own. A
        charge's target (``contested``) stops contesting only if destroyed or Shaken: the
        freed marker's need is weighted by the charge's chance of that.
        """
        if controller == us.side:
            enemies, free = view.around[(us.side, objective)][0], SAFE_NEED
        else:
            enemies, free = self._contesters(state, view, us.side, objective), 1.0
        if any(e is not contested for e in enemies):
            return CONTESTED_NEED
        if contested is None or not any(e is contested for e in enemies):
            return free
        chance = self._charge_break(state, view, us, contested)
        return chance * free + (1.0 - chance) * CONTESTED_NEED

    def _contesters(
        self, state: GameState, view: View, side: int, objective: int
    ) -> list[UnitState]:
        """The enemies of ``side`` that will contest a marker at the round's end: those (not
        Shaken) within 3" of it, and those yet to activate that could reach it by a Rush."""
        key = (side, objective)
        found = view.contesters.get(key)
        if found is None:
            near = view.near_objectives()
            found = view.contesters[key] = [
                e
                for e in view.around[key][0]
                if e.arrived != state.round
                and ((e.uid in near and near[e.uid][objective]) or not e.activated)
            ]
        return found

    def _charge_break(
        self, state: GameState, view: View, us: UnitState, target: UnitState
    ) -> float:
        """The chance ``us``'s charge leaves ``target`` destroyed or Shaken (d6 exact odds of
        the charge's melee attack: GFF's wound effects Shake or Knock Out)."""
        key = (us.uid, target.uid)
        found = view.charge_breaks.get(key)
        if found is None:
            found = view.charge_breaks[key] = break_chance(us, target, distance=0.0, charge=True)
        return found

    def _worth(
        self, state: GameState, view: View, us: UnitState, contested: UnitState | None
    ) -> list[tuple[Point, float]]:
        """Each marker and what being on it is worth to ``us`` (60 points times its need)."""
        other = "" if contested is None else contested.uid
        worth = view.worth.get((us.uid, other))
        if worth is None:
            full = OBJECTIVE_VALUE * self._last_round(state)
            if contested is None:  # the side's needs, each halved where a friend stands
                worth = [
                    (at, _guarded(need, us, friends) * full)
                    for at, need, friends in self._side_needs(state, view, us)
                ]
            else:
                worth = [
                    (o.position, self._need(state, us, i, o.controller, contested) * full)
                    for i, o in enumerate(state.objectives)
                ]
            view.worth[(us.uid, other)] = worth
        return worth

    def _side_needs(
        self, state: GameState, view: View, us: UnitState
    ) -> list[tuple[Point, float, list[UnitState]]]:
        """Each marker, its :meth:`_side_need` with no unit charged and the friends on it,
        for ``us``'s side, once a decision (it depends on ``us`` only through its side)."""
        found = view.needs.get(us.side)
        if found is None:
            found = view.needs[us.side] = [
                (
                    o.position,
                    self._side_need(state, view, us, i, o.controller, None),
                    self._around(state, view, us.side, i)[1],
                )
                for i, o in enumerate(state.objectives)
            ]
        return found
