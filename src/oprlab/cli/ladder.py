"""``oprlab ladder``: a round robin of commanders on matchups and systems, seats swapped and
seeds paired, rated on the Elo scale with bootstrap intervals (:mod:`oprlab.analysis.ladder`)."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from oprlab.analysis.ladder import (
    RESAMPLES,
    LadderSpec,
    Matchup,
    Rating,
    ladder_id,
    markdown,
    pair_scores,
    play_ladder,
    ratings,
    store_ladder,
    swept_cells,
)
from oprlab.analysis.verdicts import Verdict, play_verdicts, robustness
from oprlab.cli.docs_table import read_docs, write_docs
from oprlab.cli.progress import games_bar
from oprlab.commands.inputs import (
    check_dice_option,
    check_games,
    check_jobs,
    check_outputs,
    load_playable,
)
from oprlab.errors import OptionError
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.rng import make_rng
from oprlab.table.terrain import generate_table

DEFAULT_COMMANDERS = "random,rules:0.5,rules,search"
DEFAULT_ARMIES = ["gff/shooty-150.json", "gff/melee-150.json"]
#: The lines between which ``--docs`` writes the tables (they must be in the file already).
BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


def register(app: typer.Typer) -> None:
    app.command("ladder")(ladder)
    app.command("verdict")(verdict)


def _commanders(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        raise OptionError(
            "a ladder needs two or more different commanders",
            value=text,
            expected=f"a comma-separated list, as in {DEFAULT_COMMANDERS}",
            where="--commanders",
        )
    for name in names:
        get_commander(name, 0)  # an unknown or malformed one: one line, before play
    return names


def _systems(systems: list[str]) -> tuple[str, ...]:
    for s in systems:
        if find_system(s).army_format != "army-forge":
            raise OptionError(
                "the ladder plays systems with Army Forge lists",
                value=s,
                expected="gff or riverside",
                where="--system",
            )
    return tuple(dict.fromkeys(systems))


def ladder(
    armies: list[str] = typer.Argument(
        None,
        help="Matchups as pairs of armies (files or sample names): A1 B1 [A2 B2 ...]. "
        "Default: gff/shooty-150.json gff/melee-150.json.",
    ),
    commanders: str = typer.Option(
        DEFAULT_COMMANDERS, help="Comma-separated commander specs (rules:0.2, search:50 ...)."
    ),
    system: list[str] = typer.Option(["gff"], help="Rule system, repeatable: gff, riverside."),
    games: int = typer.Option(
        10, help="Seeds per pairing, matchup and system; each seed is played from both seats."
    ),
    seed: int | None = typer.Option(None, help="Seed: the same seed plays the same ladder."),
    mechanic: str = typer.Option("d6", help="d6, clock or a clock variant."),
    table: str = typer.Option(
        "open", help="open (no terrain) or random (one table generated from the seed)."
    ),
    dice: str = typer.Option(
        "stream",
        help="stream (each die the next of the seed's stream) or keyed (each activation its own "
        "dice, keyed on the seed, round and unit: games that part still roll alike).",
    ),
    anchor: str | None = typer.Option(
        None, help="The commander rated 0 (default: the first listed)."
    ),
    resamples: int = typer.Option(RESAMPLES, help="Bootstrap resamples for the intervals."),
    jobs: int = typer.Option(1, help="Worker processes (0: all cores)."),
    out: Path | None = typer.Option(None, help="Store the games and ratings in this DuckDB file."),
    docs: Path | None = typer.Option(
        None, help=f"Write the Markdown tables into this file, between {BEGIN} and {END}."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Rate commanders against each other: Bradley-Terry on the Elo scale, 95% intervals."""
    refs = armies or DEFAULT_ARMIES
    if len(refs) % 2:
        raise OptionError(
            "matchups come in pairs of armies",
            value=len(refs),
            expected="an even number of armies: A1 B1 [A2 B2 ...]",
        )
    names = _commanders(commanders)
    systems = _systems(system)
    check_games(games)
    if anchor is not None and anchor not in names:
        raise OptionError(
            "the anchor is not in the ladder", value=anchor, expected=" or ".join(names)
        )
    if not 0 <= resamples <= 100_000:
        raise OptionError(
            "resamples out of range", value=resamples, expected="0 to 100000", where="--resamples"
        )
    if table not in ("open", "random"):
        raise OptionError("unknown table", value=table, expected="open or random", where="--table")
    check_dice_option(dice, systems)
    check_outputs(out=out)
    if docs is not None:
        read_docs(docs, BEGIN, END)  # refused before any game
    loaded = load_playable([(f"army {i + 1}", ref) for i, ref in enumerate(refs)], command="ladder")
    seeded = make_rng(seed)
    spec = LadderSpec(
        commanders=names,
        matchups=tuple(Matchup(a, b) for a, b in zip(loaded[::2], loaded[1::2], strict=True)),
        systems=systems,
        games=games,
        seed=seeded.seed,
        mechanic=mechanic,
        table=generate_table(seeded.seed) if table == "random" else None,
        dice=dice,
    )
    total = len(systems) * len(spec.matchups) * games * len(names) * (len(names) - 1)
    n_jobs = check_jobs(jobs, total)
    with games_bar(quiet=as_json) as progress:
        bar = progress.add_task("ladder", total=total)
        played = play_ladder(spec, n_jobs=n_jobs, on_game=lambda _: progress.advance(bar))
    if not played:
        raise OptionError("no game finished", expected="let the ladder play at least one game")
    rated = ratings(played, names, anchor=anchor, resamples=resamples, seed=seeded.seed)
    pairs = pair_scores(played, names)
    lid = store_ladder(out, spec, played, rated) if out is not None else ladder_id(spec)
    if docs is not None:
        write_docs(docs, BEGIN, END, markdown(rated, pairs))
    if as_json:
        report = {
            "ladder_id": lid,
            "record": spec.record(),
            "games": len(played),
            "interrupted": len(played) < total,
            "ratings": [r.to_json() for r in rated],
            "pairs": pairs,
        }
        typer.echo(json.dumps(report, indent=2))
        return
    _print(Console(), rated, pairs, lid, len(played), total)


