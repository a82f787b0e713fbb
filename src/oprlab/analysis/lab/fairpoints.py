"""Fair points: a handicap found by bisection, and each unit's value in points from a fit.

**Unit values.** Over many seeds of two generated lists (both seats played, so first-mover
advantage cancels in a seed's score ``y``, army A's mean score), a fractional logistic
(Bradley-Terry) model ``E[y] = sigma(sum_u beta_u (nA_u - nB_u))`` is fitted by Newton's
method, with a robust (sandwich) covariance, as fractional responses need. ``beta_u`` is unit
``u``'s strength on the logit scale; in points it is ``v_u = beta_u / lambda``, where
``lambda`` (logit per point) is fixed by the one assumption a fit of equal-points lists can
rest on: the pool is priced right *on average*, ``sum_u w_u v_u = sum_u w_u cost_u`` with
``w_u`` the mean copies of ``u`` per list. (Strength and its price in logits enter only as a
product, so some such scale is needed; lists that spend a little under the limit give the
variation that separates the units.) Intervals: the delta method. A unit is flagged when its
interval excludes its cost.

**Handicap.** The points added to army A's limit at which its score is 50%: bisection over
``[low, high]`` (each step plays a batch at the midpoint and keeps the half where the score
crosses 50%), then one logistic fit ``E[y] = sigma(a + b delta)`` over every seed played,
``delta* = -a / b`` with a delta-method interval. tests/analysis/lab/test_fairpoints.py checks
both intervals' coverage on simulated data with a known answer.

No I/O; numpy only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from oprlab.analysis.lab.stats import Z95

__all__ = [
    "Handicap",
    "UnitValue",
    "batch_steps",
    "bisect_next",
    "fit_handicap",
    "fit_unit_values",
    "logit_fit",
]

Floats = npt.NDArray[np.float64]


class FitError(ValueError):
    """The data cannot give the fit (too few seeds, or units never apart)."""


def logit_fit(x: Floats, y: Floats, iterations: int = 50) -> tuple[Floats, Floats]:
    """Fractional logistic regression of ``y`` in [0, 1] on the columns of ``x`` (no
    intercept unless a column of ones is given): the coefficients and their robust
    (sandwich) covariance. Newton's method from 0."""
    n, k = x.shape
    if n <= k:
        raise FitError(f"{n} seeds for {k} coefficients")
    beta = np.zeros(k)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(x @ beta)))
        w = p * (1 - p)
        h = (x * w[:, None]).T @ x
        g = x.T @ (y - p)
        try:
            step = np.linalg.solve(h, g)
        except np.linalg.LinAlgError:
            raise FitError("the design is singular (a unit never varies between lists)") from None
        beta = beta + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    p = 1 / (1 + np.exp(-(x @ beta)))
    h = (x * (p * (1 - p))[:, None]).T @ x
    if np.linalg.cond(h) > 1e12:
        raise FitError("the design is singular (a unit never varies between lists)")
    bread = np.linalg.inv(h)
    meat = (x * ((y - p) ** 2)[:, None]).T @ x
    return beta, bread @ meat @ bread * n / (n - k)


@dataclass(frozen=True)
class UnitValue:
    """One unit's value in points with its 95% interval, against its cost."""

    name: str
    cost: float
    value: float
    low: float
    high: float
    usage: float  # mean copies per list

    @property
    def flagged(self) -> bool:
        """The interval excludes the cost: the cost is off by more than its interval."""
        return not self.low <= self.cost <= self.high

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.name,
            "cost": self.cost,
            "value": round(self.value, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
            "usage": round(self.usage, 4),
            "flagged": self.flagged,
        }


