"""The fast start of ``oprlab check`` and ``oprlab odds``: their plain forms without typer.

Typer (with click, rich and a pydantic adapter for every option) costs more start-up than
the work of either command (issue 13). This reads the arguments those commands are usually
given (their options as ``--name value``, ``--name=value`` or a flag, plain numbers) and
calls the same work as the typer commands (:mod:`oprlab.commands.check`,
:mod:`oprlab.commands.odds`). Whatever it does not read with certainty (``--help``, a
negated flag, a repeated option, ``--test``, ``--plot``, a value that is not a plain number,
a value that looks like an option, anything unknown) is left to typer: :func:`run_fast`
returns ``None`` and the caller runs the typer app, so help texts, usage errors and their
exit codes are typer's own. An error of the work itself is printed as the typer root prints
it (:func:`oprlab.cli.guarded`): one ``error: ...`` line, exit code 2.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from oprlab.commands.streams import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    print_error,
    quiet_after_broken_pipe,
    tolerant_streams,
)
from oprlab.errors import UserError

#: A value the fast start reads the same way as typer does: a plain decimal integer, or a
#: plain non-negative decimal number for a float (anything else goes to typer).
_INT = re.compile(r"0|-?[1-9][0-9]{0,8}")
_FLOAT = re.compile(r"(0|[1-9][0-9]{0,8})(\.[0-9]{1,9})?")

#: Each command: how many arguments, and each option the fast start reads: its parameter and
#: its kind (``flag``, ``int``, ``ints`` (repeatable), ``float`` or ``str``).
_Spec = tuple[int, dict[str, tuple[str, str]]]
SPECS: dict[str, _Spec] = {
    "check": (
        1,
        {
            "--target": ("target", "int"),
            "--modifier": ("modifier", "int"),
            "--replacement": ("replacement", "ints"),
            "--critical-from": ("critical_from", "int"),
            "--fatigued": ("fatigued", "flag"),
            "--clock": ("clock", "int"),
            "--armoured-vehicle": ("armoured_vehicle", "flag"),
            "--chance": ("chance", "int"),
            "--defence": ("defence", "int"),
            "--table-01-row": ("table_01_row", "flag"),
            "--json": ("as_json", "flag"),
        },
    ),
    "odds": (
        2,
        {
            "--system": ("system", "str"),
            "--mechanic": ("mechanic", "str"),
            "--clock-start": ("clock_start", "int"),
            "--melee": ("melee", "flag"),
            "--range": ("distance", "float"),
            "--cover": ("cover", "flag"),
            "--charging": ("charging", "flag"),
            "--moved": ("moved", "flag"),
            "--samples": ("samples", "int"),
            "--seed": ("seed", "int"),
            "--json": ("as_json", "flag"),
        },
    ),
}


def parse(argv: Sequence[str]) -> tuple[str, list[str], dict[str, Any]] | None:
    """The command, its arguments and the options given, or ``None`` for typer to read."""
    if not argv or argv[0] not in SPECS:
        return None
    wanted, options = SPECS[argv[0]]
    args: list[str] = []
    given: dict[str, Any] = {}
    rest = list(argv[1:])
    while rest:
        token = rest.pop(0)
        if not token.startswith("-"):
            args.append(token)
            continue
        name, eq, attached = token.partition("=")
        if name not in options:
            return None  # --help, --no-..., --test, --plot, --, short options: typer's
        param, kind = options[name]
        if kind == "flag":
            if eq or param in given:
                return None
            given[param] = True
            continue
        if eq:
            value = attached
        elif rest:
            value = rest.pop(0)
        else:
            return None  # a missing value: typer's usage error
        read = _read(kind, value)
        if read is None or (kind != "ints" and param in given):
            return None
        given[param] = [*given.get(param, []), read] if kind == "ints" else read
    if len(args) != wanted:
        return None
    return argv[0], args, given


def _read(kind: str, value: str) -> Any:
    """``value`` as typer would pass it, or ``None`` where the fast start is not sure."""
    if kind in ("int", "ints"):
        return int(value) if _INT.fullmatch(value) else None
    if kind == "float":
        return float(value) if _FLOAT.fullmatch(value) else None
    return value if value and not value.startswith("-") else None


def _work(command: str) -> Callable[..., None]:
    if command == "check":
        from oprlab.commands.check import run_check

        return run_check
    from oprlab.commands.odds import run_odds

    return run_odds


def run_fast(argv: Sequence[str]) -> int | None:
    """Run ``argv`` without typer and return the exit code, or ``None`` if typer must."""
    parsed = parse(argv)
    if parsed is None:
        return None
    command, args, given = parsed
    work = _work(command)
    tolerant_streams()
    try:
        work(*args, **given)
    except UserError as exc:  # as oprlab.cli.guarded prints it
        print_error(str(exc))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return quiet_after_broken_pipe()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return quiet_after_broken_pipe()
    return 0
