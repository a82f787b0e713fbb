"""Vectorised Monte Carlo of the GFF attack with the d6: many attack sequences at once.

The sequential driver (:func:`~oprlab.rules.gff.resolve.resolve_attack`) rolls one die at a time
through the hooks of :mod:`~oprlab.rules.gff.attack`. Here the same hooks are asked once per die
face to fill small lookup tables (hit face -> hits and their AP; Defense face, and Bane's re-roll
face -> wounds; Regeneration face -> the wound stays; markers and wound-effect face -> Knocked
Out), and then numpy draws every face of ``n`` attacks as arrays and looks them up. So the
vectorised path follows the same rules code as the exact and sequential ones; only the order of
the random draws differs (whole arrays, not die by die), so the same seed gives different but
equally distributed attacks than :func:`resolve_attack`.

Only the d6 is vectorised: it is stateless, so every die is independent of the others. The clock
is deterministic and stateful (callers use :func:`resolve_attack`).

May import every core layer (``prob``, ``mechanics``, ``units``, ``rules``) and ``analysis.stats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Outcome, Owner
from oprlab.mechanics.d6 import D6, face_table, outcome_table
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    bane_reroll,
    defense_check,
    hit_check,
    hits_from,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, wound_effect_check

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

#: Most attack sequences simulated at once; more are done in chunks to bound memory.
CHUNK = 100_000
#: Largest number of faces drawn in one array (per weapon and chunk): small enough for the
#: arrays derived from it to stay in the CPU cache, which is faster than one big chunk.
MAX_FACES = 1 << 16
FACES = 6
_T = TypeVar("_T", bound=np.generic)


@dataclass(frozen=True)
class SampledAttacks:
    """``n`` independent attacks of one unit on one target, one array entry per attack.

    Attributes:
        hits: hits after extra hits and Blast.
        wounds: wounds after Defense, Deadly and Regeneration.
        casualties: models removed (including a Knocked Out last model).
        destroyed: the target has no models left.
        shaken: the target rolled a Shaken wound effect and is still in play.
        markers: wound markers on the last model afterwards (0 if it was Knocked Out).
    """

    hits: IntArray
    wounds: IntArray
    casualties: IntArray
    destroyed: BoolArray
    shaken: BoolArray
    markers: IntArray

    @property
    def n(self) -> int:
        return int(self.hits.shape[0])


@dataclass(frozen=True)
class SampledSummary:
    """Means and proportions of a :class:`SampledAttacks`, each with a 95% interval."""

    hits_mean: Interval
    wounds_mean: Interval
    casualties_mean: Interval
    p_destroyed: Interval
    p_shaken: Interval

    def as_dict(self) -> dict[str, Interval]:
        return {
            "hits_mean": self.hits_mean,
            "wounds_mean": self.wounds_mean,
            "casualties_mean": self.casualties_mean,
            "p_destroyed": self.p_destroyed,
            "p_shaken": self.p_shaken,
        }


def summarize(sample: SampledAttacks) -> SampledSummary:
    """Intervals for the headline numbers: a sampled figure is never shown without one."""

    def mean(a: IntArray) -> Interval:
        f = a.astype(np.float64)
        return mean_interval(float(f.sum()), float((f * f).sum()), sample.n)

    return SampledSummary(
        hits_mean=mean(sample.hits),
        wounds_mean=mean(sample.wounds),
        casualties_mean=mean(sample.casualties),
        p_destroyed=wilson(int(sample.destroyed.sum()), sample.n),
        p_shaken=wilson(int(sample.shaken.sum()), sample.n),
    )


# --- lookup tables built from the hooks -----------------------------------------------------


@dataclass(frozen=True)
class _WeaponTables:
    """One weapon's attack die as lookup tables over die faces (index = face - 1).

    Attributes:
        hits: hits per hit face (after extra hits and Blast).
        slots: the most hits one die can make; each is one Defense roll.
        size: wounds before Regeneration, flat over (hit face, slot, Defense face[, re-roll
            face]); 0 where the slot has no hit or the hit is blocked.
        reroll: whether a re-roll face is drawn (Bane can re-roll a natural 6).
        stays: per Regeneration face, whether the wound stays; None when Regeneration does not
            apply.
        deadly: wounds are Deadly packets (kept in die order) rather than ordinary wounds.
    """

    hits: npt.NDArray[np.int64]
    slots: int
    size: npt.NDArray[np.int64]
    reroll: bool
    stays: npt.NDArray[np.bool_] | None
    deadly: bool


@lru_cache(maxsize=4096)
def _weapon_tables(p: AttackProfile, s: Situation, d: DefenderProfile) -> _WeaponTables:
    hit_faces = outcome_table(hit_check(p, s, d))
    hits_per_face = [hits_from(p, s, d, o) for o in hit_faces]
    slots = max(len(h) for h in hits_per_face)
    blocks: dict[Hit, tuple[Outcome, ...]] = {}
    for hits in hits_per_face:
        for hit in hits:
            if hit not in blocks:
                blocks[hit] = outcome_table(defense_check(p, s, d, hit))
    reroll = any(bane_reroll(p, o) for table in blocks.values() for o in table)
    per_slot = FACES * FACES if reroll else FACES
    size = np.zeros((FACES, max(slots, 1), per_slot), dtype=np.int64)
    for f, hits in enumerate(hits_per_face):
        for j, hit in enumerate(hits):
            table = blocks[hit]
            for d1, block in enumerate(table):
                if not reroll:
                    size[f, j, d1] = wounds_from_block(p, block)
                    continue
                for d2 in range(FACES):
                    final = table[d2] if bane_reroll(p, block) else block
                    size[f, j, d1 * FACES + d2] = wounds_from_block(p, final)
    stays: npt.NDArray[np.bool_] | None = None
    if regenerates(p, d):
        success, _ = face_table(regeneration_check(s))
        stays = ~success
    return _WeaponTables(
        hits=_frozen(np.array([len(h) for h in hits_per_face], dtype=np.int64)),
        slots=slots,
        size=_frozen(size.reshape(-1)),
        reroll=reroll,
        stays=None if stays is None else _frozen(stays),
        deadly=p.deadly > 1,
    )


def _frozen(a: npt.NDArray[_T]) -> npt.NDArray[_T]:
    """Cached tables are shared between calls, so they are made read-only."""
    a.flags.writeable = False
    return a


@lru_cache(maxsize=4096)
def _wound_effect_tables(
    d: DefenderProfile, owner: Owner, fear: int, top: int
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per new markers 0..top: whether the wound effect is rolled, and Knocked Out per face.

    Both hooks read only the markers of the :class:`Damage`, not the models killed.
    """
    rolls = np.zeros(top + 1, dtype=np.bool_)
    knocked_out = np.zeros((top + 1, FACES), dtype=np.bool_)
    for m in range(top + 1):
        damage = Damage(0, m)
        rolls[m] = rolls_wound_effect(d, damage, fear)
        if rolls[m]:
            success, _ = face_table(wound_effect_check(d, damage, owner, fear))
            knocked_out[m] = ~success
    return _frozen(rolls), _frozen(knocked_out.reshape(-1))