def fit_unit_values(
    names: Sequence[str],
    costs: Any,
    counts_a: Any,
    counts_b: Any,
    scores: Any,
) -> list[UnitValue]:
    """Each unit's value in points from seeds of two lists: ``counts_a[i, u]`` copies of unit
    ``u`` in seed ``i``'s list A (likewise B), ``scores[i]`` army A's seed score."""
    a = np.asarray(counts_a, dtype=float)
    b = np.asarray(counts_b, dtype=float)
    y = np.asarray(scores, dtype=float)
    c = np.asarray(costs, dtype=float)
    beta, cov = logit_fit(a - b, y)
    w = (a.sum(axis=0) + b.sum(axis=0)) / (2 * len(y))
    scale = float(w @ c)  # points of the mean list
    strength = float(w @ beta)  # logits of the mean list
    if not strength > 0:
        raise FitError("the units' fitted strengths do not add up to a positive total")
    values = beta * scale / strength
    # d v_u / d beta_j = scale * (delta_uj / strength - beta_u w_j / strength^2)
    jac = scale * (np.eye(len(beta)) / strength - np.outer(beta, w) / strength**2)
    se = np.sqrt(np.maximum(np.diag(jac @ cov @ jac.T), 0.0))
    return [
        UnitValue(n, float(c[u]), float(values[u]), float(values[u] - Z95 * se[u]),
                  float(values[u] + Z95 * se[u]), float(w[u]))
        for u, n in enumerate(names)
    ]  # fmt: skip


@dataclass(frozen=True)
class Handicap:
    """The points added to army A's limit at which its score is 50%, with its 95% interval,
    and the fitted slope (logit per point)."""

    points: float
    low: float
    high: float
    slope: float
    seeds: int

    def to_json(self) -> dict[str, Any]:
        """JSON numbers; ``None`` for an unbounded end (the slope is not clearly positive)."""
        return {
            "points": _finite(self.points),
            "low": _finite(self.low),
            "high": _finite(self.high),
            "slope": round(self.slope, 6),
            "seeds": self.seeds,
        }


def _finite(x: float) -> float | None:
    return round(x, 3) if math.isfinite(x) else None


def fit_handicap(deltas: Any, scores: Any) -> Handicap:
    """``delta*`` where ``sigma(a + b delta) = 1/2`` over seeds played at ``deltas`` with
    ``scores``; a delta-method interval (infinite when the slope is not clearly positive)."""
    d = np.asarray(deltas, dtype=float)
    y = np.asarray(scores, dtype=float)
    if len(set(d.tolist())) < 2:
        raise FitError("the seeds were played at fewer than two handicaps")
    x = np.column_stack([np.ones_like(d), d])
    (a, b), cov = logit_fit(x, y)
    if not b > 0:
        return Handicap(math.nan, -math.inf, math.inf, float(b), len(y))
    star = -a / b
    grad = np.array([-1 / b, a / b**2])
    se = math.sqrt(max(float(grad @ cov @ grad), 0.0))
    if Z95 * math.sqrt(cov[1, 1]) >= b:  # the slope's own interval reaches 0
        return Handicap(float(star), -math.inf, math.inf, float(b), len(y))
    return Handicap(float(star), float(star - Z95 * se), float(star + Z95 * se), float(b), len(y))


def bisect_next(low: float, high: float, results: Sequence[tuple[float, float]]) -> float:
    """The next handicap to play: replay the bisection over ``results`` (each step's
    handicap and its mean score, in order) and give the midpoint of what is left (rounded to
    whole points: lists are drawn at whole points)."""
    lo, hi = low, high
    for delta, score in results:
        if score > 0.5:
            hi = delta
        else:
            lo = delta
    return float(round((lo + hi) / 2))


def batch_steps(
    batch: int, seeds: Mapping[int, tuple[float, int]], below: int
) -> list[tuple[float, float]]:
    """The handicap search's steps: each batch of ``batch`` seeds (index under ``below``) with
    its handicap and army A's mean seed score; ``seeds``: seed index -> (score, handicap)."""
    batches: dict[int, list[tuple[int, float]]] = {}
    for i, (score, handicap) in sorted(seeds.items()):
        if i < below:
            batches.setdefault(i // batch, []).append((handicap, score))
    return [
        (float(rows[0][0]), sum(r[1] for r in rows) / len(rows))
        for _, rows in sorted(batches.items())
    ]
