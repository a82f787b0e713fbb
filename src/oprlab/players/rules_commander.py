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

from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import OBJECTIVE_RANGE, move_allowance
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import get_mechanic
from oprlab.players.base import COMMANDERS
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import attack_profile, defender_profile
from oprlab.units.model import Unit, Weapon

D6 = get_mechanic("d6")
#: How much one objective is worth, in points of enemy removed.
OBJECTIVE_VALUE = 60.0


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
    attacker: UnitState, target: UnitState, *, melee: bool, distance: float, charging: bool
) -> float:
    """Expected points of ``target`` removed by one attack of ``attacker`` (d6 exact odds)."""
    weapons = tuple(
        w
        for w in attacker.unit.weapons
        if (w.melee if melee else (not w.melee and (w.range or 0) >= distance))
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
    share = models / max(1, unit.size)
    profiles = []
    for w in weapons:
        p = attack_profile(unit, w)
        profiles.append(replace(p, dice=max(1, round(p.dice * share))))
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

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        kind = actions[0].kind
        if kind is Kind.PLACE_OBJECTIVE:
            return self._objective(state, actions)
        if kind is Kind.DEPLOY:
            return self._deploy(state, actions)
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
        us = state.units[a.unit]
        if a.kind is Kind.IDLE:
            return 0.0
        assert us.placement is not None
        if a.kind is Kind.HOLD:
            if not a.target:
                return self._position_value(state, us, geo.centroid(us.placement)) - 1.0
            return self._shot_value(state, us, a.target) + self._position_value(
                state, us, geo.centroid(us.placement)
            )
        if a.kind is Kind.CHARGE:
            return self._charge_value(state, us, state.units[a.target])
        assert a.to is not None
        allowance = move_allowance(us.unit, a.kind)
        end = _step_toward(geo.centroid(us.placement), a.to, allowance)
        value = self._position_value(state, us, end)
        if a.kind is Kind.ADVANCE and role(us.unit) is not Role.MELEE:
            value += 0.8 * self._best_shot_from(state, us, end)
        if a.kind is Kind.RUSH and role(us.unit) is Role.SHOOTING:
            value -= 5.0
        return value

    def _shot_value(self, state: GameState, us: UnitState, target_uid: str) -> float:
        target = state.units[target_uid]
        assert us.placement is not None and target.placement is not None
        d = geo.gap(us.placement, target.placement)
        return expected_damage(us, target, melee=False, distance=d, charging=False)

    def _best_shot_from(self, state: GameState, us: UnitState, at: tuple[float, float]) -> float:
        best = 0.0
        reach = max((w.range or 0 for w in us.unit.weapons if not w.melee), default=0)
        for e in state.enemies(us.side):
            assert e.placement is not None
            d = geo.point_gap(e.placement, at)
            if d <= reach:
                best = max(best, expected_damage(us, e, melee=False, distance=d, charging=False))
        return best

    def _charge_value(self, state: GameState, us: UnitState, target: UnitState) -> float:
        dealt = expected_damage(us, target, melee=True, distance=0.0, charging=True)
        back = 0.0
        if target.models > 0:
            back = 0.6 * expected_damage(target, us, melee=True, distance=0.0, charging=False)
        bonus = 15.0 if role(us.unit) is Role.MELEE else 0.0
        on_obj = any(
            target.placement is not None
            and geo.within(target.placement, o.position, OBJECTIVE_RANGE)
            for o in state.objectives
        )
        return dealt - back + bonus + (20.0 if on_obj else 0.0)

    def _position_value(self, state: GameState, us: UnitState, at: tuple[float, float]) -> float:
        """Objectives: being close to ones not yet ours; danger: enemy melee within reach."""
        value = 0.0
        for o in state.objectives:
            d = math.dist(at, o.position)
            weight = 0.4 if o.controller == us.side else 1.0
            value += weight * OBJECTIVE_VALUE / (1.0 + max(0.0, d - OBJECTIVE_RANGE))
        if role(us.unit) is Role.SHOOTING:
            for e in state.enemies(us.side):
                if role(e.unit) is Role.SHOOTING or e.placement is None:
                    continue
                reach = move_allowance(e.unit, Kind.CHARGE) + 1.0
                if geo.point_gap(e.placement, at) < reach:
                    value -= 0.5 * expected_damage(e, us, melee=True, distance=0.0, charging=True)
        elif role(us.unit) is Role.MELEE:
            # Fighters want to close with the enemy.
            dists = [
                geo.point_gap(e.placement, at)
                for e in state.enemies(us.side)
                if e.placement is not None
            ]
            if dists:
                value += 20.0 / (1.0 + min(dists) / 6.0)
        return value


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
