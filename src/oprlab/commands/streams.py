"""How every command ends on the console, without typer: one ``error: ...`` line, a tolerant
encoding, a closed pipe ended quietly (:func:`oprlab.cli.guarded` and the fast start,
:mod:`oprlab.commands.fast`, share them)."""

from __future__ import annotations

import os
import sys
from contextlib import suppress

from oprlab.display import one_line

#: Exit codes: a bad input, and a pipe closed by the reader (128 + SIGPIPE, as shells report).
EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 141
EXIT_INTERRUPTED = 130
#: Longest error line printed (a list of problems is cut here, with what was left off said).
MAX_ERROR_CHARS = 2_000


def tolerant_streams() -> None:
    """Let stdout and stderr replace what their encoding cannot show (``PYTHONIOENCODING=
    ascii``, an old Windows console) instead of raising UnicodeEncodeError mid-output."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and not encoding.startswith("utf"):
            with suppress(ValueError, OSError):  # a closed or detached stream: nothing to do
                reconfigure(errors="replace")


def error_line(message: str) -> str:
    """``error: message`` on one line, control characters neutralised, cut when very long."""
    text = one_line(message)
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 40] + f"... ({len(text):,} characters)"
    return f"error: {text}"


def print_error(message: str) -> None:
    from rich.console import Console  # only when there is an error to print

    Console(stderr=True, highlight=False, soft_wrap=True).print(error_line(message), markup=False)


def quiet_after_broken_pipe() -> int:
    """The reader of our output went away: drop what is left to write, exit quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file descriptor (CliRunner)
        return EXIT_BROKEN_PIPE
    return EXIT_BROKEN_PIPE


def echo(text: str) -> None:
    """``text`` and a newline on stdout, flushed: what ``typer.echo`` does with plain text
    (without loading typer and click for it)."""
    out = sys.stdout
    if out is None:  # no console at all (pythonw): nothing to show, as click does
        return
    out.write(text + "\n")
    out.flush()
