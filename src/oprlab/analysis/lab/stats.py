"""The lab's statistics: scores per seed, paired effects with intervals, the SPRT. numpy only.

The unit of the paired design is a *seed*: its score for army A is the mean of its two seats
(each army on each side, so first-mover advantage cancels), a number in {0, 1/4, ..., 1}. A
factor's effect is the mean over seeds of (variant cell's seed score - baseline cell's seed
score), with a **paired t interval** (Student t, quantile by a Cornish-Fisher expansion; the
seed scores are bounded, so the central limit theorem holds well from a few dozen seeds). The
same seeds' scores treated as two independent samples give the **unpaired (Welch) interval**;
the ratio of the two widths is what pairing bought. tests/analysis/lab/test_stats.py checks the
coverage of both on simulated Bernoulli pairs with a known effect.

No I/O; vectorised where tests need thousands of replications.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "Z95",
    "Effect",
    "MeanInterval",
    "Sprt",
    "bootstrap_sd",
    "bootstrap_sd_counts",
    "hist_interval",
    "hist_moments",
    "mean_interval",
    "paired_effect",
    "paired_effect_counts",
    "paired_t",
    "sd_change_counts",
    "sprt",
    "sprt_counts",
    "t_quantile",
    "welch",
]

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: The least variance of seed differences the SPRT assumes (a run of identical seeds would
#: otherwise make any difference look certain).
SPRT_MIN_VARIANCE = 0.01

Floats = npt.NDArray[np.float64]


#: Exact two-sided 95% t quantiles for 1 to 4 degrees of freedom, where the expansion is poor.
_T95_SMALL = (12.706, 4.303, 3.182, 2.776)


def t_quantile(df: Any, z: float = Z95) -> Any:
    """The Student t quantile matching normal quantile ``z`` with ``df`` degrees of freedom:
    a Cornish-Fisher expansion to 1/df^3 (2.5678 at 5 against 2.5706, 2.2281 at 10, within
    0.2% from 5 on); for ``z`` = :data:`Z95` and ``df`` under 5, the printed table."""
    v = np.maximum(np.asarray(df, dtype=float), 1.0)
    z2 = z * z
    t = (
        z
        + (z2 * z + z) / (4 * v)
        + (5 * z**5 + 16 * z2 * z + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z2 * z - 15 * z) / (384 * v**3)
    )
    if z == Z95:
        small = np.asarray(_T95_SMALL)[np.clip(np.round(v).astype(int), 1, 4) - 1]
        t = np.where(v < 4.5, small, t)
    return float(t) if np.ndim(t) == 0 else t


@dataclass(frozen=True)
class MeanInterval:
    """A mean with its 95% interval and the number of values behind it."""

    estimate: float
    low: float
    high: float
    n: int

    @property
    def width(self) -> float:
        return self.high - self.low

    def to_json(self) -> dict[str, float | int]:
        return {
            "estimate": _r(self.estimate),
            "low": _r(self.low),
            "high": _r(self.high),
            "width": _r(self.width),
            "n": self.n,
        }


def _r(x: float) -> float:
    return round(float(x), 6)


def paired_t(d: Floats) -> tuple[Floats, Floats, Floats]:
    """Mean and 95% t interval of the last axis of ``d`` (vectorised: one per row)."""
    n = d.shape[-1]
    mean = d.mean(axis=-1)
    sd = d.std(axis=-1, ddof=1) if n > 1 else np.zeros_like(mean)
    half = t_quantile(max(n - 1, 1)) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def welch(x: Floats, y: Floats) -> tuple[Floats, Floats, Floats]:
    """Mean of ``x - y`` and its 95% Welch interval, ``x`` and ``y`` as independent samples
    (last axis; vectorised)."""
    nx, ny = x.shape[-1], y.shape[-1]
    vx = x.var(axis=-1, ddof=1) / nx
    vy = y.var(axis=-1, ddof=1) / ny
    se2 = vx + vy
    with np.errstate(divide="ignore", invalid="ignore"):
        df = se2**2 / (vx**2 / max(nx - 1, 1) + vy**2 / max(ny - 1, 1))
    df = np.where(np.isfinite(df) & (df >= 1), df, max(min(nx, ny) - 1, 1))
    diff = x.mean(axis=-1) - y.mean(axis=-1)
    half = t_quantile(df) * np.sqrt(se2)
    return diff, diff - half, diff + half


def mean_interval(values: Sequence[float]) -> MeanInterval:
    """The mean of ``values`` with its 95% t interval (bounded to [min, max] possible is left
    to the caller: scores stay in [0, 1] in practice once n is a few dozen)."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        return MeanInterval(math.nan, math.nan, math.nan, 0)
    m, lo, hi = paired_t(x)
    return MeanInterval(float(m), float(lo), float(hi), int(x.size))


