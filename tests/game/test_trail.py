"""The trail of moves kept beside the log (pictures draw it): a unit's move is that of its
models alive before and after, so a casualty is not a move, and the actor's move takes the
decision's kind."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oprlab.game.actions import Action, Kind
from oprlab.game.trail import Trail
from oprlab.table.model import Placement


@dataclass
class _Unit:
    side: int
    placement: Placement | None
    on_table: bool = True


@dataclass
class _State:
    units: dict[str, _Unit]
    round: int = 1


def _squad(x: float) -> Placement:
    return Placement(np.array([[x, 0.0], [x + 2.0, 0.0]]), np.full(2, 0.5))


def test_moves_casualties_and_pushes() -> None:
    state = _State({"A1": _Unit(0, _squad(0.0)), "B1": _Unit(1, _squad(10.0))})
    trail = Trail()
    trail.record(state, None)  # the starting positions
    assert trail.steps == []
    pa = state.units["A1"].placement
    assert pa is not None
    pa.removed[1] = True  # a casualty: the mean of the alive models shifts, nobody moved
    trail.record(state, Action(Kind.HOLD, "B1"))
    assert trail.steps == []
    state.units["A1"].placement = _squad(3.0)
    state.units["A1"].placement.removed[1] = True
    state.units["B1"].placement = _squad(11.0)
    trail.record(state, Action(Kind.CHARGE, "A1", target="B1"))
    got = [(s.unit, s.kind, s.start, s.end) for s in trail.steps]
    assert got == [
        ("A1", "charge", (0.0, 0.0), (3.0, 0.0)),
        ("B1", "moved", (11.0, 0.0), (12.0, 0.0)),
    ]
    assert trail.in_round(1) == trail.steps and trail.in_round(2) == []
    assert trail.to_json()[0] == {
        "round": 1, "unit": "A1", "side": 0, "kind": "charge", "from": [0.0, 0.0], "to": [3.0, 0.0]
    }  # fmt: skip
