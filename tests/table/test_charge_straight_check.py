"""A contact search first looks for the nearest spot in plain sight (issue 13): its lines are
traced as a fan from the model and only to the free spots, and it must take the spot, path and
progress the check over every spot, line by line, takes (seed 002 "Charge Action", seed 003
"May only charge if ...": a model reaching base contact within its charge move)."""

from __future__ import annotations

import numpy as np

from oprlab.table import charge
from oprlab.table.charge import _contact_spots, _mover
from oprlab.table.deploy import mission_table
from oprlab.table.model import FloatArray, Table
from oprlab.table.movement import Mover, MoveRules
from oprlab.table.paths import Path
from tests.table.test_charge_first_reach import TABLES, _positions

Progress = tuple[tuple[FloatArray, Path] | None, int, bool]


def _line_by_line(m: Mover, start: FloatArray, r: float, spots: FloatArray) -> Progress | None:
    """The straight check as it was: every spot within the allowance tested free and clear
    (the start repeated for each line), the first of both taken; ``None``: no answer."""
    allow = 12.0
    nav, blocks = m.nav(r), m.blocks(r)
    straight = np.hypot(*(spots - start).T)
    order = np.argsort(straight, kind="stable")
    order = order[straight[order] <= allow + 1e-9]
    if nav is None or not len(order):
        return None
    near = spots[order]
    starts = np.repeat(start[None, :], len(near), axis=0)
    seen = nav.free(near, blocks) & nav.clear(starts, near, blocks)
    if not (nav.free(start[None, :], blocks)[0] and seen.any()):
        return None
    j = int(np.argmax(seen))
    a, b = start, near[j]
    climb = float(nav.climb(a[None, :], b[None, :])[0])
    length = float(np.hypot(*(b - a)))
    if length + climb > allow + 1e-9:
        return None
    path = Path(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))), length, climb)
    return (b, path), -1, True


def _same(x: Progress, y: Progress) -> bool:
    if x[1:] != y[1:] or (x[0] is None) != (y[0] is None):
        return False
    return x[0] is None or y[0] is None or (np.array_equal(x[0][0], y[0][0]) and x[0][1] == y[0][1])


def test_the_straight_check_takes_the_spot_the_line_by_line_check_takes() -> None:
    """Open and generated tables, friends in the straight line: the search's progress equals
    the line-by-line check's answer, or (when it has none) the search without the check. Some
    models stand inside a friend's hull, and some nearest free spots are hidden behind a friend
    while a farther one is in sight (a check that took the first free spot would fail)."""
    answered = hidden_first = blocked_start = 0
    for terrain in TABLES:
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(500 + (terrain or 0))
        for attacker, target, friends in _positions(rng, table, 10):
            for others in (friends, friends[:1], []):
                m = _mover(table, attacker, target, others, MoveRules())
                for k in m.idx:
                    r = float(attacker.radii[k])
                    spots = _contact_spots(r, target)
                    start = attacker.centres[k]
                    nav, blocks = m.nav(r), m.blocks(r)
                    assert nav is not None
                    want = _line_by_line(m, start, r, spots)
                    if want is None:
                        want = charge._reach_contact_search(
                            m, start, r, spots, 12.0, 6, (None, 0, False), True
                        )
                    else:
                        answered += 1
                        free = nav.free(spots, blocks)
                        order = np.argsort(np.hypot(*(spots - start).T), kind="stable")
                        first_free = next(i for i in order if free[i])
                        assert want[0] is not None
                        hidden_first += not np.array_equal(spots[first_free], want[0][0])
                    blocked_start += not nav.free(start[None, :], blocks)[0]
                    got = charge._reach_contact_search(m, start, r, spots, 12.0, 6, None, True)
                    assert _same(got, want)
    assert answered >= 100 and hidden_first >= 5 and blocked_start >= 5
