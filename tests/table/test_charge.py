"""Charges, pile-in, who strikes, and after combat (seed 002 "Charge Action", "Melee Attacks";
seed 003 "MELEE")."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from oprlab.errors import OptionError
from oprlab.table.charge import (
    CONTACT_TOL,
    can_charge,
    charge_move,
    consolidate,
    in_contact,
    pile_in,
    separate,
    strikers,
)
from oprlab.table.formation import formation, gaps, is_coherent, overlaps, spacing_ok
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.movement import MoveRules

T = TerrainType


def rect(
    name: str, x0: float, y0: float, x1: float, y1: float, *types: T, height: float = 0.0
) -> TerrainPiece:
    return TerrainPiece(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), frozenset(types), height)


def unit(
    n: int, centre: tuple[float, float], facing: tuple[float, float] = (0.0, 1.0)
) -> Placement:
    return Placement(formation(n, 0.5, centre, facing), np.full(n, 0.5))


def min_gap(a: Placement, b: Placement) -> float:
    return float(
        gaps(a.centres[a.alive], a.radii[a.alive], b.centres[b.alive], b.radii[b.alive]).min()
    )


def polyline_length(points: tuple[tuple[float, float], ...]) -> float:
    arr = np.array(points)
    return float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0


# --- can a unit charge? -----------------------------------------------------------------------


def single(x: float, y: float) -> Placement:
    return Placement(np.array([[x, y]]), np.array([0.5]))


def test_can_charge_by_distance() -> None:
    """seed 002 "Charge Action": at least 1 model must be able to make contact; seed 003
    "MOVEMENT": only if a charging model is within charge distance of the target."""
    attacker = single(10.0, 10.0)
    assert can_charge(Table(), attacker, single(10.0, 22.9), 12.0)  # 11.9" base to base
    assert not can_charge(Table(), attacker, single(10.0, 23.1), 12.0)  # 12.1"
    assert can_charge(Table(), attacker, single(10.0, 27.0), 16.0)  # Fast: 16"
    dead = single(10.0, 12.0)
    dead.removed[0] = True
    assert not can_charge(Table(), attacker, dead, 12.0)


def test_can_charge_counts_the_way_round() -> None:
    """The charge distance is measured along the path: a wall in the way makes it longer."""
    wall = rect("wall", 0, 15, 40, 17, T.IMPASSABLE)
    attacker, target = single(10.0, 10.0), single(10.0, 22.0)
    assert can_charge(Table(), attacker, target, 12.0)
    assert not can_charge(Table(pieces=(wall,)), attacker, target, 12.0)
    assert can_charge(Table(pieces=(wall,)), attacker, target, 12.0, rules=MoveRules(flying=True))


def test_can_charge_difficult_terrain_cap() -> None:
    """seed 002 "Difficult Terrain": crossing it caps the charge at 6"."""
    ruins = rect("ruins", 0, 14, 48, 18, T.DIFFICULT)
    attacker, target = single(10.0, 10.0), single(10.0, 19.0)  # 8" apart through ruins
    assert not can_charge(Table(pieces=(ruins,)), attacker, target, 12.0)
    assert can_charge(Table(pieces=(ruins,)), attacker, target, 12.0, rules=MoveRules(strider=True))


# --- the charge move --------------------------------------------------------------------------


def test_charge_into_base_contact() -> None:
    """seed 002 "Charge Action": all models move up to 12" to get in base contact, or as close
    as possible; seed 003 "Charging" the same."""
    attacker = unit(5, (20.0, 12.0))
    target = unit(5, (22.0, 22.0), (0.0, -1.0))
    bystander = unit(3, (32.0, 22.0))
    r = charge_move(Table(), attacker, target, [bystander], 12.0)
    new = r.placement
    assert r.in_contact.any()
    assert np.array_equal(r.in_contact, in_contact(new, target))
    assert not overlaps([new, target, bystander])
    assert spacing_ok(new, [bystander])  # 1" from units it is not charging
    for k, pts in enumerate(r.move.paths):
        assert polyline_length(pts) <= r.move.path_lengths[k] + 1e-9 <= 12 + 1e-9
    for m in np.flatnonzero(~r.in_contact):
        assert (
            min_gap(Placement(new.centres[m : m + 1], new.radii[m : m + 1]), target) > CONTACT_TOL
        )
    assert is_coherent(new)


