"""A tiny experiment end to end (random commanders: the fastest games): the paired design's
promises, identical reports from two runs, and an interrupted run resumed to the same result
(issue 15 "Done when")."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import oprlab.analysis.lab.run as lab_run
from oprlab.analysis.lab.design import GameRecord, build_cells, experiment_hash, play_cell_game
from oprlab.analysis.lab.model import Experiment, parse_experiment
from oprlab.analysis.lab.report import build_report, report_html
from oprlab.analysis.lab.run import run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.rng import child_seed

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


@pytest.fixture(scope="module")
def exp() -> Experiment:
    return parse_experiment(TEXT)


@pytest.fixture(scope="module")
def first_run(exp: Experiment, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lab") / "a.duckdb"
    outcome = run_experiment(exp, build_cells(exp), out)
    assert outcome.played == 8 and outcome.already == 0
    return out


def _games(exp: Experiment, out: Path) -> list[GameRecord]:
    cells = build_cells(exp)
    with LabStore(out, read_only=True) as store:
        return store.games(experiment_hash(exp, cells))


def _report(exp: Experiment, out: Path) -> str:
    return json.dumps(build_report(exp, build_cells(exp), _games(exp, out), text=TEXT))


def test_paired_design(exp: Experiment, first_run: Path) -> None:
    """Every cell plays the same game seeds (child seeds of the experiment seed), each in both
    seats; the two seats of a seed share their roll-offs, so each army goes first once."""
    games = _games(exp, first_run)
    seeds: dict[str, set[tuple[int, int, int]]] = defaultdict(set)
    first: dict[tuple[str, int], set[int]] = defaultdict(set)
    for g in games:
        assert g.game_seed == child_seed(5, g.seed_index)
        seeds[g.cell].add((g.seed_index, g.game_seed, g.seat))
        first[(g.cell, g.seed_index)].add(g.first)
    assert len(seeds) == 2 and len({frozenset(s) for s in seeds.values()}) == 1
    assert all(len(s) == 4 for s in seeds.values())
    assert all(f == {0, 1} for f in first.values())


def test_rerun_plays_nothing_and_reports_identically(exp: Experiment, first_run: Path) -> None:
    before = _report(exp, first_run)
    again = run_experiment(exp, build_cells(exp), first_run)
    assert again.played == 0 and again.already == 8
    assert _report(exp, first_run) == before
    page = report_html(json.loads(before))
    assert page.count("data:image/png;base64,") == 4 and "<script" not in page


def test_interrupted_then_resumed_is_the_same(
    exp: Experiment, first_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the fourth game keeps the three finished ones (the first seed's group and one
    game of the second); the rerun plays the other five, and the report is the one of the
    uninterrupted run, byte for byte."""
    out = tmp_path / "b.duckdb"
    calls: list[int] = []

    def ctrl_c_in_the_fourth(*args: Any) -> GameRecord:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return play_cell_game(*args)

    monkeypatch.setattr(lab_run, "play_cell_game", ctrl_c_in_the_fourth)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(exp, build_cells(exp), out)
    monkeypatch.undo()
    assert len(_games(exp, out)) == 3
    resumed = run_experiment(exp, build_cells(exp), out)
    assert (resumed.already, resumed.played) == (3, 5)
    assert _report(exp, out) == _report(exp, first_run)


def test_more_seeds_reuse_the_stored_games(
    exp: Experiment, first_run: Path, tmp_path: Path
) -> None:
    """Growing ``seeds`` keeps the experiment's hash: only the new seeds are played."""
    grown = parse_experiment(TEXT.replace("seeds = 2", "seeds = 3"))
    assert experiment_hash(grown, build_cells(grown)) == experiment_hash(exp, build_cells(exp))
    out = tmp_path / "c.duckdb"
    out.write_bytes(first_run.read_bytes())
    outcome = run_experiment(grown, build_cells(grown), out)
    assert (outcome.already, outcome.played) == (8, 4)
