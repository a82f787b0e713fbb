"""Riverside's deploy grid is checked for all points at once (issue 13) and must keep exactly
the points the one-point check keeps (seed 002 "Deployment Phase": bases inside the Deployment
Zone; "Scout Deployment": 12" beyond its boundaries; "Ambush Deployment": over 9" away from
enemy units; "1\\" Spacing"; off impassable and unstable terrain), on open tables and tables
with terrain, with units already standing close by."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import riverside, riverside_deploy
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.samples import sample_path
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from tests.game import probe_points, specials

DEPLOYING = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)


def _one_by_one(state: GameState, us: UnitState, points: list[tuple[float, float]]) -> list[bool]:
    return [riverside_deploy.deploy_problem(state, us, p) is None for p in points]


@pytest.mark.parametrize("terrain", [False, True])
@pytest.mark.parametrize("lists", ["specials", "300"])
def test_all_points_at_once_keep_what_one_at_a_time_keeps(terrain: bool, lists: str) -> None:
    if lists == "specials":
        a, b = specials(), specials()
    else:
        a = load_army(sample_path("gff/shooty-300.txt"))
        b = load_army(sample_path("gff/melee-300.txt"))
    rng = np.random.default_rng(7)
    compared = 0
    phases = set()
    for seed in range(2):
        table = generate_table(seed) if terrain else None
        state = riverside.new_game(a, b, seed=seed, table=table)
        # on to the Ambush Deployment of a later round, where the specials have it
        while not state.done and state.round <= 2:
            actions = riverside.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in riverside_deploy._to_deploy(state, state.active):
                    grid = riverside_deploy._deploy_grid(state, us)
                    # and points anywhere, many of them close to units already placed
                    placed = [o.placement for o in state.units.values()]
                    extra = probe_points(placed, rng, 40)
                    points = grid + extra
                    got = riverside_deploy._clear_points(state, us, points)
                    assert got == _one_by_one(state, us, points)
                    assert all(got[: len(grid)])  # the grid holds only the points it keeps
                    compared += 1
                    phases.add(state.phase)
            riverside.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 8
    if lists == "specials":
        assert phases == set(DEPLOYING)
