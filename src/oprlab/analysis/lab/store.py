"""The lab's games in a DuckDB file, keyed by experiment hash, cell, seed and seat.

Each game is inserted (and committed) the moment it ends, with ``INSERT OR IGNORE`` on its key,
so an interrupted run loses no finished game, a rerun plays only what is missing, and two runs
never store a game twice. The tables carry a ``lab_`` prefix, so a lab file and a results file
of ``battle --out`` never read each other's rows. docs/experiments.md shows the schema.

May import duckdb, files, errors and the lab's design; the analysis layer's file I/O.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from oprlab.analysis.lab.attribution import UnitRecord
from oprlab.analysis.lab.design import Cell, GameRecord
from oprlab.analysis.lab.model import Experiment
from oprlab.analysis.lab.tally import (
    GAME_MEASURES,
    CellTally,
    Hist,
    PairTally,
    SeedTable,
    Tally,
)
from oprlab.analysis.results import connect
from oprlab.errors import OptionError
from oprlab.files import atomic_path
from oprlab.game.systems import VERSIONS
from oprlab.version import __version__

__all__ = ["LAB_SCHEMA", "LabStore"]

#: Bumped when a lab table changes shape; a file of another shape is refused, not misread.
LAB_SCHEMA = "lab-3"  # lab-2: lab_units (per-unit points lost and destroyed); lab-3: revisions
#: Earlier schemas, for a clearer refusal: their games cannot say which commanders played them.
_OLD_SCHEMAS = ("lab-1", "lab-2")

_GAME_COLUMNS = (
    ("experiment", "VARCHAR NOT NULL"),
    ("cell", "VARCHAR NOT NULL"),
    ("seed_index", "INTEGER NOT NULL"),
    ("seat", "TINYINT NOT NULL"),
    ("game_seed", "BIGINT NOT NULL"),
    ("winner", "TINYINT"),
    ("first", "TINYINT NOT NULL"),
    ("objectives_a", "INTEGER NOT NULL"),
    ("objectives_b", "INTEGER NOT NULL"),
    ("models_lost_a", "INTEGER NOT NULL"),
    ("models_lost_b", "INTEGER NOT NULL"),
    ("points_lost_a", "DOUBLE NOT NULL"),
    ("points_lost_b", "DOUBLE NOT NULL"),
    ("rounds", "INTEGER NOT NULL"),
    ("decisions", "INTEGER NOT NULL"),
    ("lead_changes", "INTEGER NOT NULL"),
    ("decided_last_round", "BOOLEAN NOT NULL"),
    ("handicap", "INTEGER NOT NULL"),
    ("revision_a", "VARCHAR NOT NULL"),
    ("revision_b", "VARCHAR NOT NULL"),
    ("finished_at", "TIMESTAMP NOT NULL"),
)

_DDL = (
    "CREATE TABLE IF NOT EXISTS lab_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS lab_experiments (experiment VARCHAR PRIMARY KEY, "
    "name VARCHAR NOT NULL, file VARCHAR NOT NULL, seed BIGINT NOT NULL, "
    "versions VARCHAR NOT NULL, oprlab_version VARCHAR NOT NULL, created TIMESTAMP NOT NULL)",
    "CREATE TABLE IF NOT EXISTS lab_cells (experiment VARCHAR NOT NULL, cell VARCHAR NOT NULL, "
    "position INTEGER NOT NULL, label VARCHAR NOT NULL, levels VARCHAR NOT NULL, "
    "armies VARCHAR NOT NULL, PRIMARY KEY (experiment, cell))",
    "CREATE TABLE IF NOT EXISTS lab_games ("
    + ", ".join(f"{n} {t}" for n, t in _GAME_COLUMNS)
    + ", PRIMARY KEY (experiment, cell, seed_index, seat))",
    "CREATE TABLE IF NOT EXISTS lab_units (experiment VARCHAR NOT NULL, cell VARCHAR NOT NULL, "
    "seed_index INTEGER NOT NULL, seat TINYINT NOT NULL, army TINYINT NOT NULL, "
    "position INTEGER NOT NULL, name VARCHAR NOT NULL, cost INTEGER NOT NULL, "
    "points_lost DOUBLE NOT NULL, points_destroyed DOUBLE NOT NULL, "
    "PRIMARY KEY (experiment, cell, seed_index, seat, army, position))",
)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class LabStore:
    """An open lab file; every :meth:`add` is committed before it returns."""

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        if read_only and not self.path.is_file():
            raise OptionError(
                "no lab file here", value=str(path), expected="a file written by experiment run"
            )
        self._con = connect(
            self.path,
            read_only=read_only,
            what="the lab file",
            expected="a DuckDB file that no other run has open",
            where="--out",
        )
        try:
            if not read_only:
                for statement in _DDL:
                    self._con.execute(statement)
                self._con.execute(
                    "INSERT OR IGNORE INTO lab_meta VALUES ('schema', ?)", [LAB_SCHEMA]
                )
            self._check_schema()
        except BaseException:
            self._con.close()
            raise

    def _check_schema(self) -> None:
        try:
            rows = self._con.execute("SELECT value FROM lab_meta WHERE key = 'schema'").fetchall()
        except duckdb.Error:
            rows = []
        if rows and rows[0][0] in _OLD_SCHEMAS:
            raise OptionError(
                f"a lab file of schema {rows[0][0]}, written before each game recorded its "
                "commanders' revisions (so a rerun cannot tell whose play its games are)",
                value=str(self.path),
                expected=f"a new --out file (schema {LAB_SCHEMA}); rerun the experiment into it",
                where="--out",
            )
        if not rows or rows[0][0] != LAB_SCHEMA:
            raise OptionError(
                "not a lab file of this version",
                value=str(self.path),
                expected=f"a DuckDB file written by `oprlab experiment run` (schema {LAB_SCHEMA})",
                where="--out",
            )

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> LabStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def register(self, exp_hash: str, exp: Experiment, cells: Sequence[Cell]) -> None:
        """Record the experiment and its cells (once; a rerun leaves them as they are)."""
        self._con.execute(
            "INSERT OR IGNORE INTO lab_experiments VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                exp_hash,
                exp.name,
                json.dumps(exp.model_dump(), sort_keys=True),
                exp.seed,
                json.dumps(VERSIONS, sort_keys=True),
                __version__,
                _now(),
            ],
        )
        for c in cells:
            self._con.execute(
                "INSERT OR IGNORE INTO lab_cells VALUES (?, ?, ?, ?, ?, ?)",
                [
                    exp_hash,
                    c.key,
                    c.index,
                    c.label(),
                    json.dumps(c.levels, sort_keys=True),
                    json.dumps([a.name for a in c.armies]),
                ],
            )

    def add(self, exp_hash: str, game: GameRecord) -> bool:
        """Store one game (committed at once); False if it was stored already."""
        return self.add_many(exp_hash, [game])[0]

    def add_many(self, exp_hash: str, games: Sequence[GameRecord]) -> list[bool]:
        """Store games in one statement (one transaction: all or none), committed before it
        returns; for each, whether it was new (False: stored already, left as it was)."""
        if not games:
            return []
        now = _now()
        rows = [_row(exp_hash, g, now) for g in games]
        marks = "(" + ", ".join("?" * len(rows[0])) + ")"
        self._con.begin()
        try:
            new = self._con.execute(
                f"INSERT OR IGNORE INTO lab_games VALUES {', '.join([marks] * len(rows))} "
                "RETURNING cell, seed_index, seat",
                [v for row in rows for v in row],
            ).fetchall()
            added = {(str(c), int(i), int(s)) for c, i, s in new}
            units = [
                (exp_hash, g.cell, g.seed_index, g.seat, *_unit_row(u))
                for g in games
                if (g.cell, g.seed_index, g.seat) in added
                for u in g.units
            ]
            if units:
                unit_marks = ", ".join(["(" + ", ".join("?" * 10) + ")"] * len(units))
                self._con.execute(
                    f"INSERT OR IGNORE INTO lab_units VALUES {unit_marks}",
                    [v for row in units for v in row],
                )
            self._con.commit()
        except BaseException:
            self._con.rollback()
            raise
        return [(g.cell, g.seed_index, g.seat) in added for g in games]

    def done(self, exp_hash: str) -> set[tuple[str, int, int]]:
        """The (cell, seed index, seat) of every stored game of the experiment."""
        rows = self._con.execute(
            "SELECT cell, seed_index, seat FROM lab_games WHERE experiment = ?", [exp_hash]
        ).fetchall()
        return {(str(c), int(i), int(s)) for c, i, s in rows}

    def games(self, exp_hash: str, cells: Iterable[str] | None = None) -> list[GameRecord]:
        """The stored games of the experiment, by cell, seed and seat."""
        rows = self._con.execute(
            "SELECT * EXCLUDE (experiment, finished_at) FROM lab_games WHERE experiment = ? "
            "ORDER BY cell, seed_index, seat",
            [exp_hash],
        ).fetchall()
        wanted = None if cells is None else set(cells)
        return [_record(r) for r in rows if wanted is None or r[0] in wanted]

    def unit_totals(self, exp_hash: str) -> list[dict[str, Any]]:
        """Per cell, army and unit name: games fielded, copies, and the sums (and sums of
        squares, per game) of points lost and destroyed: what the report's per-unit table
        needs, summed by DuckDB however many games are stored."""
        rows = self._con.execute(
            "WITH per_game AS (SELECT cell, seed_index, seat, army, name, cost, count(*) AS k, "
            "sum(points_lost) AS lost, sum(points_destroyed) AS destroyed FROM lab_units "
            "WHERE experiment = ? GROUP BY ALL) "
            "SELECT cell, army, name, cost, count(*), sum(k), sum(lost), sum(lost * lost), "
            "sum(destroyed), sum(destroyed * destroyed) FROM per_game GROUP BY ALL "
            "ORDER BY cell, army, name, cost",
            [exp_hash],
        ).fetchall()
        keys: tuple[str, ...] = ("cell", "army", "name", "cost", "games", "copies", "lost")
        keys += ("lost2", "destroyed", "destroyed2")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def unit_counts(self, exp_hash: str) -> list[tuple[str, int, int, int, str, int]]:
        """``(cell, seed_index, seat, army, unit name, copies)`` of every stored game: each
        side's list, for the unit-value fit."""
        rows = self._con.execute(
            "SELECT cell, seed_index, seat, army, name, count(*) FROM lab_units "
            "WHERE experiment = ? GROUP BY ALL ORDER BY ALL",
            [exp_hash],
        ).fetchall()
        return [(str(c), int(i), int(s), int(a), str(n), int(k)) for c, i, s, a, n, k in rows]

    def export_parquet(
        self, exp_hash: str, out: str | os.PathLike[str], units: str | os.PathLike[str] | None
    ) -> tuple[int, int]:
        """Write the experiment's games (each with its cell's position, label and levels) to
        ``out``, and its per-unit rows to ``units`` if given, as Parquet files written whole or
        not at all; returns the rows written (games, units)."""
        games = self._con.sql(
            "SELECT c.position + 1 AS cell_number, c.label AS cell_label, c.levels AS "
            "cell_levels, g.* FROM lab_games g JOIN lab_cells c USING (experiment, cell) "
            "WHERE g.experiment = $h ORDER BY c.position, g.seed_index, g.seat",
            params={"h": exp_hash},
        )
        with atomic_path(out, "--parquet") as temp:
            games.write_parquet(str(temp))
        n_units = 0
        if units is not None:
            rows = self._con.sql(
                "SELECT * FROM lab_units WHERE experiment = $h "
                "ORDER BY cell, seed_index, seat, army, position",
                params={"h": exp_hash},
            )
            with atomic_path(units, "--units-parquet") as temp:
                rows.write_parquet(str(temp))
            n_units = self.count_units(exp_hash)
        return self.count(exp_hash), n_units

    def count_units(self, exp_hash: str) -> int:
        rows = self._con.execute(
            "SELECT count(*) FROM lab_units WHERE experiment = ?", [exp_hash]
        ).fetchall()
        return int(rows[0][0])

    def cell_totals(self, exp_hash: str) -> list[dict[str, Any]]:
        """Per cell, summed by DuckDB: games, seeds with both seats, army A's wins, draws,
        mean score, the first player's score, the mean margins and rounds. What a status or a
        dashboard needs, as fast for a million games as for a hundred."""
        rows = self._con.execute(
            "SELECT cell, count(*), 0, count(*) FILTER (WHERE winner = 0), "
            "count(*) FILTER (WHERE winner IS NULL), "
            "avg(CASE WHEN winner IS NULL THEN 0.5 WHEN winner = 0 THEN 1.0 ELSE 0.0 END), "
            "avg(CASE WHEN winner IS NULL THEN 0.5 WHEN winner = first THEN 1.0 ELSE 0.0 END), "
            "avg(objectives_a - objectives_b), avg(points_lost_b - points_lost_a), avg(rounds) "
            "FROM lab_games WHERE experiment = ? GROUP BY cell ORDER BY cell",
            [exp_hash],
        ).fetchall()
        seeds = dict(
            self._con.execute(
                "SELECT cell, count(*) FROM (SELECT cell FROM lab_games WHERE experiment = ? "
                "GROUP BY cell, seed_index HAVING count(*) = 2) GROUP BY cell",
                [exp_hash],
            ).fetchall()
        )
        rows = [(r[0], r[1], int(seeds.get(r[0], 0)), *r[3:]) for r in rows]
        keys: tuple[str, ...] = ("cell", "games", "seeds", "wins_a", "draws", "score_a")
        keys += ("first_player_score",)
        keys += ("objective_margin", "points_margin", "rounds")
        return [
            {
                k: (round(float(v), 6) if isinstance(v, float) else v)
                for k, v in zip(keys, r, strict=True)
            }
            for r in rows
        ]

    def tally(
        self,
        exp_hash: str,
        cells: Sequence[str],
        pairs: Sequence[tuple[str, str]],
        *,
        with_seeds: bool = False,
    ) -> Tally:
        """The report's counts, summed by DuckDB (:mod:`oprlab.analysis.lab.tally`): per cell
        and measure, the games per value; per cell, the seeds per score (seeds with both seats);
        per (variant, baseline) pair, the common seeds per score pair and per four margins (a
        join on the seed and the seat). Python sees one row per distinct value, never a game.
        ``with_seeds``: also each cell's seeds (index, score, handicap), for a stopping rule's
        looks and the fair-points fits."""
        found: dict[str, dict[str, list[tuple[float, int]]]] = {c: {} for c in cells}
        for cell, measure, pairs_ in self._measure_counts(exp_hash):
            found.setdefault(cell, {})[measure] = pairs_
        # One scan for everything per seed: a temporary table of (cell, seed) rows that the
        # seed scores, every paired join, each cell's seeds and the game seeds then read.
        self._con.execute(f"CREATE OR REPLACE TEMP TABLE {_SEED_TABLE} AS {_SEEDS}", [exp_hash])
        try:
            return self._seed_counts(found, pairs, with_seeds)
        finally:
            self._con.execute(f"DROP TABLE IF EXISTS {_SEED_TABLE}")

    def _seed_counts(
        self,
        found: dict[str, dict[str, list[tuple[float, int]]]],
        pairs: Sequence[tuple[str, str]],
        with_seeds: bool,
    ) -> Tally:
        """:meth:`tally` from the per-game counts ``found`` and the seed table."""
        seed_rows = self._con.execute(
            f"SELECT cell, score, count(*) FROM {_SEED_TABLE} WHERE n = 2 GROUP BY ALL "
            "ORDER BY cell, score"
        ).fetchall()
        seed_hists: dict[str, list[tuple[float, int]]] = {}
        for cell, score, k in seed_rows:
            seed_hists.setdefault(cell, []).append((float(score), int(k)))
        out = {
            c: CellTally(
                sum(k for _, k in m.get("winner", [])),
                {name: _hist(m.get(name, [])) for name in GAME_MEASURES},
                _hist(seed_hists.get(c, [])),
            )
            for c, m in found.items()
        }
        paired = {pair: self._pair(*pair) for pair in pairs}
        seeds: dict[str, SeedTable] = {}
        if with_seeds:
            got = self._con.execute(
                f"SELECT cell, seed_index, score, handicap FROM {_SEED_TABLE} WHERE n = 2 "
                "ORDER BY cell, seed_index"
            ).fetchnumpy()
            keys = np.asarray(got["cell"], dtype=object)
            for c in found:
                mask = keys == c
                seeds[c] = SeedTable(
                    np.asarray(got["seed_index"][mask], dtype=np.int64),
                    np.asarray(got["score"][mask], dtype=float),
                    np.asarray(got["handicap"][mask], dtype=np.int64),
                )
        stored = self._con.execute(
            f"SELECT seed_index, any_value(game_seed) AS game_seed FROM {_SEED_TABLE} "
            "GROUP BY seed_index"
        ).fetchnumpy()
        indices = np.asarray(stored["seed_index"], dtype=np.int64)
        played = int(indices.max()) + 1 if indices.size else 0
        game_seeds = np.full(played, -1, dtype=np.int64)
        game_seeds[indices] = np.asarray(stored["game_seed"], dtype=np.int64)
        return Tally(out, paired, played, seeds, game_seeds)

    def _measure_counts(self, exp_hash: str) -> list[tuple[str, str, list[tuple[float, int]]]]:
        """``(cell, measure, [(value, games), ...])`` of every measure of :data:`GAME_MEASURES`,
        values ascending, in two scans: the games counted per combination of the columns of
        few values (result, first player, objective margin, rounds, lead changes, late
        decision; a few thousand combinations a cell), which numpy turns into six measures,
        and the three points measures counted at once by GROUPING SETS."""
        got = self._con.execute(
            "SELECT cell, coalesce(winner, 2) AS w, first, objectives_a - objectives_b AS om, "
            "rounds, lead_changes, CAST(decided_last_round AS INTEGER) AS late, "
            "count(*) AS k FROM lab_games WHERE experiment = ? GROUP BY ALL",
            [exp_hash],
        ).fetchnumpy()
        out: list[tuple[str, str, list[tuple[float, int]]]] = []
        cells = np.asarray(got["cell"], dtype=object)
        w = np.asarray(got["w"], dtype=float)
        by_measure = {
            "winner": w,
            "first_score": np.where(w == 2, 0.5, (w == np.asarray(got["first"])).astype(float)),
            "objective_margin": np.asarray(got["om"], dtype=float),
            "rounds": np.asarray(got["rounds"], dtype=float),
            "lead_changes": np.asarray(got["lead_changes"], dtype=float),
            "decided_last_round": np.asarray(got["late"], dtype=float),
        }
        k = np.asarray(got["k"], dtype=np.int64)
        for cell in sorted(set(cells.tolist())):
            mask = cells == cell
            for measure, values in by_measure.items():
                uniq, inverse = np.unique(values[mask], return_inverse=True)
                counts = np.bincount(inverse, weights=k[mask]).astype(np.int64)
                out.append((cell, measure, list(zip(uniq.tolist(), counts.tolist(), strict=True))))
        points = (
            ("points_margin", "points_lost_b - points_lost_a"),
            ("lost_a", "points_lost_a"),
            ("lost_b", "points_lost_b"),
        )
        columns = ", ".join(f"{expr} AS p{i}" for i, (_, expr) in enumerate(points))
        rows = self._con.execute(
            f"WITH g AS (SELECT cell, {columns} FROM lab_games WHERE experiment = ?) "
            "SELECT cell, grouping(p0, p1, p2), p0, p1, p2, count(*) FROM g "
            "GROUP BY GROUPING SETS ((cell, p0), (cell, p1), (cell, p2)) ORDER BY ALL",
            [exp_hash],
        ).fetchall()
        found: dict[tuple[str, str], list[tuple[float, int]]] = {}
        for row in rows:  # grouping(p0, p1, p2): a bit set for each column not grouped on
            i = [int(row[1]) >> (2 - j) & 1 for j in range(3)].index(0)
            found.setdefault((row[0], points[i][0]), []).append((float(row[2 + i]), int(row[5])))
        out += [(cell, measure, pairs) for (cell, measure), pairs in found.items()]
        return out

    def _pair(self, variant: str, baseline: str) -> PairTally:
        """A variant and its baseline on their common seeds (both seats played at the same
        handicap: the handicap search moves each cell's on its own), joined on the seed and the
        handicap in :meth:`tally`'s seed table."""
        seat = (
            f"SELECT seed_index, handicap, score, m0, m1 FROM {_SEED_TABLE} "
            "WHERE cell = ? AND n = 2"
        )
        rows = self._con.execute(
            f"WITH v AS ({seat}), b AS ({seat}) SELECT grouping(v.m0) AS scores, v.score, "
            "b.score, v.m0, v.m1, b.m0, b.m1, count(*) FROM v JOIN b USING (seed_index, handicap) "
            "GROUP BY GROUPING SETS ((v.score, b.score), (v.m0, v.m1, b.m0, b.m1)) ORDER BY ALL",
            [variant, baseline],
        ).fetchall()
        scores = [(r[1], r[2], r[7]) for r in rows if r[0]]
        margins = [(*r[3:7], r[7]) for r in rows if not r[0]]
        return PairTally(_hist_rows(scores, 2), _hist_rows(margins, 4))

    def count(self, exp_hash: str) -> int:
        rows = self._con.execute(
            "SELECT count(*) FROM lab_games WHERE experiment = ?", [exp_hash]
        ).fetchall()
        return int(rows[0][0])


