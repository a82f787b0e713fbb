"""The movement search's speed-ups answer what the plain search answers, bit for bit.

A* among other units measures only the sight lines that can change its result (toward nodes it
could improve, and once the goal is reached, nodes it would pop before it), and
:func:`crossings` keeps the complex form of frozen edge arrays. The plain A* below measures
every line from every node it pops, as the search did before; both must find the same path.
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from oprlab.table.blockers import Blockers, blockers_for, crossings
from oprlab.table.deploy import mission_table
from oprlab.table.formation import formation
from oprlab.table.model import FloatArray, Placement, Point, Table
from oprlab.table.paths import NavGraph, _astar, find_path, nav_graph

#: A charge move's answer, compared as bytes: where the models end, their paths, which touch.
Charged = tuple[bytes, tuple[tuple[Point, ...], ...], bytes]


def _plain_astar(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers
) -> tuple[list[FloatArray], bool]:
    """A* measuring every sight line from each node it pops (the search before the speed-up)."""
    extra = blockers.corners
    extra = extra[nav.free(extra, blockers)] if len(extra) else extra
    fixed = np.vstack([nav.verts, extra])
    v, f = len(nav.verts), len(fixed)
    nodes = np.vstack([fixed, s[None, :], g[None, :]])
    n = len(nodes)
    si, gi = n - 2, n - 1
    best = np.full(n, np.inf)
    best[si] = 0.0
    came = np.full(n, -1, dtype=np.intp)
    done = np.zeros(n, dtype=np.bool_)
    h = np.hypot(*(nodes - g).T)
    heap = [(float(h[si]), si)]
    while heap:
        _, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = True
        if u == gi:
            break
        p = nodes[u]
        ok = np.zeros(n, dtype=np.bool_)
        ends = np.vstack([fixed, g[None, :]])
        idx = np.r_[np.arange(f), gi]
        a = np.repeat(p[None, :], len(ends), axis=0)
        seen = nav.clear(a, ends, blockers)
        if u < v:  # static corners see each other through the graph, less the blockers
            st = np.flatnonzero(nav.vis[u])
            seen[:v] = False
            if len(st):
                b = np.repeat(p[None, :], len(st), axis=0)
                seen[st] = nav.clear(b, nav.verts[st], blockers, static=False)
        ok[idx] = seen
        if u < f:
            ok[u] = False
        cost = np.full(n, np.inf)
        if ok.any():
            cost[ok] = nav.cost(np.repeat(p[None, :], int(ok.sum()), axis=0), nodes[ok])
        ok &= ~done
        cand = np.flatnonzero(ok)
        newc = best[u] + cost[cand]
        better = newc < best[cand] - 1e-12
        for j, c in zip(cand[better], newc[better], strict=True):
            best[j] = c
            came[j] = u
            heapq.heappush(heap, (float(c + h[j]), int(j)))
    if np.isfinite(best[gi]):
        end, found = gi, True
    else:
        reached = np.flatnonzero(np.isfinite(best))
        end, found = int(reached[int(np.argmin(h[reached]))]), False
    out = []
    k = end
    while k != -1:
        out.append(nodes[k])
        k = int(came[k])
    return out[::-1], found


def _units(rng: np.random.Generator, table: Table, count: int) -> list[Placement]:
    out = []
    for _ in range(count):
        n = int(rng.integers(1, 11))
        centre = (float(rng.uniform(6, table.width - 6)), float(rng.uniform(6, table.depth - 6)))
        out.append(Placement(formation(n, 0.5, centre, (0.0, 1.0)), np.full(n, 0.5)))
    return out


@pytest.mark.parametrize("terrain", [None, 3, 8])
def test_astar_finds_the_plain_search_path(terrain: int | None) -> None:
    """Among random units (open table and generated tables), the pruned A* returns the plain
    A*'s path, point for point, and whether it reached the goal."""
    table = Table() if terrain is None else mission_table(terrain)
    rng = np.random.default_rng(11 if terrain is None else terrain)
    checked = 0
    for _ in range(25):
        others = _units(rng, table, int(rng.integers(3, 9)))
        radius = float(rng.choice([0.5, 0.8, 1.0]))
        nav = nav_graph(table, radius)
        blockers = blockers_for(others, radius)
        for _ in range(6):
            s = rng.uniform(1, 47, 2)
            g = rng.uniform(1, 47, 2)
            got, found = _astar(nav, s, g, blockers)
            want, found_plain = _plain_astar(nav, s, g, blockers)
            assert found == found_plain
            assert np.array_equal(np.array(got), np.array(want))
            checked += 1
    assert checked == 150


def test_find_path_is_the_same_warm_and_cold() -> None:
    """What a search learns (sight lines kept with the blockers) never changes a later answer:
    the same questions asked again, and in another order, give the same paths."""
    table = mission_table(5)
    rng = np.random.default_rng(5)
    others = _units(rng, table, 6)
    nav = nav_graph(table, 0.5)
    pairs = [(tuple(rng.uniform(1, 47, 2)), tuple(rng.uniform(1, 47, 2))) for _ in range(20)]
    first = [find_path(nav, s, g, blockers_for(others, 0.5)) for s, g in pairs]
    again = [find_path(nav, s, g, blockers_for(others, 0.5)) for s, g in reversed(pairs)]
    assert first == again[::-1]
    fresh = [
        find_path(nav, s, g, Blockers(list(blockers_for(others, 0.5).polygons))) for s, g in pairs
    ]
    assert first == fresh


