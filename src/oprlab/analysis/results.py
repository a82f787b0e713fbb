"""Results of series kept in a DuckDB file: one row per game, written the moment the game ends.

Each finished game is committed on its own, so Ctrl-C, a crash or a killed worker loses no game
that had finished (DESIGN: results of sweeps are never lost). Every row says how to replay it and
with what: the series seed and the game's seed, the rule system and the mechanic with their
versions and options, both armies (name and a hash of the list), the commanders, the table (how
it was chosen and a hash of it) and the oprlab version. A series is known by a hash of all that
(its *series id*); playing the same series into the same file again with ``resume=True`` plays
only the games not stored yet. ``docs/results.md`` shows the schema and example queries.

May import: analysis.series, game.play (GameResult), mechanics (names, versions, options), rng,
files, duckdb. The file I/O of the analysis layer lives here and nowhere below.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from pathlib import Path
from typing import Any

import duckdb
import numpy as np

from oprlab.analysis.series import (
    SeriesResult,
    SeriesSpec,
    play_series,
    spec_revisions,
    summarize_games,
)
from oprlab.errors import OptionError
from oprlab.files import atomic_path
from oprlab.game.play import GameResult, NotDeployed
from oprlab.game.systems import find_system
from oprlab.mechanics import get_mechanic
from oprlab.rng import iter_seeds, spawn
from oprlab.version import __version__

#: Bumped when a table changes shape; a file with another schema is refused, not misread.
SCHEMA_VERSION = "3"
#: Older schemas this version still reads (and, when writing, brings up to date): 2 lacks
#: ``games.not_deployed`` (read as no unit left out).
OLDER_SCHEMAS = ("2",)

#: The ``games`` table: one row per finished game, in the order of the columns here.
GAME_COLUMNS: tuple[tuple[str, str], ...] = (
    ("series_id", "VARCHAR NOT NULL"),
    ("game_index", "INTEGER NOT NULL"),
    ("run", "INTEGER NOT NULL"),
    ("series_seed", "BIGINT NOT NULL"),
    ("seed", "BIGINT NOT NULL"),
    ("system", "VARCHAR NOT NULL"),
    ("rules_version", "VARCHAR NOT NULL"),
    ("rule_options", "VARCHAR NOT NULL"),
    ("mechanic", "VARCHAR NOT NULL"),
    ("mechanic_version", "VARCHAR NOT NULL"),
    ("mechanic_options", "VARCHAR NOT NULL"),
    ("winner", "TINYINT"),
    ("objectives_a", "INTEGER NOT NULL"),
    ("objectives_b", "INTEGER NOT NULL"),
    ("units_left_a", "INTEGER NOT NULL"),
    ("units_left_b", "INTEGER NOT NULL"),
    ("models_lost_a", "INTEGER NOT NULL"),
    ("models_lost_b", "INTEGER NOT NULL"),
    ("rounds", "INTEGER NOT NULL"),
    ("decisions", "INTEGER NOT NULL"),
    ("commander_a", "VARCHAR NOT NULL"),
    ("commander_b", "VARCHAR NOT NULL"),
    ("army_a", "VARCHAR NOT NULL"),
    ("army_b", "VARCHAR NOT NULL"),
    ("army_a_hash", "VARCHAR NOT NULL"),
    ("army_b_hash", "VARCHAR NOT NULL"),
    ("table_ref", "VARCHAR NOT NULL"),
    ("table_hash", "VARCHAR"),
    ("oprlab_version", "VARCHAR NOT NULL"),
    ("finished_at", "TIMESTAMP NOT NULL"),
    ("not_deployed", "VARCHAR NOT NULL DEFAULT '[]'"),
)

#: The ``series`` table: one row per series (a spec), updated at the start and end of each run.
SERIES_COLUMNS: tuple[tuple[str, str], ...] = (
    ("series_id", "VARCHAR PRIMARY KEY"),
    ("spec", "VARCHAR NOT NULL"),
    ("series_seed", "BIGINT NOT NULL"),
    ("system", "VARCHAR NOT NULL"),
    ("mechanic", "VARCHAR NOT NULL"),
    ("commander_a", "VARCHAR NOT NULL"),
    ("commander_b", "VARCHAR NOT NULL"),
    ("army_a", "VARCHAR NOT NULL"),
    ("army_b", "VARCHAR NOT NULL"),
    ("games_planned", "INTEGER NOT NULL"),
    ("runs", "INTEGER NOT NULL"),
    ("started_at", "TIMESTAMP NOT NULL"),
    ("finished_at", "TIMESTAMP"),
    ("interrupted", "BOOLEAN NOT NULL"),
    ("oprlab_version", "VARCHAR NOT NULL"),
)

_DDL = (
    "CREATE TABLE IF NOT EXISTS oprlab_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    "CREATE TABLE IF NOT EXISTS series (" + ", ".join(f"{n} {t}" for n, t in SERIES_COLUMNS) + ")",
    "CREATE TABLE IF NOT EXISTS games ("
    + ", ".join(f"{n} {t}" for n, t in GAME_COLUMNS)
    + ", PRIMARY KEY (series_id, game_index))",
)


def _plain(value: Any) -> Any:
    """``value`` as JSON data in one canonical form (sets sorted, enums by value), for hashing.

    ``repr`` is not enough: the order of a frozenset of strings changes from process to process.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return _plain(value.value)
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, set | frozenset):
        return sorted((_plain(v) for v in value), key=_dump)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, np.generic):
        return _plain(value.item())
    return repr(value)


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def content_hash(value: Any) -> str:
    """A short, stable hash of a value's content (an army, a table): the same list, the same
    hash, in any process and whichever file format it was read from."""
    return hashlib.sha256(_dump(_plain(value)).encode("utf-8")).hexdigest()[:16]


