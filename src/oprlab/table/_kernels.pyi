# The C kernel's functions (_kernels.c); oprlab.table.kernels chooses whether they run.
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

#: The first 16 hex digits of the sha256 of the _kernels.c it was built from.
SOURCE_DIGEST: str

def crossed(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    q: npt.NDArray[np.float64],
    out: npt.NDArray[np.bool_],
    /,
) -> None: ...
def crossings(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    q: npt.NDArray[np.float64],
    out: npt.NDArray[np.bool_],
    /,
) -> None: ...
def inside(
    points: npt.NDArray[np.float64],
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    corners: int,
    out: npt.NDArray[np.bool_],
    /,
) -> None: ...
def fan_clear(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    q: npt.NDArray[np.float64],
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    corners: int,
    out: npt.NDArray[np.bool_],
    /,
) -> None: ...
def straight_clear(
    a: npt.NDArray[np.float64],
    b: npt.NDArray[np.float64],
    p: npt.NDArray[np.float64],
    q: npt.NDArray[np.float64],
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    corners: int,
    bounds: npt.NDArray[np.float64],
    free_a: npt.NDArray[np.bool_],
    free_b: npt.NDArray[np.bool_],
    ok: npt.NDArray[np.bool_],
    /,
) -> None: ...
def astar_want(
    base: float,
    dist: npt.NDArray[np.float64] | memoryview,
    under: npt.NDArray[np.float64] | memoryview,
    h: npt.NDArray[np.float64] | memoryview,
    limit: float | None,
    vis: npt.NDArray[np.int8] | memoryview,
    cand: npt.NDArray[np.intp] | memoryview,
    unknown: npt.NDArray[np.intp] | memoryview,
    /,
) -> tuple[int, int]: ...
def astar_relax(
    base: float,
    dist: npt.NDArray[np.float64] | memoryview,
    h: npt.NDArray[np.float64] | memoryview,
    vis: npt.NDArray[np.int8] | memoryview,
    cand: npt.NDArray[np.intp] | memoryview,
    n: int,
    best: npt.NDArray[np.float64] | memoryview,
    under: npt.NDArray[np.float64] | memoryview,
    came: npt.NDArray[np.intp] | memoryview,
    u: int,
    heap: list[tuple[float, int]],
    /,
) -> None: ...
def astar_run(
    nodes: npt.NDArray[np.float64],
    f: int,
    best: npt.NDArray[np.float64],
    under: npt.NDArray[np.float64],
    h: npt.NDArray[np.float64],
    came: npt.NDArray[np.intp],
    skey: bytes,
    lines: dict[int | bytes, tuple[npt.NDArray[np.float64], npt.NDArray[np.int8]]],
    line: Callable[[int | bytes, int], tuple[npt.NDArray[np.float64], npt.NDArray[np.int8]]],
    empty: Callable[[int], npt.NDArray[np.float64]],
    unmeasured: npt.NDArray[np.int8],
    toward: dict[int | bytes, tuple[bool, float]],
    upper: float,
    patience: int,
    walled: Callable[[], bool] | None,
    p: npt.NDArray[np.float64],
    q: npt.NDArray[np.float64],
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    corners: int,
    /,
) -> None: ...
def free_points(
    points: npt.NDArray[np.float64],
    start: int,
    x: float,
    y: float,
    bounds: npt.NDArray[np.float64],
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    corners: int,
    out: npt.NDArray[np.intp],
    /,
) -> tuple[int, int]: ...
def convex_hull(points: npt.NDArray[np.float64], out: npt.NDArray[np.float64], /) -> int: ...
def depth(
    x: float,
    y: float,
    nx: npt.NDArray[np.float64],
    ny: npt.NDArray[np.float64],
    d: npt.NDArray[np.float64],
    inv: npt.NDArray[np.float64],
    pad: npt.NDArray[np.float64],
    corners: int,
    /,
) -> float: ...
