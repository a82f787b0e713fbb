"""The table layer's speed-ups (issue 13) answer what the plain code answered, bit for bit.

Each fast path below is checked against the plain formulation it replaced, written out here:
the blockers' convex hull (now in plain Python floats), the neighbours of a moving unit (now one
concatenation for all units), the blockers' cache key (now the bytes of whole placements) and
A* answering from its first search (against the plain A* of ``test_movement_search``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table import blockers as blockers_module
from oprlab.table import escape, kernels, paths
from oprlab.table.blockers import (
    NO_BLOCKERS,
    Blockers,
    _convex_hull,
    blockers_for,
    crossed_from,
    crossings,
    crossings_from,
)
from oprlab.table.deploy import mission_table
from oprlab.table.formation import Neighbours, formation
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.paths import nav_graph
from tests.table.test_movement_search import _plain_astar


def _plain_hull(points: FloatArray) -> FloatArray:
    """Andrew's monotone chain over numpy rows, as the blockers built it before."""
    pts = sorted({(round(float(x), 9), round(float(y), 9)) for x, y in points})
    if len(pts) <= 2:
        return np.array(pts, dtype=np.float64)

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1], dtype=np.float64)


coords = st.floats(min_value=0.0, max_value=48.0, allow_nan=False, width=64)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(coords, coords), min_size=1, max_size=40), st.integers(0, 3))
def test_hull_equals_the_plain_monotone_chain(points: list[tuple[float, float]], dup: int) -> None:
    """Random clouds with repeated points: the same corners in the same order."""
    arr = np.array(points + points[:dup], dtype=np.float64)
    assert np.array_equal(_convex_hull(arr), _plain_hull(arr))


def test_hull_equals_the_plain_chain_on_turned_formations() -> None:
    """Ranks of bases (collinear rows, turned at odd angles): where round-off decides which
    middle corners survive, both chains must decide alike."""
    octagon = np.array([(np.cos(k * np.pi / 4), np.sin(k * np.pi / 4)) for k in range(8)])
    for k in range(60):
        heading = (np.cos(0.37 * k), np.sin(0.37 * k))
        c = formation(10 if k % 2 else 5, 0.5, (20.0 + 0.1 * k, 24.0), heading)
        pts = (c[:, None, :] + 2.01 * octagon[None, :, :]).reshape(-1, 2)
        assert np.array_equal(_convex_hull(pts), _plain_hull(pts))