# --- sampling -------------------------------------------------------------------------------


def _faces(rng: np.random.Generator, shape: tuple[int, ...]) -> npt.NDArray[np.intp]:
    """Die faces as ``face - 1`` (0..5), the index into the lookup tables."""
    return rng.integers(0, FACES, size=shape, dtype=np.uint8).astype(np.intp)


def _roll_weapon(
    t: _WeaponTables, dice: int, m: int, rng: np.random.Generator
) -> tuple[IntArray, npt.NDArray[np.int64]]:
    """Hits per attack (m,) and wounds per (attack, die, slot) (m, dice, slots)."""
    hit_face = _faces(rng, (m, dice))
    hits = t.hits[hit_face].sum(axis=1)
    if t.slots == 0:
        return hits, np.zeros((m, dice, 0), dtype=np.int64)
    per_slot = FACES * FACES if t.reroll else FACES
    index = (hit_face[:, :, None] * t.slots + np.arange(t.slots)) * per_slot
    index = index + _faces(rng, (m, dice, t.slots)) * (per_slot // FACES)
    if t.reroll:
        index += _faces(rng, (m, dice, t.slots))
    size = t.size[index]
    if t.stays is None:
        return hits, size
    top = int(t.size.max())
    if top == 0:
        return hits, size
    # Regeneration: one roll per wound; a wound stays on a failed roll.
    stays = t.stays[_faces(rng, (m, dice, t.slots, top))]
    stays &= np.arange(top) < size[..., None]
    return hits, stays.sum(axis=-1, dtype=np.int64)


def _chunk(weapons: Sequence[tuple[_WeaponTables, int]]) -> int:
    """Attacks per chunk, so that no face array outgrows :data:`MAX_FACES`."""
    widest = 1
    for t, dice in weapons:
        regen = int(t.size.max()) if t.stays is not None else 0
        widest = max(widest, dice * max(1, t.slots) * max(2, regen))
    return max(1, min(CHUNK, MAX_FACES // widest))


def _require_d6(mechanic: Mechanic | None) -> None:
    if mechanic is not None and type(mechanic) is not D6:
        raise OptionError(
            "the vectorised Monte Carlo rolls the d6 only",
            value=getattr(mechanic, "name", repr(mechanic)),
            expected="d6 (use resolve_attack for the clock and other mechanics)",
            where="simulate_attacks",
        )


def simulate_attacks(
    weapons: Sequence[AttackProfile],
    defender: DefenderProfile,
    situation: Situation,
    n: int,
    rng: np.random.Generator,
    *,
    fear: int = 0,
    mechanic: Mechanic | None = None,
) -> SampledAttacks:
    """Roll ``n`` independent attacks of one unit (all its weapons) at one target with the d6.

    The same rules as :func:`~oprlab.rules.gff.resolve.resolve_attack` (seed 003): Deadly
    weapons first, a Defense roll per hit (Bane re-rolls a 6), Deadly packets in die order, a
    Regeneration roll per wound, Groups & Wounds, then the wound effect (Fear in melee).

    Args:
        n: attacks to simulate (0 or more).
        rng: the generator; the same seed gives the same arrays.
        mechanic: the resolution mechanic, if the caller has one: only the d6 is accepted.
    """
    _require_d6(mechanic)
    if n < 0:
        raise OptionError("sample size out of range", value=n, expected="0 or more")
    ordered = sorted(weapons, key=lambda p: p.deadly == 1)  # stable: Deadly first
    for p in ordered:
        if p.dice < 0:
            raise OptionError("attack dice out of range", value=p.dice, expected="0 or more")
    tables = [(_weapon_tables(p, situation, defender), p.dice) for p in ordered if p.dice > 0]
    fear_now = fear if situation.melee else 0
    step = _chunk(tables)
    parts = [
        _simulate_chunk(tables, defender, situation.defender, fear_now, min(step, n - start), rng)
        for start in range(0, n, step)
    ]
    if not parts:
        empty = np.zeros(0, dtype=np.int64)
        return SampledAttacks(empty, empty, empty, empty.astype(bool), empty.astype(bool), empty)
    return SampledAttacks(*(np.concatenate([getattr(part, f) for part in parts]) for f in _FIELDS))


_FIELDS = ("hits", "wounds", "casualties", "destroyed", "shaken", "markers")


def take_wounds_arrays(
    d: DefenderProfile, deadly: npt.NDArray[np.int64], wounds: IntArray
) -> tuple[IntArray, IntArray]:
    """:func:`~oprlab.rules.gff.wounds.take_wounds` for many attacks at once.

    Args:
        d: the defending unit.
        deadly: Deadly packet sizes, shape (attacks, packets), in the order they are resolved.
        wounds: ordinary wounds per attack.

    Returns:
        Models killed and markers added to the last model, per attack.
    """
    spare = max(0, d.models - 1)
    if spare and deadly.shape[1]:
        # Each nonzero packet kills one model until only the last remains; the later ones put
        # all their wounds on the last model (Deadly wounds do not carry over).
        rank = np.cumsum(deadly > 0, axis=1)
        killed = np.minimum(rank[:, -1], spare)
        markers = np.where(rank > spare, deadly, 0).sum(axis=1)
    else:
        killed = np.zeros(deadly.shape[0], dtype=np.int64)
        markers = deadly.sum(axis=1)
    extra = np.minimum(wounds, spare - killed)
    return killed + extra, markers + wounds - extra


def _simulate_chunk(
    tables: Sequence[tuple[_WeaponTables, int]],
    d: DefenderProfile,
    owner: Owner,
    fear: int,
    m: int,
    rng: np.random.Generator,
) -> SampledAttacks:
    hits = np.zeros(m, dtype=np.int64)
    ordinary = np.zeros(m, dtype=np.int64)
    packets: list[npt.NDArray[np.int64]] = []
    for t, dice in tables:
        h, w = _roll_weapon(t, dice, m, rng)
        hits += h
        if t.deadly:
            packets.append(w.reshape(m, -1))  # die by die, hit by hit: the rolling order
        else:
            ordinary += w.sum(axis=(1, 2))
    sizes = np.concatenate(packets, axis=1) if packets else np.zeros((m, 0), dtype=np.int64)
    killed, markers = take_wounds_arrays(d, sizes, ordinary)
    deadly_wounds = sizes.sum(axis=1)
    top = -(-int(markers.max(initial=0)) // 16) * 16  # rounded up: fewer distinct cached tables
    rolls, knocked_out_table = _wound_effect_tables(d, owner, fear, top)
    effect_face = _faces(rng, (m,))
    rolled = rolls[markers]
    knocked_out = rolled & knocked_out_table[markers * FACES + effect_face]
    casualties = killed + knocked_out
    left = d.models - casualties
    return SampledAttacks(
        hits=hits,
        wounds=deadly_wounds + ordinary,
        casualties=casualties,
        destroyed=left <= 0,
        shaken=rolled & ~knocked_out & (left > 0),
        markers=np.where(knocked_out, 0, d.markers + markers),
    )


__all__ = [
    "SampledAttacks",
    "SampledSummary",
    "simulate_attacks",
    "summarize",
    "take_wounds_arrays",
]
