"""The search's learned value (issue 14): the features a state is read by, the fit, and the
chance of winning it gives."""

from __future__ import annotations

import math

import numpy as np
import pytest

from oprlab.game import gff
from oprlab.game.state import GameState, Objective, Phase
from oprlab.players import search_value
from oprlab.players.search import SearchCommander, value
from oprlab.players.search_value import FEATURES, features, fit, standing, win_value
from tests.game import clear_table, line, put


def _scene() -> GameState:
    """Line against Line, round 2: A2 on marker 0 (A seizes it), marker 1 B's from before; B1
    (40 pts, Tough(3)) carries 2 wounds and is Shaken; A3 (3 models) has lost one and has
    activated."""
    state = gff.new_game(line(), line(), seed=0)
    clear_table(state)
    state.phase, state.round, state.active = Phase.ACTIVATION, 2, 0
    state.objectives = [Objective((24.0, 24.0)), Objective((10.0, 10.0), controller=1)]
    put(state, "A2", (24.0, 24.0))
    b1 = put(state, "B1", (40.0, 40.0))
    b1.markers, b1.shaken = 2, True
    a3 = put(state, "A3", (40.0, 10.0))
    a3.models, a3.activated = 2, True
    return state


def test_standing_is_what_the_points_value_reads() -> None:
    """Mission (seed 003): markers as they would settle (A seizes marker 0, B keeps marker 1)
    and the points lost; :func:`value` is made of them."""
    state = _scene()
    held, lost = standing(state)
    assert held == [1, 1]
    assert lost == pytest.approx([40 / 3, 80 / 3])
    assert value(state, 0) == pytest.approx(lost[1] - lost[0])


def test_features_are_the_sides_differences() -> None:
    """Each feature is the side's less the enemy's: the enemy reads the same numbers negated."""
    state = _scene()
    mine, theirs = features(state, 0), features(state, 1)
    assert len(mine) == len(FEATURES)
    assert mine == pytest.approx([-x for x in theirs])
    cost = [sum(u.unit.cost for u in state.units.values() if u.side == s) for s in (0, 1)]
    on = [u for u in state.units.values() if u.on_table]
    ready = [sum(1 for u in on if u.side == s and not u.activated) for s in (0, 1)]
    b1 = state.units["B1"]
    assert mine == pytest.approx(
        [
            0.0,  # one marker each
            0.0,
            (80 / 3) / cost[1] - (40 / 3) / cost[0],
            b1.unit.cost * b1.models / b1.unit.size / cost[1],  # B1 Shaken
            float(ready[0] - ready[1]),
        ]
    )
    put(state, "A1", (10.0, 10.0))  # A alone at marker 1: it would seize it, A 2 to 0
    on = [u for u in state.units.values() if u.on_table]
    late = sum(u.activated for u in on) / len(on)
    assert 0 < late < 1
    assert features(state, 0)[:2] == pytest.approx([2.0, 2.0 * late])


def test_fit_recovers_known_weights() -> None:
    """Shares drawn from a known logistic model per round are fitted back to its weights."""
    rng = np.random.default_rng(3)
    true = [[0.5, -1.0], [2.0, 0.3]]
    rounds = rng.integers(1, 3, size=40_000)
    x = rng.normal(size=(40_000, 2))
    z = np.sum(np.asarray([true[r - 1] for r in rounds]) * x, axis=1)
    y = (rng.random(40_000) < 1 / (1 + np.exp(-z))).astype(float)
    got = fit(rounds.tolist(), x.tolist(), y.tolist(), ridge=0.0)
    assert np.asarray(got) == pytest.approx(np.asarray(true), abs=0.06)


def test_win_value_is_a_chance_in_thousandths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two sides' chances add to 1,000 (no intercept), a marker more is worth more, a round
    after the weights' last uses the last, and a finished game is worth its result."""
    monkeypatch.setitem(search_value.WEIGHTS, "gff", ((1.0, 0.0, 2.0, 0.0, 0.0),))
    state = _scene()
    x = features(state, 0)
    assert win_value(state, 0, "gff") == pytest.approx(1000 / (1 + math.exp(-2.0 * x[2])))
    assert win_value(state, 0, "gff") + win_value(state, 1, "gff") == pytest.approx(1000)
    before = win_value(state, 0, "gff")
    put(state, "A1", (10.0, 10.0))
    assert win_value(state, 0, "gff") > before
    state.done, state.winner = True, 1
    assert (win_value(state, 0, "gff"), win_value(state, 1, "gff")) == (0.0, 1000.0)
    state.winner = None
    assert win_value(state, 0, "gff") == 500.0


def test_learned_search_values_copies_by_the_chance(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``learned`` the search values a copy by :func:`win_value` where the system has
    weights, and by the points value where it has none."""
    state = _scene()
    monkeypatch.setitem(search_value.WEIGHTS, "gff", ((1.0, 0.0, 2.0, 0.0, 0.0),))
    learned = SearchCommander(0, learned=True)
    assert learned._value(state, 0) == win_value(state, 0, "gff")
    assert SearchCommander(0)._value(state, 0) == value(state, 0)
    monkeypatch.delitem(search_value.WEIGHTS, "gff")
    assert learned._value(state, 0) == value(state, 0)
