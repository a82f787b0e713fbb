"""Writing armies back as Army Forge's "Share as Text" export.

The public entry points live in :mod:`oprlab.units.text`. The writer is the reader's inverse:
``parse_army_text(format_army_text(army)) == army`` for every army the reader can produce. So it
writes consecutive units that are equal but for their ``uid`` as one ``{k}x`` line, puts each
joined hero right before the unit it joins (followed by ``| Joined to:``), and refuses values that
would read back as something else (a name with a leading ``3x``, a rule with both a rating and
inner rules, ...) with a :class:`~oprlab.errors.UserError` naming the field. What the text format
cannot carry (``bases``, ``combined``, the ``uid`` values themselves) is left out. May import
``oprlab.errors`` and ``oprlab.units``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from oprlab.errors import ParseError, UserError
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.text_parse import JOIN_LINE, check_name

_SYSTEM = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def _name(name: str, what: str, where: str, forbidden: str = "") -> str:
    """``name`` if the reader would give it back unchanged, else a :class:`UserError`."""
    if name != name.strip():
        raise UserError(
            f"a {what} name cannot start or end with spaces",
            value=name,
            expected=f"the {what} name without surrounding spaces",
            where=where,
        )
    try:
        return check_name(name, what, where, forbidden=forbidden)
    except ParseError as err:
        raise UserError(err.message, value=err.value, expected=err.expected, where=where) from None


def _at_least(value: int, low: int, what: str, where: str) -> int:
    if value < low:
        raise UserError(
            f"{what} must be at least {low}", value=value, expected=f"{low} or more", where=where
        )
    return value


def format_rule(rule: Rule, where: str) -> str:
    """``[{n}x ]Name[(rating)|(inner, rules)]``, the way Army Forge writes it."""
    text = _name(rule.name, "rule", f"{where}.name", forbidden="|(),")
    if rule.rating is not None and rule.rules:
        raise UserError(
            "a rule cannot show both a rating and inner rules",
            value=rule,
            expected="either a rating ('Tough(3)') or inner rules ('Banner(Fearless)')",
            where=where,
        )
    if rule.rating is not None:
        text += f"({rule.rating})"
    elif rule.rules:
        inner = (format_rule(r, f"{where}.rules[{i}]") for i, r in enumerate(rule.rules))
        text += "(" + ", ".join(inner) + ")"
    if rule.count is not None:
        text = f"{_at_least(rule.count, 1, 'a rule count', f'{where}.count')}x {text}"
    return text


def format_weapon(weapon: Weapon, where: str) -> str:
    """``[{n}x ]Name ([{range}", ]A{attacks}[, rule…])``; the count is left out when 1."""
    name = _name(weapon.name, "weapon", f"{where}.name", forbidden="(),")
    parts = []
    if weapon.range is not None:
        parts.append(f'{_at_least(weapon.range, 0, "a weapon range", f"{where}.range")}"')
    parts.append(f"A{_at_least(weapon.attacks, 0, 'an attack count', f'{where}.attacks')}")
    parts += [format_rule(r, f"{where}.rules[{i}]") for i, r in enumerate(weapon.rules)]
    count = _at_least(weapon.count, 1, "a weapon count", f"{where}.count")
    text = f"{name} ({', '.join(parts)})"
    return f"{count}x {text}" if count != 1 else text


def _unit_lines(unit: Unit, copies: int, where: str) -> list[str]:
    """The unit line and, when the unit has weapons, the weapon line."""
    name = _name(unit.name, "unit", f"{where}.name", forbidden="|")
    size = _at_least(unit.size, 1, "a unit's models", f"{where}.size")
    quality = _at_least(unit.quality, 0, "quality", f"{where}.quality")
    defense = _at_least(unit.defense, 0, "defense", f"{where}.defense")
    cost = _at_least(unit.cost, 0, "points", f"{where}.cost")
    prefix = f"{copies}x " if copies > 1 else ""
    line = f"{prefix}{name} [{size}] Q{quality}+ D{defense}+ | {cost}pts"
    rules = ", ".join(format_rule(r, f"{where}.rules[{i}]") for i, r in enumerate(unit.rules))
    if rules:
        line += f" | {rules}"
    lines = [line]
    if unit.weapons:
        weapons = (format_weapon(w, f"{where}.weapons[{i}]") for i, w in enumerate(unit.weapons))
        lines.append(", ".join(weapons))
    return lines


def format_unit_text(unit: Unit) -> str:
    """One unit as its unit line and weapon line (no trailing newline); ``joined_to`` is not
    shown, since the unit it joins is not part of the text."""
    return "\n".join(_unit_lines(unit, 1, "unit"))


def _emission_order(units: tuple[Unit, ...]) -> list[int]:
    """Unit indices in writing order: every joined unit right before the unit it joins.

    Units keep their order otherwise, so an army the reader produced comes out unchanged.
    """
    where_uid: dict[str, list[int]] = {}
    for i, u in enumerate(units):
        where_uid.setdefault(u.uid, []).append(i)
    joiner_of: dict[int, int] = {}
    for i, u in enumerate(units):
        if u.joined_to is None:
            continue
        targets = where_uid.get(u.joined_to, [])
        if len(targets) != 1:
            raise UserError(
                "a unit joins a unit id that is not in the army"
                if not targets
                else "a unit joins a unit id that several units share",
                value=u.joined_to,
                expected="the uid of exactly one unit of the army",
                where=f"units[{i}].joined_to",
            )
        target = targets[0]
        if target == i:
            raise UserError(
                "a unit cannot join itself",
                value=u.joined_to,
                expected="the uid of another unit",
                where=f"units[{i}].joined_to",
            )
        if target in joiner_of:
            raise UserError(
                "two units join the same unit; Army Forge text shows one",
                value=u.joined_to,
                expected="at most one unit joined to each unit",
                where=f"units[{i}].joined_to",
            )
        joiner_of[target] = i
    order: list[int] = []
    for i, u in enumerate(units):
        if u.joined_to is not None:
            continue  # written with the unit it joins
        chain = [i]
        while chain[-1] in joiner_of:
            chain.append(joiner_of[chain[-1]])
        order.extend(reversed(chain))
    if len(order) != len(units):
        loop = min(set(range(len(units))) - set(order))
        raise UserError(
            "units join each other in a loop",
            value=units[loop].joined_to,
            expected="joins that end at a unit that joins nothing",
            where=f"units[{loop}].joined_to",
        )
    return order


def _header(army: Army) -> str:
    name = army.name
    if not name or name != name.strip() or "\n" in name or "\r" in name:
        raise UserError(
            "the list name must be one line, not empty, without surrounding spaces",
            value=name,
            expected="a list name like 'My List'",
            where="name",
        )
    title = name
    if army.books:
        for i, book in enumerate(army.books):
            bad = (
                not book
                or book != book.strip()
                or any(s in book for s in (",", " - ", "\n", "\r"))
                or book.startswith("- ")
            )
            if bad:
                raise UserError(
                    "an army book name that would not read back",
                    value=book,
                    expected="a one-line book name without ',' or ' - ', like 'Book (v1.0)'",
                    where=f"books[{i}]",
                )
        title += " - " + ", ".join(army.books)
    elif " - " in name:
        raise UserError(
            "a list name with ' - ' needs at least one army book after it",
            value=name,
            expected="a list name without ' - ', or some books",
            where="name",
        )
    if not _SYSTEM.fullmatch(army.system):
        raise UserError(
            "the game system must be a short code",
            value=army.system,
            expected="letters and digits like 'GF', 'GFF', 'AOF'",
            where="system",
        )
    points = _at_least(army.points, 0, "the list points", "points")
    return f"++ {title} [{army.system} {points}pts] ++"


def format_army_text(army: Army) -> str:
    """The whole list: header, a blank line, then unit blocks separated by blank lines."""
    units = army.units
    order = _emission_order(units)
    paragraphs: list[list[str]] = [[_header(army)]]
    current: list[str] = []
    i = 0
    while i < len(order):
        head = units[order[i]]
        copies = 1
        if head.joined_to is None:
            key = replace(head, uid="")
            while i + copies < len(order) and replace(units[order[i + copies]], uid="") == key:
                copies += 1
        current += _unit_lines(head, copies, f"units[{order[i]}]")
        if head.joined_to is not None:
            current.append(JOIN_LINE)
        else:
            paragraphs.append(current)
            current = []
        i += copies
    return "\n\n".join("\n".join(p) for p in paragraphs) + "\n"
