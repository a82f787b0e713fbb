"""Formations, spacing, Unit Cohesion and deployment placement (seeds 002 and 003)."""

from __future__ import annotations

import itertools
import math
from typing import TypedDict, Unpack

import numpy as np
import pytest
import shapely

from oprlab.errors import OptionError
from oprlab.table.formation import (
    Neighbours,
    Rect,
    enclosing_circle,
    formation,
    gaps,
    is_coherent,
    legal_end,
    overlaps,
    place_in_zone,
    riverside_diameter_limit,
    settle,
    spacing_ok,
    standable,
    unit_diameter,
)
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType

T = TerrainType


class PieceExtras(TypedDict, total=False):
    """What a test's piece may set beside its outline and types."""

    height: float
    preset: str | None
    cover_gap: float


def rect(
    name: str, x0: float, y0: float, x1: float, y1: float, *types: T, **kw: Unpack[PieceExtras]
) -> TerrainPiece:
    outline = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    return TerrainPiece(name, outline, frozenset(types), **kw)


def line(n: int, gap: float, r: float = 0.5, y: float = 10.0) -> Placement:
    """``n`` models in a row, ``gap`` inches apart base to base."""
    xs = 5 + np.arange(n) * (2 * r + gap)
    return Placement(np.stack([xs, np.full(n, y)], axis=1), np.full(n, r))


# --- formations ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "shape"),
    [(n, "rows") for n in (1, 2, 3, 5, 7, 10, 13)] + [(n, "blob") for n in (1, 5, 10, 20)],
)
def test_formation_is_compact_and_coherent(n: int, shape: str) -> None:
    """seed 003 "MOVEMENT" / seed 002 "Unit Cohesion": a formation keeps every model within 1"
    of another (and within 6" of all, and inside a 9" circle); neighbours stand exactly
    ``spacing`` apart and nobody overlaps. (Twenty models in ranks are wider than 6": big
    units use the blob.)"""
    c = formation(n, 0.5, (20.0, 20.0), (1.0, 1.0), 0.5, shape=shape)
    assert c.shape == (n, 2)
    assert np.allclose(c.mean(axis=0), (20.0, 20.0))
    p = Placement(c, np.full(n, 0.5))
    assert not overlaps([p])
    assert is_coherent(p, "gff")
    assert is_coherent(p, "riverside")
    if n > 1:
        g = gaps(c, p.radii, c, p.radii)
        np.fill_diagonal(g, np.inf)
        assert g.min() == pytest.approx(0.5)


def test_formation_faces_its_direction() -> None:
    """The front rank is toward ``facing``: with 5 models, 3 in front and 2 behind."""
    c = formation(5, 0.5, (10.0, 10.0), (0.0, 1.0))
    ys = np.round(c[:, 1], 6)
    assert sorted(set(ys.tolist()), reverse=True)[0] == ys.max()
    assert int((ys == ys.max()).sum()) == 3
    east = formation(5, 0.5, (10.0, 10.0), (1.0, 0.0))
    xs = np.round(east[:, 0], 6)
    assert int((xs == xs.max()).sum()) == 3


@pytest.mark.parametrize(
    ("kwargs", "bad"),
    [
        ({"n": 0, "radius": 0.5}, 0),
        ({"n": 3, "radius": 0.0}, 0.0),
        ({"n": 3, "radius": 0.5, "spacing": 1.5}, 1.5),
        ({"n": 3, "radius": 0.5, "shape": "wedge"}, "wedge"),
        ({"n": 3, "radius": 0.5, "facing": (0.0, 0.0)}, (0.0, 0.0)),
    ],
)
def test_formation_bad_input(kwargs: dict[str, object], bad: object) -> None:
    with pytest.raises(OptionError) as err:
        formation(**kwargs)  # type: ignore[arg-type]
    assert err.value.value == bad


# --- cohesion, spacing, overlaps -------------------------------------------------------------


def test_cohesion_one_inch() -> None:
    """seed 003 "MOVEMENT": unit members stay within 1" of at least one other member;
    seed 002 "Unit Cohesion": the same 1"."""
    assert is_coherent(line(4, 1.0), "gff")
    assert is_coherent(line(4, 1.0), "riverside")
    assert not is_coherent(line(4, 1.1), "gff")
    assert not is_coherent(line(4, 1.1), "riverside")
    lone = Placement(np.array([[5.0, 5.0], [20.0, 5.0]]), np.full(2, 0.5))
    lone.removed[1] = True
    assert is_coherent(lone, "gff")  # removed models do not count


def test_cohesion_gff_six_inches() -> None:
    """seed 003 "MOVEMENT": unit members stay within 6" of all other members: a chain of
    models 1" apart longer than 6" is not coherent, although each touches a neighbour."""
    assert is_coherent(line(4, 1.0), "gff")  # ends 3 bases + 3 gaps = 6" apart
    assert not is_coherent(line(5, 1.0), "gff")  # 4 bases + 4 gaps = 8"


