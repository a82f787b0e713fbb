"""``oprlab serve``: the web app (odds, replays, a game against the computer) on this machine.

Binds 127.0.0.1 unless told otherwise: the app has no accounts, so it is for one player's own
browser. ``--open FILE.json`` shows a game saved from the app at ``/replay/saved/opened``;
``--experiments DIR`` (the current directory unless told) holds the lab files it lists.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from oprlab.errors import OptionError, ParseError
from oprlab.files import read_text
from oprlab.limits import check_nesting

__all__ = ["register", "serve"]

#: Where the app listens unless told otherwise: this machine only.
HOST = "127.0.0.1"
PORT = 8765


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)


def read_game(path: Path) -> dict[str, Any]:
    """A saved game's JSON (refused with one line if it cannot be read)."""
    text = read_text(path, "game file", "a game saved from oprlab serve")
    check_nesting(text, str(path))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"invalid JSON: {exc.msg}", where=f"{path}:{exc.lineno}:{exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise ParseError("not a saved game", where=str(path), expected="a JSON object")
    return data


def serve(
    host: str = typer.Option(HOST, help="Address to listen on (127.0.0.1: this machine only)."),
    port: int = typer.Option(PORT, help="Port (0: any free port)."),
    open_game: Path | None = typer.Option(
        None, "--open", help="A game saved from the app (its JSON) to show at start."
    ),
    results: Path | None = typer.Option(
        None, help="A DuckDB results file (battle --out) whose series /experiments lists."
    ),
    experiments: Path = typer.Option(
        Path("."),
        metavar="DIR",
        help="The lab files (experiment run --out DIR/NAME.duckdb) /experiments lists.",
    ),
) -> None:
    """Start the web app: odds, game replays and games against the computer in the browser."""
    if not 0 <= port <= 65535:
        raise OptionError("--port out of range", value=port, expected="0 to 65535")
    import uvicorn  # the server only when serving

    from oprlab.web.app import create_app

    opened = read_game(open_game) if open_game is not None else None
    if results is not None and not results.is_file():
        raise OptionError(
            "no results file here", value=str(results), expected="a file written by battle --out"
        )
    if not experiments.is_dir():
        raise OptionError(
            "no directory here",
            value=str(experiments),
            expected="the directory of the lab files",
            where="--experiments",
        )
    app = create_app(
        opened, results, experiments
    )  # a bad saved game is one line, before the server starts
    where = f"http://{host}:{port}/"
    typer.echo(f"oprlab serves on {where} (Ctrl+C stops it)")
    if opened is not None:
        typer.echo(f"the opened game: {where}replay/saved/opened")
    uvicorn.run(app, host=host, port=port, log_level="warning", h11_max_incomplete_event_size=2**20)
