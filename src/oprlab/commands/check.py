"""``oprlab check``'s work without typer: the exact odds of one check under one mechanic.

Shared by the typer command (:mod:`oprlab.cli.check`) and the fast start
(:mod:`oprlab.commands.fast`), so both print the same thing. Rich is imported only to draw a
table (``--json`` prints without it).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from oprlab.commands.streams import echo
from oprlab.errors import OptionError, check_range
from oprlab.mechanics import Check, Owner, Test, get_mechanic
from oprlab.prob import Dist

QUALITY_NAMES = ("Poor", "Average", "Better", "Crucial", "Decisive", "Excellent", "Fantastic")
RESULT_NAMES = (
    "Blocked",
    "Fatigue",
    "Maximum Fatigue",
    "Endurance",
    "Endurance & PSG",
    "Maximum Endurance & PSG",
    "Maximum Endurance + 10 & PSG",
)


def run_check(
    mechanic: str,
    *,
    target: int | None = None,
    modifier: int = 0,
    replacement: Sequence[int] = (),
    test: Test = Test.HIT,
    critical_from: int = 6,
    fatigued: bool = False,
    clock: int = 1,
    armoured_vehicle: bool = False,
    chance: int | None = None,
    defence: int | None = None,
    table_01_row: bool = False,
    as_json: bool = False,
) -> None:
    """Print the exact odds of one check."""
    if mechanic == "dq":
        from oprlab.mechanics.dq import MAX_CHANCE  # the other mechanics start without it

        _reject_set(target=target is not None, fatigued=fatigued, armoured_vehicle=armoured_vehicle)
        for name, value in (("--chance", chance), ("--defence", defence)):
            if value is not None:
                check_range(name, value, 0, MAX_CHANCE)
        result = _dq(chance, defence, modifier, table_01_row)
    else:
        _reject_set(
            chance=chance is not None,
            defence=defence is not None,
            table_01_row=table_01_row,
            fatigued=fatigued and mechanic == "wwpd",  # WWPD has no Fatigue
        )
        if target is None:
            raise OptionError(f"--target is required for {mechanic}", expected="e.g. --target 4")
        chk = Check(
            test=test,
            target=target,
            replacements=tuple(replacement),
            modifier=modifier,
            owner=Owner(army="A", unit="U", pool="weapon"),
            critical_from=check_range("--critical-from", critical_from, 2, 6),
            unmodified_six_only=fatigued,
            armoured_vehicle=armoured_vehicle,
        )
        result = _dice(mechanic, chk, clock)
    if as_json:
        echo(json.dumps(result, indent=2))
    else:
        _print(result)


def _reject_set(**flags: bool) -> None:
    bad = [name.replace("_", "-") for name, given in flags.items() if given]
    if bad:
        raise OptionError(
            "option does not apply to this mechanic", value="--" + bad[0], expected="see --help"
        )


def _dice(name: str, chk: Check, clock: int) -> dict[str, Any]:
    mech = get_mechanic(name)
    out: dict[str, Any] = {"mechanic": name, "target": chk.target, "modifier": chk.modifier}
    if not mech.deterministic:
        dist = mech.outcomes(chk)
        out |= _probabilities(dist.probability(lambda o: o.success), "p_success")
        out |= _probabilities(dist.probability(lambda o: o.critical), "p_critical")
        return out
    check_range("--clock", clock, 1, 6)
    rows = []
    for start in range(1, 7):
        state = mech.initial_state([chk.owner])
        state = _set_clock(mech, state, chk, start)
        ((outcome, _),) = mech.outcomes(chk, state).items()
        rows.append(
            {
                "clock": start,
                "success": outcome.success,
                "landing": outcome.natural,
                "critical": outcome.critical,
            }
        )
    chosen = rows[clock - 1]
    out |= {"clock": clock, "success": chosen["success"], "critical": chosen["critical"]}
    out |= {"landing": chosen["landing"], "by_clock": rows}
    share = Fraction(sum(r["success"] for r in rows), 6)
    out |= _probabilities(share, "share_success")
    return out


def _set_clock(mech: Any, state: Any, chk: Check, value: int) -> Any:
    """Put the check owner's clock at ``value``."""
    return state.with_clock(mech.clock_key(chk.owner), value)


def _probabilities(p: Fraction, key: str) -> dict[str, Any]:
    return {key: float(p), f"{key}_exact": str(p)}


def _levels(dist: Dist[int]) -> list[float]:
    return [float(dist[k]) for k in range(7)]


def _dq(
    chance: int | None, defence: int | None, modifier: int, table_01_row: bool
) -> dict[str, Any]:
    from oprlab.mechanics import dq

    if chance is None:
        raise OptionError("--chance is required for dq", expected="e.g. --chance 45")
    out: dict[str, Any] = {"mechanic": "dq", "chance": chance, "roll_modifier": modifier}
    out["quality"] = _levels(dq.quality_dist(chance, modifier, table_01_row=table_01_row))
    if defence is not None:
        out["defence"] = defence
        out["opposed"] = _levels(
            dq.opposed_result_dist(chance, defence, modifier, table_01_row=table_01_row)
        )
        out["current"] = _levels(dq.current_result_dist(chance, defence))
    return out


def _print(result: dict[str, Any]) -> None:
    from rich.console import Console  # only to draw a table
    from rich.table import Table

    console = Console()
    if result["mechanic"] == "dq":
        table = Table(title=f"DQ: strike chance {result['chance']}")
        table.add_column("level")
        table.add_column("quality of one roll", justify="right")
        cols = ["quality"]
        if "opposed" in result:
            table.add_column(f"opposed vs {result['defence']}", justify="right")
            table.add_column(f"current vs {result['defence']}", justify="right")
            cols += ["opposed", "current"]
        for level in range(7):
            name = f"{level} {QUALITY_NAMES[level]}"
            if "opposed" in result:
                name += f" / {RESULT_NAMES[level]}"
            table.add_row(name, *(f"{result[c][level]:.2%}" for c in cols))
        console.print(table)
        return
    if "by_clock" in result:
        table = Table(
            title=f"{result['mechanic']}: {result['target']}+ modifier {result['modifier']}"
        )
        for col in ("clock before", "lands (unmodified)", "success", "critical"):
            table.add_column(col)
        for row in result["by_clock"]:
            style = "bold" if row["clock"] == result["clock"] else ""
            table.add_row(
                str(row["clock"]),
                str(row["landing"]),
                str(row["success"]),
                str(row["critical"]),
                style=style,
            )
        console.print(table)
        console.print(f"succeeds from {result['share_success_exact']} of clock positions")
        return
    table = Table(title=f"{result['mechanic']}: {result['target']}+ modifier {result['modifier']}")
    table.add_column("P(success)", justify="right")
    table.add_column("P(critical)", justify="right")
    table.add_row(
        f"{result['p_success']:.4f} ({result['p_success_exact']})",
        f"{result['p_critical']:.4f} ({result['p_critical_exact']})",
    )
    console.print(table)
