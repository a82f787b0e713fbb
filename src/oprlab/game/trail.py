"""Where units moved: each unit's centre before and after every decision that moved it.

The event log says what a unit did (advance to a point, charge a target, the distance moved) but
not where it ended: the planner walks round terrain and other units. Pictures of a game draw
moves and charges as paths, so :func:`oprlab.game.play.play_game` (and WWPD's) can keep a
:class:`Trail` beside the log. It is kept apart from the events on purpose: the events of a
seeded game are pinned by hash, and the trail only records positions the game already had.

Works on any game state with ``units`` (each with ``uid``, ``side`` and ``placement``), a
``round`` and an ``active`` side. May import numpy and ``oprlab.table.model``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from oprlab.table.model import FloatArray, Point

BoolArray = npt.NDArray[np.bool_]

#: A unit whose centre moved less than this (inches) did not move.
STILL = 0.01


@dataclass(frozen=True)
class Step:
    """One unit's move in one decision.

    Attributes:
        round: the round it happened in (0: deployment).
        unit: the unit's uid.
        side: its side.
        kind: the decision's kind when the unit acted (``advance``, ``rush``, ``charge``,
            ``consolidate``, ``move`` ...), else ``moved`` (pushed, piled in, stepped apart).
        start: its centre before (alive models' mean, inches).
        end: its centre after.
    """

    round: int
    unit: str
    side: int
    kind: str
    start: Point
    end: Point

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "unit": self.unit,
            "side": self.side,
            "kind": self.kind,
            "from": [round(self.start[0], 3), round(self.start[1], 3)],
            "to": [round(self.end[0], 3), round(self.end[1], 3)],
        }


@dataclass
class Trail:
    """Every move of a game, in order; call :meth:`record` after each decision."""

    steps: list[Step] = field(default_factory=list)
    _last: dict[str, tuple[FloatArray, BoolArray]] = field(default_factory=dict)

    def record(self, state: Any, action: Any) -> None:
        """Note the units that moved since the last call (``action``: the decision just
        applied; its unit's move takes the decision's kind). A unit's move is that of its
        models alive both before and after, so casualties do not count as moves."""
        now = _positions(state)
        kind = str(getattr(getattr(action, "kind", ""), "value", "")) or "moved"
        actor = str(getattr(action, "unit", ""))
        for uid, (after, alive) in now.items():
            last = self._last.get(uid)
            if last is None or len(last[0]) != len(after):
                continue
            both = alive & last[1]
            if not both.any():
                continue
            a, b = last[0][both].mean(axis=0), after[both].mean(axis=0)
            if float(np.hypot(*(b - a))) < STILL:
                continue
            self.steps.append(
                Step(
                    int(state.round),
                    uid,
                    int(state.units[uid].side),
                    kind if uid == actor else "moved",
                    (float(a[0]), float(a[1])),
                    (float(b[0]), float(b[1])),
                )
            )
        self._last = now

    def in_round(self, n: int) -> list[Step]:
        """The moves made in round ``n``."""
        return [s for s in self.steps if s.round == n]

    def to_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.steps]


def _positions(state: Any) -> dict[str, tuple[FloatArray, BoolArray]]:
    out: dict[str, tuple[FloatArray, BoolArray]] = {}
    for uid, us in state.units.items():
        p = us.placement
        if p is not None and us.on_table:
            out[uid] = (p.centres.copy(), p.alive.copy())
    return out
