"""``oprlab table show``: read or generate a table, print a summary, draw it as SVG.

An edge module: it may import every layer. A terrain file that cannot be read raises an oprlab
:class:`~oprlab.errors.UserError`, which the CLI root prints as one line with exit code 2.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import typer
from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from oprlab.commands.inputs import check_outputs
from oprlab.files import read_text, write_atomic
from oprlab.rng import make_rng
from oprlab.table.deploy import mission_table
from oprlab.table.model import Table
from oprlab.table.svg import table_svg
from oprlab.table.terrain import PRESETS, load_table, table_to_json

table_app = typer.Typer(
    name="table",
    help="Tables and terrain: generate one or read a terrain file, and draw it.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_FILE = typer.Argument(None, help="A terrain JSON file (docs/terrain.md); none: generate one.")
_SVG = typer.Option(None, "--svg", help="Write an SVG picture of the table to this file.")
_JSON = typer.Option(
    False, "--json", help="Print the table as terrain JSON (docs/terrain.md) instead of a summary."
)
_SAVE = typer.Option(None, "--save", help="Write the table as a terrain JSON file.")
_SEED = typer.Option(None, "--seed", help="Seed of a generated table (default: a random one).")
_PIECES = typer.Option(20, "--pieces", help="Pieces on a generated table.", min=0, max=80)
_ASYM = typer.Option(False, "--asymmetric", help="Do not mirror a generated table.")


def register(app: typer.Typer) -> None:
    """Add the ``table`` sub-app to the root app."""
    app.add_typer(table_app, name="table")


def read_table_file(path: Path) -> Table:
    """The table in terrain file ``path``, or a :class:`ParseError` naming the file."""
    return load_table(read_text(path, "terrain file", "a terrain JSON file"), str(path))


def summary(table: Table, title: str) -> RichTable:
    """Pieces by kind (preset, else types) with their types, plus the table's size."""
    rows = Counter(
        p.preset if p.preset else "+".join(sorted(t.value for t in p.types)) or "open"
        for p in table.pieces
    )
    out = RichTable(title=title, box=box.SIMPLE_HEAD, title_justify="left")
    out.add_column("kind")
    out.add_column("pieces", justify="right")
    out.add_column("types")
    for kind, count in sorted(rows.items()):
        preset = PRESETS.get(kind)
        types = (
            ", ".join(sorted(t.value for t in preset.types)) if preset else kind.replace("+", ", ")
        )
        out.add_row(kind, str(count), types)
    out.add_section()
    out.add_row("total", str(len(table.pieces)), "")
    return out


@table_app.command()
def show(
    file: Path | None = _FILE,
    svg: Path | None = _SVG,
    as_json: bool = _JSON,
    save: Path | None = _SAVE,
    seed: int | None = _SEED,
    pieces: int = _PIECES,
    asymmetric: bool = _ASYM,
) -> None:
    """Show a table: a terrain file, or a generated one (same --seed, same table and SVG)."""
    check_outputs(svg=svg, save=save)
    if file is not None:
        table = read_table_file(file)
        title = f"{file.name}: {table.width:g}x{table.depth:g} table"
    else:
        used = make_rng(seed).seed
        table = mission_table(used, pieces=pieces, symmetric=not asymmetric)
        title = f"generated table, seed {used}: {table.width:g}x{table.depth:g}"
    # Files first, then the output: `... | head` closing the pipe early loses no file.
    if svg is not None:
        write_atomic(svg, table_svg(table), "--svg")
    if save is not None:
        write_atomic(save, table_to_json(table), "--save")
    if as_json:
        typer.echo(table_to_json(table), nl=False)
        return
    console = Console(highlight=False, soft_wrap=True)
    console.print(summary(table, title))
    console.print(
        f'deployment zones {table.deployment_depth:g}" deep; '
        f"{len(table.objectives)} objective marker(s)"
    )
    for path in (svg, save):
        if path is not None:
            console.print(f"wrote {path}", markup=False)
