"""A charge's contact spots worked out once per base size, not once per model (issue 13): the
spots a model may take, the open ones less those too near models already placed, must be
exactly those the per-model test keeps (seed 002 "Charge Action": the charging models move
into base contact, 1" from other units, each clear of those already placed)."""

from __future__ import annotations

import numpy as np

from oprlab.table.charge import _clear_of, _contact_spots, _free_spots, _mover, _open_spots
from oprlab.table.deploy import mission_table
from oprlab.table.formation import Neighbours, formation
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.movement import MoveRules


def _unit(n: int, centre: FloatArray, radius: float) -> Placement:
    at = (float(centre[0]), float(centre[1]))
    return Placement(formation(n, radius, at, (0.0, 1.0)), np.full(n, radius))


def test_open_spots_clear_of_the_placed_are_the_free_spots() -> None:
    rng = np.random.default_rng(2028)
    kept_some = dropped_some = 0
    for table in (Table(), mission_table(2)):
        for _ in range(60):
            b = rng.uniform(8, 40, 2)
            target = _unit(int(rng.integers(1, 5)), b, float(rng.choice([0.5, 0.8])))
            attacker = _unit(int(rng.integers(2, 8)), b + rng.normal(0, 4.0, 2), 0.5)
            others = [_unit(int(rng.integers(1, 5)), b + rng.normal(0, 3.0, 2), 0.5)]
            m = _mover(table, attacker, target, others, MoveRules())
            neighbours = Neighbours.of(m.others, exempt=m.exempt, skip=attacker)
            kept: dict[float, FloatArray] = {}
            for count in range(4):
                r = float(rng.choice([0.5, 0.8]))
                spots = _contact_spots(r, target)
                placed = spots[rng.permutation(len(spots))[:count]] + rng.normal(0, 0.3, (count, 2))
                radii = np.full(count, 0.5)
                want = _free_spots(m, spots, r, neighbours, placed, radii)
                got = _clear_of(_open_spots(m, target, r, neighbours, kept), r, placed, radii)
                assert got.tobytes() == want.tobytes() and got.shape == want.shape
                kept_some += len(want) > 0
                dropped_some += len(want) < len(_open_spots(m, target, r, neighbours, kept))
    assert kept_some > 100 and dropped_some > 50
