"""The experiments page's balance-lab experiments (issue 16 "Experiments"): the lab files of
the served directory listed with their status, each report as ``oprlab experiment report``
writes it, a running experiment's progress from its progress file, and ids only from the page
(anything else is a 404 with one ``error:`` line)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oprlab.analysis.lab import progress_file
from oprlab.analysis.lab.progress_file import ProgressFile
from oprlab.analysis.lab.store import LabStore
from oprlab.cli import main
from oprlab.web.app import create_app

TEXT = """
name = "tiny lab"
question = "Does the clock move army A's score?"
seed = 5
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[factors]
mechanic = ["d6", "clock"]
commanders = ["random"]
[stop]
seeds = 2
"""


@pytest.fixture(scope="module")
def lab_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with one lab file (2 cells x 2 seeds x 2 seats = 8 games), a file that is
    no database and the experiment file itself."""
    d = tmp_path_factory.mktemp("experiments")
    (d / "tiny.toml").write_text(TEXT)
    out = d / "lab.duckdb"
    assert main(["experiment", "run", str(d / "tiny.toml"), "--out", str(out), "--jobs", "1"]) == 0
    (d / "junk.duckdb").write_text("not a database")
    return d


@pytest.fixture(scope="module")
def client(lab_dir: Path) -> TestClient:
    return TestClient(create_app(experiments_dir=lab_dir))


@pytest.fixture(scope="module")
def entry(client: TestClient) -> dict[str, Any]:
    (only,) = client.get("/api/experiments").json()["experiments"]
    return dict(only)


def test_the_list_gives_each_experiment_with_its_status(
    client: TestClient, entry: dict[str, Any]
) -> None:
    """Cells: 1 matchup x 2 mechanics; games: every seed of every cell in both seats."""
    assert entry["name"] == "tiny lab" and entry["file"] == "lab.duckdb"
    assert (entry["cells"], entry["done"], entry["most"]) == (2, 8, 8)
    assert entry["state"] == "finished" and entry["fraction"] == 1.0
    assert entry["progress"]["state"] == "finished" and entry["progress"]["done"] == 8
    assert "path" not in entry and "dump" not in entry  # no file-system path leaves the server
    page = client.get("/experiments")
    assert page.status_code == 200
    assert f'href="/experiments/lab/{entry["id"]}"' in page.text and "junk.duckdb" not in page.text
    assert client.get(f"/api/experiments/{entry['id']}").json() == entry


def test_the_report_is_the_command_lines(
    client: TestClient, entry: dict[str, Any], lab_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``/api/experiments/ID/report`` holds the numbers of ``experiment report --json`` (the
    experiment file's text aside: the lab file keeps the experiment, not its file)."""
    out = lab_dir / "report.json"
    args = [
        "experiment",
        "report",
        str(lab_dir / "tiny.toml"),
        "--out",
        str(lab_dir / "lab.duckdb"),
    ]
    assert main([*args, "--json", str(out)]) == 0
    capsys.readouterr()
    want = json.loads(out.read_text())
    got = client.get(f"/api/experiments/{entry['id']}/report")
    assert got.status_code == 200
    body = got.json()
    assert body["experiment"].pop("text") == "" and want["experiment"].pop("text") == TEXT
    assert body == json.loads(json.dumps(want).replace("NaN", "null"))
    page = client.get(f"/experiments/lab/{entry['id']}")
    assert page.status_code == 200
    assert f'src="/experiments/lab/{entry["id"]}/report"' in page.text
    html = client.get(f"/experiments/lab/{entry['id']}/report")
    assert html.status_code == 200 and "<h1>tiny lab</h1>" in html.text


def test_a_running_experiment_shows_its_progress_file(
    entry: dict[str, Any], lab_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a run holds the lab file (DuckDB refuses any other connection) the page reads
    the progress the run writes beside it."""
    monkeypatch.setattr(progress_file, "EVERY", 0.0)  # every update written
    shutil.copy(lab_dir / "lab.duckdb", tmp_path / "lab.duckdb")
    client = TestClient(create_app(experiments_dir=tmp_path))
    with (
        LabStore(tmp_path / "lab.duckdb"),  # the run's writer holds the file
        ProgressFile(tmp_path / "lab.duckdb", entry["experiment"], "tiny lab", most=8) as p,
    ):
        p.update(3, 8)
        got = client.get(f"/api/experiments/{entry['id']}/progress")
        assert got.status_code == 200
        body = got.json()
        assert (body["state"], body["done"], body["most"]) == ("running", 3, 8)
        assert body["progress"]["planned"] == 8 and body["progress"]["games_per_s"] > 0
        page = client.get(f"/experiments/lab/{entry['id']}")
        assert "3 of 8 planned so far" in page.text and "games/s" in page.text
        report = client.get(f"/api/experiments/{entry['id']}/report")
        assert report.status_code == 400 and report.json()["error"].startswith("error: ")
    after = client.get(f"/api/experiments/{entry['id']}/progress").json()
    assert (after["state"], after["done"]) == ("finished", 8)  # the file again, once closed


@pytest.mark.parametrize("bad", ["nope", "lab.duckdb", "lab.duckdb.progress.json", "lab", "0" * 40])
def test_anything_but_an_id_is_a_404_line(client: TestClient, bad: str) -> None:
    for url in (
        f"/api/experiments/{bad}",
        f"/api/experiments/{bad}/progress",
        f"/api/experiments/{bad}/report",
    ):
        r = client.get(url)
        assert r.status_code == 404, url
        error = r.json()["error"]
        assert error.startswith("error: no experiment with that id") and "\n" not in error
    page = client.get(f"/experiments/lab/{bad}")
    assert page.status_code == 404 and 'id="error">error: no experiment' in page.text


@pytest.mark.parametrize("bad", ["..%2Flab.duckdb", "%2Ftmp%2Flab.duckdb", "..%2F..%2Fetc"])
def test_a_path_matches_no_route(client: TestClient, bad: str) -> None:
    """A path in place of an id never reaches the lab: no route takes it."""
    for url in (f"/api/experiments/{bad}/report", f"/experiments/lab/{bad}/report"):
        r = client.get(url)
        assert r.status_code == 404 and "tiny lab" not in r.text


def test_without_a_directory_nothing_is_listed() -> None:
    client = TestClient(create_app())
    assert client.get("/api/experiments").json() == {"experiments": []}
    assert client.get("/api/experiments/x").status_code == 404
    assert "oprlab serve --experiments DIR" in client.get("/experiments").text
