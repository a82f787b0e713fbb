"""A rules-based commander that plays like a competent human, in the spirit of OPR's solo rules.

Each unit is classed as melee, shooting or hybrid from what it can do. On its turn the commander
scores every legal action of every unit and takes the best: shooting is worth the expected
points it removes (exact odds of the attack), a charge is worth what it removes minus what the
strike back costs, a move is worth getting onto objectives the side does not hold yet, and
standing within an enemy's charge reach costs a shooting unit. Setup decisions follow simple
habits: objectives on its own half, shooters deployed back and fighters forward.

Casters (GFF) cast before acting: once the best action's unit is known, if it may cast, it
tries the spell with the most expected points removed (the largest value its tokens allow).
Under clock-bennies, with a benny to spare, it sets its own clock to 1 before a shot when the
clock stands at 4 or more, so the shot's first checks succeed.

Speed: one decision scores dozens of actions against the same table, so each decision reads
the table once (:class:`_View`: every unit's models, centroids, the distance from a point to
every enemy unit in one numpy call, who stands near each marker) and memoises what actions
share. Every number is computed with the same floating-point operations, in the same order, as
the per-call helpers it replaces, so choices (and so game logs) are bit for bit the same.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import (
    CASTING_ROLL,
    CONSOLIDATE_INCHES,
    OBJECTIVE_RANGE,
    SPELLS,
    bennies_available,
)
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import gff_choices, riverside_choices, riverside_odds
from oprlab.players.base import COMMANDERS
from oprlab.players.memo import IdentityMemo, attack_weapons
from oprlab.rng import SeedLike
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import attack_profiles, defender_profile
from oprlab.units.model import Unit, Weapon

D6 = get_mechanic("d6")
#: How much one objective is worth, in points of enemy removed.
OBJECTIVE_VALUE = 60.0
#: How much holding one more marker than now at the end of the round is worth (round 4).
PROJECTION_VALUE = 40.0

Point = tuple[float, float]
FloatArray = npt.NDArray[np.float64]


class Role(StrEnum):
    MELEE = "melee"
    SHOOTING = "shooting"
    HYBRID = "hybrid"


@lru_cache(maxsize=4096)
def role(unit: Unit) -> Role:
    """Melee, shooting or hybrid by attack dice (ranged dice count double: they act sooner)."""
    ranged = sum(w.count * w.attacks for w in unit.weapons if not w.melee)
    melee = sum(w.count * w.attacks for w in unit.weapons if w.melee)
    melee += unit.rating("Impact") or 0
    if ranged * 2 >= melee * 3:
        return Role.SHOOTING
    if melee >= ranged * 3:
        return Role.MELEE
    return Role.HYBRID


#: Per-unit facts by identity (a frozen Unit's hash walks all its fields on every call): the
#: unit itself (held so its id stays unique), its role, its distinct ranged reaches (sorted).
_UNIT_FACTS: dict[int, tuple[Unit, Role, list[int]]] = {}
_CACHE_LIMIT = 4096


def _facts(unit: Unit) -> tuple[Unit, Role, list[int]]:
    facts = _UNIT_FACTS.get(id(unit))
    if facts is None or facts[0] is not unit:
        if len(_UNIT_FACTS) >= _CACHE_LIMIT:
            _UNIT_FACTS.clear()
        reaches = sorted({w.range or 0 for w in unit.weapons if not w.melee})
        facts = _UNIT_FACTS[id(unit)] = (unit, role(unit), reaches)
    return facts


def _role(unit: Unit) -> Role:
    return _facts(unit)[1]


def _value_per_model(us: UnitState) -> float:
    return us.unit.cost / max(1, us.unit.size)


def expected_damage(
    attacker: UnitState,
    target: UnitState,
    *,
    melee: bool,
    distance: float,
    charging: bool,
    only: frozenset[str] | None = None,
    skip: frozenset[str] = frozenset(),
    system: str = "gff",
) -> float:
    """Expected points of ``target`` removed by one attack of ``attacker`` (d6 exact odds).

    ``only``: just these weapon types; ``skip``: not these (a split shot's two halves).
    ``system``: whose odds (Riverside's own: :mod:`oprlab.players.riverside_odds`).
    """
    if system == "riverside":
        return riverside_odds.expected_damage(
            attacker,
            target,
            melee=melee,
            distance=distance,
            charging=charging,
            only=only,
            skip=skip,
        )
    weapons = attack_weapons(attacker, melee=melee, distance=distance, only=only, skip=skip)
    if not weapons or attacker.models <= 0 or target.models <= 0:
        return 0.0
    fatigued = attacker.fatigued and melee
    far = distance > LONG_RANGE
    return _EXPECTED.attack(_expected, attacker, fatigued, weapons, target, melee, charging, far)


#: :func:`_expected` keyed on the identity of its units and weapons (hashing them is slow).
_EXPECTED = IdentityMemo()


@lru_cache(maxsize=65536)
def _expected(
    unit: Unit,
    models: int,
    fatigued: bool,
    weapons: tuple[Weapon, ...],
    target: Unit,
    target_models: int,
    markers: int,
    shaken: bool,
    melee: bool,
    charging: bool,
    far: bool,
) -> float:
    profiles = [p for p in attack_profiles(unit, weapons, alive=models) if p.dice > 0]
    if not profiles:
        return 0.0
    s = Situation(
        melee=melee, charging=charging, distance=LONG_RANGE + 1 if far else 0.0, fatigued=fatigued
    )
    d = defender_profile(target, models=target_models, markers=markers, shaken=shaken)
    odds = attack_odds_fast(profiles, d, s, D6)
    casualties = sum(k * p for k, p in enumerate(odds.casualties))
    shaken_bonus = 0.3 * odds.p_shaken * target.cost
    return float(casualties) * target.cost / max(1, target.size) + shaken_bonus


class _Units:
    """Some units' alive models in one array: a point's distance to each unit in one call.

    :meth:`gaps` is :func:`geometry.point_gap` measured as the commander always has (``hypot``
    of the offsets, less the base radius, the closest model, at least 0), for every unit at once;
    the per-unit minimum of one array equals the minimum over that unit's own models.
    """

    def __init__(self, units: list[UnitState]) -> None:
        self.units = units
        self.index = {u.uid: k for k, u in enumerate(units)}
        self.models: list[tuple[FloatArray, FloatArray]] = []
        starts: list[int] = []
        n = 0
        for u in units:
            assert u.placement is not None
            alive = u.placement.alive
            c, r = u.placement.centres[alive], u.placement.radii[alive]
            self.models.append((c, r))
            starts.append(n)
            n += len(r)
        self.whole = all(len(r) for _, r in self.models)  # no unit without models left
        if units:
            c = np.concatenate([m[0] for m in self.models])
            self.x, self.y = c[:, 0], c[:, 1]
            self.r = np.concatenate([m[1] for m in self.models])
        self.starts = np.array(starts, dtype=np.intp)
        self._gaps: dict[Point, list[float]] = {}

    def prefetch(self, points: Sequence[Point]) -> None:
        """Measure from many points in one call (the same numbers :meth:`gaps` gives)."""
        todo = [p for p in dict.fromkeys(points) if p not in self._gaps]
        if not todo or not self.units or not self.whole:
            return
        px = np.array([p[0] for p in todo], dtype=np.float64)[:, None]
        py = np.array([p[1] for p in todo], dtype=np.float64)[:, None]
        d = np.hypot(self.x[None, :] - px, self.y[None, :] - py) - self.r[None, :]
        low = np.minimum.reduceat(d, self.starts, axis=1)
        # max(0.0, v) for each v (NaN and -0.0 give 0.0 as max does), in one call
        rows = np.where(low > 0.0, low, 0.0).tolist()
        for p, row in zip(todo, rows, strict=True):
            self._gaps[p] = row

    def gaps(self, at: Point) -> list[float]:
        """The gap from ``at`` to each unit's closest base edge, in unit order."""
        found = self._gaps.get(at)
        if found is not None:
            return found
        if not self.units:
            found = []
        elif self.whole:
            d = np.hypot(self.x - at[0], self.y - at[1]) - self.r
            low = np.minimum.reduceat(d, self.starts)
            found = np.where(low > 0.0, low, 0.0).tolist()
        else:  # a unit without models: measure one by one (as before, an empty min raises)
            found = [
                max(0.0, float((np.hypot(c[:, 0] - at[0], c[:, 1] - at[1]) - r).min()))
                for c, r in self.models
            ]
        self._gaps[at] = found
        return found


class _View:
    """One decision's reading of the table, shared by every action the commander scores."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.centroids: dict[str, Point] = {}
        self.groups: dict[int, _Units] = {}
        self.threats: dict[int, list[tuple[int, UnitState, float]]] = {}
        self.near: dict[str, list[bool]] | None = None
        self.objectives = [o.position for o in state.objectives]
        self.friends: dict[int, list[UnitState]] = {}
        self.worth: dict[tuple[str, str], list[tuple[Point, float]]] = {}
        self.swings: dict[str, tuple[int, list[tuple[float, float, int]]]] = {}
        self.positions: dict[tuple[str, Point, str], float] = {}
        self.projected: dict[tuple[str, Point], float] = {}
        self.charges: dict[tuple[str, str], float] = {}
        self.melee: dict[tuple[str, str, bool], float] = {}
        self.shots: dict[tuple[str, str, int, bool], float] = {}
        self.targets: dict[str, list[str]] = {}
        self.reaches: dict[str, float] = {}
        self.bounds: dict[tuple[str, str], float] = {}
        self._points: FloatArray | None = None

    def centroid(self, us: UnitState) -> Point:
        c = self.centroids.get(us.uid)
        if c is None:
            assert us.placement is not None
            c = self.centroids[us.uid] = geo.centroid(us.placement)
        return c

    def points(self) -> FloatArray:
        """The markers' positions as an array."""
        if self._points is None:
            self._points = np.array(self.objectives, dtype=np.float64).reshape(-1, 2)
        return self._points

    def reach(self, us: UnitState, here: Point) -> float:
        """How far the unit's farthest base edge is from its centroid ``here``."""
        found = self.reaches.get(us.uid)
        if found is None:
            assert us.placement is not None
            alive = us.placement.alive
            c, r = us.placement.centres[alive], us.placement.radii[alive]
            found = float((np.hypot(c[:, 0] - here[0], c[:, 1] - here[1]) + r).max())
            self.reaches[us.uid] = found
        return found

    def enemies(self, side: int) -> _Units:
        group = self.groups.get(side)
        if group is None:
            group = self.groups[side] = _Units(self.state.enemies(side))
        return group

    def side_friends(self, side: int) -> list[UnitState]:
        found = self.friends.get(side)
        if found is None:
            found = self.friends[side] = self.state.friends(side)
        return found

    def near_objectives(self) -> dict[str, list[bool]]:
        """Each unit on the table: within 3" of each marker (:func:`geometry.within`).

        Measured as ``point_gap`` does (the square root of the summed squared offsets), for
        every model and marker in one call.
        """
        if self.near is None:
            units = [u for u in self.state.units.values() if u.on_table]
            self.near = {}
            if units and self.objectives:
                group = _Units(units)
                if group.whole:
                    pts = self.points()
                    dx = group.x[None, :] - pts[:, 0][:, None]
                    dy = group.y[None, :] - pts[:, 1][:, None]
                    d = np.sqrt(dx * dx + dy * dy) - group.r[None, :]
                    low = np.minimum.reduceat(d, group.starts, axis=1).T.tolist()
                    for u, row in zip(units, low, strict=True):
                        self.near[u.uid] = [max(0.0, v) <= OBJECTIVE_RANGE for v in row]
                else:
                    for u in units:
                        assert u.placement is not None
                        self.near[u.uid] = [
                            geo.within(u.placement, o, OBJECTIVE_RANGE) for o in self.objectives
                        ]
            else:
                self.near = {u.uid: [False] * len(self.objectives) for u in units}
        return self.near


class RulesCommander:
    """Greedy, one activation at a time, with exact attack odds for its estimates."""

    name = "rules"

    def __init__(self, seed: SeedLike = 0) -> None:
        self.seed = seed
        self._view: _View | None = None

    def _read(self, state: GameState) -> _View:
        view = self._view
        if view is None or view.state is not state:
            view = self._view = _View(state)
        return view

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        self._view = _View(state)  # per decision: the table as it stands now
        if state.system == "riverside":  # roll-off, resist, cast, teleport: its own habits
            picked = riverside_choices.choose(self, state, actions)
            if picked is not None:
                return picked
        kind = actions[0].kind
        if gff_choices.handles(state, kind):  # GFF edges, deployment, enemy tokens, defence
            return gff_choices.choose(state, actions, lambda u: _role(u) is Role.SHOOTING)
        if kind is Kind.PLACE_OBJECTIVE:
            return self._objective(state, actions)
        if kind is Kind.DEPLOY:
            return self._deploy(state, actions)
        if kind is Kind.SHOOT:
            shots = [a for a in actions if a.kind is Kind.SHOOT]
            best = max(shots, key=lambda a: self._shoot_value(state, a))
            sets = [a for a in actions if a.kind is Kind.SET_CLOCK]
            return self._set_clock(state, best, sets) if sets else best
        if kind is Kind.CONSOLIDATE:
            return max(actions, key=lambda a: self._consolidate_value(state, a))
        return self._activation(state, actions)

    def _activation(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The best action; a Caster that may cast tries its best spell first."""
        casts = [a for a in actions if a.kind is Kind.CAST]
        if not casts:
            return self._best_action(state, actions)
        best = self._best_action(state, [a for a in actions if a.kind is not Kind.CAST])
        own = [a for a in casts if a.unit == best.unit]
        if not own:
            return best
        cast = max(own, key=lambda a: (self._cast_value(state, a), -a.boost, a.value))
        return cast if self._cast_value(state, cast) > 0 else best

    def _cast_value(self, state: GameState, a: Action) -> float:
        """Expected points a spell removes, less what boosting tokens could do on their own.

        d6 odds: the casting roll is ``CASTING_ROLL``+ with +1 per boost token (a 1 fails);
        each hit wounds when the Defense roll, worsened by the spell's AP, fails.
        """
        spell = next(s for s in SPELLS if s.name == a.spell)
        target = state.units[a.target]
        defense = defender_profile(
            target.unit, models=target.models, markers=target.markers, shaken=target.shaken
        ).defense

        def works(boost: int) -> float:
            return min(5, 7 - CASTING_ROLL + boost) / 6

        blocks = min(5, max(1, 7 - defense - spell.ap)) / 6
        per_wound = _value_per_model(target) / max(1, target.unit.tough)
        damage = a.value * spell.hits_per_token * (1 - blocks) * per_wound
        return works(a.boost) * damage - 1.1 * a.boost * works(0) * damage / a.value

    def _set_clock(self, state: GameState, shot: Action, sets: Sequence[Action]) -> Action:
        """Set the shooter's clock to 1 before a shot when it stands at 4 or more and a benny
        is left over for each round to come; otherwise just shoot."""
        mech, clocks = state.mechanic, state.mech_state
        if not shot.target or not isinstance(mech, Clock) or not isinstance(clocks, ClockState):
            return shot
        us = state.units[shot.unit]
        if bennies_available(state, us.side) <= state.rounds - state.round:
            return shot
        start = mech.start if isinstance(mech.start, int) else 1
        current = clocks.clocks.get(mech.clock_key(us.owner), start)
        if current < 4:
            return shot
        mine = [a for a in sets if a.target == us.uid and a.value == 1]
        return mine[0] if mine else shot

    def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The best-scoring action, the first of equals: ``max`` by (score, tiebreak).

        Hold's score needs the targets in line of sight; it is only worked out when an upper
        bound (every enemy in range counted as a target) could still reach the best score of
        the other actions. Moves (Advance, Rush) are scored after the other actions, highest
        bound first (:meth:`_move_bound`), and only while their bound could reach the best. An
        action whose bound is below the best cannot be the first maximum, so the choice is
        the one ``max`` over every exact score in list order makes.
        """
        view = self._read(state)
        self._prefetch(state, view, actions)
        keys: list[tuple[float, tuple[int, ...]] | None] = [None] * len(actions)
        best: tuple[float, tuple[int, ...]] | None = None
        held: list[int] = []
        moves: list[int] = []
        for i, a in enumerate(actions):
            if a.kind is Kind.HOLD and _facts(state.units[a.unit].unit)[2]:
                held.append(i)
                continue
            if a.kind is Kind.RUSH or a.kind is Kind.ADVANCE:
                moves.append(i)  # bounded first: most cannot be the best
                continue
            key = keys[i] = (self.score(state, a), _tiebreak(a))
            if best is None or key > best:
                best = key
        # the highest bounds first, so that the best score rises early and skips the rest
        bounds = [(self._move_bound(state, actions[i]), _tiebreak(actions[i])) for i in moves]
        for k in sorted(range(len(moves)), key=lambda k: bounds[k], reverse=True):
            if best is not None and bounds[k] < best:
                continue  # cannot be the best: its exact score is not needed
            i = moves[k]
            a = actions[i]
            key = keys[i] = (self.score(state, a), _tiebreak(a))
            if best is None or key > best:
                best = key
        for i in held:
            a = actions[i]
            if best is not None and (self._hold_bound(state, a), _tiebreak(a)) < best:
                continue  # cannot be the best: its exact score is not needed
            key = keys[i] = (self.score(state, a), _tiebreak(a))
            if best is None or key > best:
                best = key
        if any(k is not None and math.isnan(k[0]) for k in keys):  # max is order-bound then
            return max(actions, key=lambda a: (self.score(state, a), _tiebreak(a)))
        scored = [(k, a) for k, a in zip(keys, actions, strict=True) if k is not None]
        return max(scored, key=lambda pair: pair[0])[1]

    def _prefetch(self, state: GameState, view: _View, actions: Sequence[Action]) -> None:
        """Measure the points the actions other than moves are scored from to every enemy, in
        one call."""
        points: list[Point] = [o.position for o in state.objectives]
        for a in actions:
            us = state.units[a.unit]
            if us.placement is None or a.kind is Kind.IDLE:
                continue
            here = view.centroid(us)
            if a.kind is Kind.HOLD:
                points.append(here)
            elif a.kind is Kind.CHARGE:
                target = state.units[a.target]
                if target.placement is not None:
                    points.append(view.centroid(target))
            # moves: most are never scored (their bound is below the best), so their ends are
            # measured one by one when they are
        view.enemies(state.active).prefetch(points)

    def _move_bound(self, state: GameState, a: Action) -> float:
        """At least the score of a Rush or an Advance (for its advance, see :meth:`_shot_bound`).

        The move ends within its allowance of the centroid, so no marker is nearer than its
        distance from there less the allowance: each marker's gain is at most the gain at that
        distance (the same monotone operations, on a smaller distance), the sorted gains are
        dominated term by term, a melee unit's bonus near enemies is at most 15, a shooting
        unit's danger costs at least 0, and the markers held at the end of the round are at
        most those held plus every marker it could add within its reach, the allowance and 3"
        (the test :meth:`_projected` makes first). Margins far above round-off cover the rest.
        """
        view = self._read(state)
        us = state.units[a.unit]
        memo = (us.uid, a.kind.value)
        found = view.bounds.get(memo)
        if found is not None:
            return found
        here = view.centroid(us)
        allowance = _allowance(state, us.unit, a.kind)
        gains = []
        for position, full in self._worth(state, view, us, None):
            beyond = math.dist(here, position) - allowance - 1e-6 - OBJECTIVE_RANGE + 0.5
            gains.append(full / (1.0 + (beyond if beyond > 0.0 else 0.0) / 4.0))
        gains.sort(reverse=True)
        value = sum(g * (1.0 if i == 0 else 0.25) for i, g in enumerate(gains))
        kind = _role(us.unit)
        if kind is Role.MELEE:
            value += 15.0
        base, swing = self._swing(state, view, us)
        total = base
        if swing and not us.shaken and us.arrived != state.round:
            # a marker counts only within the unit's reach plus 3" of where it ends
            reach = view.reach(us, here) + allowance + OBJECTIVE_RANGE + 1e-3
            total += sum(
                change for x, y, change in swing if change > 0 and math.dist(here, (x, y)) <= reach
            )
        value += PROJECTION_VALUE * (0.5 + state.round / (2 * state.rounds)) * total
        if a.kind is Kind.ADVANCE:
            value += 0.9 * self._shot_bound(state, view, us, here, allowance)
        elif kind is Role.SHOOTING:
            value -= 5.0
        value += 1e-6
        view.bounds[memo] = value
        return value

    def _shot_bound(
        self, state: GameState, view: _View, us: UnitState, here: Point, allowance: float
    ) -> float:
        """At least :meth:`_best_shot_from` any point within ``allowance`` of ``here``.

        A unit's gap to an enemy changes by no more than the unit moves, so each enemy is at
        a distance in ``gap +- allowance`` (plus round-off) from the end; a shot's value depends
        on the distance only through the weapons that reach (an index into the sorted reaches)
        and whether it is at long range, so the best over every band that distance can fall
        in is at least the shot from the end.
        """
        reaches = _facts(us.unit)[2]
        reach = max(reaches, default=0)
        if reach <= 0:
            return 0.0
        best = 0.0
        enemies = view.enemies(us.side)
        for e, g in zip(enemies.units, enemies.gaps(here), strict=True):
            lo = max(0.0, g - allowance - 1e-6)
            hi = min(float(reach), g + allowance + 1e-6)
            if lo > reach:
                continue
            fars = {lo > LONG_RANGE, hi > LONG_RANGE}
            for idx in range(bisect_left(reaches, lo), bisect_left(reaches, hi) + 1):
                if idx >= len(reaches):
                    continue
                below = reaches[idx - 1] if idx else -math.inf  # the band is (below, top]
                top = float(reaches[idx])
                for far in fars:
                    if far == (top > LONG_RANGE):
                        d = top
                    elif not far and below < LONG_RANGE:
                        d = float(LONG_RANGE)
                    else:
                        continue  # no distance in this band is (or is not) at long range
                    key = (us.uid, e.uid, idx, far)
                    value = view.shots.get(key)
                    if value is None:
                        value = view.shots[key] = expected_damage(
                            us, e, melee=False, distance=d, charging=False
                        )
                    best = max(best, value)
        return best

    def _worth(
        self, state: GameState, view: _View, us: UnitState, contested: UnitState | None
    ) -> list[tuple[Point, float]]:
        """Each marker and what being on it is worth to ``us`` (60 points times its need)."""
        other = "" if contested is None else contested.uid
        worth = view.worth.get((us.uid, other))
        if worth is None:
            worth = view.worth[(us.uid, other)] = [
                (o.position, self._need(state, us, i, o.controller, contested) * OBJECTIVE_VALUE)
                for i, o in enumerate(state.objectives)
            ]
        return worth

    def _hold_bound(self, state: GameState, a: Action) -> float:
        """At least Hold's score: the best shot at any enemy in range, seen or not."""
        us = state.units[a.unit]
        here = self._read(state).centroid(us)
        return (
            self._position_value(state, us, here)
            + self._best_shot_from(state, us, here)
            + self._projected(state, us, here)
        )

    def _objective(self, state: GameState, actions: Sequence[Action]) -> Action:
        home = 0.0 if state.active == 0 else state.table.depth
        mid = state.table.width / 2

        def key(a: Action) -> float:
            assert a.to is not None
            return abs(a.to[1] - home) + 0.5 * abs(a.to[0] - mid)

        return min(actions, key=key)

    def _deploy(self, state: GameState, actions: Sequence[Action]) -> Action:
        home = 0.0 if state.active == 0 else state.table.depth
        targets = [o.position for o in state.objectives] or [(state.table.width / 2, home)]

        def key(a: Action) -> float:
            assert a.to is not None
            us = state.units[a.unit]
            depth = abs(a.to[1] - home)
            forward = depth if _role(us.unit) is Role.SHOOTING else -depth
            near = min(abs(a.to[0] - t[0]) for t in targets)
            return forward + 0.3 * near

        return min(actions, key=key)

    # --- scoring activations -----------------------------------------------------------

    def score(self, state: GameState, a: Action) -> float:
        """What an activation is worth: expected points removed plus the position it leaves."""
        view = self._read(state)
        us = state.units[a.unit]
        if a.kind is Kind.IDLE:
            if state.system != "riverside":
                return 0.0  # GFF: a Shaken unit's only action
            # Riverside: Idle is open to every unit; it is worth taking to remove Shaken.
            if not us.shaken or us.placement is None:
                return -1.0
            return self._position_value(state, us, view.centroid(us)) + 1.0
        assert us.placement is not None
        here = view.centroid(us)
        if a.kind is Kind.HOLD:
            targets = view.targets.get(us.uid)
            if targets is None:
                targets = view.targets[us.uid] = _targets(state, us)
            return (
                self._position_value(state, us, here)
                + self._best_shot_from(state, us, here, targets)
                + self._projected(state, us, here)
            )
        if a.kind is Kind.CHARGE:
            target = state.units[a.target]
            assert target.placement is not None
            end = _step_toward(here, view.centroid(target), _allowance(state, us.unit, a.kind))
            value = self._charge_value(state, us, target) + self._projected(state, us, end)
            return value + (self._benny(state, us, value) if a.benny else 0.0)
        assert a.to is not None
        allowance = _allowance(state, us.unit, a.kind)
        end = _step_toward(here, a.to, allowance)
        value = self._position_value(state, us, end) + self._projected(state, us, end)
        if a.kind is Kind.ADVANCE:
            value += 0.9 * self._best_shot_from(state, us, end)
        elif _role(us.unit) is Role.SHOOTING:
            value -= 5.0
        return value

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
            value += expected_damage(
                us, t, melee=False, distance=d, charging=False, only=names,
                skip=frozenset(a.split), system=state.system,
            )  # fmt: skip
        return value + (self._benny(state, us, value) if a.benny else 0.0)

    def _benny(self, state: GameState, us: UnitState, value: float) -> float:
        """A benny is worth spending on an attack when one is left over for each round to
        come (so all are used by the end); the extra attack adds a little to its value."""
        spare = bennies_available(state, us.side) > state.rounds - state.round
        return 0.05 * max(0.0, value) + 0.5 if spare else -1.0

    def _consolidate_value(self, state: GameState, a: Action) -> float:
        us = state.units[a.unit]
        assert us.placement is not None
        here = self._read(state).centroid(us)
        end = here if a.to is None else _step_toward(here, a.to, CONSOLIDATE_INCHES)
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
                assert us.placement is not None
                alive = us.placement.alive
                centres, radii = us.placement.centres[alive], us.placement.radii[alive]
                dx, dy = end[0] - here[0], end[1] - here[1]
                xs, ys = centres[:, 0] + dx, centres[:, 1] + dy
                ox = np.array([m[0] for m in maybe], dtype=np.float64)[:, None]
                oy = np.array([m[1] for m in maybe], dtype=np.float64)[:, None]
                d = np.hypot(xs[None, :] - ox, ys[None, :] - oy)
                close = ((d - radii[None, :]).min(axis=1) <= OBJECTIVE_RANGE).tolist()
                total += sum(m[2] for m, ours in zip(maybe, close, strict=True) if ours)
        value = PROJECTION_VALUE * (0.5 + state.round / (2 * state.rounds)) * total
        view.projected[key] = value
        return value

    def _swing(
        self, state: GameState, view: _View, us: UnitState
    ) -> tuple[int, list[tuple[float, float, int]]]:
        """Markers held (ours minus theirs) with ``us`` near none, and for each marker where
        standing near it changes that count, its position and the change (Mission 4-6)."""
        found = view.swings.get(us.uid)
        if found is None:
            base = 0
            swing: list[tuple[float, float, int]] = []
            for o, sides in zip(state.objectives, self._sides_near(state, us), strict=True):
                away = _held(o.controller, sides, us.side)
                there = _held(o.controller, sides | {us.side}, us.side)
                base += away
                if there != away:
                    swing.append((o.position[0], o.position[1], there - away))
            found = view.swings[us.uid] = (base, swing)
        return found

    def _sides_near(self, state: GameState, us: UnitState) -> list[set[int]]:
        near = self._read(state).near_objectives()
        out: list[set[int]] = [set() for _ in state.objectives]
        for other in state.units.values():
            if other is us or not other.on_table or other.shaken:
                continue
            if other.arrived == state.round or other.placement is None:
                continue
            for sides, close in zip(out, near[other.uid], strict=True):
                if close:
                    sides.add(other.side)
        return out

    def _best_shot_from(
        self,
        state: GameState,
        us: UnitState,
        at: Point,
        targets: list[str] | None = None,
    ) -> float:
        """The best expected shot from ``at`` (``targets``: the ones in sight, if known)."""
        best = 0.0
        reaches = _facts(us.unit)[2]
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
                key = (us.uid, e.uid, bisect_left(reaches, d), d > LONG_RANGE)
                value = view.shots.get(key)
                if value is None:
                    value = view.shots[key] = expected_damage(
                        us, e, melee=False, distance=d, charging=False, system=state.system
                    )
                best = max(best, value)
        return best

    def _melee_damage(
        self, view: _View, attacker: UnitState, target: UnitState, *, charging: bool
    ) -> float:
        key = (attacker.uid, target.uid, charging)
        value = view.melee.get(key)
        if value is None:
            value = view.melee[key] = expected_damage(
                attacker, target, melee=True, distance=0.0, charging=charging,
                system=view.state.system,
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
            back = 0.6 * self._melee_damage(view, target, us, charging=False)
        bonus = 10.0 if _role(us.unit) is Role.MELEE else 0.0
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
        worth = self._worth(state, view, us, contested)
        gains = []
        for position, full in worth:
            beyond = math.dist(at, position) - OBJECTIVE_RANGE + 0.5  # half an inch inside
            gains.append(full / (1.0 + (beyond if beyond > 0.0 else 0.0) / 4.0))
        gains.sort(reverse=True)
        value = sum(g * (1.0 if i == 0 else 0.25) for i, g in enumerate(gains))
        kind = _role(us.unit)
        if kind is Role.SHOOTING:
            threats = view.threats.get(us.side)
            enemies = view.enemies(us.side)
            if threats is None:
                threats = view.threats[us.side] = [
                    (k, e, _allowance(state, e.unit, Kind.CHARGE) + 1.0)
                    for k, e in enumerate(enemies.units)
                    if _role(e.unit) is not Role.SHOOTING
                    and e.placement is not None
                    and not e.shaken
                ]
            if threats:
                gaps = enemies.gaps(at)
                for k, e, reach in threats:
                    if gaps[k] < reach:
                        value -= 0.5 * self._melee_damage(view, e, us, charging=True)
        elif kind is Role.MELEE:
            dists = view.enemies(us.side).gaps(at)
            if dists:
                value += 15.0 / (1.0 + min(dists) / 6.0)
        view.positions[memo] = value
        return value

    def _need(
        self,
        state: GameState,
        us: UnitState,
        objective: int,
        controller: int | None,
        contested: UnitState | None,
    ) -> float:
        view = self._read(state)
        enemies = view.enemies(us.side)
        gaps = enemies.gaps(state.objectives[objective].position)
        enemy_near = any(
            e is not contested
            and not e.shaken
            and e.placement is not None
            and d <= _allowance(state, e.unit, Kind.RUSH) + 3.0
            for e, d in zip(enemies.units, gaps, strict=True)
        )
        need = 1.0 if controller != us.side else (0.7 if enemy_near else 0.15)
        near = view.near_objectives()
        guarded = any(
            f is not us and not f.shaken and f.placement is not None and near[f.uid][objective]
            for f in view.side_friends(us.side)
        )
        return need * (0.35 if guarded else 1.0)


def _allowance(state: GameState, unit: Unit, kind: Kind) -> float:
    """How far ``unit`` moves with ``kind`` under the game's own text."""
    return state.rules.move_allowance(unit, kind)


def _targets(state: GameState, us: UnitState) -> list[str]:
    """Who ``us`` may shoot now, by the game's own range and line-of-sight rules (Riverside
    traces its sampled sight lines, GFF one centre line)."""
    return state.rules.shooting_targets(state, us)


def _held(controller: int | None, near: set[int], side: int) -> int:
    """1 if ``side`` would hold a marker (the sides ``near`` it seize or contest it), -1 if the
    other side would, else 0."""
    ctrl = controller if not near else (next(iter(near)) if len(near) == 1 else None)
    return (ctrl == side) - (ctrl == 1 - side)


def _step_toward(start: Point, goal: Point, allowance: float) -> Point:
    d = math.dist(start, goal)
    if d <= allowance or d == 0:
        return goal
    f = allowance / d
    return (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)


def _tiebreak(a: Action) -> tuple[int, ...]:
    return (-ord(a.kind.value[0]),)


COMMANDERS["rules"] = RulesCommander
