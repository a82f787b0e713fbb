"""``oprlab results``: read the results files that ``oprlab battle --out FILE`` writes.

``summary`` shows each stored series the way ``battle --games N`` does (the same numbers, from
the same function); ``export --parquet`` writes the games table for other tools.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

from oprlab.cli.battle import series_table
from oprlab.commands.inputs import check_outputs
from oprlab.errors import OptionError

results_app = typer.Typer(
    name="results",
    help="Read series results stored by `oprlab battle --out FILE`.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)


def register(app: typer.Typer) -> None:
    app.add_typer(results_app, name="results")


def _check_series(wanted: str | None, known: list[str]) -> None:
    if wanted is not None and wanted not in known:
        raise OptionError(
            "no series with this id in the file",
            value=wanted,
            expected="one of " + (", ".join(known) or "(the file holds no series)"),
            where="--series",
        )


@results_app.command("summary")
def summary(
    file: Path = typer.Argument(..., help="A DuckDB results file written by `battle --out`."),
    series: str | None = typer.Option(None, help="Only the series with this id."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON: summaries by series id."),
) -> None:
    """Win rates and means with 95% intervals for each series in the file."""
    from oprlab.analysis.results import ResultStore

    with ResultStore(file, read_only=True) as store:
        summaries = store.summaries()
        info = {s["series_id"]: s for s in store.series()}
    _check_series(series, list(summaries))
    if series is not None:
        summaries = {series: summaries[series]}
    if as_json:
        typer.echo(json.dumps(summaries, indent=2))
        return
    console = Console()
    if not summaries:
        console.print(f"{file} holds no series yet")
    for sid, s in summaries.items():
        row = info[sid]
        series_table(console, s)
        state = "interrupted" if s["interrupted"] else "finished"
        console.print(
            f"series {sid}: {s['system']}, commanders {' vs '.join(s['commanders'])}, "
            f"{s['games']} of {row['games_planned']} games stored, {row['runs']} run(s), "
            f"last run {state}"
        )


@results_app.command("export")
def export(
    file: Path = typer.Argument(..., help="A DuckDB results file written by `battle --out`."),
    parquet: Path = typer.Option(..., "--parquet", help="Write the games table to this file."),
    series: str | None = typer.Option(None, help="Only the games of the series with this id."),
) -> None:
    """Write the stored games (one row per game, every column) to a Parquet file."""
    from oprlab.analysis.results import ResultStore

    check_outputs(parquet=parquet)
    with ResultStore(file, read_only=True) as store:
        _check_series(series, [s["series_id"] for s in store.series()])
        count = store.export_parquet(parquet, series)
    typer.echo(f"{count} games written to {parquet}")
