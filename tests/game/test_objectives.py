"""The shared marker procedure (seed 003 "Mission" 4-6; seed 002 "End Phase"; WWPD uses GFF's)."""

from __future__ import annotations

import numpy as np

from oprlab.game import objectives
from oprlab.game.events import EventLog
from oprlab.game.state import Objective
from oprlab.table.model import Placement


def _at(x: float, y: float) -> Placement:
    """One 25 mm model standing at (x, y)."""
    return Placement(centres=np.array([[x, y]]), radii=np.array([0.5]))


def test_sides_near_counts_units_within_3_inches_of_the_base_edge() -> None:
    """seed 003 "Mission" 4: "within 3" of a marker" (measured from the base: 0.5" + 3")."""
    markers = [Objective((10.0, 10.0)), Objective((30.0, 30.0))]
    near = objectives.sides_near(markers, [(0, _at(13.5, 10.0)), (1, _at(13.6, 10.0))])
    assert near == [{0}, set()]


def test_settle_seizes_keeps_and_neutralises() -> None:
    """seed 003 "Mission" 4-6: alone seizes, control stays after leaving, both make it neutral."""
    markers = [Objective((0.0, 0.0))]
    log = EventLog()
    objectives.settle_markers(markers, [{1}], log, 1)
    assert markers[0].controller == 1
    objectives.settle_markers(markers, [set()], log, 2)
    assert markers[0].controller == 1
    objectives.settle_markers(markers, [{0, 1}], log, 3, key="marker")
    assert markers[0].controller is None
    assert [e.get("objective", e.get("marker")) for e in log.of_kind("control")] == [0, 0]
    assert log.events[-1] == {"kind": "control", "marker": 0, "controller": None, "round": 3}


def test_most_markers_win_and_equal_is_a_draw() -> None:
    """seed 003 "Mission" 8: the player controlling most markers wins."""
    markers = [Objective((0.0, 0.0), 0), Objective((9.0, 0.0), 1), Objective((18.0, 0.0), 1)]
    assert objectives.held(markers) == (1, 2)
    assert objectives.winner_of((1, 2)) == 1
    assert objectives.winner_of((2, 1)) == 0
    assert objectives.winner_of((1, 1)) is None
