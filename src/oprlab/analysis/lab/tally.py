"""What the report needs from an experiment's games, as counts: per cell, how many games took
each value of each measure; per effect, how many seeds took each pair of scores.

A report over a million games should not hold a million games in Python. Every number of the
report's cells and effects is a function of these counts (means, t intervals, Wilson rates,
bootstrap spreads: :mod:`oprlab.analysis.lab.stats`), and their size grows with the distinct
values, not with the games. The lab store counts them in DuckDB SQL
(:meth:`LabStore.tally`); :func:`tally_games` counts the same from games in Python, the
reference a test holds the SQL to.

No I/O; numpy only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from oprlab.analysis.lab.design import GameRecord

__all__ = [
    "GAME_MEASURES",
    "CellTally",
    "Hist",
    "PairTally",
    "SeedTable",
    "Tally",
    "game_values",
    "hist",
    "seed_table",
    "tally_games",
]

#: The per-game measures counted for each cell, in the order of :func:`game_values`.
GAME_MEASURES = (
    "winner",  # 0 army A, 1 army B, 2 a draw
    "first_score",  # the score of the army that went first
    "objective_margin",  # objectives A - B
    "points_margin",  # points destroyed A - B (points lost B - A)
    "lost_a",
    "lost_b",
    "rounds",
    "lead_changes",
    "decided_last_round",  # 1 or 0
)


@dataclass(frozen=True)
class Hist:
    """Distinct values (ascending) and how many times each was taken; rows of a matrix for
    tuples (lexicographic order)."""

    values: npt.NDArray[np.float64]
    counts: npt.NDArray[np.int64]

    @property
    def n(self) -> int:
        return int(self.counts.sum())


def hist(values: Iterable[float] | npt.NDArray[np.float64]) -> Hist:
    """Count the values (rows, for a 2-d array) the way SQL ``GROUP BY ... ORDER BY`` does."""
    x = np.asarray(list(values) if not isinstance(values, np.ndarray) else values, dtype=float)
    if x.ndim == 2:
        found, counts = np.unique(x, axis=0, return_counts=True)
    else:
        found, counts = np.unique(x, return_counts=True)
    return Hist(found.astype(float), counts.astype(np.int64))


@dataclass(frozen=True)
class SeedTable:
    """One cell's seeds with both seats played: index, army A's seed score, the handicap."""

    index: npt.NDArray[np.int64]
    score: npt.NDArray[np.float64]
    handicap: npt.NDArray[np.int64]

    def scores(self, below: int | None = None) -> dict[int, float]:
        """Army A's score per seed (index under ``below``, if given)."""
        keep = slice(None) if below is None else self.index < below
        return dict(zip(self.index[keep].tolist(), self.score[keep].tolist(), strict=True))

    def pairs(self) -> dict[int, tuple[float, int]]:
        """Army A's seed score and the seed's handicap, per seed."""
        return {
            i: (s, h)
            for i, s, h in zip(
                self.index.tolist(), self.score.tolist(), self.handicap.tolist(), strict=True
            )
        }


@dataclass(frozen=True)
class CellTally:
    """One cell's counts: per measure of :data:`GAME_MEASURES`, and of seed scores."""

    games: int
    measures: Mapping[str, Hist]
    seed_scores: Hist  # seeds with both seats played


@dataclass(frozen=True)
class PairTally:
    """A variant cell against its baseline on the seeds both played in both seats: counts of
    (variant score, baseline score), and of the four objective margins (variant seat 0, seat
    1, baseline seat 0, seat 1) for the paired bootstrap of the spread."""

    scores: Hist
    margins: Hist


@dataclass
class Tally:
    """An experiment's counts: per cell, per (variant, baseline) pair, the seeds played
    (highest index + 1), and, when a stopping rule's looks or a fit need them, each cell's
    seeds."""

    cells: dict[str, CellTally]
    pairs: dict[tuple[str, str], PairTally]
    played: int
    seeds: dict[str, SeedTable] = field(default_factory=dict)
    #: the stored game seed of each seed index below ``played`` (-1: none stored)
    game_seeds: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))

    def seed_summary(self, experiment_seed: int) -> dict[str, Any]:
        """The seeds played, short at any size: the seed indices with a stored game as ranges
        (``"0-999"``), their count, and the first and last index with its game seed. A game
        seed is always ``child_seed(experiment seed, index)`` (``design.play_cell_game`` plays
        and stores that, and a test checks it), so the ranges keep the whole list."""
        from oprlab.rng import child_seed

        stored = np.flatnonzero(self.game_seeds >= 0).tolist()
        out: dict[str, Any] = {"indices": index_ranges(stored), "count": len(stored)}
        if stored:
            for key, i in (("first", stored[0]), ("last", stored[-1])):
                out[key] = {"index": i, "game_seed": child_seed(experiment_seed, i)}
        return out


