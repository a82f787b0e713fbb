"""``python -m bench``: run every benchmark, print a table, write docs/benchmarks.md."""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
from importlib import import_module
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.harness import Result
from oprlab import __version__

SUITES = (
    "bench.bench_cli",
    "bench.bench_mechanics",
    "bench.bench_attacks",
    "bench.bench_table",
    "bench.bench_movement",
    "bench.bench_games",
    "bench.bench_lab",
)
DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-write", action="store_true", help="Do not rewrite the doc.")
    parser.add_argument("--budget", type=float, default=0.5, help="Seconds per benchmark.")
    args = parser.parse_args()
    console = Console()
    sections: list[tuple[str, str, list[Result]]] = []
    for name in SUITES:
        module = import_module(name)
        with console.status(f"running {name}"):
            results = module.run(args.budget)
        sections.append((module.TITLE, module.NOTES, results))
        table = Table(title=module.TITLE)
        for col in ("benchmark", "work", "CPU time (s)", "rate", "per unit"):
            table.add_column(col, justify="left" if col == "benchmark" else "right")
        for r in results:
            table.add_row(
                r.name,
                f"{r.work:,} {r.unit}",
                f"{r.seconds:.3f}",
                f"{r.rate:,.0f} {r.unit}/s",
                f"{r.per_call_us:,.2f} µs",
            )
        console.print(table)
    if not args.no_write:
        DOC.write_text(_markdown(sections, args.budget), encoding="utf-8")
        console.print(f"wrote {DOC}")


def _markdown(sections: list[tuple[str, str, list[Result]]], budget: float) -> str:
    lines = [
        "# Benchmarks",
        "",
        "Made by `make bench` (`.venv/bin/python -m bench`); rewritten on every run. Times are "
        "CPU seconds of the benchmark process (`time.process_time`), not wall-clock.",
        "",
        f"- date: {dt.date.today().isoformat()}",
        f"- oprlab {__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores",
        f"- budget: {budget} CPU seconds per benchmark (`--budget`); load average "
        f"{os.getloadavg()[0] if hasattr(os, 'getloadavg') else float('nan'):.1f} when written",
        "",
    ]
    for title, notes, results in sections:
        lines += [f"## {title}", "", notes.strip(), ""]
        lines += [
            "| benchmark | work | CPU time (s) | rate | per unit |",
            "|---|---:|---:|---:|---:|",
        ]
        for r in results:
            lines.append(
                f"| {r.name} | {r.work:,} {r.unit} | {r.seconds:.3f} | "
                f"{r.rate:,.0f} {r.unit}/s | {r.per_call_us:,.2f} µs |"
            )
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
