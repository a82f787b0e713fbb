"""The rules commander reads every unit's alive models into one array at once (view.py
``Units``): the arrays, each unit's first model in them and whether every unit has a model
left must be those read unit by unit (a mask per unit), through casualties (seed 003 "Wounds":
models removed) and a unit with none left."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oprlab.game.actions import Action
from oprlab.game.play import play_game
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.view import Units
from oprlab.players.rules_commander import RulesCommander
from oprlab.samples import sample_path
from oprlab.units.load import load_army


def _check(units: list[UnitState]) -> bool:
    """Assert ``Units(units)`` is what a unit-by-unit reading gives; whether one has casualties."""
    group = Units(units)
    masked = []
    for u in units:
        assert u.placement is not None
        alive = u.placement.alive
        masked.append((u.placement.centres[alive], u.placement.radii[alive]))
    starts = np.cumsum([0, *(len(r) for _, r in masked)])[:-1]
    assert group.starts.tolist() == starts.tolist() and group.starts.dtype == np.intp
    assert group.whole == all(len(r) for _, r in masked)
    centres = np.concatenate([c for c, _ in masked])
    assert np.array_equal(group.x, centres[:, 0]) and np.array_equal(group.y, centres[:, 1])
    assert np.array_equal(group.r, np.concatenate([r for _, r in masked]))
    for at in ((0.0, 0.0), (24.0, 30.5)) if group.whole else ():  # the same gaps, bit for bit
        assert group.gaps(at) == [
            max(0.0, float((np.hypot(c[:, 0] - at[0], c[:, 1] - at[1]) - r).min()))
            for c, r in masked
        ]
    return any(u.placement is not None and u.placement.removed.any() for u in units)


def test_units_read_at_once_are_those_read_unit_by_unit() -> None:
    seen = {"groups": 0, "casualties": 0, "none left": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            for side in (0, 1):
                seen["casualties"] += _check(state.enemies(side))
                seen["groups"] += 1
            return super()._best_action(state, actions)

    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    _, state = play_game(a, b, [Checking(3), Checking(4)], seed=3)
    assert seen["groups"] > 50 and seen["casualties"] > 20
    units = [u for u in state.units.values() if u.placement is not None]
    squad = next(u.placement for u in units if u.placement and len(u.placement.radii) > 1)
    squad.removed[:] = True  # a unit with no model left: measured one by one
    assert _check(units) and not Units(units).whole
