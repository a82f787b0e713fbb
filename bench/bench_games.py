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
commanders, event log on, on an open table. 150 and 300 points: the bundled shooty and melee
lists; 600 points: two 300-point lists merged per side. The "where the time goes" lines profile
one game per size (cProfile, so Python-heavy parts look slower than they are) and split it into:
the table's movement (`move_unit`, `charge_move`, pile-in and separation, called through
`game.geometry`), line of sight and cover, the rules commander's choices, the legal action lists
and the rest of `apply`. The target is a 300-point game in milliseconds; the table's movement is
now most of what is left.
"""

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
    ("commander", (("rules_commander.py", "choose"),)),
    ("legal actions", (("gff.py", "legal_actions"),)),
    ("apply incl. movement", (("gff.py", "apply"),)),
)


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
    """Where one game's time goes, as shares of the whole (see :data:`PARTS`)."""
    prof = cProfile.Profile()
    prof.enable()
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    prof.disable()
    stats = pstats.Stats(prof)
    total = stats.total_tt  # type: ignore[attr-defined]
    cumulative: dict[tuple[str, str], float] = {}
    for (file, _line, func), (_cc, _nc, _tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        if "oprlab" in file:
            key = (file.rsplit("/", 1)[-1], func)
            cumulative[key] = cumulative.get(key, 0.0) + ct
    shares = []
    for label, funcs in PARTS:
        seconds = sum(cumulative.get(f, 0.0) for f in funcs)
        shares.append(f"{label} {100 * seconds / total:.0f}%")
    return ", ".join(shares)


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
    for label, (a, b) in sizes.items():
        out.append(Result(f"where the time goes ({label}): {profile_line(a, b)}", 1, "games", 0.0))
    return out
