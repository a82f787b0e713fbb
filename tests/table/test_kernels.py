"""The table's C kernel (``_kernels.c``) gives numpy's booleans, and is the one in use when built.

The path search asks whether each sight line of a fan properly crosses an obstacle edge
(touching a corner or running along an edge is not a crossing, so paths may hug a corner:
seed 003 "Terrain") and whether points lie inside other units' blockers (the 1" spacing
"throughout the movement path": seed 002 "Movement"). The kernel must give exactly the numpy
answers, or a seed would play another game with it built: the same products of the same
differences, on random fans including touching ends, edges run along, collinear lines and
near-degenerate ones, and on fans like the search's (from one blocker corner to the others).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from oprlab.table import blockers, kernels
from oprlab.table.blockers import (
    Blockers,
    _octagon_hull,
    crossed_any_compiled,
    crossed_any_numpy,
    crossed_from_compiled,
    crossed_from_numpy,
    crossings_compiled,
    crossings_numpy,
)
from oprlab.table.model import FloatArray

compiled = pytest.mark.skipif(kernels.COMPILED is None, reason="the C kernel is not in use")

#: Coordinates on a coarse grid (ends touch, edges run along lines, points are collinear),
#: some nudged by a few ulps or by 1e-13 (near-degenerate: products near the 1e-12 bound).
grid = st.integers(min_value=-4, max_value=4).map(float)
nudge = st.sampled_from([0.0, 0.0, 0.0, 1e-13, -1e-13, 2.5e-7, 5e-16, -5e-16, 1.5e-6, -1e-6])
coord = st.builds(lambda g, n, s: g * s + n, grid, nudge, st.sampled_from([1.0, 0.5, 3.0]))
wide = st.floats(min_value=-60.0, max_value=60.0, allow_nan=False, allow_infinity=False)


def _points(n: int, c: st.SearchStrategy[float]) -> st.SearchStrategy[FloatArray]:
    return arrays(np.float64, (n, 2), elements=c)


@st.composite
def fans(draw: st.DrawFn) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """A fan from ``a`` to ``b`` and edges ``p -> q``: grid points, or any floats."""
    c = draw(st.sampled_from([coord, wide]))
    k, m = draw(st.integers(0, 12)), draw(st.integers(0, 12))
    a = draw(_points(1, c))[0]
    b = draw(_points(k, c))
    p = draw(_points(m, c))
    q = p + draw(_points(m, c)) if draw(st.booleans()) else draw(_points(m, c))
    if m and k and draw(st.booleans()):  # lines ending at edge ends, as the search's do
        b[: min(k, m)] = p[: min(k, m)]
    return a, b, p, q


@compiled
@settings(max_examples=400)
@given(fans())
def test_compiled_fan_test_gives_numpys_booleans(
    fan: tuple[FloatArray, FloatArray, FloatArray, FloatArray],
) -> None:
    a, b, p, q = fan
    want = crossed_from_numpy(a, b, p, q)
    assert crossed_from_compiled(a, b, p, q).tolist() == want.tolist()
    # and the full matrix's rows (a repeated): the same products again
    full = crossings_numpy(np.repeat(a[None, :], len(b), axis=0), b, p, q).any(axis=1)
    assert full.tolist() == want.tolist()


@compiled
@settings(max_examples=300)
@given(fans(), st.data())
def test_compiled_segment_test_gives_numpys_booleans(
    fan: tuple[FloatArray, FloatArray, FloatArray, FloatArray], data: st.DataObject
) -> None:
    """Segments each from its own start (the search's straight checks): numpy's rows' any."""
    _, b, p, q = fan
    a = b[::-1] + data.draw(_points(len(b), coord))  # starts at other ends, nudged or not
    if len(b) > 1 and data.draw(st.booleans()):
        a[0] = b[0]  # a segment of no length
    want = crossed_any_numpy(a, b, p, q)
    assert crossed_any_compiled(a, b, p, q).tolist() == want.tolist()


@compiled
@settings(max_examples=300)
@given(fans(), st.data())
def test_compiled_crossings_give_numpys_matrix(
    fan: tuple[FloatArray, FloatArray, FloatArray, FloatArray], data: st.DataObject
) -> None:
    """Every pair of segment and edge (the climb over elevated edges weighs each crossing by
    its height: seed 003 "Terrain"), from one start (a fan) or each from its own: numpy's
    matrix, and numpy's from the start given once or repeated."""
    a, b, p, q = fan
    one = a[None, :]
    want = crossings_numpy(np.repeat(one, len(b), axis=0), b, p, q)
    assert crossings_numpy(one, b, p, q).tolist() == want.tolist()
    assert crossings_compiled(one, b, p, q).tolist() == want.tolist()
    starts = b[::-1] + data.draw(_points(len(b), coord))
    assert crossings_compiled(starts, b, p, q).tolist() == crossings_numpy(starts, b, p, q).tolist()


@compiled
def test_compiled_fan_test_on_the_searchs_kind_of_fan() -> None:
    """Fans from one blocker corner to every other corner among blockers of several units
    (octagons, as one-model units give): lines that end on corners and run along edges."""
    rng = np.random.default_rng(13)
    for _ in range(300):
        centres = rng.uniform(0.0, 48.0, (int(rng.integers(2, 14)), 2))
        polys = [
            _octagon_hull(float(x), float(y), float(rng.uniform(1.0, 4.0))) for x, y in centres
        ]
        bl = Blockers(polys)
        p, q = bl.corners, bl.ends
        for a in p[rng.choice(len(p), 3, replace=False)]:
            b = np.concatenate([p, rng.uniform(0.0, 48.0, (5, 2))])
            want = crossed_from_numpy(a, b, p, q)
            assert crossed_from_compiled(a, b, p, q).tolist() == want.tolist()


@compiled
def test_compiled_fan_test_takes_strided_and_non_float_arrays() -> None:
    """A strided view or an integer array is copied as the kernel reads it (never misread)."""
    wide = np.array([[0, 0, 9], [4, 4, 9], [4, 0, 9], [0, 4, 9]], dtype=np.float64)
    b = wide[1::2, :2]  # every other row: strided
    p, q = np.array([[4, 0]]), np.array([[0, 4]])  # int64: the same width as a double
    assert not b.flags.c_contiguous and p.dtype == np.int64
    got = crossed_from_compiled(np.zeros(2), b, p, q).tolist()
    assert got == crossed_from_numpy(np.zeros(2), b, 1.0 * p, 1.0 * q).tolist()
    assert got == [True, False]  # through the edge; to its end


@st.composite
def blocker_sets(draw: st.DrawFn) -> tuple[Blockers, FloatArray]:
    """Octagon blockers (some overlapping) and points: their corners, and grid and any points."""
    n = draw(st.integers(1, 6))
    polys = [
        _octagon_hull(draw(wide) / 4, draw(wide) / 4, draw(st.floats(0.02, 6.0))) for _ in range(n)
    ]
    bl = Blockers(polys)
    pts = np.concatenate(
        [bl.corners, (bl.corners + bl.ends) / 2, draw(_points(draw(st.integers(0, 30)), coord)),
         draw(_points(draw(st.integers(0, 30)), wide)) / 4]
    )  # fmt: skip
    return bl, pts


@compiled
@settings(max_examples=300)
@given(blocker_sets())
def test_compiled_inside_test_gives_numpys_booleans(case: tuple[Blockers, FloatArray]) -> None:
    bl, pts = case
    assert bl.contains(pts).tolist() == bl.contains_numpy(pts).tolist()
    # many points at once take numpy's bounding-box path: the same answers
    many = np.repeat(pts, 1 + 4096 // len(pts), axis=0)
    assert bl.contains(many).tolist() == bl.contains_numpy(many).tolist()


def test_the_kernel_is_in_use_when_built_unless_pure() -> None:
    """Built and not switched off, the compiled tests run (a kernel built but silently not used
    fails here); ``OPRLAB_PURE`` set, numpy runs them."""
    built = importlib.util.find_spec("oprlab.table._kernels") is not None
    if os.environ.get("OPRLAB_PURE") or not built:
        assert kernels.COMPILED is None and kernels.IN_USE == "numpy"
        assert blockers.crossed_from is crossed_from_numpy
        assert blockers.crossings is crossings_numpy
    else:
        assert kernels.COMPILED is not None and kernels.IN_USE == "C kernel"
        assert blockers.crossed_from is crossed_from_compiled
        assert blockers.crossings is crossings_compiled


def test_oprlab_pure_switches_to_numpy() -> None:
    code = (
        "from oprlab.table import blockers, kernels;"
        "print(kernels.IN_USE, blockers.crossed_from.__name__)"
    )
    env = {**os.environ, "OPRLAB_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["numpy", "crossed_from_numpy"]


@compiled
def test_the_kernel_in_use_was_built_from_the_source_here() -> None:
    """An edited ``_kernels.c`` (or the ``_astar.c`` it includes) not rebuilt (``make
    install`` rebuilds it) must not run silently: the module carries the digest of the files
    it was built from (setup.py)."""
    here = Path(blockers.__file__)
    sources = [here.with_name(name) for name in ("_kernels.c", "_astar.c")]
    digest = hashlib.sha256(b"".join(s.read_bytes() for s in sources)).hexdigest()[:16]
    assert kernels.COMPILED is not None
    assert digest == kernels.COMPILED.SOURCE_DIGEST, "stale C kernel: run make install"
