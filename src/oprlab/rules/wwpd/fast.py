"""Each target model's chance of removal in floats: :func:`~oprlab.rules.wwpd.exact.removal_chances`
for a commander weighing targets (issue 13).

The same sum as the exact module's, over the same joint hit counts with the same allocation,
in floats instead of :class:`~fractions.Fraction`: a third of a WWPD game between rules
commanders went on Fraction arithmetic for numbers the commander turned into floats at once.
Equal to the exact chances to float precision (tested against them); the rules needing
exactness (the odds a player asks for, the tests) keep :mod:`~oprlab.rules.wwpd.exact`.

May import ``oprlab.mechanics``, ``oprlab.units`` and ``oprlab.rules.wwpd``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from oprlab.mechanics.wwpd import p_success
from oprlab.rules.wwpd.attack import Attack, Volley, allocate, save_target
from oprlab.rules.wwpd.exact import hit_removes
from oprlab.units.profiles import WwpdModel

__all__ = ["removal_chances"]


@lru_cache(maxsize=1024)
def _binomial(n: int, p: float) -> tuple[float, ...]:
    """P(k successes of n), k = 0..n, in floats."""
    pmf = [1.0]
    q = 1.0 - p
    for _ in range(n):
        nxt = [0.0] * (len(pmf) + 1)
        for k, w in enumerate(pmf):
            nxt[k] += w * q
            nxt[k + 1] += w * p
        pmf = nxt
    return tuple(pmf)


@lru_cache(maxsize=4096)
def removal_chances(attack: Attack) -> tuple[float, ...]:
    """Each target model's chance of being removed by ``attack`` (index order), in floats.

    Summed over every joint hit count of the volleys: its chance times, per model, one less
    the chance that each hit allocated to it fails to remove it (hits on a model are
    independent to-wound-then-save chains, seed 004 "To Wound", "Cover and Defensive Saves").
    """
    n = len(attack.targets)
    per_model = [0.0] * n
    volleys = attack.volleys
    if not volleys:
        return tuple(per_model)
    fails = [
        [_fails(v, model, save_target(attack, v, i)) for i, model in enumerate(attack.targets)]
        for v in volleys
    ]
    shape = (
        attack.alive,
        attack.order,
        tuple((v.eligible, v.first, v.singled_out) for v in volleys),
    )
    per_volley = [list(enumerate(_binomial(v.dice, float(p_success(v.to_hit))))) for v in volleys]
    survive_memo: dict[tuple[int, int, int], float] = {}
    for combo in itertools.product(*per_volley):
        weight = 1.0
        for _, p in combo:
            weight *= p
        if weight == 0.0:
            continue
        allocation = _allocate(attack, shape, tuple(h for h, _ in combo))
        for i in range(n):
            survive = 1.0
            for v, per_model_hits in enumerate(allocation):
                k = per_model_hits[i]
                if k:
                    key = (v, i, k)
                    s = survive_memo.get(key)
                    if s is None:
                        s = survive_memo[key] = fails[v][i] ** k
                    survive *= s
            per_model[i] += weight * (1.0 - survive)
    return tuple(per_model)


@lru_cache(maxsize=4096)
def _fails(volley: Volley, model: WwpdModel, save_x: int | None) -> float:
    """The chance one hit of ``volley`` fails to remove ``model`` (save ``save_x``)."""
    return 1.0 - float(hit_removes(volley, model, save_x))


#: Allocations by what they depend on (the models in play, the defender's order, each
#: volley's eligible, first and singled-out models) and the hits: attacks that differ only in
#: their dice or saves (a shot standing and moving, a target cowering or not, the same shot in
#: a later decision) allocate alike, and allocation was half of the float odds' cost.
_ALLOCATIONS: dict[tuple[object, tuple[int, ...]], tuple[tuple[int, ...], ...]] = {}
_ALLOCATIONS_SIZE = 1 << 16


def _allocate(attack: Attack, shape: object, hits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    key = (shape, hits)
    got = _ALLOCATIONS.get(key)
    if got is None:
        if len(_ALLOCATIONS) >= _ALLOCATIONS_SIZE:
            _ALLOCATIONS.clear()
        got = _ALLOCATIONS[key] = allocate(attack, hits)
    return got
