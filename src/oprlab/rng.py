"""The one RNG policy: numpy Generators built through SeedSequence, passed in, the seed kept.

No module of oprlab draws from a global or hidden random source; callers create a
:class:`Seeded` generator here and hand ``.rng`` down, so the same seed replays the same game.

One game seed splits into independent streams (:data:`STREAMS`, :func:`stream`), spawned from
it with ``SeedSequence.spawn``: the dice (every check, roll-off and D3 of the game), the
generated table, and each commander's own choices. Changing the table or a commander then
leaves the dice of an otherwise identical game as they were (common random numbers for paired
experiments), and one seed is still one game. Series derive each game's seed with
:func:`spawn`; each game then splits its own seed into the streams.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from oprlab.errors import OptionError

MAX_SEED = 2**63 - 1
#: The streams of one game seed, in spawn order (docs/rules/README.md "Seeds and streams").
STREAMS = ("dice", "table", "commander_a", "commander_b")
#: What a commander or a generator may be seeded with: an int, or one spawned stream.
SeedLike = int | np.random.SeedSequence


@dataclass(frozen=True)
class Seeded:
    """A generator together with the seed that made it, so results can record the seed."""

    seed: int
    rng: np.random.Generator


def _check(seed: int) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise OptionError("seed out of range", value=seed, expected=f"0 to {MAX_SEED}")
    return seed


def make_rng(seed: int | None = None) -> Seeded:
    """Build a reproducible generator; with no seed, draw one from the OS and record it."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % MAX_SEED)  # type: ignore[operator]
    _check(seed)
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


def stream(seed: int, name: str) -> np.random.SeedSequence:
    """The stream ``name`` (one of :data:`STREAMS`) of game seed ``seed``."""
    if name not in STREAMS:
        raise OptionError("unknown random stream", value=name, expected=" or ".join(STREAMS))
    return np.random.SeedSequence(_check(seed)).spawn(len(STREAMS))[STREAMS.index(name)]


def generator(seed: SeedLike, name: str = "dice") -> np.random.Generator:
    """A generator on stream ``name`` of ``seed`` (a spawned stream is used as it is)."""
    seq = seed if isinstance(seed, np.random.SeedSequence) else stream(seed, name)
    return np.random.Generator(np.random.PCG64(seq))


def commander_stream(seed: int, side: int) -> np.random.SeedSequence:
    """The stream of side ``side``'s commander (0: A, 1: B) in game seed ``seed``."""
    if side not in (0, 1):
        raise OptionError("side out of range", value=side, expected="0 or 1")
    return stream(seed, STREAMS[2 + side])


def activation_dice(key: int, round_: int, unit: str) -> np.random.Generator:
    """The dice of ``unit``'s activation in round ``round_`` under ``key``: the same whatever
    the activations before it rolled (common random numbers for two games that part: a
    search's candidates, two commanders or two rules on one seed)."""
    entropy = [int(key), int(round_), zlib.crc32(unit.encode("utf-8"))]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(entropy)))


def own_generator(seed: SeedLike) -> np.random.Generator:
    """A commander's generator from an int seed or its spawned stream."""
    return np.random.default_rng(seed)


#: Seeds the generator a copied one is built on before its state is set (any seed would do).
_ANY_SEED = np.random.SeedSequence(0)


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """The same stream from here on (a deep copy's draws, for a fraction of its cost): a
    search's copy of a game rolls on from where the game stands."""
    bits = type(rng.bit_generator)(_ANY_SEED)
    bits.state = rng.bit_generator.state
    return np.random.Generator(bits)
