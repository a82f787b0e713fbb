"""``settle`` asks each test only of the candidates the tests before it left, and measures the
neighbours' gaps only to the models near enough to matter; it must place every model exactly
where the plain search (every test of every candidate against every model) places it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from oprlab.table import formation as fm
from oprlab.table.deploy import mission_table
from oprlab.table.formation import (
    COHESION,
    RING_OFFSETS,
    TOL,
    BoolArray,
    Neighbours,
    formation,
    gaps,
    settle,
    standable,
)
from oprlab.table.model import FloatArray, Placement, Table

Allowed = Callable[[FloatArray, float], BoolArray]


def _plain_settle(
    table: Table,
    desired: FloatArray,
    radii: FloatArray,
    neighbours: Neighbours,
    *,
    cohesion: bool = True,
    allowed: Allowed | None = None,
    fixed: FloatArray | None = None,
    fixed_radii: FloatArray | None = None,
    keep: BoolArray | None = None,
    reach: tuple[FloatArray, float] | None = None,
) -> FloatArray | None:
    """``settle`` as it was before the shortcut: every test of every candidate of a chunk."""
    centre = desired.mean(axis=0)
    order = [int(i) for i in np.argsort(np.hypot(*(desired - centre).T), kind="stable")]
    placed_c = np.zeros((0, 2)) if fixed is None else fixed.copy()
    placed_r = np.zeros(0) if fixed_radii is None else fixed_radii.copy()
    out = desired.copy()
    for i in order:
        r = float(radii[i])
        own_placed = len(placed_r) > 0
        found = None
        only = keep is not None and keep[i]
        for chunk in RING_OFFSETS[:1] if only else RING_OFFSETS:
            cand = desired[i] + (chunk[:1] if only else chunk)
            ok = standable(table, cand, r)
            if not ok.any():
                continue
            if len(placed_r):
                g = gaps(cand, np.full(len(cand), r), placed_c, placed_r)
                ok &= (g >= TOL).all(axis=1)
                if cohesion and own_placed:
                    shifted = np.hypot(*(cand - desired[i]).T) > 1e-9
                    ok &= ~shifted | (g <= COHESION - TOL).any(axis=1)
            if len(neighbours.radii) and ok.any():
                g = gaps(cand, np.full(len(cand), r), neighbours.centres, neighbours.radii)
                ok &= (g >= neighbours.need[None, :] + TOL).all(axis=1)
            if reach is not None and ok.any():
                ok &= np.hypot(*(cand - reach[0][i]).T) <= reach[1] + TOL
            if allowed is not None and ok.any():
                ok &= allowed(cand, r)
            if ok.any():
                found = cand[int(np.argmax(ok))]
                break
        if found is None:
            return None
        out[i] = found
        placed_c = np.vstack([placed_c, found[None, :]])
        placed_r = np.append(placed_r, r)
    return out


def _crowds(table: Table, seed: int) -> Iterator[tuple[FloatArray, FloatArray, Neighbours]]:
    """Units wished onto spots among (and over) other units: most models must shift."""
    rng = np.random.default_rng(seed)
    for _ in range(12):
        others = []
        for _ in range(int(rng.integers(3, 9))):
            n = int(rng.integers(1, 11))
            at = (float(rng.uniform(8, table.width - 8)), float(rng.uniform(8, table.depth - 8)))
            others.append(Placement(formation(n, 0.5, at, (0.0, 1.0)), np.full(n, 0.5)))
        exempt = others[:1] if rng.random() < 0.3 else []
        neighbours = Neighbours.of(others, exempt=exempt)
        for _ in range(3):
            near = others[int(rng.integers(len(others)))].centres.mean(axis=0)
            at = near + rng.uniform(-4, 4, 2)
            n = int(rng.integers(1, 11))
            r = float(rng.choice([0.5, 0.8, 1.0]))
            desired = formation(n, r, (float(at[0]), float(at[1])), (1.0, 0.0))
            yield desired, np.full(n, r), neighbours


def _cases(table: Table, seed: int) -> Iterator[dict[str, object]]:
    """Each crowd with settle's options: plain, kept within a reach, no cohesion, some models
    kept where they are, placed beside fixed models, and an ``allowed`` test."""
    for desired, radii, neighbours in _crowds(table, seed):
        base = {"table": table, "desired": desired, "radii": radii, "neighbours": neighbours}
        yield base
        yield {**base, "reach": (desired + 1.5, 6.0)}
        yield {**base, "cohesion": False}
        yield {**base, "keep": np.arange(len(radii)) % 3 == 0}
        yield {**base, "fixed": desired[:2] + 3.0, "fixed_radii": radii[:2]}
        left = float(desired[:, 0].mean())
        yield {**base, "allowed": lambda p, r, x=left: p[:, 0] <= x + 0.5}


def _same(got: FloatArray | None, want: FloatArray | None) -> bool:
    if got is None or want is None:
        return got is None and want is None
    return bool(np.array_equal(got, want))


@pytest.mark.parametrize("terrain", [None, 3, 8])
def test_settle_places_every_model_where_the_plain_search_does(terrain: int | None) -> None:
    """Open and generated tables: the same spots, bit for bit (or ``None`` alike)."""
    table = Table() if terrain is None else mission_table(terrain)
    checked = shifted = 0
    for case in _cases(table, 21 if terrain is None else terrain):
        got = settle(**case)  # type: ignore[arg-type]
        want = _plain_settle(**case)  # type: ignore[arg-type]
        assert _same(got, want)
        checked += 1
        desired = case["desired"]
        assert isinstance(desired, np.ndarray)
        shifted += want is not None and not np.array_equal(want, desired)
    assert checked == 216 and shifted >= 50  # the crowds make most units shift


def test_settle_shortcut_fails_when_its_margin_is_loosened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The neighbours left out of a chunk's test must stand clear of the whole chunk: counting
    each chunk as reaching no farther than its centre leaves out models that matter, and the
    comparison above sees it."""
    monkeypatch.setattr(fm, "_RING_REACH", [0.0] * len(RING_OFFSETS))
    table = Table()
    differ = sum(
        not _same(settle(**case), _plain_settle(**case))  # type: ignore[arg-type]
        for case in _cases(table, 21)
    )
    assert differ > 0
