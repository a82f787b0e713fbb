"""Terrain: the Riverside groupings as presets, the terrain JSON format, and a table generator.

Seed 002 ("Terrain Grouping") names seven groupings built from terrain types; they are the
presets here. A table file is JSON (``docs/terrain.md``); :func:`load_table` reads and checks it,
naming the piece (index and name) and the problem, and :func:`table_to_json` writes it back so
that ``load_table(table_to_json(t)) == t``. :func:`generate_table` lays out a fair table from a
seed (seed 003 "The Battlefield": 20+ pieces), point-symmetric by default.

Also the shared geometry of a table (:func:`terrain_geometry`: shapely polygons, padded edge
arrays, masks by type) that measuring, line of sight and cover use. May import
``oprlab.table.model``, ``oprlab.errors``, ``oprlab.limits``, ``oprlab.display`` and ``oprlab.rng``;
does no I/O.
"""

from __future__ import annotations

import functools
import json
import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely  # type: ignore[import-untyped, unused-ignore]

from oprlab.display import printable
from oprlab.errors import OptionError, ParseError, UnknownNameError, check_range
from oprlab.limits import (
    MAX_OBJECTIVES,
    MAX_OUTLINE_CORNERS,
    MAX_TABLE_INCHES,
    MAX_TERRAIN_PIECES,
    check_limit,
    check_nesting,
)
from oprlab.rng import generator
from oprlab.table import planar
from oprlab.table.model import FloatArray, Point, Table, TerrainPiece, TerrainType

T = TerrainType


@dataclass(frozen=True)
class Preset:
    """A Riverside terrain grouping: the types a piece gets, its usual height and cover gap."""

    name: str
    title: str
    types: frozenset[TerrainType]
    height: float = 0.0
    cover_gap: float = 0.0
    summary: str = ""


#: Seed 002 "Terrain Grouping", in the order the seed lists them.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "barricade",
            "Barricade",
            frozenset({T.DIFFICULT_LARGE, T.COVER_BEHIND, T.UNSTABLE}),
            height=1.0,
            cover_gap=1.0,
            summary='difficult for Large models; cover for units behind it over 1" away; unstable',
        ),
        Preset(
            "forest",
            "Forest",
            frozenset({T.COVER, T.BLOCKING}),
            summary="cover; blocks line of sight to and from units behind it",
        ),
        Preset(
            "forest_wall",
            "Forest Wall",
            frozenset({T.BLOCKING, T.IMPASSABLE}),
            summary="blocks line of sight; units cannot be within it",
        ),
        Preset("lake", "Lake", frozenset({T.DANGEROUS}), summary="dangerous"),
        Preset(
            "hill",
            "Hill",
            frozenset({T.ELEVATED, T.COVER_BEHIND}),
            height=3.0,
            summary="elevated for models on top; cover for models behind it",
        ),
        Preset("ramp", "Ramp", frozenset({T.DIFFICULT}), summary="difficult"),
        Preset("ruins", "Ruins", frozenset({T.COVER, T.DIFFICULT}), summary="cover; difficult"),
    )
}

#: Other spellings accepted in files (the seed's plural headings, spaces, dashes).
_PRESET_ALIASES = {
    "barricades": "barricade",
    "forests": "forest",
    "forest_walls": "forest_wall",
    "lakes": "lake",
    "hills": "hill",
    "ramps": "ramp",
    "ruin": "ruins",
}


def _key(name: str) -> str:
    return name.strip().casefold().replace(" ", "_").replace("-", "_")


def preset(name: str, *, where: str | None = None) -> Preset:
    """The preset called ``name`` (case and plural forgiven), or an error listing the valid ones."""
    key = _key(name)
    key = _PRESET_ALIASES.get(key, key)
    if key not in PRESETS:
        raise UnknownNameError(
            "unknown terrain preset",
            value=name,
            expected="one of " + ", ".join(PRESETS),
            where=where,
        )
    return PRESETS[key]


def terrain_type(name: str, *, where: str | None = None) -> TerrainType:
    """The terrain type called ``name``, or an error listing the valid ones."""
    try:
        return TerrainType(_key(name))
    except ValueError:
        raise UnknownNameError(
            "unknown terrain type",
            value=name,
            expected="one of " + ", ".join(t.value for t in TerrainType),
            where=where,
        ) from None


