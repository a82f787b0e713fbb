"""``oprlab check``: the exact odds of one check under one mechanic (its work is
:func:`oprlab.commands.check.run_check`, which the fast start calls too)."""

from __future__ import annotations

import typer

from oprlab.commands.check import run_check
from oprlab.mechanics import Test


def register(app: typer.Typer) -> None:
    app.command("check")(check)


def check(
    mechanic: str = typer.Argument(..., help="d6, clock (and variants), wwpd or dq."),
    target: int | None = typer.Option(None, help="Base difficulty: 4 means 4+."),
    modifier: int = typer.Option(0, help="Net modifier: +1 is a bonus, -1 a penalty."),
    replacement: list[int] = typer.Option(
        [], help="A replacement effect's target (Reliable: 2). Repeatable."
    ),
    test: Test = typer.Option(Test.HIT, help="What is tested."),
    critical_from: int = typer.Option(6, help="Lowest unmodified value that is critical."),
    fatigued: bool = typer.Option(False, help="Succeeds only on an unmodified 6."),
    clock: int = typer.Option(1, help="clock: the clock's value before the check (1-6)."),
    armoured_vehicle: bool = typer.Option(False, help="wwpd: to-wound an armoured vehicle."),
    chance: int | None = typer.Option(None, help="dq: the strike chance (or defence) in %."),
    defence: int | None = typer.Option(None, help="dq: the defender's defence in %."),
    table_01_row: bool = typer.Option(False, help="dq: use the 57.4 table's printed 01 row."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Print the exact odds of one check."""
    run_check(
        mechanic,
        target=target,
        modifier=modifier,
        replacement=replacement,
        test=test,
        critical_from=critical_from,
        fatigued=fatigued,
        clock=clock,
        armoured_vehicle=armoured_vehicle,
        chance=chance,
        defence=defence,
        table_01_row=table_01_row,
        as_json=as_json,
    )
