"""``can_charge`` remembers its answers by everything it reads (issue 13): a GFF charge is
tested by the commander and again by its move among the same units. The remembered answer must
be the one worked out afresh, and a unit that moved, a model lost, another allowance or rule
must be asked again (seed 002 "Charge Action", seed 003 "May only charge if ...")."""

from __future__ import annotations

import numpy as np

from oprlab.table import charge
from oprlab.table.charge import _can_charge, can_charge
from oprlab.table.deploy import mission_table
from oprlab.table.formation import formation
from oprlab.table.model import Placement, Table
from oprlab.table.movement import MoveRules


def _unit(n: int, centre: np.ndarray, facing: tuple[float, float]) -> Placement:
    return Placement(
        formation(n, 0.5, (float(centre[0]), float(centre[1])), facing), np.full(n, 0.5)
    )


def test_remembered_answers_are_the_fresh_ones() -> None:
    rng = np.random.default_rng(13)
    answers: list[bool] = []
    for table in (Table(), mission_table(4)):
        for _ in range(40):
            a = rng.uniform(8, 40, 2)
            ang = rng.uniform(0, 2 * np.pi)
            b = a + rng.uniform(3, 15) * np.array([np.cos(ang), np.sin(ang)])
            if not ((b >= 6) & (b <= 42)).all():
                continue
            facing = (float(np.cos(ang)), float(np.sin(ang)))
            attacker = _unit(int(rng.integers(1, 6)), a, facing)
            target = _unit(int(rng.integers(1, 5)), b, (0.0, 1.0))
            friends = [
                _unit(int(rng.integers(1, 4)), a + t * (b - a) + rng.normal(0, 1.0, 2), facing)
                for t in rng.uniform(0.3, 0.7, int(rng.integers(1, 4)))
            ]
            moved = [f.copy() for f in friends]
            moved[0].centres += rng.normal(0, 1.5, 2)
            lost = [f.copy() for f in friends]
            lost[-1].removed[0] = True
            for allowance, rules, others in (
                (12.0, MoveRules(), friends),
                (12.0, MoveRules(), [*friends, attacker, target]),  # left out, as the move does
                (12.0, MoveRules(), moved),
                (12.0, MoveRules(), lost),
                (6.0, MoveRules(), friends),
                (12.0, MoveRules(strider=True), friends),
                (12.0, MoveRules(), friends[:1]),
            ):
                fresh = _can_charge(table, attacker, target, allowance, others, rules, False)
                for _ in range(2):
                    got = can_charge(table, attacker, target, allowance, others, rules=rules)
                    assert got == fresh
                answers.append(fresh)
    assert any(answers) and not all(answers)
    assert len(charge._ANSWERS) <= charge._ANSWERS_LIMIT


def test_the_same_unit_twice_is_not_two_units() -> None:
    """An object listed twice is one unit to the search; two units standing alike are two."""
    a = np.array([10.0, 10.0])
    attacker = _unit(1, a, (1.0, 0.0))
    target = _unit(1, a + np.array([8.0, 0.0]), (0.0, 1.0))
    friend = _unit(3, a + np.array([4.0, 0.0]), (0.0, 1.0))
    table = Table()
    key_twice = charge._answer_key(
        table, attacker, target, 12.0, [friend, friend], MoveRules(), False
    )
    key_alike = charge._answer_key(
        table, attacker, target, 12.0, [friend, friend.copy()], MoveRules(), False
    )
    key_once = charge._answer_key(table, attacker, target, 12.0, [friend], MoveRules(), False)
    assert key_twice != key_alike and key_twice != key_once
