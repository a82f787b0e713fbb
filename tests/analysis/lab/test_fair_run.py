"""Fair points in the lab: lists drawn from a pool per seed, the handicap search's bisection
through real (tiny) runs, and the unit-value fit from stored lists (issue 15 item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from oprlab.analysis.lab.design import GameRecord, build_cells, draw_armies, experiment_hash
from oprlab.analysis.lab.fair_report import unit_values
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import build_report, report_html
from oprlab.analysis.lab.run import first_levels, run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.analysis.lab.summary import contrasts
from oprlab.analysis.lab.tally import seed_table
from oprlab.errors import ParseError
from oprlab.rng import child_seed
from tests.pools import tiny_pool

POOL = tiny_pool()


def _experiment(tmp_path: Path, stop: str) -> str:
    (tmp_path / "pool.toml").write_text(POOL)
    pool = (tmp_path / "pool.toml").as_posix()
    return f"""
name = "handicap"
seed = 4
[[matchups]]
a = "pool:{pool}"
b = "pool:{pool}"
points = 150
[factors]
commanders = ["random"]
[stop]
{stop}
"""


def test_pool_sides_draw_the_same_lists_in_both_seats(tmp_path: Path) -> None:
    exp = parse_experiment(_experiment(tmp_path, "seeds = 2"))
    cell = build_cells(exp)[0]
    seed = child_seed(4, 0)
    a, b = draw_armies(cell, seed)
    assert (a, b) == draw_armies(cell, seed)
    assert a.cost <= 150 and b.cost <= 150
    more, _ = draw_armies(cell, seed, handicap=60)
    assert more.points == 210 and more.cost <= 210


def test_handicap_search_bisects_and_resumes(tmp_path: Path) -> None:
    """Step 1 plays at the middle of [low, high]; step 2 moves half the range towards 50%;
    the handicap is stored per game and the report fits it."""
    text = _experiment(tmp_path, 'rule = "handicap"\nlow = -40\nhigh = 40\nbatch = 2\nseeds = 4')
    exp = parse_experiment(text)
    cells = build_cells(exp)
    out = tmp_path / "lab.duckdb"
    outcome = run_experiment(exp, cells, out)
    assert outcome.played == 8
    again = run_experiment(exp, cells, out)
    assert again.played == 0
    h = experiment_hash(exp, cells)
    with LabStore(out, read_only=True) as store:
        games = store.games(h)
        counts = store.unit_counts(h)
    first = [g for g in games if g.seed_index < 2]
    assert {g.handicap for g in first} == {0}
    score = np.mean([g.score_a for g in first])
    assert {g.handicap for g in games if g.seed_index >= 2} == {-20 if score > 0.5 else 20}
    report = build_report(exp, cells, games, text=text, unit_counts=counts)
    with LabStore(out, read_only=True) as store:
        pairs = [(p.variant.key, p.baseline.key) for p in contrasts(cells, first_levels(exp))]
        tally = store.tally(h, [c.key for c in cells], pairs, with_seeds=True)
    assert build_report(exp, cells, tally, text=text, unit_counts=counts) == report  # SQL
    steps = report["handicaps"]["cells"][0]["steps"]
    assert steps[0]["handicap"] == 0 and len(steps) == 2
    json.dumps(report, allow_nan=False)  # no Infinity or NaN in the JSON
    assert "Handicap search" in report_html(report)


def _record(i: int, seat: int, score: float) -> GameRecord:
    winner = {1.0: 0, 0.0: 1}.get(score)
    return GameRecord("c", i, seat, 0, winner, 0, (0, 0), (0, 0), (0.0, 0.0), 4, 0, 0, False)


def test_unit_values_from_stored_lists(tmp_path: Path) -> None:
    """Simulated seeds whose score follows the lists' strength with Brute worth 70 points
    (its cost is 50): the fit flags Brute as too cheap and Rifles (worth their 30) not."""
    exp = parse_experiment(_experiment(tmp_path, "seeds = 2"))
    cell = build_cells(exp)[0]
    rng = np.random.default_rng(3)
    games, counts = [], []
    for i in range(3000):
        n = rng.integers(0, 4, size=(2, 2))
        strength = 0.03 * ((n[0] - n[1]) @ np.array([30.0, 70.0]) - 10 * (n[0, 1] - n[1, 1]))
        p = 1 / (1 + np.exp(-strength))
        for seat in (0, 1):
            games.append(_record(i, seat, float(rng.random() < p)))
        for army in (0, 1):
            for k, name in enumerate(("Rifles", "Brute")):
                if n[army, k]:
                    counts.append(("c", i, 0, army, name, int(n[army, k])))
    cell = type(cell)(**{**cell.__dict__, "key": "c"})
    got = unit_values([cell], {"c": seed_table(games)}, counts)[0]["units"]
    by = {u["unit"]: u for u in got}
    # by hand: worth (30, 60) in logits/0.03; the pool priced right on average gives the scale
    w = np.array([1.5, 1.5])
    truth = np.array([30.0, 60.0]) * (w @ [30, 50]) / (w @ [30.0, 60.0])
    assert by["Brute"]["low"] <= truth[1] <= by["Brute"]["high"]
    assert by["Brute"]["flagged"] and by["Brute"]["value"] > 50


@pytest.mark.parametrize(
    ("stop", "change", "words"),
    [
        ("seeds = 2", ("points = 150\n", ""), "matchups[0].points: a side drawn from a pool"),
        ('rule = "handicap"', ('a = "pool:', 'a = "gff/melee-150" #'), "matchups[0].a"),
        ('rule = "handicap"\nlow = 5\nhigh = 5', ("", ""), "stop.low: the handicap range"),
    ],
)
def test_bad_fair_points_files_are_one_line(
    tmp_path: Path, stop: str, change: tuple[str, str], words: str
) -> None:
    text = _experiment(tmp_path, stop)
    if change[0]:
        text = text.replace(change[0], change[1], 1)
    with pytest.raises(ParseError) as info:
        parse_experiment(text, "e.toml")
    assert words in str(info.value)


def test_a_unit_no_list_took_is_named_not_fitted(tmp_path: Path) -> None:
    """A pool unit no drawn list took (in the skirmish pool at 150 points, Lantern Wardens: 60
    points is over GFF's 35%) would make the fit singular: it is named and left out."""
    exp = parse_experiment(_experiment(tmp_path, "seeds = 2"))
    cell = type(build_cells(exp)[0])(**{**build_cells(exp)[0].__dict__, "key": "c"})
    rng = np.random.default_rng(4)
    games, counts = [], []
    for i in range(400):
        n = rng.integers(0, 4, size=2)
        p = 1 / (1 + np.exp(-0.9 * (n[0] - n[1])))
        games += [_record(i, seat, float(rng.random() < p)) for seat in (0, 1)]
        counts += [("c", i, 0, army, "Rifles", int(n[army])) for army in (0, 1) if n[army]]
    entry = unit_values([cell], {"c": seed_table(games)}, counts)[0]
    assert entry["never_fielded"] == ["Brute"]
    assert [u["unit"] for u in entry["units"]] == ["Rifles"]
