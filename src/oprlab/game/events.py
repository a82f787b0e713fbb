"""The event log: every roll, move, attack, wound, morale test and control change of a game.

Events are plain JSON-able dicts with a ``kind``; the log is the game's record, replayed exactly
from the seed, and its totals must match the end state (tested).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class EventLog:
    """An append-only list of events, with the round and activation they happened in."""

    events: list[dict[str, Any]] = field(default_factory=list)
    enabled: bool = True

    def add(self, kind: str, **data: Any) -> None:
        if self.enabled:
            self.events.append({"kind": kind, **data})

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["kind"] == kind]

    def __len__(self) -> int:
        return len(self.events)
