"""Actions: what a commander can choose, as small frozen values in a canonical order."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from oprlab.table.model import Point


class Kind(StrEnum):
    """Decisions in a game, in the order legal actions are listed."""

    PLACE_OBJECTIVE = "place_objective"
    DEPLOY = "deploy"
    HOLD = "hold"
    ADVANCE = "advance"
    RUSH = "rush"
    CHARGE = "charge"
    IDLE = "idle"


KIND_ORDER = {k: i for i, k in enumerate(Kind)}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision.

    Attributes:
        kind: what is done.
        unit: the acting unit's uid (empty for objective placement).
        to: where to move, deploy or place (inches).
        target: the unit shot at or charged (empty: none).
    """

    kind: Kind
    unit: str = ""
    to: Point | None = None
    target: str = ""

    def sort_key(self) -> tuple[str, int, str, tuple[float, float]]:
        return (self.unit, KIND_ORDER[self.kind], self.target, self.to or (-1.0, -1.0))

    def __str__(self) -> str:
        text = f"{self.kind.value} {self.unit}".strip()
        if self.to is not None:
            text += f" to ({self.to[0]:.1f}, {self.to[1]:.1f})"
        if self.target:
            text += f" at {self.target}"
        return text