def test_cohesion_riverside_nine_inch_circle() -> None:
    """seed 002 "Unit Cohesion": all models within a 9" diameter; a 9-model chain 0.5" apart
    spans 12.5" and fails, though the GFF 6" test would fail it too; a compact blob passes."""
    chain = line(9, 0.5)
    assert unit_diameter(chain.centres, chain.radii) > 9
    assert not is_coherent(chain, "riverside")
    blob = Placement(formation(9, 0.5, (20, 20), spacing=0.5, shape="blob"), np.full(9, 0.5))
    assert is_coherent(blob, "riverside")


def test_cohesion_riverside_as_close_as_possible() -> None:
    """seed 002 "Unit Cohesion": "or as close as possible": 40 models on 40mm bases cannot fit
    in 9", so their tightest blob is coherent, and a looser one is not."""
    r = 40 / 25.4 / 2
    assert riverside_diameter_limit(40, r) > 9
    tight = Placement(formation(40, r, (24, 24), spacing=0.0, shape="blob"), np.full(40, r))
    loose = Placement(formation(40, r, (24, 24), spacing=1.0, shape="blob"), np.full(40, r))
    assert is_coherent(tight, "riverside")
    assert not is_coherent(loose, "riverside")


def test_riverside_diameter_limit_is_kept_by_count_and_base() -> None:
    """seed 002 "Unit Cohesion": the limit is the blob's own, worked out once per count and
    base: the kept answer is the one laid out afresh, for counts and bases of every size."""
    riverside_diameter_limit.cache_clear()
    for n in (1, 2, 5, 10, 20, 40):
        for r in (0.5, 0.63, 40 / 25.4 / 2, 1.2):
            fresh = riverside_diameter_limit.__wrapped__(n, r)
            assert riverside_diameter_limit(n, r) == fresh
            assert riverside_diameter_limit(n, r) == fresh
    assert riverside_diameter_limit.cache_info().hits >= 24


def test_is_coherent_unknown_system() -> None:
    with pytest.raises(OptionError) as err:
        is_coherent(line(2, 0.5), "40k")
    assert err.value.value == "40k"


def test_overlaps_and_spacing() -> None:
    """seed 002 "Movement": bases may not overlap; "1" Spacing": not within 1" of another
    unit's model unless it is the charge's target."""
    a = line(3, 0.5)
    b = Placement(a.centres + np.array([0.0, 1.9]), a.radii.copy())  # 0.9" apart base to base
    assert not overlaps([a, b])
    assert not spacing_ok(a, [b])
    assert spacing_ok(a, [b], exempt=[b])
    c = Placement(a.centres + np.array([0.0, 2.0]), a.radii.copy())  # exactly 1" apart
    assert spacing_ok(a, [c])
    d = Placement(a.centres + np.array([0.0, 0.9]), a.radii.copy())
    assert overlaps([a, d])
    assert not spacing_ok(a, [d], exempt=[d])
    assert spacing_ok(a, [a])  # a unit is not another unit