def make_piece(
    name: str,
    outline: Iterable[Sequence[float]],
    preset_name: str,
    *,
    height: float | None = None,
    types: Iterable[TerrainType] | None = None,
) -> TerrainPiece:
    """A piece of a preset (types, height and cover gap from the preset unless given)."""
    p = preset(preset_name)
    return TerrainPiece(
        name=name,
        outline=tuple((float(x), float(y)) for x, y in outline),
        types=p.types if types is None else frozenset(types),
        height=p.height if height is None else float(height),
        preset=p.name,
        cover_gap=p.cover_gap,
    )


# --------------------------------------------------------------------------------------------
# Geometry shared by measuring, line of sight and cover.


@functools.lru_cache(maxsize=4096)
def piece_polygon(piece: TerrainPiece) -> shapely.Polygon:
    """The piece's outline as a (prepared) shapely polygon."""
    poly = shapely.Polygon(piece.outline)
    shapely.prepare(poly)
    return poly


@dataclass(frozen=True, eq=False)
class TerrainGeometry:
    """A table's terrain as arrays, built once per table (see :func:`terrain_geometry`).

    Attributes:
        polygons: one prepared shapely polygon per piece.
        bounds: ``(p, 4)`` bounding boxes ``xmin, ymin, xmax, ymax``.
        edges: ``(p, e, 2, 2)`` polygon edges, padded with zero-length edges.
        n_edges: ``(p,)`` each piece's true number of edges.
        heights: ``(p,)`` piece heights.
        gaps: ``(p,)`` cover gaps.
        masks: ``(p,)`` boolean mask per terrain type.
        circles: ``(p, 3)`` a circle around each piece: centre ``x, y`` and radius.
    """

    polygons: npt.NDArray[np.object_]
    bounds: FloatArray
    edges: FloatArray
    n_edges: npt.NDArray[np.int64]
    circles: FloatArray
    heights: FloatArray
    gaps: FloatArray
    masks: Mapping[TerrainType, npt.NDArray[np.bool_]]

    def mask(self, kind: TerrainType) -> npt.NDArray[np.bool_]:
        return self.masks[kind]


_GEOMETRY: OrderedDict[int, tuple[Table, TerrainGeometry]] = OrderedDict()


def terrain_geometry(table: Table) -> TerrainGeometry:
    """The arrays of ``table``'s terrain, built once per table object (a small memo by id)."""
    found = _GEOMETRY.get(id(table))
    if found is not None and found[0] is table:
        return found[1]
    geom = _build_geometry(table)
    _GEOMETRY[id(table)] = (table, geom)  # holding the table keeps its id unique
    if len(_GEOMETRY) > 64:
        _GEOMETRY.popitem(last=False)
    return geom


def _build_geometry(table: Table) -> TerrainGeometry:
    pieces = table.pieces
    polys = np.empty(len(pieces), dtype=object)
    for i, piece in enumerate(pieces):
        polys[i] = piece_polygon(piece)
    n_edges = max((len(p.outline) for p in pieces), default=1)
    edges = np.zeros((len(pieces), n_edges, 2, 2))
    for i, piece in enumerate(pieces):
        ring = np.asarray(piece.outline, dtype=np.float64)
        edges[i, : len(ring), 0] = ring
        edges[i, : len(ring), 1] = np.roll(ring, -1, axis=0)
        edges[i, len(ring) :] = ring[0]  # zero-length padding never crosses anything
    bounds = (
        shapely.bounds(polys).reshape(-1, 4) if len(pieces) else np.zeros((0, 4), dtype=np.float64)
    )
    masks = {k: np.array([p.has(k) for p in pieces], dtype=np.bool_) for k in TerrainType}
    circles = np.zeros((len(pieces), 3))
    for i, piece in enumerate(pieces):
        ring = np.asarray(piece.outline, dtype=np.float64)
        mid = (ring.min(axis=0) + ring.max(axis=0)) / 2
        circles[i, :2] = mid
        circles[i, 2] = float(np.max(np.hypot(*(ring - mid).T))) + 1e-9
    return TerrainGeometry(
        polygons=polys,
        bounds=np.asarray(bounds, dtype=np.float64),
        edges=edges,
        n_edges=np.array([len(p.outline) for p in pieces], dtype=np.int64),
        circles=circles,
        heights=np.array([p.height for p in pieces], dtype=np.float64),
        gaps=np.array([p.cover_gap for p in pieces], dtype=np.float64),
        masks=masks,
    )


