"""Plane arithmetic that rounds alike everywhere (DESIGN: one seed gives one game)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from oprlab.table.planar import dot2, rotate

small = st.floats(min_value=-100.0, max_value=100.0, allow_nan=False)


@given(st.lists(st.tuples(small, small), min_size=1, max_size=6), st.floats(0.0, 2 * math.pi))
def test_rotate_is_each_product_rounded_on_its_own(
    pts: list[tuple[float, float]], a: float
) -> None:
    points = np.array(pts)
    c, s = math.cos(a), math.sin(a)
    got = rotate(points, c, s)
    for (x, y), (gx, gy) in zip(pts, got.tolist(), strict=True):
        assert gx == (x * c) - (y * s) and gy == (x * s) + (y * c)  # Python floats: no fusing
    # and it is the rotation numpy's matrix product gives, to rounding
    assert np.allclose(got, points @ np.array([[c, s], [-s, c]]), rtol=0, atol=1e-12)


def test_quarter_turns_are_exact() -> None:
    """Formations face along the table's axes: a quarter turn moves no point off its grid."""
    pts = np.array([[1.25, -2.5], [0.0, 3.0]])
    turned = rotate(pts, 0.0, 1.0)
    assert turned.tolist() == [[2.5, 1.25], [-3.0, 0.0]]


def test_dot2_broadcasts_like_a_matrix_product() -> None:
    w = np.arange(12, dtype=np.float64).reshape(2, 3, 2)
    u = np.array([0.5, -2.0])
    assert dot2(w, u).tolist() == (w @ u).tolist()
    assert float(dot2(u, u)) == 4.25
