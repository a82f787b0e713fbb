"""The lab's report queries over many stored games (issue 15: a million in under a second).

``python -m bench.bench_lab_report [GAMES]`` (default 1,000,000) fills a fresh lab file with
generated games of a two-cell experiment (d6 and clock; every seed in both seats; random
results, margins and points) and per-unit rows (a tenth of the games x 6 units), then times
what ``oprlab experiment status`` and ``report`` ask the store for: the per-cell totals, the
per-unit sums, the report's counts (:meth:`LabStore.tally`: per-cell values, seed scores, the
paired join) and the report built from those counts. Wall time and the process's CPU time
(DuckDB's threads included), best of three. docs/experiments.md records a run.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.harness import argument, positional
from oprlab.analysis.lab.design import build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import build_report
from oprlab.analysis.lab.run import first_levels
from oprlab.analysis.lab.store import LabStore
from oprlab.analysis.lab.summary import contrasts

TEXT = """
name = "a million games"
seed = 1
[[matchups]]
a = "gff/shooty-150"
b = "gff/melee-150"
[factors]
mechanic = ["d6", "clock"]
[stop]
seeds = 500000
"""


def _best(fn: Callable[[], Any], times: int = 3) -> tuple[float, float]:
    """The least wall and CPU seconds of ``times`` calls."""
    wall, cpu = [], []
    for _ in range(times):
        w, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return min(wall), min(cpu)


def main(games: int) -> None:
    exp = parse_experiment(TEXT)
    cells = build_cells(exp)
    h = experiment_hash(exp, cells)
    keys = [c.key for c in cells]
    pairs = [(p.variant.key, p.baseline.key) for p in contrasts(cells, first_levels(exp))]
    with tempfile.TemporaryDirectory() as tmp, LabStore(Path(tmp) / "big.duckdb") as store:
        store.register(h, exp, cells)
        con = store._con
        start = time.perf_counter()
        # game i: cell i % 2, seed i // 4, seat (i // 2) % 2; results from a hash of i
        con.execute(
            "INSERT INTO lab_games SELECT $h, CASE WHEN i % 2 = 0 THEN $c0 ELSE $c1 END, i // 4, "
            "(i // 2) % 2, i, CASE WHEN hash(i) % 5 = 0 THEN NULL ELSE hash(i) % 2 END, "
            "hash(i + 1) % 2, hash(i) % 6, hash(i + 2) % 6, 1, 2, (hash(i) % 150) * 1.0, "
            "(hash(i + 3) % 150) * 1.0, 2 + hash(i) % 3, 100, hash(i + 4) % 3, "
            "hash(i + 5) % 2 = 0, 0, 'r2', 'r2', TIMESTAMP '2026-01-01' FROM range($n) t(i)",
            {"h": h, "c0": keys[0], "c1": keys[1], "n": games},
        )
        con.execute(
            "INSERT INTO lab_units SELECT $h, CASE WHEN i % 2 = 0 THEN $c0 ELSE $c1 END, i // 4, "
            "(i // 2) % 2, a, p, 'Unit ' || p, 30, (hash(i + p) % 30) * 1.0, "
            "(hash(i + a) % 40) * 1.0 FROM range($n) t(i), range(2) s(a), range(3) q(p)",
            {"h": h, "c0": keys[0], "c1": keys[1], "n": games // 10},
        )
        print(f"filled {games:,} games in {time.perf_counter() - start:.1f} s")
        tally: Any = None

        def counts() -> None:
            nonlocal tally
            tally = store.tally(h, keys, pairs)

        for name, fn in (
            ("cell totals (status)", lambda: store.cell_totals(h)),
            ("unit totals (report's per-unit table)", lambda: store.unit_totals(h)),
            ("report counts (tally: cells, seeds, paired join)", counts),
            ("report from the counts (build_report)", lambda: build_report(exp, cells, tally)),
        ):
            wall, cpu = _best(fn)
            print(f"{name}: {wall:.3f} s wall, {cpu:.3f} s CPU")
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")


USAGE = "python -m bench.bench_lab_report [GAMES]"

if __name__ == "__main__":
    args = positional(sys.argv[1:], (), 1, USAGE)
    main(int(argument(args, 0, "GAMES", USAGE, number=True)) if args else 1_000_000)
