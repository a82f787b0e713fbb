"""The command line: ``oprlab`` (typer + rich). An edge: it may import every layer.

User errors end as one clear line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from importlib import import_module

import typer
from rich.console import Console

from oprlab.errors import UserError
from oprlab.version import __version__

app = typer.Typer(
    name="oprlab",
    help="A rules laboratory for One Page Rules style wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: Command modules; each has ``register(app)``.
COMMAND_MODULES = (
    "oprlab.cli.mechanics",
    "oprlab.cli.check",
    "oprlab.cli.army",
    "oprlab.cli.demo",
    "oprlab.cli.odds",
    "oprlab.cli.compare",
    "oprlab.cli.dq",
    "oprlab.cli.battle",
    "oprlab.cli.table",
    "oprlab.cli.results",
)

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"oprlab {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """A rules laboratory for One Page Rules style wargames."""


for _name in COMMAND_MODULES:
    import_module(_name).register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; a :class:`UserError` becomes one line on stderr and exit code 2."""
    try:
        app(args=argv, prog_name="oprlab")
    except UserError as exc:
        err.print(f"error: {exc}", markup=False)
        return 2
    except SystemExit as exc:  # typer's standalone mode ends every run this way
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
