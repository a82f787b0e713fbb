"""GFF special moves: pushing, jumping, falling (seed 003 "SPECIAL MOVES (Optional)")."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
import shapely

from oprlab.errors import OptionError
from oprlab.mechanics.base import Outcome, Test
from oprlab.mechanics.registry import get_mechanic
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.special_moves import (
    fall,
    jump_checks,
    jump_dice,
    jump_needed,
    jump_probability,
    jump_succeeds,
    land,
    push_check,
    push_model,
)

T = TerrainType


def rect(
    name: str, x0: float, y0: float, x1: float, y1: float, *types: T, height: float = 0.0
) -> TerrainPiece:
    return TerrainPiece(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), frozenset(types), height)


def models(*xy: tuple[float, float]) -> Placement:
    return Placement(np.array(xy, dtype=float), np.full(len(xy), 0.5))


def brute_force_all_pass(targets: list[int]) -> Fraction:
    """Enumerate every roll of the dice: a d6 check of X+ passes on X..6, fails on a 1."""
    rolls = list(itertools.product(range(1, 7), repeat=len(targets)))
    wins = sum(
        all(face != 1 and face >= t for face, t in zip(roll, targets, strict=True))
        for roll in rolls
    )
    return Fraction(wins, len(rolls))


# --- pushing ---------------------------------------------------------------------------------


def test_push_check_is_four_plus() -> None:
    """seed 003 "Pushing": roll one die, and on a 4+ the attacker may move the model."""
    check = push_check()
    assert check.test is Test.GENERIC and check.target == 4
    assert get_mechanic("d6").p_success(check) == brute_force_all_pass([4]) == Fraction(1, 2)


def test_push_up_to_two_inches() -> None:
    """seed 003 "Pushing": the model moves up to 2" in any direction; it stops at walls and
    other bases."""
    u = models((10.0, 10.0), (11.5, 10.0))
    r = push_model(Table(), u, 0, (0.0, 1.0))
    assert r.moved == pytest.approx(2.0)
    assert r.placement.centres[0] == pytest.approx((10.0, 12.0))
    assert np.array_equal(u.centres[0], (10.0, 10.0))  # the input is not changed
    wall = rect("wall", 0, 11.2, 48, 13, T.IMPASSABLE)
    blocked = push_model(Table(pieces=(wall,)), u, 0, (0.0, 1.0))
    assert blocked.moved < 0.7
    assert (
        shapely.distance(shapely.Point(blocked.placement.centres[0]), shapely.Polygon(wall.outline))
        >= 0.5
    )
    into = push_model(Table(), u, 0, (1.0, 0.0))  # stops against its neighbour
    assert into.moved == pytest.approx(0.5)
    touching = models((10.0, 10.0), (11.0, 10.0))
    assert push_model(Table(), touching, 0, (1.0, 0.0)).moved == 0.0  # not through it
    assert push_model(Table(), touching, 0, (-1.0, 0.0)).moved == pytest.approx(2.0)


def test_push_off_a_ledge_falls() -> None:
    """seed 003 "Falling": a model pushed off an elevated position at least 2" tall falls."""
    table = Table(pieces=(rect("tower", 0, 0, 10.5, 20, T.ELEVATED, height=4.0),))
    r = push_model(table, models((10.0, 10.0)), 0, (1.0, 0.0))
    assert r.drop == pytest.approx(4.0) and r.falls
    low = Table(pieces=(rect("step", 0, 0, 10.5, 20, T.ELEVATED, height=1.5),))
    assert not push_model(low, models((10.0, 10.0)), 0, (1.0, 0.0)).falls


@pytest.mark.parametrize(
    ("index", "direction", "distance"),
    [(5, (1.0, 0.0), 2.0), (0, (0.0, 0.0), 2.0), (0, (1.0, 0.0), 2.5)],
)
def test_push_bad_input(index: int, direction: tuple[float, float], distance: float) -> None:
    with pytest.raises(OptionError):
        push_model(Table(), models((10.0, 10.0)), index, direction, distance=distance)


