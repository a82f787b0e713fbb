"""A goal walled in by units: the search's shortcut gives the plain search's answer (issue 13).

A move toward an enemy unit aims at the first free point round its centre; at 600 points that
point can lie in a pocket closed by the enemy's neighbours (and the table edge), with no way in.
A* then popped every node the start reaches before it ended at the one nearest the goal. It now
asks, after a few dozen nodes without a way (or when its first search finds none), whether the
goal is walled in, and if so searches only toward the nearest nodes outside the pocket. The
plain A* of ``test_movement_search`` (every sight line measured, every reachable node popped)
must give the same path point for point, and the same "not reached", on rings of units round a
goal (closed, and with a gap), two pockets side by side, open and generated tables.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from oprlab.table import escape, paths
from oprlab.table.blockers import blockers_for
from oprlab.table.deploy import mission_table
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.paths import _astar, find_path, nav_graph
from tests.table.test_movement_search import _plain_astar


def _ring(
    centre: FloatArray, radius: float, turn: float, gap: bool, models: int = 3
) -> list[Placement]:
    """Six units of ``models`` in a row round ``centre``, their rows tangent to the circle of
    ``radius``: their blockers overlap and wall the centre in (one left out with ``gap``)."""
    out = []
    offsets = (np.arange(models) - (models - 1) / 2) * 1.1
    for k in range(5 if gap else 6):
        a = turn + k * math.pi / 3
        mid = centre + radius * np.array([math.cos(a), math.sin(a)])
        along = np.array([-math.sin(a), math.cos(a)])
        out.append(Placement(mid + np.outer(offsets, along), np.full(models, 0.5)))
    return out


def _scatter(
    rng: np.random.Generator, table: Table, avoid: list[FloatArray], count: int
) -> list[Placement]:
    """``count`` units of one to six models away from the rings."""
    out: list[Placement] = []
    while len(out) < count:
        n = int(rng.integers(1, 7))
        c = rng.uniform(5, [table.width - 5, table.depth - 5])
        if all(float(np.hypot(*(c - a))) > 11 for a in avoid):
            models = c + np.column_stack([np.arange(n) * 1.1 - 0.55 * (n - 1), np.zeros(n)])
            out.append(Placement(models, np.full(n, 0.5)))
    return out


def _count_shortcuts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    taken: list[int] = []
    real = paths._nearest_reachable

    def counted(*args: Any) -> Any:
        taken.append(1)
        return real(*args)

    monkeypatch.setattr(paths, "_nearest_reachable", counted)
    return taken


@pytest.mark.parametrize("terrain", [None, 6])
def test_walled_goal_gets_the_plain_search_answer(
    terrain: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Goals in closed rings, rings with a gap and two rings side by side; starts outside and
    (sometimes) inside a ring: the same points and "found" as the plain A*."""
    taken = _count_shortcuts(monkeypatch)
    table = Table() if terrain is None else mission_table(terrain)
    rng = np.random.default_rng(41 if terrain is None else terrain)
    checked = walled = 0
    for case in range(12):
        centre = rng.uniform(10, [table.width - 10, table.depth - 10])
        rings = [centre]
        units = _ring(centre, float(rng.uniform(3.6, 4.4)), float(rng.uniform(0, 1)), case % 3 == 2)
        if case % 3 == 1:  # a second pocket beside the first
            other = centre + 8.4 * np.array([1.0, 0.0] if centre[0] < 24 else [-1.0, 0.0])
            units += _ring(other, 4.0, float(rng.uniform(0, 1)), False)
            rings.append(other)
        units += _scatter(rng, table, rings, int(rng.integers(3, 7)))
        nav = nav_graph(table, 0.5)
        blockers = blockers_for(units, 0.5)
        goals = [centre + rng.uniform(-0.8, 0.8, 2) for _ in range(2)]
        starts = [rng.uniform(2, [table.width - 2, table.depth - 2]) for _ in range(2)]
        starts.append(rings[-1] + rng.uniform(-0.5, 0.5, 2))  # in a pocket (the other one)
        for g in goals:
            for s in starts:
                if not nav.free(np.stack([s, g]), blockers).all():
                    continue
                before = len(taken)
                got, found = _astar(nav, s, g, blockers)
                want, found_plain = _plain_astar(nav, s, g, blockers)
                assert found == found_plain
                assert np.array_equal(np.array(got), np.array(want))
                walled += len(taken) > before
                checked += 1
    assert checked >= 50
    assert walled >= 10


def test_find_path_toward_a_unit_walled_in_at_the_table_edge(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The game's case: a move toward the centre of an enemy model at the table's edge between
    two other units; the first free point round it lies in the pocket they and the edge close.
    find_path's path is the plain A*'s from the start toward that point (not reached), or, when
    the pocket is open, the plain A*'s way to it and on to the centre."""
    taken = _count_shortcuts(monkeypatch)
    rng = np.random.default_rng(3)
    table = Table()
    seen = 0
    for _ in range(8):
        cx, cy = float(rng.uniform(8, 40)), 45.5 + float(rng.uniform(-0.3, 0.3))
        gap = float(rng.uniform(3.4, 4.0))
        units = [
            Placement(np.array([[cx, cy]]), np.full(1, 0.5)),
            Placement(np.array([[cx - gap, cy], [cx - gap - 1.1, cy]]), np.full(2, 0.5)),
            Placement(np.array([[cx + gap, cy], [cx + gap + 1.1, cy]]), np.full(2, 0.5)),
            *_scatter(rng, table, [np.array([cx, cy])], 10),
        ]
        nav = nav_graph(table, 0.5)
        blockers = blockers_for(units, 0.5)
        s = (float(rng.uniform(10, 38)), 1.5)
        before = len(taken)
        path = find_path(nav, s, (cx, cy), blockers)
        out = escape.nearest_free(nav, np.array([cx, cy]), blockers)
        assert out is not None
        want, found = _plain_astar(nav, np.array(s), out, blockers)
        if found:
            want.append(np.array([cx, cy]))
        assert path.reached == found
        assert np.array_equal(np.array(path.points), np.array(paths._dedupe(want)))
        seen += len(taken) > before
    assert seen >= 5
