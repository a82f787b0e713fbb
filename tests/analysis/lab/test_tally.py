"""The report's numbers from DuckDB's counts equal the report from the games read into Python
(issue 15 item 7, "the report must not read every game into Python"), on a stored experiment
of hand-made games: every cell, effect, SPRT, spread and stopping look."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from oprlab.analysis.lab.design import GameRecord, build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import build_report
from oprlab.analysis.lab.run import first_levels
from oprlab.analysis.lab.stats import bootstrap_sd, hist_interval, mean_interval
from oprlab.analysis.lab.store import LabStore
from oprlab.analysis.lab.summary import contrasts
from oprlab.analysis.lab.tally import Tally, hist, index_ranges, tally_games
from oprlab.rng import child_seed

TEXT = """
name = "counted"
seed = 9
[[matchups]]
a = "gff/shooty-150"
b = "gff/melee-150"
[factors]
mechanic = ["d6", "clock"]
commanders = ["rules", "random"]
[stop]
"""


def _games(keys: list[str], seeds: int, rng: np.random.Generator) -> list[GameRecord]:
    games = []
    for key in keys:
        for i in range(seeds):
            for seat in (0, 1):
                if i == seeds - 1 and seat == 1 and key == keys[0]:
                    continue  # a seed with one seat played: counted in games, not in seeds
                winner = [0, 1, None][int(rng.integers(0, 3))]
                games.append(
                    GameRecord(
                        key, i, seat, i, winner, int(rng.integers(0, 2)),
                        (int(rng.integers(0, 6)), int(rng.integers(0, 6))), (3, 4),
                        (round(float(rng.random()) * 150, 6), float(rng.integers(0, 15)) * 10),
                        int(rng.integers(2, 5)), 80, int(rng.integers(0, 3)),
                        bool(rng.integers(0, 2)),
                    )
                )  # fmt: skip
    return games


@pytest.mark.parametrize(
    "stop",
    ["seeds = 60", "rule = 'sprt'\nbatch = 20\nseeds = 100", "rule = 'width'\nbatch = 20\n"],
)
def test_sql_report_equals_python_report(tmp_path: Path, stop: str) -> None:
    exp = parse_experiment(TEXT + stop)
    cells = build_cells(exp)
    h = experiment_hash(exp, cells)
    games = _games([c.key for c in cells], 60, np.random.default_rng(4))
    with LabStore(tmp_path / "lab.duckdb") as store:
        store.register(h, exp, cells)
        store.add_many(h, games)
        pairs = [(p.variant.key, p.baseline.key) for p in contrasts(cells, first_levels(exp))]
        tally = store.tally(h, [c.key for c in cells], pairs, with_seeds=stop != "seeds = 60")
        stored = store.games(h)
    python = build_report(exp, cells, stored)
    sql = build_report(exp, cells, tally)
    assert json.dumps(sql, sort_keys=True) == json.dumps(python, sort_keys=True)
    assert len(sql["effects"]) == 4 and sql["cells"][0]["seeds"] == 59
    assert sql["cells"][0]["games"] == 119
    if "sprt" in stop:
        assert all("sprt" in e for e in sql["effects"])


def test_counts_give_the_numbers_of_the_values_written_out() -> None:
    """The t interval from counts is the one from the values; the bootstrap of the spread
    draws resamples of the counts (a multinomial), seeded."""
    x = np.random.default_rng(2).integers(-5, 6, 400).astype(float)
    h = hist(x)
    a, b = hist_interval(h.values, h.counts), mean_interval(list(x))
    assert a.n == b.n == 400
    assert a.estimate == pytest.approx(b.estimate, abs=1e-12)
    assert a.low == pytest.approx(b.low, abs=1e-12) and a.high == pytest.approx(b.high, abs=1e-12)
    sd = bootstrap_sd(list(x), np.random.default_rng(1))
    assert sd == bootstrap_sd(list(x), np.random.default_rng(1))
    assert sd.estimate == pytest.approx(float(np.std(x, ddof=1)), abs=1e-12)
    assert sd.low < sd.estimate < sd.high


def test_many_values_resample_from_the_normal_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over many games and many distinct values the resampled sums come from their normal
    limit: the spread's interval is the multinomial bootstrap's within a few percent."""
    import oprlab.analysis.lab.stats as stats

    x = np.round(np.random.default_rng(5).normal(0, 40, 20000))
    h = hist(x)
    assert len(h.values) > stats.MULTINOMIAL_MAX[0] and h.n > stats.MULTINOMIAL_MAX[1]
    fast = stats.bootstrap_sd_counts(h.values, h.counts, np.random.default_rng(1))
    monkeypatch.setattr(stats, "MULTINOMIAL_MAX", (10**9, 10**9))
    exact = stats.bootstrap_sd_counts(h.values, h.counts, np.random.default_rng(1))
    assert fast.estimate == exact.estimate
    for a, b in ((fast.low, exact.low), (fast.high, exact.high)):
        assert abs(a - b) < 0.1 * (exact.high - exact.low)


def test_seed_indices_as_ranges() -> None:
    assert index_ranges([]) == ""
    assert index_ranges(list(range(1000))) == "0-999"
    assert index_ranges([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"


def test_the_report_gives_the_seeds_as_ranges_keeping_every_game_seed() -> None:
    """The seeds of a report: ranges of the indices played, their count, and the first and
    last game seed; every game seed is child_seed(experiment seed, index), so the list is kept
    (here two seeds: "0-1")."""
    seeds = np.array([child_seed(9, i) for i in range(5)] + [-1, child_seed(9, 6)])
    summary = Tally({}, {}, 7, {}, seeds).seed_summary(9)
    assert summary == {
        "indices": "0-4, 6",
        "count": 6,
        "first": {"index": 0, "game_seed": child_seed(9, 0)},
        "last": {"index": 6, "game_seed": child_seed(9, 6)},
    }


def test_a_seed_pairs_only_at_the_same_handicap(tmp_path: Path) -> None:
    """The handicap search moves each cell's handicap on its own (issue 15 item 5a), so a
    variant and its baseline pair on a seed only when both played it at the same handicap:
    a perk's paired effect on the score compares armies of equal points, not the two cells'
    different steps. DuckDB's join and the Python reference agree."""
    exp = parse_experiment(TEXT + "seeds = 60")
    cells = build_cells(exp)
    h = experiment_hash(exp, cells)
    keys = [c.key for c in cells]
    games = [
        # the first 20 seeds at handicap 0 in every cell; later ones at the cell's own step
        dataclasses.replace(g, handicap=0 if g.seed_index < 20 else 10 * keys.index(g.cell))
        for g in _games(keys, 60, np.random.default_rng(5))
    ]
    pairs = [(p.variant.key, p.baseline.key) for p in contrasts(cells, first_levels(exp))]
    with LabStore(tmp_path / "lab.duckdb") as store:
        store.register(h, exp, cells)
        store.add_many(h, games)
        tally = store.tally(h, keys, pairs)
    python = tally_games(games, keys, pairs)
    for pair in pairs:
        assert int(tally.pairs[pair].scores.counts.sum()) == 20
        assert int(python.pairs[pair].scores.counts.sum()) == 20
    python_report = build_report(exp, cells, games)
    assert json.dumps(build_report(exp, cells, tally), sort_keys=True) == json.dumps(
        python_report, sort_keys=True
    )
    assert all(e["seeds"] == 20 for e in python_report["effects"])