def series_record(spec: SeriesSpec, *, table_ref: str | None = None) -> dict[str, Any]:
    """Everything that decides a series' games, as JSON data (stored in ``series.spec``).

    Args:
        spec: the series.
        table_ref: how the table was chosen, for people (``open``, ``random:SEED``,
            ``file:PATH``); it does not enter the series id, the table's hash does.
    """
    mechanic = get_mechanic(spec.mechanic)
    options = getattr(mechanic, "options", {})
    table_hash = None if spec.table is None else content_hash(spec.table)
    rules = find_system(spec.system)
    return {
        **({"dice": spec.dice} if spec.dice != "stream" else {}),  # stream series keep their ids
        "seed": spec.seed,
        "system": spec.system,
        "rules_version": rules.version,
        "rule_options": _plain(rules.readings() if spec.options is None else spec.options),
        "mechanic": spec.mechanic,
        "mechanic_version": type(mechanic).version,
        "mechanic_options": _plain(options if isinstance(options, Mapping) else {}),
        "armies": [
            {"name": army.name, "points": getattr(army, "points", None), "hash": content_hash(army)}
            for army in (spec.army_a, spec.army_b)
        ],
        "commanders": list(spec.commanders),
        # Part of the series id: games of a commander whose play changed (its revision bumped)
        # start a new series instead of joining the old one's games.
        "commander_revisions": spec_revisions(spec),
        "table": {
            "ref": table_ref or ("open" if spec.table is None else "custom"),
            "hash": table_hash,
        },
        "oprlab": __version__,
    }


def series_id(record: Mapping[str, Any]) -> str:
    """The id of a series: a hash of its record, less the human-readable table reference."""
    key = dict(record) | {"table": {"hash": record["table"]["hash"]}}
    return content_hash(key)


def _now() -> datetime:
    """UTC, without a zone: DuckDB's plain TIMESTAMP, which reads back without extra packages."""
    return datetime.now(UTC).replace(tzinfo=None)


