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

from bench.harness import Result

TITLE = "Command line start-up (whole processes)"
_ABOUT = """
Each row starts a new Python process again and again (after one warm-up run) and reports the
CPU time (user + system) of the finished children per run; the medians of their wall-clock
times are below the table. `oprlab check d6 --target 4` and `oprlab odds
'gff/shooty-300:Lantern Wardens' gff/horde-300:Ravagers --json` (issue 13's target: under 0.4 s
wall each) beside the floor a command cannot go under: Python with typer (which builds a
pydantic adapter for each option), rich and, for `odds`, numpy, imported and nothing else.
oprlab's own modules are compiled to bytecode first, as an installed package has them (with
PYTHONDONTWRITEBYTECODE set, every run would compile them again: about a quarter more).

What `python -X importtime` shows: `check` imports typer, click, pydantic (typer's coercion),
rich, and of oprlab the CLI root, `mechanics` (base, registry, d6 only) and `prob`; no numpy
(the mechanics import it only to sample). `odds` adds numpy, the GFF rules (attack chain,
profiles, melee), the unit text format and validation and the system table; no clock, no
pydantic models of Army Forge JSON (loaded for a JSON list only), no game engine, DuckDB,
Dask, shapely or matplotlib (tests/cli/test_startup.py checks the module names). Issue 13's
start-up steps, counted in instructions (`perf stat -e instructions:u`, bytecode compiled):
check 1.08 -> 0.79 G (the floor is 0.68 G), odds 1.43 -> 1.32 G (floor with numpy 0.93 G).
"""
NOTES = _ABOUT

_ROOT = Path(__file__).resolve().parent.parent
ODDS_ARGS = ("odds", "gff/shooty-300:Lantern Wardens", "gff/horde-300:Ravagers", "--json")
#: Each row: its name and the process's arguments after the interpreter.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("oprlab check d6 --target 4", ("-m", "oprlab", "check", "d6", "--target", "4")),
    ("oprlab odds (two sample units, --json)", ("-m", "oprlab", *ODDS_ARGS)),
    (
        "floor: python + typer, pydantic, rich",
        ("-c", "import typer._adapters, typer.main, rich.console, rich.table"),
    ),
    (
        "floor: the same + numpy",
        ("-c", "import typer._adapters, typer.main, rich.console, rich.table, numpy"),
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
