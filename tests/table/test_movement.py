"""Moving units: allowances, paths around terrain, difficult and dangerous terrain, climbing,
Flying, spacing and the unit's move as a group (seeds 002 and 003)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import shapely

from oprlab.errors import OptionError
from oprlab.mechanics.base import Test
from oprlab.mechanics.registry import get_mechanic
from oprlab.table.blockers import crossings
from oprlab.table.formation import CLEARANCE, formation, gaps, is_coherent, overlaps
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.movement import (
    MoveRules,
    allowance,
    dangerous_terrain_checks,
    move_unit,
    teleport_unit,
    unit_allowance,
)
from oprlab.table.paths import find_path, nav_graph, walk
from oprlab.units.model import Rule, Unit

T = TerrainType


def rect(
    name: str, x0: float, y0: float, x1: float, y1: float, *types: T, height: float = 0.0
) -> TerrainPiece:
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainPiece(name, outline, frozenset(types), height)


def unit(
    n: int, centre: tuple[float, float], facing: tuple[float, float] = (0.0, 1.0)
) -> Placement:
    return Placement(formation(n, 0.5, centre, facing), np.full(n, 0.5))


def polyline_length(points: tuple[tuple[float, float], ...]) -> float:
    arr = np.array(points)
    return float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0


def clears(points: tuple[tuple[float, float], ...], piece: TerrainPiece, radius: float) -> bool:
    """The base swept along the path never overlaps the piece."""
    poly = shapely.Polygon(piece.outline)
    geom = shapely.LineString(points) if len(points) > 1 else shapely.Point(points[0])
    return bool(shapely.distance(geom, poly) >= radius - 1e-9)


# --- allowances ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "base", "fast", "slow"),
    [("hold", 0, 0, 0), ("advance", 6, 8, 4), ("rush", 12, 16, 8), ("charge", 12, 16, 8)],
)
def test_allowance_table(action: str, base: float, fast: float, slow: float) -> None:
    """seed 003 "Movement by Action" (Base / Fast / Slow) and seed 002 "Activation Actions"
    (Hold doesn't move, Advance 6", Rush 12", Charge 12")."""
    assert allowance(action) == base
    assert allowance(action, fast=True) == fast
    assert allowance(action, slow=True) == slow
    assert allowance(action.upper(), fast=True, slow=True) == base


def test_unit_allowance_reads_fast_and_slow() -> None:
    """seed 003 "Fast": +2" Advance, +4" Rush/Charge; "Slow": -2"/-4"."""
    fast = Unit("Bikers", 3, 4, 4, rules=(Rule("Fast"),))
    slow = Unit("Walkers", 1, 4, 2, rules=(Rule("Slow"), Rule("Tough", 6)))
    assert unit_allowance(fast, "charge") == 16 and unit_allowance(fast, "advance") == 8
    assert unit_allowance(slow, "rush") == 8 and unit_allowance(slow, "hold") == 0


def test_allowance_unknown_action() -> None:
    with pytest.raises(OptionError) as err:
        allowance("sprint")
    assert err.value.value == "sprint"


def test_move_rules_from_unit_and_validation() -> None:
    """seed 003 "Strider", "Flying": a unit's special rules set how it moves."""
    u = Unit("Skimmers", 3, 4, 4, rules=(Rule("Flying"), Rule("Strider")))
    rules = MoveRules.of(u, "riverside")
    assert rules.flying and rules.strider and rules.system == "riverside"
    with pytest.raises(OptionError):
        MoveRules(system="wwpd")
    with pytest.raises(OptionError):
        MoveRules(climb_limit=-1.0)


# --- geometry ------------------------------------------------------------------------------


def test_crossings_proper_only() -> None:
    """A crossing is proper: touching an end or running along an edge is not one."""
    a = np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 1.0]])
    b = np.array([[2.0, 2.0], [1.0, 1.0], [2.0, 0.0], [2.0, 1.0]])
    p = np.array([[0.0, 2.0], [1.0, 0.0]])
    q = np.array([[2.0, 0.0], [3.0, 0.0]])
    got = crossings(a, b, p, q)
    assert got.tolist() == [[True, False], [False, False], [False, False], [True, False]]