def test_charge_closest_models_first() -> None:
    """Closest models first: a unit 11" away gets only its nearest models into contact."""
    attacker = Placement(np.array([[10.0, 10.0], [11.5, 8.0], [13.0, 6.0]]), np.full(3, 0.5))
    target = single(10.0, 22.0)  # 11" from the front model; the others are 13"+ away
    r = charge_move(Table(), attacker, target, [], 12.0)
    assert r.in_contact.tolist() == [True, False, False]
    assert r.move.path_lengths.max() <= 12 + 1e-9


def test_charge_out_of_reach_raises() -> None:
    with pytest.raises(OptionError):
        charge_move(Table(), single(10.0, 10.0), single(10.0, 30.0), [], 12.0)
    with pytest.raises(OptionError):
        charge_move(Table(), single(10.0, 10.0), single(10.0, 20.0), [], -1.0)


def test_charge_around_a_wall() -> None:
    wall = rect("wall", 7, 14, 13, 15.5, T.IMPASSABLE)
    attacker, target = unit(3, (10.0, 10.0)), unit(3, (10.0, 19.0), (0.0, -1.0))
    r = charge_move(Table(pieces=(wall,)), attacker, target, [], 12.0)
    assert r.in_contact.any()
    poly = shapely.Polygon(wall.outline)
    for pts in r.move.paths:
        if len(pts) > 1:
            assert shapely.distance(shapely.LineString(pts), poly) >= 0.5 - 1e-9


# --- pile-in, strikers ------------------------------------------------------------------------


def test_pile_in_up_to_three_inches() -> None:
    """seed 002 "Melee Attacks" Movement: targeted models not in base contact move up to 3" to
    get into base contact, or as close as possible; seed 003: defenders move up to 3"."""
    attacker = unit(5, (20.0, 12.0))
    target = unit(5, (22.0, 22.0), (0.0, -1.0))
    charged = charge_move(Table(), attacker, target, [], 12.0).placement
    before = in_contact(target, charged)
    r = pile_in(Table(), target, charged, [])
    new = r.placement
    assert np.array_equal(new.centres[before], target.centres[before])  # in contact: stay
    assert r.move.path_lengths.max() <= 3 + 1e-9
    assert int(r.in_contact.sum()) >= int(before.sum())
    assert not overlaps([new, charged])


def test_strikers_within_two_inches() -> None:
    """seed 002 "Determine Attacks": charging models within 2" of the target attack; seed 003
    "Striking": within 2" horizontally."""
    defender = single(10.0, 10.0)
    attacker = Placement(np.array([[11.0, 10.0], [13.0, 10.0], [13.1, 10.0]]), np.full(3, 0.5))
    assert strikers(attacker, defender).tolist() == [True, True, False]
    assert strikers(defender, attacker).tolist() == [True]
    attacker.removed[0] = True
    assert strikers(attacker, defender).tolist() == [False, True, False]
    with pytest.raises(OptionError):
        strikers(attacker, defender, within=-1.0)


def test_strikers_vertical_limit() -> None:
    """seed 003 "Striking": and within 4" vertically: a model on a 5" tower does not strike
    one at its foot, one on a 3" hill does."""
    table = Table(
        pieces=(
            rect("tower", 0, 0, 10, 10, T.ELEVATED, height=5.0),
            rect("hill", 20, 0, 30, 10, T.ELEVATED, height=3.0),
        )
    )
    up_tower, foot_tower = single(9.0, 5.0), single(11.0, 5.0)
    up_hill, foot_hill = single(21.0, 5.0), single(19.0, 5.0)
    assert strikers(up_tower, foot_tower).tolist() == [True]  # heights unknown: 2" only
    assert strikers(up_tower, foot_tower, table=table, vertical=4.0).tolist() == [False]
    assert strikers(up_hill, foot_hill, table=table, vertical=4.0).tolist() == [True]


# --- after combat -----------------------------------------------------------------------------


def test_consolidate_three_inches() -> None:
    """seed 003 "After Combat": if one unit is destroyed, the other may move by up to 3"."""
    u = unit(5, (20.0, 20.0))
    r = consolidate(Table(), u, [], (20.0, 30.0))
    assert r.path_lengths.max() <= 3 + 1e-9
    assert r.placement.centres.mean(axis=0)[1] == pytest.approx(23.0)


def test_separate_one_inch() -> None:
    """seed 003 "After Combat": otherwise chargers must move back and separate by 1"."""
    attacker = unit(5, (20.0, 12.0))
    target = unit(5, (22.0, 22.0), (0.0, -1.0))
    charged = charge_move(Table(), attacker, target, [], 12.0).placement
    s = separate(Table(), charged, target, [])
    assert s.separated
    assert min_gap(s.move.placement, target) >= 1 - 1e-6
    assert s.move.coherent and not overlaps([s.move.placement, target])
    assert s.move.path_lengths.max() < 2.0  # just enough to get 1" apart


