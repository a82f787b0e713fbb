"""A* step bookkeeping for :func:`oprlab.table.paths._graph_search`: which nodes a step from the
popped node improves, and the pushes of those it sees.

Two ways, the same answers: numpy (a dozen calls a node, each paying numpy's price per call on
~70 nodes), or the C kernel (``_kernels.astar_want`` and ``astar_relax``: the same sums and
comparisons of the same doubles, in the same order) where :mod:`oprlab.table.kernels` says so.
The heap is a list kept by :mod:`heapq`; its entries are ``(priority, node)`` tuples, which
the kernel orders as Python does (priority, then node), so the same nodes pop in the same
order whichever pushed them.

May import ``oprlab.table.kernels``; numpy.
"""

from __future__ import annotations

import heapq

import numpy as np
import numpy.typing as npt

from oprlab.table import kernels

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
VisArray = npt.NDArray[np.int8]
Heap = list[tuple[float, int]]

_NO_NODES = np.zeros(0, dtype=np.intp)


class Step:
    """One search's bookkeeping over its ``f`` fixed nodes: ``best`` (each node's cost so far),
    ``under`` (the cost a step to a node must come under to improve it: its best less 1e-12,
    or -inf once done or not allowed), ``h`` (the estimates), ``came`` and ``heap``; the
    arrays are the search's own (written in place), the first ``f`` entries the fixed nodes.

    :meth:`want` finds the nodes a step from a node reached at ``base`` improves (and which of
    them are not yet measured); :meth:`relax` then takes the step to those it sees."""

    def __init__(
        self,
        f: int,
        best: FloatArray,
        under: FloatArray,
        h: FloatArray,
        came: IntArray,
        heap: Heap,
    ) -> None:
        self.best, self.under, self.came, self.heap = best, under, came, heap
        self.under_fixed = under[:f]
        self.h_fixed = h[:f]
        self.cand: IntArray = _NO_NODES

    def want(self, base: float, dist: FloatArray, vis: VisArray, limit: float | None) -> IntArray:
        """Remember the nodes ``j`` whose cost ``base + dist[j]`` comes under ``under[j]`` and,
        with a ``limit``, whose estimate ``base + dist[j] + h[j]`` is at most it; return those
        whose line is not measured yet (``vis[j] < 0``). How many were found: :attr:`found`."""
        newc = base + dist
        ok = newc < self.under_fixed
        if limit is not None:
            ok &= newc + self.h_fixed <= limit
        cand = self.cand = ok.nonzero()[0]
        unknown: IntArray = cand[vis[cand] < 0]
        return unknown

    @property
    def found(self) -> int:
        """How many nodes the last :meth:`want` found."""
        return len(self.cand)

    def relax(self, base: float, dist: FloatArray, vis: VisArray, u: int) -> None:
        """The step from ``u`` to each node the last :meth:`want` found that it sees, in
        order: its best, its bound, where it came from, and its push."""
        best, under, came, h, heap = self.best, self.under, self.came, self.h_fixed, self.heap
        cand = self.cand
        for j in cand[vis[cand] == 1].tolist():
            c = base + dist[j]
            best[j] = c
            under[j] = c - 1e-12
            came[j] = u
            heapq.heappush(heap, (float(c + h[j]), j))


class CompiledStep(Step):
    """:class:`Step` in the C kernel: one call each, no arrays made a node."""

    def __init__(
        self,
        f: int,
        best: FloatArray,
        under: FloatArray,
        h: FloatArray,
        came: IntArray,
        heap: Heap,
    ) -> None:
        super().__init__(f, best, under, h, came, heap)
        self.room = np.empty(f, dtype=np.intp)
        self.unknown = np.empty(f, dtype=np.intp)
        self.count = 0
        # the search's own arrays as memoryviews, made once: the kernel reads a memoryview's
        # buffer for far less than an array's (numpy describes its format anew each time)
        fixed = (self.under_fixed, self.h_fixed, self.room, self.unknown)
        self.views = (*(x.data for x in fixed), best.data, under.data, came.data)

    def want(self, base: float, dist: FloatArray, vis: VisArray, limit: float | None) -> IntArray:
        compiled = _COMPILED
        assert compiled is not None
        under_fixed, h_fixed, room, unknown, _, _, _ = self.views
        n, k = compiled.astar_want(base, dist, under_fixed, h_fixed, limit, vis, room, unknown)
        self.count = n
        return self.unknown[:k] if k else _NO_NODES

    @property
    def found(self) -> int:
        return self.count

    def relax(self, base: float, dist: FloatArray, vis: VisArray, u: int) -> None:
        compiled = _COMPILED
        assert compiled is not None
        _, h_fixed, room, _, best, under, came = self.views
        compiled.astar_relax(
            base, dist, h_fixed, vis, room, self.count, best, under, came, u, self.heap
        )


_COMPILED = kernels.COMPILED
#: The step the searches use: the kernel's where built, else numpy's.
STEP: type[Step] = Step if _COMPILED is None else CompiledStep
#: The whole search in the kernel (``_kernels.astar_run``: the loop of
#: :func:`oprlab.table.paths._graph_search` with this step and its sight lines' fan test, the
#: same sums in the same order and the heap in the same order), or ``None`` without it.
RUN = None if _COMPILED is None else _COMPILED.astar_run
