"""The charger's step back after combat (seed 003 "After Combat": chargers move back to be 1"
apart, if they can): every direction's shortest step worked out in one numpy pass must be the
step each direction alone gives, to the bit, over many random melees."""

from __future__ import annotations

import math

import numpy as np

from oprlab.table import planar
from oprlab.table.model import FloatArray
from oprlab.table.separation import _BACK_DEGREES, _steps_back


def _one_step_back(
    starts: FloatArray,
    radii: FloatArray,
    dc: FloatArray,
    dr: FloatArray,
    u: FloatArray,
    gap: float,
) -> float | None:
    """The shortest step along one direction, as the step back was worked out before: each
    pair rules out an open interval of steps; the least of 0 and the ends above 0 that none
    holds."""
    w = starts[:, None, :] - dc[None, :, :]
    reach = radii[:, None] + dr[None, :] + gap
    wu = planar.dot2(w, u)
    disc = wu**2 - (w**2).sum(axis=-1) + reach**2
    inside = disc > 0
    lo = (-wu - np.sqrt(np.where(inside, disc, 0)))[inside]
    hi = (-wu + np.sqrt(np.where(inside, disc, 0)))[inside]
    for t in sorted([0.0, *[float(h) for h in hi if h > 0]]):
        if not ((lo < t - 1e-12) & (t < hi - 1e-12)).any():
            return t
    return None


def test_steps_back_match_one_direction_at_a_time() -> None:
    rng = np.random.default_rng(2026)
    stepped = 0
    for _ in range(400):
        n, d = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        starts = rng.uniform(0, 8, (n, 2))
        dc = rng.uniform(0, 8, (d, 2))
        radii = rng.choice([0.5, 0.8, 1.25], n)
        dr = rng.choice([0.5, 0.8, 1.25], d)
        base = float(rng.uniform(-math.pi, math.pi))
        angles = [base + math.radians(a) for a in _BACK_DEGREES]
        dirs = np.array([[math.cos(a), math.sin(a)] for a in angles])
        gap = 1.0 + 2e-6
        got = _steps_back(starts, radii, dc, dr, dirs, gap)
        for k, u in enumerate(dirs):
            want = _one_step_back(starts, radii, dc, dr, u, gap)
            if want is None:
                assert got[k] == math.inf
            else:
                assert float(got[k]) == want
                stepped += want > 0
    assert stepped > 100  # most melees need a real step back
