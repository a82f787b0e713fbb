"""One attack's dice chain, written once for every OPR system that rolls it the same way.

GFF (seed 003) and Riverside (seed 002) resolve an attack in the same order: a hit roll per
attack die, the hits it makes, one Defense roll per hit, a failed block's wounds (Deadly
multiplies them), one Regeneration roll per wound. What differs is *which* rule says what at
each step, so a system hands its clauses in as :class:`AttackHooks` (``rules.gff.attack.HOOKS``,
``rules.riverside.attack.RiversideHooks``) and this module runs the steps three ways:

- exactly, one die's whole chain as a :class:`~oprlab.prob.Dist` (:func:`die_result`), then the
  dice summed (:func:`sum_dice`) and Deadly packets folded in rolling order (:func:`fold_packets`);
- in floats for the fast paths (:func:`float_die`, :func:`powered`, :func:`float_sums`);
- check by check with a :class:`Roller` (:func:`roll_wounds`), in the order a player rolls.

Casualties and the end of an attack (wound effects in GFF, Morale Tests in Riverside) differ by
system and stay in each system's package.

May import ``oprlab.errors``, ``oprlab.mechanics`` and ``oprlab.prob``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, TypeVar

import numpy as np

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Mechanic, Outcome
from oprlab.mechanics.dice import Dice
from oprlab.prob import Dist, add, repeat_sum
from oprlab.prob.floats import Array, add_pmf, bump, frozen, pmf_array, power, repeat_small

__all__ = [
    "MECHANICS",
    "AttackHooks",
    "DiceSums",
    "DieResult",
    "FloatDie",
    "FloatSums",
    "FloatWeapon",
    "RolledWounds",
    "Roller",
    "WeaponDice",
    "casualty_dice",
    "die_result",
    "float_die",
    "float_sums",
    "fold_packets",
    "mechanic_for",
    "mechanic_key",
    "powered",
    "require_stateless",
    "roll_wounds",
    "sum_dice",
    "wounds_per_hit",
]


class WeaponDice(Protocol):
    """What the chain reads of a weapon profile itself: its dice and its Deadly(X)."""

    @property
    def dice(self) -> int: ...

    @property
    def deadly(self) -> int: ...

    def __hash__(self) -> int: ...


P = TypeVar("P", bound=WeaponDice)
S = TypeVar("S")
D = TypeVar("D")
H = TypeVar("H", bound=Hashable)
T = TypeVar("T")
P_in = TypeVar("P_in", contravariant=True)
S_in = TypeVar("S_in", contravariant=True)
D_in = TypeVar("D_in", contravariant=True)


class AttackHooks(Protocol[P_in, S_in, D_in, H]):
    """A system's clauses for each step of the chain (weapon ``p``, situation ``s``, target
    ``d``); ``H`` is the system's hit (its AP, and whether it can be a natural 6)."""

    def __hash__(self) -> int: ...

    def hit_check(self, p: P_in, s: S_in, d: D_in) -> Check:
        """The quality test of one attack die."""
        ...

    def hits_from(self, p: P_in, s: S_in, d: D_in, hit: Outcome) -> tuple[H, ...]:
        """The hits one attack die makes (extra or Bonus Hits, Blast)."""
        ...

    def defense_check(self, p: P_in, s: S_in, d: D_in, hit: H) -> Check:
        """One Defense roll against one hit."""
        ...

    def rerolls_block(self, p: P_in, block: Outcome) -> bool:
        """The Defense roll is rolled once more (GFF Bane); no system re-rolls twice."""
        ...

    def wounds_from_block(self, p: P_in, block: Outcome) -> int:
        """Wounds a Defense roll lets through (Deadly multiplies them)."""
        ...

    def regeneration_check(self, p: P_in, s: S_in, d: D_in) -> Check | None:
        """The Regeneration roll for each wound, or ``None`` when there is none."""
        ...


def require_stateless(mechanic: Mechanic, instead: str = "resolve_attack") -> None:
    """Exact composition multiplies independent dice: a stateful mechanic is played out."""
    if mechanic.deterministic:
        raise OptionError(
            "exact composition needs a random mechanic; a deterministic one is resolved directly",
            value=mechanic.name,
            expected=f"d6 (use {instead} for the clock)",
        )


# --- exact: one die's chain as a Dist -------------------------------------------------------

#: One die's result: (hits, ordinary wounds, Deadly wound packets in order).
DieResult = tuple[int, int, tuple[int, ...]]