@dataclass(frozen=True)
class Effect:
    """A variant's effect against the baseline on the same seeds, two ways."""

    paired: MeanInterval
    unpaired: MeanInterval

    @property
    def narrowing(self) -> float:
        """How much narrower the paired interval is: 1 - paired width / unpaired width."""
        if not self.unpaired.width or math.isnan(self.unpaired.width):
            return math.nan
        return 1.0 - self.paired.width / self.unpaired.width

    def to_json(self) -> dict[str, Any]:
        return {
            "paired": self.paired.to_json(),
            "unpaired": self.unpaired.to_json(),
            "narrowing": None if math.isnan(self.narrowing) else _r(self.narrowing),
        }


def paired_effect(variant: Sequence[float], baseline: Sequence[float]) -> Effect:
    """The effect ``variant - baseline`` over the same seeds (equal lengths, seed-aligned)."""
    v = np.asarray(variant, dtype=float)
    b = np.asarray(baseline, dtype=float)
    if v.shape != b.shape:
        raise ValueError("paired values need the same seeds")
    n = int(v.size)
    if n < 2:
        nan = MeanInterval(math.nan, math.nan, math.nan, n)
        return Effect(nan, nan)
    m, lo, hi = paired_t(v - b)
    um, ulo, uhi = welch(v, b)
    return Effect(
        MeanInterval(float(m), float(lo), float(hi), n),
        MeanInterval(float(um), float(ulo), float(uhi), n),
    )


def bootstrap_sd(
    values: Sequence[float], rng: np.random.Generator, resamples: int = 1000
) -> MeanInterval:
    """The standard deviation of ``values`` with a 95% percentile bootstrap interval (seeded)."""
    x = np.asarray(values, dtype=float)
    found, counts = np.unique(x, return_counts=True)
    return bootstrap_sd_counts(found, counts, rng, resamples)


def hist_moments(values: Any, counts: Any) -> tuple[int, float, float]:
    """``(n, mean, sd)`` of values taken ``counts`` times each (sd with ddof 1; 0 if n < 2)."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    n = int(c.sum())
    if n == 0:
        return 0, math.nan, math.nan
    mean = float(c @ v / n)
    var = float(c @ (v - mean) ** 2 / (n - 1)) if n > 1 else 0.0
    return n, mean, math.sqrt(var)


def hist_interval(values: Any, counts: Any) -> MeanInterval:
    """The mean of values taken ``counts`` times each, with its 95% t interval: the same as
    :func:`mean_interval` of the values written out, from their counts."""
    n, mean, sd = hist_moments(values, counts)
    if n == 0:
        return MeanInterval(math.nan, math.nan, math.nan, 0)
    half = t_quantile(max(n - 1, 1)) * sd / math.sqrt(n)
    return MeanInterval(mean, mean - half, mean + half, n)


def paired_effect_counts(pairs: Any, counts: Any) -> Effect:
    """:func:`paired_effect` from counts of (variant, baseline) seed-score pairs: the paired
    t interval on the differences and Welch's on the two margins."""
    p = np.asarray(pairs, dtype=float).reshape(-1, 2)
    c = np.asarray(counts, dtype=float)
    n = int(c.sum())
    if n < 2:
        nan = MeanInterval(math.nan, math.nan, math.nan, n)
        return Effect(nan, nan)
    paired = hist_interval(p[:, 0] - p[:, 1], c)
    _, mv, sv = hist_moments(p[:, 0], c)
    _, mb, sb = hist_moments(p[:, 1], c)
    vx, vy = sv * sv / n, sb * sb / n
    se2 = vx + vy
    df = se2**2 / (vx**2 / (n - 1) + vy**2 / (n - 1)) if vx or vy else math.nan
    df = df if math.isfinite(df) and df >= 1 else max(n - 1, 1)
    diff = mv - mb
    half = float(t_quantile(df)) * math.sqrt(se2)
    return Effect(paired, MeanInterval(diff, diff - half, diff + half, n))


