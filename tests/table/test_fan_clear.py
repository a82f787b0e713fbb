"""The C kernel's whole fan test (``fan_clear``) gives the numpy fan test's booleans.

The path search's sight lines (:meth:`NavGraph._fan`) are clear when they cross no blocker
edge and none of their three sample points lies inside a blocker (the 1" spacing "throughout
the movement path": seed 002 "Movement"). The kernel does both in one call; it must give
exactly the answers of numpy's crossing test, sample points and inside test, or a seed would
play another game with the kernel built: checked on fans like the search's (from blocker
corners to the other corners, lines ending on corners and running along edges), on random
points round octagon blockers (some nudged to the edges) and through the search itself.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table import kernels
from oprlab.table.blockers import Blockers, _octagon_hull, blockers_for, crossed_from_numpy
from oprlab.table.deploy import mission_table
from oprlab.table.formation import formation
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.navgraph import _SAMPLE_COL, _SAMPLES
from oprlab.table.paths import find_path, nav_graph

compiled = pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")


def _numpy_fan(bl: Blockers, a: FloatArray, b: FloatArray) -> list[bool]:
    """The fan test as numpy makes it (NavGraph._fan without the kernel, no terrain)."""
    p, q = bl.corners, bl.ends
    ok = ~crossed_from_numpy(a, b, p, q)
    idx = ok.nonzero()[0]
    if len(idx):
        samples = (a + (b[idx] - a)[:, None, :] * _SAMPLE_COL).reshape(-1, 2)
        inside = bl.contains_numpy(samples)
        ok[idx[np.logical_or.reduce(inside.reshape(-1, len(_SAMPLES)), axis=1)]] = False
    return [bool(v) for v in ok]


def _kernel_fan(bl: Blockers, a: FloatArray, b: FloatArray) -> list[bool]:
    got = bl.fan_clear(a, b, bl.corners, bl.ends)
    assert got is not None
    return [bool(v) for v in got]


@compiled
def test_fan_clear_on_the_searchs_kind_of_fan() -> None:
    """Fans from blocker corners to every corner and to random points, among octagons and
    hulls of several models (overlapping or not), as a game's units give them."""
    rng = np.random.default_rng(29)
    checked = 0
    for _ in range(300):
        units = []
        for _ in range(int(rng.integers(1, 10))):
            n = int(rng.integers(1, 8))
            centre = (float(rng.uniform(2, 46)), float(rng.uniform(2, 46)))
            units.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
        bl = blockers_for(units, float(rng.choice([0.5, 0.63, 0.79])))
        if not len(bl):
            continue
        for a in bl.corners[rng.choice(len(bl.corners), 3)]:
            b = np.concatenate([bl.corners, rng.uniform(0.0, 48.0, (8, 2))])
            assert _kernel_fan(bl, a, b) == _numpy_fan(bl, a, b)
            checked += 1
    assert checked > 500


@st.composite
def fans(draw: st.DrawFn) -> tuple[Blockers, FloatArray, FloatArray]:
    """Octagons and a fan from a corner, an edge's midpoint or any point to corners, edge
    midpoints and points nudged off them by a few ulps or 1e-9 (the inside test's bound)."""
    n = draw(st.integers(1, 6))
    xy = st.floats(-12.0, 12.0, allow_nan=False)
    polys = [_octagon_hull(draw(xy), draw(xy), draw(st.floats(0.02, 6.0))) for _ in range(n)]
    bl = Blockers(polys)
    mids = (bl.corners + bl.ends) / 2
    pool = np.concatenate([bl.corners, mids])
    nudge = draw(st.sampled_from([0.0, 1e-9, -1e-9, 2e-9, 5e-16]))
    k = draw(st.integers(0, 20))
    pick = draw(st.lists(st.integers(0, len(pool) - 1), min_size=k, max_size=k))
    b = pool[pick] + nudge
    a = (
        pool[draw(st.integers(0, len(pool) - 1))]
        if draw(st.booleans())
        else np.array([draw(xy), draw(xy)])
    )
    return bl, a, b


@compiled
@settings(max_examples=400)
@given(fans())
def test_fan_clear_gives_numpys_booleans(case: tuple[Blockers, FloatArray, FloatArray]) -> None:
    bl, a, b = case
    assert _kernel_fan(bl, a, b) == _numpy_fan(bl, a, b)


@compiled
def test_fan_clear_takes_strided_arrays_and_no_lines() -> None:
    """A strided fan is copied as the kernel reads it; a fan of no lines answers nothing;
    blockers of no polygon leave the test to numpy."""
    bl = Blockers([_octagon_hull(5.0, 5.0, 1.0)])
    wide = np.array([[0.0, 5.0, 9.0], [10.0, 5.0, 9.0], [0.0, 0.0, 9.0]])
    b = wide[:, :2]
    assert not b.flags.c_contiguous
    assert _kernel_fan(bl, np.array([0.0, 5.1]), b) == [True, False, True]
    assert _kernel_fan(bl, np.zeros(2), np.zeros((0, 2))) == []
    assert Blockers().fan_clear(np.zeros(2), b, bl.corners, bl.ends) is None


