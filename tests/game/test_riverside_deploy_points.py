"""Riverside's deploy grid is checked for all points at once (issue 13) and must keep exactly
the points the one-point check keeps (seed 002 "Deployment Phase": bases inside the Deployment
Zone; "Scout Deployment": 12" beyond its boundaries; "Ambush Deployment": over 9" away from
enemy units; "1\\" Spacing"; off impassable and unstable terrain), on open tables and tables
with terrain, with units already standing close by."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import geometry, riverside, riverside_deploy
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


def test_points_at_the_spacing_edge_keep_what_one_at_a_time_keeps() -> None:
    """seed 002 "1\\" Spacing" ("nor be deployed within 1\\""): points whose formation stands
    just inside, at and just outside 1" (less the check's 1e-6) of a unit already placed get
    the one-point check's answer from the check of all points at once, which measures their
    gaps with the one-point check's arithmetic."""
    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    state = riverside.new_game(a, b, seed=1)
    rng = np.random.default_rng(3)
    while not any(u.placement is not None for u in state.side_units(state.active)):
        actions = riverside.legal_actions(state)
        riverside.apply(state, actions[int(rng.integers(len(actions)))])
    assert state.phase == Phase.DEPLOY
    us = riverside_deploy._to_deploy(state, state.active)[0]
    friend = next(u.placement for u in state.side_units(state.active) if u.placement is not None)
    cx, cy = (float(v) for v in friend.centres.mean(axis=0))
    edge = riverside_deploy.EPS
    compared = 0
    for sign in (-1.0, 1.0):

        def gap(dx: float, sign: float = sign) -> float:
            p = riverside_deploy.formation_at(state, us, (cx + sign * dx, cy))
            return geometry.gap(p, friend)

        lo, hi = 0.0, 30.0  # bisect to the last digit for where the gap passes 1" less 1e-6
        if gap(hi) < 1.0:
            continue
        for _ in range(200):
            mid = (lo + hi) / 2
            if gap(mid) < 1.0 - edge:
                lo = mid
            else:
                hi = mid
        offsets = (-1e-9, -1e-12, 0.0, 1e-12, 1e-9, 5e-7, 2e-6)
        points = [(cx + sign * (hi + d), cy) for d in offsets]
        got = riverside_deploy._clear_points(state, us, points)
        assert got == _one_by_one(state, us, points)
        compared += sum(got) > 0 and not all(got)
    assert compared >= 1  # both answers met at some edge
