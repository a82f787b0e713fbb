"""Whole GFF games between two rules-based commanders, by army size, and where time goes."""

from __future__ import annotations

import cProfile
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import Result, prose
from oprlab.game.actions import Action
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.players.base import Commander
from oprlab.samples import sample_path
from oprlab.units.formats import army_format
from oprlab.units.load import load_army
from oprlab.units.model import Army

TITLE = "Full games (GFF, rules-based commanders, d6)"
_ABOUT = prose("games")
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


#: Issue 13's baseline (CPU seconds a game, median of 3, the same lists, rules commanders).
BASELINE = {"150 pts": 0.20, "300 pts": 0.48, "600 pts": 1.77}
#: Issue 13's targets: a 300-point game at most this (5x, stretch 50 ms), 600 points at most
#: this many times the 300-point cost.
TARGET_300 = 0.100
TARGET_GROWTH = 2.5


class _Timed:
    """A commander whose ``choose`` adds its CPU time up (the commander's cost per decision
    without a profiler's distortion)."""

    def __init__(self, inner: Commander) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        start = time.process_time()
        try:
            action: Action = self.inner.choose(state, actions)
            return action
        finally:
            self.seconds += time.process_time() - start


@dataclass(frozen=True)
class Games:
    """Seeded games of one size: CPU seconds of each, decisions, the commanders' seconds, and
    the load average when they began."""

    seconds: list[float]
    decisions: int
    commander: float
    load: float

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def per_decision(self) -> str:
        """Decisions a game and milliseconds a decision: the commander's and the rest's."""
        n = len(self.seconds)
        total = sum(self.seconds)
        per = 1000 / max(1, self.decisions)
        return (
            f"{self.decisions / n:.0f} decisions a game, commander {self.commander * per:.2f} ms "
            f"a decision ({100 * self.commander / total:.0f}% of the game), legal actions and "
            f"apply {(total - self.commander) * per:.2f} ms"
        )


def _games(
    a: Any, b: Any, seeds: Sequence[int], system: str = "gff", commander: str = "rules"
) -> Games:
    """Play ``seeds`` on an open table, after one unmeasured game (caches warm, as in a batch)."""
    play_game(a, b, [get_commander(commander, 0, system=system)] * 2, seed=0, system=system)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    seconds: list[float] = []
    decisions = 0
    thinking = 0.0
    for seed in seeds:
        sides = [
            _Timed(get_commander(commander, seed, system=system)),
            _Timed(get_commander(commander, seed + 1, system=system)),
        ]
        start = time.process_time()
        result, _ = play_game(a, b, sides, seed=seed, system=system)
        seconds.append(time.process_time() - start)
        decisions += result.decisions
        thinking += sum(c.seconds for c in sides)
    return Games(seconds, decisions, thinking, load)


#: Issue 13: the memory of a process playing a 600-point game stays under this (MiB).
TARGET_MEMORY_MIB = 150.0


def play_600_and_report_memory() -> None:
    """Play one 600-point game (seed 1, rules commanders) in this process and print its peak
    resident memory in MiB (Linux: VmHWM, since ``ru_maxrss`` of a process started by one
    with a larger memory may report the starter's; elsewhere ``ru_maxrss`` in KiB)."""
    a = _merge("600 A", "gff/shooty-300.txt", "gff/elite-300.txt")
    b = _merge("600 B", "gff/melee-300.txt", "gff/horde-300.txt")
    play_game(a, b, [get_commander("rules", 1), get_commander("rules", 2)], seed=1)
    status = Path("/proc/self/status")
    if status.exists():  # the peak of this program alone (ru_maxrss may keep the parent's)
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                print(int(line.split()[1]) / 1024)
                return
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def peak_memory_600() -> float:
    """MiB at the peak of a new process that imports oprlab and plays one 600-point game."""
    code = "from bench.bench_games import play_600_and_report_memory as f; f()"
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, check=True, text=True, cwd=root
    )
    return float(done.stdout.split()[-1])


def _army(system: str, name: str) -> Any:
    return army_format(find_system(system).army_format).load(sample_path(name))


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
    few = range(1, 4 if budget < 1 else 6)
    seeds = {"150 pts": few, "300 pts": range(1, 11), "600 pts": few}
    out = []
    played: dict[str, Games] = {}
    for label, (a, b) in sizes.items():
        got = played[label] = _games(a, b, seeds[label])
        out.append(Result(f"game, {label}", len(got.seconds), "games", sum(got.seconds)))
    others = {
        "Riverside, 300 pts": ("riverside", sizes["300 pts"]),
        "WWPD, colonial": (
            "wwpd",
            (_army("wwpd", "wwpd/colonial.yaml"), _army("wwpd", "wwpd/colonial.yaml")),
        ),
    }
    for label, (system, (a, b)) in others.items():
        got = played[label] = _games(a, b, few, system=system)
        out.append(Result(f"game, {label}", len(got.seconds), "games", sum(got.seconds)))
    lines = [f"- {label}: {split_line(split(a, b))}" for label, (a, b) in sizes.items()]
    ms = {label: 1000 * g.median for label, g in played.items()}
    targets = [
        f"- 300-point GFF game, median of seeds 1-10: {ms['300 pts']:.0f} ms CPU = "
        f"{ms['300 pts'] / (1000 * BASELINE['300 pts']):.2f} x the issue's "
        f"{1000 * BASELINE['300 pts']:.0f} ms (target {1000 * TARGET_300:.0f} ms = 0.21 x, "
        f"{ms['300 pts'] / (1000 * TARGET_300):.1f} times over it; load "
        f"{played['300 pts'].load:.1f})",
        *(
            f"- {label} GFF game, median of seeds {few[0]}-{few[-1]}: {ms[label]:.0f} ms = "
            f"{ms[label] / (1000 * BASELINE[label]):.2f} x the issue's "
            f"{1000 * BASELINE[label]:.0f} ms (load {played[label].load:.1f})"
            for label in ("150 pts", "600 pts")
        ),
        f"- Peak memory of a process playing one 600-point game: {peak_memory_600():.0f} MiB "
        f"(target under {TARGET_MEMORY_MIB:.0f})",
        f"- 600 points cost {ms['600 pts'] / ms['300 pts']:.1f} x the 300-point game (target "
        f"at most {TARGET_GROWTH} x; the issue's baseline {1.77 / 0.48:.1f} x)",
        *(
            f"- {label}, median of seeds {few[0]}-{few[-1]}: {ms[label]:.0f} ms (load "
            f"{played[label].load:.1f}; the issue gives no baseline for it)"
            for label in others
        ),
    ]
    decisions = [f"- {label}: {g.per_decision()}" for label, g in played.items()]
    growth = (
        f"Cost by army size (medians): {ms['150 pts']:.0f} ms, {ms['300 pts']:.0f} ms and "
        f"{ms['600 pts']:.0f} ms a game at 150, 300 and 600 points: x"
        f"{ms['300 pts'] / ms['150 pts']:.1f} from 150 to 300 and x"
        f"{ms['600 pts'] / ms['300 pts']:.1f} from 300 to 600 (more units make more actions to "
        f"score, each against more enemies, and more obstacles for every path)."
    )
    NOTES = "\n".join(
        [
            _ABOUT.strip(),
            "",
            "CPU times; the load average on "
            f"{os.cpu_count()} cores is given with each number (a busy machine makes every "
            "number here larger, wall-clock times far more).",
            "",
            "Issue 13's targets, as ratios to its baseline (same lists, same commanders):",
            "",
            *targets,
            "",
            "Per decision (the commander timed around its `choose`, no profiler):",
            "",
            *decisions,
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
