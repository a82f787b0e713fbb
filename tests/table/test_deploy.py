"""Deployment zones and objective markers (seed 002 "Placing Objectives", seed 003 "Mission",
"Deployment")."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.errors import OptionError
from oprlab.rng import make_rng
from oprlab.table.deploy import (
    OBJECTIVE_RADIUS,
    deployment_zone,
    fully_in_zone,
    in_deployment_zone,
    mission_table,
    objective_count,
    objective_ok,
    place_objectives,
)
from oprlab.table.model import Placement, Table, TerrainType
from oprlab.table.terrain import generate_table, make_piece, piece_polygon, zone_boxes


def test_zones_are_twelve_inches_deep_along_opposite_edges() -> None:
    """seed 003_8abb008d4113ed75 "Deployment": "within 12\\" of their table edge"; "Opponent
    takes opposite edge"."""
    table = Table()
    assert deployment_zone(table, 0) == (0, 0, 48, 12)
    assert deployment_zone(table, 1) == (0, 36, 48, 48)
    assert deployment_zone(Table(depth=36, deployment_depth=6), 1) == (0, 30, 48, 36)
    with pytest.raises(OptionError):
        deployment_zone(table, 2)


def test_zones_match_the_generators_boxes() -> None:
    table = generate_table(3, deployment_depth=9)
    boxes = zone_boxes(table.width, table.depth, table.deployment_depth)
    for player, zone in enumerate(boxes):
        assert zone.bounds == deployment_zone(table, player)


def test_points_and_whole_bases_in_a_zone() -> None:
    table = Table()
    pts = np.array([[5, 5], [5, 12], [5, 12.01], [47, 40]])
    assert in_deployment_zone(table, pts, 0).tolist() == [True, True, False, False]
    assert in_deployment_zone(table, pts, 1).tolist() == [False, False, False, True]
    units = Placement(np.array([[5.0, 11.4], [5.0, 11.6], [0.4, 3.0]]), np.full(3, 0.5))
    assert fully_in_zone(table, units, 0).tolist() == [True, False, False]


def test_objective_count_is_d3_plus_2() -> None:
    """seed 002 "Placing Objectives" and seed 003 "Mission" 1: "D3+2 objective markers"."""
    rng = make_rng(1).rng
    counts = [objective_count(rng) for _ in range(3000)]
    assert set(counts) == {3, 4, 5}
    for c in (3, 4, 5):
        assert counts.count(c) / 3000 == pytest.approx(1 / 3, abs=0.04)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 5), st.booleans())
def test_markers_keep_the_rules(seed: int, count: int, mirror: bool) -> None:
    """seed 002 "Placing Objectives": "outside of the deployment zones and over 9\\" away from
    other markers"; "markers can't be placed in unreachable position, like impassable
    terrain"."""
    table = generate_table(seed % 500)
    markers = place_objectives(table, make_rng(seed).rng, count, mirror=mirror)
    assert len(markers) == count
    for (ax, ay), (bx, by) in itertools.combinations(markers, 2):
        assert math.dist((ax, ay), (bx, by)) > 9
    walls = [piece_polygon(p) for p in table.pieces if p.has(TerrainType.IMPASSABLE)]
    for x, y in markers:
        assert 0 <= x <= 48 and 12 < y < 36
        assert all(w.distance(shapely.Point(x, y)) > OBJECTIVE_RADIUS for w in walls)


def test_mirrored_markers_answer_each_other_on_a_symmetric_table() -> None:
    """The second player answers each marker with its point reflection when that is legal."""
    table = generate_table(2)
    markers = place_objectives(table, make_rng(9).rng, 4)
    assert markers[1] == (round(48 - markers[0][0], 2), round(48 - markers[0][1], 2))
    assert markers[3] == (round(48 - markers[2][0], 2), round(48 - markers[2][1], 2))
    free = place_objectives(table, make_rng(9).rng, 4, mirror=False)
    assert free[0] == markers[0] and free[1] != markers[1]


def test_markers_avoid_impassable_terrain() -> None:
    """seed 002 "Placing Objectives": not in impassable terrain."""
    wall = make_piece("Cliff", [(0, 12.5), (48, 12.5), (48, 35.5), (0, 35.5)], "forest_wall")
    table = Table(pieces=(wall,))
    assert not objective_ok(table, (24, 24))
    with pytest.raises(OptionError, match="no legal place for objective 1"):
        place_objectives(table, make_rng(1).rng, 1)


def test_too_many_markers_for_the_room() -> None:
    """Six markers do not fit over 9" apart in a 20" x 12" band: once no random spot is over
    9" from the others, each goes at the legal point farthest from them (issue 10, the GFF
    reading ``stuck_markers="farthest"``) and the count is kept."""
    table = Table(width=20, depth=36, deployment_depth=12)
    points = place_objectives(table, make_rng(1).rng, 6)
    assert len(points) == 6 and all(objective_ok(table, p) for p in points)
    with pytest.raises(OptionError):
        place_objectives(table, make_rng(1).rng, -1)


def test_mission_table_is_reproducible_and_keeps_the_terrain() -> None:
    a, b = mission_table(17), mission_table(17)
    assert a == b
    assert a.pieces == generate_table(17).pieces
    assert 3 <= len(a.objectives) <= 5
    assert len(mission_table(17, objectives=2, pieces=10).objectives) == 2
