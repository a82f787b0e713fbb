"""``fits_alone_at`` (a formation checked at many points at once) gives :func:`legal_end`'s
answer at each point, with no other unit near: on the table, no model in impassable or on
unstable terrain or on a piece too tall to climb (seed 002 "Terrain Movement"), no bases
overlapping, and Unit Cohesion (seed 003 "MOVEMENT": each model within 1" of another and
within 6" of all others). GFF deployment settles the grid points clear of other units with it
on tables with terrain (issue 13), so an answer that differed would change a game.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table.deploy import mission_table
from oprlab.table.formation import fits_alone_at, formation, legal_end
from oprlab.table.model import Placement, Table


@cache
def _table(seed: int) -> Table:
    return mission_table(seed)


def _one_by_one(table: Table, base: Placement, xs: np.ndarray, ys: np.ndarray) -> list[bool]:
    out = []
    for row in range(len(xs)):
        p = base.copy()
        p.centres = np.stack((xs[row], ys[row]), axis=-1)
        out.append(not legal_end(table, p, []))
    return out


@st.composite
def formations(draw: st.DrawFn) -> Placement:
    """A formation at the origin, its models in rows or a blob, some nudged (overlapping or
    out of cohesion), some removed, of one base size or two."""
    n = draw(st.integers(1, 12))
    radius = draw(st.sampled_from([0.5, 0.63, 1.0, 1.57]))
    spacing = draw(st.sampled_from([0.0, 0.5, 1.0]))
    shape = draw(st.sampled_from(["rows", "blob"]))
    centres = formation(n, radius, spacing=spacing, shape=shape)
    nudges = draw(
        st.lists(st.sampled_from([0.0, 0.0, 0.3, -0.6, 2.0, 7.0]), min_size=n, max_size=n)
    )
    centres[:, 0] += np.array(nudges)
    radii = np.full(n, radius)
    if draw(st.booleans()):
        radii[: n // 2] = 0.5
    removed = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    removed &= np.arange(n) > 0  # a model stays
    return Placement(centres, radii, removed=removed)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 5),
    base=formations(),
    points=st.lists(
        st.tuples(st.floats(-2.0, 74.0), st.floats(-2.0, 50.0)), min_size=1, max_size=30
    ),
)
def test_fits_alone_at_is_legal_end_at_each_point(
    seed: int, base: Placement, points: list[tuple[float, float]]
) -> None:
    table = _table(seed)
    xs, ys = _at(base, points)
    got = fits_alone_at(table, xs, ys, base.radii, base.alive).tolist()
    assert got == _one_by_one(table, base, xs, ys)


def _at(base: Placement, points: list[tuple[float, float]]) -> tuple[np.ndarray, np.ndarray]:
    """Each model's x and y, a row a point, as formation_at_points moves it (geo.translated)."""
    px = np.array([p[0] for p in points])[:, None]
    py = np.array([p[1] for p in points])[:, None]
    return base.centres[:, 0][None, :] + px, base.centres[:, 1][None, :] + py


def test_fits_alone_at_sees_each_reason() -> None:
    """Each of legal_end's own reasons turns a point down: off the table or on terrain a model
    may not stand on (a grid over a generated table), bases overlapping, a model over 1" from
    the rest, a model over 6" from another; a formation in cohesion passes."""
    table = mission_table(1)
    base = Placement(formation(5, 0.5), np.full(5, 0.5))
    grid = [(x + 0.5, y + 0.5) for x in range(-2, 50, 2) for y in range(-2, 50, 2)]
    xs, ys = _at(base, grid)
    got = fits_alone_at(table, xs, ys, base.radii, base.alive)
    assert got.tolist() == _one_by_one(table, base, xs, ys)
    on = [(x, y) for x, y in grid if 1.0 < x < 47.0 and 1.0 < y < 47.0]
    assert got.any() and 0 < sum(got.tolist()) < len(on)  # some points on the table fail too
    open_table = Table()
    row = [(float(x), 0.0) for x in range(0, 7)]
    for centres, expected in (
        (np.array([[0.0, 0.0], [0.5, 0.0]]), False),  # bases overlapping
        (np.array([[0.0, 0.0], [2.5, 0.0]]), False),  # 1.5" between bases: out of cohesion
        (np.array([[0.0, 0.0], [1.5, 0.0]]), True),  # 0.5" between bases
        (np.array(row), True),  # bases touching, the ends 5" apart
        (np.array([*row, (7.0, 0.0), (8.0, 0.0)]), False),  # the ends 7" apart: over 6"
    ):
        unit = Placement(centres, np.full(len(centres), 0.5))
        xs, ys = _at(unit, [(20.0, 24.0)])
        assert fits_alone_at(open_table, xs, ys, unit.radii, unit.alive).tolist() == [expected]
        assert _one_by_one(open_table, unit, xs, ys) == [expected]
