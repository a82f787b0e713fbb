"""Special moves in GFF games (seed 003_8abb008d4113ed75 "SPECIAL MOVES (Optional)": Pushing,
Falling), played under the option ``GffOptions(special_moves=True)``; off by default."""

from __future__ import annotations

import math

import numpy as np

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import Test
from oprlab.table.measure import elevation
from oprlab.table.model import Table, TerrainPiece, TerrainType
from tests.game import Scripted, line
from tests.game.test_gff_casting import by_test
from tests.game.test_gff_rounds import scene

TOWER = TerrainPiece(
    "Tower",
    ((20.0, 15.0), (30.5, 15.0), (30.5, 25.0), (20.0, 25.0)),
    frozenset({TerrainType.ELEVATED}),
    height=4.0,
)


def _shoot_the_captain(
    at: tuple[float, float], *, push: bool = True, moves: bool = True, table: Table | None = None
) -> tuple[GameState, Scripted]:
    """A Rifle Squad's 3 hits wound the Tough(3) Captain 3 times: it rolls a Shaken result."""
    mech = Scripted(by_test(hit=True, defense=False, wound_effect=True, generic=push))
    state = scene(line(), line(), {"A2": (24.0, 8.0), "B1": at}, mechanic=mech)
    state.table = table or Table()
    state.options = GffOptions(special_moves=moves)
    gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.SHOOT, "A2", target="B1"))
    return state, mech


def _centre(state: GameState, uid: str) -> tuple[float, float]:
    p = state.units[uid].placement
    assert p is not None
    return (float(p.centres[0, 0]), float(p.centres[0, 1]))


def test_the_attacker_pushes_a_model_that_rolls_a_shaken_result_on_a_4_plus() -> None:
    """seed 003 "Pushing": "Whenever a model rolls a Shaken result, the attacker may try to push it.
    Roll one die, and on a 4+ the attacker may move the model by up to 2" in any direction"
    (the attacker's own roll; with no marker and no drop the habit pushes east)."""
    state, mech = _shoot_the_captain((24.0, 20.0))
    assert state.units["B1"].shaken
    (roll,) = mech.of(Test.GENERIC)
    assert roll.target == 4 and roll.owner.unit == "A2"
    (push,) = state.log.of_kind("push")
    assert push["success"] and push["moved"] == 2.0 and push["drop"] == 0.0
    x, y = _centre(state, "B1")
    assert math.isclose(x, 26.0) and math.isclose(y, 20.0)


def test_a_failed_push_roll_moves_nothing() -> None:
    """On a 1-3 the model stays where it is."""
    state, _ = _shoot_the_captain((24.0, 20.0), push=False)
    (push,) = state.log.of_kind("push")
    assert not push["success"] and push["moved"] == 0.0
    assert _centre(state, "B1") == (24.0, 20.0)


def test_pushing_is_off_by_default() -> None:
    """seed 003 "SPECIAL MOVES (Optional)": without the option no push die is rolled."""
    state, mech = _shoot_the_captain((24.0, 20.0), moves=False)
    assert mech.of(Test.GENERIC) == [] and state.log.of_kind("push") == []
    assert not GffOptions().special_moves


def test_a_push_off_a_tall_ledge_falls_and_takes_a_hit() -> None:
    """seed 003 "Falling": pushed off an elevated position at least 2" tall (the 4" tower) it
    takes 1 hit with AP(1 per full 3"): AP(1); it is placed within 2" of the bottom. The habit
    pushes toward the drop."""
    state, mech = _shoot_the_captain((29.8, 20.0), table=Table(pieces=(TOWER,)))
    (push,) = state.log.of_kind("push")
    assert push["success"] and push["drop"] == 4.0
    (fell,) = state.log.of_kind("fall")
    assert fell["ap"] == 1 and not fell["killed"]
    blocks = mech.of(Test.DEFENSE)
    assert blocks[-1].modifier == -1  # the fall's hit, AP(1)
    x, y = _centre(state, "B1")
    assert float(elevation(state.table, np.array([[x, y]]))[0]) == 0.0
    assert math.hypot(x - 31.8, y - 20.0) <= 2.0 + 1e-6
    assert state.units["B1"].markers == 4  # three wounds and the fall's
