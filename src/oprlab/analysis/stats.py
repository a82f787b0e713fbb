"""Small statistics for sampled figures: every Monte Carlo number carries an interval."""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    """A point estimate with a 95% interval and the sample size behind it."""

    estimate: float
    low: float
    high: float
    n: int

    def __str__(self) -> str:
        return f"{self.estimate:.4f} [{self.low:.4f}, {self.high:.4f}] (n={self.n:,})"


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """Wilson score interval for a proportion: sane at 0 and 1, unlike the normal one."""
    if n <= 0:
        raise ValueError("an interval needs at least one sample")
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(p, low, high, n)


def mean_interval(
    total: float, total_sq: float, n: int, z: float = Z95, *, floor: float | None = None
) -> Interval:
    """Normal interval for a mean from the sum and the sum of squares of ``n`` samples.

    ``floor``: the least value a sample can take (0 for counts); the interval is clipped there.
    """
    if n <= 0:
        raise ValueError("an interval needs at least one sample")
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * n / max(1, n - 1)
    half = z * math.sqrt(var / n)
    low = mean - half if floor is None else max(floor, mean - half)
    return Interval(mean, low, mean + half, n)
