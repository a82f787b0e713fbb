"""``oprlab battle ARMY_A ARMY_B``: play one game with an account, or a series with odds."""

from __future__ import annotations

import json
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from oprlab.analysis.pictures import battle_svg
from oprlab.analysis.series import SeriesSpec, dask_backend, play_series
from oprlab.cli.account import account
from oprlab.cli.progress import games_bar
from oprlab.commands.inputs import (
    check_dice_option,
    check_games,
    check_jobs,
    check_outputs,
    load_playable,
)
from oprlab.errors import OptionError, ParseError
from oprlab.files import read_text, write_atomic
from oprlab.game.options import parse_options
from oprlab.game.play import play_game
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system
from oprlab.game.trail import Trail
from oprlab.mechanics import get_mechanic, mechanic_names
from oprlab.players import get_commander
from oprlab.rng import commander_stream, make_rng
from oprlab.table.model import Table as TableModel
from oprlab.table.terrain import generate_table, load_table

if TYPE_CHECKING:
    from oprlab.analysis.results import Recording


def register(app: typer.Typer) -> None:
    app.command("battle")(battle)


def _table(ref: str, seed: int) -> TableModel | None:
    """``open``: no terrain; ``random``: generated from the game's seed; else a terrain file."""
    if ref == "open":
        return None
    if ref == "random":
        return generate_table(seed)
    path = Path(ref)
    try:
        text = read_text(path, "terrain file", "open, random or a terrain JSON file")
    except ParseError as exc:
        raise OptionError(
            f"cannot read the terrain file ({exc.message})",
            value=ref,
            expected="open, random or a readable terrain JSON file",
            where="--table",
        ) from None
    return load_table(text, str(path))


def battle(
    army_a: str = typer.Argument(..., help="Army file (Army Forge text or JSON) or sample name."),
    army_b: str = typer.Argument(..., help="The opposing army."),
    system: str = typer.Option(
        "gff",
        help="Rule system: gff, riverside (Army Forge lists) or wwpd (WWPD forces); house "
        "rules joined by + (gff+fortifications, gff+dopr+safe_house: docs/rules/house.md).",
    ),
    mechanic: str | None = typer.Option(
        None,
        help="How checks are resolved: d6 (the default), clock or a clock variant for gff and "
        "riverside; wwpd games roll WWPD's own dice.",
    ),
    seed: int | None = typer.Option(None, help="Seed: the same seed plays the same game."),
    commander_a: str = typer.Option(
        "rules",
        help="Commander of army A: rules, random or search[:BUDGET], each with an optional"
        " :P for noise (rules:0.2).",
    ),
    commander_b: str = typer.Option(
        "rules",
        help="Commander of army B: rules, random or search[:BUDGET], each with an optional"
        " :P for noise (rules:0.2).",
    ),
    games: int = typer.Option(1, help="Play a series of N games (at most 1,000,000)."),
    across: str | None = typer.Option(
        None,
        metavar="COMMANDERS",
        help="Play the series once per commander of this comma-separated list (each on both "
        "sides, the same seeds) and say whether army A's verdict holds across them, depends on "
        "them or flips (docs/commanders.md); replaces --commander-a/-b.",
    ),
    jobs: int = typer.Option(
        0, help="Worker processes for a series (0: all cores; more than the cores is capped)."
    ),
    log: Path | None = typer.Option(
        None,
        help="Write one game as a JSON game file: its setup and decisions (`oprlab serve "
        "--open FILE` replays it) and its result, events and moves.",
    ),
    svg: Path | None = typer.Option(
        None, help="Draw the end of one game as SVG (docs/battle-pictures.md)."
    ),
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
        "riverside: winner_takes, ambush_round, strike_back, tie, impact; "
        "wwpd: rounds, move, charge, pinning, cowering, simultaneous_firefight). "
        "See docs/rules/.",
    ),
    cluster: str | None = typer.Option(
        None,
        metavar="ADDRESS",
        help="Play the series on a Dask cluster: a scheduler address (tcp://host:8786), or "
        "'local' for an in-process one.",
    ),
    dice: str = typer.Option(
        "stream",
        help="stream (each die the next of the seed's stream) or keyed (each activation its own "
        "dice, keyed on the seed, round and unit: games that part still roll alike; gff and "
        "riverside).",
    ),
) -> None:
    """Play a whole game between two armies, or a series of games."""
    rules = find_system(system)  # an unknown name, or DQ: one line naming what exists
    chosen = _mechanic(rules, mechanic)
    check_dice_option(dice, [rules.name])
    as_series = _check_options(
        games=games,
        log=log,
        svg=svg,
        svg_rounds=svg_rounds,
        out=out,
        resume=resume,
        cluster=cluster,
    )
    names = _across_names(across, games, out) if across is not None else ()
    n_jobs = check_jobs(jobs, games) if as_series and cluster is None else 1
    check_outputs(log=log, svg=svg, out=out)
    if svg is not None and svg_rounds:
        check_outputs(svg_rounds=_round_path(svg, 1))
    options = parse_options(rules, rules_option)
    seeded = make_rng(seed)
    a, b = load_playable(
        [("army A", army_a), ("army B", army_b)], command="battle", fmt=rules.army_format
    )
    for name in (commander_a, commander_b, *names):  # an unknown one: a line, before play
        get_commander(name, seeded.seed, system=rules)
    board = _table(table, seeded.seed)
    console = Console()
    if not as_series:
        commanders = [
            get_commander(commander_a, commander_stream(seeded.seed, 0), system=rules),
            get_commander(commander_b, commander_stream(seeded.seed, 1), system=rules),
        ]

        drawing = _Drawing(svg, svg_rounds, log)
        if log is not None:
            drawing.setup = _game_setup(
                (army_a, army_b),
                system=rules.name,
                mechanic=chosen,
                table=table,
                seed=seeded.seed,
                commanders=(commander_a, commander_b),
                rule_options=rules_option,
                dice=dice,
            )
        result, state = play_game(
            a,
            b,
            commanders,
            seed=seeded.seed,
            mechanic=chosen,
            table=board,
            system=rules,
            on_round=drawing.on_round,
            options=options,
            on_decision=drawing.on_decision,
            dice=dice,
        )
        # Files first, then the account: a reader that closes the pipe early loses no file.
        drawing.finish(state, result.to_json())
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            account(state, console, result)
        return
    # A series stores games as they end: make sure a first game can start before any file
    # or series record is made (armies without room, a list for another system).
    rules.new_game(
        a, b, seed=seeded.seed, mechanic=chosen, table=board, log=False, readings=options
    )
    spec = SeriesSpec(
        a, b, (commander_a, commander_b), chosen, board, seeded.seed, system, options, dice
    )
    if names:
        _across(console, spec, names, games, n_jobs=n_jobs, cluster=cluster, as_json=as_json)
        return
    _series(
        console,
        spec,
        games,
        n_jobs=n_jobs,
        out=out,
        resume=resume,
        cluster=cluster,
        table_ref=_table_ref(table, seeded.seed),
        as_json=as_json,
    )