# --- jumping ---------------------------------------------------------------------------------


def test_jump_needed() -> None:
    """seed 003 "Jumping": 1" gaps and 3" drops are regular movement; up to 6" must jump."""
    assert not jump_needed(gap=1.0)
    assert jump_needed(gap=1.5)
    assert not jump_needed(drop=3.0)
    assert jump_needed(drop=3.5)
    for bad in ({"gap": 6.5}, {"drop": 7.0}, {"gap": -1.0}):
        with pytest.raises(OptionError):
            jump_needed(**bad)


@pytest.mark.parametrize(("distance", "dice"), [(1.5, 1), (2.9, 1), (3.0, 2), (5.9, 2), (6.0, 3)])
def test_jump_dice(distance: float, dice: int) -> None:
    """seed 003 "Jumping": roll X+1 dice, X one for every full 3" the model wants to move."""
    assert jump_dice(distance) == dice


def test_jump_checks_and_odds() -> None:
    """seed 003 "Jumping": all dice must score 3+; Strider only needs 2+; Flying automatically
    passes jumping rolls. Odds against brute-force enumeration of the dice."""
    checks = jump_checks(gap=6.0)
    assert [c.target for c in checks] == [3, 3, 3]
    assert jump_probability(checks) == brute_force_all_pass([3, 3, 3]) == Fraction(8, 27)
    strider = jump_checks(drop=4.0, strider=True)
    assert [c.target for c in strider] == [2, 2]
    assert jump_probability(strider) == brute_force_all_pass([2, 2]) == Fraction(25, 36)
    assert jump_checks(gap=6.0, flying=True) == ()
    assert jump_checks(gap=1.0) == ()
    assert jump_probability(()) == 1


def test_jump_succeeds_only_if_all_pass() -> None:
    """seed 003 "Jumping": if any roll is failed, the model falls instead."""
    ok, bad = Outcome(True, 4), Outcome(False, 2)
    assert jump_succeeds([ok, ok, ok])
    assert not jump_succeeds([ok, bad, ok])


# --- falling ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("height", "ap"), [(2.0, 0), (2.9, 0), (3.0, 1), (5.5, 1), (6.0, 2), (9.0, 3)]
)
def test_fall_hit_and_ap(height: float, ap: int) -> None:
    """seed 003 "Falling": at least 2" tall: 1 hit with AP(X), X one per full 3" fallen; its
    activation ends."""
    r = fall(height, models_left=1)
    assert (r.hits, r.ap, r.killed, r.activation_ends) == (1, ap, False, True)


def test_fall_short_and_multi_model() -> None:
    """seed 003 "Falling": under 2" nothing; a unit with several models loses the model until
    only one last model remains, which falls normally."""
    assert fall(1.9) == fall(0.0)
    assert fall(1.9).hits == 0 and not fall(1.9).killed
    assert fall(4.0, models_left=3).killed and fall(4.0, models_left=3).hits == 0
    with pytest.raises(OptionError):
        fall(-1.0)
    with pytest.raises(OptionError):
        fall(3.0, models_left=0)


def test_land_within_two_inches_of_the_bottom() -> None:
    """seed 003 "Falling": place the model within 2" of the bottom."""
    tower = rect("tower", 0, 0, 10.0, 20, T.ELEVATED, height=4.0)
    table = Table(pieces=(tower,))
    u = models((9.6, 10.0), (12.0, 10.0))
    got = land(table, u, 0, (10.0, 10.0), [])
    assert got is not None
    c = got.centres[0]
    assert np.hypot(*(c - (10.0, 10.0))) <= 2 + 1e-9
    assert not shapely.Polygon(tower.outline).contains(shapely.Point(c))
    assert np.hypot(*(c - got.centres[1])) >= 1 - 1e-9  # clear of the other base
    boxed = Table(width=1.0, depth=1.0)
    assert land(boxed, models((0.5, 0.5), (0.5, 0.5)), 0, (0.5, 0.5)) is None