# --------------------------------------------------------------------------------------------
# Checking.


def _piece_label(index: int, piece_name: str) -> str:
    return f"pieces[{index}] {piece_name!r}"


def polygon_problems(
    outline: Sequence[Point], width: float, depth: float
) -> list[tuple[str, object, str]]:
    """Problems of one outline as ``(message, value, expected)`` triples, empty when fine."""
    problems: list[tuple[str, object, str]] = []
    distinct = {(float(x), float(y)) for x, y in outline}
    if len(outline) < 3 or len(distinct) < 3:
        problems.append(
            ("outline has fewer than 3 distinct corners", len(distinct), "a closed polygon")
        )
        return problems
    poly = shapely.Polygon(outline)
    if poly.convex_hull.area <= 1e-9:
        problems.append(("outline has zero area", list(outline), "corners not all on one line"))
        return problems
    if not shapely.is_valid(poly):
        problems.append(
            (
                "outline is not a simple polygon",
                shapely.is_valid_reason(poly),
                "edges that do not cross or touch each other",
            )
        )
        return problems
    if not shapely.box(0.0, 0.0, width, depth).covers(poly):
        xmin, ymin, xmax, ymax = poly.bounds
        problems.append(
            (
                f"piece lies outside the {_num(width)}x{_num(depth)} table",
                [_num(xmin), _num(ymin), _num(xmax), _num(ymax)],
                f"x in 0..{_num(width)} and y in 0..{_num(depth)}",
            )
        )
    return problems


def table_problems(table: Table) -> list[str]:
    """Every problem of a table built in code, one line each (empty when the table is fine)."""
    out: list[str] = []
    for name, value in (("width", table.width), ("depth", table.depth)):
        if not value > 0:
            out.append(f"{name}: must be positive (got {value!r})")
    if not 0 < table.deployment_depth < table.depth / 2:
        out.append(
            f"deployment_depth: must be over 0 and under half the depth "
            f"(got {table.deployment_depth!r})"
        )
    for i, piece in enumerate(table.pieces):
        for message, got, expected in polygon_problems(piece.outline, table.width, table.depth):
            out.append(f"{_piece_label(i, piece.name)}: {message} (got {got!r}); {expected}")
        if piece.height < 0 or piece.cover_gap < 0:
            out.append(f"{_piece_label(i, piece.name)}: height and cover_gap must be >= 0")
    out.extend(_objective_problems(table))
    return out


def _objective_problems(table: Table) -> list[str]:
    out: list[str] = []
    blocked = [
        (p, piece_polygon(p)) for p in table.pieces if p.has(T.IMPASSABLE) and len(p.outline) > 2
    ]
    for i, (x, y) in enumerate(table.objectives):
        if not (0 <= x <= table.width and 0 <= y <= table.depth):
            out.append(f"objectives[{i}]: outside the table (got {[x, y]!r})")
            continue
        for piece, poly in blocked:
            if poly.is_valid and shapely.intersects_xy(poly, x, y):
                out.append(
                    f"objectives[{i}]: inside impassable terrain {piece.name!r} "
                    f"(got {[x, y]!r}); markers can't be placed in unreachable positions"
                )
    return out


# --------------------------------------------------------------------------------------------
# JSON.

_TOP_KEYS = ("width", "depth", "deployment_depth", "pieces", "objectives")
_PIECE_KEYS = ("name", "preset", "types", "outline", "height", "cover_gap")


def _num(x: float) -> float | int:
    """An integral float as an int (``12`` not ``12.0``); other floats unchanged (exact repr)."""
    return int(x) if float(x).is_integer() and abs(x) < 2**53 else float(x)


def _number(value: Any, where: str, what: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ParseError(f"{what} must be a number", value=value, where=where)
    if value < 0 or (positive and value == 0):
        raise ParseError(
            f"{what} must be {'positive' if positive else 'zero or more'}",
            value=value,
            where=where,
        )
    return float(value)


def _point(value: Any, where: str) -> Point:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(
            isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v)
            for v in value
        )
    ):
        raise ParseError("not a point", value=value, expected="[x, y] in inches", where=where)
    return (float(value[0]), float(value[1]))


