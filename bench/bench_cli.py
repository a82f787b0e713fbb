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
wall each) beside the floors a command cannot go under: Python with rich (check draws a
table with it), with numpy (odds convolves with it), and, for comparison, with typer (which
builds a pydantic adapter for each option) and rich, which every other command starts with.
oprlab's own modules are compiled to bytecode first, as an installed package has them (with
PYTHONDONTWRITEBYTECODE set, every run would compile them again: about a quarter more).

The fast start (`oprlab/__main__.py`, `oprlab.commands.fast`): `check` and `odds` in their
plain forms are read without typer, click or pydantic and run the same work as the typer
commands; `--help`, usage mistakes and anything the fast start does not read go through typer
(tests/cli/test_fast_start.py: the same stdout, stderr and exit code either way).

What `python -X importtime` shows: before the fast start, typer with its vendored click and
pydantic adapters (typer._adapters alone a quarter of a second on a busy machine) and rich were
over half of `check`; now `check` imports, of oprlab, the fast start, `mechanics` (base,
registry, d6 only) and `prob`, and rich only to draw its table (`--json` loads no rich); no
numpy (the mechanics import it only to sample). `odds` adds numpy (now half of its start-up),
the GFF attack rules (attack chain, profiles; a whole melee exchange's procedure only when one
is asked), the unit text format and validation and the system table; no numpy.random (only to
sample), no table model, no numpy.typing, no tempfile (only when an output is named), no typer,
click, pydantic or rich (with `--json`), no importlib.metadata (looked for only when a house
rule is not a shipped one), no clock, no game engine, DuckDB, Dask, shapely or matplotlib
(tests/cli/test_startup.py checks the module names). Issue 13's start-up steps, counted in
instructions (`perf stat -e instructions:u`, bytecode compiled): check 1.08 -> 0.79 -> 0.29 G
(0.17 G with --json; python with rich alone 0.24 G), odds --json 1.43 -> 1.32 -> 0.79 -> 0.70 G
(python with numpy alone 0.40 G; the last step: the melee procedure, numpy.random, the table
model, numpy.typing and tempfile loaded only when used).
"""
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