def bootstrap_sd_counts(
    values: Any, counts: Any, rng: np.random.Generator, resamples: int = 1000
) -> MeanInterval:
    """:func:`bootstrap_sd` of values taken ``counts`` times each: a resample of n games is a
    draw of the counts (:func:`_resampled_sums`), so its cost grows with the distinct values,
    not the games."""
    v = np.asarray(values, dtype=float).reshape(-1, 1)
    c = np.asarray(counts, dtype=np.int64)
    n, _, sd = hist_moments(v[:, 0], c)
    if n < 2:
        return MeanInterval(math.nan, math.nan, math.nan, n)
    sds = _resampled_sd(_resampled_sums(_features(v, c), c, rng, resamples), n)
    lo, hi = np.quantile(sds, [0.025, 0.975])
    return MeanInterval(sd, float(lo), float(hi), n)


#: With more distinct values (or rows) than the first over more values than the second, a
#: resample's sums are drawn from their normal limit instead of a multinomial of the counts
#: (whose cost is distinct values x resamples).
MULTINOMIAL_MAX = (64, 5000)


def _features(rows: Any, counts: Any) -> Any:
    """Per distinct row (its values centred on the mean of all): their sum and sum of squares,
    what a resample's spread is made of."""
    c = np.asarray(counts, dtype=float)
    centre = float(c @ rows.sum(axis=1) / (c.sum() * rows.shape[1]))
    x = rows - centre
    return np.column_stack([x.sum(axis=1), (x * x).sum(axis=1)])


def _resampled_sums(features: Any, counts: Any, rng: np.random.Generator, resamples: int) -> Any:
    """The features summed over each of ``resamples`` bootstrap resamples of the n rows
    counted: a multinomial draw of the counts, exact; or, with many distinct rows over many
    rows (:data:`MULTINOMIAL_MAX`), the sums' normal limit (mean n mu, covariance n Sigma of
    one row's features), which a resample of thousands of rows is close to."""
    c = np.asarray(counts, dtype=np.int64)
    n = int(c.sum())
    p = c / n
    if len(c) <= MULTINOMIAL_MAX[0] or n <= MULTINOMIAL_MAX[1]:
        return rng.multinomial(n, p, size=resamples) @ features
    mu = p @ features
    cov = (features * p[:, None]).T @ features - np.outer(mu, mu)
    return rng.multivariate_normal(n * mu, n * cov, size=resamples, method="eigh")


def _resampled_sd(sums: Any, n_values: int) -> Any:
    """The sd (ddof 1) of ``n_values`` values from their (centred) sum and sum of squares."""
    s1, s2 = sums[:, 0], sums[:, 1]
    return np.sqrt(np.maximum(s2 - s1 * s1 / n_values, 0.0) / (n_values - 1))


