"""Segment crossings (paths round terrain, seed 003 "Terrain") agree with exact arithmetic.

Coordinates on a 1/8" grid make every product exact in floating point, so the float test must
give the exact rational answer whatever the CPU (no fused multiply-add can change it); the
rational one is written out independently here.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from oprlab.table.blockers import crossings

coord = st.integers(min_value=0, max_value=48 * 8).map(lambda k: k / 8)
point = st.tuples(coord, coord)
segment = st.tuples(point, point)


def _cross(ox: Fraction, oy: Fraction, ux: Fraction, uy: Fraction) -> Fraction:
    return ox * uy - oy * ux


def _exact(a: tuple[float, float], b: tuple[float, float], p: tuple[float, float],
           q: tuple[float, float]) -> bool:  # fmt: skip
    """Proper crossing: each segment's ends strictly on both sides of the other's line."""
    ax, ay, bx, by = map(Fraction, (*a, *b))
    px, py, qx, qy = map(Fraction, (*p, *q))
    s_p = _cross(bx - ax, by - ay, px - ax, py - ay)
    s_q = _cross(bx - ax, by - ay, qx - ax, qy - ay)
    s_a = _cross(qx - px, qy - py, ax - px, ay - py)
    s_b = _cross(qx - px, qy - py, bx - px, by - py)
    return s_p * s_q < 0 and s_a * s_b < 0


@given(st.lists(segment, min_size=1, max_size=4), st.lists(segment, min_size=1, max_size=5))
def test_crossings_match_exact_arithmetic(
    paths: list[tuple[tuple[float, float], tuple[float, float]]],
    edges: list[tuple[tuple[float, float], tuple[float, float]]],
) -> None:
    a = np.array([s[0] for s in paths])
    b = np.array([s[1] for s in paths])
    p = np.array([e[0] for e in edges])
    q = np.array([e[1] for e in edges])
    got = crossings(a, b, p, q)
    want = [[_exact(s[0], s[1], e[0], e[1]) for e in edges] for s in paths]
    assert got.tolist() == want


def test_touching_a_corner_or_running_along_an_edge_is_not_a_crossing() -> None:
    a, b = np.array([[0.0, 0.0]]), np.array([[4.0, 0.0]])
    edges = np.array([[2.0, 0.0], [1.0, 0.0], [2.0, -1.0]]), np.array([[2.0, 3.0], [3.0, 0.0],
                                                                        [2.0, 1.0]])  # fmt: skip
    assert crossings(a, b, *edges).tolist() == [[False, False, True]]
