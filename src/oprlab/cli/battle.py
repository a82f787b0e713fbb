"""``oprlab battle ARMY_A ARMY_B``: play one game with an account, or a series with odds."""

from __future__ import annotations

import dataclasses
import json
import os
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from oprlab import __version__
from oprlab.analysis.series import SeriesSpec, dask_backend, play_series
from oprlab.analysis.stats import wilson
from oprlab.errors import OptionError
from oprlab.game.options import parse_options
from oprlab.game.play import GameResult, play_game
from oprlab.game.state import GameState
from oprlab.mechanics import get_mechanic
from oprlab.players import get_commander
from oprlab.rng import commander_stream, make_rng, spawn
from oprlab.table.model import Table as Board
from oprlab.table.model import Table as TableModel
from oprlab.table.svg import table_svg
from oprlab.table.terrain import generate_table, load_table
from oprlab.units.load import load_army
from oprlab.units.model import Army
from oprlab.units.profiles import WwpdForce, load_wwpd

if TYPE_CHECKING:
    from oprlab.analysis.results import Recording

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
    svg_rounds: bool = typer.Option(
        False,
        help="With --svg: also draw the table at the end of each round, as FILE-round1.svg ...",
    ),
    table: str = typer.Option(
        "open",
        help="open (no terrain), random (a table generated from the seed) or a terrain JSON "
        "file (its objective markers, if any, replace placing them).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    out: Path | None = typer.Option(
        None,
        help="Store every game of the series in this DuckDB file the moment it ends "
        "(see `oprlab results`).",
    ),
    resume: bool = typer.Option(
        False, help="With --out: play only the games of this series the file does not hold yet."
    ),
    rules_option: list[str] = typer.Option(
        [],
        "--rules-option",
        metavar="KEY=VALUE",
        help="A reading of the rules text, repeatable (gff: edges=all|north-south, "
        "dangerous=once|twice, special_moves=true, blast_split=false, limited=false; "
        "riverside: winner_takes, ambush_round, "
        "strike_back, tie, impact). See docs/rules/.",
    ),
    cluster: str | None = typer.Option(
        None,
        metavar="ADDRESS",
        help="Play the series on a Dask cluster: a scheduler address (tcp://host:8786), or "
        "'local' for an in-process one.",
    ),
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
    as_series = games > 1 or out is not None or cluster is not None
    if as_series and log is not None:
        raise OptionError(
            "--log writes one game", value="--log", expected="--games 1 without --out or --cluster"
        )
    if svg is not None and (as_series or system == "wwpd"):
        raise OptionError(
            "--svg draws one gff or riverside game",
            value="--svg",
            expected="--games 1 without --out or --cluster",
        )
    if svg_rounds and svg is None:
        raise OptionError(
            "--svg-rounds names its files after --svg", value="--svg-rounds", expected="--svg FILE"
        )
    if resume and out is None:
        raise OptionError(
            "--resume continues a series stored in a file", value="--resume", expected="--out FILE"
        )
    if system == "wwpd" and (out is not None or cluster is not None):
        raise OptionError(
            "--out and --cluster play gff and riverside series",
            value="--out" if out is not None else "--cluster",
            expected="--system gff or riverside",
        )
    get_mechanic(mechanic)  # fail early on an unknown mechanic
    if rules_option and system == "wwpd":
        raise OptionError(
            "--rules-option sets gff and riverside readings",
            value=rules_option[0],
            expected="--system gff or riverside",
        )
    options = parse_options(system, rules_option) if system != "wwpd" else None
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
    if not as_series:
        commanders = [
            get_commander(commander_a, commander_stream(seeded.seed, 0)),
            get_commander(commander_b, commander_stream(seeded.seed, 1)),
        ]

        def draw_round(state: GameState, n: int) -> None:
            if svg is not None:
                path = svg.with_name(f"{svg.stem}-round{n}{svg.suffix or '.svg'}")
                path.write_text(final_table_svg(state), encoding="utf-8")

        result, state = play_game(
            a,
            b,
            commanders,
            seed=seeded.seed,
            mechanic=mechanic,
            table=board,
            system=system,
            on_round=draw_round if svg_rounds else None,
            options=options,
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
    spec = SeriesSpec(
        a, b, (commander_a, commander_b), mechanic, board, seeded.seed, system, options
    )
    _series(
        console,
        spec,
        games,
        n_jobs=jobs or (os.cpu_count() or 1),
        out=out,
        resume=resume,
        cluster=cluster,
        table_ref=_table_ref(table, seeded.seed),
        as_json=as_json,
    )


def _table_ref(ref: str, seed: int) -> str:
    """How the table was chosen, as stored beside the results (its content hash is kept too)."""
    if ref in ("open", "random"):
        return ref if ref == "open" else f"random:{seed}"
    return f"file:{ref}"


def _series(
    console: Console,
    spec: SeriesSpec,
    games: int,
    *,
    n_jobs: int,
    out: Path | None,
    resume: bool,
    cluster: str | None,
    table_ref: str,
    as_json: bool,
) -> None:
    """A series: locally through joblib or on a Dask cluster, stored game by game with --out."""
    notes = Console(stderr=True, highlight=False)
    stored: dict[str, Any] | None = None
    n_jobs = min(n_jobs, games)
    with ExitStack() as stack:
        if cluster is not None:
            # Connect before the progress bar starts: a bad address is one line, nothing else.
            client = stack.enter_context(dask_backend(cluster))
            workers = len(client.scheduler_info().get("workers", {}))
            notes.print(f"playing on the Dask cluster {cluster}, workers: {workers}")
            n_jobs = -1  # joblib's Dask backend hands the games to the cluster's workers
        progress = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=notes,
            disable=as_json,
        )
        stack.callback(progress.stop)
        task = progress.add_task("games", total=games)
        if out is None:
            progress.start()
            series = play_series(
                spec, games, n_jobs=n_jobs, on_game=lambda _: progress.advance(task)
            )
        else:
            from oprlab.analysis.results import play_series_to  # DuckDB: only when storing

            def started(rec: Recording) -> None:
                progress.update(task, total=games - rec.already_stored)
                if rec.already_stored:
                    progress.console.print(
                        f"resuming series {rec.series_id}: {rec.already_stored} of {games} games "
                        f"already stored in {out}, playing the other "
                        f"{games - rec.already_stored}"
                    )
                else:
                    progress.console.print(
                        f"storing each game in {out} as it ends (series {rec.series_id})"
                    )
                progress.start()  # only now: a refused file is one line, no empty bar

            run = play_series_to(
                out,
                spec,
                games,
                n_jobs=n_jobs,
                resume=resume,
                table_ref=table_ref,
                on_game=lambda _: progress.advance(task),
                on_start=started,
            )
            series = run.result
            stored = {
                "path": str(out),
                "series_id": run.series_id,
                "stored_before": run.already_stored,
                "played": run.played,
            }
    summary = series.summary()
    if stored is not None:
        summary["results"] = stored
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    series_table(console, summary)
    if stored is not None:
        console.print(
            f"{len(series.games)} games of series {stored['series_id']} stored in {out}"
            + (f" ({stored['stored_before']} from earlier runs)" if stored["stored_before"] else "")
        )
        if series.interrupted:
            console.print("run the same command with --resume to play the missing games")


