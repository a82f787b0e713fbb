"""Making room in a shared memo (``oprlab.memo.drop_oldest``): the lab's thread workers (a Dask
cluster in one process) share the module memos, and two threads making room at once raised
KeyError in ``memo.pop(next(iter(memo)))`` (a series on the local cluster failed so)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator

from oprlab.memo import drop_oldest


def test_drops_the_oldest_answer() -> None:
    memo = {"a": 1, "b": 2, "c": 3}
    drop_oldest(memo)
    assert memo == {"b": 2, "c": 3}


def test_another_thread_got_there_first() -> None:
    """The memo emptied, or the oldest answer dropped, between the look and the drop: nothing
    to do, no error."""
    empty: dict[str, int] = {}
    drop_oldest(empty)
    assert empty == {}

    class Gone(dict[str, int]):
        def __iter__(self) -> Iterator[str]:  # the look sees an answer already dropped
            return iter(["dropped"])

    memo = Gone(b=2)
    drop_oldest(memo)
    assert memo == {"b": 2}

    class Changing(dict[str, int]):
        def __iter__(self) -> Iterator[str]:  # changed while looked at
            raise RuntimeError("dictionary changed size during iteration")

    changing = Changing(b=2)
    drop_oldest(changing)
    assert changing == {"b": 2}


def test_threads_making_room_at_once() -> None:
    """Eight threads filling one small memo and making room as the table layer's memos do:
    no error, and the memo stays near its limit."""
    memo: dict[int, int] = {}
    errors: list[BaseException] = []
    limit = 16

    def fill(start: int) -> None:
        try:
            for k in range(start, start + 20_000):
                if len(memo) >= limit:
                    drop_oldest(memo)
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
