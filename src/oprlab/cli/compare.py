"""``oprlab compare-mechanics``: how swingy is an attack under the d6 and under the clock,
and does the DragonQuest opposed-rolling playtest do what it says?

An edge module: it may import every layer.

``compare-mechanics ATTACKER DEFENDER`` puts the wounds and casualties of one attack side by
side under the d6 and under every registered clock variant (seed 000), with the measures of
:mod:`oprlab.analysis.swing`. A clock is certain once its start is known, so each variant is
shown twice: from the default start (both clocks at 1) and over all 36 pairs of starting
values 1..6 (attacker's, defender's), equally likely, which is the "Random Clocks" variation.

``compare-mechanics --dq`` compares the playtest's opposed rolls with the current subtractive
rules (seed 001) over a grid of strike chance and defence, and checks the playtest's stated
intents (its "Why?" lists) with numbers; the computations and their definitions are in
:mod:`oprlab.analysis.dq_playtest`, this module only parses the grid and prints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from oprlab.analysis.dq_playtest import dq_cell, dq_claims
from oprlab.analysis.efficiency import (
    DEFAULT_RANGE,
    STANDARD_TARGETS,
    EfficiencyReport,
    check_cost,
    efficiency_report,
    standard_target,
)
from oprlab.analysis.odds import OddsResult, Situation, attack_odds
from oprlab.analysis.swing import (
    FAR_DISTANCE,
    Swing,
    clock_start_odds,
    swing,
)
from oprlab.commands.inputs import check_playable, units_army
from oprlab.commands.odds import (
    ATTACKER_HELP,
    CHARGING_HELP,
    COVER_HELP,
    DEFENDER_HELP,
    MELEE_HELP,
    MOVED_HELP,
    RANGE_HELP,
    SYSTEM_HELP,
    Side,
    build_situation,
    check_system,
    fmt_p,
    load_side,
    mechanic_options,
    opr_mechanics,
)
from oprlab.errors import OptionError, UserError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.dq import MAX_CHANCE
from oprlab.units.load import load_unit_ref
from oprlab.units.model import Unit

__all__ = [
    "DEFAULT_CHANCES",
    "DEFAULT_DEFENCES",
    "MechanicRow",
    "compare_mechanics",
    "efficiency",
    "mechanic_rows",
    "parse_range",
    "register",
]

#: Default grid of ``--dq``: strike chance 20..120 and defence 0..80, in steps of 10.
DEFAULT_CHANCES = "20:120:10"
DEFAULT_DEFENCES = "0:80:10"
#: A grid larger than this is surely a typo (the whole D100 range in steps of 1 is 101).
MAX_GRID = 2000


def register(app: typer.Typer) -> None:
    """Add ``compare-mechanics`` and ``efficiency`` to the root app."""
    app.command("compare-mechanics")(compare_mechanics)
    app.command("efficiency")(efficiency)


# --- d6 against the clock -----------------------------------------------------------------------


@dataclass(frozen=True)
class MechanicRow:
    """One way of resolving the attack and its swing.

    Attributes:
        mechanic: the mechanic's registered name.
        starts: ``None`` for the d6, ``"1"`` for the clock's default start, ``"all"`` for the
            36 start pairs, equally likely.
        result: the odds.
        wounds: swing of the wounds.
        casualties: swing of the casualties.
    """

    mechanic: str
    starts: str | None
    result: OddsResult
    wounds: Swing
    casualties: Swing

    @property
    def label(self) -> str:
        if self.starts is None:
            return self.mechanic
        return f"{self.mechanic} @{'1' if self.starts == '1' else '1-6'}"

    @property
    def starts_text(self) -> str:
        if self.starts is None:
            return "-"
        return "1, 1" if self.starts == "1" else "all 36"

    def to_json(self) -> dict[str, Any]:
        def count(name: str, s: Swing) -> dict[str, Any]:
            return {"pmf": list(getattr(self.result, name).pmf), **s.to_json()}

        return {
            "mechanic": self.mechanic,
            "clock_starts": {None: None, "1": "attacker 1, defender 1"}.get(
                self.starts, "all 36 pairs 1-6 x 1-6, equally likely"
            ),
            "method": "exact",
            "wounds": count("wounds", self.wounds),
            "casualties": count("casualties", self.casualties),
            "p_destroyed": self.result.p_destroyed,
            "p_shaken": self.result.p_shaken,
        }


def _row(mechanic: str, starts: str | None, result: OddsResult, far: float) -> MechanicRow:
    return MechanicRow(
        mechanic,
        starts,
        result,
        swing(result.wounds.pmf, far),
        swing(result.casualties.pmf, far),
    )


def mechanic_rows(
    attacker: Unit,
    defender: Unit,
    *,
    system: str,
    situation: Situation,
    far: float = FAR_DISTANCE,
) -> tuple[list[MechanicRow], list[tuple[str, str]]]:
    """The d6 and every clock variant (from start 1 and over all starts); and the variants
    that cannot be used here, with the reason."""
    rows = [
        _row("d6", None, attack_odds(attacker, defender, system=system, situation=situation), far)
    ]
    unavailable: list[tuple[str, str]] = []
    for name in opr_mechanics():
        if name == "d6":
            continue
        mech = get_mechanic(name)
        if not isinstance(mech, Clock):
            continue
        try:
            if mech.start != "random":
                one = clock_start_odds(
                    attacker,
                    defender,
                    system=system,
                    mechanic=name,
                    situation=situation,
                    starts=[(1, 1)],
                )
                rows.append(_row(name, "1", one.result, far))
            mixed = clock_start_odds(
                attacker, defender, system=system, mechanic=name, situation=situation
            )
            rows.append(_row(name, "all", mixed.result, far))
        except UserError as exc:
            unavailable.append((name, exc.message))
    return rows, unavailable


def _swing_table(rows: Sequence[MechanicRow], count: str, far: float) -> Table:
    table = Table(title=f"{count}: swing")
    table.add_column("#", justify="right")
    table.add_column("mechanic", no_wrap=True)
    table.add_column("starts", no_wrap=True)
    for col in ("mean", "sd", "bits", "off1", f"off{far:g}"):
        table.add_column(col, justify="right")
    if count == "casualties":
        table.add_column("destr", justify="right")
    for i, row in enumerate(rows, start=1):
        s: Swing = getattr(row, count)
        cells = [
            str(i),
            row.mechanic,
            row.starts_text,
            f"{s.mean:.3f}",
            f"{s.sd:.3f}",
            f"{s.entropy_bits:.3f}",
            f"{s.p_off_by_1:.3f}",
            f"{s.p_far:.3f}",
        ]
        if count == "casualties":
            cells.append(f"{row.result.p_destroyed:.3f}")
        table.add_row(*cells)
    return table


def _short_p(p: float) -> str:
    """A probability in at most 4 characters: 0, 1, or .123."""
    if p == 0:
        return "0"
    if p == 1:
        return "1"
    text = f"{p:.3f}"
    if text == "0.000":
        return "<.001"
    return "1" if text == "1.000" else text.removeprefix("0")


def _pmf_table(rows: Sequence[MechanicRow], count: str) -> Table:
    table = Table(title=f"{count}: P(exactly k), columns numbered as above")
    table.add_column("k", justify="right")
    pmfs = [getattr(row.result, count).pmf for row in rows]
    for i in range(1, len(rows) + 1):
        table.add_column(f"#{i}", justify="right")
    for k in range(max(len(p) for p in pmfs)):
        table.add_row(str(k), *(_short_p(p[k]) if k < len(p) else "" for p in pmfs))
    return table


def _compare_units(
    attacker: str | None,
    defender: str | None,
    *,
    system: str,
    situation: Situation,
    far: float,
    as_json: bool,
) -> None:
    if attacker is None or defender is None:
        raise OptionError(
            "compare-mechanics needs ATTACKER and DEFENDER",
            expected="two unit references, or --dq",
        )
    if not far > 0:
        raise OptionError("--far must be positive", value=far, expected="e.g. 2")
    command = "compare-mechanics"
    att, dfd = load_side(attacker, command=command), load_side(defender, command=command)
    rows, unavailable = mechanic_rows(
        att.unit, dfd.unit, system=system, situation=situation, far=far
    )
    if as_json:
        out = {
            "attacker": att.unit.name,
            "defender": dfd.unit.name,
            "system": system,
            "situation": _situation_json(situation),
            "weapons": list(rows[0].result.weapons),
            "far_distance": far,
            "rows": [r.to_json() for r in rows],
            "unavailable": [{"mechanic": m, "reason": why} for m, why in unavailable],
        }
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    _header(console, att, dfd, rows[0].result, situation)
    for count in ("wounds", "casualties"):
        console.print(_swing_table(rows, count, far))
        console.print(_pmf_table(rows, count))
    for name, why in unavailable:
        console.print(f"{name}: not available here: {why}", markup=False)
    console.print(
        "bits: Shannon entropy; offD: P(|X - mean| >= D); destr: P(destroyed). A clock is "
        "certain given its start: '1, 1' is the default start, 'all 36' every start of the "
        "attacker's and defender's clocks, equally likely (= clock-random).",
        markup=False,
    )


def _situation_json(s: Situation) -> dict[str, Any]:
    return {
        "melee": s.melee,
        "charging": s.charging,
        "range": s.distance,
        "cover": s.cover,
        "moved": s.moved,
    }


def _header(console: Console, att: Side, dfd: Side, result: OddsResult, s: Situation) -> None:
    how = "melee" + (", charging" if s.charging else "") if s.melee else "shooting"
    if not s.melee:
        how += f' at {12.0 if s.distance is None else s.distance:g}"'
        how += ", target in cover" if s.cover else ""
    console.print(
        f"{att.unit.name} attacks {dfd.unit.name} ({result.system}, {how}; "
        f"weapons: {', '.join(result.weapons)})",
        markup=False,
    )


# --- DragonQuest: opposed against current ------------------------------------------------------


def parse_range(text: str, name: str) -> tuple[int, ...]:
    """``START:STOP:STEP`` (both ends included), ``START:STOP`` (step 10) or one value."""
    parts = text.split(":")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise OptionError(
            f"{name} is not a range", value=text, expected="START:STOP:STEP, e.g. 20:120:10"
        ) from None
    if len(numbers) == 1:
        numbers = [numbers[0], numbers[0], 1]
    elif len(numbers) == 2:
        numbers.append(10)
    if len(numbers) != 3:
        raise OptionError(
            f"{name} is not a range", value=text, expected="START:STOP:STEP, e.g. 20:120:10"
        )
    start, stop, step = numbers
    if step < 1 or start > stop:
        raise OptionError(
            f"{name} is empty", value=text, expected="START <= STOP and a STEP of 1 or more"
        )
    if start < 0 or stop > MAX_CHANCE:
        raise OptionError(
            f"{name} out of range", value=text, expected=f"chances from 0 to {MAX_CHANCE}"
        )
    return tuple(range(start, stop + 1, step))


def _dq(chance_range: str, defence_range: str, as_json: bool) -> None:
    chances = parse_range(chance_range, "--chance-range")
    defences = parse_range(defence_range, "--defence-range")
    if len(chances) * len(defences) > MAX_GRID:
        raise OptionError(
            "the grid is too large",
            value=len(chances) * len(defences),
            expected=f"at most {MAX_GRID} cells (use a larger STEP)",
        )
    cells = [dq_cell(sc, d) for sc in chances for d in defences]
    claims = dq_claims(chances, defences)
    if as_json:
        out = {
            "chances": list(chances),
            "defences": list(defences),
            "cells": [c.to_json() for c in cells],
            "claims": [c.to_json() for c in claims],
        }
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    table = Table(title="DragonQuest: opposed rolling (playtest) vs current subtraction")
    table.add_column("SC", justify="right")
    table.add_column("D", justify="right")
    for what in ("P(hit)", "P(endurance)", "P(blocked)"):
        table.add_column(f"{what}\nopposed", justify="right")
        table.add_column("\ncurrent", justify="right")
    for c in cells:
        table.add_row(
            str(c.strike_chance),
            str(c.defence),
            *(
                fmt_p(float(getattr(fig, name)))
                for name in ("p_hit", "p_endurance", "p_blocked")
                for fig in (c.opposed, c.current)
            ),
        )
    console.print(table)
    console.print('[bold]The playtest\'s stated intents (seed 001 "Why?")[/]')
    for claim in claims:
        style = {"PASS": "green", "FAIL": "bold red"}.get(claim.verdict, "yellow")
        console.print(f"[{style}]{claim.verdict}[/] {claim.claim}", highlight=False)
        console.print(
            f"     {claim.intent}; measure: {claim.measure}", markup=False, highlight=False
        )
        console.print(f"     {json.dumps(claim.numbers)}", markup=False, highlight=False)


# --- the command --------------------------------------------------------------------------------


def compare_mechanics(
    attacker: str | None = typer.Argument(None, help=ATTACKER_HELP),
    defender: str | None = typer.Argument(None, help=DEFENDER_HELP),
    system: str = typer.Option("gff", "--system", help=SYSTEM_HELP),
    melee: bool = typer.Option(False, "--melee", help=MELEE_HELP),
    distance: float | None = typer.Option(None, "--range", help=RANGE_HELP),
    cover: bool = typer.Option(False, "--cover", help=COVER_HELP),
    charging: bool = typer.Option(False, "--charging", help=CHARGING_HELP),
    moved: bool = typer.Option(False, "--moved", help=MOVED_HELP),
    far: float = typer.Option(
        FAR_DISTANCE, "--far", help="Swing: P(|X - mean| >= FAR) is shown (default 2)."
    ),
    dq: bool = typer.Option(
        False, "--dq", help="Compare DragonQuest opposed rolls with the current rules instead."
    ),
    chance_range: str = typer.Option(
        DEFAULT_CHANCES, "--chance-range", help="--dq: strike chances START:STOP:STEP."
    ),
    defence_range: str = typer.Option(
        DEFAULT_DEFENCES, "--defence-range", help="--dq: defences START:STOP:STEP."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The d6 against the diceless clock for one attack, with measures of swing; or, with --dq,
    DragonQuest opposed rolls against the current rules, with the playtest's intents checked."""
    if dq:
        if attacker is not None or defender is not None:
            raise OptionError(
                "--dq takes no units", value=attacker, expected="drop ATTACKER and DEFENDER"
            )
        _dq(chance_range, defence_range, as_json)
        return
    if (chance_range, defence_range) != (DEFAULT_CHANCES, DEFAULT_DEFENCES):
        raise OptionError(
            "--chance-range and --defence-range go with --dq", expected="add --dq or drop them"
        )
    check_system(system)
    situation = build_situation(
        melee=melee, distance=distance, cover=cover, charging=charging, moved=moved
    )
    _compare_units(attacker, defender, system=system, situation=situation, far=far, as_json=as_json)


