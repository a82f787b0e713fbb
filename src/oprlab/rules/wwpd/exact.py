"""Exact odds of a WWPD attack with the WWPD dice (seed 004_b5c87f7769291d1c).

The same :class:`~oprlab.rules.wwpd.attack.Attack` that :func:`~oprlab.rules.wwpd.attack.resolve`
rolls is composed here exactly, with :class:`~fractions.Fraction` probabilities from the ``wwpd``
mechanic (rerolled extremes, the armoured-vehicle exception):

* each volley's hits are a binomial count of its to-hit checks;
* given every volley's hit count, allocation is fixed (hits are spread evenly, the defender's
  order breaking ties), so each model's hits are known;
* each hit on a model is a chain, to-wound then save, that removes the model with probability
  ``p_wound * (1 - p_save)``; a model survives only if every chain on it fails, and models are
  independent given their hits, so the count removed is a sum of independent Bernoullis.

Summing over the joint hit counts gives the exact distribution of models removed. The work is
the product of ``(dice + 1)`` over volleys, so attacks whose volleys differ only in name are
merged first (:func:`~oprlab.rules.wwpd.attack.merged`).

May import ``oprlab.prob``, ``oprlab.mechanics``, ``oprlab.units`` and ``oprlab.rules.wwpd``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from oprlab.mechanics.wwpd import p_success
from oprlab.prob import Dist, mean
from oprlab.rules.wwpd.attack import Attack, Volley, allocate, save_target, wound_target
from oprlab.units.profiles import WwpdModel

__all__ = [
    "AttackOdds",
    "attack_odds",
    "chain_probability",
    "expected_removed",
    "hit_removes",
    "hits_distribution",
    "removal_chances",
    "removed_distribution",
]

_ONE = Fraction(1)
_ZERO = Fraction(0)


def hits_distribution(volley: Volley) -> Dist[int]:
    """The number of hits of one volley: ``dice`` independent WWPD to-hit checks."""
    return Dist(dict(enumerate(_binomial(volley.dice, p_success(volley.to_hit)))))


@lru_cache(maxsize=1024)
def _binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes of n), k = 0..n."""
    pmf = [_ONE]
    for _ in range(n):
        nxt = [_ZERO] * (len(pmf) + 1)
        for k, w in enumerate(pmf):
            nxt[k] += w * (1 - p)
            nxt[k + 1] += w * p
        pmf = nxt
    return tuple(pmf)


def chain_probability(attack: Attack, volley: Volley, index: int) -> Fraction:
    """The chance one hit of ``volley`` on target model ``index`` removes it.

    To wound (0 when the weapon cannot damage it, and at 7+ against an armoured vehicle), then
    fail the save (certain when there is none).
    """
    return hit_removes(volley, attack.targets[index], save_target(attack, volley, index))


def hit_removes(volley: Volley, model: WwpdModel, save_x: int | None) -> Fraction:
    """The chance one hit of ``volley`` removes ``model`` when its save is ``save_x`` (``None``:
    no save): :func:`chain_probability` once the save is known."""
    wound_x = wound_target(volley, model)
    if wound_x is None:
        return _ZERO
    wound = p_success(wound_x, armoured_vehicle=model.vehicle)
    fail = _ONE if save_x is None else 1 - p_success(save_x)
    return wound * fail


def _bernoulli_sum(ps: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """P(k of the independent events happen), k = 0..len(ps)."""
    pmf = [_ONE]
    for p in ps:
        if p == 0:
            continue
        nxt = [_ZERO] * (len(pmf) + 1)
        for k, w in enumerate(pmf):
            nxt[k] += w * (1 - p)
            nxt[k + 1] += w * p
        pmf = nxt
    return tuple(pmf)


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of one attack.

    Attributes:
        hits: the total number of hits.
        removed: the number of target models removed.
        per_model: each target model's chance of being removed (index order).
    """

    hits: Dist[int]
    removed: Dist[int]
    per_model: tuple[Fraction, ...]

    @property
    def expected_removed(self) -> Fraction:
        return mean(self.removed)

    @property
    def expected_hits(self) -> Fraction:
        return mean(self.hits)


@lru_cache(maxsize=4096)
def attack_odds(attack: Attack) -> AttackOdds:
    """Exact distributions of hits and of models removed, summed over the joint hit counts."""
    n = len(attack.targets)
    if not attack.volleys:
        return AttackOdds(Dist.point(0), Dist.point(0), (_ZERO,) * n)
    hits: dict[int, Fraction] = {}
    removed: dict[int, Fraction] = {}
    per_model = [_ZERO] * n
    for total, weight, gone in _outcomes(attack):
        hits[total] = hits.get(total, _ZERO) + weight
        for i, g in enumerate(gone):
            per_model[i] += weight * g
        for k, p in enumerate(_bernoulli_sum(gone)):
            if p:
                removed[k] = removed.get(k, _ZERO) + weight * p
    return AttackOdds(Dist(hits), Dist(removed), tuple(per_model))


@lru_cache(maxsize=4096)
def removal_chances(attack: Attack) -> tuple[Fraction, ...]:
    """Each target model's exact chance of being removed: :attr:`AttackOdds.per_model` without
    the hits and removed distributions (a commander weighing targets needs only this; the
    distribution of models removed was two thirds of the work)."""
    per_model = [_ZERO] * len(attack.targets)
    if attack.volleys:
        for _, weight, gone in _outcomes(attack):
            for i, g in enumerate(gone):
                per_model[i] += weight * g
    return tuple(per_model)


def _outcomes(attack: Attack) -> Iterator[tuple[int, Fraction, list[Fraction]]]:
    """Each joint hit count of the volleys: the total hits, its chance, and each target model's
    chance of being removed given those hits (allocated as :func:`allocate` does)."""
    volleys = attack.volleys
    n = len(attack.targets)
    chains = [[chain_probability(attack, v, i) for i in range(n)] for v in volleys]
    per_volley = [list(hits_distribution(v).items()) for v in volleys]
    survive_memo: dict[tuple[int, int, int], Fraction] = {}
    for combo in itertools.product(*per_volley):
        counts = tuple(h for h, _ in combo)
        weight = _ONE
        for _, p in combo:
            weight *= p
        allocation = allocate(attack, counts)
        gone: list[Fraction] = []
        for i in range(n):
            survive = _ONE
            for v, per_model_hits in enumerate(allocation):
                k = per_model_hits[i]
                if k:
                    key = (v, i, k)
                    s = survive_memo.get(key)
                    if s is None:
                        s = survive_memo[key] = (1 - chains[v][i]) ** k
                    survive *= s
            gone.append(1 - survive)
        yield sum(counts), weight, gone


def removed_distribution(attack: Attack) -> Dist[int]:
    """The exact distribution of target models removed by ``attack``."""
    return attack_odds(attack).removed


def expected_removed(attack: Attack) -> Fraction:
    """The expected number of target models removed by ``attack``."""
    return attack_odds(attack).expected_removed
