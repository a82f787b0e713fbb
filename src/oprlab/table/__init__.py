"""The table: geometry, terrain, line of sight, cover and movement.

May import ``oprlab.units`` and below. Positions are numpy arrays in inches; terrain outlines
become shapely polygons where that helps.
"""

from oprlab.table.model import (
    MM_PER_INCH,
    Placement,
    Table,
    TerrainPiece,
    TerrainType,
    base_radius,
)

__all__ = [
    "MM_PER_INCH",
    "Placement",
    "Table",
    "TerrainPiece",
    "TerrainType",
    "base_radius",
]
