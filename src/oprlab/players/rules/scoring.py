"""The rules commander's scores: what an activation, a shot, a charge or a place is worth.

A shot is worth the expected points it removes (exact odds of the attack, the system's own:
:mod:`oprlab.players.rules.habits`), a charge what it removes minus what the strike back costs, a
move getting onto objectives the side does not hold yet, and standing within an enemy's charge
reach costs a shooting unit. What a marker is worth to a unit is :mod:`.needs`' to say.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from math import hypot

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import CONSOLIDATE_INCHES, OBJECTIVE_RANGE, bennies_available
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.estimates import (
    MELEE,
    SHOOTING,
    break_chance,
    pair_estimate,
    unit_facts,
    value_per_model,
)
from oprlab.players.rules.needs import Needs
from oprlab.players.rules.view import (
    ADVANCE,
    CHARGE,
    HOLD,
    IDLE,
    MIN_OF,
    Point,
    View,
    held,
    move_allowance,
    shooting_targets,
    step_toward,
)
from oprlab.rules.gff.attack import LONG_RANGE
from oprlab.table.charge import can_charge
from oprlab.table.movement import MoveRules

#: How much holding one more marker than now at the end of the round is worth (round 4).
PROJECTION_VALUE = 40.0
#: A charge that falls short is worth this much less than the move it becomes.
SHORT_CHARGE = 1.0
#: The share of what cover would save from enemy shooters a unit out of cover counts as lost.
COVER_SHARE = 0.5


class Scoring(Needs):
    """The scores of one decision's actions, read from one :class:`View` of the table."""

    def score(self, state: GameState, a: Action) -> float:
        """What an activation is worth: expected points removed plus the position it leaves."""
        return self._score_below(state, a, None)[0]

    def _score_below(self, state: GameState, a: Action, beat: float | None) -> tuple[float, bool]:
        """:meth:`score`, and True; or, when the terms of a Hold or move that are never
        negative already sum to less than ``beat``, that sum and False: at least the score
        (the rest, hazard, exposure, depth and a Rush's mark-down, only lower it, and a
        float sum only falls when a term added falls) and below ``beat``, so the action is
        not the best, and the rest (attack estimates for the cover, shapely's terrain tests)
        is not worked out."""
        view = self._read(state)
        us = state.units[a.unit]
        if a.kind is IDLE:
            if not self.habits(state).idle_for_all:
                return 0.0, True  # GFF: a Shaken unit's only action
            # Riverside: Idle is open to every unit; it is worth taking to remove Shaken.
            if us.placement is None or not (us.shaken or self.style.idle_outlook):
                return -1.0, True
            here = view.centroid(us)
            stay = self._position_value(state, us, here)
            if self.style.idle_outlook:  # the outlook every other action carries
                stay += self._projected(state, us, here)
            return stay + (1.0 if us.shaken else -1.0), True
        assert us.placement is not None
        here = view.centroid(us)
        if a.kind is HOLD:
            # no ranged weapon with a reach: no shot (and no sight lines to trace for one)
            reaches = unit_facts(us.unit)[2]
            shot = 0.0
            if reaches and reaches[-1] > 0:
                shot = self._best_shot_from(state, us, here, self._targets(state, us))
            value = self._position_value(state, us, here) + shot + self._projected(state, us, here)
            if beat is not None and value < beat:
                return value, False
            return value + self._exposure(state, us, here, here), True
        if a.kind is CHARGE:
            arrives = not self.style.charge_arrival or self._arrives(
                state, us, state.units[a.target]
            )
            return self._charge_score(state, a, arrives), True
        assert a.to is not None
        allowance = move_allowance(state, us.unit, a.kind)
        end = step_toward(here, a.to, allowance)
        value = self._position_value(state, us, end) + self._projected(state, us, end)
        shot = 0.9 * self._best_shot_from(state, us, end) if a.kind is ADVANCE else 0.0
        if beat is not None and value + shot < beat:
            return value + shot, False
        value -= self._hazard(state, us, here, end, a.kind)
        value += self._exposure(state, us, here, end)
        value += self._depth(state, us, here, end)
        if a.kind is ADVANCE:
            value += shot
        else:
            value -= self._rush_mark_down(state, us, here, end)
        return value, True

    def _targets(self, state: GameState, us: UnitState) -> list[str]:
        """The enemies ``us`` can shoot from where it stands (sight and range), once a decision."""
        view = self._read(state)
        targets = view.targets.get(us.uid)
        if targets is None:
            targets = view.targets[us.uid] = shooting_targets(state, us)
        return targets

    def _rush_mark_down(self, state: GameState, us: UnitState, here: Point, end: Point) -> float:
        """What a Rush to ``end`` is marked down for the shot it gives up: ``Style.rush_cost``
        for a shooting unit, unless (``Style.rush_for_markers``, GFF) it leaves more markers
        held at the round's end than standing at ``here`` (seed 003 "Mission" 4-6)."""
        if self.role(us.unit) is not SHOOTING:
            return 0.0
        seizes = (
            self.style.rush_for_markers
            and self.habits(state).marker_habits
            and self._projected(state, us, end) > self._projected(state, us, here)
        )
        return 0.0 if seizes else self.style.rush_cost

    def _charge_score(self, state: GameState, a: Action, arrives: bool) -> float:
        """A charge's score if it reaches base contact (``arrives``), else the move it becomes."""
        view = self._read(state)
        us, target = state.units[a.unit], state.units[a.target]
        assert target.placement is not None
        here = view.centroid(us)
        end = step_toward(here, view.centroid(target), move_allowance(state, us.unit, a.kind))
        if not arrives:
            # it moves as close as it can and ends its activation: a move, no fight
            short = self._position_value(state, us, end) + self._projected(state, us, end)
            short -= SHORT_CHARGE + self._hazard(state, us, here, end, a.kind)
            return short + self._as_move(state, us, here, end, fight=False)
        value = self._charge_value(state, us, target) + self._projected(state, us, end)
        value += self._freed(state, us, target, end)
        value -= self._hazard(state, us, here, end, a.kind)
        value += self._as_move(state, us, here, end, fight=True)
        return value + (self._benny(state, us, value) if a.benny else 0.0)

    def _as_move(
        self, state: GameState, us: UnitState, here: Point, end: Point, *, fight: bool
    ) -> float:
        """``Style.charge_as_move`` (GFF): what a Rush to ``end`` costs a unit that is not a
        fighter, for a charge ending there: standing out of cover, walking into fighters'
        reach (a charge that falls short only), the shot it gives up (0 or less)."""
        if not (self.style.charge_as_move and self.habits(state).marker_habits):
            return 0.0
        kind = self.role(us.unit)
        if kind is MELEE:
            return 0.0
        value = self._exposure(state, us, here, end)
        if not fight:
            value += self._depth(state, us, here, end)
        return value - self._rush_mark_down(state, us, here, end)

    def _charge_bound(self, state: GameState, a: Action) -> float | None:
        """At least a charge's :meth:`score` without the table's charge test (the costly part
        of scoring a charge): the better of its score if it arrives and if it falls short.
        ``None`` when the score needs no test or the test is already made (then score it)."""
        if not self.style.charge_arrival or not self.habits(state).charges_may_fall_short:
            return None
        if (a.unit, a.target) in self._read(state).arrivals:
            return None
        return max(self._charge_score(state, a, True), self._charge_score(state, a, False))

    def _shoot_value(self, state: GameState, a: Action) -> float:
        """Expected points removed by a shot; a benny when one is left for each round to come."""
        if not a.target:
            return 0.0
        us = state.units[a.unit]
        assert us.placement is not None
        value = 0.0
        for target, split in ((a.target, False), (a.second, True)):
            if not target:
                continue
            t = state.units[target]
            assert t.placement is not None
            d = geo.gap(us.placement, t.placement)
            names = frozenset(a.split) if split else None
            habits = self.habits(state)
            cover = self.style.cover and self._target_cover(state, us, t)
            value += habits.damage(
                us, t, melee=False, distance=d, charging=False, only=names,
                skip=frozenset(a.split), cover=cover,
            )  # fmt: skip
            if self.style.shoot_markers and habits.marker_habits:
                stake = self._marker_stake(state, us, t)
                if stake:
                    value += (
                        stake
                        * self._projection_weight(state)
                        * break_chance(
                            us, t, distance=d, only=names, skip=frozenset(a.split), cover=cover
                        )
                    )
        return value + (self._benny(state, us, value) if a.benny else 0.0)

    def _marker_stake(self, state: GameState, us: UnitState, target: UnitState) -> int:
        """Markers ``us``'s side would hold (ours minus theirs) at the round's end with
        ``target`` broken (destroyed or Shaken: it no longer contests), less with it standing
        where it is (seed 003 "Mission" 4-6): the stake of breaking it."""
        view = self._read(state)
        key = (us.side, target.uid)
        found = view.stakes.get(key)
        if found is not None:
            return found
        stake = 0
        near = view.near_objectives().get(target.uid)
        if not target.shaken and target.placement is not None and near is not None and any(near):
            objectives = zip(state.objectives, self._sides_near(state, target), near, strict=True)
            for o, sides, close in objectives:
                if close:
                    gone = held(o.controller, sides, us.side)
                    stake += gone - held(o.controller, sides | {target.side}, us.side)
        view.stakes[key] = stake
        return stake

    def _benny(self, state: GameState, us: UnitState, value: float) -> float:
        """A benny is worth spending on an attack when one is left over for each round to
        come (so all are used by the end); the extra attack adds a little to its value."""
        spare = bennies_available(state, us.side) > state.rounds - state.round
        return 0.05 * max(0.0, value) + 0.5 if spare else -1.0

    def _consolidate_value(self, state: GameState, a: Action) -> float:
        us = state.units[a.unit]
        assert us.placement is not None
        here = self._read(state).centroid(us)
        end = here if a.to is None else step_toward(here, a.to, CONSOLIDATE_INCHES)
        return self._position_value(state, us, end) + (0.01 if a.to is None else 0.0)

    def _projected(self, state: GameState, us: UnitState, end: Point) -> float:
        """Markers held (ours minus theirs) if the round ended with ``us`` at ``end``.

        Seed 003 "Mission" 4-6 applied to the table as it stands, the acting unit moved; weighted
        more as the game nears its end, when later moves can no longer undo it.
        """
        view = self._read(state)
        key = (us.uid, end)
        found = view.projected.get(key)
        if found is not None:
            return found
        base, swing = self._swing(state, view, us)
        total = base
        if swing and not us.shaken and us.arrived != state.round:
            here = view.centroid(us)
            reach = view.reach(us, here)
            # A marker farther from ``end`` than the unit's reach plus 3" (and a margin far
            # above rounding) is out of range of every model: only the others are measured.
            maybe = [
                (x, y, change)
                for x, y, change in swing
                if math.hypot(end[0] - x, end[1] - y) - reach <= OBJECTIVE_RANGE + 1e-6
            ]
            if maybe:
                close = _models_near(view, us, end, [(x, y) for x, y, _ in maybe])
                total += sum(m[2] for m, ours in zip(maybe, close, strict=True) if ours)
        value = self._projection_weight(state) * total
        view.projected[key] = value
        return value

    def _freed(self, state: GameState, us: UnitState, target: UnitState, end: Point) -> float:
        """``Style.contest_need`` (GFF): the markers a charge frees at the round's end, ``us``
        at ``end`` and ``target`` destroyed or Shaken (it no longer contests: seed 003
        "Shaken"), less with ``target`` standing, at the charge's chance of that (as
        :meth:`_projected` weighs a marker)."""
        if not (self.style.contest_need and self.habits(state).marker_habits):
            return 0.0
        view = self._read(state)
        near = view.near_objectives().get(target.uid)
        if near is None or not any(near):
            return 0.0
        ours = self._near_at(view, us, end)
        change = 0
        objectives = zip(
            state.objectives,
            self._sides_near(state, us),
            self._sides_near(state, us, skip=target),
            near,
            ours,
            strict=True,
        )
        for o, standing, broken, close, mine in objectives:
            if close:
                own = {us.side} if mine else set()
                change += held(o.controller, broken | own, us.side)
                change -= held(o.controller, standing | own, us.side)
        if not change:
            return 0.0
        chance = self._charge_break(state, view, us, target)
        return change * chance * self._projection_weight(state)

    def _near_at(self, view: View, us: UnitState, end: Point) -> list[bool]:
        """Whether ``us``, moved so its centroid is at ``end``, is within 3" of each marker
        at the round's end (no marker while Shaken or arrived this round, as
        :meth:`_projected` counts it)."""
        state = view.state
        if us.shaken or us.arrived == state.round or us.placement is None:
            return [False] * len(state.objectives)
        return _models_near(view, us, end, view.objectives)

    def _projection_weight(self, state: GameState) -> float:
        """Points for one more marker held at the round's end than now: weighted more as the
        game nears its end, when later moves can no longer undo it."""
        view = self._view
        if view is not None and view.state is state and view.weight is not None:
            return view.weight  # the same for every unit and place of a decision
        weight = (
            PROJECTION_VALUE * (0.5 + state.round / (2 * state.rounds)) * self._last_round(state)
        )
        if view is not None and view.state is state:
            view.weight = weight
        return weight

    def _swing(
        self, state: GameState, view: View, us: UnitState
    ) -> tuple[int, list[tuple[float, float, int]]]:
        """Markers held (ours minus theirs) with ``us`` near none, and for each marker where
        standing near it changes that count, its position and the change (Mission 4-6).

        It depends on ``us`` only through its side and, when it counts near markers at the
        round's end, the markers it is near (:meth:`_sides_near` takes it out of those): units
        alike in both share one answer a decision (most are near no marker)."""
        found = view.swings.get(us.uid)
        if found is None:
            near = view.near_objectives().get(us.uid)
            counted = near is not None and any(near) and self._holds(state, us)
            key = (us.side, tuple(near) if near is not None and counted else ())
            found = view.side_swings.get(key)
            if found is None:
                found = view.side_swings[key] = self._swing_of(state, us)
            view.swings[us.uid] = found
        return found

    def _swing_of(
        self, state: GameState, us: UnitState
    ) -> tuple[int, list[tuple[float, float, int]]]:
        """:meth:`_swing` worked out for ``us`` alone (what the shared answer must equal)."""
        base = 0
        swing: list[tuple[float, float, int]] = []
        for o, sides in zip(state.objectives, self._sides_near(state, us), strict=True):
            away = held(o.controller, sides, us.side)
            there = held(o.controller, sides | {us.side}, us.side)
            base += away
            if there != away:
                swing.append((o.position[0], o.position[1], there - away))
        return base, swing

    def _sides_near(
        self, state: GameState, us: UnitState, skip: UnitState | None = None
    ) -> list[set[int]]:
        """The sides of the units other than ``us`` (and ``skip``) that would seize or contest
        each marker at the round's end: counted once a decision for every unit, ``us`` and
        ``skip`` then taken out."""
        view = self._read(state)
        near = view.near_objectives()
        counts = view.holders
        if counts is None:
            counts = view.holders = [[0, 0] for _ in state.objectives]
            units = state.units
            for uid, row in near.items():  # every unit on the table; most are near no marker
                if any(row) and self._holds(state, other := units[uid]):
                    for count, close in zip(counts, row, strict=True):
                        if close:
                            count[other.side] += 1
            view.holding = [{side for side in (0, 1) if count[side] > 0} for count in counts]
        assert view.holding is not None
        out = list(view.holding)  # the sets are shared: read, never changed
        gone = [u for u in (us, skip) if u is not None and self._holds(state, u)]
        if len(gone) == 2 and gone[0] is gone[1]:
            gone.pop()
        for u in gone:  # only the markers a unit taken out is near count again
            for i, close in enumerate(near[u.uid]):
                if close:
                    left = list(counts[i])
                    for v in gone:
                        if near[v.uid][i]:
                            left[v.side] -= 1
                    out[i] = {side for side in (0, 1) if left[side] > 0}
        return out

    def _holds(self, state: GameState, other: UnitState) -> bool:
        """Whether ``other`` counts near a marker at the round's end (seed 003 "Mission")."""
        if not other.on_table:
            return False
        if other.shaken:  # the habits asked only then: every unit of a decision is asked
            # GFF: a Shaken unit's one action is Idle, which rallies it, so one yet to activate
            # contests again at the round's end (seed 003 "Shaken")
            rally = self.style.rally_contests and not self.habits(state).idle_for_all
            if not (rally and not other.activated):
                return False
        return other.arrived != state.round and other.placement is not None

    def _best_shot_from(
        self,
        state: GameState,
        us: UnitState,
        at: Point,
        targets: list[str] | None = None,
    ) -> float:
        """The best expected shot from ``at`` (``targets``: the ones in sight, if known)."""
        best = 0.0
        reaches = unit_facts(us.unit)[2]
        reach = max(reaches, default=0)
        if reach <= 0:
            return 0.0
        view = self._read(state)
        enemies = view.enemies(us.side)
        gaps = enemies.gaps(at)
        for e, d in zip(enemies.units, gaps, strict=True):
            if targets is not None and e.uid not in targets:
                continue
            if d <= reach:
                # the weapons that reach (those with a reach from this index on) and the band
                band = bisect_left(reaches, d)
                key = (us.uid, e.uid, band, d > LONG_RANGE)
                value = view.shots.get(key)
                if value is None:
                    value = view.shots[key] = pair_estimate(
                        self.habits(state).damage, us, e,
                        melee=False, distance=d, charging=False, band=band,
                    )  # fmt: skip
                if targets is not None and self.style.cover:  # in sight: its cover is known
                    value = self._covered_shot(state, view, us, e, d, value)
                if self.style.aim_markers and self.habits(state).marker_habits:
                    value += self._aim(state, view, us, e, d)
                best = max(best, value)
        return best

    def _aim(self, state: GameState, view: View, us: UnitState, e: UnitState, d: float) -> float:
        """What breaking ``e`` (destroyed or Shaken) from ``d`` inches is worth in markers at the
        round's end (:meth:`_marker_stake`, counted from where the units stand now), at the
        chance of the shot in the open (the cover term of the points is left to the shot)."""
        stake = self._marker_stake(state, us, e)
        if not stake:
            return 0.0
        key = (us.uid, e.uid, bisect_left(unit_facts(us.unit)[2], d), d > LONG_RANGE)
        chance = view.breaks.get(key)
        if chance is None:
            chance = view.breaks[key] = break_chance(us, e, distance=d)
        return stake * self._projection_weight(state) * chance

    def _melee_damage(
        self, view: View, attacker: UnitState, target: UnitState, *, charging: bool
    ) -> float:
        key = (attacker.uid, target.uid, charging)
        value = view.melee.get(key)
        if value is None:
            value = view.melee[key] = pair_estimate(
                self.habits(view.state).damage, attacker, target,
                melee=True, distance=0.0, charging=charging, band=-1,
            )  # fmt: skip
        return value

    def _charge_value(self, state: GameState, us: UnitState, target: UnitState) -> float:
        """Points removed minus the strike back, and the place the charge leads to."""
        view = self._read(state)
        key = (us.uid, target.uid)
        found = view.charges.get(key)
        if found is not None:
            return found
        dealt = self._melee_damage(view, us, target, charging=True)
        back = 0.0
        if target.models > 0:
            back = self.style.strike_back * self._melee_damage(view, target, us, charging=False)
        bonus = self.style.charge_bonus if self.role(us.unit) is MELEE else 0.0
        assert target.placement is not None
        at = view.centroid(target)
        value = dealt - back + bonus + self._position_value(state, us, at, contested=target)
        view.charges[key] = value
        return value

    def _position_value(
        self,
        state: GameState,
        us: UnitState,
        at: Point,
        contested: UnitState | None = None,
    ) -> float:
        """Objectives: being near ones that need us; danger: enemy fighters within reach.

        A marker needs a unit less when the side holds it with no enemy close, or when another
        friendly unit already stands on it; ``contested`` (a unit being charged) no longer
        counts as an enemy there.
        """
        view = self._read(state)
        other = "" if contested is None else contested.uid
        memo = (us.uid, at, other)
        found = view.positions.get(memo)
        if found is not None:
            return found
        value = self._gains(self._worth(state, view, us, contested), at)
        kind = self.role(us.unit)
        wary = kind is not MELEE if self.style.weak_out_of_reach else kind is SHOOTING
        if wary:
            threats = self._threats(state, view, us.side)
            if threats:
                gaps = view.enemies(us.side).gaps(at)
                for k, e, reach in threats:
                    if gaps[k] < reach:
                        value -= self.style.danger * self._melee_damage(view, e, us, charging=True)
        elif kind is MELEE:
            dists = view.enemies(us.side).gaps(at)
            if dists:
                value += 15.0 / (1.0 + min(dists) / 6.0)
        view.positions[memo] = value
        return value

    def _threats(
        self, state: GameState, view: View, side: int
    ) -> list[tuple[int, UnitState, float]]:
        """The enemy fighters of ``side`` (not shooting, not Shaken): each one's index among
        the enemies, the unit, and its charge reach (its Charge move plus 1" for the bases)."""
        threats = view.threats.get(side)
        if threats is None:
            threats = view.threats[side] = [
                (k, e, move_allowance(state, e.unit, CHARGE) + 1.0)
                for k, e in enumerate(view.enemies(side).units)
                if self.role(e.unit) is not SHOOTING and e.placement is not None and not e.shaken
            ]
        return threats

    def _depth(self, state: GameState, us: UnitState, here: Point, end: Point) -> float:
        """What a shooting unit's move into enemy fighters' charge reach costs beyond the
        share :meth:`_position_value` counts (0 or less, so every bound on a move holds).

        A shooting unit does its work from where it stands: walking into the reach of a
        fighter it was out of hands that fighter the charge, so each such fighter's whole
        charge counts as lost (the rest of it, past ``danger``). Not in the last round, when
        no charge follows the markers' count.
        """
        if not self.style.depth or state.round >= state.rounds:
            return 0.0
        if self.role(us.unit) is not SHOOTING:
            return 0.0
        view = self._read(state)
        threats = self._threats(state, view, us.side)
        if not threats:
            return 0.0
        enemies = view.enemies(us.side)
        before, after = enemies.gaps(here), enemies.gaps(end)
        lost = 0.0
        for k, e, reach in threats:
            if after[k] < reach <= before[k]:
                lost += self._melee_damage(view, e, us, charging=True)
        return -(1.0 - self.style.danger) * lost

    @staticmethod
    def _gains(worth: list[tuple[Point, float]], at: Point) -> float:
        """What standing at ``at`` is worth by the markers alone: each marker's worth, less
        the farther ``at`` is from within 3" of it; the best in full, the others a quarter."""
        if not worth:
            return 0.0
        x, y = at
        # ``math.dist(at, position)`` is ``hypot`` of the same differences (one norm in C)
        gains: list[float] = []
        add = gains.append
        for (px, py), full in worth:
            beyond = hypot(x - px, y - py) - OBJECTIVE_RANGE + 0.5  # half an inch inside
            add(full / (1.0 + (beyond if beyond > 0.0 else 0.0) / 4.0))
        gains.sort(reverse=True)
        total = 0.0 + gains[0]  # summed left to right as ``sum`` adds (from 0)
        for g in gains[1:]:
            total += g * 0.25
        return total

    def _arrives(self, state: GameState, us: UnitState, target: UnitState) -> bool:
        """Whether a charge of ``us`` at ``target`` reaches base contact (the table's own
        charge rules: terrain and units in the way); always, where the system only lists
        charges that do."""
        habits = self.habits(state)
        if not habits.charges_may_fall_short:
            return True
        view = self._read(state)
        key = (us.uid, target.uid)
        found = view.arrivals.get(key)
        if found is None:
            assert us.placement is not None and target.placement is not None
            others = [p for p in state.placements_except(us.uid) if p is not target.placement]
            found = view.arrivals[key] = can_charge(
                state.table,
                us.placement,
                target.placement,
                move_allowance(state, us.unit, CHARGE),
                others,
                rules=MoveRules.of(us.unit, habits.movement),
            )
        return found

    def _hazard(
        self, state: GameState, us: UnitState, here: Point, end: Point, kind: Kind
    ) -> float:
        """Points the unit is expected to lose to dangerous terrain moving from ``here`` to
        ``end``: each model whose straight way crosses it rolls (Tough(X): X dice), a 1 is a
        wound (seed 003 and seed 002 "Dangerous Terrain"; Riverside only on a Rush or Charge)."""
        if not self.style.dangerous_terrain or here == end:
            return 0.0
        if kind is ADVANCE and not self.habits(state).dangerous_on_advance:
            return 0.0
        view = self._read(state)
        crossing = view.dangerous_crossings(us, here, end)
        return crossing * value_per_model(us) / 6.0

    def _covered_shot(
        self, state: GameState, view: View, us: UnitState, e: UnitState, d: float, open_: float
    ) -> float:
        """A shot from where ``us`` stands at ``e``, worth ``open_`` without cover: scored with
        the Defense roll ``e``'s cover gives it (seed 003/002 "Cover Terrain": +1), when the
        system's own check says it has cover (no more than ``open_``, so bounds still hold)."""
        habits = self.habits(state)
        if not self._target_cover(state, us, e):
            return open_
        return min(open_, habits.damage(us, e, melee=False, distance=d, charging=False, cover=True))

    def _target_cover(self, state: GameState, us: UnitState, target: UnitState) -> bool:
        """Whether a shot of ``us`` at ``target`` meets cover (the system's own check, once a
        decision)."""
        view = self._read(state)
        key = (us.uid, target.uid)
        found = view.target_cover.get(key)
        if found is None:
            found = view.target_cover[key] = self.habits(state).target_cover(state, us, target)
        return found

    def _exposure(self, state: GameState, us: UnitState, here: Point, end: Point) -> float:
        """What standing at ``end`` out of Cover Terrain costs a unit that is not a fighter
        (0 or less, so every bound on a move's score still holds).

        Each rested enemy shooter that could Advance and fire at ``end`` (its longest reach
        plus its Advance) takes the difference between its shot in the open and in cover, by
        the system's own odds (cover gives +1 to Defense rolls); the unit counts half the sum
        (the enemy may shoot someone else) as lost. Standing in Cover Terrain costs nothing.
        Being behind terrain from a given shooter is not counted: it needs sight lines from
        every enemy for every candidate move.
        """
        if not self.style.cover or self.role(us.unit) is MELEE:
            return 0.0
        view = self._read(state)
        habits = self.habits(state)
        if view.in_cover_terrain(us, here, end, whole=habits.cover_whole_base):
            return 0.0
        shooters = self._shooters(state, view, us.side)
        if not shooters:
            return 0.0
        gaps = view.enemies(us.side).gaps(end)
        lost = 0.0
        for k, e, reach in shooters:
            if gaps[k] > reach:
                continue
            lost += self._cover_gain(state, view, e, us)
        return -COVER_SHARE * lost

    def _shooters(
        self, state: GameState, view: View, side: int
    ) -> list[tuple[int, UnitState, float]]:
        """The rested enemy shooters of ``side`` (not Shaken): each one's index among the
        enemies, the unit, and its longest reach plus its Advance, once a decision."""
        shooters = view.shooters.get(side)
        if shooters is None:
            shooters = view.shooters[side] = [
                (k, e, max(unit_facts(e.unit)[2]) + move_allowance(state, e.unit, ADVANCE))
                for k, e in enumerate(view.enemies(side).units)
                if unit_facts(e.unit)[2] and e.placement is not None and not e.shaken
            ]
        return shooters

    def _cover_gain(self, state: GameState, view: View, e: UnitState, us: UnitState) -> float:
        """What cover would save ``us`` from ``e``'s shot (0 or more), by the system's own
        odds, once a decision."""
        key = (e.uid, us.uid)
        gain = view.cover_gain.get(key)
        if gain is None:
            habits = self.habits(state)
            open_ = habits.damage(e, us, melee=False, distance=0.0, charging=False)
            hidden = habits.damage(e, us, melee=False, distance=0.0, charging=False, cover=True)
            gain = view.cover_gain[key] = max(0.0, open_ - hidden)
        return gain


def _models_near(view: View, us: UnitState, end: Point, points: Sequence[Point]) -> list[bool]:
    """Whether ``us``, moved so its centroid is at ``end``, has a model within 3" of each of
    ``points`` (seed 003 "Mission": a unit within 3" of a marker seizes or contests it)."""
    centres, radii = view.alive(us)
    if not len(radii) or not points:
        return [False] * len(points)
    here = view.centroid(us)
    xs, ys = centres[:, 0] + (end[0] - here[0]), centres[:, 1] + (end[1] - here[1])
    at = np.array(points, dtype=np.float64)  # one conversion, its two columns as before
    d = np.hypot(xs[None, :] - at[:, 0, None], ys[None, :] - at[:, 1, None])
    close: list[bool] = (MIN_OF(d - radii[None, :], axis=1) <= OBJECTIVE_RANGE).tolist()
    return close
