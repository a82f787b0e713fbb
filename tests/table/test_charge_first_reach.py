"""``can_charge`` stops at the first contact spot a model reaches (issue 13): the same answers as
the full search for the nearest spot (seed 002 "Charge Action", seed 003 "May only charge if
...": at least one model must be able to reach base contact within its charge move).

The full search tries the spots nearest in a straight line, keeping the shortest path; whether a
charge is legal only needs one spot reached. The shortcut is taken where any path within the
allowance passes the difficult-terrain cap (seed 003 "Difficult Terrain"); a charge move then
resumes the search where ``can_charge`` stopped, and must place its models as a cold search does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from oprlab.table import charge
from oprlab.table.blockers import Blockers
from oprlab.table.charge import _contact_spots, _mover, can_charge, charge_move
from oprlab.table.deploy import mission_table
from oprlab.table.formation import formation
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.movement import Mover, MoveRules
from oprlab.table.paths import NavGraph, Path, reaches_within

FloatPair = tuple[float, float]
Position = tuple[Placement, Placement, list[Placement]]


def _unit(n: int, centre: FloatPair, facing: FloatPair = (0.0, 1.0)) -> Placement:
    return Placement(formation(n, 0.5, centre, facing), np.full(n, 0.5))


def _positions(rng: np.random.Generator, table: Table, count: int) -> list[Position]:
    """A charger, a target 3-15" away (centre to centre) and one to three units of its own
    side standing between them (the case the straight-line check cannot answer)."""
    out: list[Position] = []
    while len(out) < count:
        a = rng.uniform(8, 40, 2)
        ang = rng.uniform(0, 2 * np.pi)
        d = rng.uniform(3, 15)
        b = a + d * np.array([np.cos(ang), np.sin(ang)])
        if not ((b >= 6) & (b <= 42)).all():
            continue
        facing = (float(np.cos(ang)), float(np.sin(ang)))
        attacker = _unit(int(rng.integers(1, 8)), (float(a[0]), float(a[1])), facing)
        target = _unit(int(rng.integers(1, 6)), (float(b[0]), float(b[1])))
        friends = []
        for _ in range(int(rng.integers(1, 4))):
            t = rng.uniform(0.3, 0.7)
            c = a + t * (b - a) + rng.normal(0, 1.0, 2)
            friends.append(_unit(int(rng.integers(1, 4)), (float(c[0]), float(c[1]))))
        out.append((attacker, target, friends))
    return out


def _full_can_charge(
    table: Table,
    attacker: Placement,
    target: Placement,
    allowance: float,
    others: Sequence[Placement],
    *,
    rules: MoveRules,
) -> bool:
    """``can_charge`` with the full search for every model and every way to charge (the
    shortcuts switched off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(charge, "_any_path_within_cap", lambda m, allow: False)
        mp.setattr(charge, "_one_mode_decides", lambda m: False)
        charge._REACH.clear()
        charge._ANSWERS.clear()
        return can_charge(table, attacker, target, allowance, others, rules=rules)


TABLES = [None, 2, 4, 7]


@pytest.mark.parametrize("terrain", TABLES)
def test_can_charge_answers_as_the_full_search(terrain: int | None) -> None:
    """seed 002 "Charge Action": on open and generated tables (with difficult terrain), with
    friends in the straight line, the answer is the full search's, for charge moves of 6" and
    12" and for Strider units, asked for a charge or for the listing."""
    table = Table() if terrain is None else mission_table(terrain)
    rng = np.random.default_rng(100 + (terrain or 0))
    answers = []
    for attacker, target, friends in _positions(rng, table, 8):
        for allowance, rules in ((12.0, MoveRules()), (6.0, MoveRules()), (12.0, None)):
            rules = rules or MoveRules(strider=True)
            want = _full_can_charge(table, attacker, target, allowance, friends, rules=rules)
            for listing in (False, True):
                charge._REACH.clear()
                charge._ANSWERS.clear()
                got = can_charge(
                    table, attacker, target, allowance, friends, rules=rules, listing=listing
                )
                assert got == want
            answers.append(want)
    assert any(answers) and not all(answers)


def test_first_spot_reached_iff_the_nearest_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Some spot is sure to be reached exactly when the full search finds one; then the full
    search resumed from where that stopped finds the cold search's spot and path.
    Among the positions, some need more than one spot tried before one is reached (a search
    that gave up after the first spot tried would answer wrongly there)."""
    tried_more = 0
    checked = 0
    calls: list[FloatArray] = []
    plain = Mover.path

    def counted(
        self: Mover, radius: float, start: FloatArray, goal: FloatArray, within: float
    ) -> Path:
        calls.append(goal)
        return plain(self, radius, start, goal, within)

    sure = reaches_within

    def counted_sure(
        nav: NavGraph, start: FloatArray, goal: FloatArray, blocks: Blockers, within: float
    ) -> bool:
        calls.append(goal)
        return sure(nav, start, goal, blocks, within)

    monkeypatch.setattr(Mover, "path", counted)
    monkeypatch.setattr(charge, "reaches_within", counted_sure)
    for terrain in TABLES:
        table = Table() if terrain is None else mission_table(terrain)
        rng = np.random.default_rng(200 + (terrain or 0))
        for attacker, target, friends in _positions(rng, table, 6):
            m = _mover(table, attacker, target, friends, MoveRules())
            for k in m.idx:
                r = float(attacker.radii[k])
                spots = _contact_spots(r, target)
                start = attacker.centres[k]
                charge._REACH.clear()
                charge._ANSWERS.clear()
                cold = charge._reach_contact(m, start, r, spots, 12.0)
                charge._REACH.clear()
                charge._ANSWERS.clear()
                calls.clear()
                first = charge._reaches_contact(m, start, r, spots, 12.0, vouch=True)
                assert first == (cold is not None)
                if cold is not None:
                    resumed = charge._reach_contact(m, start, r, spots, 12.0)
                    assert resumed is not None
                    assert np.array_equal(resumed[0], cold[0]) and resumed[1] == cold[1]
                    tried_more += len({g.tobytes() for g in calls}) > 1
                checked += 1
    assert checked >= 60
    assert tried_more >= 1


def test_charge_after_can_charge_moves_as_cold() -> None:
    """seed 002 "Charge Action": a charge asked after ``can_charge`` (whose search stopped at the
    first spot) places its models exactly as a charge with nothing remembered."""
    table = mission_table(4)
    rng = np.random.default_rng(300)
    charged = 0
    for attacker, target, friends in _positions(rng, table, 6):
        moves: list[object] = []
        for cold in (True, False):
            charge._REACH.clear()
            charge._ANSWERS.clear()
            if not cold:
                can_charge(table, attacker, target, 12.0, friends, listing=True)
            try:
                r = charge_move(table, attacker, target, friends, 12.0)
            except ValueError:
                moves.append(None)
                continue
            moves.append((r.placement.centres.tobytes(), r.move.paths, r.in_contact.tobytes()))
        assert moves[0] == moves[1]
        charged += moves[0] is not None
    assert charged >= 2
