"""The one RNG policy: a numpy Generator built through SeedSequence, passed in, its seed kept.

No module of oprlab draws from a global or hidden random source; callers create a
:class:`Seeded` generator here and hand ``.rng`` down, so the same seed replays the same game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from oprlab.errors import OptionError

MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Seeded:
    """A generator together with the seed that made it, so results can record the seed."""

    seed: int
    rng: np.random.Generator


def make_rng(seed: int | None = None) -> Seeded:
    """Build a reproducible generator; with no seed, draw one from the OS and record it."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % MAX_SEED)  # type: ignore[operator]
    if not 0 <= seed <= MAX_SEED:
        raise OptionError("seed out of range", value=seed, expected=f"0 to {MAX_SEED}")
    return Seeded(seed=seed, rng=np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed))))


def child_seed(seed: int, i: int) -> int:
    """The ``i``-th child seed of ``seed``: what ``SeedSequence(seed).spawn(n)[i]`` gives, made
    alone (a child's spawn key is its index)."""
    child = np.random.SeedSequence(seed, spawn_key=(i,))
    return int(child.generate_state(1, np.uint64)[0] % MAX_SEED)


def iter_seeds(seed: int, n: int) -> Iterator[int]:
    """The ``n`` child seeds of ``seed`` one at a time, so a series of ten million games does
    not build ten million seed objects before its first game."""
    return (child_seed(seed, i) for i in range(n))


def spawn(seed: int, n: int) -> list[int]:
    """Derive ``n`` independent child seeds (for games of a series) from one seed."""
    return list(iter_seeds(seed, n))
