"""``oprlab mechanics``: list the resolution mechanics."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from oprlab.mechanics import describe


def register(app: typer.Typer) -> None:
    app.command("mechanics")(mechanics)


def mechanics(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the resolution mechanics and their variants."""
    rows = describe()
    if as_json:
        typer.echo(json.dumps([{"name": n, "summary": s} for n, s in rows], indent=2))
        return
    table = Table(title="Resolution mechanics")
    table.add_column("name", style="bold")
    table.add_column("what it is")
    for name, summary in rows:
        table.add_row(name, summary)
    Console().print(table)
