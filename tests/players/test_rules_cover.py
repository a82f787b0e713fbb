"""The rules commander's cover check (players/rules/cover.py): the game's own answer, with the
sight lines skipped on a table without terrain (seed 003 "Cover Terrain": GFF cover is
terrain's, or a house rule's fortifying)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import oprlab
from oprlab.game import geometry, gff_fire
from oprlab.game.state import GameState, Objective, UnitState
from oprlab.game.systems import find_system
from oprlab.players.rules import cover
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType

#: A wood (cover, blocks sight) across the middle of the table.
WOOD = TerrainPiece(
    "Wood",
    ((4, 22), (44, 22), (44, 26), (4, 26)),
    frozenset({TerrainType.COVER, TerrainType.BLOCKING}),
)


def _game(system: str) -> GameState:
    a, b = oprlab.load_army("gff/shooty-150"), oprlab.load_army("gff/melee-150")
    state = find_system(system).new_game(a, b, seed=4)
    assert isinstance(state, GameState)
    return state


def _stand(us: UnitState, x: float, y: float) -> None:
    us.placement = Placement(
        np.array([[x + 1.2 * i, y] for i in range(us.models)]), np.full(us.models, 0.5)
    )


def _pairs(state: GameState) -> list[tuple[UnitState, UnitState]]:
    """Every side A unit at every side B unit, side A south of the middle, side B north."""
    mine = [u for u in state.units.values() if u.side == 0]
    theirs = [u for u in state.units.values() if u.side == 1]
    for i, u in enumerate(mine):
        _stand(u, 6.0 + 9.0 * i, 12.0)
    for i, u in enumerate(theirs):
        _stand(u, 6.0 + 9.0 * i, 24.0 if i % 2 else 36.0)
    return list(itertools.product(mine, theirs))


@pytest.mark.parametrize("pieces", [(), (WOOD,)])
def test_the_commander_meets_the_games_cover(pieces: tuple[TerrainPiece, ...]) -> None:
    """The same answer as the shot's own check, on an open table and behind a wood (where
    some targets have cover, so a shortcut that ignored terrain would fail)."""
    state = _game("gff")
    state.table = Table(pieces=pieces)
    answers = [
        (cover.gff_target_cover(state, us, t), gff_fire.target_in_cover(state, us, t))
        for us, t in _pairs(state)
    ]
    assert all(mine == game for mine, game in answers)
    assert any(game for _, game in answers) is bool(pieces)


def test_an_open_table_traces_no_sight_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without terrain the check answers without the game's sight lines."""
    state = _game("gff")
    state.table = Table()

    def traced(*_: object, **__: object) -> bool:
        raise AssertionError("traced sight lines on an open table")

    monkeypatch.setattr(geometry, "in_cover", traced)  # the game's sight lines for cover
    assert not any(cover.gff_target_cover(state, us, t) for us, t in _pairs(state))


def test_a_fortified_unit_has_cover_on_an_open_table() -> None:
    """Fortifications (a house rule) gives cover near a marker its side holds, terrain or not."""
    state = _game("gff+fortifications")
    state.table = Table()
    pairs = _pairs(state)
    us, them = pairs[0]
    state.objectives = [Objective((24.0, 37.0), controller=them.side)]
    _stand(them, 24.0, 36.0)
    assert cover.gff_target_cover(state, us, them)
    assert gff_fire.target_in_cover(state, us, them)
    state.objectives = [Objective((24.0, 37.0), controller=us.side)]
    assert not cover.gff_target_cover(state, us, them)
