"""The table's value types: terrain pieces, the table, and where a unit's models stand.

Coordinates are inches with the origin at one corner; ``x`` runs along the width and ``y`` along
the depth. Player one deploys along ``y = 0``, player two along ``y = depth``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from oprlab.units.model import Unit

MM_PER_INCH = 25.4

Point = tuple[float, float]
FloatArray = npt.NDArray[np.float64]


class TerrainType(StrEnum):
    """Terrain types as seeds 002 and 003 name them; a piece may have several."""

    OPEN = "open"
    COVER = "cover"
    DIFFICULT = "difficult"
    DANGEROUS = "dangerous"
    IMPASSABLE = "impassable"
    BLOCKING = "blocking"  # line-of-sight blocking
    ELEVATED = "elevated"
    #: Cover Terrain only for models *behind* it, not on it (Riverside Hills, Barricade).
    COVER_BEHIND = "cover_behind"
    #: Difficult Terrain for Large models only (Riverside Barricade).
    DIFFICULT_LARGE = "difficult_large"
    #: Models may not end their movement on it (Riverside "Terrain Movement": Barricades).
    UNSTABLE = "unstable"


@dataclass(frozen=True)
class TerrainPiece:
    """One piece of terrain: a simple polygon (inches) with its types.

    Attributes:
        name: a name for messages and pictures ("Forest 3").
        outline: the polygon's corners in order; the last joins the first.
        types: its terrain types.
        height: its height in inches (elevated terrain, climbing, Large models seeing over).
        preset: the Riverside grouping it was made from, if any ("forest", "ruins" …).
        cover_gap: its cover counts only for models farther than this from it (inches); the
            Riverside Barricade covers units behind it "when over 1\" from" it.
    """

    name: str
    outline: tuple[Point, ...]
    types: frozenset[TerrainType]
    height: float = 0.0
    preset: str | None = None
    cover_gap: float = 0.0

    def has(self, kind: TerrainType) -> bool:
        return kind in self.types


@dataclass(frozen=True)
class Table:
    """The playing area, its terrain and its objective markers."""

    width: float = 48.0
    depth: float = 48.0
    pieces: tuple[TerrainPiece, ...] = ()
    objectives: tuple[Point, ...] = ()
    deployment_depth: float = 12.0


@dataclass
class Placement:
    """Where one unit's models stand: centres ``(n, 2)`` and base radii ``(n,)`` in inches.

    Mutable on purpose (models move); ``copy()`` is cheap for search and game-state cloning.
    """

    centres: FloatArray
    radii: FloatArray
    large: bool = False  # Riverside "Large Model": sees and is seen over Small ones
    removed: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=np.bool_))

    def __post_init__(self) -> None:
        self.centres = np.asarray(self.centres, dtype=np.float64).reshape(-1, 2)
        self.radii = np.asarray(self.radii, dtype=np.float64).reshape(-1)
        if self.removed.size != len(self.radii):
            self.removed = np.zeros(len(self.radii), dtype=np.bool_)

    @property
    def alive(self) -> npt.NDArray[np.bool_]:
        return ~self.removed

    def copy(self) -> Placement:
        return Placement(self.centres.copy(), self.radii.copy(), self.large, self.removed.copy())


#: Default round base diameters (mm) by Tough, when a list gives none (common OPR practice).
DEFAULT_BASES_MM = ((1, 25), (3, 32), (6, 40), (9, 50), (12, 60))


def base_radius(unit: Unit) -> float:
    """A model's base radius in inches: from the list's round base, else a default by Tough."""
    if unit.bases is not None and unit.bases.round:
        return unit.bases.round / MM_PER_INCH / 2
    if unit.bases is not None and unit.bases.square:
        return unit.bases.square / MM_PER_INCH / 2
    mm = DEFAULT_BASES_MM[0][1]
    for tough, size in DEFAULT_BASES_MM:
        if unit.tough >= tough:
            mm = size
    return mm / MM_PER_INCH / 2


def is_large(unit: Unit) -> bool:
    """Riverside: Tough(6)+ models are Large, but a Hero only above Tough(6)."""
    return unit.tough > 6 if unit.hero else unit.tough >= 6