def _print(
    console: Console,
    rated: list[Rating],
    pairs: list[dict[str, object]],
    lid: str,
    n: int,
    total: int,
) -> None:
    table = Table(title=f"Ladder {lid}: {n} games" + ("" if n == total else f" of {total}"))
    for col in ("commander", "Elo", "95% interval", "games", "score", "think s/game"):
        table.add_column(col, justify="left" if col == "commander" else "right")
    for r in rated:
        table.add_row(
            r.commander,
            f"{r.elo:+.0f}",
            f"[{r.low:+.0f}, {r.high:+.0f}]",
            str(r.games),
            f"{r.score:.3f}",
            f"{r.think:.2f}",
        )
    console.print(table)
    grid = Table(
        title="Pairings: the first's share of points (95% interval over seat-swapped pairs)"
    )
    for col in ("first", "second", "score", "95% interval", "pairs", "swept", "share of sweeps"):
        grid.add_column(col, justify="left" if col in ("first", "second") else "right")
    for p in pairs:
        swept, share = swept_cells(p).split(" | ")
        grid.add_row(
            str(p["first"]),
            str(p["second"]),
            f"{p['score']:.3f}",
            f"[{p['low']:.3f}, {p['high']:.3f}]",
            str(p["pairs"]),
            swept,
            share,
        )
    console.print(grid)


def verdict(
    army_a: str = typer.Argument(..., help="Army A (a file or sample name)."),
    army_b: str = typer.Argument(..., help="Army B."),
    commanders: str = typer.Option(
        "rules:0.5,rules,search",
        help="Comma-separated commander specs; each plays both sides; the first is the reference.",
    ),
    system: str = typer.Option("gff", help="Rule system: gff or riverside."),
    games: int = typer.Option(50, help="Seeds, the same for every commander."),
    seed: int | None = typer.Option(None, help="Seed: the same seed plays the same games."),
    mechanic: str = typer.Option("d6", help="d6, clock or a clock variant."),
    table: str = typer.Option(
        "open", help="open (no terrain) or random (one table generated from the seed)."
    ),
    dice: str = typer.Option(
        "stream",
        help="stream (each die the next of the seed's stream) or keyed (each activation its own "
        "dice, keyed on the seed, round and unit: games that part still roll alike).",
    ),
    jobs: int = typer.Option(1, help="Worker processes (0: all cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Is army A stronger than army B, and does the answer depend on the commander?"""
    names = _commanders(commanders)
    systems = _systems([system])
    check_games(games)
    if table not in ("open", "random"):
        raise OptionError("unknown table", value=table, expected="open or random", where="--table")
    check_dice_option(dice, systems)
    a, b = load_playable([("army A", army_a), ("army B", army_b)], command="verdict")
    seeded = make_rng(seed)
    spec = LadderSpec(
        commanders=names,
        matchups=(Matchup(a, b),),
        systems=systems,
        games=games,
        seed=seeded.seed,
        mechanic=mechanic,
        table=generate_table(seeded.seed) if table == "random" else None,
        dice=dice,
    )
    total = games * len(names)
    with games_bar(quiet=as_json) as progress:
        bar = progress.add_task("verdict", total=total)
        played = play_verdicts(
            spec, n_jobs=check_jobs(jobs, total), on_game=lambda _: progress.advance(bar)
        )
    if not played:
        raise OptionError("no game finished", expected="let at least one game finish")
    rows, overall = robustness(played, names)
    if as_json:
        report = {
            "record": spec.record(),
            "games": len(played),
            "interrupted": len(played) < total,
            "verdicts": [v.to_json() for v in rows],
            "across_commanders": overall,
        }
        typer.echo(json.dumps(report, indent=2))
        return
    title = f"{spec.matchups[0].name} ({system}, {len(played)} games, seed {spec.seed})"
    print_verdicts(Console(), title, rows, overall)


def print_verdicts(console: Console, title: str, rows: list[Verdict], overall: str) -> None:
    """Each commander's verdict and its difference from the first's, then whether the verdict
    holds across them (``verdict`` and ``battle --games N --across``)."""
    out = Table(title=title)
    for col in ("commander", "games", "A's score", "95% interval", "verdict", "vs first", "95%"):
        out.add_column(col, justify="left" if col == "commander" else "right")
    for v in rows:
        out.add_row(
            v.commander,
            str(v.games),
            f"{v.score:.3f}",
            f"[{v.low:.3f}, {v.high:.3f}]",
            v.verdict,
            f"{v.diff:+.3f}",
            f"[{v.diff_low:+.3f}, {v.diff_high:+.3f}]",
        )
    console.print(out)
    note = {"holds": "holds across the commanders", "depends": "DEPENDS on the commander"}
    console.print(f"The verdict {note.get(overall, 'FLIPS between commanders')}.")