def _check_keys(data: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    extra = [k for k in data if k not in allowed]
    if extra:
        raise ParseError(
            "unknown key", value=extra[0], expected="keys among " + ", ".join(allowed), where=where
        )


def load_table(text: str, source: str = "<terrain>") -> Table:
    """Read a terrain JSON file's text (format in ``docs/terrain.md``) into a :class:`Table`.

    Raises:
        ParseError: bad JSON, a bad value, or a piece whose outline is not a simple polygon
            within the table (naming ``pieces[i] 'name'``), or an objective in impassable terrain.
        UnknownNameError: an unknown terrain type or preset (listing the valid ones).
    """
    check_nesting(text, source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"not valid JSON: {exc.msg}", where=f"{source}:{exc.lineno}:{exc.colno}"
        ) from None
    except (RecursionError, ValueError) as exc:  # nesting is checked first; huge integers
        raise ParseError(f"not valid JSON: {type(exc).__name__}", where=source) from None
    if not isinstance(data, dict):
        raise ParseError("a terrain file is a JSON object", value=type(data).__name__, where=source)
    _check_keys(data, _TOP_KEYS, source)
    width = _number(data.get("width", 48), f"{source}: width", "width", positive=True)
    depth = _number(data.get("depth", 48), f"{source}: depth", "depth", positive=True)
    for name, value in (("width", width), ("depth", depth)):
        check_limit(f"table {name} in inches", value, MAX_TABLE_INCHES, where=f"{source}: {name}")
    dd = _number(
        data.get("deployment_depth", 12.0),
        f"{source}: deployment_depth",
        "deployment_depth",
        positive=True,
    )
    if dd >= depth / 2:
        raise ParseError(
            "deployment zones would meet",
            value=dd,
            expected=f"a deployment_depth under half the depth ({_num(depth / 2)})",
            where=f"{source}: deployment_depth",
        )
    raw_pieces = data.get("pieces", [])
    if not isinstance(raw_pieces, list):
        raise ParseError("pieces must be a list", value=raw_pieces, where=f"{source}: pieces")
    check_limit("terrain pieces", len(raw_pieces), MAX_TERRAIN_PIECES, where=f"{source}: pieces")
    pieces = tuple(_load_piece(i, raw, width, depth, source) for i, raw in enumerate(raw_pieces))
    raw_obj = data.get("objectives", [])
    if not isinstance(raw_obj, list):
        raise ParseError("objectives must be a list", value=raw_obj, where=f"{source}: objectives")
    check_limit("objective markers", len(raw_obj), MAX_OBJECTIVES, where=f"{source}: objectives")
    objectives = tuple(_point(o, f"{source}: objectives[{i}]") for i, o in enumerate(raw_obj))
    table = Table(
        width=width, depth=depth, pieces=pieces, objectives=objectives, deployment_depth=dd
    )
    problems = _objective_problems(table)
    if problems:
        raise ParseError(problems[0], where=source)
    return table


def _load_piece(index: int, raw: Any, width: float, depth: float, source: str) -> TerrainPiece:
    if not isinstance(raw, dict):
        raise ParseError("a piece is a JSON object", value=raw, where=f"{source}: pieces[{index}]")
    name = raw.get("name", f"piece {index + 1}")
    if not isinstance(name, str) or not name.strip():
        raise ParseError(
            "name must be a non-empty string", value=name, where=f"{source}: pieces[{index}]"
        )
    name = printable(name)
    where = f"{source}: {_piece_label(index, name)}"
    _check_keys(raw, _PIECE_KEYS, where)
    if "preset" not in raw and "types" not in raw:
        raise ParseError(
            "a piece needs a preset or types",
            expected="'preset': one of " + ", ".join(PRESETS) + ", or a 'types' list",
            where=where,
        )
    p: Preset | None = None
    if "preset" in raw:
        if not isinstance(raw["preset"], str):
            raise ParseError("preset must be a string", value=raw["preset"], where=where)
        p = preset(raw["preset"], where=where)
    if "types" in raw:
        if not isinstance(raw["types"], list) or not all(isinstance(t, str) for t in raw["types"]):
            raise ParseError(
                "types must be a list of names", value=raw["types"], where=f"{where}.types"
            )
        types = frozenset(terrain_type(t, where=f"{where}.types") for t in raw["types"])
    else:
        assert p is not None  # one of the two keys is present (checked above)
        types = p.types
    height = _number(raw.get("height", p.height if p else 0.0), f"{where}.height", "height")
    gap = _number(
        raw.get("cover_gap", p.cover_gap if p else 0.0), f"{where}.cover_gap", "cover_gap"
    )
    outline_raw = raw.get("outline")
    if not isinstance(outline_raw, list):
        raise ParseError(
            "outline missing or not a list",
            value=outline_raw,
            expected="a list of [x, y] corners",
            where=where,
        )
    check_limit("outline corners", len(outline_raw), MAX_OUTLINE_CORNERS, where=f"{where}.outline")
    outline = [_point(c, f"{where}.outline[{k}]") for k, c in enumerate(outline_raw)]
    if len(outline) > 3 and outline[0] == outline[-1]:
        outline.pop()  # a closed ring: drop the repeated first corner
    for message, value, expected in polygon_problems(outline, width, depth):
        raise ParseError(message, value=value, expected=expected, where=where)
    return TerrainPiece(
        name=name,
        outline=tuple(outline),
        types=types,
        height=height,
        preset=p.name if p else None,
        cover_gap=gap,
    )


def _piece_json(piece: TerrainPiece) -> dict[str, Any]:
    out: dict[str, Any] = {"name": piece.name}
    p = PRESETS.get(piece.preset) if piece.preset else None
    if p is not None:
        out["preset"] = p.name
    if p is None or piece.types != p.types:
        out["types"] = sorted(t.value for t in piece.types)
    out["outline"] = [[_num(x), _num(y)] for x, y in piece.outline]
    out["height"] = _num(piece.height)
    if piece.cover_gap != (p.cover_gap if p else 0.0):
        out["cover_gap"] = _num(piece.cover_gap)
    return out


def table_to_json(table: Table) -> str:
    """The table as terrain JSON, one piece per line; :func:`load_table` reads it back equal."""
    head = {
        "width": _num(table.width),
        "depth": _num(table.depth),
        "deployment_depth": _num(table.deployment_depth),
    }
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()]
    pieces = [json.dumps(_piece_json(p), ensure_ascii=False) for p in table.pieces]
    lines.append('  "pieces": [' + ("" if pieces else "],"))
    if pieces:
        lines += [f"    {p}," for p in pieces[:-1]] + [f"    {pieces[-1]}", "  ],"]
    objectives = json.dumps([[_num(x), _num(y)] for x, y in table.objectives])
    lines += [f'  "objectives": {objectives}', "}"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# The generator.

#: The mix of a generated table, one entry per piece (or per mirrored pair), cycled.
KIND_CYCLE = (
    "forest",
    "ruins",
    "hill",
    "barricade",
    "forest_wall",
    "forest",
    "ruins",
    "lake",
    "barricade",
    "ramp",
)
#: Placement order: big pieces first so that they find room.
_PLACE_ORDER = ("hill", "forest", "lake", "forest_wall", "ruins", "ramp", "barricade")
#: Pieces allowed in a deployment zone: small cover only (never blocking or impassable).
ZONE_KINDS = frozenset({"barricade", "ruins"})
#: "Small": at most this area (square inches) to stand in a deployment zone.
SMALL_AREA = 12.0
#: The least gap between generated pieces (inches); the generator promises at least 2".
MIN_GAP = 2.5
_ATTEMPTS = 400


def _star(
    rng: np.random.Generator, radius: float, n: int, jitter: float, symmetric: bool
) -> FloatArray:
    """A star-shaped (so simple) polygon around the origin; point-symmetric if asked."""
    if symmetric:
        half = n // 2
        base = np.sort(rng.uniform(0, np.pi, half))
        angles = np.concatenate([base, base + np.pi])
        r_half = radius * rng.uniform(jitter, 1.0, half)
        radii = np.concatenate([r_half, r_half])
    else:
        # spread angles evenly, then jitter, so no two corners bunch up
        step = 2 * np.pi / n
        angles = np.arange(n) * step + rng.uniform(-0.3, 0.3, n) * step + rng.uniform(0, step)
        radii = radius * rng.uniform(jitter, 1.0, n)
    return np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])


