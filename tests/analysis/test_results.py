"""Series results in DuckDB: each game stored the moment it ends, nothing finished lost to Ctrl-C,
a crash or a killed process, resumed series playing only the missing games, rows that round-trip,
and summaries read back equal to the ones in memory (DESIGN "Real parts, not toys": results of
sweeps go to DuckDB/Parquet, never lost when a sweep is interrupted)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
import typer
from typer.testing import CliRunner

import oprlab.cli
from oprlab import __version__
from oprlab.analysis import series as series_module
from oprlab.analysis.results import (
    GAME_COLUMNS,
    SERIES_COLUMNS,
    Recording,
    ResultStore,
    content_hash,
    game_from_row,
    load_results,
    play_series_to,
    series_record,
    summarize_results,
)
from oprlab.analysis.series import SeriesSpec, play_one, play_series
from oprlab.cli import battle as battle_cli
from oprlab.cli import results as results_cli
from oprlab.errors import OptionError
from oprlab.game.options import settable
from oprlab.game.play import ENGINE_VERSIONS, GameResult, NotDeployed
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.rng import spawn
from oprlab.table.terrain import generate_table
from tests.game import LINE_TEXT, line, specials

REPO = Path(__file__).resolve().parents[2]


def _spec(seed: int = 7, mechanic: str = "d6") -> SeriesSpec:
    return SeriesSpec(line(), specials(), ("rules", "random"), mechanic, None, seed)


def _fake_game(spec: SeriesSpec, seed: int) -> GameResult:
    """A stand-in for a played game, derived from its seed: the store, not the game, is tested."""
    return GameResult(
        seed=seed,
        system=spec.system,
        mechanic=spec.mechanic,
        winner=(None, 0, 1)[seed % 3],
        objectives=(seed % 4, seed % 5),
        units_left=(seed % 3, seed % 2),
        models_lost=(seed % 7, seed % 6),
        rounds=1 + seed % 4,
        decisions=seed % 97,
        commanders=spec.commanders,
        rules_version=ENGINE_VERSIONS[spec.system],
        rule_options=(("edges", "all"), ("special_moves", bool(seed % 2))),
        not_deployed=(
            (NotDeployed("A3", "Line Squad", 0, 10, 'no spot within 12" of the south edge'),)
            if seed % 2
            else ()
        ),
    )


@pytest.fixture
def fake_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Replace the game with :func:`_fake_game`; yields the seeds played, in order."""
    played: list[int] = []

    def fake(spec: SeriesSpec, seed: int) -> GameResult:
        played.append(seed)
        return _fake_game(spec, seed)

    monkeypatch.setattr(series_module, "play_one", fake)
    yield played


# -- the store ----------------------------------------------------------------------------


def test_rows_round_trip_and_cover_every_game_result_field(tmp_path: Path) -> None:
    """Every GameResult field is stored (tuples as _a/_b columns) and reads back equal, draws
    (winner None) included; the rows come back in game order."""
    spec = _spec()
    path = tmp_path / "r.duckdb"
    with ResultStore(path) as store:
        rec = store.begin(spec, 6)
        games = [_fake_game(spec, s) for s in rec.seeds]
        assert {g.winner for g in games} == {None, 0, 1}
        for g in reversed(games):  # stored out of order, read back in game order
            assert store.append(rec, g)
        assert not store.append(rec, games[0])  # stored once only
        assert store.games(rec.series_id) == games
    columns = {name for name, _ in GAME_COLUMNS}
    for f in dataclasses.fields(GameResult):
        assert (
            f.name in columns
            or {f"{f.name}_a", f"{f.name}_b"} <= columns
            or (f.name == "commanders" and {"commander_a", "commander_b"} <= columns)
            or not f.compare  # commander_revisions: not in a results file yet
        ), f"GameResult.{f.name} has no column in the games table"
    rows = load_results(path)
    assert [game_from_row(r) for r in rows] == games
    assert [r["game_index"] for r in rows] == list(range(6))
    assert list(rows[0]) == [name for name, _ in GAME_COLUMNS]