WALL = rect("wall", 10, 20, 30, 22, T.IMPASSABLE, height=4.0)


def test_path_goes_around_a_wall_by_the_shortest_way() -> None:
    """seed 002 "Impassable Terrain": units may not move through it; seed 002 "Movement":
    around corners. The shortest path hugs the wall's corners, inflated by the base radius."""
    table = Table(pieces=(WALL,))
    nav = nav_graph(table, 0.5)
    path = find_path(nav, (20.0, 14.0), (20.0, 30.0))
    big = 0.5 + CLEARANCE
    c1, c2 = np.array([10 - big, 20 - big]), np.array([10 - big, 22 + big])
    expected = float(np.hypot(*(c1 - (20, 14))) + (c2 - c1)[1] + np.hypot(*((20, 30) - c2)))
    assert path.reached
    assert path.length == pytest.approx(expected, abs=1e-9)
    assert path.climb == 0
    assert clears(path.points, WALL, 0.5)
    straight = find_path(nav, (5.0, 5.0), (40.0, 10.0))
    assert straight.points == ((5.0, 5.0), (40.0, 10.0))


def test_path_through_a_gap_only_if_the_base_fits() -> None:
    """seed 002 "Movement": "When passing between 2 objects, the model must be able to fit"."""
    left = rect("left", 0, 20, 23.4, 22, T.IMPASSABLE)
    right = rect("right", 24.6, 20, 48, 22, T.IMPASSABLE)  # a 1.2" gap
    table = Table(pieces=(left, right))
    small = find_path(nav_graph(table, 0.5), (24.0, 14.0), (24.0, 30.0))
    assert small.reached and small.length == pytest.approx(16.0)
    large = find_path(nav_graph(table, 1.0), (24.0, 14.0), (24.0, 30.0))
    assert not large.reached  # a 2" base cannot pass, and the wall spans the table


def test_walk_stops_at_the_budget() -> None:
    pts, used = walk(None, ((0.0, 0.0), (3.0, 0.0), (3.0, 4.0)), 5.0)
    assert pts == ((0.0, 0.0), (3.0, 0.0), (3.0, 2.0))
    assert used == pytest.approx(5.0)


HILL = rect("hill", 10, 20, 38, 30, T.ELEVATED, height=2.0)


def test_climbing_counts_vertical_distance() -> None:
    """seed 002 "Terrain Movement": units may climb terrain up to 3" tall as part of the move,
    measuring vertically: 10" across and 2" up is 12" of movement."""
    table = Table(pieces=(HILL,))
    nav = nav_graph(table, 0.5)
    path = find_path(nav, (24.0, 14.0), (24.0, 24.0))
    assert path.length == pytest.approx(10.0) and path.climb == pytest.approx(2.0)
    assert path.cost == pytest.approx(12.0)
    down = find_path(nav, (24.0, 24.0), (24.0, 34.0))
    assert down.cost == pytest.approx(12.0)  # climbing down counts too
    pts, used = walk(nav, path.points, 7.0)  # 6" to the foot, then a 2" climb will not fit
    assert pts[-1][1] < 20.0 and pts[-1][1] == pytest.approx(20.0, abs=1e-5)
    assert used <= 7.0


def test_climb_limit() -> None:
    """seed 002 "Terrain Movement": up to 3" tall may be climbed; a taller piece is gone
    around. Flying measures as if the board were flat (seed 002 "Flying")."""
    tall = rect("tower", 20, 18, 28, 22, T.ELEVATED, height=3.5)
    table = Table(pieces=(tall,))
    path = find_path(nav_graph(table, 0.5), (24.0, 14.0), (24.0, 26.0))
    assert clears(path.points, tall, 0.5)
    low = Table(pieces=(rect("step", 20, 18, 28, 22, T.ELEVATED, height=3.0),))
    over = find_path(nav_graph(low, 0.5), (24.0, 14.0), (24.0, 26.0))
    assert over.length == pytest.approx(12.0) and over.climb == pytest.approx(6.0)
    u = Placement(np.array([[24.0, 14.0]]), np.array([0.5]))
    flat = move_unit(low, u, [], (24.0, 26.0), 12.0, rules=MoveRules(flying=True))
    assert flat.path_lengths[0] == pytest.approx(12.0)
    assert flat.placement.centres[0] == pytest.approx((24.0, 26.0))