# --- points efficiency ---------------------------------------------------------------------------


def _target(ref: str) -> Unit:
    """A standard target by name, else the first unit of a unit reference."""
    names = {u.name.casefold() for u in STANDARD_TARGETS}
    if ref.strip().casefold() in names:
        return standard_target(ref)
    return load_side(ref, command="efficiency").unit


def _efficiency_tables(report: EfficiencyReport, mode: str) -> list[Table]:
    rows = report.rankings[mode]
    what = f'shooting at {report.distance:g}"' if mode == "shooting" else "melee, charging"
    tables = []
    for title, attr, mean_attr, fmt in (
        ("expected wounds per 100 pts", "wounds_per_100", "mean_wounds_per_100", "{:.2f}"),
        ("P(destroyed) per 100 pts", "p_destroyed_per_100", "mean_p_destroyed_per_100", "{:.3f}"),
    ):
        table = Table(
            title=f"{mode} ({what}): {title}",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        table.add_column("#", justify="right")
        table.add_column("unit", no_wrap=True, max_width=16)
        table.add_column("pts", justify="right")
        for t in report.targets:  # one word a line: "Light infantry" fits in 80 columns
            table.add_column(t.name.replace(" ", "\n"), justify="right")
        table.add_column("mean", justify="right", style="bold")
        for r in rows:
            cells = [str(r.rank), r.unit.name, str(r.unit.cost)]
            cells += ["-" if e is None else fmt.format(getattr(e, attr)) for e in r.by_target]
            cells.append(fmt.format(getattr(r, mean_attr)) if r.can_attack else "cannot")
            table.add_row(*cells)
        tables.append(table)
    return tables


TARGETS_HELP = (
    "A standard target ("
    + ", ".join(t.name for t in STANDARD_TARGETS)
    + ") or a unit reference; repeatable. Default: all the standard targets."
)


def efficiency(
    units: list[str] = typer.Argument(
        ...,
        help="Army files (every unit is ranked), FILE:Unit Name, or one unit's text.",
    ),
    targets: list[str] = typer.Option(
        [],
        "--targets",
        "--target",
        help=TARGETS_HELP,
    ),
    distance: float = typer.Option(DEFAULT_RANGE, "--range", help="Shooting range in inches."),
    system: str = typer.Option("gff", "--system", help=SYSTEM_HELP),
    mechanic: str = typer.Option("d6", "--mechanic", help="d6, clock, or a clock variant."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Expected wounds and P(destroyed) per 100 points, shooting and in melee, ranked."""
    check_system(system)
    mechanic_options(mechanic, None)
    if not distance >= 0:
        raise OptionError("--range out of range", value=distance, expected="0 or more inches")
    attackers = []
    for ref in units:
        found = load_unit_ref(ref)
        check_playable([("", ref, units_army(found))], command="efficiency")
        attackers += [check_cost(u) for u in found]
    chosen = tuple(_target(t) for t in targets) or STANDARD_TARGETS
    report = efficiency_report(
        attackers, chosen, distance=distance, system=system, mechanic=mechanic
    )
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    console = Console()
    console.print(
        f"{report.system}, {report.mechanic}: one attack of each unit on each target; "
        "ranked by mean expected wounds per 100 points ('-': cannot attack that way)",
        markup=False,
    )
    for mode in report.rankings:
        for table in _efficiency_tables(report, mode):
            console.print(table)
