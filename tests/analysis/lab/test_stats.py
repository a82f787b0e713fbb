"""The lab's statistics against known cases: simulated Bernoulli pairs with a known effect."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from oprlab.analysis.lab.stats import (
    bootstrap_sd,
    paired_effect,
    paired_t,
    sprt,
    t_quantile,
    welch,
)

#: Replications of each simulated experiment; the coverage estimate then has a standard error
#: of sqrt(0.95 * 0.05 / 4000) = 0.0034, and the tolerance below is about 4 of them.
REPS = 4000
TOLERANCE = 0.015


def _pairs(
    rng: np.random.Generator, n: int, p_base: float, p_var: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Seed scores of a baseline and a variant cell under common random numbers: each seed is
    two seats, each seat one uniform number shared by both cells (win if below p)."""
    u = rng.random((REPS, n, 2))
    base = (u < p_base).mean(axis=-1)
    var = (u < p_var).mean(axis=-1)
    return var, base


def test_t_quantile_matches_tables() -> None:
    """Student t 97.5% quantiles from printed tables: 4.303 (2), 2.571 (5), 2.228 (10),
    2.0096 (49), 1.984 (100)."""
    cases = ((2, 4.303, 1e-9), (5, 2.571, 0.005), (10, 2.228, 0.002), (49, 2.0096, 0.0005))
    for df, want, tol in cases:
        assert abs(t_quantile(df) - want) < tol
    assert abs(t_quantile(100) - 1.984) < 0.0005


def test_paired_interval_covers_the_known_effect_at_95_percent() -> None:
    """Bernoulli pairs with p 0.5 and 0.6 (effect 0.1): the paired t interval on 60 seeds
    covers 0.1 in 95% of experiments (within the tolerance). Welch's interval ignores the
    positive correlation of the pairs, so it over-covers: valid, but wide."""
    rng = np.random.default_rng(2026)
    var, base = _pairs(rng, 60, 0.5, 0.6)
    _, lo, hi = paired_t(var - base)
    covered = np.mean((lo <= 0.1) & (hi >= 0.1))
    assert abs(covered - 0.95) < TOLERANCE
    _, ulo, uhi = welch(var, base)
    assert np.mean((ulo <= 0.1) & (uhi >= 0.1)) > 0.95 - TOLERANCE
    # Common random numbers make the paired interval far narrower on the same games.
    assert np.mean(hi - lo) < 0.5 * np.mean(uhi - ulo)


def test_paired_interval_covers_with_independent_cells_too() -> None:
    """Without common random numbers (independent uniforms per cell) the coverage still holds;
    pairing then buys nothing much, and Welch's interval covers at the stated rate too."""
    rng = np.random.default_rng(7)
    n = 40
    base = (rng.random((REPS, n, 2)) < 0.3).mean(axis=-1)
    var = (rng.random((REPS, n, 2)) < 0.45).mean(axis=-1)
    _, lo, hi = paired_t(var - base)
    assert abs(np.mean((lo <= 0.15) & (hi >= 0.15)) - 0.95) < TOLERANCE
    _, ulo, uhi = welch(var, base)
    assert abs(np.mean((ulo <= 0.15) & (uhi >= 0.15)) - 0.95) < TOLERANCE


def test_paired_effect_by_hand() -> None:
    """Four seeds: differences 0.5, 0, 0.25, 0.25: mean 0.25, sd sqrt(1/24), t(3) = 3.182."""
    e = paired_effect([1.0, 0.5, 0.75, 0.5], [0.5, 0.5, 0.5, 0.25])
    assert abs(e.paired.estimate - 0.25) < 1e-12
    half = 3.182 * np.sqrt(1 / 24) / 2
    assert abs(e.paired.high - 0.25 - half) < 0.01 * half + 0.002
    assert e.unpaired.estimate == e.paired.estimate
    assert e.paired.width < e.unpaired.width and 0 < e.narrowing < 1


def test_sprt_error_rates_by_simulation() -> None:
    """The SPRT for "moves the score by at least d = 0.15" (alpha 0.05, beta 0.1), looking
    every 10 seeds up to 400: with no effect it says "moves" in at most about alpha of the
    experiments, with an effect of d it says "does not move" in at most about beta."""
    rng = np.random.default_rng(11)

    def run(p_var: float) -> tuple[float, float]:
        var, base = _pairs(rng, 400, 0.5, p_var)
        diffs = var[:1000] - base[:1000]
        verdict = np.zeros(len(diffs))
        for n in range(10, 401, 10):
            _, code = sprt(diffs[:, :n], 0.15, 0.05, 0.1)
            verdict = np.where(verdict == 0, code, verdict)
        return float(np.mean(verdict == 1)), float(np.mean(verdict == -1))

    moves, _ = run(0.5)
    assert moves <= 0.05 + 0.02
    _, misses = run(0.65)
    assert misses <= 0.1 + 0.03


def test_sprt_one_experiment() -> None:
    """A clear effect is called; a null one is not called an effect."""
    assert sprt([0.5] * 30 + [0.25] * 30, 0.1, 0.05, 0.1).verdict == "moves"
    assert sprt([0.0, 0.25, -0.25] * 40, 0.1, 0.05, 0.1).verdict == "does not move"


def test_bootstrap_sd_is_seeded() -> None:
    x = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    a = bootstrap_sd(x, np.random.default_rng(1))
    b = bootstrap_sd(x, np.random.default_rng(1))
    assert a == b and a.low <= a.estimate <= a.high
    assert abs(a.estimate - np.std(x, ddof=1)) < 1e-12
