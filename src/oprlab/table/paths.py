"""Paths round terrain and other units: A* among the other units on the navigation graph.

Each model's path is a shortest path in a visibility graph over the corners of the impassable
pieces inflated by its base radius (so a path never clips a wall), with all-pairs costs
precomputed once per table and radius (terrain does not move). Other units block paths too,
keeping the 1" spacing "throughout the movement path" (seed 002 "Movement"): each is a convex
hull inflated by the gap, searched lazily (A*) only when the static path runs into one.
:mod:`oprlab.table.movement` moves whole units along these paths.

The navigation graph itself is :mod:`oprlab.table.navgraph` (its names are exported here too).

May import ``oprlab.table.model``, ``oprlab.table.formation``, ``oprlab.table.blockers``,
``oprlab.table.navgraph``, ``oprlab.table.escape``, ``oprlab.table.search_step`` and
``oprlab.table.planar``; numpy.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from oprlab.memo import make_room
from oprlab.table.blockers import NO_BLOCKERS, Blockers, crossing_params
from oprlab.table.escape import escape
from oprlab.table.formation import BoolArray
from oprlab.table.model import FloatArray, Point
from oprlab.table.navgraph import NAV_CACHE_SIZE as NAV_CACHE_SIZE
from oprlab.table.navgraph import IntArray
from oprlab.table.navgraph import NavGraph as NavGraph
from oprlab.table.navgraph import nav_graph as nav_graph
from oprlab.table.search_step import RUN, STEP

# --- paths ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """A model's path: its corners, horizontal length, vertical climb, and whether it reaches
    the goal asked for (else it ends at the reachable point nearest it)."""

    points: tuple[Point, ...]
    length: float
    climb: float
    reached: bool = True

    @property
    def cost(self) -> float:
        """Inches of movement it uses: horizontal plus vertical."""
        return self.length + self.climb


def as_point(a: FloatArray) -> Point:
    return (float(a[0]), float(a[1]))


def find_path(
    nav: NavGraph,
    start: Point,
    goal: Point,
    blockers: Blockers = NO_BLOCKERS,
    *,
    within: float = math.inf,
    straight: tuple[bool, bool, bool] | None = None,
) -> Path:
    """Shortest path from ``start`` to ``goal`` for a model, around static obstacles and the
    ``blockers`` (other units).

    An end inside an obstacle (a base near a corner, a spot 1" from another unit inside its
    slightly generous hull, a model still in melee) is joined to the nearest free point by a
    short straight step. If the goal cannot be reached, the path ends at the reachable vertex
    nearest the goal.

    ``within``: only a path costing at most this is wanted. A path that does is the one asked
    without it; otherwise the path may be another that costs more, or end short of the goal
    (the search among other units leaves out what could only lead to a longer way).

    ``straight``: :meth:`NavGraph.straight`'s answers for these ends among these blockers, when
    the caller has just asked them (whether the start and the goal are free and the line
    between them clear); not asked again.
    """
    s0 = np.array(start, dtype=np.float64)
    g0 = np.array(goal, dtype=np.float64)
    pre: list[FloatArray] = [s0]
    post: list[FloatArray] = [g0]
    s, g = s0, g0
    if straight is None:
        ends_s, ends_g, line = nav.straight(s0[None, :], g0[None, :], blockers)
        straight = (bool(ends_s[0]), bool(ends_g[0]), bool(line[0]))
    free_s, free_g, direct = straight
    if not free_s:
        got = escape(nav, s, blockers)
        if got is None:
            return Path((as_point(s0),), 0.0, 0.0, reached=bool(np.allclose(s0, g0)))
        s = got
        pre.append(s)
    reachable_goal = True
    if not free_g:
        got = escape(nav, g, blockers)
        if got is None:
            reachable_goal = False
        else:
            g = got
            post.insert(0, g)
    if reachable_goal and (
        direct if free_s and free_g else nav.clear(s[None, :], g[None, :], blockers)[0]
    ):
        middle = [s, g]
    else:
        middle, found = _graph_path(nav, s, g, blockers, within)
        if not found or not reachable_goal:
            post = []
            reachable_goal = False
    pts = _dedupe([*pre, *middle[1:-1], middle[-1], *post] if middle else pre)
    arr = np.array(pts)
    length = float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0
    climb = float(nav.climb(arr[:-1], arr[1:]).sum()) if len(arr) > 1 else 0.0
    return Path(tuple(as_point(p) for p in arr), length, climb, reached=reachable_goal)


def _dedupe(points: list[FloatArray]) -> list[FloatArray]:
    """The points less each within 1e-9 of the last one kept. Most paths have none: when
    every step between neighbours of a longer path is longer (the same hypotenuses, one numpy
    call), all are kept, as the loop would keep them; a path of a few points is looped over
    (fewer numpy calls)."""
    if len(points) > _DEDUPE_LOOP:
        arr = np.array(points)
        if bool((np.hypot(*(arr[1:] - arr[:-1]).T) > 1e-9).all()):
            return list(points)
    out: list[FloatArray] = []
    for p in points:
        if not out or float(np.hypot(*(p - out[-1]))) > 1e-9:
            out.append(p)
    return out


#: Points up to which :func:`_dedupe` loops rather than testing every step at once.
_DEDUPE_LOOP = 3


def _graph_path(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers, within: float = math.inf
) -> tuple[list[FloatArray], bool]:
    """Via the static all-pairs table; if that path runs into a blocker, A* with blockers."""
    path, found = _static_path(nav, s, g)
    if not len(blockers):
        return path, found
    arr = np.array(path)
    if found and nav.clear(arr[:-1], arr[1:], blockers, static=False).all():
        return path, True
    return _astar(nav, s, g, blockers, within)


def _static_path(nav: NavGraph, s: FloatArray, g: FloatArray) -> tuple[list[FloatArray], bool]:
    v = len(nav.verts)
    if v == 0:
        return [s], False
    rep_s = np.repeat(s[None, :], v, axis=0)
    rep_g = np.repeat(g[None, :], v, axis=0)
    see_s = nav.clear(s, nav.verts)
    see_g = nav.clear(nav.verts, rep_g)
    cs = np.where(see_s, nav.cost(rep_s, nav.verts), np.inf)
    cg = np.where(see_g, nav.cost(nav.verts, rep_g), np.inf)
    via = cs[:, None] + nav.dist  # (V, V): start -> i -> ... -> j
    total = via + cg[None, :]
    flat = int(np.argmin(total))
    i, j = divmod(flat, v)
    if not np.isfinite(total[i, j]):
        reach = via.min(axis=0)
        if not np.isfinite(reach).any():
            return [s], False
        cand = np.isfinite(reach).nonzero()[0]
        dj = np.hypot(*(nav.verts[cand] - g).T)
        best = int(cand[int(np.argmin(dj))])
        if float(np.hypot(*(s - g))) <= float(dj.min()):
            return [s], False
        i = int(np.argmin(via[:, best]))
        return [s, *_walk_nxt(nav, i, best)], False
    return [s, *_walk_nxt(nav, i, j), g], True


def _walk_nxt(nav: NavGraph, i: int, j: int) -> list[FloatArray]:
    out = [nav.verts[i]]
    guard = 0
    while i != j and guard <= len(nav.verts):
        i = int(nav.nxt[i, j])
        out.append(nav.verts[i])
        guard += 1
    return out


def _astar(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers, within: float = math.inf
) -> tuple[list[FloatArray], bool]:
    """A* over the graph's corners and the blockers' free corners, from ``s`` to ``g``.

    Sight lines are measured only where they could change the search: toward nodes not yet
    done that the step would bring closer (by the 1e-12 the search asks for) and whose estimate
    is at most the cost of some known way to the goal (plus far more than round-off). Any other
    node would be popped after the goal, so the search never uses it; every node it pops, and
    so the path, is the one the search measuring every line finds.

    A known way comes early from a first search among the nodes near the straight line (within
    an ellipse round ``s`` and ``g``): its path is a path of the whole graph, so its cost bounds
    the goal's. The lines it measured are kept for the second search, which then measures
    little more than the nodes inside the bound. When no node outside the ellipse could lie on
    a way that cheap (``|s j| + |j g|`` above the bound by far more than round-off), the second
    search would push and pop exactly the nodes the first did, so the first one's path is the
    answer and the second is not made.

    ``within`` bounds both searches as that known way does: when the path costs at most that,
    it is the same path; when it costs more, some path costing more (or none) is returned.

    A goal walled in by units (and the table edge) has no way to it, and the search would pop
    every node the start reaches before it ends at the one nearest the goal. After a few dozen
    nodes without a way, or when the first search finds none, it asks whether the goal is
    walled in (:class:`_Pocket`, only without ``within``); if so the answer is found directly.
    """
    sight = blockers.kept(nav, lambda: _Sight(nav, blockers))
    upper = within
    nodes = sight.nodes
    pocket = _Pocket(nav, sight, s, g, blockers) if within == math.inf else None
    if len(nodes) > _NEAR_NODES:
        d = float(np.hypot(*(g - s)))
        reach = np.hypot(*(nodes - s).T) + np.hypot(*(nodes - g).T)
        near = reach <= _ELLIPSE * d + _ELLIPSE_PAD
        if near.sum() < len(nodes):
            walled = None if pocket is None else pocket.sealed
            first, found, cost = _graph_search(nav, s, g, blockers, sight, within, near, walled)
            if found:
                upper = min(upper, cost)
                if float(reach[~near].min()) > cost + _OUTSIDE_MARGIN:
                    return first, True
            elif pocket is not None and pocket.sealed():
                return pocket.way_out(), False
    walled = None if pocket is None or upper < math.inf or pocket.asked else pocket.sealed
    path, found, _ = _graph_search(nav, s, g, blockers, sight, upper, None, walled)
    if not found and pocket is not None and pocket.asked and pocket.sealed():
        return pocket.way_out(), False  # it stopped when the pocket was found
    return path, found


class _Pocket:
    """Whether the goal of one search is walled in and the path the search then gives (to the
    node it reaches nearest the goal) is found directly; worked out once, when first asked."""

    def __init__(
        self, nav: NavGraph, sight: _Sight, s: FloatArray, g: FloatArray, blockers: Blockers
    ) -> None:
        self.nav, self.sight, self.s, self.g, self.blockers = nav, sight, s, g, blockers
        self.asked = False
        self.path: list[FloatArray] | None = None

    def sealed(self) -> bool:
        if not self.asked:
            self.asked = True
            cut = _cut_off(self.nav, self.sight, self.s, self.g, self.blockers)
            if cut is not None:
                self.path = _nearest_reachable(
                    self.nav, self.s, self.g, self.blockers, self.sight, cut
                )
        return self.path is not None

    def way_out(self) -> list[FloatArray]:
        return [self.s] if self.path is None else self.path


def _cut_off(
    nav: NavGraph, sight: _Sight, s: FloatArray, g: FloatArray, blockers: Blockers
) -> BoolArray | None:
    """The nodes walled in with ``g`` (a goal in a pocket of units and table edge), if that is
    sure; else ``None``.

    Found from ``g`` outward (each pocket node's sight lines, up to a few), and then checked
    the way the search itself would look: no line from any other node or ``s`` into the pocket
    or to ``g`` is clear, by the very test the search makes for it (so the search, which only
    follows such lines, could never reach them)."""
    nodes = sight.nodes
    cut = np.zeros(len(nodes), dtype=np.bool_)
    frontier = [g]
    fans = 0
    while frontier:
        fans += 1
        if fans > _POCKET_FANS:
            return None
        p = frontier.pop()
        rest = (~cut).nonzero()[0]
        seen = nav.clear(p, np.concatenate((nodes[rest], s[None, :])), blockers)
        if seen[-1] or int(cut.sum()) + int(seen.sum()) > _POCKET_NODES:
            return None
        new = rest[seen[:-1]]
        cut[new] = True
        frontier.extend(nodes[new])
    return cut if _walled(nav, sight, s, g, blockers, cut) else None


def _walled(
    nav: NavGraph, sight: _Sight, s: FloatArray, g: FloatArray, blockers: Blockers, cut: BoolArray
) -> bool:
    """Whether no line the search could follow leads from a node outside ``cut`` (or from
    ``s``) to a node in it or to ``g``: all of them tested at once, each as the search tests it
    (:meth:`_Sight.measure`: between two of the graph's own corners, the graph's visibility
    and then the blockers alone; any other line against everything)."""
    nodes = sight.nodes
    v = len(nav.verts)
    out_i = np.append((~cut).nonzero()[0], -1)  # -1: the start
    in_i = np.append(cut.nonzero()[0], -1)  # -1: the goal
    a_i = np.repeat(out_i, len(in_i))
    b_i = np.tile(in_i, len(out_i))
    a = np.where((a_i < 0)[:, None], s, nodes[a_i])
    b = np.where((b_i < 0)[:, None], g, nodes[b_i])
    corners = (a_i >= 0) & (a_i < v) & (b_i >= 0) & (b_i < v)
    full = ~corners
    if full.any() and nav.clear(a[full], b[full], blockers).any():
        return False
    graph = corners.copy()
    graph[corners] = nav.vis[a_i[corners], b_i[corners]]
    return not (graph.any() and nav.clear(a[graph], b[graph], blockers, static=False).any())


def _nearest_reachable(
    nav: NavGraph, s: FloatArray, g: FloatArray, blockers: Blockers, sight: _Sight, cut: BoolArray
) -> list[FloatArray] | None:
    """The path the search gives when ``g`` is walled in (``cut``): to the node it reaches
    nearest ``g`` in a straight line (the first such node in its order, or ``s`` itself), the
    shortest way; found by searching toward the nearest nodes outside the pocket in turn, not
    by reaching every node the start can reach.

    Each node is searched for as a goal: the search's last line to it is then tested in the
    same batch, by the same test, as the line to the node itself, except between two of the
    graph's own corners (the graph's visibility there): if the nearest node is one of those,
    ``None`` (leave it to the whole search)."""
    nodes = sight.nodes
    f = len(nodes)
    ends = np.concatenate((nodes, s[None, :]))
    straight = np.hypot(*(ends - g).T)
    cand = np.append((~cut).nonzero()[0], f)
    for k in cand[np.argsort(straight[cand], kind="stable")].tolist():
        if k == f:
            break
        if k < len(nav.verts):
            return None
        path, found, _ = _graph_search(nav, s, nodes[k], blockers, sight, math.inf, None)
        if found:
            if len(path) > 1 and np.array_equal(path[-2], path[-1]):
                path.pop()  # reached through the node itself: the goal is its copy
            return path
    return [s]


_NO_NODES = np.zeros(0, dtype=np.intp)
#: A goal's pocket is looked for with at most this many nodes' sight lines, among at most this
#: many nodes (a goal in the open sees more at once).
_POCKET_FANS = 12
_POCKET_NODES = 16
#: Nodes A* pops toward a goal it has no way to yet before it asks whether the goal is walled in.
_PATIENCE = 48
#: A* first searches near the straight line when there are more nodes than this.
_NEAR_NODES = 24
#: The ellipse of that first search: nodes ``j`` with ``|s j| + |j g|`` at most this many times
#: ``|s g|``, plus the pad (inches). Any ellipse gives the same path; a narrow one measures
#: fewer lines and seldom needs the second search.
_ELLIPSE = 1.1
_ELLIPSE_PAD = 4.0
#: Inches by which every node outside the ellipse must be too far round for the first search's
#: path to stand (the path costs are sums of a few hypotenuses: round-off is ~1e-13).
_OUTSIDE_MARGIN = 1e-6


def _graph_search(
    nav: NavGraph,
    s: FloatArray,
    g: FloatArray,
    blockers: Blockers,
    sight: _Sight,
    upper: float,
    allowed: BoolArray | None,
    walled: Callable[[], bool] | None = None,
) -> tuple[list[FloatArray], bool, float]:
    """A* from ``s`` to ``g`` among the sight's nodes (only ``allowed`` ones, if given); nodes
    whose estimate exceeds ``upper`` (a cost the goal's is known to be at most) are left out.
    ``walled``: asked once, after :data:`_PATIENCE` nodes are popped without a way to ``g``;
    if it says ``g`` is walled in, the search stops there (not found).
    Returns the path, whether it reaches ``g``, and its cost.

    Where the C kernel is built and every sight line is its blockers' test alone
    (:func:`_lines_in_kernel`), the loop below runs whole in it (``astar_run``): the same
    steps, sums and heap order, the same lines measured and kept in ``sight``."""
    fixed = sight.nodes
    f = len(fixed)
    nodes = np.concatenate((fixed, s[None, :], g[None, :]))
    n = len(nodes)
    si, gi = n - 2, n - 1
    best = np.full(n, np.inf)
    best[si] = 0.0
    best_g = math.inf  # best[gi], as a Python float
    came = np.full(n, -1, dtype=np.intp)
    done = bytearray(n)
    # the cost a step to each node must come under to improve it (its best less 1e-12), or
    # -inf once it is done or if it is not allowed: which nodes a step improves is then one
    # comparison (numpy's cost here is per call, not per element)
    under = np.full(n, np.inf)
    under[si] = -1e-12
    if allowed is not None:
        under[:f][~allowed] = -np.inf
    h = np.hypot(*(nodes - g).T)
    h_g = float(h[gi])
    gkey = g.tobytes()
    toward = sight.toward(gkey)
    skey = s.tobytes()
    if RUN is not None and f and _lines_in_kernel(nav, blockers):
        p_e, q_e = nav.fan_edges(blockers)
        line = lambda key, u: sight.line(key, nodes[u])  # noqa: E731
        polygons = (blockers.nx, blockers.ny, blockers.d, blockers.nx.shape[1])
        made = (sight.lines, line, np.empty, sight.unmeasured)
        RUN(nodes, f, best, under, h, came, skey, *made, toward, upper, _PATIENCE, walled,
            p_e, q_e, *polygons)  # fmt: skip
        return _way(nodes, best, came, h, gi)
    heap = [(float(h[si]), si)]
    step = STEP(f, best, under, h, came, heap)
    popped = 0
    while heap:
        _, u = heapq.heappop(heap)
        if done[u]:
            continue
        done[u] = 1
        under[u] = -math.inf
        if u == gi:
            break
        popped += 1
        if popped == _PATIENCE and walled is not None and best_g == math.inf and walled():
            break
        key: int | bytes = skey if u == si else u
        p = nodes[u]
        seen_g = toward.get(key)
        base = float(best[u])
        found = 0
        unknown = _NO_NODES
        if f:
            dist, vis = sight.line(key, p)
            bound = min(best_g, upper)
            if seen_g is not None and seen_g[0]:  # the goal, reached from here
                bound = min(bound, base + seen_g[1])
            unknown = step.want(base, dist, vis, bound + _POP_MARGIN if bound < math.inf else None)
            found = step.found
        if seen_g is None or len(unknown):
            got = sight.measure(key, p, unknown, blockers, g if seen_g is None else None)
            if seen_g is None:
                ok_g = got
                cost_g = math.inf
                if ok_g:
                    climbs = len(nav.climb_h)
                    cost_g = float(nav.cost(p[None, :], g[None, :])[0]) if climbs else float(h[u])
                seen_g = toward[key] = (ok_g, cost_g)
        if seen_g[0]:
            c = base + seen_g[1]
            if c < best_g - 1e-12:
                best_g = best[gi] = c
                came[gi] = u
                heapq.heappush(heap, (c + h_g, gi))
        if found:
            step.relax(base, dist, vis, u)
    return _way(nodes, best, came, h, gi)


def _lines_in_kernel(nav: NavGraph, blockers: Blockers) -> bool:
    """Whether :func:`_graph_search`'s loop runs whole in the C kernel (``RUN``): where every
    sight line it tests is the blockers' kernel test alone (:meth:`_Sight.measure` then asks
    :meth:`NavGraph.clear` for a fan that ``Blockers.fan_clear`` answers whole: no graph
    corners, no terrain to test points against) and a step costs its length (no climbs)."""
    return (
        not len(nav.verts) and nav.geom is None and not len(nav.climb_h) and bool(blockers.polygons)
    )


def _way(
    nodes: FloatArray, best: FloatArray, came: IntArray, h: FloatArray, gi: int
) -> tuple[list[FloatArray], bool, float]:
    """The search's answer from its arrays: the way to the goal (node ``gi``) if it was
    reached, else to the node reached nearest it; whether it was; and the goal's cost."""
    if np.isfinite(best[gi]):
        end = gi
        found = True
    else:
        reached = np.isfinite(best).nonzero()[0]
        end = int(reached[int(np.argmin(h[reached]))])
        found = False
    out = []
    k = end
    while k != -1:
        out.append(nodes[k])
        k = int(came[k])
    return out[::-1], found, float(best[gi])


