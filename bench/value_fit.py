"""Fit the search's learned value (issue 14): a side's chance of winning from a state.

Plays rules-against-rules games (shooty-300 against melee-300, open table, d6, seeds of
series 2014: neither the ladder's nor the decision truths'), reads every decision's state
by :func:`oprlab.players.search_value.features` for the side to act, labels it with that
side's share of the game's result, and fits :func:`oprlab.players.search_value.fit` on all
but every fifth game. The fifth held out scores the fit against the points value put
through the best single logistic scale (log loss and Brier score, lower is better), so the
learned value is kept only where it predicts the games better::

    .venv/bin/python -m bench.value_fit GAMES [--system gff] [--jobs 2]

Prints the weights as :data:`~oprlab.players.search_value.WEIGHTS` wants them.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

import numpy as np

from bench.harness import argument, flag, positional, refuse
from bench.search_pairs import SERIES, share, spec
from oprlab.game.actions import Action
from oprlab.game.play import play_game
from oprlab.players.rules_commander import RulesCommander
from oprlab.players.search import value
from oprlab.players.search_value import features, fit, round_weights
from oprlab.rng import child_seed

Row = tuple[int, int, list[float], float]  # round, side, features, points value


class _Reader:
    """The rules commander, reading each state it decides."""

    name = "rules"

    def __init__(self) -> None:
        self.guide = RulesCommander(0)
        self.rows: list[Row] = []

    def choose(self, state: Any, actions: Sequence[Action]) -> Action:
        side = state.active
        if state.round < 1:  # deployment: the search never values it
            return self.guide.choose(state, actions)
        self.rows.append((state.round, side, features(state, side), value(state, side)))
        return self.guide.choose(state, actions)


def game_rows(task: tuple[str, int]) -> tuple[list[Row], list[float]]:
    """Every decision's row of rules-against-rules game ``seed`` and its share for each row's
    side."""
    system, seed = task
    m = spec().matchups[0]
    reader = _Reader()
    g, _ = play_game(m.army_a, m.army_b, [reader, reader], seed=seed, log=False, system=system)
    return reader.rows, [share(g.winner, side) for _, side, _, _ in reader.rows]


def _losses(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    q = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(q) + (1 - y) * np.log(1 - q))), float(np.mean((p - y) ** 2))


def _predict(weights: list[list[float]], r: np.ndarray, x: np.ndarray) -> np.ndarray:
    w = np.asarray([round_weights(weights, int(k)) for k in r])
    return np.asarray(1.0 / (1.0 + np.exp(-np.sum(w * x, axis=1))))


def main(argv: list[str]) -> None:
    usage = "python -m bench.value_fit GAMES [--system gff] [--jobs 2]"
    flags = ("--system", "--jobs")
    positional(
        [a for i, a in enumerate(argv) if i == 0 or argv[i - 1] not in flags], flags, 1, usage
    )
    games = int(argument(argv, 0, "GAMES", usage, number=True))
    system = flag(argv, "--system", "gff", usage)
    jobs = int(flag(argv, "--jobs", "1", usage, number=True))
    if system not in ("gff", "riverside"):
        refuse("--system", "gff or riverside", repr(system), usage)
    if games < 10:
        refuse("GAMES", "10 or more (every fifth is held out)", str(games), usage)
    tasks = [(system, child_seed(SERIES + 2000, g)) for g in range(games)]
    with Pool(jobs) as pool:
        got = pool.map(game_rows, tasks)
    held_out = np.asarray([g % 5 == 4 for g, (rows, _) in enumerate(got) for _ in rows])
    r = np.asarray([row[0] for rows, _ in got for row in rows])
    x = np.asarray([row[2] for rows, _ in got for row in rows], dtype=float)
    pts = np.asarray([[row[3] / 100.0] for rows, _ in got for row in rows])
    y = np.asarray([v for _, ys in got for v in ys], dtype=float)
    fitted, hy = ~held_out, y[held_out]
    weights = fit(r[fitted], x[fitted], y[fitted])
    scale = fit(r[fitted], pts[fitted], y[fitted])  # the points value, one scale a round
    learned = _losses(_predict(weights, r[held_out], x[held_out]), hy)
    points = _losses(_predict(scale, r[held_out], pts[held_out]), hy)
    print(f"{system}: {games} games, {int(fitted.sum())} decisions fitted, {len(hy)} held out")
    print(
        f"held out, log loss / Brier: learned {learned[0]:.4f} / {learned[1]:.4f}, "
        f"points value {points[0]:.4f} / {points[1]:.4f}"
    )
    print(f"the points value's logistic scale a round (per 100): {[round(v[0], 3) for v in scale]}")
    print(f'    "{system}": (')
    for row in weights:
        print("        (" + ", ".join(f"{v:.4f}" for v in row) + "),")
    print("    ),")
    if not all(math.isfinite(v) for row in weights for v in row):
        raise SystemExit("error: the fit did not converge")


if __name__ == "__main__":
    main(sys.argv[1:])
