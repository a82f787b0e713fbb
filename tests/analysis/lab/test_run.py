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
from oprlab.errors import OptionError
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


def test_per_unit_rows_add_up_to_the_game(exp: Experiment, first_run: Path) -> None:
    """Each game's per-unit points lost sum to its army's points lost; what an army's units
    destroyed is at most what the other army lost (the rest is unattributed); the report has a
    row per cell, army and unit name with the unit's exact-odds efficiency beside it."""
    cells = build_cells(exp)
    h = experiment_hash(exp, cells)
    with LabStore(first_run, read_only=True) as store:
        counts = store.unit_counts(h)
        totals = store.unit_totals(h)
        con = store._con
        rows = con.execute(
            "SELECT g.cell, g.seed_index, g.seat, g.points_lost_a, g.points_lost_b, "
            "sum(CASE WHEN u.army = 0 THEN u.points_lost END), "
            "sum(CASE WHEN u.army = 1 THEN u.points_lost END), "
            "sum(CASE WHEN u.army = 0 THEN u.points_destroyed END), "
            "sum(CASE WHEN u.army = 1 THEN u.points_destroyed END) "
            "FROM lab_games g JOIN lab_units u USING (experiment, cell, seed_index, seat) "
            "WHERE g.experiment = ? GROUP BY ALL",
            [h],
        ).fetchall()
    assert len(rows) == 8
    for _, _, _, lost_a, lost_b, units_a, units_b, by_a, by_b in rows:
        assert units_a == pytest.approx(lost_a) and units_b == pytest.approx(lost_b)
        assert by_a <= lost_b + 1e-9 and by_b <= lost_a + 1e-9
    elite = {n for c, i, s, a, n, k in counts if a == 0}
    assert elite == {u.name for u in cells[0].armies[0].units}
    report = build_report(exp, cells, _games(exp, first_run), text=TEXT, unit_totals=totals)
    units = report["units"]
    assert {(u["cell"], u["army"], u["unit"]) for u in units} == {
        (c.key, k, u.name) for c in cells for k in (0, 1) for u in c.armies[k].units
    }
    assert all(u["games"] == 4 for u in units)
    assert any(u["exact_wounds_per_100"]["melee"] for u in units)
    assert "Per unit" in report_html(report)


def test_each_game_records_its_commanders_revisions(exp: Experiment, first_run: Path) -> None:
    """Every stored game carries its commanders' revisions (players.base.REVISIONS: random is
    r1), and the report's cells show them."""
    games = _games(exp, first_run)
    assert games and all(g.revisions == ("r1", "r1") for g in games)
    report = json.loads(_report(exp, first_run))
    assert all(c["commander_revisions"] == ["r1", "r1"] for c in report["cells"])
    assert "random r1, random r1" in report_html(report)


def test_a_store_from_before_revisions_is_refused_in_one_line(tmp_path: Path) -> None:
    """A lab-2 file's games cannot say which commander revision played them: one error line
    that says to run into a new file, not a misread."""
    path = tmp_path / "old.duckdb"
    with LabStore(path) as store:
        store._con.execute("UPDATE lab_meta SET value = 'lab-2' WHERE key = 'schema'")
    with pytest.raises(OptionError) as info:
        LabStore(path)
    said = str(info.value)
    assert "lab-2" in said and "new --out file" in said and "\n" not in said