def _plain_neighbours(
    others: list[Placement], exempt: list[Placement], gap: float, skip: Placement | None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    cs, rs, ns = [], [], []
    for o in others:
        if o is skip:
            continue
        keep = ~o.removed
        cs.append(o.centres[keep])
        rs.append(o.radii[keep])
        ns.append(np.full(int(keep.sum()), 0.0 if any(o is e for e in exempt) else gap))
    for e in exempt:
        if e is skip or any(e is o for o in others):
            continue
        keep = ~e.removed
        cs.append(e.centres[keep])
        rs.append(e.radii[keep])
        ns.append(np.zeros(int(keep.sum())))
    return np.concatenate(cs), np.concatenate(rs), np.concatenate(ns)


def _units() -> list[Placement]:
    units = []
    for i, n in enumerate((5, 3, 10, 1)):
        p = Placement(formation(n, 0.5 + 0.1 * i, (6.0 + 10 * i, 20.0)), np.full(n, 0.5 + 0.1 * i))
        p.removed[: i % 3] = True  # some models removed
        units.append(p)
    return units


def test_neighbours_equal_one_unit_at_a_time() -> None:
    """Removed models left out, exempt units at gap 0 (also when not among the others), the
    moving unit skipped: the same arrays as building them unit by unit."""
    units = _units()
    outside = Placement(formation(2, 0.5, (40.0, 40.0)), np.full(2, 0.5))
    cases = [
        (units, [], 1.0, None),
        (units, [units[2]], 1.0, units[0]),
        (units[1:], [outside, units[3]], 0.5, units[1]),
    ]
    for others, exempt, gap, skip in cases:
        got = Neighbours.of(others, exempt=exempt, gap=gap, skip=skip)
        want = _plain_neighbours(others, exempt, gap, skip)
        for a, b in zip((got.centres, got.radii, got.need), want, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b)


def test_blockers_follow_removed_models_and_skip_the_mover() -> None:
    """The blockers' cache key is the whole placement: removing a model gives the blockers of
    the models left; the skipped unit and a unit with no models left block nothing."""
    units = _units()
    before = blockers_for(units, 0.5, skip=units[0])
    units[2].removed[:] = True
    after = blockers_for(units, 0.5, skip=units[0])
    assert len(after) == len(before) - 1
    alone = blockers_for([units[1]], 0.5)
    assert len(alone) == 1 and any(np.array_equal(alone.polygons[0], p) for p in after.polygons)
    units[1].removed[1] = True
    fewer = blockers_for([units[1]], 0.5)
    assert not np.array_equal(fewer.polygons[0], alone.polygons[0])


def test_astar_without_the_second_search_finds_the_plain_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When every node outside the first search's ellipse is too far round to matter, A*
    answers from the first search alone: the plain search's path, point for point (checked on
    many units on an open table and a generated one, where the shortcut is taken often)."""
    searches: list[int] = []
    real = paths._graph_search

    def counted(*args: Any) -> Any:
        searches.append(1)
        return real(*args)

    monkeypatch.setattr(paths, "_graph_search", counted)
    skipped = 0
    for terrain in (None, 4):
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(23 if terrain is None else terrain)
        for _ in range(4):
            others = _random_units(rng, int(rng.integers(6, 12)))
            nav = nav_graph(table, 0.5)
            blockers = blockers_for(others, 0.5)
            for _ in range(5):
                s, g = rng.uniform(1, 47, 2), rng.uniform(1, 47, 2)
                searches.clear()
                got, found = paths._astar(nav, s, g, blockers)
                skipped += len(searches) == 1 and len(blockers.corners) > 24
                want, found_plain = _plain_astar(nav, s, g, blockers)
                assert found == found_plain
                assert np.array_equal(np.array(got), np.array(want))
    assert skipped >= 15


@pytest.mark.parametrize(("ellipse", "pad"), [(1.0, 0.0), (1.1, 4.0), (1.3, 4.0), (2.0, 8.0)])
def test_astar_finds_the_plain_path_whatever_the_first_ellipse(
    monkeypatch: pytest.MonkeyPatch, ellipse: float, pad: float
) -> None:
    """The first search's ellipse only decides how much A* measures, never its answer (the
    ellipse is tuned to what it costs): the plain search's path, point for point, with a
    narrow ellipse and a wide one, on an open table and a generated one."""
    monkeypatch.setattr(paths, "_ELLIPSE", ellipse)
    monkeypatch.setattr(paths, "_ELLIPSE_PAD", pad)
    for terrain in (None, 4):
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(31 if terrain is None else terrain)
        for _ in range(4):
            blockers = blockers_for(_random_units(rng, int(rng.integers(6, 12))), 0.5)
            nav = nav_graph(table, 0.5)
            for _ in range(8):
                s, g = rng.uniform(1, 47, 2), rng.uniform(1, 47, 2)
                got, found = paths._astar(nav, s, g, blockers)
                want, found_plain = _plain_astar(nav, s, g, blockers)
                assert found == found_plain
                assert np.array_equal(np.array(got), np.array(want))


def _random_units(rng: np.random.Generator, count: int) -> list[Placement]:
    out = []
    for _ in range(count):
        n = int(rng.integers(1, 11))
        centre = (float(rng.uniform(6, 42)), float(rng.uniform(6, 42)))
        out.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
    return out


def _plain_nearest_free(
    nav: paths.NavGraph, p: FloatArray, blockers: Blockers
) -> FloatArray | None:
    """Every ring of every band tested, as :func:`escape.nearest_free` did before."""
    for band, _ in escape.ESCAPE:
        cand = p + band
        ok = nav.free(cand, blockers)
        if ok.any():
            got: FloatArray = cand[int(np.argmax(ok))]
            return got
    return None


@pytest.mark.parametrize("kernel", [True, False])
@pytest.mark.parametrize("chunk", [1, 7, 32, 128, 10_000])
def test_nearest_free_skipping_rings_inside_a_blocker_finds_the_plain_point(
    monkeypatch: pytest.MonkeyPatch, chunk: int, kernel: bool
) -> None:
    """A goal inside another unit (a move toward an enemy) escapes to the first free point of
    the rings; the rings nearer than its depth inside the blocker are not tested, and the
    point found is the one testing them all finds (centres of units, deep inside, and points
    near their edges, on an open table and a generated one), however many points are tested
    at a time (the chunk is tuned to what it costs), with the C kernel's tests or numpy's."""
    monkeypatch.setattr(escape, "ESCAPE_CHUNK", chunk)
    if not kernel:
        monkeypatch.setattr(escape, "_COMPILED", None)
    deep = 0
    for terrain in (None, 4):
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(31 if terrain is None else terrain)
        for _ in range(4):
            others = _random_units(rng, int(rng.integers(4, 10)))
            nav = nav_graph(table, 0.5)
            blockers = blockers_for(others, 0.5)
            points = [o.centres.mean(axis=0) for o in others]
            points += [o.centres[0] + rng.uniform(-1.5, 1.5, 2) for o in others]
            for p in points:
                deep += blockers.depth(p) > 1.0
                got = escape.nearest_free(nav, p, blockers)
                want = _plain_nearest_free(nav, p, blockers)
                assert (got is None) == (want is None)
                assert got is None or (want is not None and np.array_equal(got, want))
    assert deep >= 10


def test_blocker_depth_is_the_distance_to_the_nearest_edge() -> None:
    """A 4" square blocker: its centre is 2" deep (less contains' threshold), a point 0.5"
    inside one side is 0.5" deep, a point outside is not inside at all."""
    square = np.array([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])
    blockers = Blockers([square])
    assert blockers.depth(np.array([2.0, 2.0])) == pytest.approx(2.0, abs=1e-8)
    assert blockers.depth(np.array([0.5, 2.0])) == pytest.approx(0.5, abs=1e-8)
    assert blockers.depth(np.array([5.0, 2.0])) == 0.0


def test_straight_answers_free_and_clear() -> None:
    """One point test for ends and sample points gives what :meth:`NavGraph.free` of each end
    and :meth:`NavGraph.clear` of each segment give, bit for bit (random segments among many
    units, on an open table and a generated one)."""
    for terrain in (None, 4):
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(41 if terrain is None else terrain)
        for _ in range(4):
            others = _random_units(rng, int(rng.integers(4, 10)))
            nav = nav_graph(table, 0.5)
            for blockers in (blockers_for(others, 0.5), NO_BLOCKERS):
                a, b = rng.uniform(-1, 49, (60, 2)), rng.uniform(-1, 49, (60, 2))
                b[:20] = a[:20] + rng.uniform(-2, 2, (20, 2))  # short ones, often clear
                free_a, free_b, clear = nav.straight(a, b, blockers)
                assert np.array_equal(free_a, nav.free(a, blockers))
                assert np.array_equal(free_b, nav.free(b, blockers))
                assert np.array_equal(clear, nav.clear(a, b, blockers))
                assert clear.any() and (not clear.all() or not len(blockers))


def test_contains_for_few_points_equals_the_box_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Few points are tested against every half-plane at once, many behind a box test first:
    the same answers (points inside, outside, near edges and exactly on corners)."""
    rng = np.random.default_rng(5)
    blockers = blockers_for(_random_units(rng, 8), 0.5)
    pts = np.concatenate((rng.uniform(0, 48, (200, 2)), blockers.corners, blockers.corners + 1e-7))
    dense = np.concatenate([blockers.contains(pts[i : i + 2]) for i in range(0, len(pts), 2)])
    monkeypatch.setattr("oprlab.table.blockers._DENSE", 0)
    boxed = blockers.contains(pts)
    assert np.array_equal(dense, boxed)
    assert boxed.any() and not boxed.all()


def test_a_fan_of_sight_lines_is_each_line_tested_on_its_own() -> None:
    """A fan from one point (:func:`crossings_from`, :meth:`NavGraph.clear` with one start:
    the A*'s sight lines, with the sides of each edge's start and direction in one product)
    gives every bit the segments tested one row each give: from corners of the blockers to
    their other corners (lines through corners and along edges), and among random points on a
    quarter-inch grid (many exactly collinear) and anywhere, on an open and a generated table,
    against units and terrain."""
    rng = np.random.default_rng(13)
    for terrain in (None, 4):
        table = Table() if terrain is None else mission_table(terrain)
        nav = nav_graph(table, 0.5)
        for _ in range(3):
            blockers = blockers_for(_random_units(rng, int(rng.integers(3, 9))), 0.5)
            ends = np.concatenate(
                (
                    blockers.corners,
                    nav.verts,
                    rng.integers(0, 193, (40, 2)) / 4.0,
                    rng.uniform(0, 48, (40, 2)),
                )
            )
            p, q = blockers.with_edges(nav.edge_a, nav.edge_b)
            for a in ends[rng.choice(len(ends), 12, replace=False)]:
                rows = np.repeat(a[None, :], len(ends), axis=0)
                fan = crossings_from(a, ends, p, q)
                assert np.array_equal(fan, crossings(rows, ends, p, q))
                assert np.array_equal(crossed_from(a, ends, p, q), fan.any(axis=1))
                for static in (True, False):
                    clear = nav.clear(a, ends, blockers, static=static)
                    assert np.array_equal(clear, nav.clear(rows, ends, blockers, static=static))
                assert fan.any() and not fan.all()


def test_a_search_among_allowed_nodes_leaves_the_others_out() -> None:
    """A*'s first search runs among the nodes near the straight line only (``allowed``, folded
    into the costs a step must come under): with a node of the whole search's path left out,
    the path found never passes through it."""
    rng = np.random.default_rng(3)
    nav = nav_graph(Table(), 0.5)
    checked = 0
    for _ in range(12):
        blockers = blockers_for(_random_units(rng, 6), 0.5)
        sight = paths._Sight(nav, blockers)
        s, g = rng.uniform(1, 47, 2), rng.uniform(1, 47, 2)
        if not (nav.free(np.stack((s, g)), blockers).all()):
            continue
        whole, found, _ = paths._graph_search(nav, s, g, blockers, sight, np.inf, None)
        if not found or len(whole) < 3:
            continue
        allowed = np.ones(len(sight.nodes), dtype=np.bool_)
        on_path = [int(np.flatnonzero((sight.nodes == p).all(axis=1))[0]) for p in whole[1:-1]]
        allowed[on_path] = False
        path, _, _ = paths._graph_search(nav, s, g, blockers, sight, np.inf, allowed)
        assert not any((sight.nodes[~allowed] == p).all(axis=1).any() for p in path[1:-1])
        checked += 1
    assert checked >= 3


@pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")
def test_the_kernels_depth_is_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blocker's depth (how far the rings of escape points may be skipped) from the C
    kernel is numpy's to the bit: points inside, outside, on corners and edges, among hulls of
    several models and lone octagons."""
    rng = np.random.default_rng(13)
    for _ in range(60):
        bl = blockers_for(_random_units(rng, int(rng.integers(1, 9))), 0.5)
        if not len(bl):
            continue
        points = np.concatenate(
            [bl.corners, (bl.corners + bl.ends) / 2, rng.uniform(0.0, 48.0, (40, 2))]
        )
        with_kernel = [bl.depth(p) for p in points]
        monkeypatch.setattr(blockers_module, "_COMPILED", None)
        plain = [bl.depth(p) for p in points]
        monkeypatch.undo()
        assert [v.hex() for v in with_kernel] == [v.hex() for v in plain]