def _rect(length: float, width: float) -> FloatArray:
    a, b = length / 2, width / 2
    return np.array([[-a, -b], [a, -b], [a, b], [-a, b]], dtype=np.float64)


def _ell(length: float, width: float, notch: float) -> FloatArray:
    """An L-shaped ruin: a rectangle with one corner cut away."""
    a, b = length / 2, width / 2
    return np.array(
        [[-a, -b], [a, -b], [a, b - notch * width], [a - notch * length, b - notch * width],
         [a - notch * length, b], [-a, b]],
        dtype=np.float64,
    )  # fmt: skip


def _shape(rng: np.random.Generator, kind: str, scale: float, centred: bool) -> FloatArray:
    """An outline for ``kind`` around the origin, ``scale`` shrinking it when room is short."""
    if kind == "forest":
        return _star(rng, scale * rng.uniform(2.5, 3.8), 8, 0.7, centred)
    if kind == "hill":
        return _star(rng, scale * rng.uniform(3.0, 4.2), 10, 0.8, centred)
    if kind == "lake":
        return _star(rng, scale * rng.uniform(2.0, 3.2), 8, 0.7, centred)
    if kind == "ruins":
        small = rng.random() < 0.5
        lo, hi = (2.0, 3.4) if small else (3.5, 5.5)
        length, width = scale * rng.uniform(lo, hi), scale * rng.uniform(lo, hi)
        if centred or rng.random() < 0.4:
            return _rect(length, width)
        return _ell(length, width, rng.uniform(0.35, 0.55))
    if kind == "barricade":
        return _rect(scale * rng.uniform(4.0, 6.0), rng.uniform(0.5, 0.8))
    if kind == "forest_wall":
        return _rect(scale * rng.uniform(5.0, 8.0), rng.uniform(1.0, 1.5))
    if kind == "ramp":
        return _rect(scale * rng.uniform(2.0, 3.0), scale * rng.uniform(3.0, 4.0))
    raise AssertionError(kind)  # pragma: no cover - kinds come from KIND_CYCLE