def index_ranges(indices: Sequence[int]) -> str:
    """Sorted indices as ranges: ``[0, 1, 2, 5, 7, 8]`` is ``"0-2, 5, 7-8"``."""
    parts: list[str] = []
    run: list[int] = []
    for i in indices:
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            parts.append(_run_text(run))
        run = [i]
    if run:
        parts.append(_run_text(run))
    return ", ".join(parts)


def _run_text(run: Sequence[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def game_values(g: GameRecord) -> tuple[float, ...]:
    """A game's value of each measure of :data:`GAME_MEASURES`."""
    return (
        2.0 if g.winner is None else float(g.winner),
        0.5 if g.winner is None else float(g.winner == g.first),
        float(g.objectives[0] - g.objectives[1]),
        g.points_lost[1] - g.points_lost[0],
        g.points_lost[0],
        g.points_lost[1],
        float(g.rounds),
        float(g.lead_changes),
        float(g.decided_last_round),
    )


def _by_seed(games: Sequence[GameRecord]) -> dict[int, dict[int, GameRecord]]:
    seats: dict[int, dict[int, GameRecord]] = defaultdict(dict)
    for g in games:
        seats[g.seed_index][g.seat] = g
    return {i: s for i, s in sorted(seats.items()) if len(s) == 2}


def seed_table(games: Sequence[GameRecord]) -> SeedTable:
    """A cell's seeds with both seats played, from its games."""
    seeds = _by_seed(games)
    return SeedTable(
        np.array(list(seeds), dtype=np.int64),
        np.array([(s[0].score_a + s[1].score_a) / 2 for s in seeds.values()], dtype=float),
        np.array([s[0].handicap for s in seeds.values()], dtype=np.int64),
    )


def tally_games(
    games: Sequence[GameRecord],
    cells: Iterable[str],
    pairs: Iterable[tuple[str, str]],
    *,
    with_seeds: bool = True,
) -> Tally:
    """The counts of :class:`Tally` from games, in Python (the reference for the SQL)."""
    by_cell: dict[str, list[GameRecord]] = {c: [] for c in cells}
    for g in games:
        by_cell.setdefault(g.cell, []).append(g)
    out: dict[str, CellTally] = {}
    for key, gs in by_cell.items():
        rows = np.array([game_values(g) for g in gs], dtype=float).reshape(-1, len(GAME_MEASURES))
        measures = {m: hist(rows[:, k]) for k, m in enumerate(GAME_MEASURES)}
        seeds = seed_table(gs)
        out[key] = CellTally(len(gs), measures, hist(seeds.score))
    paired: dict[tuple[str, str], PairTally] = {}
    for v, b in pairs:
        sv, sb = _by_seed(by_cell.get(v, [])), _by_seed(by_cell.get(b, []))
        # a seed pairs only when both cells played it at the same handicap (the handicap search
        # moves each cell's handicap on its own; elsewhere every handicap is 0)
        common = sorted(i for i in set(sv) & set(sb) if sv[i][0].handicap == sb[i][0].handicap)

        def score(s: dict[int, GameRecord]) -> float:
            return (s[0].score_a + s[1].score_a) / 2

        def margin(g: GameRecord) -> float:
            return float(g.objectives[0] - g.objectives[1])

        scores = [(score(sv[i]), score(sb[i])) for i in common]
        margins = [
            (margin(sv[i][0]), margin(sv[i][1]), margin(sb[i][0]), margin(sb[i][1])) for i in common
        ]
        paired[(v, b)] = PairTally(
            hist(np.array(scores, dtype=float).reshape(-1, 2)),
            hist(np.array(margins, dtype=float).reshape(-1, 4)),
        )
    played = max((g.seed_index + 1 for g in games), default=0)
    tables = {k: seed_table(gs) for k, gs in by_cell.items()} if with_seeds else {}
    game_seeds = np.full(played, -1, dtype=np.int64)
    for g in games:
        game_seeds[g.seed_index] = g.game_seed
    return Tally(out, paired, played, tables, game_seeds)
