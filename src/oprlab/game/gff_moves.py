"""GFF's optional special moves in games: the attacker's push after a Shaken result, and the
fall it may cause (seed 003 "SPECIAL MOVES (Optional)": Pushing, Falling).

The rules are :mod:`oprlab.table.special_moves`; this module adds the attacker's habit (which
way to push) so the procedure (``oprlab.game.gff``) only rolls the dice and applies the result.
Jumping is not played: the movement planner walks round what it cannot climb and plans no jumps.

May import ``oprlab.table`` and ``oprlab.game.state``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from oprlab.game.state import GameState, UnitState
from oprlab.table.model import Placement
from oprlab.table.special_moves import PushResult, push_model

#: The directions an attacker tries (the eight compass points, east first, anticlockwise).
PUSH_DIRECTIONS = tuple(
    (round(math.cos(k * math.pi / 4), 12), round(math.sin(k * math.pi / 4), 12)) for k in range(8)
)


def pushed_model(target: UnitState) -> int:
    """The model that rolled the wound effect: the unit's last model (Groups & Wounds)."""
    assert target.placement is not None
    return int(np.flatnonzero(target.placement.alive)[-1])


def best_push(
    state: GameState, target: UnitState, others: Sequence[Placement]
) -> tuple[int, PushResult] | None:
    """The attacker's habit: the push that drops the model farthest (2" or more is a fall),
    else the one that leaves it farthest from the nearest objective marker; ties go to the
    first of :data:`PUSH_DIRECTIONS`. ``None`` when no direction moves it."""
    assert target.placement is not None
    index = pushed_model(target)
    markers = np.array([o.position for o in state.objectives], dtype=np.float64).reshape(-1, 2)
    best: tuple[tuple[float, float, int], PushResult] | None = None
    for k, direction in enumerate(PUSH_DIRECTIONS):
        r = push_model(state.table, target.placement, index, direction, others)
        if r.moved <= 0.0:
            continue
        x, y = r.placement.centres[index]
        away = float(np.hypot(markers[:, 0] - x, markers[:, 1] - y).min()) if len(markers) else 0.0
        key = (round(r.drop, 9), round(away, 9), -k)
        if best is None or key > best[0]:
            best = (key, r)
    return None if best is None else (index, best[1])
