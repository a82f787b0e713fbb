"""A unit's reach, drawn when a person clicks it before choosing: where its models could get
with each kind of move, as the rules allow it on this table.

Each model reaches every point within the move's allowance (``move_allowance``: seeds 003 /
002 Advance, Rush, Charge with Fast and Slow; WWPD: its move and charge distances) that a
straight line reaches without touching difficult terrain (seed 003 "Difficult Terrain":
"Units moving through difficult terrain at any point can't move more than 6\" at a time in
total"), and every point within that cap whatever lies between; never the inside of
impassable terrain or off the table. Strider and Flying ignore difficult terrain. A path that
goes around a piece may reach a little more than the straight lines drawn; the server checks
any point a person picks with the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon, box

from oprlab.table.formation import is_difficult
from oprlab.table.model import TerrainType
from oprlab.table.movement import MoveRules
from oprlab.units.model import Unit

__all__ = ["REACH_KINDS", "reach_areas"]

#: The actions whose reach is drawn, in the order drawn (the widest last, under the rest);
#: ``move`` is WWPD's one move.
REACH_KINDS = ("advance", "move", "rush", "charge")
#: How far a shadow is cast behind a piece (beyond any table and allowance).
FAR = 1_000.0


def _allowance(state: Any, unit: Any, kind: Any) -> float | None:
    """How far the engine lets ``unit`` move with ``kind``: its rules' ``move_allowance``, or
    WWPD's move and charge distances (its game options); ``None`` where neither says."""
    allowance = getattr(getattr(state, "rules", None), "move_allowance", None)
    if allowance is not None:
        return float(allowance(unit, kind))
    options = getattr(state, "options", None)
    inches = getattr(options, {"move": "move", "charge": "charge"}.get(kind.value, ""), None)
    return None if inches is None else float(inches)


def _svg_path(area: Any, depth: float) -> str:
    """A shapely area as an SVG path in the picture's coordinates (y flipped)."""
    parts: list[str] = []
    for poly in getattr(area, "geoms", [area]):
        if poly.is_empty or not isinstance(poly, Polygon):
            continue
        for ring in (poly.exterior, *poly.interiors):
            xy = [f"{x:.2f},{depth - y:.2f}" for x, y in ring.coords]
            parts.append("M" + " L".join(xy) + " Z")
    return " ".join(parts)


def shadow(origin: tuple[float, float], obstacle: Any) -> Any:
    """The points a straight line from ``origin`` reaches only through ``obstacle`` (the
    obstacle itself included): each edge's quadrilateral cast away from ``origin``."""
    ox, oy = origin
    quads = []
    for poly in getattr(obstacle, "geoms", [obstacle]):
        for ring in (poly.exterior, *poly.interiors):
            xy = np.asarray(ring.coords)
            for (ax, ay), (bx, by) in itertools.pairwise(xy):
                da, db = np.hypot(ax - ox, ay - oy), np.hypot(bx - ox, by - oy)
                if da < 1e-9 or db < 1e-9:
                    continue
                fa, fb = FAR / da, FAR / db
                quad = Polygon(
                    [
                        (ax, ay),
                        (bx, by),
                        (bx + (bx - ox) * fb, by + (by - oy) * fb),
                        (ax + (ax - ox) * fa, ay + (ay - oy) * fa),
                    ]
                )
                quads.append(quad if quad.is_valid else quad.buffer(0))
    return shapely.union_all([obstacle, *quads])


def _pieces(state: Any, kind: TerrainType, large: bool) -> Any:
    table = state.table
    polys = [
        Polygon(p.outline)
        for p in table.pieces
        if (is_difficult(p, large) if kind is TerrainType.DIFFICULT else p.has(kind))
    ]
    return shapely.union_all(polys) if polys else None


def model_reach(
    centre: tuple[float, float],
    radius: float,
    inches: float,
    *,
    difficult: Any,
    cap: float,
) -> Any:
    """One model's reach: within ``inches`` along straight lines that keep its base off
    ``difficult`` terrain, and within ``cap`` through anything."""
    disk = Point(centre).buffer(inches, quad_segs=16)
    if difficult is None or inches <= cap:
        return disk
    near = difficult.buffer(radius, quad_segs=4).intersection(disk)
    if near.is_empty:
        return disk
    clear = disk.difference(shadow(centre, near))
    return shapely.union_all([clear, Point(centre).buffer(cap, quad_segs=16)])


def reach_areas(state: Any, actions: Sequence[Any]) -> dict[str, list[dict[str, Any]]]:
    """For each unit with a move among ``actions``: where its models could get with each kind
    of move, as SVG paths: ``{uid: [{"kind", "inches", "d"}]}`` (``inches``: the allowance;
    terrain may shorten it, as the module says)."""
    table = box(0.0, 0.0, state.table.width, state.table.depth)
    out: dict[str, list[dict[str, Any]]] = {}
    seen: set[tuple[str, str]] = set()
    for a in actions:
        kind = a.kind.value
        if kind not in REACH_KINDS or (a.unit, kind) in seen:
            continue
        seen.add((a.unit, kind))
        us = state.units.get(a.unit)
        p = None if us is None or not us.on_table else us.placement
        inches = _allowance(state, us.unit, a.kind) if us is not None else None
        if p is None or not p.alive.any() or not inches:
            continue
        # WWPD's units have no special rules: its moves take the table's defaults
        rules = MoveRules.of(us.unit) if isinstance(us.unit, Unit) else MoveRules()
        ignores = rules.strider or rules.flying
        difficult = None if ignores else _pieces(state, TerrainType.DIFFICULT, p.large)
        models = [
            ((float(c[0]), float(c[1])), float(r))
            for c, r in zip(p.centres[p.alive], p.radii[p.alive], strict=True)
        ]
        if difficult is not None and any(difficult.distance(Point(c)) <= r for c, r in models):
            inches = min(inches, rules.difficult_cap)  # it starts in it: the cap from here
        areas = [
            model_reach(c, r, inches, difficult=difficult, cap=rules.difficult_cap)
            for c, r in models
        ]
        area = shapely.union_all(areas).intersection(table)
        blocked = None if rules.flying else _pieces(state, TerrainType.IMPASSABLE, p.large)
        if blocked is not None:
            area = area.difference(blocked)
        out.setdefault(a.unit, []).append(
            {"kind": kind, "inches": inches, "d": _svg_path(area, state.table.depth)}
        )
    for found in out.values():
        found.sort(key=lambda r: -REACH_KINDS.index(r["kind"]))
    return out