# --- a unit's move ---------------------------------------------------------------------------


def test_advance_on_open_ground_keeps_the_formation() -> None:
    """seed 002 "Advance Action": all models move up to 6"; the unit keeps its shape."""
    u = unit(5, (24.0, 10.0))
    r = move_unit(Table(), u, [], (24.0, 40.0), 6.0)
    assert np.allclose(r.placement.centres - u.centres, [0.0, 6.0])
    assert np.allclose(r.path_lengths, 6.0)
    assert r.advanced == pytest.approx(6.0) and r.coherent and not r.difficult
    near = move_unit(Table(), u, [], (26.0, 12.0), 6.0)
    assert np.allclose(near.placement.centres.mean(axis=0), (26.0, 12.0))


def test_hold_and_removed_models_stay() -> None:
    """seed 002 "Hold Action": the models may not move; removed models never move."""
    u = unit(5, (24.0, 10.0))
    u.removed[4] = True
    held = move_unit(Table(), u, [], (24.0, 40.0), allowance("hold"))
    assert np.array_equal(held.placement.centres, u.centres)
    r = move_unit(Table(), u, [], (24.0, 40.0), 6.0)
    assert np.array_equal(r.placement.centres[4], u.centres[4])
    assert r.path_lengths[4] == 0


def test_rush_around_a_wall() -> None:
    """seed 002 "Impassable Terrain" and "Movement": a Rush toward a goal behind a wall goes
    round it: no base crosses the wall, nobody moves over 12", the unit stays together."""
    table = Table(pieces=(WALL,))
    u = unit(5, (20.0, 14.0))
    r = move_unit(table, u, [], (20.0, 30.0), allowance("rush"))
    assert r.advanced > 6
    for k, pts in enumerate(r.paths):
        assert clears(pts, WALL, 0.5)
        assert polyline_length(pts) <= r.path_lengths[k] + 1e-9 <= 12 + 1e-9
    assert r.coherent and not overlaps([r.placement])


def test_difficult_terrain_caps_the_whole_unit() -> None:
    """seed 002 "Difficult Terrain": if any model moves in or through it, no model of the
    unit moves more than 6"; seed 003 "Difficult Terrain" the same."""
    band = Table(pieces=(rect("ruins", 0, 20, 48, 24, T.DIFFICULT, T.COVER),))
    u = unit(5, (24.0, 14.0))
    r = move_unit(band, u, [], (24.0, 40.0), allowance("rush"))
    assert r.difficult and r.allowance == 6.0
    assert r.path_lengths.max() <= 6.0 + 1e-9
    assert r.advanced > 5.5


def test_strider_ignores_difficult_terrain() -> None:
    """seed 003 "Strider": may ignore the effects of difficult terrain when moving."""
    band = Table(pieces=(rect("ruins", 0, 20, 48, 24, T.DIFFICULT),))
    u = unit(5, (24.0, 14.0))
    r = move_unit(band, u, [], (24.0, 40.0), 12.0, rules=MoveRules(strider=True))
    assert not r.difficult and np.allclose(r.path_lengths, 12.0)


def test_a_unit_goes_around_a_small_patch_of_difficult_terrain() -> None:
    """A player with 12" to go walks round a small ruin rather than be held to 6"."""
    patch = Table(pieces=(rect("ruins", 22, 18, 26, 22, T.DIFFICULT),))
    u = unit(5, (24.0, 14.0))
    r = move_unit(patch, u, [], (24.0, 40.0), 12.0)
    assert not r.difficult
    assert r.advanced > 9 and r.path_lengths.max() <= 12 + 1e-9
    assert r.path_lengths.max() > 6