#: A node whose estimate exceeds the goal's cost by more than this is popped after the goal.
_POP_MARGIN = 1e-9
#: Starts and goals each :class:`_Sight` keeps what it sees from and toward.
_ENDS_SIZE = 64


class _Sight:
    """The A* graph one set of blockers gives one navigation graph: its nodes (the graph's
    corners and the blockers' free corners) and, filled in as searches need them, which nodes
    each node (or start) sees and at what cost. Blockers are kept while the units stand still,
    so later searches among the same units (and a unit's models from the same start or toward
    the same goal) reuse what was measured.

    Each sight line is tested on its own, as one row of the whole graph would test it: static
    corners see each other through the graph's own visibility less the blockers, every other
    line is tested against everything (:meth:`NavGraph.clear`)."""

    def __init__(self, nav: NavGraph, blockers: Blockers) -> None:
        self.nav = nav
        extra = blockers.corners
        extra = extra[nav.free(extra, blockers)] if len(extra) else extra
        self.nodes: FloatArray = np.vstack([nav.verts, extra])
        #: per node (index) or start (bytes): the cost to every node, and which it sees
        #: (1 yes, 0 no, -1 not measured yet)
        self.lines: dict[int | bytes, tuple[FloatArray, npt.NDArray[np.int8]]] = {}
        self.starts: list[bytes] = []
        #: a line's "not measured yet" row, copied for each new line (a copy is one call;
        #: the kernel's search makes its fixed nodes' lines from it too)
        self.unmeasured = np.full(len(self.nodes), -1, dtype=np.int8)
        self.goals: dict[bytes, dict[int | bytes, tuple[bool, float]]] = {}

    def toward(self, gkey: bytes) -> dict[int | bytes, tuple[bool, float]]:
        """What each node and start is known to see of the goal ``gkey``, and at what cost."""
        found = self.goals.get(gkey)
        if found is None:
            make_room(self.goals, _ENDS_SIZE)
            found = self.goals[gkey] = {}
        return found

    def line(self, key: int | bytes, p: FloatArray) -> tuple[FloatArray, npt.NDArray[np.int8]]:
        """From node ``key`` (or a start, by its bytes) at ``p``: the cost to every node (as if
        it saw it) and what is known of which it sees."""
        hit = self.lines.get(key)
        if hit is None:
            dist = self.nav.cost(p, self.nodes)
            vis = self.unmeasured.copy()
            if isinstance(key, bytes):
                if len(self.starts) >= _ENDS_SIZE:
                    self.lines.pop(self.starts.pop(0), None)
                self.starts.append(key)
            else:
                vis[key] = 0
            hit = self.lines[key] = (dist, vis)
        return hit

    def measure(
        self,
        key: int | bytes,
        p: FloatArray,
        idx: IntArray,
        blockers: Blockers,
        goal: FloatArray | None = None,
    ) -> bool:
        """Test the sight lines from ``key`` (at ``p``) to the nodes ``idx`` and (if given)
        to ``goal``, in one batch; returns whether it sees the goal."""
        nav, nodes = self.nav, self.nodes
        rest = idx
        if len(idx):
            vis = self.lines[key][1]
            v = len(nav.verts)
            if isinstance(key, int) and key < v:
                corners, rest = idx[idx < v], idx[idx >= v]
                if len(corners):
                    vis[corners] = 0
                    st = corners[nav.vis[key, corners]]
                    if len(st):
                        vis[st] = nav.clear(p, nodes[st], blockers, static=False)
        ends = nodes[rest] if goal is None else np.concatenate((nodes[rest], goal[None, :]))
        if not len(ends):
            return False
        seen = nav.clear(p, ends, blockers)
        if len(rest):
            vis[rest] = seen[: len(rest)]
        return goal is not None and bool(seen[-1])