def wounds_per_hit(
    hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, hit: H, mech: Mechanic
) -> Dist[int]:
    """Wounds one hit causes: the Defense roll (and its re-roll), Deadly, Regeneration."""
    blocks = mech.outcomes(hooks.defense_check(p, s, d, hit))
    regeneration = hooks.regeneration_check(p, s, d)

    def reroll(block: Outcome) -> Dist[Outcome]:
        return blocks if hooks.rerolls_block(p, block) else Dist.point(block)

    def after_block(block: Outcome) -> Dist[int]:
        size = hooks.wounds_from_block(p, block)
        if not size or regeneration is None:
            return Dist.point(size)
        stays = mech.outcomes(regeneration).map(lambda o: int(not o.success))
        return repeat_sum(stays, size)

    return blocks.bind(reroll).bind(after_block)


def die_result(hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, mech: Mechanic) -> Dist[DieResult]:
    """The whole chain of one attack die of weapon ``p``, so its natural 6 stays tied to it."""
    require_stateless(mech)
    per_hit: dict[H, Dist[int]] = {}

    def after_hit(hits: tuple[H, ...]) -> Dist[DieResult]:
        out: Dist[DieResult] = Dist.point((len(hits), 0, ()))
        for hit in hits:
            if hit not in per_hit:
                per_hit[hit] = wounds_per_hit(hooks, p, s, d, hit, mech)
            out = out.bind(_adder(per_hit[hit], p.deadly > 1))
        return out

    rolls = mech.outcomes(hooks.hit_check(p, s, d))
    return rolls.map(lambda o: hooks.hits_from(p, s, d, o)).bind(after_hit)


def _adder(w: Dist[int], deadly: bool) -> Callable[[DieResult], Dist[DieResult]]:
    """Add one hit's wounds to a die's result: as a Deadly packet, or as ordinary wounds."""

    def add_to(res: DieResult) -> Dist[DieResult]:
        hits, ordinary, packets = res
        if deadly:
            return w.map(lambda x: (hits, ordinary, (*packets, x)))
        return w.map(lambda x: (hits, ordinary + x, packets))

    return add_to


@dataclass(frozen=True)
class DiceSums:
    """All weapons' dice summed: hits, all wounds, ordinary wounds, and each Deadly weapon's
    packets of one die with its dice (in the order given, for :func:`fold_packets`)."""

    hits: Dist[int]
    wounds: Dist[int]
    ordinary: Dist[int]
    deadly: tuple[tuple[Dist[tuple[int, ...]], int], ...]


def sum_dice(
    weapons: Iterable[P], die: Callable[[P], Dist[DieResult]], *, sums: bool = True
) -> DiceSums:
    """Sum each weapon's dice (``die``: one die's chain); ``sums=False`` skips the hits and
    wounds marginals (an exchange needs only the casualty state)."""
    hits: Dist[int] = Dist.point(0)
    wounds: Dist[int] = Dist.point(0)
    ordinary: Dist[int] = Dist.point(0)
    deadly: list[tuple[Dist[tuple[int, ...]], int]] = []
    for p in weapons:
        if p.dice <= 0:
            continue
        one = die(p)
        if sums:
            hits = add(hits, repeat_sum(one.map(lambda r: r[0]), p.dice))
            wounds = add(wounds, repeat_sum(one.map(lambda r: r[1] + sum(r[2])), p.dice))
        if p.deadly > 1:
            deadly.append((one.map(lambda r: r[2]), p.dice))
        else:
            ordinary = add(ordinary, repeat_sum(one.map(lambda r: r[1]), p.dice))
    return DiceSums(hits, wounds, ordinary, tuple(deadly))


@lru_cache(maxsize=4096)
def _ordinary_sum(hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, mech: Mechanic) -> Dist[int]:
    return repeat_sum(die_result(hooks, p, s, d, mech).map(lambda r: r[1]), p.dice)


@lru_cache(maxsize=4096)
def _packets(
    hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, mech: Mechanic
) -> Dist[tuple[int, ...]]:
    return die_result(hooks, p, s, d, mech).map(lambda r: r[2])


