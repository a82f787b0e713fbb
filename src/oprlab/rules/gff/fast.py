"""The float fast path of :mod:`~oprlab.rules.gff.exact`: the same odds, with numpy.

One die's whole chain is composed once per weapon, situation and target, in floats but from the
same hooks and in the same order as :func:`~oprlab.rules.gff.exact.die_result`, and cached under a
canonical key (so it is reused across a game). The dice are then summed by numpy convolution.

Casualties run along the *wound track*: position ``t`` means ``min(t, spare)`` models killed and
the rest as markers on the last model, where ``spare`` is the models before the last one. An
ordinary wound moves one step along it, and so does a Deadly packet until only the last model
is left, after which a packet of size X moves X steps. So with a single model, or no Deadly
weapon, the final position is just the total of the wounds; otherwise the Deadly dice move a
probability vector one die at a time (a matrix per die). The end of each position (casualties,
Destroyed, Shaken) is a row of a table made once per target from the wound-effect hooks, so the
close is one vector-matrix product. A weapon's summed dice, the Deadly track and the tables are
cached as well, so a repeated query costs a few lookups and one product. Results equal the
Fraction path to float precision (tested against it).

May import numpy, ``oprlab.mechanics``, ``oprlab.prob`` and ``oprlab.rules.gff``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from oprlab.mechanics import Check, Mechanic, Outcome, Owner, State
from oprlab.prob.dist import Dist
from oprlab.prob.floats import Array, frozen, power
from oprlab.rules import attack_chain as chain
from oprlab.rules.gff.attack import ATTACKER, DEFENDER, HOOKS, LONG_RANGE, GffHooks, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, wound_effect_check

#: The shared mechanic registry under its old name here (tests reach for it).
_MECHANICS = chain.MECHANICS
#: The closing table is made for track lengths rounded up to this, so nearby queries share it.
_ROWS = 16


@dataclass(frozen=True)
class AttackOddsArrays:
    """Float distributions indexed by count (``hits[k]`` = P(k hits))."""

    hits: Array
    wounds: Array
    casualties: Array
    p_destroyed: float
    p_shaken: float


def _canonical(
    p: AttackProfile,
    s: Situation,
    d: DefenderProfile,
    ranges: tuple[float, ...] = (LONG_RANGE,),
    seed: bool = False,
) -> tuple[Situation, DefenderProfile]:
    """Drop what one die's chain cannot depend on, so the cache hits across a game.

    A die's chain reads the distance only against its hooks' thresholds (``ranges``: seed
    003's 9", a house rule may add more), the target's size only for Blast, and never the
    target's markers or Shaken (those act after the dice are summed). Under seed 003's own
    clauses (``seed``: :data:`HOOKS`) it never reads the target's Tough (the wound track's),
    the owners (a check's clock or pool: the fast path refuses stateful mechanics) nor, but
    for an Indirect weapon, whether the attacker moved.
    """
    unread_move = seed and not p.indirect
    models = min(d.blast_models, p.blast) if p.blast > 1 else 1
    # What of ``d`` the canonical target keeps (:data:`_KEPT`): a query whose target lost a
    # model or took a marker finds the same key (29 keys, not 97, in four 300-point games)
    key = (models, s, d.defense, d.tough, d.regeneration, d.stealth, ranges, unread_move, seed)
    found = _CANONICAL.get(key)
    if found is None:
        if len(_CANONICAL) >= _CANONICAL_LIMIT:
            _CANONICAL.clear()
        found = _CANONICAL[key] = _canonical_at(models, s, d, ranges, unread_move, seed)
    return found


#: :func:`_canonical`'s answers by the Blast models, situation, kept fields of the target,
#: ranges and clauses; only numbers, owners and frozen profiles: a global memo.
_CANONICAL: dict[tuple[object, ...], tuple[Situation, DefenderProfile]] = {}
_CANONICAL_LIMIT = 4096
#: The target's fields :func:`_canonical` keys on; the others it drops (a test checks both
#: together cover :class:`DefenderProfile`, so a new field is not silently left out).
_KEPT = ("defense", "tough", "regeneration", "stealth")
_DROPPED = ("models", "markers", "shaken", "near")


def _canonical_at(
    models: int,
    s: Situation,
    d: DefenderProfile,
    ranges: tuple[float, ...],
    unread_move: bool = False,
    seed: bool = False,
) -> tuple[Situation, DefenderProfile]:
    """:func:`_canonical` with the target's models as Blast counts them (``models``) and
    ``unread_move`` (not Indirect), made once a key of :data:`_CANONICAL`: a frozen dataclass
    costs thousands of instructions to build, and every query the weapon cache misses needs
    one."""
    over = [r for r in ranges if s.distance > r]
    s2 = replace(s, distance=max(over) + 1.0 if over else 0.0)
    d2 = replace(d, models=models, markers=0, shaken=False, near=None)
    if seed:
        s2 = replace(s2, attacker=ATTACKER, defender=DEFENDER, moved=s.moved and not unread_move)
        d2 = replace(d2, tough=1)
    return s2, d2


@lru_cache(maxsize=4096)
def _one_die(p: AttackProfile, seed: bool = False) -> AttackProfile:
    """``p`` with one attack die: the key of its die chain (see :func:`_die`), cached; under
    seed 003's clauses without its name too (it names the pool of a stateful mechanic only)."""
    return replace(p, dice=1, name="") if seed else replace(p, dice=1)


def _die_chain(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech: Mechanic, hooks: GffHooks = HOOKS
) -> chain.FloatDie:
    """One die's chain in floats under the GFF hooks (uncached)."""
    return chain.float_die(hooks, p, s, d, mech)


@lru_cache(maxsize=4096)
def _die_cached(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech_key: str, hooks: GffHooks = HOOKS
) -> chain.FloatDie:
    return _die_chain(p, s, d, _Remembered(mech_key), hooks)


def _die(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech_key: str, hooks: GffHooks = HOOKS
) -> chain.FloatDie:
    """One die's chain under the canonical key. The weapon's dice count is left out too: a
    random mechanic's outcomes never read it (only the clock's token pool does, and the fast
    path refuses the clock), so a unit that loses a model no longer composes its chain again."""
    seed = hooks is HOOKS
    s2, d2 = _canonical(p, s, d, hooks.long_ranges, seed)
    one = _one_die(p, True) if seed else p if p.dice == 1 else _one_die(p)
    return _die_cached(one, s2, d2, mech_key, hooks)


class _Remembered(Mechanic):
    """A stateless mechanic whose float outcomes are remembered by check across die chains
    (converting a check's exact outcomes to floats was a quarter of a chain): the same
    outcomes and floats, in the same order."""

    name = "remembered"
    summary = "a stateless mechanic's float outcomes, remembered"

    def __init__(self, mech_key: str) -> None:
        self.key = mech_key

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        return chain.mechanic_for(self.key).outcomes(check, state)

    def float_outcomes(self, check: Check, state: State = None) -> list[tuple[Outcome, float]]:
        return _float_outcomes(self.key, check)


@lru_cache(maxsize=8192)
def _float_outcomes(mech_key: str, check: Check) -> list[tuple[Outcome, float]]:
    """``check``'s float outcomes under the mechanic of ``mech_key`` (read only, shared)."""
    return chain.mechanic_for(mech_key).float_outcomes(check)


@lru_cache(maxsize=4096)
def _weapon(
    p: AttackProfile, s: Situation, d: DefenderProfile, mech_key: str, hooks: GffHooks = HOOKS
) -> chain.FloatWeapon:
    """A weapon's dice at a target, keyed by the query itself (cheaper than the canonical key)
    and by the dice clauses (``hooks``: a house rule's are a subclass, one object a class)."""
    return chain.powered(_die(p, s, d, mech_key, hooks), p.dice)


@lru_cache(maxsize=4096)
def _head(die: chain.FloatDie, spare: int) -> Array:
    """Where one Deadly die moves each position before the last model (``t < spare``).

    Row ``t`` is the distribution of the new position: each positive packet kills a model while
    one is to spare, then moves the size along (the Deadly rule, as ``take_wounds_from``).
    """
    out = np.zeros((spare, spare + die.wounds.size))
    for t in range(spare):
        for seq, q in die.packets:
            to = t
            for size in seq:
                to = to + 1 if to < spare else to + size
            out[t, to] += q
    return frozen(out)


@lru_cache(maxsize=1024)
def _transition(die: chain.FloatDie, spare: int, size: int) -> Array:
    """One Deadly die as a matrix on track positions ``0..size-1``: the head rows from
    :func:`_head`, then a plain shift by the die's wounds (the last model takes them all).

    Moves past ``size`` are dropped: the caller sizes the track so none has any probability.
    """
    out = np.zeros((size, size))
    head = _head(die, spare)
    out[:spare, : head.shape[1]] = head
    flat = out.reshape(-1)  # a view: diagonal ``k`` from row ``spare`` is a strided slice
    for k in range(min(die.wounds.size, size - spare)):
        start = spare * (size + 1) + k
        flat[start : start + (size - spare - k) * (size + 1) : size + 1] = die.wounds[k]
    return frozen(out)


@lru_cache(maxsize=1024)
def _track(deadly: tuple[tuple[chain.FloatDie, int], ...], spare: int) -> Array:
    """The distribution of the wound-track position after the Deadly dice, in order."""
    size = spare + 1 + sum((die.wounds.size - 1) * dice for die, dice in deadly)
    v = np.zeros(size)
    v[0] = 1.0
    for die, dice in deadly:
        step = _transition(die, spare, size)
        for _ in range(dice):
            v = v @ step
    return frozen(v)


@lru_cache(maxsize=8192)
def _p_knocked_out(check: Check, mech_key: str) -> tuple[float, bool]:
    """P(Knocked Out) of one wound-effect roll, and whether it is certain."""
    effect = chain.mechanic_for(mech_key).float_outcomes(check)
    return sum(q for o, q in effect if not o.success), not any(o.success for o, _ in effect)


def _effects(d: DefenderProfile, owner: Owner, fear: int, mech_key: str, rows: int) -> Array:
    """:func:`_effects_of` under the key of what it reads of ``d`` (its models, markers, Tough
    and Shaken): targets that differ only in Defense, Regeneration, Stealth or Blast's models
    near share a table (six of the 21 tables four 300-point games made)."""
    key = (d.models, d.markers, d.tough, d.shaken, owner, fear, mech_key, rows)
    found = _EFFECTS.get(key)
    if found is None:
        if len(_EFFECTS) >= _EFFECTS_LIMIT:
            _EFFECTS.clear()
        found = _EFFECTS[key] = _effects_of(d, owner, fear, mech_key, rows)
    return found


#: :func:`_effects`' tables by what they read; only numbers and owners: a global memo.
_EFFECTS: dict[tuple[int, int, int, bool, Owner, int, str, int], Array] = {}
_EFFECTS_LIMIT = 2048


def _effects_of(d: DefenderProfile, owner: Owner, fear: int, mech_key: str, rows: int) -> Array:
    """The end of each wound-track position ``t < rows``: columns ``0..models`` are the
    casualties, then P(Destroyed) and P(Shaken).

    Before the last model (``t < spare``) a position is ``t`` models killed and no roll. From
    there on it is the markers ``t - spare`` on the last model: both wound-effect hooks read
    only the markers of the :class:`Damage`. More markers never make Knocked Out less likely
    (the roll adds them), so once it is certain the mechanic is not asked again.
    """
    top = d.models
    out = np.zeros((rows, top + 3))
    if top <= 0:  # nothing left to wound: no roll, and the unit is gone
        out[:, 0] = out[:, 1] = 1.0
        return frozen(out)
    spare = top - 1
    head = np.arange(min(spare, rows))
    out[head, head] = 1.0
    width = max(0, rows - spare)
    rolled = np.zeros(width)
    ko = np.zeros(width)  # P(Knocked Out), zero where there is no roll
    for m in range(width):
        damage = Damage(spare, m)
        if not rolls_wound_effect(d, damage, fear):
            continue
        ko[m], certain = _p_knocked_out(wound_effect_check(d, damage, owner, fear), mech_key)
        rolled[m] = 1.0
        if certain:
            rolled[m:] = ko[m:] = 1.0
            break
    last = out[spare:]
    last[:, spare] = 1.0 - ko  # no roll, or the last model stays in play
    last[:, top] = ko  # column ``spare + 1``: Knocked Out
    last[:, top + 1] = ko
    last[:, top + 2] = rolled - ko
    return frozen(out)


def clear_caches() -> None:
    """Forget every cached die, weapon and table (for cold-start timing and tests)."""
    for cached in (
        _one_die,
        _float_outcomes,
        _die_cached,
        chain.powered,
        _weapon,
        _head,
        _transition,
        _track,
        _p_knocked_out,
    ):
        cached.cache_clear()
    _EFFECTS.clear()
    _CANONICAL.clear()
    _TRACKS.clear()


def attack_odds_fast(
    weapons: Sequence[AttackProfile],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
    hooks: GffHooks = HOOKS,
) -> AttackOddsArrays:
    """Float odds of one unit's attack; the same rules as :func:`~.exact.attack_odds`.

    ``hooks``: the dice clauses (seed 003's, or a house rule's subclass of them).
    """
    chain.require_stateless(mech)
    key = chain.mechanic_key(mech)
    spare = d.models - 1 if d.models > 1 else 0
    at = (s, d, key) if hooks is HOOKS else (s, d, key, hooks)
    hits, wounds, ordinary, deadly = chain.float_sums(weapons, _weapon, at, spare > 0)
    ends = _close(_wound_track(wounds, ordinary, deadly, spare), d, s, fear, key)
    top = d.models
    return AttackOddsArrays(
        hits=np.array(hits),
        wounds=np.array(wounds),
        casualties=ends[: top + 1],
        p_destroyed=float(ends[top + 1]),
        p_shaken=float(ends[top + 2]),
    )


def attack_ends(
    weapons: tuple[AttackProfile, ...],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
    hooks: GffHooks = HOOKS,
) -> tuple[Array, float, float]:
    """:func:`attack_odds_fast`'s casualties, P(Destroyed) and P(Shaken) alone, the same floats
    (the commanders read no more): the wound track's distribution is kept by what it reads
    (:func:`_track_of`), so a target that took a marker, became Shaken or lost a model that
    neither Blast nor Deadly counts closes the track it had (two in three of the odds two
    600-point games ask afresh); only the close (a vector-matrix product) is worked again."""
    chain.require_stateless(mech)
    key = chain.mechanic_key(mech)
    ends = _close(_track_of(weapons, d, s, key, hooks), d, s, fear, key)
    top = d.models
    return ends[: top + 1], float(ends[top + 1]), float(ends[top + 2])


def _wound_track(
    wounds: Array, ordinary: list[Array], deadly: list[tuple[chain.FloatDie, int]], spare: int
) -> Array:
    """The distribution of the wound-track position: the wounds' total, or with Deadly dice kept
    apart (``deadly``) their track then the ordinary wounds added."""
    if not deadly:  # one model, or no Deadly: every wound is one step along the track
        return wounds
    final = _track(tuple(deadly), spare)
    for w_pmf in ordinary:
        final = np.convolve(final, w_pmf)
    return final


def _close(final: Array, d: DefenderProfile, s: Situation, fear: int, key: str) -> Array:
    """Each end of the track (casualties, Destroyed, Shaken) weighed by ``final``."""
    rows = -(-final.size // _ROWS) * _ROWS
    return final @ _effects(d, s.defender, fear if s.melee else 0, key, rows)[: final.size]


def _track_of(
    weapons: tuple[AttackProfile, ...],
    d: DefenderProfile,
    s: Situation,
    key: str,
    hooks: GffHooks,
) -> Array:
    """:func:`_wound_track` of the query, kept in :data:`_TRACKS` by all it reads of the target.

    The dice read the target through :func:`_canonical` (Defense, Tough, Regeneration,
    Stealth, and Blast's models near as far as the largest Blast counts); the track reads its
    models only as the models to spare, and only when a Deadly die moves it. So the key holds
    those, the weapons, the situation, the mechanic and the dice clauses: never the markers or
    Shaken, which act in the close alone."""
    blast = deadly = 1
    for p in weapons:
        if p.dice > 0:
            blast, deadly = max(blast, p.blast), max(deadly, p.deadly)
    spare = d.models - 1 if d.models > 1 else 0
    near = min(d.blast_models, blast) if blast > 1 else 0
    found_key = (
        weapons, s, d.defense, d.tough, d.regeneration, d.stealth, near,
        spare if deadly > 1 else 0, key, hooks,
    )  # fmt: skip
    found = _TRACKS.get(found_key)
    if found is None:
        at = (s, d, key) if hooks is HOOKS else (s, d, key, hooks)
        _, wounds, ordinary, dice = chain.float_sums(weapons, _weapon, at, spare > 0)
        if len(_TRACKS) >= _TRACKS_LIMIT:
            _TRACKS.clear()
        found = _TRACKS[found_key] = frozen(_wound_track(wounds, ordinary, dice, spare))
    return found


#: :func:`_track_of`'s distributions (read only) by what they read; only numbers, frozen
#: profiles and the dice clauses: a global memo, emptied whole at its limit.
_TRACKS: dict[tuple[object, ...], Array] = {}
_TRACKS_LIMIT = 4096


__all__ = ["AttackOddsArrays", "attack_ends", "attack_odds_fast", "clear_caches", "power"]
