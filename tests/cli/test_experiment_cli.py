"""``oprlab experiment run|status|report``: a tiny experiment through the real command line,
and bad input as one line with exit code 2, found before any game is played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oprlab.cli

TINY = """
name = "one cell"
seed = 2
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[factors]
commanders = ["random"]
[stop]
seeds = 2
"""


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = oprlab.cli.main(["experiment", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_run_status_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = tmp_path / "e.toml"
    exp.write_text(TINY)
    db = str(tmp_path / "lab.duckdb")
    code, _, err = _main(capsys, "run", str(exp), "--out", db, "--jobs", "1")
    assert code == 0, err
    assert "4 games played" in err and "played every seed (2)" in err
    code, _, err = _main(capsys, "run", str(exp), "--out", db, "--jobs", "1")
    assert code == 0 and "0 games played" in err and "(4 stored before)" in err
    code, out, _ = _main(capsys, "status", str(exp), "--out", db, "--json")
    status = json.loads(out)
    assert code == 0 and status["games"] == 4 and status["cells"][0]["seeds"] == 2
    html, js = tmp_path / "r.html", tmp_path / "r.json"
    code, out, err = _main(
        capsys, "report", str(exp), "--out", db, "--html", str(html), "--json", str(js)
    )
    assert code == 0, err
    report = json.loads(js.read_text())
    assert report["experiment"]["text"] == TINY and report["seeds"]["played"] == 2
    assert report["cells"][0]["games"] == 4 and report["effects"] == []
    assert set(report["experiment"]["versions"]) >= {"gff", "riverside"}
    assert html.read_text().startswith("<!doctype html>")
    games, units = tmp_path / "g.parquet", tmp_path / "u.parquet"
    code, out, err = _main(
        capsys, "export", str(exp), "--out", db, "--parquet", str(games), "--units-parquet",
        str(units),
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("4 games written to")
    import duckdb

    con = duckdb.connect()
    rows = con.execute(f"SELECT cell_number, seat, winner FROM '{games.as_posix()}'").fetchall()
    assert len(rows) == 4 and {r[0] for r in rows} == {1}
    n_units = con.execute(f"SELECT count(*) FROM '{units.as_posix()}'").fetchall()[0][0]
    assert n_units == 4 * sum(u["copies_per_game"] for u in report["units"])


@pytest.mark.parametrize(
    ("body", "args", "message"),
    [
        ("name = 1", (), "e.toml: name: Input should be a valid string"),
        (TINY.replace("gff/melee-150", "no-such-army.txt"), (), "army file not found"),
        (TINY, ("--jobs", "-1"), "--jobs out of range"),
        (TINY, ("--out", "nowhere/lab.duckdb"), "no such folder"),
        (TINY, ("--out", "lab.parquet"), "a .duckdb file"),
    ],
)
def test_bad_input_is_one_line_before_any_game(
    body: str,
    args: tuple[str, ...],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("e.toml").write_text(body)
    out = args if "--out" in args else ("--out", "lab.duckdb", *args)
    code, _, err = _main(capsys, "run", "e.toml", *out)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert err.startswith("error: ")


def test_report_needs_stored_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exp = tmp_path / "e.toml"
    exp.write_text(TINY)
    code, _, err = _main(capsys, "report", str(exp), "--out", str(tmp_path / "none.duckdb"))
    assert code == 2 and "no lab file here" in err
    code, _, err = _main(
        capsys, "report", str(exp), "--out", str(tmp_path / "x.duckdb"), "--html", "/no/dir/r.html"
    )
    assert code == 2 and "no such folder" in err
