"""The float fast path of :mod:`~oprlab.rules.riverside.exact`: the same odds, with numpy.

One die's whole chain is composed once per weapon, situation, target and readings, in floats
but from the same hooks and in the same order as
:func:`~oprlab.rules.riverside.exact.die_result`, and cached under a canonical key (so it is
reused across a game). The dice are then summed by numpy convolution. The casualty state (how
far along the wound track the wounds came) is a vector: the ordinary wounds fill it, each
Deadly weapon's dice move it by one cached matrix (one die's moves to the power of its dice),
and the end of each state (casualties, Morale Test) is a row of a table made once per target,
so the close is one vector-matrix product. Results equal the Fraction path to float precision
(tested).

May import numpy, ``oprlab.mechanics``, ``oprlab.prob`` and ``oprlab.rules.riverside``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from oprlab.mechanics import Mechanic
from oprlab.prob.floats import Array, add_pmf, frozen, power
from oprlab.rules import attack_chain as chain
from oprlab.rules.riverside.attack import READINGS, Readings, RiversideHooks, Situation
from oprlab.rules.riverside.casualties import assign_deadly, capacity
from oprlab.rules.riverside.exact import end_at
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile


@dataclass(frozen=True)
class AttackOddsArrays:
    """Float distributions indexed by count (``hits[k]`` = P(k hits)) and the end's odds.

    ``p_shaken`` is ``None`` in melee (morale waits for Return Strikes); ``p_routed`` counts
    Routs, which :attr:`p_destroyed` (wiped out by wounds) does not.
    """

    hits: Array
    wounds: Array
    casualties: Array
    p_destroyed: float
    p_morale: float
    p_routed: float
    p_shaken: float | None


def _canonical(
    p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings
) -> tuple[Situation, DefenderProfile]:
    """Drop what one die's chain cannot read, so the cache hits across a game.

    The chain reads the target's Defense, Stealth and Regeneration, its size only for Blast,
    and the distance only against :attr:`Readings.stealth_range`; never the models' wounds, a
    joined Hero's condition or Shaken (those act after the dice are summed).
    """
    distance = 0.0
    if d.stealth and r.stealth_range is not None and s.distance > r.stealth_range:
        distance = r.stealth_range + 1.0
    models = max(1, min(p.blast, d.blast_models)) if p.blast > 1 else 1
    d2 = replace(d, models=models, tough=1, wounds=0, started=None, shaken=False, hero=None)
    return replace(s, distance=distance), d2


@lru_cache(maxsize=4096)
def _die_cached(
    p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings, mech_key: str
) -> chain.FloatDie:
    return chain.float_die(RiversideHooks(r), p, s, d, chain.mechanic_for(mech_key))


def _die(
    p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings, key: str
) -> chain.FloatDie:
    s2, d2 = _canonical(p, s, d, r)
    return _die_cached(p, s2, d2, r, key)


@lru_cache(maxsize=4096)
def _weapon(
    p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings, key: str
) -> chain.FloatWeapon:
    """A weapon's dice at a target, keyed by the query itself (cheaper than the canonical key)."""
    return chain.powered(_die(p, s, d, r, key), p.dice)


@lru_cache(maxsize=2048)
def _deadly(die: chain.FloatDie, d: DefenderProfile, dice: int) -> Array:
    """How ``dice`` Deadly dice move the casualty state: one die's moves (each packet to the
    model at the front of the line, ``assign_deadly``) as a matrix, to the power ``dice``."""
    top = capacity(d)
    step = np.zeros((top + 1, top + 1))
    states = range(top + 1)
    for packets, q in die.packets:
        to = np.array([assign_deadly(d, c, packets) for c in states], dtype=np.intp)
        step[np.arange(top + 1), to] += q
    return frozen(np.linalg.matrix_power(step, dice))


@lru_cache(maxsize=4096)
def _ends(d: DefenderProfile, s: Situation, r: Readings, key: str) -> Array:
    """The end of each casualty state ``0..capacity`` (``end_at``): columns ``0..size`` are
    the models removed, then P(Destroyed), P(Morale Test), P(Routed), P(Shaken)."""
    top = capacity(d)
    size = d.size
    out = np.zeros((top + 1, size + 5))
    for c in range(top + 1):
        for end, q in end_at(d, c, s, chain.mechanic_for(key), r).items():
            pr = q.numerator / q.denominator
            out[c, end.removed] += pr
            out[c, size + 1 :] += pr * np.array(
                [end.destroyed, end.tested, end.routed, end.shaken], dtype=np.float64
            )
    return frozen(out)


def clear_caches() -> None:
    """Forget every cached die, weapon and table (for cold-start timing and tests)."""
    for cached in (_die_cached, chain.powered, _weapon, _deadly, _ends):
        cached.cache_clear()


def attack_odds_fast(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    readings: Readings = READINGS,
) -> AttackOddsArrays:
    """Float odds of one unit's attack; the same rules as :func:`~.exact.attack_odds`."""
    chain.require_stateless(mech)
    key = chain.mechanic_key(mech)
    hits, wounds, plain, deadly = chain.float_sums(weapons, _weapon, (s, d, readings, key))
    ordinary: Array | None = None
    for w_pmf in plain:
        ordinary = add_pmf(ordinary, w_pmf)
    # Ordinary wounds are assigned first, one at a time; past the last model they are lost.
    top = capacity(d)
    state = np.zeros(top + 1)
    if ordinary is None:
        state[0] = 1.0
    else:
        state[: min(top + 1, ordinary.size)] = ordinary[: top + 1]
        state[top] += ordinary[top + 1 :].sum()
    for die, dice in deadly:  # then each die's Deadly packets, in rolling order
        state = state @ _deadly(die, d, dice)
    ends = state @ _ends(d, s, readings, key)
    size = d.size
    return AttackOddsArrays(
        hits=np.array(hits),
        wounds=np.array(wounds),
        casualties=ends[: size + 1],
        p_destroyed=float(ends[size + 1]),
        p_morale=float(ends[size + 2]),
        p_routed=float(ends[size + 3]),
        p_shaken=None if s.melee else float(ends[size + 4]),
    )


__all__ = ["AttackOddsArrays", "attack_odds_fast", "clear_caches", "power"]
