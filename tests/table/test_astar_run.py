"""A* whole in the C kernel (``astar_run``) gives the Python loop's search exactly.

On a table whose sight lines are the blockers' kernel test alone (no terrain corners, no
climbs), :func:`oprlab.table.paths._graph_search` hands its loop to the kernel: the same
pops, the same lines measured (kept in the sight for later searches), the same costs, so the
same paths. Checked on random units, starts and goals (in the open, inside a unit, walled in
by units and the table edge), bounded and not, each search's sight shared by several searches
as in a game, against the loop in Python with numpy's step.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table import kernels, paths, search_step
from oprlab.table.blockers import blockers_for
from oprlab.table.formation import formation
from oprlab.table.model import Placement, Table
from oprlab.table.paths import find_path, nav_graph

compiled = pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")


def _units(rng: np.random.Generator, size: float) -> list[Placement]:
    units = []
    for _ in range(int(rng.integers(1, 12))):
        n = int(rng.integers(1, 11))
        centre = (float(rng.uniform(2, size - 2)), float(rng.uniform(2, size - 2)))
        facing = (float(rng.uniform(-1, 1)), 1.0)
        units.append(Placement(formation(n, 0.5, centre, facing), np.full(n, 0.5)))
    return units


def _searches(seed: int) -> list[Any]:
    """Paths of a few searches sharing one set of blockers, and what their sight kept."""
    rng = np.random.default_rng(seed)
    size = float(rng.choice([24.0, 48.0]))
    table = Table(width=size, depth=size)
    units = _units(rng, size)
    nav = nav_graph(table, 0.5)
    bl = blockers_for(units, 0.5)
    out: list[Any] = []
    goals = [(float(rng.uniform(0, size)), float(rng.uniform(0, size))) for _ in range(3)]
    for k in range(6):
        start = (float(rng.uniform(0, size)), float(rng.uniform(0, size)))
        if k % 2 and units:  # a start inside a unit (a model leaving melee, a friend's blocker)
            start = tuple(units[k % len(units)].centres[0].tolist())
        goal = goals[k % len(goals)]
        within = math.inf if rng.random() < 0.6 else float(rng.uniform(2, 2 * size))
        out.append(find_path(nav, start, goal, bl, within=within))
    sight = bl.kept(nav, lambda: None)
    if sight is not None:
        out.append({k: (d.tolist(), v.tolist()) for k, (d, v) in sight.lines.items()})
        out.append({g: dict(t) for g, t in sight.goals.items()})
    return out


def _both(seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any], int]:
    """The searches with the loop in the kernel, then in Python; how often the kernel ran."""
    calls = []
    run = search_step.RUN
    assert run is not None

    def counted(*args: Any) -> None:
        calls.append(1)
        run(*args)

    monkeypatch.setattr(paths, "RUN", counted)
    in_c = _searches(seed)
    monkeypatch.setattr(paths, "RUN", None)
    monkeypatch.setattr(paths, "STEP", search_step.Step)
    return in_c, _searches(seed), len(calls)


@compiled
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_the_whole_search_in_c_is_the_python_loop(seed: int) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        in_c, in_python, _ = _both(seed, monkeypatch)
    assert in_c == in_python


@compiled
def test_open_tables_search_in_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel runs the searches of an open table (else the test above proves nothing)."""
    ran = sum(_both(seed, monkeypatch)[2] for seed in range(20))
    assert ran > 20


@compiled
def test_a_walled_in_goal_stops_the_same_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A goal in a pocket of units and the table edge: the kernel asks the pocket after the
    same pops and gives the same way out."""
    table = Table(width=24.0, depth=24.0)
    ring = []
    for k in range(10):
        a = 2 * math.pi * k / 10
        centre = (12 + 5 * math.cos(a), 12 + 5 * math.sin(a))
        ring.append(
            Placement(formation(3, 0.5, centre, (math.cos(a), math.sin(a))), np.full(3, 0.5))
        )
    spread = _units(np.random.default_rng(5), 24.0)

    def ways() -> list[Any]:
        nav = nav_graph(table, 0.5)
        bl = blockers_for([*ring, *spread], 0.5)
        return [find_path(nav, (1.0, 1.0), (12.0, 12.0), bl) for _ in range(2)]

    in_c = ways()
    monkeypatch.setattr(paths, "RUN", None)
    monkeypatch.setattr(paths, "STEP", search_step.Step)
    assert in_c == ways()


@compiled
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.25, 4.0))
def test_the_lines_the_kernel_makes_are_the_sights(seed: int, scale: float) -> None:
    """A fixed node's line made in the kernel: numpy's costs (``NavGraph.cost``) to the last
    bit, and the node itself not seen."""
    rng = np.random.default_rng(seed)
    size = 48.0 * scale
    table = Table(width=size, depth=size)
    nav = nav_graph(table, 0.5)
    bl = blockers_for(_units(rng, size), 0.5)
    for _ in range(3):
        start = (float(rng.uniform(0, size)), float(rng.uniform(0, size)))
        goal = (float(rng.uniform(0, size)), float(rng.uniform(0, size)))
        find_path(nav, start, goal, bl)
    sight = bl.kept(nav, lambda: None)
    if sight is None:
        return
    for key, (dist, vis) in sight.lines.items():
        if isinstance(key, int):
            p = sight.nodes[key]
            assert dist.tobytes() == nav.cost(p, sight.nodes).tobytes()
            assert vis[key] == 0
