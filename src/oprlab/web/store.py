"""Games the server keeps in memory: a bounded count, each under a random id, and one game
played at a time (the others wait their turn, up to a point).

The page addresses a game only by its id, never by anything on disk. Oldest games go first
when the store is full.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from oprlab.errors import UserError

__all__ = ["Busy", "GameStore", "Unknown", "one_at_a_time"]

T = TypeVar("T")

#: Games kept (play sessions and replays together).
MAX_GAMES = 32
#: How long a request waits for the game before it in the queue (seconds).
QUEUE_SECONDS = 30.0


class Busy(UserError):
    """The server is playing other games; try again."""


class Unknown(UserError):
    """No game under that id (never made, or dropped as the store filled up)."""


class GameStore(Generic[T]):
    """A bounded, thread-safe map from random ids to games; the oldest leaves first."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._items: OrderedDict[str, T] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: T, key: str | None = None) -> str:
        key = key or secrets.token_urlsafe(12)
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return key

    def get(self, key: str) -> T:
        with self._lock:
            try:
                item = self._items[key]
            except KeyError:
                raise Unknown(
                    "no game with that id",
                    value=key,
                    expected=f"a game made in this server (it keeps the last {self.limit})",
                ) from None
            self._items.move_to_end(key)
            return item

    def __len__(self) -> int:
        return len(self._items)


_PLAYING = threading.BoundedSemaphore(1)


@contextmanager
def one_at_a_time(wait: float = QUEUE_SECONDS) -> Iterator[None]:
    """Play one game at a time: wait for the game before, or refuse when the queue is slow."""
    if not _PLAYING.acquire(timeout=wait):
        raise Busy("the server is busy playing other games", expected="a try in a minute")
    try:
        yield
    finally:
        _PLAYING.release()
