"""``oprlab odds ATTACKER DEFENDER``'s work without typer: the odds of one unit's attack on
another (the typer command is :mod:`oprlab.cli.odds`; the fast start calls this too).

An edge module: it may import every layer. It reads the two unit references, turns the options
into a :class:`~oprlab.analysis.odds.Situation` and a mechanic, asks
:func:`~oprlab.analysis.odds.attack_odds` (or, for a clock with random starts,
:func:`~oprlab.analysis.swing.clock_start_odds`, which is exact over the 36 start pairs), and
prints a table, JSON or a PNG. Bad input raises an oprlab :class:`~oprlab.errors.UserError`,
which the CLI root prints as one line with exit code 2. The helpers here are shared with
``compare-mechanics`` and ``efficiency``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oprlab.analysis.odds import Distribution, OddsResult, Situation, attack_odds, get_system
from oprlab.commands.inputs import check_playable, units_army
from oprlab.commands.streams import echo
from oprlab.errors import OptionError, check_range
from oprlab.files import check_output
from oprlab.limits import DOCS
from oprlab.mechanics import get_mechanic, mechanic_names
from oprlab.units.load import load_unit_ref
from oprlab.units.model import Unit

if TYPE_CHECKING:  # rich is loaded only to draw tables (``--json`` prints without it)
    from rich.table import Table

__all__ = [
    "Side",
    "build_situation",
    "check_system",
    "compute_odds",
    "fmt_p",
    "load_side",
    "mechanic_options",
    "odds_json",
    "opr_mechanics",
    "run_odds",
]

#: Help texts shared by the commands that take the same side and situation options.
ATTACKER_HELP = (
    "The attacking unit: a file (its first unit), FILE:Unit Name, or one unit's Army Forge "
    "text (unit line and weapon line). A unit with a joined hero attacks as its first unit."
)
DEFENDER_HELP = "The target unit, given the same way (the first unit of the reference)."
SYSTEM_HELP = (
    "Rule system: gff or riverside; house rules joined by + (gff+dopr: docs/rules/house.md)."
)
MELEE_HELP = "A melee attack (default: shooting)."
RANGE_HELP = 'Shooting distance in inches (default 12"): only weapons in range shoot.'
COVER_HELP = "The target is in cover (shooting only)."
CHARGING_HELP = "The attacker charged (melee only)."
MOVED_HELP = "The attacker moved before shooting (Indirect)."


@dataclass(frozen=True)
class Side:
    """One side of an odds query: the unit that takes part and the reference it came from."""

    unit: Unit
    ref: str
    others: tuple[str, ...] = ()  # further units of the reference (a joined hero), ignored


def load_side(ref: str, *, command: str = "odds") -> Side:
    """The first unit of a unit reference (a file, ``FILE:Unit Name``, a unit's text or a
    sample's name), refused with every problem if it cannot be played."""
    units = load_unit_ref(ref)
    if not units:
        raise OptionError("no units in that reference", value=ref, expected="a list with units")
    check_playable([("", ref, units_army(units[:1]))], command=command)
    return Side(units[0], ref, tuple(u.name for u in units[1:]))


def check_system(system: str) -> str:
    """``system`` if a rule system for odds is registered under that name."""
    get_system(system)
    return system


def opr_mechanics() -> list[str]:
    """The mechanics an OPR system accepts: the d6 and every registered clock variant."""
    return ["d6", *(n for n in mechanic_names() if n.startswith("clock"))]


def mechanic_options(mechanic: str, clock_start: int | None) -> dict[str, Any]:
    """Options for ``mechanic``; refuses a mechanic an OPR system cannot use, and a clock start
    given to anything but a clock."""
    if mechanic != "d6" and mechanic not in opr_mechanics():  # the d6 loads no other mechanic
        get_mechanic(mechanic)  # an unknown name gets the registry's own error
        raise OptionError(
            "not a mechanic for OPR attacks",
            value=mechanic,
            expected="one of " + ", ".join(opr_mechanics()),
            where="--mechanic",
        )
    if clock_start is None:
        return {}
    from oprlab.analysis.swing import is_clock  # the clock's odds: loaded for a clock only

    if not is_clock(mechanic):
        raise OptionError(
            "--clock-start applies to the clock only",
            value=mechanic,
            expected="--mechanic clock (or a clock variant), or drop --clock-start",
        )
    check_range("--clock-start", clock_start, 1, 6)
    options = {"start": clock_start}
    get_mechanic(mechanic, **options)  # a variant that fixes its start refuses here
    return options


def build_situation(
    *,
    melee: bool,
    distance: float | None,
    cover: bool,
    charging: bool,
    moved: bool,
) -> Situation:
    """The attack's situation from the command line flags, contradictions refused."""
    if melee and cover:
        raise OptionError(
            "cover applies to shooting only", value="--cover", expected="drop --cover or --melee"
        )
    if melee and distance is not None:
        raise OptionError(
            "--range applies to shooting only", value=distance, expected="drop --range or --melee"
        )
    if melee and moved:
        raise OptionError(
            "--moved applies to shooting only (a charge is --charging)",
            value="--moved",
            expected="drop --moved, or --charging for a charge",
        )
    if charging and not melee:
        raise OptionError("charging is a melee attack", value="--charging", expected="add --melee")
    if distance is not None and not distance >= 0:
        raise OptionError("--range out of range", value=distance, expected="0 or more inches")
    return Situation(melee=melee, charging=charging, distance=distance, cover=cover, moved=moved)


def check_samples(samples: int | None) -> int | None:
    if samples is not None and samples < 1:
        raise OptionError("--samples out of range", value=samples, expected="1 or more")
    return samples


def _random_starts(
    attacker: Unit,
    defender: Unit,
    system: str,
    mechanic: str,
    options: dict[str, Any],
    situation: Situation,
    samples: int | None,
    seed: int | None,
) -> tuple[OddsResult, dict[str, Any]] | None:
    """A clock with random starts, played from all 36 start pairs or sampled ones (``None``
    for a mechanic that is no clock). Its module is loaded for a clock only: ``oprlab odds``
    with the d6 starts faster without it."""
    from oprlab.analysis.swing import clock_start_odds, is_clock, sample_clock_starts

    if not is_clock(mechanic, options):
        return None
    if samples is not None:
        result = sample_clock_starts(
            attacker,
            defender,
            samples=samples,
            seed=seed,
            system=system,
            mechanic=mechanic,
            mechanic_options=options,
            situation=situation,
        )
        return result, {"clock_starts": "sampled: a d6 for each clock"}
    mixed = clock_start_odds(
        attacker,
        defender,
        system=system,
        mechanic=mechanic,
        mechanic_options=options,
        situation=situation,
    )
    return mixed.result, {"clock_starts": "all 36 pairs (attacker, defender), equally likely"}


def compute_odds(
    attacker: Unit,
    defender: Unit,
    *,
    system: str,
    mechanic: str,
    options: dict[str, Any],
    situation: Situation,
    samples: int | None,
    seed: int | None,
) -> tuple[OddsResult, dict[str, Any]]:
    """The odds, and notes on how they were found (for the JSON and the table).

    A clock with random starts has no single certain outcome: it is played out from all 36
    start pairs (exact), or from sampled pairs with ``samples``.
    """
    if getattr(get_mechanic(mechanic, **options), "start", None) == "random":
        started = _random_starts(
            attacker, defender, system, mechanic, options, situation, samples, seed
        )
        if started is not None:
            return started
    try:
        result = attack_odds(
            attacker,
            defender,
            system=system,
            mechanic=mechanic,
            mechanic_options=options,
            situation=situation,
            samples=samples,
            seed=seed,
        )
    except OptionError as exc:
        if exc.where != "Check.owner":
            raise
        # The rule system's checks do not name what this variant needs (token pools).
        raise OptionError(
            f"the {system} odds cannot use {mechanic} yet: {exc.message}",
            value=mechanic,
            expected="d6 or another clock variant",
        ) from None
    return result, {}


def odds_json(
    result: OddsResult,
    attacker: Side,
    defender: Side,
    options: dict[str, Any],
    notes: dict[str, Any],
) -> dict[str, Any]:
    """``OddsResult.to_json()`` plus the two units' names and the options of the query."""
    out = result.to_json()
    out["attacker"] = attacker.unit.name
    out["defender"] = defender.unit.name
    out["options"] = options
    out.update(notes)
    return out


def fmt_p(p: float | None) -> str:
    """A probability for a table: four decimals, "<0.0001" for tiny non-zero values."""
    if p is None:
        return "n/a"
    if 0 < p < 0.00005:
        return "<0.0001"
    return f"{p:.4f}"


def _describe(result: OddsResult, situation: Situation) -> str:
    if result.melee:
        how = "melee, charging" if situation.charging else "melee"
    else:
        at = 12.0 if situation.distance is None else situation.distance
        how = f'shooting at {at:g}"' + (", target in cover" if situation.cover else "")
        how += ", after moving" if situation.moved else ""
    return f"{result.system}, {result.mechanic}, {how}; weapons: {', '.join(result.weapons)}"


def odds_table(result: OddsResult, title: str) -> Table:
    """Hits, wounds and casualties side by side: P(exactly k) and P(at least k)."""
    from rich.table import Table

    table = Table(title=title)
    table.add_column("k", justify="right")
    dists: list[tuple[str, Distribution]] = [
        ("hits", result.hits),
        ("wounds", result.wounds),
        ("casualties", result.casualties),
    ]
    for name, _ in dists:
        table.add_column(f"{name}\nexactly", justify="right")
        table.add_column("\nat least", justify="right")
    rows = max(len(d.pmf) for _, d in dists)
    for k in range(rows):
        cells = [str(k)]
        for _, d in dists:
            if k < len(d.pmf):
                cells += [fmt_p(d.pmf[k]), fmt_p(d.at_least(k))]
            else:
                cells += ["", ""]
        table.add_row(*cells)
    table.add_section()
    table.add_row("mean", *(c for _, d in dists for c in (f"{d.mean:.3f}", "")), style="bold")
    return table


def print_odds(
    result: OddsResult, attacker: Side, defender: Side, situation: Situation, notes: dict[str, Any]
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    console.print(f"[bold]{attacker.unit.name}[/] attacks [bold]{defender.unit.name}[/]")
    for side, role in ((attacker, "attacker"), (defender, "defender")):
        if side.others:
            console.print(
                f"  ({role}: the first of {len(side.others) + 1} units in the reference)",
                markup=False,
            )
    console.print(_describe(result, situation), markup=False)
    method = (
        f"Monte Carlo: {result.samples:,} samples, seed {result.seed}"
        if result.samples
        else "exact"
    )
    if result.auto_sampled:
        method = f"note: too large to compute exactly in reasonable time (see {DOCS}); " + method
    if "clock_starts" in notes:
        method += f"; clock starts: {notes['clock_starts']}"
    console.print(method, markup=False)
    console.print(odds_table(result, "Distribution of one attack"))
    console.print(f"P(destroyed) = {fmt_p(result.p_destroyed)}")
    console.print(f"P(shaken)    = {fmt_p(result.p_shaken)}")
    if result.intervals:
        table = Table(title=f"95% intervals (n = {result.samples:,})")
        for col in ("figure", "estimate", "low", "high"):
            table.add_column(col, justify="right" if col != "figure" else "left")
        for key, iv in result.intervals.items():
            table.add_row(key, f"{iv.estimate:.4f}", f"{iv.low:.4f}", f"{iv.high:.4f}")
        console.print(table)


def check_plot_path(plot: Path | None) -> Path | None:
    if plot is None:
        return None
    if plot.suffix.lower() != ".png":
        raise OptionError("--plot writes a PNG file", value=str(plot), expected="a FILE.png")
    return check_output(plot, "--plot")


def run_odds(
    attacker: str,
    defender: str,
    *,
    system: str = "gff",
    mechanic: str = "d6",
    clock_start: int | None = None,
    melee: bool = False,
    distance: float | None = None,
    cover: bool = False,
    charging: bool = False,
    moved: bool = False,
    samples: int | None = None,
    seed: int | None = None,
    as_json: bool = False,
    plot: Path | None = None,
) -> None:
    """The odds of one unit's attack on another: hits, wounds, casualties, destroyed."""
    check_system(system)
    options = mechanic_options(mechanic, clock_start)
    check_samples(samples)
    if seed is not None and samples is None:
        raise OptionError("--seed goes with --samples", value=seed, expected="add --samples N")
    situation = build_situation(
        melee=melee, distance=distance, cover=cover, charging=charging, moved=moved
    )
    plot = check_plot_path(plot)
    att, dfd = load_side(attacker), load_side(defender)
    result, notes = compute_odds(
        att.unit,
        dfd.unit,
        system=system,
        mechanic=mechanic,
        options=options,
        situation=situation,
        samples=samples,
        seed=seed,
    )
    if plot is not None:
        from oprlab.analysis.plots import plot_odds  # matplotlib only when asked

        plot_odds(result, plot, title=f"{att.unit.name} -> {dfd.unit.name}")
    if as_json:
        query = {
            "system": system,
            "mechanic": mechanic,
            "clock_start": clock_start,
            "melee": melee,
            "range": distance,
            "cover": cover,
            "charging": charging,
            "moved": moved,
            "samples": samples,
            "seed": seed,
            "plot": None if plot is None else str(plot),
        }
        echo(json.dumps(odds_json(result, att, dfd, query, notes), indent=2))
        return
    print_odds(result, att, dfd, situation, notes)
    if plot is not None:
        from rich.console import Console

        Console().print(f"plot written to {plot}", markup=False, highlight=False)