def test_a_schema_2_file_is_read_and_brought_up_to_date(tmp_path: Path) -> None:
    """A file written before ``not_deployed`` existed (schema 2) reads as no unit left out;
    writing to it adds the column and keeps its games."""
    spec = _spec()
    path = tmp_path / "r.duckdb"
    with ResultStore(path) as store:
        rec = store.begin(spec, 2)
        games = [dataclasses.replace(_fake_game(spec, s), not_deployed=()) for s in rec.seeds]
        store.append(rec, games[0])
    con = duckdb.connect(str(path))
    con.execute("ALTER TABLE games DROP COLUMN not_deployed")
    con.execute("UPDATE oprlab_meta SET value = '2' WHERE key = 'schema'")
    con.close()
    assert [game_from_row(r) for r in load_results(path)] == games[:1]
    with ResultStore(path) as store:
        rec = store.begin(spec, 2, resume=True)
        store.append(rec, games[1])
        assert store.games(rec.series_id) == games
    con = duckdb.connect(str(path), read_only=True)
    assert con.execute("SELECT value FROM oprlab_meta WHERE key = 'schema'").fetchone() == ("3",)
    con.close()


def test_every_row_records_how_to_replay_the_game(tmp_path: Path) -> None:
    """DESIGN (What we take, 2): every saved result records its seed, the ruleset and its
    version, the mechanic with its version and options, and the package version; the armies and
    table by hash. Replaying a stored row's seed gives the stored game."""
    board = generate_table(3)
    spec = dataclasses.replace(_spec(5, "clock-tokens"), table=board)
    stored = play_series_to(tmp_path / "r.duckdb", spec, 2, table_ref="random:3")
    rows = load_results(tmp_path / "r.duckdb")
    mechanic = get_mechanic("clock-tokens")
    for i, row in enumerate(rows):
        assert row["series_id"] == stored.series_id and row["game_index"] == i
        assert row["series_seed"] == 5 and row["seed"] == spawn(5, 2)[i]
        assert row["system"] == "gff" and row["rules_version"] == ENGINE_VERSIONS["gff"]
        assert json.loads(row["rule_options"]) == settable("gff")
        assert row["mechanic"] == "clock-tokens"
        assert row["mechanic_version"] == type(mechanic).version
        assert isinstance(mechanic, Clock)
        assert json.loads(row["mechanic_options"]) == mechanic.options
        assert json.loads(row["mechanic_options"])["tokens"] is True
        assert (row["army_a"], row["army_b"]) == ("Test Line", "Test Specials")
        assert row["army_a_hash"] == content_hash(line()) != row["army_b_hash"]
        assert (row["commander_a"], row["commander_b"]) == ("rules", "random")
        assert row["table_ref"] == "random:3" and row["table_hash"] == content_hash(board)
        assert row["oprlab_version"] == __version__ and row["finished_at"] is not None
        assert play_one(spec, row["seed"]) == game_from_row(row)


def test_summary_from_the_file_equals_the_one_in_memory(tmp_path: Path) -> None:
    """The same games give the same summary, whether read back from the file or kept in
    memory (and the games themselves are those of a plain series)."""
    spec = _spec(3)
    stored = play_series_to(tmp_path / "r.duckdb", spec, 3)
    in_memory = play_series(spec, 3)
    assert stored.result.games == in_memory.games
    assert summarize_results(tmp_path / "r.duckdb") == {stored.series_id: in_memory.summary()}
    assert stored.result.summary() == in_memory.summary()


