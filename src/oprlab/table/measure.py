"""Measuring (seed 002 "Measuring"): model to model from the closest points of their bases,
unit to unit from the closest models, and distances to terrain.

Everything is flat: distances are measured on the table's plane, never up a hill (climbing is
movement's business). Pairwise distances are numpy matrices; distances to terrain use shapely.
Removed models (``Placement.removed``) are left out of unit distances. May import
``oprlab.table.model`` and ``oprlab.table.terrain``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely  # type: ignore[import-untyped, unused-ignore]

from oprlab.table.model import FloatArray, Placement, Table, TerrainPiece, TerrainType
from oprlab.table.terrain import piece_polygon, terrain_geometry

BoolArray = npt.NDArray[np.bool_]


def centre_distances(a: FloatArray, b: FloatArray) -> FloatArray:
    """``(n, m)`` distances between the points ``a (n, 2)`` and ``b (m, 2)``."""
    d = a[:, None, :] - b[None, :, :]
    return np.asarray(np.hypot(d[..., 0], d[..., 1]), dtype=np.float64)


def model_distances(a: Placement, b: Placement) -> FloatArray:
    """``(n_a, n_b)`` distances between bases: centre distance less both radii, never negative.

    Seed 002: "measure from/to the closest point of their bases". Overlapping bases measure 0.
    """
    gap = centre_distances(a.centres, b.centres) - (a.radii[:, None] + b.radii[None, :])
    return np.maximum(gap, 0.0)


def unit_distance(a: Placement, b: Placement) -> float:
    """The distance between two units: between their closest living models (``inf`` if none)."""
    alive = a.alive[:, None] & b.alive[None, :]
    if not alive.any():
        return float("inf")
    return float(np.min(model_distances(a, b), where=alive, initial=np.inf))


def unit_distances(a: Placement, others: list[Placement]) -> FloatArray:
    """The distance from unit ``a`` to each unit of ``others`` (closest living models)."""
    return np.array([unit_distance(a, b) for b in others], dtype=np.float64)


def within(a: Placement, b: Placement, distance: float) -> bool:
    """Whether units ``a`` and ``b`` are within ``distance`` of each other (closest models)."""
    return unit_distance(a, b) <= distance


def point_distances(points: FloatArray, placement: Placement) -> FloatArray:
    """``(n_points, n_models)`` distances from points (objective markers) to the models' bases."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    return np.maximum(centre_distances(pts, placement.centres) - placement.radii[None, :], 0.0)


def terrain_distances(table: Table, placement: Placement) -> FloatArray:
    """``(n_models, n_pieces)`` distances from each model's base to each piece (0 when touching).

    A base inside or overlapping a piece measures 0.
    """
    geom = terrain_geometry(table)
    n, p = len(placement.radii), len(table.pieces)
    if n == 0 or p == 0:
        return np.zeros((n, p))
    pts = shapely.points(placement.centres)
    d = shapely.distance(pts[:, None], geom.polygons[None, :])
    return np.maximum(np.asarray(d, dtype=np.float64) - placement.radii[:, None], 0.0)


def piece_distance(piece: TerrainPiece, points: FloatArray) -> FloatArray:
    """Distances from points ``(n, 2)`` to one piece (0 inside it)."""
    pts = shapely.points(np.asarray(points, dtype=np.float64).reshape(-1, 2))
    return np.asarray(shapely.distance(pts, piece_polygon(piece)), dtype=np.float64)


def segment_piece_distance(start: FloatArray, end: FloatArray, piece: TerrainPiece) -> FloatArray:
    """Distances from the segments ``start[i] -> end[i]`` (each ``(n, 2)``) to one piece.

    0 when a segment touches or crosses the piece (a move path through terrain).
    """
    s = np.asarray(start, dtype=np.float64).reshape(-1, 2)
    e = np.asarray(end, dtype=np.float64).reshape(-1, 2)
    lines = shapely.linestrings(np.stack([s, e], axis=1))
    return np.asarray(shapely.distance(lines, piece_polygon(piece)), dtype=np.float64)


def centres_in(table: Table, points: FloatArray) -> BoolArray:
    """``(n, n_pieces)``: which pieces each point is in (the boundary counts as in)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    geom = terrain_geometry(table)
    out = np.zeros((len(pts), len(table.pieces)), dtype=np.bool_)
    for j, poly in enumerate(geom.polygons):
        out[:, j] = shapely.intersects_xy(poly, pts[:, 0], pts[:, 1])
    return out


def bases_fully_in(table: Table, placement: Placement) -> BoolArray:
    """``(n_models, n_pieces)``: which pieces hold each model's whole base (GFF "fully inside")."""
    geom = terrain_geometry(table)
    inside = centres_in(table, placement.centres)
    if not inside.any():
        return inside
    pts = shapely.points(placement.centres)
    edge = shapely.distance(pts[:, None], shapely.boundary(geom.polygons)[None, :])
    return inside & (np.asarray(edge, dtype=np.float64) >= placement.radii[:, None] - 1e-9)


def elevation(table: Table, points: FloatArray) -> FloatArray:
    """Each point's height: the tallest Elevated piece it stands on, else 0 (seed 002 Hills)."""
    geom = terrain_geometry(table)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    out = np.zeros(len(pts))
    for j in np.flatnonzero(geom.mask(TerrainType.ELEVATED)):
        on = shapely.intersects_xy(geom.polygons[j], pts[:, 0], pts[:, 1])
        out = np.where(on, np.maximum(out, geom.heights[j]), out)
    return out
