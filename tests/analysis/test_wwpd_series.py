"""WWPD (seed 004) series take the same path as GFF and Riverside (issue 12): played by
``play.play_game`` through the system, run in series (joblib and a Dask cluster), stored game by
game in DuckDB, resumed, summarised, and each stored game replays from its seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oprlab.cli
from oprlab.analysis.results import ResultStore, play_series_to, summarize_results
from oprlab.analysis.series import SeriesSpec, play_one, play_series
from oprlab.game.systems import find_system
from oprlab.units.formats import army_format

FORCE = "wwpd/colonial"


def _spec(seed: int = 3) -> SeriesSpec:
    force = army_format(find_system("wwpd").army_format).load(FORCE)
    return SeriesSpec(force, force, ("rules", "random"), "wwpd", None, seed, "wwpd")


def test_a_wwpd_series_stores_resumes_and_replays(tmp_path: Path) -> None:
    spec = _spec()
    out = tmp_path / "wwpd.duckdb"
    first = play_series_to(out, spec, 2)
    assert first.played == 2 and first.already_stored == 0
    second = play_series_to(out, spec, 3, resume=True)
    assert second.played == 1 and second.already_stored == 2
    in_memory = play_series(spec, 3)
    assert second.result.games == in_memory.games  # stored rows read back as played
    (summary,) = summarize_results(out).values()
    assert summary == in_memory.summary() | {"interrupted": False}
    assert summary["system"] == "wwpd" and summary["mechanic"] == "wwpd"
    with ResultStore(out, read_only=True) as store:
        rows = store.rows()
    assert {r["rules_version"] for r in rows} == {find_system("wwpd").version}
    assert json.loads(rows[0]["rule_options"])["pinning"] == "leadership"
    assert play_one(spec, int(rows[2]["seed"])) == second.result.games[2]  # replays alone


def test_battle_wwpd_series_with_out_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`oprlab battle --system wwpd --games N --out FILE` then `oprlab results summary FILE`."""
    out = tmp_path / "r.duckdb"
    args = ["battle", FORCE, FORCE, "--system", "wwpd", "--games", "2", "--seed", "1"]
    assert oprlab.cli.main([*args, "--out", str(out), "--jobs", "1", "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["system"] == "wwpd" and played["results"]["played"] == 2
    assert oprlab.cli.main(["results", "summary", str(out), "--json"]) == 0
    stored = json.loads(capsys.readouterr().out)
    assert stored[played["results"]["series_id"]]["win_a"] == played["win_a"]


def test_a_wwpd_series_plays_the_same_games_on_a_dask_cluster() -> None:
    """`--cluster`: the same seeded games as in this process."""
    spec = _spec(seed=8)
    assert play_series(spec, 2, cluster="local").games == play_series(spec, 2).games
