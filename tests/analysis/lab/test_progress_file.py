"""A run's progress file: what the experiments page reads while DuckDB keeps the lab file to
the run (done and planned games, games per second, time left, the run's state)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.progress_file import ProgressFile, progress_path, read_progress
from oprlab.analysis.lab.run import run_experiment

TEXT = """
name = "tiny"
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


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_and_time_left_count_only_this_runs_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4 games stored before, 10 now in 5 s: 2 games/s, and 6 of 20 planned left: 3 s."""
    clock = Clock()
    monkeypatch.setattr(time, "monotonic", clock)
    lab = tmp_path / "lab.duckdb"
    with ProgressFile(lab, "abc", "tiny", most=40, already=4) as progress:
        assert read_progress(lab) == progress.data and progress.data["state"] == "running"
        clock.now += 5.0
        progress.update(14, 20)
        got = read_progress(lab)
        assert got is not None
        assert (got["done"], got["planned"], got["most"]) == (14, 20, 40)
        assert got["games_per_s"] == 2.0 and got["eta_s"] == 3.0
        clock.now += 0.5  # within the second: not written again
        progress.update(15, 20)
        assert read_progress(lab) == got
    final = read_progress(lab)
    assert final is not None and final["state"] == "finished" and final["done"] == 15
    assert [p.name for p in tmp_path.iterdir()] == [progress_path(lab).name]  # no temp left


def test_an_interrupted_run_says_so(tmp_path: Path) -> None:
    lab = tmp_path / "lab.duckdb"
    with pytest.raises(KeyboardInterrupt), ProgressFile(lab, "abc", "tiny", most=2):
        raise KeyboardInterrupt
    got = read_progress(lab)
    assert got is not None and got["state"] == "interrupted"


def test_a_missing_or_broken_progress_file_is_none(tmp_path: Path) -> None:
    lab = tmp_path / "lab.duckdb"
    assert read_progress(lab) is None
    progress_path(lab).write_text("{not json")
    assert read_progress(lab) is None
    progress_path(lab).write_text("[1, 2]")
    assert read_progress(lab) is None


def test_a_run_writes_its_progress_beside_its_lab_file(tmp_path: Path) -> None:
    """2 seeds x 2 cells x 2 seats = 8 games planned and played; the file says finished."""
    exp = parse_experiment(TEXT)
    cells = build_cells(exp)
    out = tmp_path / "lab.duckdb"
    outcome = run_experiment(exp, cells, out)
    got = json.loads(progress_path(out).read_text())
    assert got["experiment"] == outcome.experiment and got["name"] == "tiny"
    assert (got["done"], got["planned"], got["most"], got["state"]) == (8, 8, 8, "finished")
    assert got["games_per_s"] > 0 and got["eta_s"] == 0.0