def test_riverside_barricade_is_difficult_for_large_models_only() -> None:
    """seed 002 "Barricade": Difficult Terrain for Large models."""
    bar = TerrainPiece(
        "barricade",
        ((0.0, 20.0), (48.0, 20.0), (48.0, 20.5), (0.0, 20.5)),
        frozenset({T.DIFFICULT_LARGE, T.UNSTABLE, T.COVER_BEHIND}),
        1.0,
        "barricade",
    )
    table = Table(pieces=(bar,))
    small = unit(3, (24.0, 17.0))
    big = Placement(formation(3, 0.8, (24.0, 17.0)), np.full(3, 0.8), large=True)
    rules = MoveRules(system="riverside")
    r_small = move_unit(table, small, [], (24.0, 40.0), 12.0, rules=rules)
    r_big = move_unit(table, big, [], (24.0, 40.0), 12.0, rules=rules)
    assert not r_small.difficult and r_small.path_lengths.max() == pytest.approx(12.0)
    assert r_big.difficult and r_big.path_lengths.max() <= 6 + 1e-9
    assert r_big.placement.centres[:, 1].min() > 20.5  # over it, but no further than 6"


def test_flying_moves_over_walls_but_not_into_them() -> None:
    """seed 002 "Flying": may move through terrain; seed 002 "Terrain Movement" and the
    impassable rule still forbid ending inside it."""
    table = Table(pieces=(WALL,))
    u = unit(5, (20.0, 14.0))
    r = move_unit(table, u, [], (20.0, 30.0), 12.0, rules=MoveRules(flying=True))
    assert np.allclose(r.placement.centres - u.centres, [0.0, 12.0])
    onto = move_unit(table, u, [], (20.0, 21.0), 12.0, rules=MoveRules(flying=True))
    for c in onto.placement.centres:
        assert shapely.distance(shapely.Point(c), shapely.Polygon(WALL.outline)) >= 0.5


def test_impassable_enclosure_cannot_be_entered() -> None:
    table = Table(
        pieces=(
            rect("a", 18, 28, 30, 29, T.IMPASSABLE),
            rect("b", 18, 39, 30, 40, T.IMPASSABLE),
            rect("c", 18, 28, 19, 40, T.IMPASSABLE),
            rect("d", 29, 28, 30, 40, T.IMPASSABLE),
        )
    )
    u = unit(5, (24.0, 14.0))
    r = move_unit(table, u, [], (24.0, 34.0), 12.0)
    inside = shapely.box(19, 29, 29, 39)
    assert not any(inside.contains(shapely.Point(c)) for c in r.placement.centres)
    assert r.path_lengths.max() <= 12 + 1e-9


def test_spacing_from_other_units_and_charge_exemption() -> None:
    """seed 002 "1" Spacing": models may not move within 1" of another unit unless it is the
    target of their Charge; seed 003 "MOVEMENT": only within 1" when charging."""
    u = unit(5, (24.0, 14.0))
    other = unit(5, (24.0, 22.0), (0.0, -1.0))
    r = move_unit(Table(), u, [other], (24.0, 22.0), 12.0)
    assert (
        gaps(r.placement.centres, r.placement.radii, other.centres, other.radii).min() >= 1 - 1e-9
    )
    c = move_unit(Table(), u, [other], (24.0, 22.0), 12.0, charging_target=other)
    g = gaps(c.placement.centres, c.placement.radii, other.centres, other.radii)
    assert 0 <= g.min() < 0.1


def test_paths_keep_spacing_from_units_in_the_way() -> None:
    """seed 002 "Movement": 1" spacing must be maintained throughout the movement path: a unit
    walks round another, not through it."""
    u = unit(3, (24.0, 10.0))
    blocker = Placement(formation(10, 0.5, (24.0, 18.0), per_row=10), np.full(10, 0.5))
    r = move_unit(Table(), u, [blocker], (24.0, 26.0), 16.0)
    region = shapely.MultiPoint(blocker.centres).buffer(0.5 + 1.0 + 0.5 - 1e-6)
    for pts in r.paths:
        assert not shapely.LineString(pts).intersects(region) if len(pts) > 1 else True
    assert r.path_lengths.max() <= 16 + 1e-9


def test_riverside_cohesion_after_a_move() -> None:
    """seed 002 "Unit Cohesion": the unit ends within a 9" circle."""
    u = Placement(formation(10, 0.5, (24.0, 10.0), shape="blob"), np.full(10, 0.5))
    r = move_unit(
        Table(pieces=(WALL,)), u, [], (20.0, 30.0), 12.0, rules=MoveRules(system="riverside")
    )
    assert is_coherent(r.placement, "riverside") and r.coherent


