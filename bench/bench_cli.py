"""The command line's start-up: whole ``oprlab check`` and ``oprlab odds`` processes, beside
the libraries alone they cannot start without (issue 13: each under 0.4 s wall)."""

from __future__ import annotations

import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench.harness import Result, prose

TITLE = "Command line start-up (whole processes)"
_ABOUT = prose("cli")
NOTES = _ABOUT

_ROOT = Path(__file__).resolve().parent.parent
ODDS_ARGS = ("odds", "gff/shooty-300:Lantern Wardens", "gff/horde-300:Ravagers", "--json")
#: Each row: its name and the process's arguments after the interpreter.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("oprlab check d6 --target 4", ("-m", "oprlab", "check", "d6", "--target", "4")),
    ("oprlab odds (two sample units, --json)", ("-m", "oprlab", *ODDS_ARGS)),
    ("floor: python + rich", ("-c", "import rich.console, rich.table")),
    ("floor: python + numpy", ("-c", "import numpy")),
    (
        "python + typer, pydantic, rich (every other command)",
        ("-c", "import typer._adapters, typer.main, rich.console, rich.table"),
    ),
    ("bare python", ("-c", "pass")),
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _runs(args: tuple[str, ...], budget: float) -> tuple[int, float, float]:
    """Runs made, their CPU seconds in all, and the median wall seconds of one."""
    cmd = [sys.executable, *args]
    subprocess.run(cmd, capture_output=True, check=True, cwd=_ROOT)  # warm-up
    runs, walls = 0, []
    start = _children_cpu()
    while runs < 3 or _children_cpu() - start < budget:
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True, cwd=_ROOT)
        walls.append(time.perf_counter() - t)
        runs += 1
    return runs, _children_cpu() - start, statistics.median(walls)


def run(budget: float = 0.5) -> list[Result]:
    global NOTES
    compileall.compile_dir(_ROOT / "src" / "oprlab", quiet=1)
    results, walls = [], []
    for name, args in COMMANDS:
        runs, cpu, wall = _runs(args, max(budget, 1.0))
        results.append(Result(name, runs, "runs", cpu))
        walls.append(f"{name} {wall:.2f} s")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    NOTES = (
        _ABOUT.rstrip()
        + f"\n\nMedian wall-clock time of one run (load average {load:.1f} on "
        + f"{os.cpu_count()} cores when run): "
        + "; ".join(walls)
        + ".\n"
    )
    return results
