"""Measuring (seed 002 "Measuring"): bases, units, points and terrain; vectorised = brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from oprlab.table.measure import (
    bases_fully_in,
    centres_in,
    elevation,
    model_distances,
    piece_distance,
    point_distances,
    segment_piece_distance,
    terrain_distances,
    unit_distance,
    unit_distances,
    within,
)
from oprlab.table.model import Placement, Table, base_radius, is_large
from oprlab.table.terrain import make_piece
from oprlab.units.model import Bases, Rule, Unit

HILL = make_piece("Hill", [(10, 10), (20, 10), (20, 20), (10, 20)], "hill", height=2.5)
MESA = make_piece("Mesa", [(14, 14), (16, 14), (16, 16), (14, 16)], "hill", height=5)
WOOD = make_piece("Wood", [(30, 30), (40, 30), (40, 40), (30, 40)], "forest")
TABLE = Table(pieces=(HILL, MESA, WOOD))


def unit(*xy: tuple[float, float], r: float = 0.5, removed: list[bool] | None = None) -> Placement:
    p = Placement(np.array(xy, dtype=float), np.full(len(xy), r))
    if removed is not None:
        p.removed = np.array(removed)
    return p


def test_model_to_model_is_between_the_closest_points_of_the_bases() -> None:
    """seed 002_fdb385c07cc953af "Measuring": "from/to the closest point of their bases"."""
    a = unit((0, 0), r=0.5)
    b = Placement(np.array([[3.0, 4.0], [0.0, 1.0]]), np.array([1.0, 0.5]))
    assert model_distances(a, b) == pytest.approx(np.array([[3.5, 0.0]]))


def test_unit_to_unit_is_between_the_closest_models() -> None:
    """seed 002 "Measuring": "between two units ... from/to the closest model in each unit"."""
    a = unit((0, 0), (10, 0))
    b = unit((13, 0), (30, 0))
    assert unit_distance(a, b) == pytest.approx(2.0)
    assert within(a, b, 2.0) and not within(a, b, 1.99)
    assert unit_distances(a, [b, unit((0, 5))]) == pytest.approx([2.0, 4.0])


def test_removed_models_do_not_count() -> None:
    a = unit((0, 0), (10, 0), removed=[False, True])
    b = unit((13, 0), (30, 0))
    assert unit_distance(a, b) == pytest.approx(12.0)
    assert unit_distance(unit((0, 0), removed=[True]), b) == math.inf


placements = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        hnp.arrays(np.float64, (n, 2), elements=st.floats(0, 48)),
        hnp.arrays(np.float64, (n,), elements=st.floats(0.3, 2.5)),
    )
)


@settings(max_examples=60, deadline=None)
@given(placements, placements)
def test_distances_never_negative_symmetric_and_match_brute_force(
    a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]
) -> None:
    pa, pb = Placement(*a), Placement(*b)
    d = model_distances(pa, pb)
    assert (d >= 0).all()
    assert np.array_equal(d, model_distances(pb, pa).T)
    for i, j in np.ndindex(d.shape):
        gap = math.dist(pa.centres[i], pb.centres[j]) - pa.radii[i] - pb.radii[j]
        assert d[i, j] == pytest.approx(max(gap, 0.0), abs=1e-9)
    assert unit_distance(pa, pb) == pytest.approx(d.min())


def test_points_to_bases() -> None:
    """Objective markers measure to the closest point of a base."""
    b = unit((3, 4), (0, 0.2), r=1)
    assert point_distances(np.array([[0.0, 0.0]]), b) == pytest.approx(np.array([[4.0, 0.0]]))


def test_bases_to_terrain() -> None:
    models = unit((5, 15), (15, 15), (25, 35))
    d = terrain_distances(TABLE, models)
    assert d.shape == (3, 3)
    assert d[0] == pytest.approx([4.5, 8.5, math.hypot(25, 15) - 0.5])
    assert d[1, 0] == 0 and d[1, 1] == 0
    assert d[2, 2] == pytest.approx(4.5)
    assert terrain_distances(TABLE, unit()).shape == (0, 3)


def test_points_and_segments_to_a_piece() -> None:
    assert piece_distance(WOOD, np.array([[35, 35], [35, 45]])) == pytest.approx([0, 5])
    start = np.array([[0.0, 35.0], [0.0, 45.0]])
    end = np.array([[50.0, 35.0], [50.0, 45.0]])
    assert segment_piece_distance(start, end, WOOD) == pytest.approx([0, 5])


def test_in_and_fully_in() -> None:
    """seed 003 "Cover Terrain": "fully inside" means the whole base."""
    models = unit((15, 15), (10.2, 15), (31, 35), (0, 0))
    assert centres_in(TABLE, models.centres).tolist() == [
        [True, True, False],
        [True, False, False],
        [False, False, True],
        [False, False, False],
    ]
    assert bases_fully_in(TABLE, models)[:, [0, 2]].tolist() == [
        [True, False],
        [False, False],
        [False, True],
        [False, False],
    ]


def test_elevation_is_the_tallest_elevated_piece_underfoot() -> None:
    """seed 002 "Hills": elevated terrain for models on top."""
    pts = np.array([[12, 12], [15, 15], [35, 35], [0, 0]])
    assert elevation(TABLE, pts) == pytest.approx([2.5, 5, 0, 0])


@pytest.mark.parametrize(
    ("tough", "hero", "large"),
    [(1, False, False), (5, False, False), (6, False, True), (6, True, False), (7, True, True)],
)
def test_large_and_small_models(tough: int, hero: bool, large: bool) -> None:
    """seed 002 "Terms": Large Model "Tough (6) and greater, or Hero with greater than Tough (6)";
    Small Model the rest."""
    rules = (Rule("Tough", tough),) + ((Rule("Hero"),) if hero else ())
    assert is_large(Unit("Beast", 1, 4, 4, rules=rules)) is large


def test_base_radius_from_the_list_else_by_tough() -> None:
    """Base sizes in mm from the list (round, else square), else a default by Tough."""
    assert base_radius(Unit("A", 1, 4, 4, bases=Bases(round=32))) == pytest.approx(32 / 25.4 / 2)
    assert base_radius(Unit("B", 1, 4, 4, bases=Bases(square=50))) == pytest.approx(50 / 25.4 / 2)
    assert base_radius(Unit("C", 1, 4, 4)) == pytest.approx(25 / 25.4 / 2)
    tough6 = Unit("D", 1, 4, 4, rules=(Rule("Tough", 6),))
    assert base_radius(tough6) == pytest.approx(40 / 25.4 / 2)
