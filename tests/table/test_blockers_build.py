"""The blockers' build (issue 13, spd20) gives what the plain build gave, bit for bit.

A unit of one model is an octagon whose hull is its eight corners in a known order (no sort, no
chains), read in Python floats; a set of polygons is laid out by a layout kept by the polygons'
sizes. Each is checked against the plain formulation it replaced, written out here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table import blockers, kernels
from oprlab.table.blockers import (
    _OCTAGON,
    Blockers,
    _convex_hull,
    _lone_polygons,
    _octagon_hull,
    _unit_polygons,
    blockers_for,
)
from oprlab.table.formation import CLEARANCE
from oprlab.table.model import FloatArray, Placement


def _plain_octagon(c: FloatArray, r: FloatArray, radius: float, gap: float) -> FloatArray:
    """One unit's hull as :func:`blockers._unit_polygons` made it for any number of models."""
    reach = radius + r + gap + CLEARANCE
    return _convex_hull(
        (c[:, None, :] + reach[:, None, None] * _OCTAGON[None, :, :]).reshape(-1, 2)
    )


def test_one_models_octagon_is_the_monotone_chains_hull() -> None:
    """Random spots, base sizes and gaps (whole inches too, where corners share an x): the
    same corners in the same order as the chain over the eight corners, from numpy's array
    arithmetic or from Python floats (a wrong order or a sum taken in another order fails)."""
    rng = np.random.default_rng(20)
    for k in range(20_000):
        c = rng.uniform(-2.0, 50.0, size=(1, 2))
        if k % 3 == 0:
            c = np.round(c, int(rng.integers(0, 3)))
        r = rng.uniform(0.1, 2.5, size=1)
        radius, gap = float(rng.uniform(0.1, 2.5)), float(rng.choice([0.0, 1.0, 9.0]))
        plain = _plain_octagon(c, r, radius, gap)
        (fast,) = _unit_polygons(False, c, r, radius, gap)
        assert fast.tobytes() == plain.tobytes()
        lone = _lone_polygons(Placement(c, r), radius, gap)
        assert lone is not None
        assert lone[0].tobytes() == plain.tobytes()
    assert (
        _lone_polygons(
            Placement(np.array([[1.0, 2.0]]), np.array([0.5]), removed=np.array([True])), 0.5, 1.0
        )
        == []
    )


def test_octagon_corners_start_leftmost_and_turn_counter_clockwise() -> None:
    got = _octagon_hull(10.0, 20.0, 2.0)
    assert got.shape == (8, 2)
    assert int(np.argmin(got[:, 0])) == 0
    turns = [
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
        for a, b, c in zip(got, np.roll(got, -1, axis=0), np.roll(got, -2, axis=0), strict=True)
    ]
    assert min(turns) > 0


def _plain_rows(polygons: list[FloatArray]) -> tuple[FloatArray, ...]:
    """:class:`Blockers`' half-planes, corners and edge ends as the plain build made them."""
    k = max((len(p) for p in polygons), default=0)
    b = len(polygons)
    nx, ny, d = np.zeros((b, k)), np.zeros((b, k)), np.full((b, k), -1.0)
    corners, ends = [], []
    for i, p in enumerate(polygons):
        for j in range(len(p)):
            e = p[(j + 1) % len(p)] - p[j]
            nx[i, j] = -e[1]
            ny[i, j] = e[0]
            d[i, j] = -e[1] * p[j, 0] + e[0] * p[j, 1]
            corners.append(p[j])
            ends.append(p[(j + 1) % len(p)])
    shape = (len(corners), 2)
    return nx, ny, d, np.reshape(corners, shape), np.reshape(ends, shape)


