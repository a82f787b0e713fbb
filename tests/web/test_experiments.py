"""The experiments page lists the series of a results file (``battle --out``) with their
progress and reports, the same numbers ``oprlab results summary --json`` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from oprlab.cli import main
from oprlab.web.app import create_app


def test_experiments_lists_series_and_their_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lab.duckdb"
    args = ["battle", "gff/shooty-150", "gff/melee-150", "--games", "3", "--seed", "2"]
    assert main([*args, "--jobs", "1", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["results", "summary", str(out), "--json"]) == 0
    summaries = json.loads(capsys.readouterr().out)
    ((sid, summary),) = summaries.items()
    page = TestClient(create_app(results=out)).get("/experiments")
    assert page.status_code == 200
    assert f'id="{sid}"' in page.text
    assert "3 of 3" in page.text and "finished" in page.text
    win_a = summary["win_a"]
    assert f"<td>A wins</td><td>{win_a['estimate']:.3f}</td>" in page.text
    assert f"[{win_a['low']:.3f}, {win_a['high']:.3f}]" in page.text


def test_experiments_without_a_file_says_how_to_give_one() -> None:
    page = TestClient(create_app()).get("/experiments")
    assert page.status_code == 200
    assert "oprlab serve --results FILE.duckdb" in page.text


def test_a_file_that_is_not_results_is_the_command_lines_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.duckdb"
    bad.write_text("not a database")
    page = TestClient(create_app(results=bad)).get("/experiments")
    assert page.status_code == 400
    assert 'id="error">error: ' in page.text