def test_enclosing_circle_matches_brute_force() -> None:
    """The smallest enclosing circle against trying every circle on 2 or 3 of the points."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        pts = rng.uniform(0, 10, size=(int(rng.integers(1, 9)), 2))
        _, _, r = enclosing_circle(pts)
        best = math.inf
        cands = [(p[0], p[1], 0.0) for p in pts]
        for i, j in itertools.combinations(range(len(pts)), 2):
            mid = (pts[i] + pts[j]) / 2
            cands.append((mid[0], mid[1], float(np.hypot(*(pts[i] - pts[j]))) / 2))
        for i, j, k in itertools.combinations(range(len(pts)), 3):
            a, b, c = pts[i], pts[j], pts[k]
            d = 2 * (a[0] * (b[1] - c[1]) + b[0] * (c[1] - a[1]) + c[0] * (a[1] - b[1]))
            if abs(d) < 1e-12:
                continue
            ux = ((a @ a) * (b[1] - c[1]) + (b @ b) * (c[1] - a[1]) + (c @ c) * (a[1] - b[1])) / d
            uy = ((a @ a) * (c[0] - b[0]) + (b @ b) * (a[0] - c[0]) + (c @ c) * (b[0] - a[0])) / d
            cands.append((ux, uy, float(np.hypot(a[0] - ux, a[1] - uy))))
        for x, y, rr in cands:
            if (np.hypot(pts[:, 0] - x, pts[:, 1] - y) <= rr + 1e-9).all():
                best = min(best, rr)
        assert r == pytest.approx(best, abs=1e-9)


# --- where a model may stand ------------------------------------------------------------------


def test_standable_terrain() -> None:
    """seed 002 "Impassable Terrain", "Terrain Movement" (no ending on Barricades, climb up to
    3"), and the table's edge."""
    table = Table(
        pieces=(
            rect("wall", 10, 10, 14, 14, T.IMPASSABLE),
            rect("barricade", 20, 10, 24, 11, T.UNSTABLE, preset="barricade"),
            rect("tower", 30, 10, 34, 14, T.ELEVATED, height=5.0),
            rect("hill", 30, 30, 36, 36, T.ELEVATED, height=3.0),
            rect("ruins", 5, 30, 9, 34, T.DIFFICULT, T.COVER),
        )
    )
    pts = np.array(
        [[12, 12], [12, 14.4], [22, 10.5], [32, 12], [33, 33], [7, 32], [0.3, 20], [47.5, 20]]
    )
    ok = standable(table, pts, 0.5)
    assert ok.tolist() == [False, False, False, False, True, True, False, True]
    assert standable(table, pts[3:4], 0.5, flying=True)[0]  # Flying may end on the tower
    assert standable(table, np.array([[12, 15.6]]), 0.5)[0]


def test_settle_resolves_overlaps_and_terrain() -> None:
    """settle moves models out of a wall and off each other, each to the nearest legal spot,
    keeping cohesion."""
    table = Table(pieces=(rect("wall", 10, 10, 14, 14, T.IMPASSABLE),))
    desired = np.array([[9.0, 12.0], [9.0, 12.0], [11.0, 12.0], [9.5, 12.5]])
    radii = np.full(4, 0.5)
    got = settle(table, desired, radii, Neighbours.of([]))
    assert got is not None
    p = Placement(got, radii)
    assert not overlaps([p])
    assert standable(table, got, 0.5 - 0.011).all()
    assert is_coherent(p)
    assert np.hypot(*(got - desired).T).max() < 3


def test_settle_returns_none_when_no_room() -> None:
    table = Table(width=3, depth=3, pieces=(rect("all", -1, -1, 4, 4, T.IMPASSABLE),))
    assert settle(table, np.array([[1.5, 1.5]]), np.array([0.5]), Neighbours.of([])) is None


def test_legal_end_lists_problems() -> None:
    table = Table(pieces=(rect("wall", 10, 10, 14, 14, T.IMPASSABLE),))
    bad = Placement(np.array([[12.0, 12.0], [30.0, 30.0]]), np.full(2, 0.5))
    problems = legal_end(table, bad, [])
    assert any("impassable" in p for p in problems)
    assert any("cohesion" in p for p in problems)
    good = Placement(formation(3, 0.5, (30, 30)), np.full(3, 0.5))
    assert legal_end(table, good, []) == []


# --- deployment ------------------------------------------------------------------------------


def _wholly_inside(p: Placement, zone: Rect | shapely.Polygon) -> bool:
    poly = shapely.box(*zone) if isinstance(zone, tuple) else zone
    return all(
        poly.contains(shapely.Point(c).buffer(r * 0.999))
        for c, r in zip(p.centres, p.radii, strict=True)
    )


def test_place_in_zone_wholly_inside_and_clear() -> None:
    """seed 002 "Deployment Phase": units are placed inside their deployment zone; seed 002
    "1" Spacing": not deployed within 1" of another unit; seed 003 "Deployment": within 12" of
    the table edge."""
    table = Table(pieces=(rect("wall", 18, 2, 30, 8, T.IMPASSABLE),))
    zone = (0.0, 0.0, 48.0, 12.0)
    first = place_in_zone(table, 10, 0.5, zone, [])
    assert first is not None
    second = place_in_zone(table, 10, 0.5, zone, [first])
    assert second is not None
    for p in (first, second):
        assert _wholly_inside(p, zone)
        assert is_coherent(p)
        assert legal_end(table, p, [first, second]) == []
    assert spacing_ok(second, [first])
    assert not overlaps([first, second])


def test_place_in_zone_seeded() -> None:
    """The same generator seed gives the same deployment; another seed may differ."""
    table = Table()
    zone = (0.0, 36.0, 48.0, 48.0)
    a = place_in_zone(table, 5, 0.5, zone, [], np.random.default_rng(7))
    b = place_in_zone(table, 5, 0.5, zone, [], np.random.default_rng(7))
    c = place_in_zone(table, 5, 0.5, zone, [], np.random.default_rng(8))
    assert a is not None and b is not None and c is not None
    assert np.array_equal(a.centres, b.centres)
    assert not np.array_equal(a.centres, c.centres)


def test_place_in_zone_polygon_and_full() -> None:
    """A polygon zone works; a zone too small for the unit gives None."""
    table = Table()
    tri = [(0.0, 0.0), (12.0, 0.0), (0.0, 12.0)]
    got = place_in_zone(table, 3, 0.5, tri, [])
    assert got is not None
    assert _wholly_inside(got, shapely.Polygon(tri))
    assert place_in_zone(table, 20, 0.5, (0.0, 0.0, 3.0, 3.0), []) is None


@pytest.mark.parametrize(
    ("zone", "size", "radius"),
    [
        ((5.0, 5.0, 1.0, 1.0), 3, 0.5),
        ((0.0, 0.0, 12.0, 12.0), 0, 0.5),
        ((0.0, 0.0, 12.0, 12.0), 3, -1.0),
        ("nope", 3, 0.5),
    ],
)
def test_place_in_zone_bad_input(zone: object, size: int, radius: float) -> None:
    with pytest.raises(OptionError):
        place_in_zone(Table(), size, radius, zone, [])
