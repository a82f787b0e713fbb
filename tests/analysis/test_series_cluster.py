"""Series on a Dask cluster (DESIGN "Real parts, not toys": parallel sweeps use joblib locally and
a Dask cluster when asked, `--cluster ADDRESS`): the same seeded games as the joblib path, the
finished games kept on Ctrl-C, and a cluster that cannot play refused in one line."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from distributed import LocalCluster

import oprlab.cli
from oprlab.analysis import series as series_module
from oprlab.analysis.results import load_results
from oprlab.analysis.series import SeriesResult, SeriesSpec, dask_backend, play_series
from oprlab.cli.battle import register
from oprlab.errors import OptionError
from oprlab.game.play import GameResult
from oprlab.rng import spawn
from oprlab.units.load import load_army

ARMIES = ("gff/shooty-150", "gff/melee-150")


def _spec(seed: int = 5) -> SeriesSpec:
    return SeriesSpec(load_army(ARMIES[0]), load_army(ARMIES[1]), seed=seed)


@pytest.fixture(scope="module")
def joblib_games() -> list[GameResult]:
    """Three games of shooty-150 vs melee-150 on two local joblib processes."""
    return play_series(_spec(), 3, n_jobs=2).games


@pytest.fixture
def empty_scheduler() -> Iterator[str]:
    """An in-process Dask scheduler with no worker attached."""
    # distributed is untyped (as in oprlab.analysis.series, which makes its LocalCluster alike)
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=0, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _root_app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    register(app)
    return app


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_local_cluster_plays_the_joblib_games(joblib_games: list[GameResult]) -> None:
    """`cluster="local"`: the games go through joblib's Dask backend and come back the same as
    on local processes, in seed order (each game is seeded alone)."""
    on_cluster = play_series(_spec(), 3, cluster="local")
    assert not on_cluster.interrupted
    assert on_cluster.games == joblib_games
    assert [g.seed for g in on_cluster.games] == spawn(5, 3)


def test_cli_cluster_local_stores_the_joblib_games(
    joblib_games: list[GameResult],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`oprlab battle A B --games 3 --cluster local --out FILE`: the summary and the stored games
    equal those of the joblib path for the same seed; it says where it played."""
    out = tmp_path / "r.duckdb"
    monkeypatch.setattr(oprlab.cli, "app", _root_app())
    args = ["battle", *ARMIES, "--games", "3", "--seed", "5", "--json"]
    assert oprlab.cli.main([*args, "--cluster", "local", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "playing on the Dask cluster local, workers: 1" in captured.err
    on_cluster = json.loads(captured.out)
    assert oprlab.cli.main([*args, "--jobs", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in on_cluster.items() if k != "results"} == local
    assert local == SeriesResult(_spec(), joblib_games).summary()
    stored = {(r["seed"], r["winner"], r["decisions"]) for r in load_results(out)}
    assert stored == {(g.seed, g.winner, g.decisions) for g in joblib_games}


def test_ctrl_c_on_the_cluster_keeps_the_finished_games() -> None:
    """Ctrl-C after the first game on the cluster: the series stops, keeps that game, and is
    marked interrupted."""
    seen: list[GameResult] = []

    def stop(game: GameResult) -> None:
        seen.append(game)
        raise KeyboardInterrupt

    series = play_series(_spec(9), 4, cluster="local", on_game=stop)
    assert series.interrupted and series.games == seen
    assert [g.seed for g in series.games] == spawn(9, 4)[:1]


@pytest.mark.parametrize("address", ["unreachable", "not an address::x"])
def test_a_bad_address_is_one_line_and_exit_2(
    address: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No scheduler at the address (within a short connect timeout), or no address at all: one
    line naming the address, exit code 2, no traceback."""
    if address == "unreachable":
        address = f"tcp://127.0.0.1:{_free_port()}"
    monkeypatch.setattr(series_module, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(oprlab.cli, "app", _root_app())
    code = oprlab.cli.main(["battle", *ARMIES, "--games", "2", "--cluster", address])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: --cluster: cannot reach the Dask scheduler")
    assert repr(address) in lines[0]


def test_a_cluster_without_workers_is_refused(empty_scheduler: str) -> None:
    """A scheduler with no worker would wait forever: refused after the timeout, naming it."""
    with (
        pytest.raises(OptionError, match="has no worker") as info,
        dask_backend(empty_scheduler, timeout=0.5),
    ):
        pass  # pragma: no cover - never entered
    assert empty_scheduler in str(info.value)


def test_workers_of_another_oprlab_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers that would play with another oprlab version are refused, naming the versions,
    before any game is played."""
    monkeypatch.setattr(series_module, "_oprlab_version", lambda: "0.0.1")
    with (
        pytest.raises(OptionError, match="another oprlab version") as info,
        dask_backend("local"),
    ):
        pass  # pragma: no cover - never entered
    assert "0.0.1" in str(info.value)


def _profiling(dask_worker: object) -> bool:
    return "profile" in getattr(dask_worker, "periodic_callbacks", {})


def test_the_local_cluster_runs_no_statistical_profiler() -> None:
    """`--cluster local`'s worker samples no stacks: Dask's profiler keeps a profile of every
    second for 1,000 seconds, which grew a lab worker by about 8 MiB per 100 games (issue 15
    item 6, docs/experiments.md "Worker memory")."""
    with dask_backend("local") as client:
        assert list(client.run(_profiling).values()) == [False]
