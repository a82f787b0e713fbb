"""``oprlab strength``: the search commander's strength-for-time curve against the rules
commander (:mod:`oprlab.analysis.strength`), printed or written into a Markdown file."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from oprlab.analysis.ladder import LadderSpec, Matchup
from oprlab.analysis.strength import StrengthRow, curve, markdown, play_curve, strength_tasks
from oprlab.cli.docs_table import read_docs, write_docs
from oprlab.cli.ladder import _systems
from oprlab.cli.progress import games_bar
from oprlab.commands.inputs import check_games, check_jobs, load_playable
from oprlab.errors import OptionError
from oprlab.players.search import FORMS, MAX_BUDGET
from oprlab.rng import make_rng
from oprlab.table.terrain import generate_table

DEFAULT_BUDGETS = "8,24,72"
DEFAULT_ARMIES = ("gff/shooty-300.json", "gff/melee-300.json")
#: The lines between which ``--docs`` writes ``search``'s table (they must be in the file
#: already); another form's are ``<!-- strength:FORM:begin -->`` and its end.
BEGIN, END = "<!-- strength:begin -->", "<!-- strength:end -->"


def markers(form: str) -> tuple[str, str]:
    """The lines between which ``--docs`` writes ``form``'s table."""
    if form == "search":
        return BEGIN, END
    return f"<!-- strength:{form}:begin -->", f"<!-- strength:{form}:end -->"


def register(app: typer.Typer) -> None:
    app.command("strength")(strength)


def _budgets(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() and 1 <= int(p) <= MAX_BUDGET for p in parts):
        raise OptionError(
            "budgets are whole numbers of decisions",
            value=text,
            expected=f"a comma-separated list of numbers from 1 to {MAX_BUDGET}, as in "
            f"{DEFAULT_BUDGETS}",
            where="--budgets",
        )
    return tuple(dict.fromkeys(int(p) for p in parts))


def _form(name: str) -> str:
    if name not in FORMS:
        raise OptionError(
            "not a search form",
            value=name,
            expected="one of " + ", ".join(FORMS),
            where="--form",
        )
    return name


def strength(
    army_a: str = typer.Argument(DEFAULT_ARMIES[0], help="Army A (a file or sample name)."),
    army_b: str = typer.Argument(DEFAULT_ARMIES[1], help="Army B."),
    budgets: str = typer.Option(
        DEFAULT_BUDGETS, help="Comma-separated search budgets (decisions per activation)."
    ),
    form: str = typer.Option(
        "search", help="The search form whose budgets vary: search, search-portfolio, ..."
    ),
    system: list[str] = typer.Option(["gff"], help="Rule system, repeatable: gff, riverside."),
    games: int = typer.Option(10, help="Seeds per system and budget, each from both seats."),
    seed: int | None = typer.Option(None, help="Seed: the same seed plays the same games."),
    mechanic: str = typer.Option("d6", help="d6, clock or a clock variant."),
    table: str = typer.Option(
        "open", help="open (no terrain) or random (one table generated from the seed)."
    ),
    jobs: int = typer.Option(1, help="Worker processes (0: all cores)."),
    docs: Path | None = typer.Option(
        None,
        help=f"Write the Markdown table into this file, between {BEGIN} and {END} "
        "(another form: <!-- strength:FORM:begin --> and its end).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """How strong the search commander is against the rules commander, for what it costs."""
    chosen = _budgets(budgets)
    form = _form(form)
    systems = _systems(system)
    check_games(games)
    if table not in ("open", "random"):
        raise OptionError("unknown table", value=table, expected="open or random", where="--table")
    if docs is not None:
        read_docs(docs, *markers(form))  # refused before any game
    a, b = load_playable([("army A", army_a), ("army B", army_b)], command="strength")
    seeded = make_rng(seed)
    spec = LadderSpec(
        commanders=("rules",),
        matchups=(Matchup(a, b),),
        systems=systems,
        games=games,
        seed=seeded.seed,
        mechanic=mechanic,
        table=generate_table(seeded.seed) if table == "random" else None,
    )
    total = len(strength_tasks(systems, chosen, games, seeded.seed, form))
    with games_bar(quiet=as_json) as progress:
        bar = progress.add_task("strength", total=total)
        played = play_curve(
            spec,
            chosen,
            form=form,
            n_jobs=check_jobs(jobs, total),
            on_game=lambda _: progress.advance(bar),
        )
    rows = curve(played, chosen, form)
    if not rows:
        raise OptionError("no seed finished", expected="let at least one seed finish")
    if docs is not None:
        write_docs(docs, *markers(form), markdown(rows))
    if as_json:
        report = {
            "record": spec.record() | {"budgets": list(chosen), "form": form},
            "games": len(played),
            "interrupted": len(played) < total,
            "rows": [r.to_json() for r in rows],
        }
        typer.echo(json.dumps(report, indent=2))
        return
    _print(Console(), rows, f"{spec.matchups[0].name}, seed {spec.seed}")


def _print(console: Console, rows: list[StrengthRow], title: str) -> None:
    out = Table(title=f"Search against rules: {title}")
    columns = ("system", "commander", "games", "score", "95% interval", "CPU/game", "vs rules")
    for col in (*columns, "swept"):
        out.add_column(col, justify="left" if col in ("system", "commander") else "right")
    for r in rows:
        out.add_row(
            r.system,
            r.commander,
            str(r.games),
            f"{r.score:.3f}",
            f"[{r.low:.3f}, {r.high:.3f}]",
            f"{r.seconds:.2f} s",
            f"{r.cost:.1f}x",
            f"{r.swept[0]} / {r.swept[1]}",
        )
    console.print(out)
