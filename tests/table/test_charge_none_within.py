"""A charge's contact spots shown out of reach by one search toward all of them (issue 13):
whenever :func:`oprlab.table.paths.none_within` says no spot is reached within the allowance,
the path search to each spot must agree (seed 002 "Charge Action": at least one model must be
able to reach base contact within its charge move), over many random melees with units in the
way, on open tables (the only ones it answers on)."""

from __future__ import annotations

import numpy as np

from oprlab.table.charge import _contact_spots, _mover
from oprlab.table.formation import formation
from oprlab.table.model import Placement, Table
from oprlab.table.movement import MoveRules
from oprlab.table.paths import find_path, none_within


def _unit(n: int, centre: np.ndarray, facing: tuple[float, float] = (0.0, 1.0)) -> Placement:
    return Placement(
        formation(n, 0.5, (float(centre[0]), float(centre[1])), facing), np.full(n, 0.5)
    )


def test_none_within_agrees_with_the_path_search() -> None:
    rng = np.random.default_rng(28)
    table = Table()
    shown = asked = 0
    for _ in range(120):
        a = rng.uniform(8, 40, 2)
        ang = rng.uniform(0, 2 * np.pi)
        b = a + rng.uniform(3, 14) * np.array([np.cos(ang), np.sin(ang)])
        if not ((b >= 6) & (b <= 42)).all():
            continue
        attacker = _unit(int(rng.integers(1, 4)), a, (float(np.cos(ang)), float(np.sin(ang))))
        target = _unit(int(rng.integers(1, 4)), b)
        # units crowding the target and standing in the way
        friends = [
            _unit(int(rng.integers(1, 6)), b + rng.normal(0, 2.5, 2))
            for _ in range(int(rng.integers(1, 5)))
        ]
        friends += [_unit(int(rng.integers(1, 4)), (a + b) / 2 + rng.normal(0, 1.0, 2))]
        m = _mover(table, attacker, target, friends, MoveRules())
        for k in m.idx:
            r = float(attacker.radii[k])
            nav, blocks = m.nav(r), m.blocks(r)
            assert nav is not None
            start = attacker.centres[k]
            spots = _contact_spots(r, target)
            for allow in (6.0, 12.0):
                asked += 1
                if not none_within(nav, start, spots, blocks, allow):
                    continue
                shown += 1
                for g in spots:
                    p = find_path(nav, (start[0], start[1]), (g[0], g[1]), blocks)
                    assert not (p.reached and p.cost <= allow + 1e-9)
    assert asked > 150
    assert shown > 20  # walled-in and far spots are shown out of reach


def test_remembered_escapes_are_the_nearest_free_points() -> None:
    """A start inside a blocker steps to its nearest free point: remembered, the same point
    (read-only, so no caller can change what the next one gets)."""
    from oprlab.table.escape import escape, nearest_free

    rng = np.random.default_rng(29)
    table = Table()
    stepped = 0
    for _ in range(40):
        b = rng.uniform(10, 38, 2)
        friends = [_unit(int(rng.integers(1, 6)), b + rng.normal(0, 2.0, 2)) for _ in range(3)]
        m = _mover(table, _unit(1, b + 6.0), _unit(1, b - 6.0), friends, MoveRules())
        nav, blocks = m.nav(0.5), m.blocks(0.5)
        assert nav is not None
        for p in b + rng.normal(0, 2.0, (5, 2)):
            want = nearest_free(nav, p, blocks)
            for _ in range(2):
                got = escape(nav, p, blocks)
                if want is None:
                    assert got is None
                else:
                    assert got is not None and got.tobytes() == want.tobytes()
                    assert not got.flags.writeable
                    stepped += not np.array_equal(got, p)
    assert stepped > 20
