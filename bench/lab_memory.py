"""Worker memory across a long joblib run of the lab: the resident set size (RSS) of every
worker process, sampled while ``oprlab experiment run`` plays, at the start, middle and end.

``.venv/bin/python -m bench.lab_memory [SEEDS] [--dask [--profiler]]``: random commanders on
two 150-point lists drawn from the skirmish pool per seed (a new list every seed: what a
fair-points run does), one cell, ``--jobs 2``; with ``--dask``, on a Dask cluster of two
single-threaded worker processes started here (a scheduler address like any other
``--cluster``; the workers are this process's children, so they are sampled the same way),
without Dask's statistical profiler as docs/experiments.md says to start workers
(``--profiler``: with it). Prints the workers' RSS (MiB) over time
and its growth over each half of the run (the least-squares slope of the samples in MiB per 100
games); a leak shows as a steady climb, level memory as a second half near 0.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import psutil

from bench.harness import argument, positional
from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.run import run_experiment

ROOT = Path(__file__).resolve().parents[1]


def main(seeds: int = 150, cluster: str | None = None) -> None:
    text = f"""
name = "memory"
seed = 9
[[matchups]]
a = "pool:{(ROOT / "examples/pools/skirmish.toml").as_posix()}"
b = "pool:{(ROOT / "examples/pools/skirmish.toml").as_posix()}"
points = 150
[factors]
commanders = ["random"]
[stop]
seeds = {seeds}
"""
    exp = parse_experiment(text)
    cells = build_cells(exp)
    samples: list[tuple[float, int, float]] = []
    done = threading.Event()
    played = [0]

    def watch() -> None:
        me = psutil.Process()
        start = time.perf_counter()
        while not done.is_set():
            kids = me.children(recursive=True)
            rss = [k.memory_info().rss for k in kids if k.is_running()]
            if rss:
                samples.append((time.perf_counter() - start, played[0], max(rss) / 2**20))
            done.wait(2.0)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    with tempfile.TemporaryDirectory() as tmp:

        def count(_: object, new: bool) -> None:
            played[0] += new

        run_experiment(
            exp, cells, Path(tmp) / "lab.duckdb", n_jobs=2, cluster=cluster, on_game=count
        )
    done.set()
    thread.join()
    print("seconds  games  largest worker RSS (MiB)")
    step = max(1, len(samples) // 12)
    for t, n, mib in samples[::step] + samples[-1:]:
        print(f"{t:7.0f}  {n:5d}  {mib:8.1f}")
    print(growth(samples))


def growth(samples: Sequence[tuple[float, int, float]]) -> str:
    """The largest worker's growth in MiB per 100 games over each half of the run (by games
    played): the least-squares slope of its samples, so one sample's noise weighs little. The
    samples before the first game (workers still importing) are left out."""
    samples = [s for s in samples if s[1] > 0]
    if not samples:
        return "no samples"
    half = samples[-1][1] / 2
    parts = []
    for name, part in (
        ("first half", [s for s in samples if s[1] <= half]),
        ("second half", [s for s in samples if s[1] >= half]),
    ):
        games = np.array([s[1] for s in part], dtype=float)
        if len(part) < 2 or np.ptp(games) == 0:
            parts.append(f"{name}: too few samples")
            continue
        slope = np.polyfit(games, [s[2] for s in part], 1)[0]
        parts.append(
            f"{name} ({part[0][1]}-{part[-1][1]} games): {100 * slope:+.2f} MiB per 100 games"
        )
    return "growth of the largest worker: " + "; ".join(parts)


USAGE = "python -m bench.lab_memory [SEEDS] [--dask [--profiler]]"

if __name__ == "__main__":
    argv = positional(sys.argv[1:], ("--dask", "--profiler"), 1, USAGE)
    seeds = int(argument(argv, 0, "SEEDS", USAGE, number=True)) if argv else 150
    if "--dask" not in sys.argv:
        main(seeds)
    else:
        import dask
        from distributed import LocalCluster

        # Workers as docs/experiments.md says to start them: without the statistical profiler,
        # whose history (a profile tree every second, for the last 1,000 seconds) grew a worker
        # by about 8 MiB per 100 games. ``--profiler`` keeps Dask's default to show it.
        profiler = "--profiler" in sys.argv
        with (
            dask.config.set({"distributed.worker.profile.enabled": profiler}),
            LocalCluster(  # type: ignore[no-untyped-call]
                processes=True, n_workers=2, threads_per_worker=1, dashboard_address=":0"
            ) as cluster,
        ):
            main(seeds, cluster.scheduler_address)