def walk(
    nav: NavGraph | None, points: Sequence[Point], budget: float
) -> tuple[tuple[Point, ...], float]:
    """Follow ``points`` for at most ``budget`` inches of movement (climbs count; a model does
    not stop halfway up a climb). Returns the points walked and the movement used."""
    pts = [np.array(p, dtype=np.float64) for p in points]
    out = [pts[0]]
    used = 0.0
    for a, b in itertools.pairwise(pts):
        seg = float(np.hypot(*(b - a)))
        if seg <= 0:
            continue
        events: list[tuple[float, float]] = []
        if nav is not None and len(nav.climb_h):
            ts, idx = crossing_params(as_point(a), as_point(b), nav.climb_a, nav.climb_b)
            events = [(float(t), float(nav.climb_h[i])) for t, i in zip(ts, idx, strict=True)]
        t_prev = 0.0
        for t, dz in [*events, (1.0, 0.0)]:
            run = seg * (t - t_prev)
            if used + run > budget + 1e-12:
                frac = t_prev + max(0.0, budget - used) / seg
                out.append(a + (b - a) * frac)
                return tuple(as_point(p) for p in _dedupe(out)), min(
                    budget, used + seg * (frac - t_prev)
                )
            used += run
            if dz > 0 and used + dz > budget + 1e-12:
                back = max(t_prev, t - 1e-6 / seg)
                used -= seg * (t - back)
                out.append(a + (b - a) * back)
                return tuple(as_point(p) for p in _dedupe(out)), used
            used += dz
            t_prev = t
        out.append(b)
    return tuple(as_point(p) for p in _dedupe(out)), used


