"""WWPD's deploy grid is checked for all points at once (issue 13) and must keep exactly the
points the one-point check keeps (seed 004 "Deployment": opposite edges, 12" deep; a unit may
not stand in impassable terrain or within 1" of another unit), on open tables and tables with
terrain, with units already standing close by. The points left to the one-point check ask it
of the units near the point only (``wwpd_setup._NEAR``): the answers are those of every unit."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import wwpd, wwpd_setup
from oprlab.game.systems import find_system
from oprlab.samples import sample_path
from oprlab.table.terrain import generate_table
from oprlab.units.formats import army_format
from oprlab.units.profiles import WwpdForce
from tests.game import probe_points


def _force(name: str) -> WwpdForce:
    force = army_format(find_system("wwpd").army_format).load(sample_path(name))
    assert isinstance(force, WwpdForce)
    return force


@pytest.mark.parametrize("terrain", [False, True])
def test_all_points_at_once_keep_what_one_at_a_time_keeps(terrain: bool) -> None:
    a = b = _force("wwpd/colonial.yaml")
    rng = np.random.default_rng(7)
    compared = 0
    for seed in range(2):
        table = generate_table(seed) if terrain else None
        state = wwpd.new_game(a, b, seed=seed, table=table)
        while state.phase == "deploy":
            for side in (0, 1):
                for us in wwpd_setup._to_deploy(state, side):
                    lo, hi = wwpd_setup.deployment_zone(state, side)
                    grid = [
                        (float(x), float(y))
                        for y in np.linspace(lo + 2.5, hi - 2.5, 3)
                        for x in np.arange(4.0, state.table.width - 3.9, 4.0)
                    ]
                    # and points anywhere, many of them close to units already placed
                    placed = [o.placement for o in state.units.values()]
                    extra = probe_points(placed, rng, 20)
                    points = grid + extra
                    got = wwpd_setup._clear_points(state, us, points)
                    one = [wwpd_setup.deploy_problem(state, us, p) is None for p in points]
                    assert got == one
                    compared += 1
            actions = wwpd.legal_actions(state)
            wwpd.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 8
