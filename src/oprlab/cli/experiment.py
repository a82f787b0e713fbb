"""``oprlab experiment``: run a balance-lab experiment file, see how far it is, write its report.

``run FILE --out DB`` plays what is missing (a rerun after Ctrl-C resumes), ``status FILE --out
DB`` counts what is stored, ``report FILE --out DB --html R.html --json R.json`` writes the
report, ``export FILE --out DB --parquet G.parquet`` the games for other tools. Everything is
checked before the first game: the file, its armies, the output files.
docs/experiments.md explains the file, the design and the report.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from oprlab.analysis.lab.design import Cell, build_cells, experiment_hash
from oprlab.analysis.lab.model import Experiment, parse_experiment
from oprlab.commands.inputs import check_jobs, check_outputs, load_playable
from oprlab.errors import OptionError
from oprlab.files import read_text, write_atomic
from oprlab.game.systems import find_system

experiment_app = typer.Typer(
    name="experiment",
    help="Balance-lab experiments: a question, a paired design, a stopping rule, a report.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_OUT_HELP = "The DuckDB lab file the games are stored in (created if missing)."


def register(app: typer.Typer) -> None:
    app.add_typer(experiment_app, name="experiment")


class _Rate(ProgressColumn):
    """Games per second since the start (games arrive a seed's group at a time, which makes
    rich's windowed speed jump)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed
        if not elapsed or not task.completed:
            return Text("-- games/s")
        return Text(f"{task.completed / elapsed:.2f} games/s")


def _load(file: Path) -> tuple[str, Experiment, list[Cell]]:
    text = read_text(file, "experiment file", "a TOML experiment file (docs/experiments.md)")
    exp = parse_experiment(text, str(file))
    cells = build_cells(
        exp,
        load=lambda refs: load_playable(
            [(f"{file}: {label}", ref) for label, ref in refs],
            command="experiment",
            fmt=find_system(exp.factors.system[0]).army_format,
        ),
        source=str(file),
    )
    return text, exp, cells


@experiment_app.command("run")
def run(
    file: Path = typer.Argument(..., help="The experiment file (TOML)."),
    out: Path = typer.Option(..., help=_OUT_HELP),
    jobs: int = typer.Option(
        0, help="Worker processes (0: all cores; more than the cores is capped)."
    ),
    cluster: str | None = typer.Option(
        None,
        metavar="ADDRESS",
        help="Play on a Dask cluster: a scheduler address (tcp://host:8786), or 'local'.",
    ),
) -> None:
    """Play the experiment's missing games into --out (a rerun resumes where a run stopped)."""
    from oprlab.analysis.lab.run import run_experiment

    if out.suffix.lower() == ".parquet":
        raise OptionError(
            "the lab writes a DuckDB file", value=str(out), expected="a .duckdb file", where="--out"
        )
    check_outputs(out=out)
    _, exp, cells = _load(file)
    n_jobs = check_jobs(jobs, 2 * exp.stop.seeds * len(cells))
    notes = Console(stderr=True, highlight=False)
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        _Rate(),
        TimeRemainingColumn(),
        console=notes,
    )
    task = progress.add_task("games", total=0)
    counts = {"played": 0}

    def on_batch(todo: int, planned: int) -> None:
        t = progress.tasks[0]
        progress.update(task, total=(t.total or 0) + todo)

    def on_game(_: Any, new: bool) -> None:
        counts["played"] += new
        progress.advance(task)

    h = experiment_hash(exp, cells)
    notes.print(
        f"experiment {h}: {len(cells)} cells, up to {exp.stop.seeds} seeds each in both seats "
        f"({exp.stop.rule} stopping rule), stored in {out}"
    )
    start = time.perf_counter()
    try:
        with progress:
            outcome = run_experiment(
                exp,
                cells,
                out,
                n_jobs=n_jobs,
                cluster=cluster,
                on_game=on_game,
                on_batch=on_batch,
            )
    except KeyboardInterrupt:
        notes.print(
            f"interrupted: {counts['played']} games of this run kept in {out}; run the same "
            "command again to play the rest"
        )
        raise typer.Exit(130) from None
    took = time.perf_counter() - start
    notes.print(
        f"{outcome.played} games played in {took:.1f} s ({outcome.already} stored before); "
        f"{outcome.seeds_played} seeds looked at"
    )
    by_key = {c.key: c for c in cells}
    for key, why in outcome.stopped.items():
        notes.print(f"  cell {by_key[key].index + 1} ({by_key[key].label()}): {why}")


