"""``oprlab battle ARMY_A ARMY_B``: play one game with an account, or a series with odds."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from oprlab import __version__
from oprlab.analysis.series import SeriesSpec, play_series
from oprlab.analysis.stats import wilson
from oprlab.errors import OptionError
from oprlab.game.play import GameResult, play_game
from oprlab.game.state import GameState
from oprlab.mechanics import get_mechanic
from oprlab.players import get_commander
from oprlab.rng import make_rng, spawn
from oprlab.table.model import Table as Board
from oprlab.table.model import Table as TableModel
from oprlab.table.svg import table_svg
from oprlab.table.terrain import generate_table, load_table
from oprlab.units.load import load_army
from oprlab.units.model import Army
from oprlab.units.profiles import WwpdForce, load_wwpd

SYSTEMS_READY = ("gff", "riverside", "wwpd")


def register(app: typer.Typer) -> None:
    app.command("battle")(battle)


def _army(ref: str) -> Army:
    from oprlab.samples import sample_names, sample_path

    path = Path(ref)
    if not path.exists() and ref in {n.rsplit(".", 1)[0] for n in sample_names()} | set(
        sample_names()
    ):
        path = sample_path(ref if "." in ref else ref + ".txt")
    return load_army(path)


def _table(ref: str, seed: int) -> TableModel | None:
    """``open``: no terrain; ``random``: generated from the game's seed; else a terrain file."""
    if ref == "open":
        return None
    if ref == "random":
        return generate_table(seed)
    path = Path(ref)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        raise OptionError(
            "cannot read the terrain file",
            value=ref,
            expected="open, random or a readable terrain JSON file",
            where="--table",
        ) from None
    return load_table(text, str(path))