def final_table_svg(state: GameState) -> str:
    """The table as it stands (at the end of a game or a round): terrain, objective markers,
    every unit left."""
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
            get_wwpd_commander(commander_a, commander_stream(game_seed, 0)),
            get_wwpd_commander(commander_b, commander_stream(game_seed, 1)),
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
        series_table(Console(), summary)


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
        elif k == "zone" and "edge" in e:
            console.print(f"  {'AB'[e['side']]} picks the {e['edge']} edge")
        elif k == "roll_off" and "took" in e:  # Riverside: the winner's pick, the loser's
            edges = e.get("edges", [0, 1])
            console.print(
                f"  {'AB'[e['winner']]} wins the roll-off and takes "
                f"{'who goes first' if e['took'] == 'first' else 'its zone'}; "
                f"{'AB'[e['first']]} goes first, A deploys on the "
                f"{'south' if edges[0] == 0 else 'north'} edge"
            )
        elif k == "shoot":
            console.print(
                f'    shoots {names[e["target"]]} at {e["distance"]:.1f}": '
                f"{e['hits']} hits, {e['wounds']} wounds, {e['casualties']} down"
                + (" (in cover)" if e.get("cover") else "")
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "blast":
            console.print(
                f"    Blast shares {e['hits']} hits with {names[e['target']]}: "
                f"{e['wounds']} wounds, {e['casualties']} down"
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "limited":
            console.print(f"    uses up {', '.join(e['weapons'])} (Limited)")
        elif k == "cast":
            works = "works" if e["success"] else "fails"
            boost = f", boosted {e['boost']}" if e.get("boost") else ""
            console.print(
                f"  {names[e['unit']]} casts {e['spell']} ({e['value']}{boost}) "
                f"at {names[e['target']]}: {works}"
            )
        elif k == "spell":
            console.print(
                f"    {e['hits']} hits, {e['wounds']} wounds, {e['casualties']} down"
                + (f" ({e['defended']} defended by bennies)" if e.get("defended") else "")
            )
        elif k == "teleport":
            console.print(f'    {names[e["unit"]]} teleports {e["distance"]:.1f}"')
        elif k == "dangerous":
            when = {"activation": " as it activates", "charge": " on the charge"}.get(
                e.get("cause", ""), ""
            )
            console.print(f"    dangerous terrain{when}: {e['dice']} dice, {e['wounds']} wounds")
        elif k == "resist":
            console.print(f"    enemy Casters resist with {e['tokens']} tokens")
        elif k == "benny":
            console.print(_benny_line(e, names))
        elif k == "melee":
            console.print(
                f"    melee with {names[e['target']]}: dealt {e['wounds_dealt']} "
                f"wounds, took {e['wounds_taken']}"
                + (f" ({e['defended']} hits defended by bennies)" if e.get("defended") else "")
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


def _benny_line(e: dict[str, Any], names: dict[str, str]) -> str:
    """One benny spent (seed 000 "Variants" 5), naming the side and what it bought."""
    side = "AB"[e["side"]]
    indent = "  " if e.get("when") == "activation" else "    "
    if e["use"] == "set_clock":
        key = [str(k) for k in e.get("clock", ())]
        if not key:
            clock = "the global clock"
        elif len(key) == 1 and key[0] in ("side0", "side1"):
            clock = f"{'AB'[int(key[0][-1])]}'s clock"  # one clock per army
        else:
            clock = f"{names.get(key[-1], key[-1])}'s clock"  # per-unit clocks
        return f"{indent}{side} spends a benny to set {clock} to {e.get('value')}"
    if e["use"] == "defend":
        hits = int(e.get("hits", 1))
        unit = names.get(str(e.get("unit", "")), "its unit")
        plural = "bennies" if hits > 1 else "a benny"
        return f"{indent}{side} spends {plural} to defend {unit} against {hits} hit(s)"
    return f"{indent}{side} spends a benny on an extra attack"


def series_table(console: Console, s: dict[str, Any]) -> None:
    """A series summary as a table of estimates with 95% intervals."""
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