def test_move_is_deterministic() -> None:
    table = Table(pieces=(WALL, rect("ruins", 32, 24, 36, 30, T.DIFFICULT)))
    u = unit(7, (20.0, 12.0))
    a = move_unit(table, u, [], (34.0, 32.0), 12.0)
    b = move_unit(table, u.copy(), [], (34.0, 32.0), 12.0)
    assert np.array_equal(a.placement.centres, b.placement.centres)
    assert a.paths == b.paths


@pytest.mark.parametrize(
    ("goal", "allow"), [((math.nan, 1.0), 6.0), ((1.0, 1.0), -1.0), ((1.0, 1.0), math.inf)]
)
def test_move_bad_input(goal: tuple[float, float], allow: float) -> None:
    with pytest.raises(OptionError):
        move_unit(Table(), unit(2, (5.0, 5.0)), [], goal, allow)


def test_teleport_within_six_inches() -> None:
    """seed 002 "Teleport": place the unit anywhere within 6" (no path needed)."""
    table = Table(pieces=(WALL,))
    u = unit(3, (20.0, 18.0))
    r = teleport_unit(table, u, [], (20.0, 26.0))
    assert np.hypot(*(r.placement.centres - u.centres).T).max() <= 6 + 1e-9
    assert r.placement.centres[:, 1].min() > 22  # over the wall


# --- dangerous terrain ------------------------------------------------------------------------

LAKE = rect("lake", 0, 20, 48, 22, T.DANGEROUS)


def test_dangerous_terrain_gff() -> None:
    """seed 003 "Dangerous Terrain": models moving across it, or that activate in it, roll one
    die (or as many as their Tough value); each 1 is a wound: a 2+ check."""
    table = Table(pieces=(LAKE,))
    u = unit(5, (24.0, 14.0))
    r = move_unit(table, u, [], (24.0, 30.0), 12.0)
    assert r.dangerous.all()
    checks = dangerous_terrain_checks(table, u, r, system="gff", action="rush")
    assert len(checks) == 5
    assert all(c.test is Test.GENERIC and c.target == 2 for c in checks)
    assert get_mechanic("d6").p_success(checks[0]) == Fraction(5, 6)
    assert len(dangerous_terrain_checks(table, u, r, system="gff", tough=3)) == 15
    wading = unit(3, (24.0, 21.0))
    held = dangerous_terrain_checks(table, wading, None, system="gff", action="hold")
    assert sorted(c.owner.model for c in held) == [0, 1, 2]
    dry = dangerous_terrain_checks(table, u, None, system="gff", action="hold")
    assert dry == []


def test_dangerous_terrain_riverside_only_rush_or_charge() -> None:
    """seed 002 "Dangerous Terrain": a test only when moving in or through it with a Rush or
    Charge; Tough(X) rolls X dice."""
    table = Table(pieces=(LAKE,))
    u = unit(4, (24.0, 14.0))
    r = move_unit(table, u, [], (24.0, 30.0), 12.0)
    assert dangerous_terrain_checks(table, u, r, system="riverside", action="advance") == []
    assert len(dangerous_terrain_checks(table, u, r, system="riverside", action="rush")) == 4
    assert (
        len(dangerous_terrain_checks(table, u, r, system="riverside", action="charge", tough=3))
        == 12
    )


def test_dangerous_terrain_flying_and_bad_input() -> None:
    """seed 003 "Flying": ignores terrain effects whilst moving."""
    table = Table(pieces=(LAKE,))
    u = unit(2, (24.0, 14.0))
    r = move_unit(table, u, [], (24.0, 30.0), 12.0, rules=MoveRules(flying=True))
    assert dangerous_terrain_checks(table, u, r, flying=True, action="rush") == []
    with pytest.raises(OptionError):
        dangerous_terrain_checks(table, u, r, action="walk")
    with pytest.raises(OptionError):
        dangerous_terrain_checks(table, u, r, tough=0)
    with pytest.raises(OptionError):
        dangerous_terrain_checks(table, u, r, system="dq")
