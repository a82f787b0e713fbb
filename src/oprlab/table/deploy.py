"""Deployment zones and objective markers: pure helpers the game layer calls.

Seed 003 "Deployment": each player deploys within 12" of their table edge (the depth is
``Table.deployment_depth``); player 0 along ``y = 0``, player 1 along ``y = depth``. Seeds 002
"Placing Objectives" and 003 "Mission": D3+2 markers, placed alternately outside the deployment
zones, over 9" from each other, never in impassable terrain. Randomness comes only from the
``numpy.random.Generator`` passed in. May import ``oprlab.table`` modules below it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely  # type: ignore[import-untyped, unused-ignore]

from oprlab.errors import OptionError, check_range
from oprlab.rng import generator, stream
from oprlab.table.model import Placement, Point, Table, TerrainType
from oprlab.table.terrain import generate_table, terrain_geometry

BoolArray = npt.NDArray[np.bool_]
Box = tuple[float, float, float, float]

#: Seeds 002/003: markers over 9" away from each other.
OBJECTIVE_SPACING = 9.0
#: A marker's radius (a 25mm token): it must fit, so it stays this far from impassable terrain.
OBJECTIVE_RADIUS = 0.5


def deployment_zone(table: Table, player: int) -> Box:
    """Player ``player``'s zone as ``(xmin, ymin, xmax, ymax)``: 0 along ``y = 0``, 1 opposite."""
    if player not in (0, 1):
        raise OptionError("player out of range", value=player, expected="0 or 1")
    if player == 0:
        return (0.0, 0.0, table.width, table.deployment_depth)
    return (0.0, table.depth - table.deployment_depth, table.width, table.depth)


def in_deployment_zone(table: Table, points: npt.ArrayLike, player: int) -> BoolArray:
    """Which points lie in (or on the edge of) player ``player``'s deployment zone."""
    x0, y0, x1, y1 = deployment_zone(table, player)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    inside = (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)
    return np.asarray(inside, dtype=np.bool_)


def fully_in_zone(table: Table, placement: Placement, player: int) -> BoolArray:
    """Which models stand with their whole base in the zone (deploying "within 12\\"")."""
    x0, y0, x1, y1 = deployment_zone(table, player)
    c, r = placement.centres, placement.radii
    ok = (c[:, 0] - r >= x0) & (c[:, 0] + r <= x1) & (c[:, 1] - r >= y0) & (c[:, 1] + r <= y1)
    return np.asarray(ok, dtype=np.bool_)


def objective_count(rng: np.random.Generator) -> int:
    """D3+2 markers (seed 002 "Placing Objectives", seed 003 "Mission" 1)."""
    return int(rng.integers(1, 4)) + 2


def objective_ok(table: Table, point: Point, placed: tuple[Point, ...] = ()) -> bool:
    """Whether a marker may go at ``point``: on the table, outside both deployment zones, over
    9" from every marker in ``placed``, not in (nor within a marker's radius of) impassable
    terrain."""
    x, y = point
    if not (
        0 <= x <= table.width and table.deployment_depth < y < table.depth - table.deployment_depth
    ):
        return False
    if placed:
        d = np.hypot(*(np.asarray(placed, dtype=np.float64) - np.asarray(point)).T)
        if float(np.min(d)) <= OBJECTIVE_SPACING:
            return False
    geom = terrain_geometry(table)
    for j in np.flatnonzero(geom.mask(TerrainType.IMPASSABLE)):
        if shapely.distance(geom.polygons[j], shapely.Point(x, y)) <= OBJECTIVE_RADIUS:
            return False
    return True


def place_objectives(
    table: Table, rng: np.random.Generator, count: int, *, mirror: bool = True
) -> tuple[Point, ...]:
    """Positions for ``count`` markers, placed one by one as the players alternate.

    Each marker is drawn uniformly from the legal area (see :func:`objective_ok`). With
    ``mirror`` the second player answers each marker with its point reflection through the
    table's centre when that spot is legal, so that a symmetric table stays fair. Coordinates
    are rounded to 0.01".

    When no legal spot is found after many tries (earlier markers can leave none over 9"
    away), the marker goes at the legal point farthest from the others (:func:`_farthest`).

    Raises:
        OptionError: ``count`` out of range, or no legal point for a marker at all.
    """
    check_range("count", count, 0, 20)
    placed: list[Point] = []
    lo = table.deployment_depth
    hi = table.depth - table.deployment_depth
    for i in range(count):
        if mirror and i % 2 == 1:
            px, py = placed[-1]
            twin = (round(table.width - px, 2) + 0.0, round(table.depth - py, 2) + 0.0)
            if objective_ok(table, twin, tuple(placed)):
                placed.append(twin)
                continue
        for _ in range(2000):
            x, y = rng.uniform([0.0, lo], [table.width, hi])
            point = (round(float(x), 2) + 0.0, round(float(y), 2) + 0.0)
            if objective_ok(table, point, tuple(placed)):
                placed.append(point)
                break
        else:
            farthest = _farthest(table, tuple(placed))
            if farthest is None:
                raise OptionError(
                    f"no legal place for objective {i + 1} of {count}",
                    value=count,
                    expected="a table with room for markers outside the deployment zones",
                )
            placed.append(farthest)
    return tuple(placed)


def _farthest(table: Table, placed: tuple[Point, ...]) -> Point | None:
    """When no spot over 9" from the markers is found: the point of a 1" grid of the legal
    area farthest from its nearest marker (the first such point; ``None``: no legal point).

    The texts give no rule for this case; the reading is the GFF and Riverside games' default
    (``stuck_markers="farthest"``, docs/rules/gff.md "Full games"), so a game never fails here.
    """
    best: tuple[float, Point] | None = None
    for x in np.arange(0.5, table.width, 1.0):
        for y in np.arange(table.deployment_depth + 0.5, table.depth - table.deployment_depth, 1.0):
            point = (float(x), float(y))
            if not objective_ok(table, point):
                continue
            d = min((math.dist(point, p) for p in placed), default=0.0)
            if best is None or d > best[0]:
                best = (d, point)
    return None if best is None else best[1]


def mission_table(seed: int, *, objectives: int | None = None, **generate: Any) -> Table:
    """A generated table (:func:`~oprlab.table.terrain.generate_table`) with its markers.

    The markers use a child of the table's stream of ``seed`` (so adding them does not change
    the terrain, and neither touches the game's dice);
    their number is D3+2 unless ``objectives`` is given.
    """
    table = generate_table(seed, **generate)
    rng = generator(stream(seed, "table").spawn(1)[0])
    count = objective_count(rng) if objectives is None else objectives
    return dataclasses.replace(table, objectives=place_objectives(table, rng, count))