def test_crossings_same_for_frozen_and_writable_edges() -> None:
    """Kept edges (read-only arrays) give the bits fresh ones give; writable edges are never
    kept, so changing them in place changes the answer."""
    rng = np.random.default_rng(2)
    a, b = rng.uniform(0, 48, (30, 2)), rng.uniform(0, 48, (30, 2))
    p = rng.uniform(0, 48, (40, 2))
    q = np.roll(p, -1, axis=0)
    fresh = crossings(a, b, p, q)
    frozen_p, frozen_q = p.copy(), q.copy()
    frozen_p.flags.writeable = False
    frozen_q.flags.writeable = False
    assert np.array_equal(crossings(a, b, frozen_p, frozen_q), fresh)
    assert np.array_equal(crossings(a, b, frozen_p, frozen_q), fresh)  # kept, same answer
    p[:] = p[::-1]
    q[:] = np.roll(p, -1, axis=0)
    moved = crossings(a, b, p, q)
    assert not np.array_equal(moved, fresh)
    assert np.array_equal(moved, crossings(a, b, p.copy(), q.copy()))


def test_charge_contact_memo_answers_as_cold() -> None:
    """A charge asks where its nearest model reaches contact twice (``can_charge``, then the
    move); the remembered answer is the one a cold search gives, and a unit standing elsewhere
    (other blockers) is asked afresh."""
    from oprlab.table import charge

    table = mission_table(4)
    rng = np.random.default_rng(4)
    charged = 0
    for _ in range(8):
        attacker, target, *others = _units(rng, table, 5)
        moves: list[Charged | None] = []
        for cold in (True, False):
            if cold:
                charge._REACH.clear()
                charge._ANSWERS.clear()
            try:
                r = charge.charge_move(table, attacker, target, others, 12.0)
            except ValueError:
                moves.append(None)
                continue
            moves.append((r.placement.centres.tobytes(), r.move.paths, r.in_contact.tobytes()))
        assert moves[0] == moves[1]
        charged += moves[0] is not None
        # another unit a little elsewhere: asked afresh, the same as a cold start
        moved = [Placement(others[0].centres + 0.25, others[0].radii), *others[1:]]
        after: list[Charged | None] = []
        for cold in (False, True):
            if cold:
                charge._REACH.clear()
                charge._ANSWERS.clear()
            try:
                r = charge.charge_move(table, attacker, target, moved, 12.0)
            except ValueError:
                after.append(None)
                continue
            after.append((r.placement.centres.tobytes(), r.move.paths, r.in_contact.tobytes()))
        assert after[0] == after[1]
    assert charged >= 2


@pytest.mark.parametrize("terrain", [None, 3])
def test_find_path_within_a_cost_is_the_unbounded_path(terrain: int | None) -> None:
    """A search told only a path within some cost is wanted (a charge's contact spots, seed 002
    "Charge Action") returns the unbounded search's path whenever that path costs no more;
    when it costs more, no path it returns reaches the goal that cheaply. Both cases occur."""
    table = Table() if terrain is None else mission_table(terrain)
    rng = np.random.default_rng(21 if terrain is None else terrain)
    same = longer = 0
    for _ in range(12):
        others = _units(rng, table, int(rng.integers(3, 9)))
        radius = float(rng.choice([0.5, 1.0]))
        nav = nav_graph(table, radius)
        blockers = blockers_for(others, radius)
        for _ in range(5):
            s = tuple(rng.uniform(1, 47, 2))
            g = tuple(rng.uniform(1, 47, 2))
            want = find_path(nav, s, g, blockers)
            straight = float(np.hypot(g[0] - s[0], g[1] - s[1]))
            for within in (straight * 1.02, straight * 1.2, 12.0):
                got = find_path(nav, s, g, blockers, within=within)
                if want.reached and want.cost <= within:
                    assert got == want
                    same += 1
                else:
                    assert not (got.reached and got.cost <= within)
                    longer += 1
    assert same >= 20 and longer >= 20


def test_reaches_within_only_when_the_path_is_that_short() -> None:
    """seed 002 "Charge Action": the greedy search that tells a charge's contact spot is in
    reach says so only when the path search's own path costs at most the bound (tried just
    above and just below each path's cost, from starts inside other units' blockers too, as
    a charger within 1" of friends stands), and it says so often."""
    from oprlab.table.paths import reaches_within

    table = Table()
    rng = np.random.default_rng(31)
    sure = escaped = 0
    for _ in range(15):
        others = _units(rng, table, int(rng.integers(4, 9)))
        nav = nav_graph(table, 0.5)
        blockers = blockers_for(others, 0.5)
        inside = [c for o in others for c in o.centres[:2]]
        for j in range(8):
            s = np.array(inside[j]) + 0.3 if j % 2 else rng.uniform(4, 44, 2)
            g = rng.uniform(4, 44, 2)
            want = find_path(nav, (float(s[0]), float(s[1])), (float(g[0]), float(g[1])), blockers)
            if not want.reached:
                continue
            assert not reaches_within(nav, s, g, blockers, want.cost - 0.05)
            if reaches_within(nav, s, g, blockers, want.cost + 0.05):
                sure += 1
                escaped += not bool(nav.free(s[None, :], blockers)[0])
            for within in (6.0, 12.0, 24.0):
                if reaches_within(nav, s, g, blockers, within):
                    assert want.cost <= within + 1e-9
    assert sure >= 40 and escaped >= 10
