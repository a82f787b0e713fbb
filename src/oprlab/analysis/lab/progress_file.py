"""A running experiment's progress in a small JSON file beside its lab file.

DuckDB lets no other process open a file while a run writes it (not even read-only), so a
page that shows how far a run is reads this file instead: games done and planned, games per
second, the time left, when it was written, and whether the run is running, finished or
interrupted. Each write is whole (a temporary file renamed over the old one), at most once a
second while the run goes on and once more when it ends.

May import files and errors; the analysis layer's file I/O.
"""

from __future__ import annotations

import json
import math
import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from oprlab.files import atomic_path

__all__ = ["PROGRESS_SUFFIX", "ProgressFile", "progress_path", "read_progress"]

#: The progress file of ``lab.duckdb`` is ``lab.duckdb.progress.json``.
PROGRESS_SUFFIX = ".progress.json"
#: Least time between two writes while the run goes on (seconds).
EVERY = 1.0


def progress_path(lab_file: str | os.PathLike[str]) -> Path:
    """Where the progress of a run into ``lab_file`` is written."""
    p = Path(lab_file)
    return p.with_name(p.name + PROGRESS_SUFFIX)


class ProgressFile:
    """The progress of one run of one experiment; a context manager: leaving it writes the
    final state (``finished``, or ``interrupted`` when the run raised, Ctrl-C included)."""

    def __init__(
        self,
        lab_file: str | os.PathLike[str],
        experiment: str,
        name: str,
        *,
        most: int,
        already: int = 0,
    ) -> None:
        self.path = progress_path(lab_file)
        self.data: dict[str, Any] = {
            "experiment": experiment,
            "name": name,
            "state": "running",
            "done": already,
            "planned": 0,
            "most": most,  # every seed of every cell in both seats: no rule stopped any
            "games_per_s": None,
            "eta_s": None,
            "started": _stamp(),
            "updated": "",
        }
        self._start = time.monotonic()
        self._first = already  # games stored before this run: not in its rate
        self._last = -math.inf

    def __enter__(self) -> ProgressFile:
        self._write()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.data["state"] = "interrupted" if kind is not None else "finished"
        if kind is None:
            self.data["eta_s"] = 0.0
        self._write()

    def update(self, done: int, planned: int) -> None:
        """``done`` games of the experiment stored (before this run included) of ``planned``
        so far; written when a second has passed since the last write."""
        elapsed = time.monotonic() - self._start
        new = done - self._first
        rate = new / elapsed if new > 0 and elapsed > 0 else None
        self.data |= {
            "done": done,
            "planned": planned,
            "games_per_s": None if rate is None else round(rate, 4),
            "eta_s": None if rate is None else round(max(planned - done, 0) / rate, 1),
        }
        if time.monotonic() - self._last >= EVERY:
            self._write()

    def _write(self) -> None:
        self._last = time.monotonic()
        self.data["updated"] = _stamp()
        with atomic_path(self.path, "progress file") as temp:
            temp.write_text(json.dumps(self.data, indent=1) + "\n", encoding="utf-8")


def read_progress(lab_file: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The last progress written beside ``lab_file`` (``None``: none, or not readable)."""
    try:
        data = json.loads(progress_path(lab_file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _stamp() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