#: Each (cell, seed) of an experiment: its games (``n``; 2 when both seats are played), army
#: A's seed score (the mean of its seats), each seat's objective margin, seat 0's handicap and
#: the game seed. :meth:`LabStore.tally` makes it a temporary table, read by every count.
_SEEDS = (
    "SELECT cell, seed_index, count(*) AS n, sum(CASE WHEN winner IS NULL THEN 0.5 "
    "WHEN winner = 0 THEN 1.0 ELSE 0.0 END) / 2 AS score, "
    "max(objectives_a - objectives_b) FILTER (WHERE seat = 0) AS m0, "
    "max(objectives_a - objectives_b) FILTER (WHERE seat = 1) AS m1, "
    "min(handicap) FILTER (WHERE seat = 0) AS handicap, any_value(game_seed) AS game_seed "
    "FROM lab_games WHERE experiment = ? GROUP BY cell, seed_index"
)
_SEED_TABLE = "lab_seed_rows"


def _hist(rows: Sequence[tuple[float, int]]) -> Hist:
    return Hist(
        np.array([v for v, _ in rows], dtype=float), np.array([k for _, k in rows], dtype=np.int64)
    )


def _hist_rows(rows: Sequence[Sequence[Any]], width: int) -> Hist:
    return Hist(
        np.array([r[:width] for r in rows], dtype=float).reshape(-1, width),
        np.array([r[width] for r in rows], dtype=np.int64),
    )