def polyline_length(points: Sequence[Point]) -> float:
    arr = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0


def reaches_within(
    nav: NavGraph, start: FloatArray, goal: FloatArray, blockers: Blockers, within: float
) -> bool:
    """Whether :func:`find_path` from ``start`` to ``goal`` surely costs at most ``within``,
    found by a greedy search (nearest to the goal first) that stops at the first way that
    cheap. ``False`` says only that none was found: ask :func:`find_path`.

    Only on a table with no obstacle corners and no climbs, toward a free goal: there the path
    search is A* among the blockers' free corners (:func:`_astar`), after the step out of a
    blocker a start inside one takes, and any way through those corners whose every line A*
    would find clear bounds its cost."""
    if len(nav.verts) or len(nav.climb_h) or not len(blockers):
        return False
    free_s, free_g = nav.free(np.stack((start, goal)), blockers)
    if not free_g:
        return False
    if not free_s:
        out = escape(nav, start, blockers)
        if out is None:
            return False
        within -= float(np.hypot(*(out - start)))
        start = out
    sight = blockers.kept(nav, lambda: _Sight(nav, blockers))
    nodes = sight.nodes
    f = len(nodes)
    h = np.hypot(*(nodes - goal).T)
    best = np.full(f, np.inf)
    done = np.zeros(f, dtype=np.bool_)
    toward = sight.toward(goal.tobytes())
    heap: list[tuple[float, int | bytes, float]] = [(0.0, start.tobytes(), 0.0)]
    while heap:
        _, key, cost = heapq.heappop(heap)
        if isinstance(key, int):
            if done[key]:
                continue
            done[key] = True
            p = nodes[key]
        else:
            p = start
        seen_g = toward.get(key)
        dist, vis = sight.line(key, p)
        newc = cost + dist
        want = ~done & (newc + h <= within) & (newc < best - 1e-12)
        cand = want.nonzero()[0]
        unknown = cand[vis[cand] < 0]
        if seen_g is None or len(unknown):
            got = sight.measure(key, p, unknown, blockers, goal if seen_g is None else None)
            if seen_g is None:
                cost_g = float(np.hypot(*(p - goal))) if got else math.inf
                seen_g = toward[key] = (got, cost_g)
        if seen_g[0] and cost + seen_g[1] <= within:
            return True
        for j in cand[vis[cand] == 1].tolist():
            best[j] = newc[j]
            heapq.heappush(heap, (float(h[j]), j, float(newc[j])))
    return False