def _game_setup(
    refs: tuple[str, str],
    *,
    system: str,
    mechanic: str,
    table: str,
    seed: int,
    commanders: tuple[str, str],
    rule_options: list[str],
    dice: str = "stream",
) -> Any:
    """What fixes a game, for ``--log``: both lists' text (files or samples, read again as
    they were just read), the rules, the table (a terrain file's text) and the seed."""
    from oprlab.units.load import resolve_army
    from oprlab.web.gamefile import GameSetup

    texts = [read_text(resolve_army(ref), "army file", "an army file") for ref in refs]
    terrain = "" if table in ("open", "random") else read_text(Path(table), "terrain file", "")
    return GameSetup(
        texts[0],
        texts[1],
        name_a=refs[0],
        name_b=refs[1],
        system=system,
        mechanic=mechanic,
        table=table if not terrain else "file",
        seed=seed,
        commander_a=commanders[0],
        commander_b=commanders[1],
        rule_options=tuple(rule_options),
        terrain=terrain,
        dice=dice,
    )


def _across_names(text: str, games: int, out: Path | None) -> tuple[str, ...]:
    """``--across``: two or more different commanders, for a series not stored in a file."""
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if len(names) < 2 or len(set(names)) != len(names):
        raise OptionError(
            "--across needs two or more different commanders",
            value=text,
            expected="a comma-separated list, as in rules:0.5,rules,search",
            where="--across",
        )
    if games < 2 or out is not None:
        raise OptionError(
            "--across compares series, not stored in a file",
            value="--across",
            expected="--games N (2 or more) without --out",
        )
    return names


