"""``oprlab odds ATTACKER DEFENDER``: the odds of one unit's attack on another (its work is
:func:`oprlab.commands.odds.run_odds`, which the fast start calls too)."""

from __future__ import annotations

from pathlib import Path

import typer

from oprlab.commands.odds import (
    ATTACKER_HELP,
    CHARGING_HELP,
    COVER_HELP,
    DEFENDER_HELP,
    MELEE_HELP,
    MOVED_HELP,
    RANGE_HELP,
    SYSTEM_HELP,
    run_odds,
)


def register(app: typer.Typer) -> None:
    """Add ``odds`` to the root app."""
    app.command("odds")(odds)


def odds(
    attacker: str = typer.Argument(..., help=ATTACKER_HELP),
    defender: str = typer.Argument(..., help=DEFENDER_HELP),
    system: str = typer.Option("gff", "--system", help=SYSTEM_HELP),
    mechanic: str = typer.Option(
        "d6", "--mechanic", help="d6, clock, or a clock variant (see `oprlab mechanics`)."
    ),
    clock_start: int | None = typer.Option(
        None, "--clock-start", help="Both clocks start on this value (1-6); clock only."
    ),
    melee: bool = typer.Option(False, "--melee", help=MELEE_HELP),
    distance: float | None = typer.Option(None, "--range", help=RANGE_HELP),
    cover: bool = typer.Option(False, "--cover", help=COVER_HELP),
    charging: bool = typer.Option(False, "--charging", help=CHARGING_HELP),
    moved: bool = typer.Option(False, "--moved", help=MOVED_HELP),
    samples: int | None = typer.Option(
        None, "--samples", help="Monte Carlo with N samples instead of exact odds."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for --samples."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    plot: Path | None = typer.Option(
        None, "--plot", help="Also draw the three distributions to FILE.png."
    ),
) -> None:
    """The odds of one unit's attack on another: hits, wounds, casualties, destroyed."""
    run_odds(
        attacker,
        defender,
        system=system,
        mechanic=mechanic,
        clock_start=clock_start,
        melee=melee,
        distance=distance,
        cover=cover,
        charging=charging,
        moved=moved,
        samples=samples,
        seed=seed,
        as_json=as_json,
        plot=plot,
    )