def test_commander_revisions_are_recorded_and_part_of_the_series(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commanders' revisions (players.base.REVISIONS) are stored with a series and shown in
    its summary, from the file as in memory; a commander whose play changed (its revision
    bumped) starts a new series instead of joining the old one's games."""
    from oprlab.players import base

    spec = _spec(3)
    path = tmp_path / "r.duckdb"
    first = play_series_to(path, spec, 1)
    revisions = [base.REVISIONS["opr"]["rules"], base.REVISIONS["opr"]["random"]]
    assert first.result.summary()["commander_revisions"] == revisions
    assert summarize_results(path)[first.series_id]["commander_revisions"] == revisions
    monkeypatch.setitem(base.REVISIONS["opr"], "rules", "r-bumped")
    second = play_series_to(path, spec, 1)
    assert second.series_id != first.series_id
    assert summarize_results(path)[second.series_id]["commander_revisions"][0] == "r-bumped"


def test_interrupt_after_k_games_keeps_k_and_resume_plays_only_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after 2 of 4 games: the file holds those 2 (series marked interrupted); running
    the same series again with resume plays the other 2 only, and the 4 stored games are the
    games of an uninterrupted series."""
    spec, path = _spec(11), tmp_path / "r.duckdb"
    seen: list[GameResult] = []

    def stop_after_two(game: GameResult) -> None:
        seen.append(game)
        if len(seen) == 2:
            raise KeyboardInterrupt

    first = play_series_to(path, spec, 4, on_game=stop_after_two)
    assert first.result.interrupted and first.played == 2
    assert [g.seed for g in first.result.games] == spawn(11, 4)[:2]
    assert len(load_results(path)) == 2
    (summary,) = summarize_results(path).values()
    assert summary["interrupted"] and summary["games"] == 2
    assert summary == first.result.summary()

    played: list[int] = []
    real = series_module.play_one

    def counting(spec: SeriesSpec, seed: int) -> GameResult:
        played.append(seed)
        return real(spec, seed)

    monkeypatch.setattr(series_module, "play_one", counting)
    second = play_series_to(path, spec, 4, resume=True)
    assert played == spawn(11, 4)[2:]
    assert second.already_stored == 2 and second.played == 2 and not second.result.interrupted
    assert second.result.games == play_series(spec, 4).games
    with ResultStore(path, read_only=True) as store:
        (row,) = store.series()
        assert row["runs"] == 2 and not row["interrupted"] and row["finished_at"] is not None
        assert [r["run"] for r in store.rows()] == [1, 1, 2, 2]


def test_ctrl_c_that_lands_inside_a_write_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_games: list[int]
) -> None:
    """A Ctrl-C that arrives while a finished game is being written (before it is committed)
    still leaves that game in the file: the run stores it on the way out."""
    real = ResultStore.append
    calls = 0

    def interrupted_write(self: ResultStore, rec: Recording, game: GameResult) -> bool:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt  # before the insert
        return real(self, rec, game)

    monkeypatch.setattr(ResultStore, "append", interrupted_write)
    stored = play_series_to(tmp_path / "r.duckdb", _spec(), 5)
    assert stored.result.interrupted
    assert fake_games == spawn(7, 5)[:3]
    assert [r["seed"] for r in load_results(tmp_path / "r.duckdb")] == spawn(7, 5)[:3]


def test_a_crash_keeps_the_finished_games_and_marks_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An error in game 3 propagates, and the 2 games before it are in the file; the series is
    marked interrupted, with its end time."""
    seeds = spawn(7, 5)

    def crash_on_third(spec: SeriesSpec, seed: int) -> GameResult:
        if seed == seeds[2]:
            raise RuntimeError("engine bug")
        return _fake_game(spec, seed)

    monkeypatch.setattr(series_module, "play_one", crash_on_third)
    with pytest.raises(RuntimeError, match="engine bug"):
        play_series_to(tmp_path / "r.duckdb", _spec(), 5)
    assert [r["seed"] for r in load_results(tmp_path / "r.duckdb")] == seeds[:2]
    with ResultStore(tmp_path / "r.duckdb", read_only=True) as store:
        (row,) = store.series()
        assert row["interrupted"] and row["finished_at"] is not None


KILL_SCRIPT = """
import os, signal, sys
from oprlab.analysis.results import play_series_to
from oprlab.analysis.series import SeriesSpec
from oprlab.units.load import parse_army
army = parse_army(sys.argv[2], "test")
done = []
def on_game(game):
    done.append(game)
    if len(done) == 2:
        os.kill(os.getpid(), signal.SIGKILL)  # no cleanup, no flush: a crash
play_series_to(sys.argv[1], SeriesSpec(army, army, ("random", "random"), seed=4), 6,
               on_game=on_game)
"""


def test_a_killed_process_loses_no_finished_game(tmp_path: Path) -> None:
    """SIGKILL after 2 games (no Python cleanup at all): both games are in the file, since each
    is committed when it ends; the run, which never ended, stays marked interrupted."""
    path = tmp_path / "r.duckdb"
    proc = subprocess.run(
        [sys.executable, "-c", KILL_SCRIPT, str(path), LINE_TEXT],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == -9, proc.stderr
    rows = load_results(path)
    assert [r["seed"] for r in rows] == spawn(4, 6)[:2]
    with ResultStore(path, read_only=True) as store:
        (row,) = store.series()
        assert row["interrupted"] and row["finished_at"] is None


def test_resume_is_needed_to_add_to_a_stored_series(tmp_path: Path, fake_games: list[int]) -> None:
    """Playing a stored series again without resume is refused (it would only duplicate games);
    with resume, a longer series adds only its new games and a shorter one plays nothing."""
    path = tmp_path / "r.duckdb"
    play_series_to(path, _spec(), 3)
    with pytest.raises(OptionError, match="already holds 3 games of this series"):
        play_series_to(path, _spec(), 3)
    fake_games.clear()
    longer = play_series_to(path, _spec(), 5, resume=True)
    assert fake_games == spawn(7, 5)[3:] and len(longer.result.games) == 5
    fake_games.clear()
    shorter = play_series_to(path, _spec(), 2, resume=True)
    assert fake_games == [] and shorter.already_stored == 2 and shorter.played == 0
    assert [g.seed for g in shorter.result.games] == spawn(7, 2)


def test_other_specs_are_other_series_in_the_same_file(
    tmp_path: Path, fake_games: list[int]
) -> None:
    """A series is known by everything that decides its games: another seed, mechanic or army
    is another series, stored beside the first with its own summary."""
    path = tmp_path / "r.duckdb"
    ids = {
        play_series_to(path, spec, 2).series_id
        for spec in (
            _spec(),
            _spec(8),
            _spec(mechanic="clock"),
            dataclasses.replace(_spec(), army_b=line()),
        )
    }
    assert len(ids) == 4
    summaries = summarize_results(path)
    assert set(summaries) == ids
    assert {s["mechanic"] for s in summaries.values()} == {"d6", "clock"}
    assert all(s["games"] == 2 for s in summaries.values())


def test_content_hash_is_the_same_in_every_process() -> None:
    """Terrain types are a frozenset of strings, whose order changes with PYTHONHASHSEED; the
    hash of a table (and of an army) must not."""
    code = (
        "from oprlab.analysis.results import content_hash\n"
        "from oprlab.table.terrain import generate_table\n"
        "from tests.game import specials\n"
        "print(content_hash(generate_table(3)), content_hash(specials()))"
    )
    here = f"{content_hash(generate_table(3))} {content_hash(specials())}"
    for hash_seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            cwd=REPO,
            env=os.environ | {"PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert out == here
    assert content_hash(generate_table(3)) != content_hash(generate_table(4))


def test_parquet_export_round_trips(tmp_path: Path, fake_games: list[int]) -> None:
    """The games table exported to Parquet reads back row for row, one series or all."""
    path = tmp_path / "r.duckdb"
    first = play_series_to(path, _spec(), 3)
    play_series_to(path, _spec(9), 2)
    with ResultStore(path, read_only=True) as store:
        assert store.export_parquet(tmp_path / "all.parquet") == 5
        assert store.export_parquet(tmp_path / "one.parquet", first.series_id) == 3
    assert load_results(tmp_path / "all.parquet") == load_results(path)
    one = load_results(tmp_path / "one.parquet")
    assert one == load_results(path, first.series_id)
    assert [game_from_row(r) for r in one] == first.result.games


def test_bad_files_are_refused_with_a_clear_error(tmp_path: Path) -> None:
    """A missing file, a file that is not DuckDB, a DuckDB file that oprlab did not write, and
    Parquet as the file to write to: each one clear OptionError naming the file."""
    with pytest.raises(OptionError, match="no results file here"):
        load_results(tmp_path / "missing.duckdb")
    text = tmp_path / "notes.duckdb"
    text.write_text("not a database", encoding="utf-8")
    with pytest.raises(OptionError, match="cannot open the results file") as info:
        load_results(text)
    assert str(text) in str(info.value)
    other = tmp_path / "other.duckdb"
    duckdb.connect(str(other)).close()
    with pytest.raises(OptionError, match="not an oprlab results file"):
        summarize_results(other)
    with pytest.raises(OptionError, match="exported to Parquet"):
        play_series_to(tmp_path / "r.parquet", _spec(), 1)
    with pytest.raises(OptionError, match="no Parquet file here"):
        load_results(tmp_path / "missing.parquet")


def test_docs_show_every_column() -> None:
    """docs/results.md documents the schema: each column of both tables is named there."""
    doc = (REPO / "docs" / "results.md").read_text(encoding="utf-8")
    for name, _ in GAME_COLUMNS + SERIES_COLUMNS:
        assert f"`{name}`" in doc, name


# -- the command line -----------------------------------------------------------------------

runner = CliRunner(env={"COLUMNS": "200"})


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    battle_cli.register(app)
    results_cli.register(app)
    return app


@pytest.fixture
def army_file(tmp_path: Path) -> str:
    path = tmp_path / "line.txt"
    path.write_text(LINE_TEXT, encoding="utf-8")
    return str(path)


def _invoke(*args: str) -> tuple[str, str]:
    result = runner.invoke(_app(), list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout, result.stderr


def test_battle_out_writes_as_it_goes_and_says_where(
    tmp_path: Path, army_file: str, fake_games: list[int]
) -> None:
    """`battle --games N --out FILE` stores the series and says where; the same command again is
    refused, with --resume it plays only the missing games and says so."""
    out = tmp_path / "r.duckdb"
    base = ("battle", army_file, army_file, "--seed", "2", "--jobs", "1", "--out", str(out))
    stdout, stderr = _invoke(*base, "--games", "3")
    assert f"storing each game in {out}" in stderr
    assert "3 games of series" in stdout and str(out) in stdout
    assert len(load_results(out)) == 3
    result = runner.invoke(_app(), [*base, "--games", "3"])
    assert isinstance(result.exception, OptionError) and "--resume" in str(result.exception)
    fake_games.clear()
    stdout, stderr = _invoke(*base, "--games", "5", "--resume", "--json")
    assert "3 of 5 games already stored" in stderr and "playing the other 2" in stderr
    data = json.loads(stdout)
    assert data["games"] == 5 and len(fake_games) == 2
    assert data["results"] == {
        "path": str(out),
        "series_id": data["results"]["series_id"],
        "stored_before": 3,
        "played": 2,
    }
    summaries = json.loads(_invoke("results", "summary", str(out), "--json")[0])
    series_id = data["results"]["series_id"]
    assert summaries == {series_id: {k: v for k, v in data.items() if k != "results"}}


def test_a_stored_game_replays_from_the_command_line(tmp_path: Path, army_file: str) -> None:
    """docs/results.md "Replay one game": `battle A B --seed SEED` with a stored row's seed,
    mechanic and commanders plays that game again."""
    out = tmp_path / "r.duckdb"
    _invoke(
        "battle", army_file, army_file, "--seed", "6", "--games", "2", "--jobs", "1",
        "--commander-b", "random", "--mechanic", "clock", "--out", str(out),
    )  # fmt: skip
    row = load_results(out)[1]
    stdout, _ = _invoke(
        "battle", army_file, army_file, "--seed", str(row["seed"]), "--json",
        "--mechanic", row["mechanic"], "--commander-a", row["commander_a"],
        "--commander-b", row["commander_b"],
    )  # fmt: skip
    replayed = json.loads(stdout)
    assert replayed.pop("commander_revisions") == ["r2", "r1"]  # rules, random
    stored = game_from_row(row).to_json()
    stored.pop("commander_revisions")  # a results file does not store them yet
    assert replayed == stored


def test_results_summary_and_export_commands(
    tmp_path: Path, army_file: str, fake_games: list[int]
) -> None:
    """`oprlab results summary FILE` shows each series with intervals; `export --parquet` writes
    the games; an unknown series id is one clear error."""
    out = tmp_path / "r.duckdb"
    _invoke(
        "battle",
        army_file,
        army_file,
        "--seed",
        "2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--out",
        str(out),
    )
    stdout, _ = _invoke("results", "summary", str(out))
    assert "2 games" in stdout and "95% interval" in stdout and "A wins" in stdout
    assert "2 of 2 games stored, 1 run(s), last run finished" in stdout
    parquet = tmp_path / "games.parquet"
    stdout, _ = _invoke("results", "export", str(out), "--parquet", str(parquet))
    assert f"2 games written to {parquet}" in stdout
    assert load_results(parquet) == load_results(out)
    result = runner.invoke(_app(), ["results", "summary", str(out), "--series", "nope"])
    assert isinstance(result.exception, OptionError) and "no series with this id" in str(
        result.exception
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--resume",), "--resume continues a series stored in a file"),
        (("--out", "r.parquet", "--games", "2"), "exported to Parquet"),
        (("--out", "r.duckdb", "--log", "x.json"), "--log writes one game"),
        (("--out", "r.duckdb", "--system", "wwpd"), "expected a mapping with keys system"),
    ],
)
def test_bad_out_options_are_one_line_and_exit_2(
    args: tuple[str, ...],
    message: str,
    army_file: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Misused --out/--resume: one line naming the problem, exit code 2, no traceback."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(oprlab.cli, "app", _app())
    code = oprlab.cli.main(["battle", army_file, army_file, *args])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_keyed_dice_make_another_series_and_the_stream_keeps_its_id(tmp_path: Path) -> None:
    """A series with keyed dice records the design and is another series (other games) than
    the stream's; the stream's record has no dice key, so its stored series keep their ids;
    the keyed games are ``play_game``'s keyed games."""
    spec = _spec(5)
    keyed = dataclasses.replace(spec, dice="keyed")
    assert "dice" not in series_record(spec) and series_record(keyed)["dice"] == "keyed"
    path = tmp_path / "r.duckdb"
    plain, other = play_series_to(path, spec, 2), play_series_to(path, keyed, 2)
    assert plain.series_id != other.series_id
    seeds = spawn(5, 2)
    assert [g.decisions for g in other.result.games] == [
        play_one(keyed, s).decisions for s in seeds
    ]