@experiment_app.command("status")
def status(
    file: Path = typer.Argument(..., help="The experiment file (TOML)."),
    out: Path = typer.Option(..., help="The lab file written by `experiment run`."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """How many seeds and games of each cell are stored, and whether its rule has stopped it."""
    from oprlab.analysis.lab.report import needs_seeds, replay_stops
    from oprlab.analysis.lab.store import LabStore

    _, exp, cells = _load(file)
    h = experiment_hash(exp, cells)
    with LabStore(out, read_only=True) as store:
        tally = store.tally(h, [c.key for c in cells], [], with_seeds=needs_seeds(exp, cells))
    counts = {k: t.seed_scores.n for k, t in tally.cells.items()}
    stops = replay_stops(exp, cells, tally.seeds, counts)
    rows = [
        {
            "cell": c.index + 1,
            "levels": c.label(),
            "seeds": counts[c.key],
            "games": tally.cells[c.key].games,
            "state": stops[c.key],
        }
        for c in cells
    ]
    games = sum(t.games for t in tally.cells.values())
    if as_json:
        typer.echo(json.dumps({"experiment": h, "games": games, "cells": rows}, indent=2))
        return
    table = Table(title=f"experiment {h} ({exp.name}): {games} games stored in {out}")
    for col in ("cell", "levels", "seeds", "games", "state"):
        table.add_column(col)
    for r in rows:
        table.add_row(*(str(r[k]) for k in ("cell", "levels", "seeds", "games", "state")))
    Console().print(table)


@experiment_app.command("report")
def report(
    file: Path = typer.Argument(..., help="The experiment file (TOML)."),
    out: Path = typer.Option(..., help="The lab file written by `experiment run`."),
    html: Path | None = typer.Option(None, help="Write the report as one HTML page."),
    json_out: Path | None = typer.Option(None, "--json", help="Write the report's numbers."),
) -> None:
    """The report from the stored games: scores, paired effects, margins, swing."""
    from oprlab.analysis.lab.report import build_report, needs_seeds, report_html
    from oprlab.analysis.lab.run import first_levels
    from oprlab.analysis.lab.store import LabStore
    from oprlab.analysis.lab.summary import contrasts

    check_outputs(html=html, json=json_out)
    text, exp, cells = _load(file)
    h = experiment_hash(exp, cells)
    pairs = [(p.variant.key, p.baseline.key) for p in contrasts(cells, first_levels(exp))]
    with LabStore(out, read_only=True) as store:
        tally = store.tally(h, [c.key for c in cells], pairs, with_seeds=needs_seeds(exp, cells))
        unit_totals = store.unit_totals(h)
        unit_counts = store.unit_counts(h)
    games = sum(t.games for t in tally.cells.values())
    if not games:
        raise OptionError(
            "the lab file holds no game of this experiment",
            value=str(out),
            expected=f"a file written by `oprlab experiment run {file} --out FILE`",
            where="--out",
        )
    numbers = build_report(
        exp, cells, tally, text=text, unit_totals=unit_totals, unit_counts=unit_counts
    )
    if json_out is not None:
        write_atomic(json_out, json.dumps(numbers, indent=2) + "\n", "--json")
    if html is not None:
        write_atomic(html, report_html(numbers), "--html")
    console = Console()
    table = Table(title=f"{exp.name}: {games} games")
    for col in ("effect", "seeds", "paired", "unpaired", "narrower by"):
        table.add_column(col)
    for e in numbers["effects"]:
        s = e["score_a"]
        table.add_row(
            e["name"],
            str(e["seeds"]),
            _iv(s["paired"]),
            _iv(s["unpaired"]),
            "-" if s["narrowing"] is None else f"{100 * s['narrowing']:.0f}%",
        )
    for c in numbers["cells"]:
        if "score_a" in c:
            console.print(
                f"{c['label']}: army A's score {_iv(c['score_a'])} over {c['seeds']} seeds"
            )
    console.print(table)
    for g in numbers["verdict_across_commanders"]:
        rest = "".join(f", {k} {v}" for k, v in g["levels"].items())
        said = "; ".join(f"{v['commanders']}: {v['verdict']}" for v in g["verdicts"])
        word = {"flips": "FLIPS", "depends": "depends on the commander"}.get(g["verdict"], "holds")
        console.print(f"matchup {g['matchup'] + 1}{rest}: army A's verdict {said}: {word}")


def _iv(iv: dict[str, Any]) -> str:
    return f"{iv['estimate']:+.3f} [{iv['low']:+.3f}, {iv['high']:+.3f}]"


@experiment_app.command("export")
def export(
    file: Path = typer.Argument(..., help="The experiment file (TOML)."),
    out: Path = typer.Option(..., help="The lab file written by `experiment run`."),
    parquet: Path = typer.Option(..., "--parquet", help="Write the games to this file."),
    units_parquet: Path | None = typer.Option(
        None, "--units-parquet", help="Also write the per-unit rows to this file."
    ),
) -> None:
    """Write the experiment's stored games (and per-unit rows) to Parquet for other tools."""
    from oprlab.analysis.lab.store import LabStore

    check_outputs(parquet=parquet, units_parquet=units_parquet)
    _, exp, cells = _load(file)
    h = experiment_hash(exp, cells)
    with LabStore(out, read_only=True) as store:
        games, units = store.export_parquet(h, parquet, units_parquet)
    typer.echo(
        f"{games} games written to {parquet}"
        + (f", {units} unit rows to {units_parquet}" if units_parquet is not None else "")
    )