def casualty_dice(
    hooks: AttackHooks[P, S, D, H],
    weapons: Iterable[P],
    s: S,
    target: Callable[[P], D],
    mech: Mechanic,
) -> tuple[Dist[int], tuple[tuple[Dist[tuple[int, ...]], int], ...]]:
    """What the weapons bring to the casualty state: the ordinary wounds of all plain weapons,
    and each Deadly weapon's packets of one die with its dice (for :func:`fold_packets`).

    Each weapon's part is cached (a melee exchange composes the same attacks stage after stage);
    ``target`` gives the target as that weapon's die sees it, so the cache key stays small.
    """
    ordinary: Dist[int] = Dist.point(0)
    deadly: list[tuple[Dist[tuple[int, ...]], int]] = []
    for p in weapons:
        if p.dice <= 0:
            continue
        d = target(p)
        if p.deadly > 1:
            deadly.append((_packets(hooks, p, s, d, mech), p.dice))
        else:
            ordinary = add(ordinary, _ordinary_sum(hooks, p, s, d, mech))
    return ordinary, tuple(deadly)


def fold_packets(
    state: Dist[T],
    deadly: Iterable[tuple[Dist[tuple[int, ...]], int]],
    take: Callable[[T, tuple[int, ...]], T],
) -> Dist[T]:
    """Apply each Deadly die's packets to a casualty state, die by die in rolling order
    (``take``: the system's Deadly rule for one die's packets)."""
    for packets, dice in deadly:
        step = _packet_step(packets, take)
        for _ in range(dice):
            state = state.bind(step)
    return state


def _packet_step(
    packets: Dist[tuple[int, ...]], take: Callable[[T, tuple[int, ...]], T]
) -> Callable[[T], Dist[T]]:
    def step(x: T) -> Dist[T]:
        return packets.map(lambda pk: take(x, pk))

    return step


# --- floats: the fast paths' die and weapon --------------------------------------------------


@dataclass(frozen=True, eq=False)
class FloatDie:
    """One die's chain as floats.

    Attributes:
        hits: pmf of its hits.
        wounds: pmf of its wounds, ordinary and Deadly alike (a Deadly die has no ordinary ones).
        packets: a Deadly die's packets: the positive sizes in order (zeros are skipped by the
            Deadly rule, so they are dropped and equal sequences merged), with probabilities.
    """

    hits: Array
    wounds: Array
    packets: tuple[tuple[tuple[int, ...], float], ...]


@dataclass(frozen=True, eq=False)
class FloatWeapon:
    """A weapon's dice summed: the die and the pmfs of hits and wounds over all its dice."""

    die: FloatDie
    hits: Array
    wounds: Array


#: Mechanics by :func:`mechanic_key`, so cached functions can take a string key.
MECHANICS: dict[str, Mechanic] = {}


def mechanic_key(mech: Mechanic) -> str:
    """A cache key for ``mech`` (its repr), remembered so cached functions can take the key."""
    key = repr(mech)
    MECHANICS.setdefault(key, mech)
    return key


def mechanic_for(key: str) -> Mechanic:
    """The mechanic :func:`mechanic_key` gave ``key`` for."""
    return MECHANICS[key]


def _float_wounds_per_hit(
    hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, hit: H, mech: Mechanic
) -> list[tuple[int, float]]:
    """:func:`wounds_per_hit` in floats."""
    blocks = mech.float_outcomes(hooks.defense_check(p, s, d, hit))
    regeneration = hooks.regeneration_check(p, s, d)
    stays = (
        [(int(not o.success), q) for o, q in mech.float_outcomes(regeneration)]
        if regeneration is not None
        else []
    )
    out: dict[int, float] = {}

    def after_block(block: Outcome, q: float) -> None:
        size = hooks.wounds_from_block(p, block)
        if not size or regeneration is None:
            bump(out, size, q)
            return
        for k, a in repeat_small(stays, size):
            bump(out, k, q * a)

    for block, q in blocks:
        if hooks.rerolls_block(p, block):
            for again, r in blocks:
                after_block(again, q * r)
        else:
            after_block(block, q)
    return list(out.items())


def float_die(hooks: AttackHooks[P, S, D, H], p: P, s: S, d: D, mech: Mechanic) -> FloatDie:
    """:func:`die_result` in floats, summarised for the fast paths."""
    deadly = p.deadly > 1
    per_hit: dict[H, list[tuple[int, float]]] = {}
    hits: dict[int, float] = {}
    wounds: dict[int, float] = {}
    packets: dict[tuple[int, ...], float] = {}
    for outcome, q in mech.float_outcomes(hooks.hit_check(p, s, d)):
        made = hooks.hits_from(p, s, d, outcome)
        bump(hits, len(made), q)
        seqs: dict[tuple[int, ...], float] = {(): q}
        for hit in made:
            if hit not in per_hit:
                per_hit[hit] = _float_wounds_per_hit(hooks, p, s, d, hit, mech)
            nxt: dict[tuple[int, ...], float] = {}
            for seq, a in seqs.items():
                for x, b in per_hit[hit]:
                    # Deadly packets keep their order; ordinary wounds are just a count.
                    k = ((*seq, x) if x else seq) if deadly else (sum(seq) + x,)
                    bump(nxt, k, a * b)
            seqs = nxt
        for seq, a in seqs.items():
            bump(wounds, sum(seq), a)
            if deadly:
                bump(packets, seq, a)
    return FloatDie(pmf_array(hits), pmf_array(wounds), tuple(packets.items()))


