"""The table: line of sight and cover for every shooter-target pair of one activation."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely  # type: ignore[import-untyped, unused-ignore]

from bench.harness import Result, measure, prose
from oprlab.rng import make_rng
from oprlab.table.cover import los_and_cover, los_and_cover_all
from oprlab.table.model import MM_PER_INCH, Placement, Table, TerrainType
from oprlab.table.sight import SightCache
from oprlab.table.terrain import generate_table, piece_polygon

TITLE = "Table: line of sight and cover"
NOTES = prose("table")

RADIUS = 25 / MM_PER_INCH / 2
ENEMY_SIZES = (1, 3, 5, 10, 5, 2, 10, 1)


def _block(n: int, x: float, y: float, radius: float = RADIUS) -> Placement:
    """``n`` models in rows of five, 1" apart base to base."""
    step = 2 * radius + 1.0
    centres = [(x + step * (i % 5), y + step * (i // 5)) for i in range(n)]
    return Placement(np.array(centres, dtype=np.float64), np.full(n, radius))


def scenario(
    seed: int = 1,
    *,
    shooters: int = 5,
    enemy_sizes: Sequence[int] = ENEMY_SIZES,
    pieces: int = 20,
) -> tuple[Table, Placement, list[Placement]]:
    """A generated table, a shooting unit in zone 0, and enemy units placed off impassables."""
    table = generate_table(seed, pieces=pieces)
    rng = make_rng(seed).rng
    walls = [piece_polygon(p) for p in table.pieces if p.has(TerrainType.IMPASSABLE)]
    shooter = _block(shooters, 18.0, 4.0)
    enemies: list[Placement] = []
    for size in enemy_sizes:
        for _ in range(200):
            x, y = rng.uniform([1.0, 26.0], [40.0, 44.0])
            unit = _block(size, float(x), float(y))
            inside = unit.centres.max(axis=0).tolist()
            if inside[0] > 47.5 or inside[1] > 47.5:
                continue
            if not any(w.distance(_hull(unit)) < RADIUS for w in walls):
                break
        enemies.append(unit)
    return table, shooter, enemies


def _hull(unit: Placement) -> shapely.Geometry:
    return shapely.MultiPoint(unit.centres).convex_hull


def activation(
    table: Table,
    shooter: Placement,
    enemies: list[Placement],
    system: str,
    cache: SightCache | None,
    *,
    batched: bool = True,
) -> int:
    """LoS and cover against every enemy unit; returns the number of models seen (a checksum).

    Batched: one ``los_and_cover_all`` call; else one ``los_and_cover`` call per target with
    the other enemy units as blockers.
    """
    cache = cache if cache is not None else SightCache()
    if batched:
        answers = los_and_cover_all(table, shooter, enemies, (), system, cache=cache)
        return sum(int(v.sum()) for v, _ in answers)
    seen = 0
    for i, target in enumerate(enemies):
        others = enemies[:i] + enemies[i + 1 :]
        v, _ = los_and_cover(table, shooter, target, others, system, cache=cache)
        seen += int(v.sum())
    return seen


def _case(
    name: str,
    table: Table,
    shooter: Placement,
    enemies: list[Placement],
    system: str,
    budget: float,
    *,
    cached: bool = False,
    batched: bool = True,
) -> Result:
    keep = SightCache() if cached else None

    def fn() -> int:
        return activation(table, shooter, enemies, system, keep, batched=batched)

    pairs = len(shooter.radii) * sum(len(e.radii) for e in enemies)
    return measure(f"{name} ({pairs} pairs)", fn, unit="activations", budget=budget)


def run(budget: float = 0.5) -> list[Result]:
    table, shooter, enemies = scenario()
    riverside, gff = "riverside", "gff"
    results = [
        _case("riverside, 20 pieces, cold", table, shooter, enemies, riverside, budget),
        _case("riverside, cached", table, shooter, enemies, riverside, budget, cached=True),
        _case(
            "riverside, one call per target", table, shooter, enemies, riverside, budget,
            batched=False,
        ),
        _case("gff, 20 pieces, cold", table, shooter, enemies, gff, budget),
        _case("gff, cached", table, shooter, enemies, gff, budget, cached=True),
    ]  # fmt: skip
    for shooters in (1, 10, 20):
        t, s, e = scenario(shooters=shooters)
        results.append(_case(f"riverside, {shooters} shooters", t, s, e, riverside, budget))
    for sizes in ((1, 3, 5), (10,) * 8):
        t, s, e = scenario(enemy_sizes=sizes)
        label = f"{len(sizes)} units, {sum(sizes)} enemy models"
        results.append(_case(f"riverside, {label}", t, s, e, riverside, budget))
    for pieces in (0, 10, 30):
        t, s, e = scenario(pieces=pieces)
        results.append(_case(f"riverside, {pieces} pieces", t, s, e, riverside, budget))
    return results
