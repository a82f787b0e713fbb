"""``oprlab demo``: a short tour on the bundled sample armies (what ``make demo`` runs).

Each step says what it shows and how to read it: which lists play, what the clock's columns
count, what the swing measures measure, and the command that goes further.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from oprlab.analysis.odds import OddsResult, Situation, attack_odds
from oprlab.analysis.series import SeriesSpec, play_series
from oprlab.analysis.swing import clock_start_odds, swing
from oprlab.cli.army import army_table
from oprlab.mechanics import Check, Owner, Test, get_mechanic
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Unit

#: Games per mechanic in the demo's short series (kept small so `make demo` stays quick).
GAMES = 20
ARMY_A = "gff/shooty-300.txt"
ARMY_B = "gff/horde-300.txt"


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)


def demo() -> None:
    """Sample armies, the odds of one check and one attack, and a short series of whole games:
    the d6 against the clock."""
    console = Console()
    a = load_army(sample_path(ARMY_A))
    b = load_army(sample_path(ARMY_B))
    console.print(
        Panel.fit(
            "oprlab plays One Page Rules style games in software and measures what rules do. "
            f"This tour reads two bundled Army Forge lists, {a.name!r} ({ARMY_A}) and "
            f"{b.name!r} ({ARMY_B}), and compares the OPR d6 with the diceless clock of "
            "Diceless OPR (seed 000): one check, one attack, its swing, then whole games.",
            title="oprlab demo",
        )
    )
    _say(console, f"1. The two lists, as `oprlab army show {ARMY_A}` shows them:")
    console.print(army_table(a))
    console.print(army_table(b))

    _say(
        console,
        "2. One quality test, Q4+. The d6 column is the chance of success. The clock has no "
        "chance: it stands on one of 6 positions and moves by a known step, so the clock "
        "column counts the starting positions (of 6) from which the test succeeds.",
    )
    d6 = get_mechanic("d6")
    clock = get_mechanic("clock")
    table = Table(title="One quality test: Q4+ with modifiers, d6 vs clock")
    for col in ("modifier", "d6 P(success)", "clock: positions that succeed"):
        table.add_column(col, justify="right")
    owner = Owner("A", "U")
    for mod in (-2, -1, 0, 1):
        check = Check(Test.HIT, 4, modifier=mod, owner=owner)
        wins = 0
        for start in range(1, 7):
            state = clock.initial_state([owner]).with_clock(clock.clock_key(owner), start)  # type: ignore[attr-defined]
            ((outcome, _),) = clock.outcomes(check, state).items()
            wins += outcome.success
        table.add_row(f"{mod:+d}", f"{float(d6.p_success(check)):.3f}", f"{wins}/6")
    console.print(table)

    shooter = max(a.units, key=lambda u: sum(w.count * w.attacks for w in u.weapons if not w.melee))
    target = max(b.units, key=lambda u: u.size)
    s = Situation(distance=12.0)
    exact = attack_odds(shooter, target, mechanic="d6", situation=s)
    sampled = attack_odds(shooter, target, mechanic="d6", situation=s, samples=4000, seed=7)
    certain = attack_odds(shooter, target, mechanic="clock", situation=s)
    _say(
        console,
        f'3. One attack: {shooter.name} ({a.name}) shoots {target.name} ({b.name}) at 12". '
        "'d6 exact' is every outcome with its probability; 'd6 Monte Carlo' plays the same "
        "rules 4,000 times (an estimate, with its interval below); 'clock from 1' is the one "
        "certain outcome when both clocks start at 1.",
    )
    odds = Table(title=f'{shooter.name} shoots {target.name} at 12"')
    for col in ("method", "mean hits", "mean wounds", "mean casualties", "P(destroyed)"):
        odds.add_column(col, justify="right")
    for label, r in (("d6 exact", exact), ("d6 Monte Carlo", sampled), ("clock from 1", certain)):
        odds.add_row(
            label,
            f"{r.hits.mean:.2f}",
            f"{r.wounds.mean:.2f}",
            f"{r.casualties.mean:.2f}",
            f"{r.p_destroyed:.3f}",
        )
    console.print(odds)
    iv = sampled.intervals["p_destroyed"]
    console.print(
        f"Monte Carlo: n={iv.n:,}, seed {sampled.seed}; P(destroyed) 95% interval "
        f"[{iv.low:.3f}, {iv.high:.3f}] (exact {exact.p_destroyed:.3f})."
    )
    _swing(console, shooter, target, s, exact)
    _series(console)
    console.print(
        "Next: .venv/bin/oprlab --help; oprlab battle gff/shooty-300 gff/melee-300 --seed 1; "
        "oprlab odds 'gff/shooty-300:Lantern Wardens' gff/horde-300:Ravagers; "
        "oprlab compare-mechanics 'gff/shooty-300:Lantern Wardens' gff/horde-300:Ravagers; "
        "in the browser: .venv/bin/oprlab serve, then open http://127.0.0.1:8765/",
        markup=False,
    )


def _say(console: Console, text: str) -> None:
    """One explanation before a table, in plain words."""
    console.print()
    console.print(text, markup=False, highlight=False)


def _swing(console: Console, shooter: Unit, target: Unit, s: Situation, exact: OddsResult) -> None:
    """How swingy the same attack is under the d6 and under the clock (all 36 starts)."""
    _say(
        console,
        "4. Swing: how far one attack's wounds stray from what you expect. sd is the standard "
        "deviation; bits is the entropy (0 bits: the outcome is certain, each bit doubles "
        "the number of equally likely outcomes); off by 1+ and off by 2+ are the chances of "
        "ending at least 1 or 2 wounds from the mean. The clock row averages over the 36 "
        "equally likely starts of both clocks (the 'Random Clocks' variation); "
        "`oprlab compare-mechanics` shows every clock variant.",
    )
    clock = clock_start_odds(shooter, target, mechanic="clock", situation=s).result
    table = Table(title=f"Swing of the wounds: {shooter.name} -> {target.name}")
    for col in ("mechanic", "mean", "sd", "bits", "off by 1+", "off by 2+"):
        table.add_column(col, justify="right")
    for label, r in (("d6", exact), ("clock, 36 starts", clock)):
        w = swing(r.wounds.pmf, 2.0)
        table.add_row(
            label,
            f"{w.mean:.2f}",
            f"{w.sd:.2f}",
            f"{w.entropy_bits:.2f}",
            f"{w.p_off_by_1:.3f}",
            f"{w.p_far:.3f}",
        )
    console.print(table)


def _series(console: Console) -> None:
    """A short series of whole games between rules-based commanders, d6 against the clock."""
    a = load_army(sample_path("gff/shooty-150.txt"))
    b = load_army(sample_path("gff/melee-150.txt"))
    _say(
        console,
        f"5. Whole games: {a.name!r} (gff/shooty-150, A) against {b.name!r} "
        f"(gff/melee-150, B), {GAMES} games under each mechanic between computer commanders "
        "that follow the rules. The interval is where the true win rate of A lies with 95% "
        "confidence: with so few games it is wide.",
    )
    table = Table(title=f"Whole games: {a.name} (A) vs {b.name} (B), {GAMES} games each")
    for col in ("mechanic", "A wins", "B wins", "draws", "95% interval of A wins"):
        table.add_column(col, justify="right")
    for mechanic in ("d6", "clock"):
        spec = SeriesSpec(a, b, ("rules", "rules"), mechanic, None, seed=2026)
        s = play_series(spec, GAMES).summary()
        table.add_row(
            mechanic,
            f"{s['win_a']['estimate']:.2f}",
            f"{s['win_b']['estimate']:.2f}",
            f"{s['draw']['estimate']:.2f}",
            f"[{s['win_a']['low']:.2f}, {s['win_a']['high']:.2f}]",
        )
    console.print(table)
    console.print(
        f"n={GAMES} games per row, series seed 2026; more games: oprlab battle "
        "gff/shooty-150 gff/melee-150 --games 200"
    )
