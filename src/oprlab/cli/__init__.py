"""The command line: ``oprlab`` (typer + rich). An edge: it may import every layer.

One error style everywhere: whatever goes wrong because of the input (a bad value, a file that
cannot be read or written, a usage mistake click finds) ends as one line ``error: ...`` on
stderr and exit code 2, never a traceback (:func:`guarded`, used by the root command itself, so
``oprlab``, ``python -m oprlab`` and typer's ``CliRunner`` behave alike). A console that is not
UTF-8 gets ``?`` for what it cannot show instead of a UnicodeEncodeError, and a closed pipe
(``oprlab ... | head``) ends the run quietly (no traceback; files are written before output,
so none is lost).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

import typer
from typer.core import TyperGroup

from oprlab.commands.streams import EXIT_BAD_INPUT, EXIT_INTERRUPTED
from oprlab.commands.streams import print_error as _print_error
from oprlab.commands.streams import quiet_after_broken_pipe as _quiet_after_broken_pipe
from oprlab.commands.streams import tolerant_streams as _tolerant_streams
from oprlab.errors import UserError
from oprlab.version import __version__

#: The click that typer runs on (typer vendors its own copy in recent versions): its errors.
_click = import_module(typer.BadParameter.__module__)
UsageError: type[Exception] = _click.UsageError
ClickException: type[Exception] = _click.ClickException


class _NeverRaised(Exception):
    """Stands in for an exception class an older click does not have."""


NoArgsIsHelpError: type[Exception] = getattr(_click, "NoArgsIsHelpError", _NeverRaised)


def _usage_hint(exc: Exception) -> str:
    ctx = getattr(exc, "ctx", None)
    return f" (see '{ctx.command_path} --help')" if ctx is not None else ""


def _message(exc: Exception) -> str:
    format_message = getattr(exc, "format_message", None)
    text = str(format_message()) if format_message is not None else str(exc)
    return text.replace("Value error, ", "")  # pydantic's prefix, as typer passes it on


def guarded(call: Callable[[], Any]) -> int:
    """Run a CLI invocation (in click's non-standalone mode) and turn its end into an exit
    code, printing every error a user can cause as one line."""
    _tolerant_streams()
    try:
        result = call()
    except UserError as exc:
        _print_error(str(exc))
        return EXIT_BAD_INPUT
    except NoArgsIsHelpError as exc:  # `oprlab army`: the group's help, as asked
        typer.echo(_message(exc))
        return 0
    except UsageError as exc:
        _print_error(_message(exc).rstrip(".") + _usage_hint(exc))
        return EXIT_BAD_INPUT
    except ClickException as exc:
        _print_error(_message(exc))
        code = getattr(exc, "exit_code", 1)
        return code if isinstance(code, int) else 1
    except (typer.Abort, KeyboardInterrupt):
        _print_error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    except SystemExit as exc:  # typer ends a broken pipe (and some callbacks) this way
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    if isinstance(result, int):  # an Exit(code) raised inside a command
        return result
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return _quiet_after_broken_pipe()
    return 0


#: Each command and the module that defines it (its ``register(app)`` adds it). A module is
#: imported only when one of its commands runs, or help lists them, so ``oprlab check`` starts
#: without loading the game engine, DuckDB or Dask.
COMMANDS: dict[str, str] = {
    "mechanics": "oprlab.cli.mechanics",
    "check": "oprlab.cli.check",
    "army": "oprlab.cli.army",
    "demo": "oprlab.cli.demo",
    "odds": "oprlab.cli.odds",
    "compare-mechanics": "oprlab.cli.compare",
    "efficiency": "oprlab.cli.compare",
    "dq": "oprlab.cli.dq",
    "battle": "oprlab.cli.battle",
    "table": "oprlab.cli.table",
    "results": "oprlab.cli.results",
    "experiment": "oprlab.cli.experiment",
    "ladder": "oprlab.cli.ladder",
    "verdict": "oprlab.cli.ladder",
    "strength": "oprlab.cli.strength",
    "serve": "oprlab.cli.serve",
}
#: The command modules, in the order help lists their commands.
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


def _load_command(name: str) -> Any:
    """The click command ``name``, built from its module on a small app of its own."""
    holder = typer.Typer(add_completion=False, rich_markup_mode=None)
    import_module(COMMANDS[name]).register(holder)
    return typer.main.get_group(holder).commands[name]


class OprlabGroup(TyperGroup):
    """The root command: every run goes through :func:`guarded`; commands load on demand."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(dict.fromkeys([*super().list_commands(ctx), *COMMANDS]))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is None and cmd_name in COMMANDS:
            found = self.commands[cmd_name] = _load_command(cmd_name)
        return found

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        def call() -> Any:
            return super(OprlabGroup, self).main(
                args, prog_name, complete_var, standalone_mode=False, **extra
            )

        code = guarded(call)
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    name="oprlab",
    help="A rules laboratory for One Page Rules style wargames.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: value types (<int>, <path>), none for flags
    cls=OprlabGroup,
)


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


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (a :class:`UserError` is one line, exit code 2)."""
    command = typer.main.get_command(app)
    return guarded(lambda: command.main(args=argv, prog_name="oprlab", standalone_mode=False))


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
