"""The float fast path of :mod:`~oprlab.rules.gff.exact`: the same odds, with numpy.

Each die's exact chain (:func:`~oprlab.rules.gff.exact.die_result`) is computed once per weapon,
situation and target and cached; the dice are then summed by numpy convolution and the
casualties found by a small dynamic programme over (models killed, markers on the last model).
Results equal the Fraction path to float precision (tested), in well under a millisecond.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from oprlab.mechanics import Mechanic
from oprlab.prob import Dist
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.exact import DieResult, die_result, take_wounds_from
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, wound_effect_check

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class AttackOddsArrays:
    """Float distributions indexed by count (``hits[k]`` = P(k hits))."""

    hits: Array
    wounds: Array
    casualties: Array
    p_destroyed: float
    p_shaken: float


@dataclass(frozen=True)
class _Die:
    hits: Array
    wounds: Array
    ordinary: Array
    packets: tuple[tuple[tuple[int, ...], float], ...]


_MECHANICS: dict[str, Mechanic] = {}


def _pmf(d: Dist[int]) -> Array:
    out = np.zeros(max(d.support) + 1)
    for k, p in d.items():
        out[k] += float(p)
    return out


def _canonical(
    p: AttackProfile, s: Situation, d: DefenderProfile
) -> tuple[Situation, DefenderProfile]:
    """Drop what one die's chain cannot depend on, so the cache hits across a game.

    A die's chain reads the distance only against the 9" thresholds, the target's size only
    for Blast, and never the target's markers or Shaken (those act after the dice are summed).
    """
    far = s.distance > LONG_RANGE
    s2 = replace(s, distance=LONG_RANGE + 1.0 if far else 0.0)
    models = min(d.blast_models, p.blast) if p.blast > 1 else 1
    d2 = replace(d, models=models, markers=0, shaken=False, near=None)
    return s2, d2


def _die(p: AttackProfile, s: Situation, d: DefenderProfile, mech_key: str) -> _Die:
    s2, d2 = _canonical(p, s, d)
    return _die_cached(p, s2, d2, mech_key)


@lru_cache(maxsize=4096)
def _die_cached(p: AttackProfile, s: Situation, d: DefenderProfile, mech_key: str) -> _Die:
    dist: Dist[DieResult] = die_result(p, s, d, _MECHANICS[mech_key])
    packets = dist.map(lambda r: r[2])
    return _Die(
        hits=_pmf(dist.map(lambda r: r[0])),
        wounds=_pmf(dist.map(lambda r: r[1] + sum(r[2]))),
        ordinary=_pmf(dist.map(lambda r: r[1])),
        packets=tuple((pk, float(pr)) for pk, pr in packets.items()),
    )


def power(pmf: Array, n: int) -> Array:
    """The pmf of the sum of ``n`` independent copies (repeated squaring)."""
    result = np.ones(1)
    base = pmf
    while n:
        if n & 1:
            result = np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return result


def _add(a: Array, b: Array) -> Array:
    return np.convolve(a, b)


@lru_cache(maxsize=4096)
def _p_knocked_out(d: DefenderProfile, damage: Damage, s: Situation, fear: int, key: str) -> float:
    effect = _MECHANICS[key].outcomes(wound_effect_check(d, damage, s.defender, fear))
    return float(effect.probability(lambda o: not o.success))


def attack_odds_fast(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
) -> AttackOddsArrays:
    """Float odds of one unit's attack; the same rules as :func:`~.exact.attack_odds`."""
    key = repr(mech)
    _MECHANICS.setdefault(key, mech)
    spare = max(0, d.models - 1)
    hits = np.ones(1)
    wounds = np.ones(1)
    ordinary = np.ones(1)
    # Deadly packets: a dict (killed, markers) -> probability; small in practice.
    state: dict[tuple[int, int], float] = {(0, 0): 1.0}
    for p in sorted(weapons, key=lambda w: w.deadly == 1):
        if p.dice <= 0:
            continue
        die = _die(p, s, d, key)
        hits = _add(hits, power(die.hits, p.dice))
        wounds = _add(wounds, power(die.wounds, p.dice))
        if p.deadly > 1:
            for _ in range(p.dice):
                nxt: dict[tuple[int, int], float] = {}
                for km, pr in state.items():
                    for pk, q in die.packets:
                        k2 = take_wounds_from(km, pk, spare)
                        nxt[k2] = nxt.get(k2, 0.0) + pr * q
                state = nxt
        else:
            ordinary = _add(ordinary, power(die.ordinary, p.dice))
    fear_now = fear if s.melee else 0
    top = d.models
    casualties = np.zeros(top + 1)
    p_destroyed = p_shaken = 0.0
    for (killed, markers), pr in state.items():
        for w in np.flatnonzero(ordinary):
            q = pr * ordinary[w]
            extra = min(int(w), spare - killed)
            damage = Damage(killed + extra, markers + int(w) - extra)
            if rolls_wound_effect(d, damage, fear_now):
                ko = _p_knocked_out(d, damage, s, fear_now, key)
                casualties[damage.killed + 1] += q * ko
                casualties[damage.killed] += q * (1 - ko)
                p_destroyed += q * ko
                p_shaken += q * (1 - ko)
            else:
                casualties[damage.killed] += q
                p_destroyed += q if damage.killed >= d.models else 0.0
    return AttackOddsArrays(hits, wounds, casualties, p_destroyed, p_shaken)
