"""Series of games: seeds derived from one seed, summaries with intervals, any game replayable
alone, and Ctrl-C keeping the finished games (DESIGN: results are never lost when a sweep is
interrupted)."""

from __future__ import annotations

import pytest

from oprlab.analysis.series import SeriesSpec, play_one, play_series
from oprlab.game.play import GameResult
from oprlab.rng import spawn
from tests.game import line, specials


def _spec(seed: int = 7) -> SeriesSpec:
    return SeriesSpec(line(), specials(), ("rules", "random"), "d6", None, seed)


def test_series_seeds_come_from_the_series_seed_and_replay() -> None:
    """Each game's seed is spawned from the series seed; a series replays exactly, and any game
    replays alone from its seed."""
    spec = _spec()
    first = play_series(spec, 3)
    assert [g.seed for g in first.games] == spawn(7, 3)
    assert play_series(spec, 3).games == first.games
    assert play_one(spec, first.games[1].seed) == first.games[1]
    assert not first.interrupted


def test_summary_counts_and_intervals() -> None:
    """The summary: win/draw rates (Wilson 95%) that add up, means with intervals, the
    seed, mechanic, commanders, armies and version."""
    series = play_series(_spec(), 4)
    s = series.summary()
    assert s["games"] == 4 and s["seed"] == 7 and s["commanders"] == ["rules", "random"]
    assert s["armies"] == ["Test Line", "Test Specials"] and s["mechanic"] == "d6"
    wins = [sum(g.winner == w for g in series.games) for w in (0, 1, None)]
    for key, count in zip(("win_a", "win_b", "draw"), wins, strict=True):
        assert s[key]["estimate"] == pytest.approx(count / 4)
        assert s[key]["low"] - 1e-12 <= s[key]["estimate"] <= s[key]["high"] + 1e-12
    mean_obj = sum(g.objectives[0] for g in series.games) / 4
    assert s["objectives_a"]["estimate"] == pytest.approx(mean_obj)


def test_empty_series_summary_has_no_rates() -> None:
    """With no finished game there is nothing to estimate (no division by zero)."""
    s = play_series(_spec(), 0).summary()
    assert s["games"] == 0 and "win_a" not in s


@pytest.mark.parametrize("after", [1, 2])
def test_ctrl_c_keeps_the_finished_games(after: int) -> None:
    """Ctrl-C (a KeyboardInterrupt from the progress callback after k games) stops the series,
    keeps the k finished games and marks the series interrupted."""
    seen: list[GameResult] = []

    def on_game(game: GameResult) -> None:
        seen.append(game)
        if len(seen) == after:
            raise KeyboardInterrupt

    series = play_series(_spec(), 5, on_game=on_game)
    assert series.interrupted
    assert len(series.games) == after and series.games == seen
    assert [g.seed for g in series.games] == spawn(7, 5)[:after]
    s = series.summary()
    assert s["interrupted"] and s["games"] == after


def test_worker_processes_give_the_same_games() -> None:
    """joblib workers play the same seeded games as one process (order kept)."""
    spec = _spec(11)
    assert play_series(spec, 2, n_jobs=2).games == play_series(spec, 2, n_jobs=1).games
