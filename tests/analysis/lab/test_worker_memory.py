"""A lab worker's memory stays level over a long run (issue 15 item 6: "check that worker
memory does not grow across a long run").

A worker plays game after game with lists drawn anew each seed. The memos keyed on units by
identity held every finished game's units until their size limits (thousands of entries)
emptied them, so a worker grew for a thousand games. Now they are game memos
(:mod:`oprlab.memo`): a game of other armies empties them. Checked here the way a worker plays,
in this process: no module-level memo of oprlab holds a unit of an earlier game's lists.
"""

from __future__ import annotations

import sys
from pathlib import Path

from oprlab.analysis.lab.design import build_cells, play_cell_game
from oprlab.analysis.lab.model import parse_experiment
from oprlab.memo import begin_game, clear_game_memos, game_memo, game_memo_sizes
from oprlab.players.memo import IdentityMemo
from oprlab.units.model import Unit
from tests.pools import tiny_pool

POOL = tiny_pool()


def _units_in(value: object, depth: int, out: list[Unit]) -> None:
    if isinstance(value, Unit):
        out.append(value)
    elif depth > 0 and isinstance(value, tuple | list):
        for item in value:
            _units_in(item, depth - 1, out)
    elif depth > 0 and isinstance(value, dict):
        for key, item in list(value.items()):
            _units_in(key, depth - 1, out)
            _units_in(item, depth - 1, out)


def _held_units() -> list[Unit]:
    """Every unit that a module-level dict of oprlab (or an identity memo) holds, a few levels
    down (a memo's entry is a tuple holding the unit)."""
    out: list[Unit] = []
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("oprlab."):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, IdentityMemo):
                value = value._entries
            if isinstance(value, dict):
                _units_in(value, 3, out)
    return out


def test_memos_hold_no_unit_of_an_earlier_games_lists(tmp_path: Path) -> None:
    """Six lab games (three seeds, both seats; new lists each game, rules commanders as a
    designer's run uses): after each, the memos hold units of that game only."""
    (tmp_path / "pool.toml").write_text(POOL)
    exp = parse_experiment(f"""
name = "memory"
seed = 3
[[matchups]]
a = "pool:{(tmp_path / "pool.toml").as_posix()}"
b = "pool:{(tmp_path / "pool.toml").as_posix()}"
points = 150
[factors]
commanders = ["rules"]
[stop]
seeds = 3
""")
    cell = build_cells(exp)[0]
    before: list[Unit] = []
    for i in range(3):
        for seat in (0, 1):
            play_cell_game(cell, i, seat, exp.seed)
            held = _held_units()
            assert held, "the game memoised nothing about its units: the check sees nothing"
            stale = {id(u) for u in before} & {id(u) for u in held}
            assert not stale, f"{len(stale)} units of the game before are still memoised"
            before = held


def test_a_game_of_the_same_armies_keeps_the_memos_and_of_others_empties_them() -> None:
    memo = game_memo("tests.memo")
    a, b, other = object(), object(), object()
    begin_game(a, b, None)
    memo[1] = "answer"
    begin_game(a, b, None)  # a series of games between the same lists
    assert memo == {1: "answer"} and game_memo_sizes()["tests.memo"] == 1
    begin_game(a, other, None)
    assert memo == {}
    memo[2] = "answer"
    clear_game_memos()
    assert memo == {}
