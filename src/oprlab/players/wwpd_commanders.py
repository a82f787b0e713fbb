"""Computer commanders for WWPD games: a seeded random baseline and a simple rules-based one.

The rules-based commander decides for one unit at a time (the first in canonical order) by a few
habits a player would use: deploy shooters back and fighters forward, opposite the markers;
move toward markers the side does not hold (fighters toward the nearest enemy in reach), and
stand still to shoot without the moving penalty when a target is in range (``rules``: for the
fire that keeps, and markers worth more in the last round: ``WwpdStyle``);
fire at the target where the exact odds remove the most (models weighted by Toughness, Armor
and vehicles); cower in the Firefight when that saves more than the unit's own fire would take;
charge when the expected losses dealt outweigh those taken.

Both satisfy :class:`oprlab.game.play.Commander`; :func:`oprlab.players.get_commander` finds
them for any system whose ``commander_family`` is ``"wwpd"``. May import ``oprlab.game`` and below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from oprlab.game import geometry as geo
from oprlab.game.wwpd import (
    OBJECTIVE_RANGE,
    Kind,
    WwpdAction,
    WwpdState,
    WwpdUnitState,
    home_edge,
    shooting_attack_of,
)
from oprlab.players.base import FAMILIES
from oprlab.rng import SeedLike, own_generator
from oprlab.rules.wwpd import exact, fast
from oprlab.rules.wwpd.attack import Attack, Kit, melee_attack
from oprlab.rules.wwpd.targets import FIREFIGHT_RANGE, Phase

__all__ = ["RandomWwpdCommander", "RulesWwpdCommander", "WwpdStyle"]


def worth(k: Kit) -> float:
    """How much losing a model hurts: 1, plus its Toughness and Armor, plus 3 for a vehicle."""
    p = k.profile
    return 1.0 + p.toughness + p.armor + (3.0 if p.vehicle else 0.0)


def expected_worth(attack: Attack, target: WwpdUnitState, *, exact_odds: bool = True) -> float:
    """The expected worth of ``target``'s models that ``attack`` removes: from the exact odds,
    or (``exact_odds=False``) from their float twin, equal to float precision and a fraction
    of the cost."""
    if not attack.volleys:
        return 0.0
    if not exact_odds:
        chances = fast.removal_chances(attack)
        return sum(worth(k) * p for k, p in zip(target.kits, chances, strict=True))
    per_model = exact.removal_chances(attack)
    return float(
        sum(
            (Fraction(worth(k)) * p for k, p in zip(target.kits, per_model, strict=True)),
            Fraction(0),
        )
    )


def is_shooter(us: WwpdUnitState) -> bool:
    """Shooting dice at least 1.5 times the melee dice."""
    ranged = sum(w.rate_of_fire or 0 for k in us.kits for w in k.ranged)
    melee = sum(k.profile.melee_attacks for k in us.kits)
    return ranged >= 1.5 * melee


class RandomWwpdCommander:
    """Uniform over legal actions, from its own seeded generator (so games replay)."""

    name = "random"

    def __init__(self, seed: SeedLike = 0) -> None:
        self.rng = own_generator(seed)

    def choose(self, state: WwpdState, actions: Sequence[WwpdAction]) -> WwpdAction:
        return actions[int(self.rng.integers(len(actions)))]


@dataclass(frozen=True)
class WwpdStyle:
    """Issue 14's habit fixes for the WWPD rules commander (``rules`` has them, ``rules-v1``,
    which plays the games it always played, has none)."""

    name: str = "rules"
    #: Standing still to shoot is worth the fire it keeps (the exact odds of the shot without
    #: and with the -1 for moving), not a flat 1.5 whenever an enemy is in reach: a long-ranged
    #: shooter (the walker, always in reach of someone) no longer stands in its corner.
    leave_corner: bool = True
    #: In the last round markers decide the game: a marker the unit reaches this move is worth
    #: :data:`LAST_ROUND_WEIGHT` times as much (a push onto markers, not one more volley).
    last_round_push: bool = True


#: The last round's markers, against the others (``WwpdStyle.last_round_push``).
LAST_ROUND_WEIGHT = 3.0
#: How near the best float value an action must come to be worked out again with the exact
#: odds: far above the float odds' round-off (about 1e-15 of a value of a few models' worth).
NEAR_TIE = 1e-7
RULES = WwpdStyle()
V1 = WwpdStyle(name="rules-v1", leave_corner=False, last_round_push=False)


class RulesWwpdCommander:
    """Greedy, one unit at a time, with exact attack odds for shooting and charges."""

    name = "rules"

    def __init__(self, seed: SeedLike = 0, style: WwpdStyle = RULES) -> None:
        self.seed = seed
        self.style = style
        self.name = style.name
        #: Whether the values being worked out use the exact odds (:meth:`_best`).
        self._exact = False

    def choose(self, state: WwpdState, actions: Sequence[WwpdAction]) -> WwpdAction:
        unit = actions[0].unit
        mine = [a for a in actions if a.unit == unit]
        us = state.units[unit]
        kind = mine[0].kind
        if kind is Kind.DEPLOY:
            return min(mine, key=lambda a: self._deploy_key(state, us, a))
        if state.phase == Phase.MOVEMENT.value:
            needs = self._marker_needs(state, us)  # the same for every move weighed
            return self._best(mine, lambda a: self._move_value(state, us, a, needs))
        if state.phase in (Phase.SHOOTING.value, Phase.FIREFIGHT.value):
            return self._best(mine, lambda a: self._fire_value(state, us, a))
        return self._best(mine, lambda a: self._charge_value(state, us, a))

    def _best(self, mine: Sequence[WwpdAction], value: Callable[[WwpdAction], float]) -> WwpdAction:
        """The first action of greatest value as the exact odds give it (issue 13): every value
        is worked out with the float odds, and only the actions within :data:`NEAR_TIE` of the
        best again with the exact ones (two targets alike tie exactly, which float round-off
        would break at random), so the choice is the one ``max`` over exact values makes."""
        values = [value(a) for a in mine]
        top = max(values)
        near = [a for a, v in zip(mine, values, strict=True) if v >= top - NEAR_TIE]
        if len(near) == 1:
            return near[0]
        self._exact = True
        try:
            return max(near, key=value)
        finally:
            self._exact = False

    def _worth(self, attack: Attack, target: WwpdUnitState) -> float:
        return expected_worth(attack, target, exact_odds=self._exact)

    # --- deployment and movement -------------------------------------------------------

    def _deploy_key(self, state: WwpdState, us: WwpdUnitState, a: WwpdAction) -> float:
        assert a.to is not None
        depth = abs(a.to[1] - home_edge(state, us.side))
        forward = depth if is_shooter(us) else -depth
        near = min((abs(a.to[0] - m.position[0]) for m in state.markers), default=0.0)
        return forward + 0.3 * near

    def _move_value(
        self,
        state: WwpdState,
        us: WwpdUnitState,
        a: WwpdAction,
        needs: list[tuple[tuple[float, float], float]] | None = None,
    ) -> float:
        assert us.placement is not None
        here = geo.centroid(us.placement)
        end = here if a.to is None else _step_toward(here, a.to, state.options.move)
        value = self._marker_value(state, us, end, needs)
        enemies = [e for e in state.enemies(us.side) if e.placement is not None]
        dists = [math.dist(end, geo.centroid(e.placement)) for e in enemies if e.placement]
        if is_shooter(us):
            if self.style.leave_corner:
                if a.kind is Kind.HOLD:
                    value += self._standing_fire(state, us)  # the fire the -1 would cost
            elif a.kind is Kind.HOLD and shooting_reach(us) >= min(
                (geo.gap(us.placement, e.placement) for e in enemies if e.placement), default=1e9
            ):
                value += 1.5  # stand and shoot without the -1 for moving
            reach = state.options.move + state.options.charge + 1.0
            value -= sum(
                2.0 for e, d in zip(enemies, dists, strict=True) if not is_shooter(e) and d < reach
            )
        elif dists:
            value += 6.0 / (1.0 + min(dists) / 6.0)
        return value

    def _marker_needs(
        self, state: WwpdState, us: WwpdUnitState
    ) -> list[tuple[tuple[float, float], float]]:
        """Each marker's position and how much ``us`` is needed on it: less when its side
        holds it, less again when a friend stands within 3" (what :meth:`_marker_value` reads
        of the state, worked out once for all the moves of a decision)."""
        out = []
        for m in state.markers:
            need = 1.0 if m.controller != us.side else 0.3
            guarded = any(
                f is not us
                and f.placement is not None
                and geo.within(f.placement, m.position, OBJECTIVE_RANGE)
                for f in state.friends(us.side)
            )
            if guarded:
                need *= 0.3
            out.append((m.position, need))
        return out

    def _marker_value(
        self,
        state: WwpdState,
        us: WwpdUnitState,
        at: tuple[float, float],
        needs: list[tuple[tuple[float, float], float]] | None = None,
    ) -> float:
        gains = []
        for position, need in self._marker_needs(state, us) if needs is None else needs:
            beyond = max(0.0, math.dist(at, position) - OBJECTIVE_RANGE + 0.5)
            gain = need * 10.0 / (1.0 + beyond / 4.0)
            if self.style.last_round_push and state.round >= state.options.rounds:
                gain *= LAST_ROUND_WEIGHT
            gains.append(gain)
        gains.sort(reverse=True)
        return sum(g * (1.0 if i == 0 else 0.25) for i, g in enumerate(gains))

    def _standing_fire(self, state: WwpdState, us: WwpdUnitState) -> float:
        """What standing still keeps of the unit's best shot: its expected worth removed now
        less the same shot after moving (seed 004: -1 to hit for small arms that moved), by
        the exact odds."""
        best = 0.0
        for e in state.enemies(us.side):
            if e.placement is None or us.placement is None:
                continue
            if geo.gap(us.placement, e.placement) > shooting_reach(us):
                continue
            still = shooting_attack_of(state, replace(us, moved=False), e)
            moving = shooting_attack_of(state, replace(us, moved=True), e)
            best = max(best, self._worth(still, e) - self._worth(moving, e))
        return best

    # --- fire, cower, charge -----------------------------------------------------------

    def _fire_value(self, state: WwpdState, us: WwpdUnitState, a: WwpdAction) -> float:
        if a.kind is Kind.SHOOT:
            return self._worth(
                shooting_attack_of(state, us, state.units[a.target]), state.units[a.target]
            )
        if a.kind is Kind.COWER:
            saved = 0.0
            for e in state.enemies(us.side):
                if e.decided:
                    if (e.uid, us.uid) not in state.declared:
                        continue  # already fired elsewhere, cowered or held
                elif us.uid not in _firefight_targets(state, e):
                    continue
                attack = shooting_attack_of(state, e, us, Phase.FIREFIGHT)
                hiding = replace(
                    attack, conditions=replace(attack.conditions, target_cowering=True)
                )
                saved += self._worth(attack, us) - self._worth(hiding, us)
            return saved
        return 0.0

    def _charge_value(self, state: WwpdState, us: WwpdUnitState, a: WwpdAction) -> float:
        if a.kind is not Kind.CHARGE:
            return 0.0
        t = state.units[a.target]
        dealt = melee_attack(us.unit, t.unit, attacker_alive=us.alive, target_alive=t.alive)
        taken = melee_attack(t.unit, us.unit, attacker_alive=t.alive, target_alive=us.alive)
        value = self._worth(dealt, t) - 0.8 * self._worth(taken, us)
        return value + (0.5 if not is_shooter(us) else -0.5)


def shooting_reach(us: WwpdUnitState) -> float:
    return float(max((w.range or 0 for k in us.kits for w in k.ranged), default=0))


def _firefight_targets(state: WwpdState, e: WwpdUnitState) -> list[str]:
    """Units ``e`` could fire at in a Firefight (within 12" and in range)."""
    if e.placement is None:
        return []
    return [
        t.uid
        for t in state.enemies(e.side)
        if t.placement is not None
        and geo.gap(e.placement, t.placement) <= min(FIREFIGHT_RANGE, shooting_reach(e))
    ]


def _step_toward(
    start: tuple[float, float], goal: tuple[float, float], allowance: float
) -> tuple[float, float]:
    d = math.dist(start, goal)
    if d <= allowance or d == 0:
        return goal
    f = allowance / d
    return (start[0] + (goal[0] - start[0]) * f, start[1] + (goal[1] - start[1]) * f)


FAMILIES["wwpd"] |= {
    "random": RandomWwpdCommander,
    "rules": RulesWwpdCommander,
    "rules-v1": lambda seed: RulesWwpdCommander(seed, V1),
}
