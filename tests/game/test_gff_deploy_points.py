"""The deploy grid is checked for all points at once (issue 13) and must keep exactly the
points the one-point check keeps (seed 003 "Deployment" 3: wholly within 12" of its edge, Scout
within 12" of its zone, Ambush over 9" from enemy units; "Movement": 1" from other units),
on open tables and tables with terrain, with units already standing close by."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import gff, gff_deploy
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.samples import sample_path
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from tests.game import probe_points, specials

DEPLOYING = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)


def _one_by_one(
    state: GameState, us: UnitState, points: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    obstacles = gff_deploy._obstacles(state, us)
    return [p for p in points if gff_deploy._deploy_problem(state, us, p, obstacles) is None]


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
    for seed in range(2):
        table = generate_table(seed) if terrain else None
        state = gff.new_game(a, b, seed=seed, table=table)
        while state.phase not in (Phase.ACTIVATION,) and not state.done:
            actions = gff.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in gff_deploy._to_deploy(state, state.active):
                    grid = (
                        gff_deploy._ambush_grid(state)
                        if state.phase == Phase.AMBUSH
                        else gff_deploy._deploy_grid(state, us)
                    )
                    # and points anywhere, many of them close to units already placed
                    placed = [o.placement for o in state.units.values()]
                    extra = probe_points(placed, rng, 40)
                    points = grid + extra
                    got = list(gff_deploy._clear_points(state, us, points))
                    assert got == _one_by_one(state, us, points)
                    compared += 1
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 8