def test_separate_when_backed_against_a_wall() -> None:
    """ "(if possible)": with a wall behind, the charger steps aside instead; boxed in
    completely, it stays and says so."""
    wall = rect("wall", 0, 0, 48, 9.4, T.IMPASSABLE)
    table = Table(pieces=(wall,))
    charger = Placement(np.array([[24.0, 10.0]]), np.array([0.5]))
    defender = Placement(np.array([[24.0, 11.0]]), np.array([0.5]))
    s = separate(table, charger, defender, [])
    assert s.separated
    assert min_gap(s.move.placement, defender) >= 1 - 1e-6
    assert (
        shapely.distance(shapely.Point(s.move.placement.centres[0]), shapely.Polygon(wall.outline))
        >= 0.5
    )
    box = Table(width=2.4, depth=1.0)
    tight_c = Placement(np.array([[0.5, 0.5]]), np.array([0.5]))
    tight_d = Placement(np.array([[1.9, 0.5]]), np.array([0.5]))
    stuck = separate(box, tight_c, tight_d, [])
    assert not stuck.separated
    assert np.array_equal(stuck.move.placement.centres, tight_c.centres)


def test_separate_already_apart_and_bad_gap() -> None:
    a, b = single(10.0, 10.0), single(10.0, 13.0)
    s = separate(Table(), a, b, [])
    assert s.separated and np.array_equal(s.move.placement.centres, a.centres)
    with pytest.raises(OptionError):
        separate(Table(), a, b, [], gap=-1.0)


def test_charge_round_difficult_terrain_reaches_contact() -> None:
    """seed 003 "Difficult Terrain": units moving through difficult terrain can't move more
    than 6" in total. A target standing in a difficult piece ~9" away can still be charged by a
    model that goes round the piece into contact (its way never touches the terrain);
    models that could only follow through the piece stay put instead of holding everyone to 6".
    Before the fix ``can_charge`` said yes but ``charge_move`` did not move at all."""
    outline = (
        (21.864188133412085, 15.820942274246528),
        (28.50030640409404, 16.956171960868275),
        (27.361856749959273, 23.611112929279138),
        (20.725738479277318, 22.47588324265739),
    )
    piece = TerrainPiece("scrub", outline, frozenset({TerrainType.DIFFICULT}))
    table = Table(pieces=(piece,))
    attacker = Placement(
        np.array([[28.76, 8.943012701892219], [30.26, 8.943012701892219], [29.51, 7.6439745962]]),
        np.full(3, 0.5),
    )
    target = Placement(
        np.array([[20.76, 17.38602540378444], [22.26, 17.38602540378444], [21.51, 16.0869873]]),
        np.full(3, 0.5),
    )
    assert min_gap(attacker, target) > 6.0 + 3.0
    assert can_charge(table, attacker, target, 12.0)
    r = charge_move(table, attacker, target, [], 12.0)
    assert r.in_contact.any()
    assert r.move.path_lengths.max() > 6.0  # round the piece, further than the cap allows
    assert not r.move.difficult  # ... so no moving model touched the piece
    assert (r.move.path_lengths <= 12.0 + 1e-9).all()
    poly = shapely.Polygon(outline)
    for path, length in zip(r.move.paths, r.move.path_lengths, strict=True):
        if length > 0:
            line = shapely.LineString(path)
            assert shapely.distance(line, poly) >= 0.5 - 1e-9
    assert not overlaps([r.placement, target])


def test_charge_that_cannot_reach_within_the_cap_raises() -> None:
    """seed 003 "Difficult Terrain" and "Charge": when no legal charge move puts a model in
    contact (the target stands deep in difficult terrain 7" away), ``charge_move`` raises like
    ``can_charge`` says no, so the engine moves the unit as close as it can instead."""
    table = Table(pieces=(rect("bog", 10.0, 20.0, 30.0, 40.0, TerrainType.DIFFICULT),))
    attacker = unit(3, (20.0, 12.0))
    target = unit(3, (20.0, 21.5))
    assert 6.0 < min_gap(attacker, target) < 12.0
    assert not can_charge(table, attacker, target, 12.0)
    with pytest.raises(OptionError):
        charge_move(table, attacker, target, [], 12.0)
