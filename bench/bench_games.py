"""Whole GFF games between two rules-based commanders, by army size, and where time goes."""

from __future__ import annotations

import cProfile
import os
import pstats
import time

from bench.harness import Result
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Army

TITLE = "Full games (GFF, rules-based commanders, d6)"
_ABOUT = """
One game = objectives, deployment, 4 rounds, morale and scoring between two rules-based
commanders, event log on, on an open table (seeds 0, 1, ...; caches warm from the games before,
as in a batch of games). 150 and 300 points: the bundled shooty and melee lists; 600 points:
two 300-point lists merged per side. The target is a 300-point game in milliseconds (50 ms).

Tried and not adopted: numba kernels for the path search (segment crossings, point in blocker,
segment clearance; bit-identical logs). Movement got 1.6x faster but whole games only 1.25-1.3x
(300 pts 262 -> 201 ms CPU, best of 3 over seeds 1-10), for 0.65 s (cached) to 2.7 s (cold) of
compiling in every new process and a ~200 MB dependency: what is left in movement is Python
bookkeeping around many small calls, and the commander and legal actions are half the game.
Segment crossings and rotations are spelled out in plain float arithmetic (no complex or matrix
products, which numpy may fuse into multiply-adds on some CPUs) so a seed plays the same game
on every machine; that costs about 10% on tables with terrain.

Issue 13's table steps (the same games, every hash unchanged), counted in instructions since
the machine was shared (`perf stat -e instructions:u`, ten games, seeds 1-10): 150 pts 6.40 ->
6.02 G (-6%), 300 pts 12.43 -> 11.65 G (-6%), 600 pts 62.4 -> 56.9 G (-9%).
"""
#: Filled in by :func:`run` with the measured split and growth (``python -m bench`` prints it
#: after running the suite).
NOTES = _ABOUT

#: Where a game's time goes: a label and the functions (file part, name) whose cumulative time
#: it is. Movement and sight are the table layer's, reached through ``game.geometry``.
PARTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "movement",
        (
            ("geometry.py", "move_unit_toward"),
            ("geometry.py", "charge_move"),
            ("geometry.py", "pile_in"),
            ("geometry.py", "separate"),
        ),
    ),
    ("sight", (("geometry.py", "sees"), ("geometry.py", "in_cover"))),
    ("commander", (("commander.py", "choose"),)),  # players/rules/commander.py
    ("legal actions", (("hooks.py", "legal_actions"),)),
    ("apply", (("hooks.py", "apply"),)),
)


def _merge(name: str, *lists: str) -> Army:
    armies = [load_army(sample_path(n)) for n in lists]
    units = tuple(u for a in armies for u in a.units)
    return Army(name, "GFF", sum(a.points for a in armies), units)


def _games(a: Army, b: Army, n: int) -> float:
    start = time.process_time()
    for seed in range(n):
        play_game(a, b, [get_commander("rules", seed), get_commander("rules", seed + 1)], seed=seed)
    return time.process_time() - start


def split(a: Army, b: Army) -> dict[str, float]:
    """Seconds of one profiled game (seed 1) by part (see :data:`PARTS`), and ``"total"``.

    Parts nest: ``apply`` includes the movement; sight and cover are asked by the legal
    actions (targets in sight) and by ``apply`` (shooting). cProfile slows Python-heavy parts
    more than numpy-heavy ones.
    """
    prof = cProfile.Profile()
    prof.enable()
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    prof.disable()
    stats = pstats.Stats(prof)
    cumulative: dict[tuple[str, str], float] = {}
    for (file, _line, func), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "oprlab" in file:
            key = (file.rsplit("/", 1)[-1], func)
            cumulative[key] = cumulative.get(key, 0.0) + ct
    out = {label: sum(cumulative.get(f, 0.0) for f in funcs) for label, funcs in PARTS}
    out["total"] = float(stats.total_tt)  # type: ignore[attr-defined]
    return out


def split_line(parts: dict[str, float]) -> str:
    """One readable line: each part's share of the game and its milliseconds (profiled)."""
    total = parts["total"]
    apply_rest = max(0.0, parts["apply"] - parts["movement"])
    shown = [
        ("movement", parts["movement"]),
        ("rest of apply (attacks, morale, log)", apply_rest),
        ("commander", parts["commander"]),
        ("legal actions", parts["legal actions"]),
        ("sight and cover (within the two before)", parts["sight"]),
    ]
    return ", ".join(f"{name} {100 * s / total:.0f}% ({1000 * s:.0f} ms)" for name, s in shown)


def run(budget: float) -> list[Result]:
    global NOTES
    sizes = {
        "150 pts": (
            load_army(sample_path("gff/shooty-150.txt")),
            load_army(sample_path("gff/melee-150.txt")),
        ),
        "300 pts": (
            load_army(sample_path("gff/shooty-300.txt")),
            load_army(sample_path("gff/melee-300.txt")),
        ),
        "600 pts": (
            _merge("600 A", "gff/shooty-300.txt", "gff/elite-300.txt"),
            _merge("600 B", "gff/melee-300.txt", "gff/horde-300.txt"),
        ),
    }
    out = []
    per_game: dict[str, float] = {}
    for label, (a, b) in sizes.items():
        n = 2 if budget < 1 else 5
        seconds = _games(a, b, n)
        per_game[label] = seconds / n
        out.append(Result(f"game, {label}", n, "games", seconds))
    lines = [f"- {label}: {split_line(split(a, b))}" for label, (a, b) in sizes.items()]
    ms = {label: 1000 * s for label, s in per_game.items()}
    growth = (
        f"Cost by army size: {ms['150 pts']:.0f} ms, {ms['300 pts']:.0f} ms and "
        f"{ms['600 pts']:.0f} ms a game at 150, 300 and 600 points: x"
        f"{ms['300 pts'] / ms['150 pts']:.1f} from 150 to 300 and x"
        f"{ms['600 pts'] / ms['300 pts']:.1f} from 300 to 600 (more units make more actions to "
        f"score, each against more enemies, and more obstacles for every path). The 300-point "
        f"game is {ms['300 pts'] / 50:.1f} times the 50 ms target."
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    NOTES = "\n".join(
        [
            _ABOUT.strip(),
            "",
            f"CPU times; load average {load:.1f} on {os.cpu_count()} cores when run (a busy "
            "machine makes every number here larger, wall-clock times far more).",
            "",
            "Where the time goes: one game per size under cProfile (seed 1; parts nest, see "
            "`bench_games.split`):",
            "",
            *lines,
            "",
            growth,
        ]
    )
    return out