def _rotate(shape: FloatArray, angle: float) -> FloatArray:
    c, s = math.cos(angle), math.sin(angle)
    return planar.rotate(np.asarray(shape, dtype=np.float64), c, s)


def _outline(points: FloatArray) -> tuple[Point, ...]:
    return tuple((round(float(x), 2) + 0.0, round(float(y), 2) + 0.0) for x, y in points)


def _mirror(outline: tuple[Point, ...], width: float, depth: float) -> tuple[Point, ...]:
    return tuple((round(width - x, 2) + 0.0, round(depth - y, 2) + 0.0) for x, y in outline)


def may_stand_in_zone(piece: TerrainPiece) -> bool:
    """Whether a generated table may put ``piece`` in a deployment zone: small cover only."""
    blocking = piece.types & {T.BLOCKING, T.IMPASSABLE, T.DANGEROUS, T.ELEVATED}
    return not blocking and piece_polygon(piece).area <= SMALL_AREA + 1e-9


def zone_boxes(width: float, depth: float, deployment_depth: float) -> tuple[shapely.Polygon, ...]:
    """The two deployment zones as boxes: along ``y = 0`` and along ``y = depth``."""
    return (
        shapely.box(0.0, 0.0, width, deployment_depth),
        shapely.box(0.0, depth - deployment_depth, width, depth),
    )