def test_paths_among_units_are_the_same_with_the_whole_tests() -> None:
    """The path search gives the same paths whichever way its lines are tested (the kernel's
    whole tests where built, numpy's otherwise)."""
    rng = np.random.default_rng(7)
    table = Table()
    nav = nav_graph(table, 0.5)
    for _ in range(20):
        units = []
        for _ in range(int(rng.integers(3, 9))):
            n = int(rng.integers(1, 6))
            centre = (float(rng.uniform(6, 42)), float(rng.uniform(6, 42)))
            units.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
        bl = blockers_for(units, 0.5)
        plain = _plain(bl)
        for _ in range(5):
            s, g = tuple(rng.uniform(1, 47, 2)), tuple(rng.uniform(1, 47, 2))
            assert find_path(nav, s, g, bl) == find_path(nav, s, g, plain)


def _plain(bl: Blockers) -> Blockers:
    """The same blockers with the kernel's whole tests switched off (numpy's way)."""
    plain = Blockers(list(bl.polygons))
    plain.fan_clear = lambda *args: None  # type: ignore[method-assign]
    plain.straight_clear = lambda *args: None  # type: ignore[method-assign]
    return plain


@compiled
def test_straight_and_segments_give_numpys_booleans() -> None:
    """NavGraph.straight (ends free, sample points, crossings) and NavGraph.clear of segments
    each from its own start, on an open table among units: the kernel's whole tests give
    numpy's answers, for ends on blocker corners and edges, off the table and anywhere."""
    rng = np.random.default_rng(31)
    table = Table()
    checked = 0
    for _ in range(200):
        units = []
        for _ in range(int(rng.integers(1, 9))):
            n = int(rng.integers(1, 8))
            centre = (float(rng.uniform(2, 46)), float(rng.uniform(2, 46)))
            units.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
        radius = float(rng.choice([0.5, 0.63, 0.79]))
        nav = nav_graph(table, radius)
        bl = blockers_for(units, radius)
        if not len(bl):
            continue
        plain = _plain(bl)
        mids = (bl.corners + bl.ends) / 2
        pool = np.concatenate([bl.corners, mids, rng.uniform(-1.0, 49.0, (20, 2))])
        a = pool[rng.integers(0, len(pool), 30)]
        b = pool[rng.integers(0, len(pool), 30)]
        a[:3] = b[:3]  # segments of no length
        got = [x.tolist() for x in nav.straight(a, b, bl)]
        assert got == [x.tolist() for x in nav.straight(a, b, plain)]
        for static in (True, False):
            want = nav.clear(a, b, plain, static=static).tolist()
            assert nav.clear(a, b, bl, static=static).tolist() == want
        checked += 1
    assert checked > 150


@compiled
def test_lines_among_units_and_terrain_give_numpys_booleans() -> None:
    """On tables with terrain the kernel tests the crossings (terrain edges included) and the
    blockers, shapely then the sample points of the lines still clear: fans and segments each
    from its own start give numpy's answers, ends on blocker and terrain corners included,
    and whole path searches give the same paths."""
    rng = np.random.default_rng(32)
    checked = 0
    for seed in range(1, 9):
        table = mission_table(seed)
        for _ in range(12):
            units = []
            for _ in range(int(rng.integers(1, 9))):
                n = int(rng.integers(1, 8))
                centre = (float(rng.uniform(2, 46)), float(rng.uniform(2, 46)))
                units.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
            radius = float(rng.choice([0.5, 0.63, 0.79]))
            nav = nav_graph(table, radius)
            bl = blockers_for(units, radius)
            if not len(bl) or nav.geom is None:
                continue
            plain = _plain(bl)
            pool = np.concatenate([bl.corners, nav.verts, rng.uniform(-1.0, 49.0, (30, 2))])
            a = pool[rng.integers(0, len(pool), 40)]
            b = pool[rng.integers(0, len(pool), 40)]
            for static in (True, False):
                want = nav.clear(a, b, plain, static=static).tolist()
                assert nav.clear(a, b, bl, static=static).tolist() == want
                for start in a[:5]:
                    want = nav.clear(start, b, plain, static=static).tolist()
                    assert nav.clear(start, b, bl, static=static).tolist() == want
            for _ in range(3):
                s, g = tuple(rng.uniform(1, 47, 2)), tuple(rng.uniform(1, 47, 2))
                assert find_path(nav, s, g, bl) == find_path(nav, s, g, plain)
            checked += 1
    assert checked > 50