@lru_cache(maxsize=4096)
def powered(die: FloatDie, dice: int) -> FloatWeapon:
    """``dice`` copies of ``die`` summed (cached: weapons of a game repeat)."""
    return FloatWeapon(die, frozen(power(die.hits, dice)), frozen(power(die.wounds, dice)))


#: All weapons' float pmfs summed (hits, wounds), the ordinary weapons' wounds and the Deadly
#: dice: a plain tuple, as the warm fast path builds one per query.
FloatSums = tuple[Array, Array, list[Array], list[tuple[FloatDie, int]]]


def float_sums(
    weapons: Iterable[P],
    weapon: Callable[..., FloatWeapon],
    at: tuple[object, ...],
    deadly_apart: bool = True,
) -> FloatSums:
    """Sum the weapons' pmfs (``weapon(p, *at)``: one weapon's cached dice at the target); with
    ``deadly_apart`` the Deadly weapons' dice are kept apart to move the casualty state die by die.

    Called on every warm fast-path query, so it takes the cached function and its arguments
    rather than a closure.
    """
    hits: Array | None = None
    wounds: Array | None = None
    ordinary: list[Array] = []
    deadly: list[tuple[FloatDie, int]] = []
    for p in weapons:
        if p.dice <= 0:
            continue
        w = weapon(p, *at)
        hits = add_pmf(hits, w.hits)
        wounds = add_pmf(wounds, w.wounds)
        if deadly_apart and p.deadly > 1:
            deadly.append((w.die, p.dice))
        else:
            ordinary.append(w.wounds)
    if hits is None or wounds is None:
        hits = wounds = np.ones(1)
    return hits, wounds, ordinary, deadly


# --- check by check ------------------------------------------------------------------------


#: The game's dice (:class:`~oprlab.mechanics.dice.Dice`) under the name the resolvers use.
Roller = Dice


@dataclass(frozen=True)
class RolledWounds:
    """What the dice of one attack did before casualties: hits, ordinary wounds, and the
    Deadly wound packets in the order rolled (zeros dropped: no Deadly rule counts them)."""

    hits: int
    ordinary: int
    packets: tuple[int, ...]

    @property
    def wounds(self) -> int:
        return self.ordinary + sum(self.packets)


def roll_wounds(
    hooks: AttackHooks[P, S, D, H], weapons: Sequence[P], s: S, d: D, roller: Roller
) -> RolledWounds:
    """Roll every attack die, then one Defense roll per hit (a re-roll at once), then one
    Regeneration roll per wound: the order a player rolls in, which the clock sees."""
    # The driver of every sampled attack: hooks are looked up once, not per die.
    hits_from, defense_check = hooks.hits_from, hooks.defense_check
    rerolls_block, wounds_from_block = hooks.rerolls_block, hooks.wounds_from_block
    rolled: list[tuple[P, list[H]]] = []
    for p in weapons:
        check = hooks.hit_check(p, s, d)
        hits: list[H] = []
        for _ in range(p.dice):
            hits.extend(hits_from(p, s, d, roller.roll(check)))
        rolled.append((p, hits))
    unsaved: list[tuple[P, int]] = []
    for p, hits in rolled:
        for hit in hits:
            block = roller.roll(defense_check(p, s, d, hit))
            if rerolls_block(p, block):
                block = roller.roll(defense_check(p, s, d, hit))
            size = wounds_from_block(p, block)
            if size:
                unsaved.append((p, size))
    ordinary = 0
    packets: list[int] = []
    for p, size in unsaved:
        regeneration = hooks.regeneration_check(p, s, d)
        if regeneration is not None:
            size = sum(not roller.roll(regeneration).success for _ in range(size))
        if p.deadly > 1:
            if size:
                packets.append(size)
        else:
            ordinary += size
    return RolledWounds(sum(len(h) for _, h in rolled), ordinary, tuple(packets))
