"""``oprlab dq``: DragonQuest duels under the opposed-rolling playtest or the current rules
(seed 001_7377b7b33dc9f88d), and the playtest's intents checked on whole fights.

An edge module: it reads the fighter files and prints; the duels are
:mod:`oprlab.analysis.dq_duel` and :mod:`oprlab.analysis.dq_intents`.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from oprlab.analysis.dq_duel import (
    DuelComparison,
    DuelReport,
    compare_resolutions,
    duel_series,
    play_one,
)
from oprlab.analysis.dq_intents import ARCHETYPES, fight_claims
from oprlab.analysis.stats import Interval
from oprlab.errors import OptionError, ParseError
from oprlab.game.dq.state import Duel
from oprlab.players.dq_habits import get_duel_habits
from oprlab.rng import spawn
from oprlab.rules.dq.combat import defence, engaged_initiative, strike_chance
from oprlab.rules.dq.duel_rules import RESOLUTIONS, DuelRules, parse_duel_rules
from oprlab.rules.dq.resolution import land_and_parry
from oprlab.units.dq_fighter import DqFighter, load_dq_fighter

__all__ = ["dq_app", "load_fighter", "register"]

dq_app = typer.Typer(
    name="dq",
    help="DragonQuest duels: the opposed-rolling playtest against the current rules.",
    no_args_is_help=True,
    add_completion=False,
)

_FIGHTER = "A fighter YAML file (docs/profiles.md) or a shipped one: " + ", ".join(
    f"dq/{n}" for n in (*ARCHETYPES, "watchman")
)


def register(app: typer.Typer) -> None:
    """Add the ``dq`` sub-app to the root app."""
    app.add_typer(dq_app, name="dq")


def load_fighter(ref: str) -> DqFighter:
    """A fighter from a file, or a shipped sample by name (``dq/knight``)."""
    from oprlab.samples import sample_names, sample_path

    path = Path(ref)
    if not path.is_file():
        names = set(sample_names())
        name = ref if ref.endswith(".yaml") else f"{ref}.yaml"
        if name in names and name != "dq/duel.yaml":
            path = sample_path(name)
    if not path.is_file():
        shipped = sorted(n.removesuffix(".yaml") for n in sample_names() if n.startswith("dq/"))
        shipped.remove("dq/duel")
        raise OptionError(
            "no such fighter file or sample", value=ref, expected="a file or " + ", ".join(shipped)
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError("cannot read the file", where=str(path), value=str(exc)) from None
    return load_dq_fighter(text, ref if not Path(ref).is_file() else str(path))


def _iv(i: Interval, digits: int = 3) -> str:
    return f"{i.estimate:.{digits}f} [{i.low:.{digits}f}, {i.high:.{digits}f}]"


def _who(f: DqFighter) -> str:
    c = f.characteristics
    return (
        f"{f.name} (SC {strike_chance(f)}, Defence {defence(f)}, initiative "
        f"{engaged_initiative(f)}, EN {c.en}, FT {c.ft}, {f.weapon.name} {f.weapon.damage})"
    )


def _exact_line(fighters: tuple[DqFighter, DqFighter], rules: DuelRules) -> str:
    """Exact P(a plain strike lands) each way, under both resolutions (from Table 1, no dice)."""
    parts = []
    for side, label in ((0, "A"), (1, "B")):
        sc, guard = strike_chance(fighters[side]), defence(fighters[1 - side])
        odds = [
            land_and_parry(
                sc,
                guard,
                resolution=res,
                table_01_row=rules.table_01_row,
                rounding=rules.current_rounding,
            )[0]
            for res in RESOLUTIONS
        ]
        parts.append(f"{label} {float(odds[0]):.3f} / {float(odds[1]):.3f}")
    return "exact P(a plain strike lands), opposed / current: " + "; ".join(parts)


def _histogram(report: DuelReport, width: int = 40) -> list[str]:
    top = max(report.rounds_hist.values())
    lines = []
    for r, n in report.rounds_hist.items():
        bar = "#" * max(1, round(width * n / top))
        lines.append(f"  {r:>3} {n / report.games:6.3f} {bar}")
    return lines


def _print_report(console: Console, report: DuelReport) -> None:
    a, b = report.names
    console.print(
        f"{report.rules.resolution}: {report.games:,} duels, seed {report.seed}, habits "
        f"{report.commanders[0]} / {report.commanders[1]}; 95% intervals",
        markup=False,
    )
    table = Table(show_header=True)
    table.add_column("figure")
    table.add_column(a)
    table.add_column(b)
    table.add_row("P(wins)", _iv(report.wins[0]), _iv(report.wins[1]))
    table.add_row(
        "damage dealt per round (FT + EN)",
        _iv(report.damage_per_round[0], 2),
        _iv(report.damage_per_round[1], 2),
    )
    console.print(table)
    q = report.rounds_quantiles()
    lines = [
        f"P(draw) {_iv(report.draws)}",
        f"rounds to the end: mean {_iv(report.rounds, 2)}; 10% {q[0.1]}, median {q[0.5]}, "
        f"90% {q[0.9]}",
        "how fights end: "
        + ", ".join(f"{k} {v.estimate:.3f}" for k, v in report.endings.items() if v.estimate > 0),
        f"P(a death) {_iv(report.deaths)}; P(knockout) {_iv(report.knockouts)}",
        f"P(decided by one blow: the loser out after the first roll that touched it) "
        f"{_iv(report.one_blow)}",
        f"specific grievous injuries per fight {_iv(report.grievous_per_fight, 3)}",
        "rounds (share of duels):",
        *_histogram(report),
    ]
    for line in lines:
        console.print(line, markup=False, highlight=False)


def _print_comparison(console: Console, cmp: DuelComparison) -> None:
    table = Table(title="opposed (playtest) against current (subtraction): 95% intervals")
    for col in ("figure", "opposed", "current", "opposed - current"):
        table.add_column(col)
    for d in cmp.differences:
        table.add_row(
            d.name,
            f"{d.opposed:.3f}",
            f"{d.current:.3f}",
            f"{d.diff:+.3f} [{d.low:+.3f}, {d.high:+.3f}]",
        )
    console.print(table)
    for r in (cmp.opposed, cmp.current):
        _print_report(console, r)


@dq_app.command("duel")
def duel(
    fighter_a: str = typer.Argument(..., help=_FIGHTER),
    fighter_b: str = typer.Argument(..., help=_FIGHTER),
    rules: str = typer.Option(
        "opposed", "--rules", help="opposed (the playtest) or current (subtraction)."
    ),
    games: int = typer.Option(1000, "--games", help="Duels to play."),
    seed: int = typer.Option(0, "--seed", help="Each duel's seed is spawned from this one."),
    compare: bool = typer.Option(False, "--compare", help="Both rules side by side."),
    rules_option: list[str] = typer.Option(
        [], "--rules-option", help="A reading KEY=VALUE (docs/rules/dq.md); repeatable."
    ),
    habits_a: str = typer.Option("habits", "--habits-a", help="habits or evader."),
    habits_b: str = typer.Option("habits", "--habits-b", help="habits or evader."),
    account: bool = typer.Option(False, "--account", help="Also print the first duel's account."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Two fighters fight to the end, many times: who wins, how long, how bloody."""
    if rules not in RESOLUTIONS:
        raise OptionError("unknown --rules", value=rules, expected=" or ".join(RESOLUTIONS))
    if compare and rules != "opposed":
        raise OptionError("--compare plays both rules", value=rules, expected="drop --rules")
    duel_rules = parse_duel_rules(rules_option, resolution=rules)
    commanders = (get_duel_habits(habits_a), get_duel_habits(habits_b))
    fighters = (load_fighter(fighter_a), load_fighter(fighter_b))
    out: dict[str, object]
    if compare:
        cmp = compare_resolutions(fighters, commanders, rules=duel_rules, games=games, seed=seed)
        out = cmp.to_json()
    else:
        report = duel_series(fighters, commanders, rules=duel_rules, games=games, seed=seed)
        out = report.to_json()
    if as_json:
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    console.print(f"A: {_who(fighters[0])}", markup=False, highlight=False)
    console.print(f"B: {_who(fighters[1])}", markup=False, highlight=False)
    console.print(_exact_line(fighters, duel_rules), markup=False, highlight=False)
    if compare:
        _print_comparison(console, cmp)
    else:
        _print_report(console, report)
    if account:
        first = spawn(seed, games)[0]
        _, events = play_one(Duel(fighters, duel_rules), commanders, first)
        console.print(f"The first duel (seed {first}):", markup=False)
        for e in events:
            console.print(f"  {e.round:>3} {e.text}", markup=False, highlight=False)


@dq_app.command("intents")
def intents(
    games: int = typer.Option(1000, "--games", help="Duels per pairing and rules."),
    seed: int = typer.Option(0, "--seed", help="Every series spawns its seeds from this one."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The playtest's "Why?" claims checked on duels between the shipped archetypes."""
    fighters = {n: load_fighter(f"dq/{n}") for n in ARCHETYPES}
    claims = fight_claims(fighters, games=games, seed=seed)
    if as_json:
        out = {"games": games, "seed": seed, "claims": [c.to_json() for c in claims]}
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    console.print(
        f'The playtest\'s intents on whole fights (seed 001 "Why?"): {games:,} duels per pairing '
        f"and rules, seed {seed}; numbers are [estimate, low, high] with 95% intervals",
        markup=False,
    )
    for claim in claims:
        style = {"PASS": "green", "FAIL": "bold red"}.get(claim.verdict, "yellow")
        console.print(f"[{style}]{claim.verdict}[/] {claim.claim}", highlight=False)
        console.print(f"     {claim.intent}; {claim.measure}", markup=False, highlight=False)
        console.print(f"     {json.dumps(claim.numbers)}", markup=False, highlight=False)
