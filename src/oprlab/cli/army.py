"""``oprlab army show|validate|generate``: read an Army Forge list and show or check it, or
draw random legal lists from a unit pool.

An edge module: it may import every layer. Files that cannot be read raise an oprlab
:class:`~oprlab.errors.UserError`, which the CLI root prints as one line with exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from oprlab.errors import OptionError
from oprlab.files import check_output, read_text, write_atomic
from oprlab.units.load import load_army
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.special_rules import unknown_rules
from oprlab.units.validate import validate_army

army_app = typer.Typer(
    name="army",
    help="Read Army Forge lists (text or JSON): show them, check them; generate random lists.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

_FILE = typer.Argument(..., help="An Army Forge list: 'Share as Text' or JSON export.")
_JSON = typer.Option(False, "--json", help="Print JSON instead of a table.")


def register(app: typer.Typer) -> None:
    """Add the ``army`` sub-app to the root app."""
    app.add_typer(army_app, name="army")


def _unknown_names(army: Army) -> set[str]:
    return {u.rule.name.casefold() for u in unknown_rules(army)}


def _mentions(rules: tuple[Rule, ...], unknown: set[str]) -> bool:
    return any(r.name.casefold() in unknown or _mentions(r.rules, unknown) for r in rules)


def _rule_text(rule: Rule, unknown: set[str]) -> Text:
    """One rule as Army Forge writes it, red where the rules reference does not know it."""
    if rule.name.casefold() in unknown:
        return Text(rule.label, style="bold red")
    if rule.rules and _mentions(rule.rules, unknown):
        head = f"{rule.count}x " if rule.count is not None else ""
        text = Text(f"{head}{rule.name}(")
        text.append(Text(", ").join(_rule_text(r, unknown) for r in rule.rules))
        text.append(")")
        return text
    return Text(rule.label)


def _rules_text(rules: tuple[Rule, ...], unknown: set[str]) -> Text:
    return Text(", ").join(_rule_text(r, unknown) for r in rules)


def _weapon_text(weapon: Weapon, unknown: set[str]) -> Text:
    """``2x Rifle (24", A1, AP(1))``, with unknown weapon rules in red."""
    text = Text(f"{weapon.count}x " if weapon.count != 1 else "")
    text.append(f"{weapon.name} (")
    parts = [Text(f'{weapon.range}"')] if weapon.range is not None else []
    parts.append(Text(f"A{weapon.attacks}"))
    parts.extend(_rule_text(r, unknown) for r in weapon.rules)
    text.append(Text(", ").join(parts))
    text.append(")")
    return text


def _host(army: Army, hero: Unit) -> Unit | None:
    """The unit a joined hero joins: by uid, else by name (how some text lists name it)."""
    if hero.joined_to is None:
        return None
    others = [u for u in army.units if u is not hero]
    by_uid = [u for u in others if u.uid and u.uid == hero.joined_to]
    by_name = [u for u in others if u.name == hero.joined_to]
    found = by_uid or by_name
    return found[0] if found else None


def _display_order(army: Army) -> list[tuple[Unit, Unit | None]]:
    """Units in list order, each joined hero right after the unit it joins; every unit once,
    even when joins form a loop (the validator reports that)."""
    hosts = {id(u): _host(army, u) for u in army.units}
    rows: list[tuple[Unit, Unit | None]] = []
    shown: set[int] = set()

    def add(unit: Unit, host: Unit | None) -> None:
        if id(unit) in shown:
            return
        shown.add(id(unit))
        rows.append((unit, host))
        for other in army.units:
            if hosts[id(other)] is unit:
                add(other, unit)

    for unit in army.units:
        if hosts[id(unit)] is None:
            add(unit, None)
    for unit in army.units:  # joins in a loop: no unit of it stands alone
        add(unit, hosts[id(unit)])
    return rows


def _header(army: Army) -> Text:
    text = Text(army.name or "(unnamed list)", style="bold")
    text.append(f"  {army.system or '?'}  ")
    spent = army.cost
    if army.points > 0:
        over = spent > army.points
        text.append(f"{spent}/{army.points}pts", style="bold red" if over else "")
    else:
        text.append(f"{spent}pts (no limit)")
    text.append(f"  {len(army.units)} units  {sum(u.size for u in army.units)} models")
    if army.books:
        text.append("\nbooks: " + ", ".join(army.books), style="dim")
    return text


def army_table(army: Army) -> Table:
    """The list as a table a player recognises; unknown rules in red."""
    unknown = _unknown_names(army)
    table = Table(
        box=box.SIMPLE_HEAVY,
        show_lines=True,
        show_edge=False,
        title=_header(army),
        title_justify="left",
    )
    table.add_column("Unit", style="bold", overflow="fold")
    table.add_column("Size", justify="right")
    table.add_column("Q", justify="right")
    table.add_column("D", justify="right")
    table.add_column("Cost", justify="right")
    table.add_column("Rules", overflow="fold")
    table.add_column("Weapons", overflow="fold")
    for unit, host in _display_order(army):
        name = Text(unit.name)
        if host is not None:
            name = Text("+ ") + name + Text("\n  joined hero", style="dim italic")
        elif unit.joined_to is not None:
            name += Text(f"\n  joins {unit.joined_to} (not in list)", style="red")
        if unit.combined:
            name += Text(" (combined)", style="dim")
        table.add_row(
            name,
            f"[{unit.size}]",
            f"{unit.quality}+",
            f"{unit.defense}+",
            f"{unit.cost}",
            _rules_text(unit.rules, unknown),
            Text("\n").join(_weapon_text(w, unknown) for w in unit.weapons),
        )
    return table


def _rules_json(rules: tuple[Rule, ...]) -> list[dict[str, Any]]:
    return [{"name": r.name, "rating": r.rating} for r in rules]


def army_json(army: Army) -> dict[str, Any]:
    """The list as plain JSON data (the shape ``oprlab army show --json`` prints)."""
    units = []
    for unit in army.units:
        host = _host(army, unit)
        units.append(
            {
                "name": unit.name,
                "size": unit.size,
                "quality": unit.quality,
                "defense": unit.defense,
                "cost": unit.cost,
                "rules": _rules_json(unit.rules),
                "weapons": [
                    {
                        "name": w.name,
                        "range": w.range,
                        "attacks": w.attacks,
                        "count": w.count,
                        "rules": _rules_json(w.rules),
                    }
                    for w in unit.weapons
                ],
                "joined_to": host.name if host is not None else unit.joined_to,
            }
        )
    return {
        "name": army.name,
        "system": army.system,
        "points": army.points,
        "units": units,
        "unknown_rules": [{"where": u.where, "rule": u.rule.label} for u in unknown_rules(army)],
    }


@army_app.command("show")
def show(file: Path = _FILE, as_json: bool = _JSON) -> None:
    """Show a list: its header and one row per unit, unknown rules in red."""
    army = load_army(file)
    if as_json:
        typer.echo(json.dumps(army_json(army), indent=2))
        return
    console = Console(highlight=False)
    console.print(army_table(army))
    console.soft_wrap = True
    unknown = unknown_rules(army)
    if unknown:
        console.print(Text(f"{len(unknown)} unknown rule(s):", style="bold red"))
        for u in unknown:
            console.print(Text(f"  {u.where}: ") + Text(u.rule.label, style="red"))


@army_app.command("validate")
def validate(
    file: Path = _FILE,
    as_json: bool = _JSON,
    no_force_org: bool = typer.Option(
        False, "--no-force-org", help="Skip the optional GFF force organisation checks."
    ),
) -> None:
    """Check a list; print every problem. Exit code 1 if there is any, 0 if none."""
    army = load_army(file)
    problems = validate_army(army, force_org=not no_force_org)
    if as_json:
        rows = [{"where": p.where, "message": p.message, "level": p.level} for p in problems]
        typer.echo(json.dumps({"problems": rows}, indent=2))
    elif problems:
        console = Console(highlight=False, soft_wrap=True)
        for p in problems:
            line = Text(f"{p.where}: ", style="bold") + Text(p.message)
            if p.level == "warning":
                line += Text(" (warning)", style="yellow")
            console.print(line)
        warnings = sum(p.level == "warning" for p in problems)
        console.print(
            Text(
                f"{len(problems)} problem(s) in {file} "
                f"({len(problems) - warnings} error(s), {warnings} warning(s))",
                style="bold red",
            )
        )
    else:
        Console(highlight=False, soft_wrap=True).print(
            Text(f"ok: {army.name} ({army.system} {army.cost}/{army.points}pts), no problems")
        )
    if problems:
        raise typer.Exit(code=1)


#: Lists one ``army generate`` writes (each a file): a fit needs thousands, not millions.
MAX_GENERATED = 10_000


@army_app.command("generate")
def generate(
    pool: Path = typer.Argument(..., help="A unit pool (TOML; docs/experiments.md)."),
    points: int = typer.Option(..., help="The points limit of every list."),
    seed: int = typer.Option(0, help="The seed: one seed and count give the same lists."),
    count: int = typer.Option(1, help=f"How many lists, 1 to {MAX_GENERATED:,}."),
    out: Path | None = typer.Option(
        None, help="Write each list to a file in this folder (made if missing); else print."
    ),
) -> None:
    """Random legal lists at a points limit from a pool, in Army Forge text (seeded)."""
    import numpy as np

    from oprlab.rng import child_seed
    from oprlab.units.generate import generate_army, parse_pool
    from oprlab.units.text import format_army_text

    if not 1 <= count <= MAX_GENERATED:
        raise OptionError(
            "out of range", value=count, expected=f"1 to {MAX_GENERATED:,}", where="--count"
        )
    if not 0 <= seed < 2**63:
        raise OptionError("out of range", value=seed, expected="0 to 2**63-1", where="--seed")
    text = read_text(pool, "pool file", "a TOML unit pool (docs/experiments.md)")
    parsed = parse_pool(text, str(pool))
    paths: list[Path] = []
    if out is not None:
        if out.exists() and not out.is_dir():
            raise OptionError("not a folder", value=str(out), expected="a folder", where="--out")
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / f"{pool.stem}-{points}-{seed}-{k + 1}.txt" for k in range(count)]
        for p in paths:
            check_output(p, "--out")
    lists = []
    for k in range(count):
        rng = np.random.default_rng(child_seed(seed, k))
        name = f"{parsed.name} {points}pts seed {seed} list {k + 1}"
        lists.append(format_army_text(generate_army(parsed, points, rng, name)))
    if out is None:
        typer.echo("\n".join(lists), nl=False)
        return
    for p, body in zip(paths, lists, strict=True):
        write_atomic(p, body, "--out")
    Console(stderr=True, highlight=False).print(f"{count} list(s) written to {out}")