def generate_table(
    seed: int,
    *,
    width: float = 48.0,
    depth: float = 48.0,
    pieces: int = 20,
    symmetric: bool = True,
    deployment_depth: float = 12.0,
    gap: float = MIN_GAP,
) -> Table:
    """A fair table of ``pieces`` pieces from ``seed`` (same seed, same table, exactly).

    Promises (tested): every piece a simple polygon within the table; pieces at least ``gap``
    apart (at least 2"), so units can pass between them; no blocking, impassable, dangerous or
    elevated piece touches a deployment zone (only small cover pieces, up to ``SMALL_AREA``
    square inches, may stand there); the mix cycles through :data:`KIND_CYCLE`; with
    ``symmetric`` the layout is point-symmetric about the table's centre (pairs of pieces, and
    one point-symmetric piece in the centre when ``pieces`` is odd).

    Raises:
        OptionError: a bad size, or more pieces than the generator can fit.
    """
    check_range("pieces", pieces, 0, 80)
    for name, value in (("width", width), ("depth", depth)):
        if not (isinstance(value, int | float) and 12 <= value <= 200):
            raise OptionError(f"{name} out of range", value=value, expected="12 to 200 inches")
    if not 0 < deployment_depth < depth / 2:
        raise OptionError(
            "deployment_depth out of range",
            value=deployment_depth,
            expected=f"over 0 and under half the depth ({depth / 2:g})",
        )
    if not 2.0 <= gap <= 12.0:
        raise OptionError("gap out of range", value=gap, expected="2 to 12 inches")
    rng = generator(seed, "table")  # the table's own stream of the seed (oprlab.rng)
    width, depth = float(width), float(depth)
    zones = zone_boxes(width, depth, deployment_depth)
    table_box = shapely.box(0.0, 0.0, width, depth)
    centre = (width / 2, depth / 2)

    units = pieces // 2 if symmetric else pieces
    kinds = [KIND_CYCLE[i % len(KIND_CYCLE)] for i in range(units)]
    kinds.sort(key=_PLACE_ORDER.index)
    if symmetric and pieces % 2:
        kinds.insert(0, "centre:" + KIND_CYCLE[units % len(KIND_CYCLE)])

    placed: list[TerrainPiece] = []
    placed_polys: list[shapely.Polygon] = []
    counts: dict[str, int] = {}

    def name_for(kind: str) -> str:
        counts[kind] = counts.get(kind, 0) + 1
        return f"{PRESETS[kind].title} {counts[kind]}"

    def fits(poly: shapely.Polygon, piece_kind: str) -> bool:
        if not (shapely.is_valid(poly) and table_box.covers(poly)):
            return False
        if placed_polys and float(np.min(shapely.distance(placed_polys, poly))) < gap:
            return False
        in_zone = any(poly.intersects(z) for z in zones)
        return not in_zone or (piece_kind in ZONE_KINDS and poly.area <= SMALL_AREA)

    for entry in kinds:
        is_centre = entry.startswith("centre:")
        wanted = entry.removeprefix("centre:")
        done = False
        # when room runs short a piece becomes small ruins, then a barricade (they fit anywhere)
        for attempt in range(3 * _ATTEMPTS):
            kind = (wanted, "ruins", "barricade")[attempt // _ATTEMPTS]
            scale = 0.85 ** ((attempt % _ATTEMPTS) // 80)
            shape = _rotate(_shape(rng, kind, scale, is_centre), rng.uniform(0, np.pi))
            if is_centre:
                at = np.array(centre)
            else:
                reach = float(np.max(np.hypot(shape[:, 0], shape[:, 1])))
                low, high = reach, depth - reach
                if kind not in ZONE_KINDS and depth - 2 * (deployment_depth + reach) > 0:
                    low, high = deployment_depth + reach, depth - deployment_depth - reach
                at = rng.uniform([reach, low], [width - reach, high])
            outline = _outline(shape + at)
            if is_centre:
                outline = _symmetrise(outline, width, depth)
            poly = shapely.Polygon(outline)
            if not fits(poly, kind):
                continue
            if symmetric and not is_centre:
                twin_outline = _mirror(outline, width, depth)
                twin = shapely.Polygon(twin_outline)
                if shapely.distance(poly, twin) < gap or not fits(twin, kind):
                    continue
            piece = make_piece(name_for(kind), outline, kind)
            placed.append(piece)
            placed_polys.append(poly)
            if symmetric and not is_centre:
                placed.append(make_piece(name_for(kind), twin_outline, kind))
                placed_polys.append(twin)
            done = True
            break
        if not done:
            raise OptionError(
                f'cannot fit {pieces} pieces {gap:g}" apart on a {width:g}x{depth:g} table',
                value=pieces,
                expected="fewer pieces, a smaller gap or a bigger table",
            )
    return Table(width=width, depth=depth, pieces=tuple(placed), deployment_depth=deployment_depth)


def _symmetrise(outline: tuple[Point, ...], width: float, depth: float) -> tuple[Point, ...]:
    """Make a centred outline exactly point-symmetric after rounding (second half mirrors first)."""
    n = len(outline)
    half = outline[: n // 2]
    return half + _mirror(half, width, depth)
