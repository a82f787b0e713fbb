"""Float pmfs for the fast paths: the same sums as :mod:`oprlab.prob.dist`, in numpy.

The exact Fraction paths are the reference; the rule systems' fast paths build float pmfs from
the same hooks and combine them with these helpers, and their tests hold them to the exact
results within 1e-12.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[np.float64]
else:  # the same class at run time, without importing numpy.typing (its docstrings' regexes)
    Array = np.ndarray
K = TypeVar("K", bound=Hashable)
A = TypeVar("A", bound="np.ndarray[Any, Any]")


def bump(table: dict[K, float], key: K, p: float) -> None:
    """Add probability ``p`` to ``key`` of a dict pmf."""
    table[key] = table.get(key, 0.0) + p


def frozen(a: A) -> A:
    """Mark an array read-only (cached arrays must not be changed by callers)."""
    a.flags.writeable = False
    return a


def pmf_array(table: dict[int, float]) -> Array:
    """A read-only pmf indexed by count from a dict ``count -> probability``."""
    out = np.zeros(max(table) + 1)
    for k, p in table.items():
        out[k] += p
    return frozen(out)


def repeat_small(pmf: list[tuple[int, float]], n: int) -> list[tuple[int, float]]:
    """The sum of ``n`` independent copies of a small pmf given as ``(value, p)`` pairs."""
    out: dict[int, float] = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for k, a in out.items():
            for x, q in pmf:
                bump(nxt, k + x, a * q)
        out = nxt
    return list(out.items())


def power(pmf: Array, n: int) -> Array:
    """The pmf of the sum of ``n`` independent copies (repeated squaring)."""
    result: Array | None = None
    base = pmf
    while n:
        if n & 1:
            result = base if result is None else np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return np.ones(1) if result is None else result


def add_pmf(a: Array | None, b: Array) -> Array:
    """The pmf of a sum of two independent counts (``a`` may be ``None``: nothing yet)."""
    return b if a is None else np.convolve(a, b)
