"""``python -m oprlab`` and the ``oprlab`` console script.

``check`` and ``odds`` in their plain forms start without typer (:mod:`oprlab.commands.fast`,
issue 13); everything else, and whatever the fast start does not read, goes to the typer app
(:mod:`oprlab.cli`), which prints the same output, errors and exit codes.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: the process's) and return its exit code."""
    from oprlab.commands.fast import run_fast

    code = run_fast(sys.argv[1:] if argv is None else argv)
    if code is not None:
        return code
    from oprlab.cli import main as typer_main

    return typer_main(argv)


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
