"""The defender's casualty habit both procedures share (``oprlab.game.casualties``).

Seed 003_8abb008d4113ed75 "Wounds" and seed 002_fdb385c07cc953af "Remove Casualties" leave the
choice to the defender; oprlab keeps models on objectives, follows the procedure's order, and
keeps Unit Cohesion (models within 1") while it can. The armies are invented.
"""

from __future__ import annotations

import itertools

import numpy as np

from oprlab.game import casualties
from oprlab.game.state import GameState, Objective
from oprlab.table.model import Placement
from tests.game import line
from tests.game.test_gff_rounds import scene


def _row(xs: list[float], r: float = 0.5) -> Placement:
    centres = np.array([[x, 20.0] for x in xs])
    return Placement(centres, np.full(len(xs), r))


def _state() -> GameState:
    return scene(line(), line(), {})


def test_order_follows_first_and_keeps_objective_holders() -> None:
    """Lower ``first`` goes first; a model within 3" of a marker goes last."""
    state = _state()
    p = _row([10.0, 11.0, 12.0, 13.0])
    first = np.array([3.0, 2.0, 1.0, 0.0])  # the right end first
    assert casualties.casualty_order(state, p, 2, first) == [3, 2]
    state.objectives = [Objective((16.0, 20.0))]  # model 3 (x = 13, r = 0.5) is within 3"
    # model 3 stays: 2 goes, then 0 (taking 1 would leave 3 apart from 0)
    assert casualties.casualty_order(state, p, 2, first) == [2, 0]


def test_cohesion_is_kept_while_it_can_be() -> None:
    """Removing the middle of a chain would split it: an end goes instead."""
    state = _state()
    p = _row([10.0, 11.5, 13.0])
    first = np.array([1.0, 0.0, 2.0])  # the middle model first, but that breaks the chain
    assert casualties.casualty_order(state, p, 1, first) == [0]
    assert casualties.casualty_order(state, p, 5, first) == [0, 1, 2]  # at most the living


def test_dead_models_are_not_removed_again() -> None:
    state = _state()
    p = _row([10.0, 11.0, 12.0])
    p.removed[0] = True
    assert casualties.casualty_order(state, p, 3, np.zeros(3)) == [1, 2]
    assert casualties.casualty_order(state, p, 0, np.zeros(3)) == []


def test_chained_matches_brute_force_connectivity() -> None:
    """``chained`` is graph connectivity: checked against every subset of a small graph."""
    rng = np.random.default_rng(3)
    m = rng.random((6, 6)) < 0.3
    linked = m | m.T
    for k in range(7):
        for sub in itertools.combinations(range(6), k):
            models = set(sub)
            reach = {sub[0]} if sub else set()
            for _ in range(6):
                reach |= {j for i in reach for j in models if linked[i, j]}
            assert casualties.chained(models, linked) == (reach == models)
