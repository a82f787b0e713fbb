"""Cover: whether a target unit gets Cover against each shooting model, per rule system.

Riverside (seed 002): "Determine Cover" (more than half of the target unit's models not in LoS,
or for a single-model unit more than half of its base hidden) or "Cover Terrain" (more than half
of the models in or behind Cover Terrain, or more than half of a single model's base); Elevated
Terrain lets a higher shooter treat LoS Blocking terrain as only giving Cover, or ignore Cover
granted by terrain (:class:`~oprlab.table.sight.Elevated`). GFF (seed 003 "Cover Terrain"): most
models fully inside cover terrain or behind sight blockers (a single model: mostly inside or
behind). Blast ignores cover; Indirect ignores cover from sight obstructions.

A model is "in or behind" when more than half of its base's sample points are (the single-model
rule applied model by model). Answers are per shooter model: ``(shooter models,)`` booleans, False
for removed shooters. May import ``oprlab.table`` modules below it and ``oprlab.errors``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from oprlab.errors import UnknownNameError
from oprlab.table.measure import bases_fully_in
from oprlab.table.model import Placement, Table, TerrainType
from oprlab.table.sight import (
    UNIT_DISC,
    Elevated,
    GapFrom,
    SightCache,
    SightLines,
    elevated_choice,
    riverside_seen,
    sight_lines_all,
    visible_all,
)
from oprlab.table.terrain import terrain_geometry

BoolArray = npt.NDArray[np.bool_]


def _more_than_half(count: npt.NDArray[np.int64] | int, of: int) -> npt.NDArray[np.bool_]:
    return np.asarray(2 * np.asarray(count) > of, dtype=np.bool_)


def riverside_cover_from(
    lines: SightLines,
    *,
    elevated: Elevated = Elevated.SEE_OVER,
    blast: bool = False,
    indirect: bool = False,
) -> BoolArray:
    """Riverside Cover per shooter model from traced sight lines (sampled bases)."""
    ns = len(lines.shooter_alive)
    alive = lines.target_alive
    n = int(alive.sum())
    if blast or n == 0:
        return np.zeros(ns, dtype=np.bool_)
    k = lines.samples
    see_over = lines.elevated if elevated == Elevated.SEE_OVER else np.zeros_like(lines.elevated)
    # Determine Cover: more than half of the unit not in LoS (one model: more than half hidden)
    if indirect:
        los_cover = np.zeros(ns, dtype=np.bool_)  # Indirect: no cover from sight obstructions
    elif n > 1:
        unseen = ~riverside_seen(lines, elevated) & alive[None, :]
        los_cover = _more_than_half(unseen.sum(axis=1), n)
    else:
        hidden = (lines.terrain & ~see_over[:, :, None]) | lines.models
        los_cover = _more_than_half(hidden[:, alive].sum(axis=(1, 2)), k)
    # Cover Terrain: more than half of the models in or behind it (one model: of its base)
    if indirect:
        in_or_behind = lines.cover_in
    else:
        in_or_behind = (
            lines.cover_in
            | lines.behind_cover
            | lines.behind_low
            | (lines.terrain & see_over[:, :, None])  # Elevated: blocking terrain gives cover
        )
    if elevated == Elevated.IGNORE_COVER:
        in_or_behind = in_or_behind & ~lines.elevated[:, :, None]
    model_in = _more_than_half(in_or_behind.sum(axis=2), k) & alive[None, :]
    terrain_cover = _more_than_half(model_in.sum(axis=1), n)
    return (los_cover | terrain_cover) & lines.shooter_alive


def gff_cover_from(
    lines: SightLines,
    fully_inside: BoolArray,
    *,
    blast: bool = False,
    indirect: bool = False,
    low_blockers: bool = True,
    behind_share: float = 0.0,
) -> BoolArray:
    """GFF Cover per shooter model from sampled sight lines (no model blocking).

    Args:
        fully_inside: ``(t,)`` target models whose whole base is inside cover terrain.
        low_blockers: whether Hills and Barricades (type ``cover_behind``) count as sight
            blockers for cover (they hide part of a model without blocking line of sight).
        behind_share: a model is "behind sight blockers" when more than this share of its base
            is hidden by them (0: any part).
    """
    ns = len(lines.shooter_alive)
    alive = lines.target_alive
    n = int(alive.sum())
    if blast or n == 0:
        return np.zeros(ns, dtype=np.bool_)
    k = lines.samples
    behind = lines.terrain | lines.behind_low if low_blockers else lines.terrain
    if indirect:
        behind = np.zeros_like(behind)  # Indirect: ignores cover from sight obstructions
    if n > 1:
        hidden_share = behind.sum(axis=2) / k
        counts = (fully_inside[None, :] | (hidden_share > behind_share)) & alive[None, :]
        return _more_than_half(counts.sum(axis=1), n) & lines.shooter_alive
    mostly = (lines.cover_in | behind)[:, alive]  # (s, 1, k)
    return _more_than_half(mostly.sum(axis=(1, 2)), k) & lines.shooter_alive


def _fully_inside_cover(table: Table, target: Placement) -> BoolArray:
    cover = terrain_geometry(table).mask(TerrainType.COVER)
    if not cover.any():
        return np.zeros(len(target.radii), dtype=np.bool_)
    return np.asarray(bases_fully_in(table, target)[:, cover].any(axis=1), dtype=np.bool_)


def riverside_cover_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.SEE_OVER,
    gap_from: GapFrom = "target",
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """Seed 002 Cover for each shooting model against each target (see :func:`has_cover`)."""
    lines = sight_lines_all(
        table, shooter, targets, others, target_blocks=target_blocks, gap_from=gap_from,
        cache=cache,
    )  # fmt: skip
    return tuple(
        riverside_cover_from(part, elevated=elevated, blast=blast, indirect=indirect)
        for part in lines
    )


def gff_cover_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.NONE,
    gap_from: GapFrom = "target",
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """Seed 003 Cover for each shooting model against each target; models never block."""
    del others, elevated, target_blocks  # GFF: no model blocking, no Elevated terrain
    lines = sight_lines_all(
        table, shooter, targets, (), samples=UNIT_DISC, models_block=False, gap_from=gap_from,
        cache=cache,
    )  # fmt: skip
    return tuple(
        gff_cover_from(part, _fully_inside_cover(table, t), blast=blast, indirect=indirect)
        for part, t in zip(lines, targets, strict=True)
    )


CoverFn = Callable[..., tuple[BoolArray, ...]]

#: One cover function per rule system (batched over targets); swap or add one here.
COVER_SYSTEMS: dict[str, CoverFn] = {"riverside": riverside_cover_all, "gff": gff_cover_all}


def has_cover_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.SEE_OVER,
    gap_from: GapFrom = "target",
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> tuple[BoolArray, ...]:
    """:func:`has_cover` against every target of an activation, traced in one batch (each
    target also blocks sight to the others)."""
    fn = COVER_SYSTEMS.get(system)
    if fn is None:
        raise UnknownNameError(
            "unknown rule system for cover",
            value=system,
            expected="one of " + ", ".join(COVER_SYSTEMS),
        )
    return fn(
        table,
        shooter,
        targets,
        others,
        blast=blast,
        indirect=indirect,
        elevated=elevated_choice(elevated),
        gap_from=gap_from,
        target_blocks=target_blocks,
        cache=cache,
    )


def has_cover(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.SEE_OVER,
    gap_from: GapFrom = "target",
    target_blocks: bool = False,
    cache: SightCache | None = None,
) -> BoolArray:
    """``(shooter models,)``: whether ``target`` has Cover from each shooting model.

    Args:
        others: units other than the shooter's and the target's (they may block sight).
        system: ``"riverside"`` or ``"gff"``.
        blast: the weapon has Blast (ignores cover).
        indirect: the weapon has Indirect (ignores cover from sight obstructions; in Riverside
            the "not in LoS" rule and "behind" terrain, keeping "in" Cover Terrain).
        elevated: Riverside Elevated Terrain choice for a shooter higher than its target.
        gap_from: whose distance a Barricade's 1" counts from (see docs/rules/riverside.md).
        target_blocks: whether the target's own models hide each other (default no).
        cache: a :class:`~oprlab.table.sight.SightCache`.
    """
    return has_cover_all(
        table, shooter, [target], others, system, blast=blast, indirect=indirect,
        elevated=elevated, gap_from=gap_from, target_blocks=target_blocks, cache=cache,
    )[0]  # fmt: skip


def los_and_cover_all(
    table: Table,
    shooter: Placement,
    targets: Sequence[Placement],
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.SEE_OVER,
    cache: SightCache | None = None,
) -> list[tuple[BoolArray, BoolArray]]:
    """Line of sight ``(s, t)`` and Cover ``(s,)`` against every target of an activation.

    One batched trace serves both answers (a private cache is used when none is given).
    """
    cache = cache if cache is not None else SightCache(maxsize=4)
    seen = visible_all(table, shooter, targets, others, system, elevated=elevated, cache=cache)
    cover = has_cover_all(
        table, shooter, targets, others, system, blast=blast, indirect=indirect,
        elevated=elevated, cache=cache,
    )  # fmt: skip
    return list(zip(seen, cover, strict=True))


def los_and_cover(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    system: str = "riverside",
    *,
    blast: bool = False,
    indirect: bool = False,
    elevated: Elevated = Elevated.SEE_OVER,
    cache: SightCache | None = None,
) -> tuple[BoolArray, BoolArray]:
    """Line of sight ``(s, t)`` and Cover ``(s,)`` of one shooter-target pair, tracing once."""
    return los_and_cover_all(
        table, shooter, [target], others, system, blast=blast, indirect=indirect,
        elevated=elevated, cache=cache,
    )[0]  # fmt: skip
