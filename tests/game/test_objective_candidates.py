"""The marker grid both OPR procedures offer (``oprlab.game.objectives.candidates``).

Seed 003_8abb008d4113ed75 "Mission" 3 and seed 002_fdb385c07cc953af "Placing Objectives":
markers go between the deployment zones, by each system's placing rules (the hook here).
The armies are invented.
"""

from __future__ import annotations

import itertools

from oprlab.game import activation, gff, objectives
from oprlab.game.state import GameState
from oprlab.table.model import Point
from tests.game import line
from tests.game.test_gff_rounds import scene


def test_grid_between_the_zones_filtered_by_the_rules() -> None:
    state = gff.new_game(line(), line(), seed=0)
    t = state.table
    every = objectives.candidates(state, lambda s, p: None)
    assert every and all(t.deployment_depth < y < t.depth - t.deployment_depth for _, y in every)
    assert all(0 < x < t.width for x, _ in every)
    xs = sorted({x for x, _ in every})
    assert all(abs(b - a - 3.0) < 1e-9 for a, b in itertools.pairwise(xs))

    def left_half(s: GameState, p: Point) -> str | None:
        return None if p[0] < t.width / 2 else "right half"

    assert objectives.candidates(state, left_half) == [p for p in every if p[0] < t.width / 2]


def test_goals_are_markers_then_enemies() -> None:
    """Canonical destinations before each system's way home: markers, then enemy units."""
    state = scene(
        line(), line(), {"A1": (10.0, 10.0), "B1": (30.0, 40.0)}, objectives=((5.0, 5.0),)
    )
    goals = activation.marker_and_enemy_goals(state, state.units["A1"])
    assert goals[0] == (5.0, 5.0) and len(goals) == 2
    assert abs(goals[1][0] - 30.0) < 1e-9 and abs(goals[1][1] - 40.0) < 1e-9
