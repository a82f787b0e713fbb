"""The stopping looks and the per-cell numbers on hand-made games (no game is played)."""

from __future__ import annotations

import numpy as np

from oprlab.analysis.lab.design import Cell, GameRecord, _lead_changes, build_cells
from oprlab.analysis.lab.model import Experiment, parse_experiment
from oprlab.analysis.lab.run import first_levels, schedule
from oprlab.analysis.lab.summary import (
    cell_summary,
    contrasts,
    paired_sd_change,
    seed_scores,
    stopped_cells,
)

HEAD = 'name = "t"\n[[matchups]]\na = "gff/shooty-150"\nb = "gff/melee-150"\n'


def _exp(stop: str) -> tuple[Experiment, list[Cell]]:
    exp = parse_experiment(HEAD + '[factors]\nmechanic = ["d6", "clock"]\n' + stop)
    return exp, build_cells(exp)


def _game(cell: Cell, i: int, seat: int, winner: int | None, margin: int = 0) -> GameRecord:
    return GameRecord(
        cell.key, i, seat, 0, winner, seat, (max(margin, 0), max(-margin, 0)), (0, 0),
        (0.0, 0.0), 4, 50, 0, False,
    )  # fmt: skip


def test_seed_scores_need_both_seats() -> None:
    _, cells = _exp("")
    c = cells[0]
    games = [_game(c, 0, 0, 0), _game(c, 0, 1, None), _game(c, 1, 0, 1)]
    assert seed_scores(games) == {0: 0.75}


def test_schedule() -> None:
    assert schedule(_exp("[stop]\nseeds = 30\n")[0]) == [30]
    assert schedule(_exp("[stop]\nrule = 'width'\nseeds = 50\nbatch = 20\n")[0]) == [20, 40, 50]


def test_width_rule_stops_the_steady_cell() -> None:
    """Cell 1: army A always wins (interval of width 0): stops. Cell 2: seeds alternate between
    1 and 0 (sd 0.51 over 20 seeds: width 0.48): goes on."""
    exp, cells = _exp("[stop]\nrule = 'width'\nwidth = 0.2\nseeds = 100\n")
    by_cell = {
        cells[0].key: [_game(cells[0], i, s, 0) for i in range(20) for s in (0, 1)],
        cells[1].key: [_game(cells[1], i, s, i % 2) for i in range(20) for s in (0, 1)],
    }
    pairs = contrasts(cells, first_levels(exp))
    stopped = stopped_cells(exp.stop, cells, pairs, by_cell, 20)
    assert list(stopped) == [cells[0].key] and "width 0.000 < 0.2" in stopped[cells[0].key]


def test_sprt_rule_stops_both_cells_of_a_decided_effect() -> None:
    """The clock loses every seed the d6 wins, 40 seeds: the SPRT says "moves" and both cells
    of the effect stop."""
    exp, cells = _exp("[stop]\nrule = 'sprt'\nseeds = 100\n")
    by_cell = {
        cells[0].key: [_game(cells[0], i, s, 0) for i in range(40) for s in (0, 1)],
        cells[1].key: [_game(cells[1], i, s, 1 if i % 4 else 0) for i in range(40) for s in (0, 1)],
    }
    pairs = contrasts(cells, first_levels(exp))
    assert len(stopped_cells(exp.stop, cells, pairs, by_cell, 40)) == 2
    assert stopped_cells(exp.stop, cells, pairs, by_cell, 3) == {}


def test_cell_numbers_by_hand() -> None:
    """Four games: A wins two, B one, one draw. A's score per seed: (1 + 1/2)/2, (1 + 0)/2;
    the army going first (seat 0: A, seat 1: B) scored 1, 1/2, 1, 1 -> mean 7/8. The weaker
    army B won one game of four."""
    _, cells = _exp("")
    c = cells[0]
    games = [
        _game(c, 0, 0, 0, 2),
        _game(c, 0, 1, None),
        _game(c, 1, 0, 0, 1),
        _game(c, 1, 1, 1, -3),
    ]
    s = cell_summary(c, games, 1, np.random.default_rng(0))
    assert s["score_a"]["estimate"] == 0.625 and s["seeds"] == 2
    assert s["first_player_score"]["estimate"] == 0.875
    assert s["upset_rate"]["estimate"] == 0.25
    assert s["objective_margins"] == [[-3, 1], [0, 1], [1, 1], [2, 1]]
    assert s["objective_margin"]["estimate"] == 0


def test_lead_changes() -> None:
    assert _lead_changes([1, 0, -1, -1, 1]) == 2
    assert _lead_changes([0, 0, 1]) == 0


def test_spread_change_keeps_the_pairing() -> None:
    """Variant margins are the baseline's doubled: the spread doubles, and every resample of
    seeds says so (an interval above 0)."""
    _, cells = _exp("")
    base = [_game(cells[0], i, s, 0, m) for i, m in enumerate([1, -1, 2, 0, 3, -2]) for s in (0, 1)]
    var = [
        _game(cells[1], i, s, 0, 2 * m) for i, m in enumerate([1, -1, 2, 0, 3, -2]) for s in (0, 1)
    ]
    d = paired_sd_change(var, base, np.random.default_rng(1))
    sd = float(np.std([1, 1, -1, -1, 2, 2, 0, 0, 3, 3, -2, -2], ddof=1))
    assert abs(d.estimate - sd) < 1e-12 and d.low > 0