def battle(
    army_a: str = typer.Argument(..., help="Army file (Army Forge text or JSON) or sample name."),
    army_b: str = typer.Argument(..., help="The opposing army."),
    system: str = typer.Option(
        "gff", help="Rule system: gff, riverside (Army Forge lists) or wwpd (WWPD forces)."
    ),
    mechanic: str = typer.Option("d6", help="d6, clock or a clock variant."),
    seed: int | None = typer.Option(None, help="Seed: the same seed plays the same game."),
    commander_a: str = typer.Option("rules", help="Commander of army A: rules or random."),
    commander_b: str = typer.Option("rules", help="Commander of army B: rules or random."),
    games: int = typer.Option(1, help="Play a series of N games."),
    jobs: int = typer.Option(0, help="Worker processes for a series (0: all cores)."),
    log: Path | None = typer.Option(None, help="Write the event log of one game as JSON."),
    svg: Path | None = typer.Option(None, help="Draw the final table of one game as SVG."),
    table: str = typer.Option(
        "open",
        help="open (no terrain), random (a table generated from the seed) or a terrain JSON "
        "file (its objective markers, if any, replace placing them).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Play a whole game between two armies, or a series of games."""
    if system not in SYSTEMS_READY:
        raise OptionError(
            "full games are not yet available for this system",
            value=system,
            expected=" or ".join(SYSTEMS_READY),
        )
    if games < 1:
        raise OptionError("games out of range", value=games, expected="1 or more")
    if games > 1 and log is not None:
        raise OptionError("--log writes one game", value="--log", expected="--games 1")
    if svg is not None and (games > 1 or system == "wwpd"):
        raise OptionError(
            "--svg draws one gff or riverside game", value="--svg", expected="--games 1"
        )
    get_mechanic(mechanic)  # fail early on an unknown mechanic
    seeded = make_rng(seed)
    board = _table(table, seeded.seed)
    if system == "wwpd":
        if mechanic != "d6":
            raise OptionError(
                "WWPD games use WWPD's own dice", value=mechanic, expected="no --mechanic"
            )
        _wwpd(army_a, army_b, commander_a, commander_b, seeded.seed, games, board, log, as_json)
        return
    a, b = _army(army_a), _army(army_b)
    console = Console()
    if games == 1:
        commanders = [
            get_commander(commander_a, seeded.seed),
            get_commander(commander_b, seeded.seed + 1),
        ]
        result, state = play_game(
            a, b, commanders, seed=seeded.seed, mechanic=mechanic, table=board, system=system
        )
        if log is not None:
            log.write_text(
                json.dumps({"result": result.to_json(), "events": state.log.events}, indent=1),
                encoding="utf-8",
            )
        if svg is not None:
            svg.write_text(final_table_svg(state), encoding="utf-8")
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            _account(console, state, result)
        return
    spec = SeriesSpec(a, b, (commander_a, commander_b), mechanic, board, seeded.seed, system)
    n_jobs = jobs or (os.cpu_count() or 1)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=as_json,
    ) as progress:
        task = progress.add_task("games", total=games)
        series = play_series(spec, games, n_jobs=n_jobs, on_game=lambda _: progress.advance(task))
    summary = series.summary()
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    _series_table(console, summary)


def final_table_svg(state: GameState) -> str:
    """The table at the end of a game: terrain, objective markers, every unit left."""
    board = dataclasses.replace(state.table, objectives=tuple(o.position for o in state.objectives))
    units = {
        f"{u.uid} {u.unit.name}": u.placement
        for u in state.units.values()
        if u.alive and u.placement is not None
    }
    return table_svg(board, units)


def _force(ref: str) -> WwpdForce:
    from oprlab.samples import sample_names, sample_path

    path = Path(ref)
    if not path.exists():
        names = set(sample_names())
        if ref in names or ref + ".yaml" in names:
            path = sample_path(ref if ref in names else ref + ".yaml")
    if not path.exists():
        raise OptionError("WWPD force file not found", value=ref, expected="a WWPD YAML file")
    return load_wwpd(path.read_text(encoding="utf-8"), str(path))


def _wwpd(
    ref_a: str,
    ref_b: str,
    commander_a: str,
    commander_b: str,
    seed: int,
    games: int,
    board: Board | None,
    log: Path | None,
    as_json: bool,
) -> None:
    """WWPD (seed 004) games: I-go-U-go turns on GFF's objectives."""
    from oprlab.game import wwpd
    from oprlab.game.wwpd_commanders import get_wwpd_commander

    a, b = _force(ref_a), _force(ref_b)
    results = []
    for game_seed in [seed] if games == 1 else spawn(seed, games):
        commanders = [
            get_wwpd_commander(commander_a, game_seed),
            get_wwpd_commander(commander_b, game_seed + 1),
        ]
        result, state = wwpd.play_game(a, b, commanders, seed=game_seed, table=board)
        results.append(result)
        if games == 1 and log is not None:
            log.write_text(
                json.dumps({"result": result.to_json(), "events": state.log.events}, indent=1),
                encoding="utf-8",
            )
    if games == 1:
        out = results[0].to_json() | {"oprlab": __version__}
        if as_json:
            typer.echo(json.dumps(out, indent=2))
        else:
            win = "draw" if out["winner"] is None else f"force {'AB'[out['winner']]} wins"
            Console().print(
                f"WWPD, seed {seed}: {win}; markers {out['objectives'][0]}-"
                f"{out['objectives'][1]}, units left {out['units_left'][0]}-"
                f"{out['units_left'][1]}, models lost {out['models_lost'][0]}-"
                f"{out['models_lost'][1]}"
            )
        return
    n = len(results)
    summary: dict[str, Any] = {"games": n, "seed": seed, "system": "wwpd", "oprlab": __version__}
    for key, who in (("win_a", 0), ("win_b", 1), ("draw", None)):
        iv = wilson(sum(r.winner == who for r in results), n)
        summary[key] = {"estimate": iv.estimate, "low": iv.low, "high": iv.high}
    summary["armies"] = [a.name, b.name]
    summary["mechanic"] = "wwpd"
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        _series_table(Console(), summary)


def _account(console: Console, state: GameState, result: GameResult) -> None:
    names = {uid: f"{uid} {u.unit.name}" for uid, u in state.units.items()}
    armies = state.armies
    console.print(
        f"[bold]{armies[0].name}[/] (A) vs [bold]{armies[1].name}[/] (B), "
        f"seed {state.seed}, mechanic {result.mechanic}, "
        + (f"{len(state.table.pieces)} terrain pieces" if state.table.pieces else "open table")
    )
    for e in state.log.events:
        k = e["kind"]
        if k == "round":
            console.rule(f"Round {e['round']}: {'AB'[e['first']]} goes first")
        elif k == "activate":
            target = f" -> {names[e['target']]}" if e.get("target") else ""
            console.print(f"  {names[e['unit']]}: {e['action']}{target}")
        elif k == "deploy" and e.get("phase") == "ambush":
            console.print(f"  {names[e['unit']]} arrives from Ambush")
        elif k == "no_room":
            console.print(f"  [red]{names[e['unit']]} finds no room to deploy and is lost[/]")
        elif k == "shoot":
            console.print(
                f'    shoots {names[e["target"]]} at {e["distance"]:.1f}": '
                f"{e['hits']} hits, {e['wounds']} wounds, {e['casualties']} down"
                + (" (in cover)" if e.get("cover") else "")
            )
        elif k == "dangerous":
            console.print(f"    dangerous terrain: {e['dice']} dice, {e['wounds']} wounds")
        elif k == "benny":
            console.print("    spends a benny on an extra attack")
        elif k == "melee":
            console.print(
                f"    melee with {names[e['target']]}: dealt {e['wounds_dealt']} "
                f"wounds, took {e['wounds_taken']}"
            )
        elif k == "consolidate":
            console.print(f'    {names[e["unit"]]} consolidates {e["distance"]:.1f}"')
        elif k == "charge_failed":
            console.print("    the charge falls short")
        elif k in ("destroyed", "routed"):
            console.print(f"    [red]{names[e['unit']]} {k}[/]")
        elif k == "shaken":
            console.print(f"    {names[e['unit']]} is Shaken ({e['cause']})")
        elif k == "rally":
            console.print("    stops being Shaken")
        elif k == "control":
            who = "neutral" if e["controller"] is None else "AB"[e["controller"]]
            console.print(f"  objective {e['objective'] + 1} -> {who}")
    win = "draw" if result.winner is None else f"army {'AB'[result.winner]} wins"
    console.rule(
        f"{win}: objectives {result.objectives[0]}-{result.objectives[1]}, "
        f"units left {result.units_left[0]}-{result.units_left[1]}"
    )


def _series_table(console: Console, s: dict[str, Any]) -> None:
    table = Table(
        title=f"{s['armies'][0]} (A) vs {s['armies'][1]} (B): {s['games']} games, "
        f"{s['mechanic']}, seed {s['seed']}"
    )
    table.add_column("measure")
    table.add_column("estimate", justify="right")
    table.add_column("95% interval", justify="right")
    for key, label in (
        ("win_a", "A wins"),
        ("win_b", "B wins"),
        ("draw", "draws"),
        ("objectives_a", "objectives held by A"),
        ("objectives_b", "objectives held by B"),
        ("models_lost_a", "models lost by A"),
        ("models_lost_b", "models lost by B"),
        ("decisions", "decisions per game"),
    ):
        if key in s:
            v = s[key]
            table.add_row(label, f"{v['estimate']:.3f}", f"[{v['low']:.3f}, {v['high']:.3f}]")
    console.print(table)
    if s.get("interrupted"):
        console.print(f"interrupted: {s['games']} finished games kept")
