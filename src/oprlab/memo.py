"""Memos that hold one game's objects, emptied when a game of other armies begins.

A game asks the same questions about its units thousands of times, so modules memoise the
answers in dicts keyed by identity (a frozen Unit's hash walks every field); each entry holds
its objects so their ids stay unique while it stands. Kept across games of new armies, such a
memo only fills with dead units: a long lab run with new lists every seed grew a worker by
megabytes over a thousand games before the memos' size limits first emptied them (issue 15,
docs/experiments.md "Worker memory"). So each is made with :func:`game_memo`, and
``play_game`` calls :func:`begin_game` with the game's armies and table: when they are not
the last game's objects, every game memo is emptied. A series of games between the same
armies keeps its memos (they hit across its games: a deployment grid is the same every game);
a run drawing new lists every game holds one game's entries at a time. Each memo's own size
limit still bounds it within a game, and in games played without ``play_game``.

Emptying a memo never changes an answer, only costs its work again, so a game replays the same
whenever it happens (another thread's game beginning just makes this one ask again). Memos of
values that hold only numbers (distances by the bytes of positions, dice tables, rule
profiles) stay global, each bounded by its limit.

May import nothing of oprlab.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

__all__ = [
    "begin_game",
    "by_table",
    "clear_game_memos",
    "game_memo",
    "game_memo_sizes",
    "known",
    "make_room",
]

V = TypeVar("V")

_GAME_MEMOS: list[tuple[str, dict[Any, Any]]] = []
#: The objects the last game began with (held: their ids are compared).
_OWNERS: list[tuple[object, ...]] = [()]


def game_memo(name: str) -> dict[Any, Any]:
    """A new empty memo of one game's answers; ``name`` (its module and variable) names it
    in :func:`game_memo_sizes`."""
    memo: dict[Any, Any] = {}
    _GAME_MEMOS.append((name, memo))
    return memo


def begin_game(*owners: object) -> None:
    """A game of ``owners`` (its armies and table) begins: empty the game memos unless the
    last game began with these same objects."""
    last = _OWNERS[0]
    if len(last) != len(owners) or any(a is not b for a, b in zip(last, owners, strict=False)):
        clear_game_memos()
        _OWNERS[0] = owners


def clear_game_memos() -> None:
    """Empty every game memo."""
    for _, memo in _GAME_MEMOS:
        memo.clear()
    _OWNERS[0] = ()


def game_memo_sizes() -> dict[str, int]:
    """The game memos' entries now, by name (what a long run's memory check reads)."""
    sizes: dict[str, int] = {}
    for name, memo in _GAME_MEMOS:
        sizes[name] = sizes.get(name, 0) + len(memo)
    return sizes


def by_table(
    memo: dict[Any, Any],
    table: object,
    key: tuple[Hashable, ...],
    make: Callable[[], V],
    limit: int,
) -> V:
    """``make()``, remembered in ``memo`` under ``table`` and ``key`` (the bytes of the
    positions it depends on): the table is held beside the answer, so its id stays unique; the
    memo is emptied when it holds ``limit`` answers."""
    found: V | None = known(memo, table, key)
    if found is not None:
        return found
    answer = make()
    if len(memo) >= limit:
        memo.clear()
    memo[(id(table), *key)] = (table, answer)
    return answer


def known(memo: dict[Any, Any], table: object, key: tuple[Hashable, ...]) -> Any:
    """The answer :func:`by_table` remembers in ``memo`` under ``table`` and ``key``, or
    ``None`` when it has none (never asked, or emptied since)."""
    found = memo.get((id(table), *key))
    return found[1] if found is not None and found[0] is table else None


def make_room(memo: dict[Any, Any], limit: int) -> None:
    """Forget ``memo``'s oldest answers until it holds fewer than ``limit`` (one, when each
    store makes room first). The lab's thread workers (a Dask cluster in one process) share
    the module memos, so another thread may drop the same answer, or change the memo, between
    the look and the drop: ``memo.pop(next(iter(memo)))`` raised KeyError in a worker when two
    threads made room at once. Here a drop another thread made counts, and a memo changed
    while looked at is emptied (forgetting never changes an answer)."""
    while len(memo) >= limit:
        try:
            memo.pop(next(iter(memo)), None)
        except StopIteration:  # emptied meanwhile
            return
        except RuntimeError:  # changed while looked at
            memo.clear()
            return