def connect(
    path: Path,
    *,
    read_only: bool,
    what: str,
    expected: str,
    where: str | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open a DuckDB file; one clear line (not DuckDB's traceback) when it cannot be opened,
    e.g. while another run holds its lock."""
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.Error as exc:
        raise OptionError(
            f"cannot open {what} ({str(exc).splitlines()[0]})",
            value=str(path),
            expected=expected,
            where=where,
        ) from None


@dataclass
class Recording:
    """One run of a series into a store: its id, its games, and which seeds are stored.

    The game seeds are not listed up front (a series may have a million games): a game's index
    is found by walking the series' seeds, in order, as far as needed (games finish in seed
    order, so the walk is done once).
    """

    series_id: str
    record: dict[str, Any]
    run: int
    seed: int
    games: int
    stored: set[int]
    #: Games of this run's seeds that were in the file before the run began.
    already_stored: int = 0
    _index: dict[int, int] = field(default_factory=dict)
    _walk: Iterator[tuple[int, int]] | None = None

    @property
    def seeds(self) -> list[int]:
        """Every game seed of the run, in order (builds the whole list)."""
        return spawn(self.seed, self.games)

    def index_of(self, seed: int) -> int:
        """The game index of ``seed`` in this series."""
        if seed in self._index:
            return self._index[seed]
        if self._walk is None:
            self._walk = enumerate(iter_seeds(self.seed, self.games))
        for i, s in self._walk:
            self._index[s] = i
            if s == seed:
                return i
        raise KeyError(seed)


class ResultStore:
    """A DuckDB results file, open for one run (or read-only for reading).

    Use as a context manager; every :meth:`append` is committed before it returns.
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.path = Path(path)
        if read_only and not self.path.is_file():
            raise OptionError(
                "no results file here", value=str(path), expected="a file written by --out"
            )
        if not read_only and self.path.suffix.lower() == ".parquet":
            raise OptionError(
                "results are written to a DuckDB file, then exported to Parquet",
                value=str(path),
                expected="a .duckdb file, then `oprlab results export FILE --parquet OUT`",
                where="--out",
            )
        self._con = connect(
            self.path,
            read_only=read_only,
            what="the results file",
            expected="a DuckDB file written by oprlab that no other run has open",
        )
        try:
            if not read_only:
                for statement in _DDL:
                    self._con.execute(statement)
                self._con.execute(
                    "INSERT OR IGNORE INTO oprlab_meta VALUES ('schema', ?)", [SCHEMA_VERSION]
                )
            self._check_schema(read_only=read_only)
        except BaseException:
            self._con.close()
            raise

    def _check_schema(self, *, read_only: bool) -> None:
        try:
            row = self._one("SELECT value FROM oprlab_meta WHERE key = 'schema'")
        except duckdb.Error:
            row = None
        if row is not None and row[0] in OLDER_SCHEMAS and not read_only:
            self._con.execute(
                "ALTER TABLE games ADD COLUMN IF NOT EXISTS not_deployed VARCHAR DEFAULT '[]'"
            )
            self._con.execute(
                "UPDATE oprlab_meta SET value = ? WHERE key = 'schema'", [SCHEMA_VERSION]
            )
            return
        if row is None or (row[0] != SCHEMA_VERSION and row[0] not in OLDER_SCHEMAS):
            raise OptionError(
                "not an oprlab results file of this version",
                value=str(self.path),
                expected=f"a file written by oprlab with results schema {SCHEMA_VERSION}",
            )

    def _one(self, sql: str, params: Any = ()) -> Any:
        """The first row of a query, or None (fetching all: DuckDB refuses the next statement
        while a result is left half read)."""
        rows = self._con.execute(sql, params).fetchall()
        return rows[0] if rows else None

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def begin(
        self,
        spec: SeriesSpec,
        games: int,
        *,
        table_ref: str | None = None,
        resume: bool = False,
    ) -> Recording:
        """Start (or, with ``resume``, continue) a series of ``games`` games in this file.

        Raises:
            OptionError: the file already holds games of this series and ``resume`` is off
                (playing them again would only duplicate them).
        """
        record = series_record(spec, table_ref=table_ref)
        sid = series_id(record)
        indexed = {
            int(seed): int(index)
            for (seed, index) in self._con.execute(
                "SELECT seed, game_index FROM games WHERE series_id = ?", [sid]
            ).fetchall()
        }
        stored = set(indexed)
        if stored and not resume:
            raise OptionError(
                f"the file already holds {len(stored)} games of this series ({sid})",
                value=str(self.path),
                expected="--resume to play only the games not stored yet, or another --out file",
                where="--out",
            )
        prior = self._one("SELECT runs FROM series WHERE series_id = ?", [sid])
        now = _now()
        run = 1 if prior is None else int(prior[0]) + 1
        if prior is None:
            self._con.execute(
                f"INSERT INTO series VALUES ({', '.join('?' * len(SERIES_COLUMNS))})",
                [
                    sid,
                    _dump(record),
                    spec.seed,
                    spec.system,
                    spec.mechanic,
                    *spec.commanders,
                    spec.army_a.name,
                    spec.army_b.name,
                    games,
                    run,
                    now,
                    None,
                    True,  # until the run ends; a killed run stays marked interrupted
                    __version__,
                ],
            )
        else:
            self._con.execute(
                "UPDATE series SET games_planned = greatest(games_planned, ?), runs = ?, "
                "finished_at = NULL, interrupted = TRUE WHERE series_id = ?",
                [games, run, sid],
            )
        return Recording(
            sid,
            record,
            run,
            spec.seed,
            games,
            stored,
            already_stored=sum(i < games for i in indexed.values()),
        )

    def append(self, rec: Recording, game: GameResult) -> bool:
        """Store one finished game (committed at once); False if it was stored already."""
        if game.seed in rec.stored:
            return False
        r = rec.record
        row = [
            rec.series_id,
            rec.index_of(game.seed),
            rec.run,
            r["seed"],
            game.seed,
            game.system,
            game.rules_version or r["rules_version"],
            json.dumps(dict(game.rule_options)),  # the options' own order, as GameResult has it
            game.mechanic,
            r["mechanic_version"],
            _dump(r["mechanic_options"]),
            game.winner,
            *game.objectives,
            *game.units_left,
            *game.models_lost,
            game.rounds,
            game.decisions,
            *game.commanders,
            r["armies"][0]["name"],
            r["armies"][1]["name"],
            r["armies"][0]["hash"],
            r["armies"][1]["hash"],
            r["table"]["ref"],
            r["table"]["hash"],
            __version__,
            _now(),
            _dump([n.to_json() for n in game.not_deployed]),
        ]
        self._con.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(row))})", row)
        rec.stored.add(game.seed)
        return True

    def end(self, rec: Recording, *, interrupted: bool) -> None:
        """Record the end of a run: when, and whether it stopped early."""
        self._con.execute(
            "UPDATE series SET finished_at = ?, interrupted = ? WHERE series_id = ?",
            [_now(), interrupted, rec.series_id],
        )

    # -- reading ---------------------------------------------------------------------------

    def _dicts(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self._con.execute(sql, list(params))
        names = [d[0] for d in cursor.description or ()]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def rows(self, series: str | None = None) -> list[dict[str, Any]]:
        """The ``games`` rows (of one series, or all), in series and game order."""
        where = "" if series is None else " WHERE series_id = ?"
        return self._dicts(
            f"SELECT * FROM games{where} ORDER BY series_id, game_index",
            () if series is None else (series,),
        )

    def series(self) -> list[dict[str, Any]]:
        """The ``series`` rows, oldest first."""
        return self._dicts("SELECT * FROM series ORDER BY started_at, series_id")

    def games(self, series: str) -> list[GameResult]:
        """The stored games of one series as :class:`GameResult`, in game order."""
        return [game_from_row(r) for r in self.rows(series)]

    def summaries(self) -> dict[str, dict[str, Any]]:
        """Each series' summary, the same as :meth:`SeriesResult.summary` for the same games."""
        return {s["series_id"]: _summary(s, self.games(s["series_id"])) for s in self.series()}

    def export_parquet(self, out: str | os.PathLike[str], series: str | None = None) -> int:
        """Write the ``games`` rows (of one series, or all) to one Parquet file; returns rows."""
        where = "" if series is None else " WHERE series_id = $series"
        params = {} if series is None else {"series": series}
        rows = self._con.sql(
            f"SELECT * FROM games{where} ORDER BY series_id, game_index", params=params
        )
        with atomic_path(out, "--parquet") as temp:  # whole or absent, never half written
            rows.write_parquet(str(temp))
        count = self._one(f"SELECT count(*) FROM games{where}", params)
        return 0 if count is None else int(count[0])


def game_from_row(row: Mapping[str, Any]) -> GameResult:
    """A stored row back as the :class:`GameResult` that was stored."""
    return GameResult(
        seed=int(row["seed"]),
        system=str(row["system"]),
        mechanic=str(row["mechanic"]),
        winner=None if row["winner"] is None else int(row["winner"]),
        objectives=(int(row["objectives_a"]), int(row["objectives_b"])),
        units_left=(int(row["units_left_a"]), int(row["units_left_b"])),
        models_lost=(int(row["models_lost_a"]), int(row["models_lost_b"])),
        rounds=int(row["rounds"]),
        decisions=int(row["decisions"]),
        commanders=(str(row["commander_a"]), str(row["commander_b"])),
        rules_version=str(row["rules_version"]),
        rule_options=tuple(json.loads(row["rule_options"]).items()),
        not_deployed=tuple(NotDeployed(**n) for n in json.loads(row.get("not_deployed") or "[]")),
    )


def _summary(series: Mapping[str, Any], games: Sequence[GameResult]) -> dict[str, Any]:
    record = json.loads(series["spec"])
    return summarize_games(
        games,
        seed=int(series["series_seed"]),
        system=str(series["system"]),
        mechanic=str(series["mechanic"]),
        commanders=[str(series["commander_a"]), str(series["commander_b"])],
        armies=[str(series["army_a"]), str(series["army_b"])],
        interrupted=bool(series["interrupted"]),
        # Files written before revisions were recorded have none: shown as unknown, not guessed.
        commander_revisions=record.get("commander_revisions", ["", ""]),
    )


def load_results(path: str | os.PathLike[str], series: str | None = None) -> list[dict[str, Any]]:
    """The game rows of a results file (DuckDB, or a Parquet file exported from one)."""
    if Path(path).suffix.lower() == ".parquet":
        if not Path(path).is_file():
            raise OptionError("no Parquet file here", value=str(path), expected="a .parquet file")
        con = duckdb.connect()
        try:
            where = "" if series is None else " WHERE series_id = ?"
            cursor = con.execute(
                f"SELECT * FROM read_parquet(?){where} ORDER BY series_id, game_index",
                [str(path)] + ([] if series is None else [series]),
            )
            names = [d[0] for d in cursor.description or ()]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
        finally:
            con.close()
    with ResultStore(path, read_only=True) as store:
        return store.rows(series)


def summarize_results(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """Each stored series' summary (by series id), as :meth:`SeriesResult.summary` gives it."""
    with ResultStore(path, read_only=True) as store:
        return store.summaries()


@dataclass(frozen=True)
class StoredSeries:
    """A series played into a file: every stored game of it (earlier runs too), and counts."""

    path: Path
    series_id: str
    result: SeriesResult
    already_stored: int
    played: int


def play_series_to(
    path: str | os.PathLike[str],
    spec: SeriesSpec,
    games: int,
    *,
    n_jobs: int = 1,
    cluster: str | None = None,
    resume: bool = False,
    table_ref: str | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    on_start: Callable[[Recording], None] | None = None,
) -> StoredSeries:
    """Play a series and store each game the moment it finishes.

    With ``resume``, games of the same series already in the file are not played again (their
    seeds are skipped). Ctrl-C stops early, keeps every finished game in the file and marks the
    series interrupted; any other error does the same and then propagates.

    Args:
        path: the DuckDB file (created if missing).
        on_game: called after each game is stored (a progress bar).
        on_start: called once the file knows what is stored, before any game is played.
    """
    with ResultStore(path) as store:
        rec = store.begin(spec, games, table_ref=table_ref, resume=resume)
        if on_start:
            on_start(rec)
        played = SeriesResult(spec, interrupted=True)

        def record(game: GameResult) -> None:
            store.append(rec, game)
            if on_game:
                on_game(game)

        try:
            played = play_series(
                spec, games, n_jobs=n_jobs, on_game=record, skip=set(rec.stored), cluster=cluster
            )
        finally:
            for game in played.games:  # a Ctrl-C that landed inside a write: store it now
                store.append(rec, game)
            store.end(rec, interrupted=played.interrupted)
        mine = [game_from_row(r) for r in store.rows(rec.series_id) if int(r["game_index"]) < games]
        return StoredSeries(
            store.path,
            rec.series_id,
            SeriesResult(spec, mine, played.interrupted),
            rec.already_stored,
            len(played.games),
        )


__all__: Sequence[str] = [
    "GAME_COLUMNS",
    "SERIES_COLUMNS",
    "Recording",
    "ResultStore",
    "StoredSeries",
    "content_hash",
    "game_from_row",
    "load_results",
    "play_series_to",
    "series_id",
    "series_record",
    "summarize_results",
]