def _unit_row(u: UnitRecord) -> tuple[Any, ...]:
    return (u.army, u.position, u.name, u.cost, u.points_lost, u.points_destroyed)


def _row(exp_hash: str, game: GameRecord, now: datetime) -> list[Any]:
    return [
        exp_hash,
        game.cell,
        game.seed_index,
        game.seat,
        game.game_seed,
        game.winner,
        game.first,
        *game.objectives,
        *game.models_lost,
        *game.points_lost,
        game.rounds,
        game.decisions,
        game.lead_changes,
        game.decided_last_round,
        game.handicap,
        *game.revisions,
        now,
    ]


def _record(r: Sequence[Any]) -> GameRecord:
    return GameRecord(
        cell=str(r[0]),
        seed_index=int(r[1]),
        seat=int(r[2]),
        game_seed=int(r[3]),
        winner=None if r[4] is None else int(r[4]),
        first=int(r[5]),
        objectives=(int(r[6]), int(r[7])),
        models_lost=(int(r[8]), int(r[9])),
        points_lost=(float(r[10]), float(r[11])),
        rounds=int(r[12]),
        decisions=int(r[13]),
        lead_changes=int(r[14]),
        decided_last_round=bool(r[15]),
        handicap=int(r[16]),
        revisions=(str(r[17]), str(r[18])),
    )
