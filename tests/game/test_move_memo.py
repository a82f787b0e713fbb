"""A unit's move (seed 003 "Movement": each model moves up to its allowance, round terrain and
1" from other units) remembered by everything it depends on (issue 13): the answer is the
table's own move, never another move's, and the game may change it without changing the
memo's."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from oprlab.game import geometry as geo
from oprlab.table.deploy import mission_table
from oprlab.table.formation import formation
from oprlab.table.model import Placement, Point, Table
from oprlab.table.movement import MoveRules, move_unit


def _unit(at: Point, n: int, r: float = 0.5) -> Placement:
    return Placement(formation(n, r, at, (0.0, 1.0)), np.full(n, r))


def _scenes(table: Table, seed: int) -> Iterator[tuple[Placement, list[Placement], Point, float]]:
    """A unit, the other units (it among them, as the game passes them), a goal, an allowance."""
    rng = np.random.default_rng(seed)
    for _ in range(8):
        units = [
            _unit(
                (float(rng.uniform(6, table.width - 6)), float(rng.uniform(6, table.depth - 6))),
                int(rng.integers(1, 11)),
            )
            for _ in range(int(rng.integers(3, 7)))
        ]
        goal = tuple(float(v) for v in units[1].centres.mean(axis=0))
        yield units[0], units, (goal[0], goal[1]), float(rng.choice([6.0, 12.0]))


def _cold(
    table: Table, p: Placement, others: list[Placement], goal: Point, allowance: float, **kw: object
) -> geo.MoveOutcome:
    got = move_unit(table, p, others, goal, allowance, rules=MoveRules(), **kw)  # type: ignore[arg-type]
    return geo.MoveOutcome(got.placement, float(got.advanced), got.dangerous)


def _same(a: geo.MoveOutcome, b: geo.MoveOutcome) -> bool:
    return (
        geo.placement_key(a.placement) == geo.placement_key(b.placement)
        and a.advanced == b.advanced
        and np.array_equal(a.dangerous, b.dangerous)
    )


@pytest.mark.parametrize("terrain", [None, 3, 8])
def test_a_remembered_move_is_the_cold_move(terrain: int | None) -> None:
    """Open and generated tables: asked twice, the second answer comes from the memo and is
    the table's move, bit for bit."""
    table = Table() if terrain is None else mission_table(terrain)
    geo._MOVES.clear()
    for p, others, goal, allowance in _scenes(table, 5 if terrain is None else terrain):
        first = geo.move_unit_toward(table, p, others, goal, allowance)
        size = len(geo._MOVES)
        again = geo.move_unit_toward(table, p, others, goal, allowance)
        assert len(geo._MOVES) == size  # remembered, not moved again
        cold = _cold(table, p, others, goal, allowance)
        assert _same(first, cold) and _same(again, cold)


def test_the_game_may_change_a_remembered_answer() -> None:
    """The game removes casualties in place: the memo hands out copies."""
    table = Table()
    geo._MOVES.clear()
    p, others, goal, allowance = next(_scenes(table, 5))
    first = geo.move_unit_toward(table, p, others, goal, allowance)
    cold = _cold(table, p, others, goal, allowance)
    first.placement.removed[0] = True
    first.placement.centres[0] += 1.0
    first.dangerous[:] = True
    assert _same(geo.move_unit_toward(table, p, others, goal, allowance), cold)


def test_every_input_is_in_the_key() -> None:
    """Another unit moved, another goal, allowance or rules, and the charge target by identity
    (a target among the others is touched; a copy of it is one more unit to keep 1" from) each
    give their own move: a key without any of them would hand out the first answer."""
    table = Table()
    geo._MOVES.clear()
    p = _unit((20.0, 10.0), 5)
    target = _unit((20.0, 16.5), 5)
    side = _unit((26.0, 14.0), 3)
    others = [p, target, side]
    goal = (20.0, 16.5)
    asked: list[geo.MoveOutcome] = []
    moved_side = side.copy()
    moved_side.centres[:, 0] -= 4.0
    copy = target.copy()
    for kw in (
        {"others": others},
        {"others": [p, target, moved_side]},
        {"others": others, "goal": (14.0, 20.0)},
        {"others": others, "allowance": 3.0},
        {"others": others, "unit": None, "system": "riverside"},
        {"others": others, "may_touch": target},
        {"others": others, "may_touch": copy},
    ):
        o = kw["others"]
        assert isinstance(o, list)
        g = kw.get("goal", goal)
        a = kw.get("allowance", 12.0)
        touch = kw.get("may_touch")
        system = str(kw.get("system", "gff"))
        got = geo.move_unit_toward(table, p, o, g, a, may_touch=touch, system=system)  # type: ignore[arg-type]
        rules = MoveRules(system=system)
        cold = move_unit(table, p, o, g, a, rules=rules, charging_target=touch)  # type: ignore[arg-type]
        assert _same(got, geo.MoveOutcome(cold.placement, float(cold.advanced), cold.dangerous))
        asked.append(got)
    # each question above has an answer of its own (riverside's cohesion aside)
    keys = [(*geo.placement_key(a.placement), a.advanced) for a in asked]
    assert keys[0] not in keys[1:4] and keys[5] != keys[6]


def test_equal_tables_share_their_moves() -> None:
    """Each game makes its own table: an equal one (the same terrain and markers) gives the
    same moves, so the next game of a batch finds them; other terrain is another question."""
    geo._MOVES.clear()
    p, others, goal, allowance = next(_scenes(Table(), 5))
    geo.move_unit_toward(Table(), p, others, goal, allowance)
    size = len(geo._MOVES)
    geo.move_unit_toward(Table(), p, others, goal, allowance)
    assert len(geo._MOVES) == size
    table = mission_table(3)
    got = geo.move_unit_toward(table, p, others, goal, allowance)
    assert len(geo._MOVES) == size + 1
    assert _same(got, _cold(table, p, others, goal, allowance))
