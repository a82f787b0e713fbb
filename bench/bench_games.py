"""Whole GFF games between two rules-based commanders, by army size, and where time goes."""

from __future__ import annotations

import cProfile
import pstats
import time

from bench.harness import Result
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Army

TITLE = "Full games (GFF, rules-based commanders, d6)"
NOTES = """
One game = objectives, deployment, 4 rounds, morale and scoring between two rules-based
commanders, event log on. 150 and 300 points: the bundled shooty and melee lists; 600 points:
two 300-point lists merged per side. The profile line names the functions with the most
cumulative time in one 300-point game. The target is a 300-point game in milliseconds: see the
rate column for how far we are.
"""


def _merge(name: str, *lists: str) -> Army:
    armies = [load_army(sample_path(n)) for n in lists]
    units = tuple(u for a in armies for u in a.units)
    return Army(name, "GFF", sum(a.points for a in armies), units)


def _games(a: Army, b: Army, n: int) -> float:
    start = time.perf_counter()
    for seed in range(n):
        play_game(a, b, [get_commander("rules", seed), get_commander("rules", seed + 1)], seed=seed)
    return time.perf_counter() - start


def profile_line(a: Army, b: Army) -> str:
    prof = cProfile.Profile()
    prof.enable()
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][3])  # type: ignore[attr-defined]
    shown = []
    for (file, _line, func), (_cc, _nc, _tt, ct, _callers) in rows:
        if "oprlab" in file and func not in {"play_game", "<module>"}:
            shown.append(f"{func} {100 * ct / total:.0f}%")
        if len(shown) == 5:
            break
    return ", ".join(shown)


def run(budget: float) -> list[Result]:
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
    for label, (a, b) in sizes.items():
        n = 2 if budget < 1 else 5
        out.append(Result(f"game, {label}", n, "games", _games(a, b, n)))
    a, b = sizes["300 pts"]
    out.append(Result(f"profile (300 pts): {profile_line(a, b)}", 1, "games", 0.0))
    return out
