"""Making room in a shared memo (``oprlab.memo.make_room``): the lab's thread workers (a Dask
cluster in one process) share the module memos, and two threads making room at once raised
KeyError in ``memo.pop(next(iter(memo)))`` (a series on the local cluster failed so)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

from oprlab.memo import make_room


def test_drops_the_oldest_answers_below_the_limit() -> None:
    memo = {"a": 1, "b": 2, "c": 3}
    make_room(memo, 3)
    assert memo == {"b": 2, "c": 3}
    make_room(memo, 3)
    assert memo == {"b": 2, "c": 3}  # room already
    make_room(memo, 1)
    assert memo == {}


def test_another_thread_got_there_first() -> None:
    """The memo emptied, the oldest answer dropped, or the memo changed, between the look and
    the drop: no error, and the memo ends below its limit."""
    empty: dict[str, int] = {}
    make_room(empty, 0)
    assert empty == {}

    class Gone(dict[str, int]):
        """The look sees an answer another thread has just dropped, and that thread's drop
        made the room."""

        def __iter__(self) -> Iterator[str]:
            self.pop("b", None)
            return iter(["b"])

    gone = Gone(b=2, c=3)
    make_room(gone, 2)
    assert gone == {"c": 3}

    class Changing(dict[str, int]):
        def __iter__(self) -> Iterator[str]:
            raise RuntimeError("dictionary changed size during iteration")

    changing = Changing(b=2)
    make_room(changing, 1)
    assert changing == {}


def test_threads_making_room_at_once() -> None:
    """Eight threads filling one small memo and making room before each store, as the table
    layer's memos do: no error, and the memo stays within its limit and a store per thread."""
    memo: dict[int, int] = {}
    errors: list[BaseException] = []
    limit = 16

    def fill(start: int) -> None:
        try:
            for k in range(start, start + 20_000):
                make_room(memo, limit)
                memo[k] = k
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=fill, args=(i * 100_000,)) for i in range(8)]
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    assert len(memo) <= limit + len(threads)
