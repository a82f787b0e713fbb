"""The one place that chooses how the table's crossing and inside tests run.

The C kernel (``_kernels.c``, built by ``make install`` where a C compiler is found) when it
was built and ``OPRLAB_PURE`` is not set (or empty), else numpy. Both give the same booleans:
the C does the same float products and differences in the same order, each rounded on its
own. The kernel pays where numpy pays per call on tiny arrays (the path search's fans: spd22
in docs/benchmarks.md; A*'s step from each node it pops: :mod:`oprlab.table.search_step`).

May import only the compiled module beside it; numpy.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Protocol

import numpy as np
import numpy.typing as npt

_Floats = npt.NDArray[np.float64]
_Bools = npt.NDArray[np.bool_]
_Ints = npt.NDArray[np.intp]


class Kernel(Protocol):
    """What the compiled module offers (its stub: ``_kernels.pyi``)."""

    SOURCE_DIGEST: str

    def crossed(self, a: _Floats, b: _Floats, p: _Floats, q: _Floats, out: _Bools, /) -> None: ...

    def crossings(self, a: _Floats, b: _Floats, p: _Floats, q: _Floats, out: _Bools, /) -> None: ...

    def inside(
        self, points: _Floats, nx: _Floats, ny: _Floats, d: _Floats, corners: int, out: _Bools, /
    ) -> None: ...

    def straight_clear(
        self,
        a: _Floats,
        b: _Floats,
        p: _Floats,
        q: _Floats,
        nx: _Floats,
        ny: _Floats,
        d: _Floats,
        corners: int,
        bounds: _Floats,
        free_a: _Bools,
        free_b: _Bools,
        ok: _Bools,
        /,
    ) -> None: ...

    def fan_clear(
        self,
        a: _Floats,
        b: _Floats,
        p: _Floats,
        q: _Floats,
        nx: _Floats,
        ny: _Floats,
        d: _Floats,
        corners: int,
        out: _Bools,
        /,
    ) -> None: ...

    def depth(
        self,
        x: float,
        y: float,
        nx: _Floats,
        ny: _Floats,
        d: _Floats,
        inv: _Floats,
        pad: _Floats,
        corners: int,
        /,
    ) -> float: ...

    def convex_hull(self, points: _Floats, out: _Floats, /) -> int: ...

    def free_points(
        self,
        points: _Floats,
        start: int,
        x: float,
        y: float,
        bounds: _Floats,
        nx: _Floats,
        ny: _Floats,
        d: _Floats,
        corners: int,
        out: _Ints,
        /,
    ) -> tuple[int, int]: ...

    def astar_want(
        self,
        base: float,
        dist: _Floats | memoryview,
        under: _Floats | memoryview,
        h: _Floats | memoryview,
        limit: float | None,
        vis: npt.NDArray[np.int8] | memoryview,
        cand: _Ints | memoryview,
        unknown: _Ints | memoryview,
        /,
    ) -> tuple[int, int]: ...

    def astar_relax(
        self,
        base: float,
        dist: _Floats | memoryview,
        h: _Floats | memoryview,
        vis: npt.NDArray[np.int8] | memoryview,
        cand: _Ints | memoryview,
        n: int,
        best: _Floats | memoryview,
        under: _Floats | memoryview,
        came: _Ints | memoryview,
        u: int,
        heap: list[tuple[float, int]],
        /,
    ) -> None: ...

    def astar_run(
        self,
        nodes: _Floats,
        f: int,
        best: _Floats,
        under: _Floats,
        h: _Floats,
        came: _Ints,
        skey: bytes,
        lines: dict[int | bytes, tuple[_Floats, npt.NDArray[np.int8]]],
        line: Callable[[int | bytes, int], tuple[_Floats, npt.NDArray[np.int8]]],
        empty: Callable[[int], _Floats],
        unmeasured: npt.NDArray[np.int8],
        toward: dict[int | bytes, tuple[bool, float]],
        upper: float,
        patience: int,
        walled: Callable[[], bool] | None,
        p: _Floats,
        q: _Floats,
        nx: _Floats,
        ny: _Floats,
        d: _Floats,
        corners: int,
        /,
    ) -> None: ...


def _load() -> Kernel | None:
    if os.environ.get("OPRLAB_PURE"):
        return None
    try:
        from oprlab.table import _kernels
    except ImportError:  # built without a compiler: numpy gives the same answers
        return None
    return _kernels


#: The compiled module, or ``None`` when numpy runs the tests.
COMPILED = _load()
#: Which runs the tests, for a user to read (``make install`` prints it).
IN_USE = "C kernel" if COMPILED is not None else "numpy"
