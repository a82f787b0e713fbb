"""What a copy of the game costs (``GameState.clone``, the search's largest share until it was
written by hand), and its share of a searched game.

The copy: every activation decision of a seeded 300-point game (shooty-300 against melee-300,
open table, rules against rules, seed 0 of series 14) is copied three times, best of three, in
CPU microseconds a copy, GFF and Riverside, with the log off (as the ladder plays) and on. The
share: one searched game per system (``search`` on side A against ``rules``), its CPU and the
CPU inside ``clone``::

    PYTHONPATH=. .venv/bin/python -m bench.clone_cost [--games]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from bench.harness import positional
from bench.search_pairs import SYSTEMS, spec
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players.base import get_commander
from oprlab.rng import child_seed, commander_stream


def copy_cost(system: str, log: bool, seed: int) -> tuple[int, float]:
    """The activation states of one rules game, and a copy's CPU microseconds (best of 3)."""
    m = spec().matchups[0]
    states: list[GameState] = []
    play_game(
        m.army_a,
        m.army_b,
        [get_commander("rules", 1), get_commander("rules", 2)],
        seed=seed,
        log=log,
        system=system,
        on_decision=lambda s, _a: states.append(s.clone()),
    )
    states = [s for s in states if s.phase == "activation"]
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for s in states:
            s.clone()
        best = min(best, (time.process_time() - start) / len(states))
    return len(states), best * 1e6


def searched_share(system: str, seed: int) -> tuple[float, float, int]:
    """One searched game: its CPU seconds, those inside ``clone`` and the copies made."""
    m = spec().matchups[0]
    plain = GameState.clone
    spent = [0.0, 0]

    def timed(self: GameState, *args: Any, **kw: Any) -> GameState:
        start = time.process_time()
        try:
            return plain(self, *args, **kw)
        finally:
            spent[0] += time.process_time() - start
            spent[1] += 1

    commanders = [
        get_commander("search", commander_stream(seed, 0)),
        get_commander("rules", commander_stream(seed, 1)),
    ]
    GameState.clone = timed  # type: ignore[method-assign]
    try:
        start = time.process_time()
        play_game(m.army_a, m.army_b, commanders, seed=seed, log=False, system=system)
        total = time.process_time() - start
    finally:
        GameState.clone = plain  # type: ignore[method-assign]
    return total, spent[0], int(spent[1])


USAGE = "python -m bench.clone_cost [--games]"


def main(argv: list[str]) -> int:
    positional(argv, ("--games",), 0, USAGE)
    seed = child_seed(14, 0)
    for system in SYSTEMS:
        for log in (False, True):
            n, us = copy_cost(system, log, seed)
            print(f"{system} log={'on' if log else 'off'}: {us:.0f} us a copy ({n} states)")
    if "--games" in argv:
        for system in SYSTEMS:
            total, inside, n = searched_share(system, seed)
            print(
                f"{system} searched game: {total:.2f} s CPU, {inside:.2f} s in {n} copies"
                f" ({inside / total:.0%})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