def sd_change_counts(
    margins: Any, counts: Any, rng: np.random.Generator, resamples: int = 1000
) -> MeanInterval:
    """The change of the objective margin's spread, variant minus baseline, with a 95% paired
    bootstrap interval, from counts of seeds' four margins (variant seat 0, seat 1, baseline
    seat 0, seat 1): seeds are resampled with both seats in both cells."""
    m = np.asarray(margins, dtype=float).reshape(-1, 4)
    c = np.asarray(counts, dtype=np.int64)
    n = int(c.sum())
    if n < 2:
        return MeanInterval(math.nan, math.nan, math.nan, n)
    features = np.column_stack([_features(m[:, :2], c), _features(m[:, 2:], c)])
    whole = c[None, :] @ features
    estimate = float(_resampled_sd(whole[:, :2], 2 * n)[0] - _resampled_sd(whole[:, 2:], 2 * n)[0])
    sums = _resampled_sums(features, c, rng, resamples)
    diffs = _resampled_sd(sums[:, :2], 2 * n) - _resampled_sd(sums[:, 2:], 2 * n)
    lo, hi = np.quantile(diffs, [0.025, 0.975])
    return MeanInterval(estimate, float(lo), float(hi), n)


Verdict = Literal["moves", "does not move", "undecided"]


@dataclass(frozen=True)
class Sprt:
    """A sequential test's state: its log-likelihood ratio, bounds and verdict."""

    llr: float
    lower: float
    upper: float
    verdict: Verdict
    n: int

    def to_json(self) -> dict[str, Any]:
        return {
            "llr": _r(self.llr),
            "lower": _r(self.lower),
            "upper": _r(self.upper),
            "verdict": self.verdict,
            "seeds": self.n,
        }


def sprt(diffs: Any, d: float, alpha: float, beta: float) -> Any:
    """Wald's SPRT (the generalised, normal form engine testers use) of H0 "no effect"
    against H1 "the variant moves army A's score by at least ``d``, either way".

    Over ``n`` seed differences with mean ``m`` and variance ``s2`` (floored at
    :data:`SPRT_MIN_VARIANCE`), each direction's log-likelihood ratio of mean ``+-d`` against
    0 is ``n d (+-2m - d) / (2 s2)``. H1 is accepted when the larger reaches
    ``log((1 - beta) / (alpha / 2))``; H0 when both fall to ``log(beta / (1 - alpha / 2))``
    (alpha split over the two directions). The error rates are Wald's approximations, and the
    variance is estimated: tests check the rates by simulation. ``diffs`` may be a matrix
    (one test per row): then the LLRs and verdict codes (1 H1, -1 H0, 0 go on) come back.
    """
    x = np.asarray(diffs, dtype=float)
    n = x.shape[-1]
    m = x.mean(axis=-1)
    s2 = np.maximum(x.var(axis=-1, ddof=1) if n > 1 else SPRT_MIN_VARIANCE, SPRT_MIN_VARIANCE)
    llr = n * d * (2 * np.abs(m) - d) / (2 * s2)
    lower = math.log(beta / (1 - alpha / 2))
    upper = math.log((1 - beta) / (alpha / 2))
    code = np.where(llr >= upper, 1, np.where(llr <= lower, -1, 0))
    if x.ndim > 1:
        return llr, code
    verdict: Verdict = {1: "moves", -1: "does not move", 0: "undecided"}[int(code)]  # type: ignore[assignment]
    return Sprt(float(llr), lower, upper, verdict, int(n))


def sprt_counts(diffs: Any, counts: Any, d: float, alpha: float, beta: float) -> Sprt:
    """:func:`sprt` of seed differences taken ``counts`` times each."""
    n, m, sd = hist_moments(diffs, counts)
    s2 = max(sd * sd if n > 1 else SPRT_MIN_VARIANCE, SPRT_MIN_VARIANCE)
    llr = n * d * (2 * abs(m) - d) / (2 * s2)
    lower = math.log(beta / (1 - alpha / 2))
    upper = math.log((1 - beta) / (alpha / 2))
    verdict: Verdict = "moves" if llr >= upper else "does not move" if llr <= lower else "undecided"
    return Sprt(float(llr), lower, upper, verdict, n)
