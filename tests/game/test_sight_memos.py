"""Riverside's looks (seed 002 "Line of Sight", "Determine Cover", "Measuring") and GFF's
sights (seed 003 "Line of Sight", "Shooting": models in range and line of sight) remembered by
the positions they depend on (issue 13): the same answers as a fresh trace, never stale."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import gff_shooting
from oprlab.game import riverside_combat as combat
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, UnitState
from oprlab.table.model import Placement
from tests.game import line
from tests.game.test_gff_rounds import scene as gff_scene
from tests.game.test_riverside_game import LINE_TEXT, army, put, scene


def _placed(us: UnitState) -> Placement:
    """``us``'s placement (a unit the scene stood on the table)."""
    assert us.placement is not None
    return us.placement


def _state() -> GameState:
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    a, b = (
        sorted(u for u in state.units if state.units[u].side == 0),
        sorted(u for u in state.units if state.units[u].side == 1),
    )
    put(state, a[0], (10.0, 10.0))
    put(state, a[1], (30.0, 10.0))
    put(state, b[0], (12.0, 30.0))
    put(state, b[1], (34.0, 32.0))
    return state


def _fresh(state: GameState, uid: str) -> dict[str, combat.Look]:
    combat._LOOKS.clear()
    return combat.look(state, state.units[uid])


def _same(x: dict[str, combat.Look], y: dict[str, combat.Look]) -> bool:
    return x.keys() == y.keys() and all(
        np.array_equal(x[k].sees, y[k].sees)
        and np.array_equal(x[k].distance, y[k].distance)
        and np.array_equal(x[k].cover, y[k].cover)
        for k in x
    )


def test_a_remembered_look_is_the_fresh_one_and_moves_with_the_units() -> None:
    state = _state()
    shooter = next(u for u in sorted(state.units) if state.units[u].side == 0)
    combat._LOOKS.clear()
    first = combat.look(state, state.units[shooter])
    assert len(combat._LOOKS) == 1
    again = combat.look(state, state.units[shooter])
    assert len(combat._LOOKS) == 1  # asked again: remembered
    assert _same(again, first) and _same(again, _fresh(state, shooter))
    enemy = next(iter(first))
    before = float(first[enemy].distance.min())
    _placed(state.units[enemy]).centres[:, 1] += 6.0
    moved = combat.look(state, state.units[shooter])
    assert float(moved[enemy].distance.min()) == pytest.approx(before + 6.0, abs=0.5)
    assert _same(moved, _fresh(state, shooter))


def test_the_arrays_a_look_shares_cannot_be_changed() -> None:
    state = _state()
    shooter = next(u for u in sorted(state.units) if state.units[u].side == 0)
    lk = next(iter(combat.look(state, state.units[shooter]).values()))
    with pytest.raises(ValueError):
        lk.sees[0] = not lk.sees[0]


def test_fortifications_are_asked_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A house rule's cover (Fortifications) is not part of the remembered trace: whether the
    target counts as fortified is asked every time."""
    state = _state()
    shooter = next(u for u in sorted(state.units) if state.units[u].side == 0)
    combat._LOOKS.clear()
    plain = combat.look(state, state.units[shooter])
    rules = opr_rules(state)
    monkeypatch.setattr(rules, "fortified", lambda s, t: True, raising=False)
    fortified = combat.look(state, state.units[shooter])
    assert len(combat._LOOKS) == 1
    assert all(lk.cover.all() for lk in fortified.values())
    monkeypatch.undo()
    assert _same(combat.look(state, state.units[shooter]), plain)


def test_a_remembered_gff_sight_is_the_fresh_one_and_moves_with_the_units() -> None:
    a, b = line(), line()
    uids = sorted(gff_scene(a, b, {}).units)
    ours = [u for u in uids if u.startswith("A")] or uids[: len(uids) // 2]
    theirs = [u for u in uids if u not in ours]
    state = gff_scene(
        a, b, {ours[0]: (10.0, 10.0), theirs[0]: (12.0, 30.0), theirs[1]: (30.0, 20.0)}
    )
    us, target, blocker = (state.units[u] for u in (ours[0], theirs[0], theirs[1]))
    gff_shooting._SIGHTS.clear()
    first = gff_shooting.sight(state, us, target)
    assert gff_shooting.sight(state, us, target) is first  # asked again: remembered
    assert len(gff_shooting._SIGHTS) == 1
    with pytest.raises(ValueError):
        first.distance[0] = 0.0
    fresh = (
        gff_shooting.seeing(state, us, target),
        np.array(first.distance),
    )
    assert np.array_equal(first.sees, fresh[0])
    _placed(blocker).centres[:, 0] -= 19.0  # into the line: GFF's models never block
    kept = gff_shooting.sight(state, us, target)
    assert kept is first and len(gff_shooting._SIGHTS) == 1
    assert np.array_equal(kept.sees, gff_shooting.seeing(state, us, target))
    _placed(us).centres[:, 0] += 1.0
    moved = gff_shooting.sight(state, us, target)
    assert moved is not first and len(gff_shooting._SIGHTS) == 2
    assert np.array_equal(moved.sees, gff_shooting.seeing(state, us, target))
    _placed(target).centres[:, 1] += 6.0
    farther = gff_shooting.sight(state, us, target)
    assert float(farther.distance.min()) == pytest.approx(
        float(first.distance.min()) + 6.0, abs=0.5
    )