def test_blockers_laid_out_by_sizes_equal_the_plain_build() -> None:
    """Sets of polygons of every mix of sizes, each size pattern met again with other corners
    (the kept layout reused) and in another order: the same half-planes, corners and edges,
    and the same points inside."""
    rng = np.random.default_rng(7)
    blockers._LAYOUTS.clear()
    patterns = [(8,), (8, 8), (8, 12, 8), (12, 8, 8), (3, 16), (16, 3), (8, 8, 8, 8, 20), ()]
    points = rng.uniform(0.0, 48.0, size=(300, 2))
    for _ in range(3):
        for sizes in patterns:
            polys = []
            for n in sizes:
                centre, radius = rng.uniform(5.0, 43.0, size=2), rng.uniform(1.0, 6.0)
                turn = np.sort(rng.uniform(0.0, 2 * math.pi, size=n))
                polys.append(centre + radius * np.stack([np.cos(turn), np.sin(turn)], axis=1))
            made = Blockers(polys)
            for got, want in zip(
                (made.nx, made.ny, made.d, made.corners, made.ends), _plain_rows(polys), strict=True
            ):
                assert got.shape == want.shape
                assert got.tobytes() == want.tobytes()
            inside = np.zeros(len(points), dtype=np.bool_)
            for p in polys:
                e = np.roll(p, -1, axis=0) - p
                side = -e[:, 1] * (points[:, 0, None] - p[:, 0]) + e[:, 0] * (
                    points[:, 1, None] - p[:, 1]
                )
                inside |= (side > 1e-6).all(axis=1)
            assert (made.contains(points) | ~inside).all()
    assert len(blockers._LAYOUTS) == len(patterns)


def test_a_lone_models_blocker_follows_its_removal() -> None:
    """The one-model path keeps the unit's removal in its key: a removed model blocks nothing."""
    hero = Placement(np.array([[24.0, 24.0]]), np.array([0.5]))
    mover = Placement(np.array([[10.0, 10.0]]), np.array([0.5]))
    assert len(blockers_for([hero, mover], 0.5, skip=mover)) == 1
    hero.removed[0] = True
    assert len(blockers_for([hero, mover], 0.5, skip=mover)) == 0


def _same(a: float, b: float) -> bool:
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_round9_is_pythons_round(seed: int) -> None:
    """A hull's corners are rounded to 1e-9 in a few numpy calls (:func:`blockers.round9`):
    every value as Python's ``round(v, 9)`` gives it, halfway cases, values already on the
    grid, signed zeros and far values included."""
    rng = np.random.default_rng(seed)
    scale = float(rng.choice([1.0, 48.0, 1e3, 1e6]))
    v = rng.uniform(-scale, scale, 400)
    v[:40] = (rng.integers(-(10**9), 10**9, 40) * scale + 0.5) / 1e9  # halfway, or near it
    v[40:80] = np.round(v[40:80], 9)
    v[80:90] = [0.0, -0.0, 1e-12, -1e-12, 5e-10, -5e-10, 1.5e-9, 2.5e-9, 47.9999999995, 1e200]
    got = blockers.round9(v)
    assert all(_same(a, round(b, 9)) for a, b in zip(got, v.tolist(), strict=True))


@pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")
@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_kernels_hull_is_the_python_chains(seed: int) -> None:
    """Units' hulls (models' octagons, overlapping, in lines and clumps, some collinear or
    repeated points) from the kernel's chains are the Python chains' to the bit."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    c = rng.uniform(2, 46, (n, 2))
    if rng.random() < 0.3:  # a line of models: many collinear corners
        c = c[0] + np.outer(np.arange(n), rng.uniform(-1, 1, 2))
    r = np.full(n, float(rng.choice([0.5, 0.63, 1.2])))
    pts = (c[:, None, :] + (0.5 + r + 1.0)[:, None, None] * _OCTAGON[None, :, :]).reshape(-1, 2)
    if rng.random() < 0.3:
        pts = np.concatenate((pts, pts[: len(pts) // 2], np.round(pts * 4) / 4))
    got = _convex_hull(pts)
    saved = blockers._COMPILED
    try:
        blockers._COMPILED = None
        want = _convex_hull(pts)
    finally:
        blockers._COMPILED = saved
    assert got.tobytes() == want.tobytes() and got.shape == want.shape
