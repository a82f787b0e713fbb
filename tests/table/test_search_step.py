"""A*'s step in the C kernel (``astar_want``, ``astar_relax``) gives numpy's step exactly.

The path search (:func:`oprlab.table.paths._graph_search`) takes, from each node it pops, the
step to every node it improves and sees; which nodes, at what cost, and the heap's order
decide the path, so the kernel must find the same nodes, write the same doubles and push the
same entries as numpy: checked on random steps (costs near the bounds, nodes done or left
out, lines unmeasured) and through whole searches with the kernel's step switched off.
"""

from __future__ import annotations

import heapq
import math
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table import kernels, paths, search_step
from oprlab.table.blockers import blockers_for
from oprlab.table.formation import formation
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.paths import find_path, nav_graph
from oprlab.table.search_step import IntArray, VisArray

compiled = pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")


class Case(NamedTuple):
    """One step: from node ``u`` reached at ``base``, the search's arrays part way through
    (some nodes reached, some done or left out), and what measuring its unknown lines finds."""

    base: float
    dist: FloatArray
    vis: VisArray
    limit: float | None
    best: FloatArray
    under: FloatArray
    h: FloatArray
    came: IntArray
    heap: list[tuple[float, int]]
    u: int
    f: int
    measured: VisArray


def _run(cls: type[search_step.Step], case: Case) -> tuple[object, ...]:
    best, under, came = case.best.copy(), case.under.copy(), case.came.copy()
    heap = list(case.heap)
    vis = case.vis.copy()
    step = cls(case.f, best, under, case.h, came, heap)
    unknown = step.want(case.base, case.dist, vis, case.limit)
    found = step.found
    unknown_list = unknown.tolist()
    vis[unknown] = case.measured[unknown]
    if found:
        step.relax(case.base, case.dist, vis, case.u)
    popped = [heapq.heappop(heap) for _ in range(len(heap))]
    return (
        found,
        unknown_list,
        best.tobytes(),
        under.tobytes(),
        came.tobytes(),
        [(p.hex(), j) for p, j in popped],
    )


def _case(seed: int, f: int, bounded: bool) -> Case:
    rng = np.random.default_rng(seed)
    n = f + 2
    best = np.where(rng.random(n) < 0.5, rng.uniform(0, 30, n), np.inf)
    under = best - 1e-12
    under[rng.random(n) < 0.2] = -np.inf
    h = rng.uniform(0, 40, n)
    came = rng.integers(-1, n, n).astype(np.intp)
    dist = rng.uniform(0, 20, f)
    vis = rng.integers(-1, 2, f).astype(np.int8)
    measured = rng.integers(0, 2, f).astype(np.int8)
    base = float(rng.uniform(0, 10))
    limit = float(rng.uniform(10, 60)) if bounded else None
    if f:
        j = int(rng.integers(0, f))
        under[j] = np.nextafter(base + dist[j], np.inf)  # improved by a hair
        j = int(rng.integers(0, f))
        under[j] = base + dist[j]  # not improved: equal
        if bounded:
            j = int(rng.integers(0, f))
            limit = float((base + dist[j]) + h[j])  # exactly on the bound
    heap = [(float(rng.uniform(0, 50)), int(j)) for j in rng.integers(0, n, 5)]
    heapq.heapify(heap)
    u = int(rng.integers(0, n))
    return Case(base, dist, vis, limit, best, under, h, came, heap, u, f, measured)


@compiled
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 90), st.booleans())
def test_the_kernels_step_is_numpys(seed: int, f: int, bounded: bool) -> None:
    case = _case(seed, f, bounded)
    assert _run(search_step.CompiledStep, case) == _run(search_step.Step, case)


@compiled
def test_ties_pop_in_the_same_order() -> None:
    """Entries of one priority pop by node, as Python orders the tuples."""
    f = 6
    ones = np.ones(f, dtype=np.int8)
    case = Case(
        1.0,
        np.full(f, 2.0),
        ones,
        None,
        np.full(f + 2, np.inf),
        np.full(f + 2, np.inf),
        np.zeros(f + 2),
        np.full(f + 2, -1, np.intp),
        [(3.0, 7)],
        6,
        f,
        ones,
    )
    got = _run(search_step.CompiledStep, case)
    assert got == _run(search_step.Step, case)
    assert [j for _, j in got[-1]] == [0, 1, 2, 3, 4, 5, 7]  # type: ignore[attr-defined]


@compiled
def test_the_kernel_refuses_wrong_buffers() -> None:
    compiled_kernel = kernels.COMPILED
    assert compiled_kernel is not None
    f = 4
    dist, under, h = np.ones(f), np.full(f, np.inf), np.zeros(f)
    room = np.empty(f, dtype=np.intp)
    with pytest.raises(TypeError):
        wrong: Any = np.zeros(f)  # float64, not int8
        compiled_kernel.astar_want(0.0, dist, under, h, None, wrong, room, room)
    with pytest.raises(TypeError):
        compiled_kernel.astar_want(
            0.0, dist, under, h, None, np.zeros(f, np.int8), room.astype(np.int32), room
        )
    with pytest.raises(ValueError):
        compiled_kernel.astar_want(0.0, dist, under[:2], h, None, np.zeros(f, np.int8), room, room)
    best, came = np.full(f, np.inf), np.full(f, -1, dtype=np.intp)
    room[:] = [0, 1, 2, 9]
    with pytest.raises(IndexError):
        compiled_kernel.astar_relax(
            0.0, dist, h, np.ones(f, np.int8), room, 4, best, under, came, 0, []
        )
    with pytest.raises(TypeError):
        compiled_kernel.astar_relax(
            0.0,
            dist,
            h,
            np.ones(f, np.int8),
            room,
            2,
            best,
            under,
            came,
            0,
            [(0.0, 1.5)],  # type: ignore[list-item]
        )


@compiled
def test_searches_find_the_same_paths_with_numpys_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole path searches among units: the kernel's step and numpy's give the same paths."""
    rng = np.random.default_rng(32)
    table = Table()
    cases = []
    for _ in range(40):
        units = []
        for _ in range(int(rng.integers(2, 9))):
            n = int(rng.integers(1, 8))
            centre = (float(rng.uniform(4, 44)), float(rng.uniform(4, 44)))
            units.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
        start = (float(rng.uniform(1, 47)), float(rng.uniform(1, 47)))
        goal = (float(rng.uniform(1, 47)), float(rng.uniform(1, 47)))
        within = math.inf if rng.random() < 0.5 else float(rng.uniform(5, 40))
        cases.append((units, start, goal, within))

    def paths_with(step: type[search_step.Step]) -> list[object]:
        monkeypatch.setattr(paths, "STEP", step)
        out: list[object] = []
        for units, start, goal, within in cases:
            nav = nav_graph(table, 0.5)
            bl = blockers_for(units, 0.5)
            bl._kept.clear()  # what the other step's searches measured is not reused
            out.append(find_path(nav, start, goal, bl, within=within))
        return out

    assert paths_with(search_step.CompiledStep) == paths_with(search_step.Step)