def _across(
    console: Console,
    spec: SeriesSpec,
    names: tuple[str, ...],
    games: int,
    *,
    n_jobs: int,
    cluster: str | None,
    as_json: bool,
) -> None:
    """The series once per commander (playing both sides), then the verdicts side by side."""
    from oprlab.analysis.verdicts import robustness_of
    from oprlab.cli.ladder import print_verdicts

    by: dict[str, dict[int, float]] = {}
    interrupted = False
    with games_bar(quiet=as_json) as progress:
        bar = progress.add_task("games", total=games * len(names))
        for name in names:
            run = play_series(
                replace(spec, commanders=(name, name)),
                games,
                n_jobs=n_jobs,
                cluster=cluster,
                on_game=lambda _: progress.advance(bar),
            )
            by[name] = {
                g.seed: 0.5 if g.winner is None else float(g.winner == 0) for g in run.games
            }
            if run.interrupted:
                interrupted = True
                break
    if not any(by.values()):
        raise OptionError("no game finished", expected="let at least one game finish")
    rows, overall = robustness_of(by, names)
    if as_json:
        report = {
            "seed": spec.seed,
            "system": spec.system,
            "armies": [spec.army_a.name, spec.army_b.name],
            "games": sum(len(v) for v in by.values()),
            "interrupted": interrupted,
            "verdicts": [v.to_json() for v in rows],
            "across_commanders": overall,
        }
        typer.echo(json.dumps(report, indent=2))
        return
    title = f"{spec.army_a.name} (A) vs {spec.army_b.name} (B), {spec.system}, seed {spec.seed}"
    print_verdicts(console, title, rows, overall)


def _round_path(svg: Path, n: int) -> Path:
    """``--svg-rounds``: the drawing of round ``n`` beside the final one."""
    return svg.with_name(f"{svg.stem}-round{n}{svg.suffix or '.svg'}")


def system_mechanics(rules: RuleSystem) -> list[str]:
    """The registered mechanics a system accepts (its ``mechanics`` are name prefixes), in the
    order the system gives them: the first is its default."""
    names = mechanic_names()
    return [n for prefix in rules.mechanics for n in names if n.startswith(prefix)]


def _mechanic(rules: RuleSystem, mechanic: str | None) -> str:
    """``--mechanic``, or the system's own default; a mechanic it cannot use is one line."""
    known = system_mechanics(rules)
    if mechanic is None:
        return known[0]
    if mechanic not in known:
        get_mechanic(mechanic)  # an unknown name gets the registry's own error
        raise OptionError(
            f"{mechanic} is not a mechanic for {rules.name} games",
            value=mechanic,
            expected="one of " + ", ".join(known),
            where="--mechanic",
        )
    return mechanic


def _check_options(
    *,
    games: int,
    log: Path | None,
    svg: Path | None,
    svg_rounds: bool,
    out: Path | None,
    resume: bool,
    cluster: str | None,
) -> bool:
    """Every check of the options alone, before any file is read or written; whether the run
    is a series."""
    check_games(games)
    as_series = games > 1 or out is not None or cluster is not None
    if as_series and log is not None:
        raise OptionError(
            "--log writes one game", value="--log", expected="--games 1 without --out or --cluster"
        )
    if svg is not None and as_series:
        raise OptionError(
            "--svg draws one game",
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
    return as_series


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


def final_table_svg(state: Any, trail: Trail | None = None) -> str:
    """The table as it stands (at the end of a game or a round): zones where the sides
    deployed, terrain, numbered markers and who holds them, every unit left in its side's
    colour, the round's moves (from ``trail``), a caption and a legend."""
    return battle_svg(state, trail=trail)


@dataclass
class _Drawing:
    """What one game writes besides its account: ``--svg`` (and ``--svg-rounds``) pictures
    and the ``--log`` file, with the moves kept while it is played (for both)."""

    svg: Path | None
    rounds: bool
    log: Path | None
    trail: Trail = field(default_factory=Trail)
    #: ``--log``: the game's setup and its decisions, so the file can be played again.
    setup: Any = None
    actions: list[Any] = field(default_factory=list)

    def on_decision(self, state: Any, action: Any) -> None:
        if self.svg is not None or self.log is not None:
            self.trail.record(state, action)
        if self.log is not None:
            self.actions.append(action)

    def on_round(self, state: Any, n: int) -> None:
        if self.svg is not None and self.rounds:
            write_atomic(
                _round_path(self.svg, n),
                battle_svg(state, round_no=n, trail=self.trail),
                "--svg-rounds",
            )

    def finish(self, state: Any, result: dict[str, Any]) -> None:
        """Write the log file (the result, the events and the moves) and the final picture."""
        if self.log is not None:
            from oprlab.web.gamefile import game_file

            record = game_file(
                self.setup,
                self.actions,
                result=result,
                events=state.log.events,
                moves=self.trail.to_json(),
            )
            write_atomic(self.log, json.dumps(record, indent=1), "--log")
        if self.svg is not None:
            write_atomic(self.svg, final_table_svg(state, self.trail), "--svg")


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
