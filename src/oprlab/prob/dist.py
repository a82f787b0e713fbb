"""An immutable finite distribution with exact :class:`~fractions.Fraction` probabilities.

Exact first, float only at the edge: every probability oprlab reports as exact is built from
these, and only turned into floats for display or the numpy fast path (:func:`convolve_pmf`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Dist(Generic[T]):
    """A distribution over hashable outcomes; probabilities are Fractions summing to 1."""

    __slots__ = ("_p",)

    def __init__(self, weights: Mapping[T, Fraction | int]) -> None:
        total = sum(weights.values(), Fraction(0))
        if total <= 0:
            raise ValueError("a distribution needs positive total weight")
        p: dict[T, Fraction] = {}
        for outcome, w in weights.items():
            if w < 0:
                raise ValueError(f"negative weight {w!r} for {outcome!r}")
            if w:
                p[outcome] = p.get(outcome, Fraction(0)) + Fraction(w) / total
        self._p = p

    @classmethod
    def point(cls, outcome: T) -> Dist[T]:
        """The certain outcome: what a deterministic mechanic lists."""
        return cls({outcome: 1})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Dist[T]:
        """Each outcome equally likely (repeats add up)."""
        weights: dict[T, int] = {}
        for o in outcomes:
            weights[o] = weights.get(o, 0) + 1
        return cls(weights)

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[T, Fraction]]) -> Dist[T]:
        """Merge ``(outcome, probability)`` pairs, adding the probabilities of equal outcomes."""
        weights: dict[T, Fraction] = {}
        for o, p in pairs:
            weights[o] = weights.get(o, Fraction(0)) + p
        return cls(weights)

    def items(self) -> Iterator[tuple[T, Fraction]]:
        """``(outcome, probability)`` pairs, in insertion order."""
        return iter(self._p.items())

    @property
    def support(self) -> tuple[T, ...]:
        return tuple(self._p)

    def __getitem__(self, outcome: T) -> Fraction:
        return self._p.get(outcome, Fraction(0))

    def __len__(self) -> int:
        return len(self._p)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._p == other._p

    def __hash__(self) -> int:
        return hash(frozenset(self._p.items()))

    def __repr__(self) -> str:
        body = ", ".join(
            f"{o!r}: Fraction({p.numerator}, {p.denominator})" for o, p in self.items()
        )
        return f"Dist({{{body}}})"

    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """The distribution of ``f(outcome)``."""
        return Dist.from_pairs((f(o), p) for o, p in self.items())

    def bind(self, f: Callable[[T], Dist[U]]) -> Dist[U]:
        """Chain a step whose distribution depends on this outcome (a stage of a pipeline)."""
        return Dist.from_pairs((o2, p * p2) for o, p in self.items() for o2, p2 in f(o).items())

    def probability(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome))."""
        return sum((p for o, p in self.items() if predicate(o)), Fraction(0))


def add(a: Dist[int], b: Dist[int]) -> Dist[int]:
    """The distribution of the sum of two independent integer outcomes (exact convolution)."""
    return Dist.from_pairs((x + y, p * q) for x, p in a.items() for y, q in b.items())


def repeat_sum(d: Dist[int], n: int) -> Dist[int]:
    """The sum of ``n`` independent copies of ``d`` (by repeated squaring)."""
    if n < 0:
        raise ValueError(f"cannot sum {n} copies")
    result: Dist[int] = Dist.point(0)
    base = d
    while n:
        if n & 1:
            result = add(result, base)
        n >>= 1
        if n:
            base = add(base, base)
    return result


def mean(d: Dist[int]) -> Fraction:
    """The expected value of an integer distribution."""
    return sum((p * o for o, p in d.items()), Fraction(0))


def pmf(d: Dist[int]) -> list[Fraction]:
    """Probabilities indexed by count ``0..max`` (a non-negative integer distribution)."""
    if any(o < 0 for o in d.support):
        raise ValueError("pmf needs non-negative integer outcomes")
    top = max(d.support)
    return [d[k] for k in range(top + 1)]


def at_least(d: Dist[int]) -> list[Fraction]:
    """``P(X >= k)`` for ``k = 0..max``."""
    out: list[Fraction] = []
    acc = Fraction(0)
    for p in reversed(pmf(d)):
        acc += p
        out.append(acc)
    return out[::-1]


def convolve_pmf(a: npt.ArrayLike, b: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Float fast path of :func:`add` for pmfs indexed by count."""
    import numpy as np  # the exact paths (and `oprlab check`) run without numpy

    return np.convolve(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
