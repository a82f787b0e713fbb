"""The balance lab's overhead over plain games: the same games through ``play_game`` directly
and through ``oprlab experiment`` (design, hooks, margins, DuckDB inserts, stopping looks)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench.harness import Result, prose
from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.run import run_experiment
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.rng import child_seed, commander_stream

TITLE = "Balance lab overhead (GFF 150 pts, d6 and clock, rules commanders, open table)"
NOTES = prose("lab")

SEEDS = 3
TEXT = f"""
name = "overhead"
seed = 1
[[matchups]]
a = "gff/shooty-150"
b = "gff/melee-150"
[factors]
mechanic = ["d6", "clock"]
[stop]
seeds = {SEEDS}
"""


def plain(text: str = TEXT) -> tuple[float, int]:
    """CPU seconds of the experiment's games through ``play_game`` alone, and their count."""
    exp = parse_experiment(text)
    start = time.process_time()
    n = 0
    for cell in build_cells(exp):
        for i in range(exp.stop.seeds):
            seed = child_seed(exp.seed, i)
            for seat in (0, 1):
                order = (0, 1) if seat == 0 else (1, 0)
                commanders = [
                    get_commander(cell.commanders[order[s]], commander_stream(seed, s))
                    for s in (0, 1)
                ]
                play_game(
                    cell.armies[order[0]],
                    cell.armies[order[1]],
                    commanders,
                    seed=seed,
                    mechanic=cell.mechanic,
                    log=False,
                    system=cell.system,
                    options=cell.options,
                )
                n += 1
    return time.process_time() - start, n


def lab(text: str = TEXT) -> tuple[float, int]:
    """CPU seconds of the same games through the lab (into a fresh DuckDB file)."""
    exp = parse_experiment(text)
    with tempfile.TemporaryDirectory() as tmp:
        start = time.process_time()
        outcome = run_experiment(exp, build_cells(exp), Path(tmp) / "lab.duckdb")
        return time.process_time() - start, outcome.played


def run(budget: float) -> list[Result]:
    """Both ways warmed up once, then the best of two each, alternating (the machine is shared:
    the best is the least disturbed)."""
    small = TEXT.replace(f"seeds = {SEEDS}", "seeds = 2")
    plain(small)
    lab(small)
    p, n = min(plain() for _ in range(2))
    q, m = min(lab() for _ in range(2))
    global NOTES
    NOTES = NOTES.rstrip() + (
        f"\n\nThis run: plain {p:.2f} s, lab {q:.2f} s CPU for {n} games: overhead "
        f"{100 * (q / p - 1):+.1f}%.\n"
    )
    return [Result("plain play_game", n, "games", p), Result("through the lab", m, "games", q)]


if __name__ == "__main__":
    for r in run(0.5):
        ms = 1000 * r.seconds / r.work
        print(f"{r.name}: {r.work} games, {r.seconds:.2f} s CPU, {ms:.0f} ms/game")
    print(NOTES)
