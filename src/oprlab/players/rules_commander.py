"""A rules-based commander that plays like a competent human, in the spirit of OPR's solo rules.

Each unit is classed as melee, shooting or hybrid from what it can do. On its turn the commander
scores every legal action of every unit and takes the best: shooting is worth the expected
points it removes (exact odds of the attack), a charge is worth what it removes minus what the
strike back costs, a move is worth getting onto objectives the side does not hold yet, and
standing within an enemy's charge reach costs a shooting unit. Setup decisions follow simple
habits: objectives on its own half, shooters deployed back and fighters forward.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from functools import lru_cache

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import (
    CONSOLIDATE_INCHES,
    OBJECTIVE_RANGE,
    bennies_available,
    move_allowance,
    shooting_targets,
)
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import get_mechanic
from oprlab.players.base import COMMANDERS
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.melee import carried
from oprlab.rules.gff.profile import attack_profile, defender_profile
from oprlab.units.model import Unit, Weapon

D6 = get_mechanic("d6")
#: How much one objective is worth, in points of enemy removed.
OBJECTIVE_VALUE = 60.0
#: How much holding one more marker than now at the end of the round is worth (round 4).
PROJECTION_VALUE = 40.0


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
) -> float:
    """Expected points of ``target`` removed by one attack of ``attacker`` (d6 exact odds).

    ``only``: just these weapon types; ``skip``: not these (a split shot's two halves).
    """
    weapons = tuple(
        w
        for w in attacker.unit.weapons
        if (w.melee if melee else (not w.melee and (w.range or 0) >= distance))
        and (w.name in only if only is not None else w.name not in skip)
    )
    if not weapons or attacker.models <= 0 or target.models <= 0:
        return 0.0
    return _expected(
        attacker.unit,
        attacker.models,
        attacker.fatigued and melee,
        weapons,
        target.unit,
        target.models,
        target.markers,
        target.shaken,
        melee,
        charging,
        distance > LONG_RANGE,
    )


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
    profiles = []
    for w in weapons:
        p = attack_profile(unit, w)
        dice = carried(w.count, models, unit.size) * w.attacks
        if dice > 0:
            profiles.append(replace(p, dice=dice))
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


class RulesCommander:
    """Greedy, one activation at a time, with exact attack odds for its estimates."""

    name = "rules"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._needs: dict[tuple[str, int, str], float] = {}
        self._models: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._present: dict[str, list[set[int]]] = {}

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        self._needs = {}  # per decision: how much each marker needs each unit
        self._models = {}  # per decision: each unit's models left (centres, radii)
        self._present = {}  # per decision: sides near each marker, the acting unit left out
        kind = actions[0].kind
        if kind is Kind.PLACE_OBJECTIVE:
            return self._objective(state, actions)
        if kind is Kind.DEPLOY:
            return self._deploy(state, actions)
        if kind is Kind.SHOOT:
            return max(actions, key=lambda a: self._shoot_value(state, a))
        if kind is Kind.CONSOLIDATE:
            return max(actions, key=lambda a: self._consolidate_value(state, a))
        return max(actions, key=lambda a: (self.score(state, a), _tiebreak(a)))

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
            forward = depth if role(us.unit) is Role.SHOOTING else -depth
            near = min(abs(a.to[0] - t[0]) for t in targets)
            return forward + 0.3 * near

        return min(actions, key=key)

    # --- scoring activations -----------------------------------------------------------

    def score(self, state: GameState, a: Action) -> float:
        """What an activation is worth: expected points removed plus the position it leaves."""
        us = state.units[a.unit]
        if a.kind is Kind.IDLE:
            if state.system != "riverside":
                return 0.0  # GFF: a Shaken unit's only action
            # Riverside: Idle is open to every unit; it is worth taking to remove Shaken.
            if not us.shaken or us.placement is None:
                return -1.0
            return self._position_value(state, us, geo.centroid(us.placement)) + 1.0
        assert us.placement is not None
        here = geo.centroid(us.placement)
        if a.kind is Kind.HOLD:
            return (
                self._position_value(state, us, here)
                + self._best_shot_from(state, us, here, shooting_targets(state, us))
                + self._projected(state, us, here)
            )
        if a.kind is Kind.CHARGE:
            target = state.units[a.target]
            assert target.placement is not None
            end = _step_toward(
                here, geo.centroid(target.placement), move_allowance(us.unit, a.kind)
            )
            value = self._charge_value(state, us, target) + self._projected(state, us, end)
            return value + (self._benny(state, us, value) if a.benny else 0.0)
        assert a.to is not None
        allowance = move_allowance(us.unit, a.kind)
        end = _step_toward(here, a.to, allowance)
        value = self._position_value(state, us, end) + self._projected(state, us, end)
        if a.kind is Kind.ADVANCE:
            value += 0.9 * self._best_shot_from(state, us, end)
        elif role(us.unit) is Role.SHOOTING:
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
                us, t, melee=False, distance=d, charging=False, only=names, skip=frozenset(a.split)
            )
        return value + (self._benny(state, us, value) if a.benny else 0.0)

    def _benny(self, state: GameState, us: UnitState, value: float) -> float:
        """A benny is worth spending on an attack when one is left over for each round to
        come (so all are used by the end); the extra attack adds a little to its value."""
        spare = bennies_available(state, us.side) > state.rounds - state.round
        return 0.05 * max(0.0, value) + 0.5 if spare else -1.0

    def _consolidate_value(self, state: GameState, a: Action) -> float:
        us = state.units[a.unit]
        assert us.placement is not None
        here = geo.centroid(us.placement)
        end = here if a.to is None else _step_toward(here, a.to, CONSOLIDATE_INCHES)
        return self._position_value(state, us, end) + (0.01 if a.to is None else 0.0)

    def _projected(self, state: GameState, us: UnitState, end: tuple[float, float]) -> float:
        """Markers held (ours minus theirs) if the round ended with ``us`` at ``end``.

        Seed 003 "Mission" 4-6 applied to the table as it stands, the acting unit moved; weighted
        more as the game nears its end, when later moves can no longer undo it.
        """
        present = self._present.get(us.uid)
        if present is None:
            present = self._present[us.uid] = self._sides_near(state, us)
        assert us.placement is not None
        alive = us.placement.alive
        centres, radii = us.placement.centres[alive], us.placement.radii[alive]
        here = geo.centroid(us.placement)
        dx, dy = end[0] - here[0], end[1] - here[1]
        counts = not us.shaken and us.arrived != state.round
        total = 0
        for o, sides in zip(state.objectives, present, strict=True):
            near = set(sides)
            if counts:
                d = np.hypot(centres[:, 0] + dx - o.position[0], centres[:, 1] + dy - o.position[1])
                if float((d - radii).min()) <= OBJECTIVE_RANGE:
                    near.add(us.side)
            ctrl = o.controller if not near else (next(iter(near)) if len(near) == 1 else None)
            total += (ctrl == us.side) - (ctrl == 1 - us.side)
        return PROJECTION_VALUE * (0.5 + state.round / (2 * state.rounds)) * total

    def _sides_near(self, state: GameState, us: UnitState) -> list[set[int]]:
        out: list[set[int]] = []
        for o in state.objectives:
            sides = set()
            for other in state.units.values():
                if other is us or not other.on_table or other.shaken:
                    continue
                if other.arrived == state.round or other.placement is None:
                    continue
                if geo.within(other.placement, o.position, OBJECTIVE_RANGE):
                    sides.add(other.side)
            out.append(sides)
        return out

    def _gap(self, us: UnitState, at: tuple[float, float]) -> float:
        """:func:`geometry.point_gap`, with the unit's models read once per decision."""
        models = self._models.get(us.uid)
        if models is None:
            assert us.placement is not None
            alive = us.placement.alive
            models = self._models[us.uid] = (us.placement.centres[alive], us.placement.radii[alive])
        centres, radii = models
        d = np.hypot(centres[:, 0] - at[0], centres[:, 1] - at[1]) - radii
        return max(0.0, float(d.min()))

    def _best_shot_from(
        self,
        state: GameState,
        us: UnitState,
        at: tuple[float, float],
        targets: list[str] | None = None,
    ) -> float:
        """The best expected shot from ``at`` (``targets``: the ones in sight, if known)."""
        best = 0.0
        reach = max((w.range or 0 for w in us.unit.weapons if not w.melee), default=0)
        if reach <= 0:
            return 0.0
        for e in state.enemies(us.side):
            assert e.placement is not None
            if targets is not None and e.uid not in targets:
                continue
            d = self._gap(e, at)
            if d <= reach:
                best = max(best, expected_damage(us, e, melee=False, distance=d, charging=False))
        return best

    def _charge_value(self, state: GameState, us: UnitState, target: UnitState) -> float:
        """Points removed minus the strike back, and the place the charge leads to."""
        dealt = expected_damage(us, target, melee=True, distance=0.0, charging=True)
        back = 0.0
        if target.models > 0:
            back = 0.6 * expected_damage(target, us, melee=True, distance=0.0, charging=False)
        bonus = 10.0 if role(us.unit) is Role.MELEE else 0.0
        assert target.placement is not None
        at = geo.centroid(target.placement)
        return dealt - back + bonus + self._position_value(state, us, at, contested=target)

    def _position_value(
        self,
        state: GameState,
        us: UnitState,
        at: tuple[float, float],
        contested: UnitState | None = None,
    ) -> float:
        """Objectives: being near ones that need us; danger: enemy fighters within reach.

        A marker needs a unit less when the side holds it with no enemy close, or when another
        friendly unit already stands on it; ``contested`` (a unit being charged) no longer
        counts as an enemy there.
        """
        gains = []
        for i, o in enumerate(state.objectives):
            key = (us.uid, i, "" if contested is None else contested.uid)
            need = self._needs.get(key)
            if need is None:
                need = self._needs[key] = self._need(state, us, o.position, o.controller, contested)
            d = math.dist(at, o.position)
            beyond = max(0.0, d - OBJECTIVE_RANGE + 0.5)  # the centre, half an inch inside
            gains.append(need * OBJECTIVE_VALUE / (1.0 + beyond / 4.0))
        gains.sort(reverse=True)
        value = sum(g * (1.0 if i == 0 else 0.25) for i, g in enumerate(gains))
        if role(us.unit) is Role.SHOOTING:
            for e in state.enemies(us.side):
                if role(e.unit) is Role.SHOOTING or e.placement is None or e.shaken:
                    continue
                reach = move_allowance(e.unit, Kind.CHARGE) + 1.0
                if self._gap(e, at) < reach:
                    value -= 0.5 * expected_damage(e, us, melee=True, distance=0.0, charging=True)
        elif role(us.unit) is Role.MELEE:
            dists = [self._gap(e, at) for e in state.enemies(us.side) if e.placement is not None]
            if dists:
                value += 15.0 / (1.0 + min(dists) / 6.0)
        return value

    def _need(
        self,
        state: GameState,
        us: UnitState,
        at: tuple[float, float],
        controller: int | None,
        contested: UnitState | None,
    ) -> float:
        enemy_near = any(
            e is not contested
            and not e.shaken
            and e.placement is not None
            and self._gap(e, at) <= move_allowance(e.unit, Kind.RUSH) + 3.0
            for e in state.enemies(us.side)
        )
        need = 1.0 if controller != us.side else (0.7 if enemy_near else 0.15)
        guarded = any(
            f is not us
            and not f.shaken
            and f.placement is not None
            and geo.within(f.placement, at, OBJECTIVE_RANGE)
            for f in state.friends(us.side)
        )
        return need * (0.35 if guarded else 1.0)


def _step_toward(
    start: tuple[float, float], goal: tuple[float, float], allowance: float
) -> tuple[float, float]:
    d = math.dist(start, goal)
    if d <= allowance or d == 0:
        return goal
    f = allowance / d
    return (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)


def _tiebreak(a: Action) -> tuple[int, ...]:
    return (-ord(a.kind.value[0]),)


COMMANDERS["rules"] = RulesCommander