def none_within(
    nav: NavGraph, start: FloatArray, goals: FloatArray, blockers: Blockers, within: float
) -> bool:
    """Whether :func:`find_path` from ``start`` surely reaches none of ``goals`` at a cost of at
    most ``within``. ``False`` says only that this was not shown: ask :func:`find_path`.

    On the tables :func:`reaches_within` answers on (no obstacle corners, no climbs): a path
    there steps from ``start`` to its nearest free point if it is in a blocker, goes by lines
    the search tests clear among the blockers' free corners (:class:`_Sight`, the same tests,
    so the same lines), and steps from the goal's nearest free point to the goal. One search
    from the start toward every goal at once (A*, each goal's estimate its line plus its
    step) finds the cheapest such way to each goal within reach; when none costs at most
    ``within`` (plus far more than round-off), no path :func:`find_path` gives does."""
    if len(nav.verts) or len(nav.climb_h) or not len(blockers) or not len(goals):
        return False
    free = nav.free(np.concatenate((start[None, :], goals)), blockers)
    budget = within + _NONE_MARGIN
    if not free[0]:
        out = escape(nav, start, blockers)
        if out is None:
            return False  # a start on its goal is reached without a way: not shown
        budget -= float(np.hypot(*(out - start)))
        start = out
    ends: list[FloatArray] = []
    steps: list[float] = []
    for g, ok in zip(goals, free[1:].tolist(), strict=True):
        if not ok:
            got = escape(nav, g, blockers)
            if got is None:
                continue  # never reached
            steps.append(float(np.hypot(*(got - g))))
            g = got
        else:
            steps.append(0.0)
        ends.append(g)
    if not ends:
        return True
    end = np.array(ends)
    step = np.array(steps)
    sight = blockers.kept(nav, lambda: _Sight(nav, blockers))
    nodes = sight.nodes
    f = len(nodes)
    # each node's estimate: its straight line to a goal plus that goal's step, the least
    h = (np.hypot(*(nodes[:, None, :] - end[None, :, :]).transpose(2, 0, 1)) + step).min(
        axis=1, initial=np.inf
    )
    best = np.full(f, np.inf)
    done = np.zeros(f, dtype=np.bool_)
    heap: list[tuple[float, int | bytes, float]] = [(0.0, start.tobytes(), 0.0)]
    while heap:
        _, key, cost = heapq.heappop(heap)
        if isinstance(key, int):
            if done[key]:
                continue
            done[key] = True
            p = nodes[key]
        else:
            p = start
        to_goal = cost + np.hypot(*(end - p).T) + step
        near = to_goal <= budget
        if near.any() and nav.clear(p, end[near], blockers).any():
            return False
        if not f:
            continue
        dist, vis = sight.line(key, p)
        newc = cost + dist
        want = ~done & (newc + h <= budget) & (newc < best - 1e-12)
        cand = want.nonzero()[0]
        unknown = cand[vis[cand] < 0]
        if len(unknown):
            sight.measure(key, p, unknown, blockers)
        for j in cand[vis[cand] == 1].tolist():
            best[j] = newc[j]
            heapq.heappush(heap, (float(newc[j] + h[j]), j, float(newc[j])))
    return True


#: Inches a way may cost over ``within`` and still not count as shown to be too long (its sums
#: are a few hypotenuses, round-off ~1e-13; the kept path may drop steps under 1e-9).
_NONE_MARGIN = 1e-6
