"""Reading Army Forge's "Share as Text" export into :class:`~oprlab.units.model.Army` values.

The public entry points live in :mod:`oprlab.units.text`; this module holds the reader. It may
import ``oprlab.errors`` and ``oprlab.units.model`` only, and does no I/O: callers hand it text.

Readings of the format (Army Forge documents none of this; these are the choices we made):

* ``{k}x Name [5] ... | 90pts``: the line describes one unit, so the points (like the weapon
  counts on the next line) are per unit; ``Army.units`` gets ``k`` copies costing 90 each.
* Unit ids are generated, in file order: ``slug(name)-n`` where ``n`` counts the units with that
  slug so far (``grunt-squad-1``, ``grunt-squad-2``), so the same text always gives the same ids.
* ``| Joined to:`` attaches the unit block just read to the next unit block; when that block is
  ``{k}x``, the hero joins its first copy. A joined block may itself be followed by
  ``| Joined to:`` (a chain); a ``{k}x`` block with ``k > 1`` cannot join anything.
* In the header, the list name ends at the *last* ``" - "``; the rest is the comma-separated
  books, kept as written (``"Ghost Legion (v3.5.3)"``). The ``[{n} Units]`` count is ignored.
* ``AP(+1)`` is read as rating 1.
* Model counts, qualities, defenses, points and attacks are read as any whole number (``[0]``,
  ``Q7+``, ``-5pts``, ``A0``): judging them is :func:`~oprlab.units.validate.validate_army`'s
  job, the same for text and JSON lists.
* Names may not start with a count (``3x ...``) and rule names may not be bare numbers or
  contain ``|``: either would read back as something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from oprlab.display import printable
from oprlab.errors import ParseError
from oprlab.limits import MAX_LINE_CHARS, MAX_READ_UNITS, check_limit
from oprlab.units.model import Army, Rule, Unit, Weapon

UNIT_SHAPE = "a unit line like '[2x ]Name [5] Q4+ D4+ | 100pts | Rule, Rule(2)'"
WEAPON_SHAPE = "weapons like '2x Rifle (24\", A1, AP(1)), Claws (A3)'"
HEADER_SHAPE = "a header like '++ List Name - Book (v1.0) [GF 1000pts] ++'"
JOIN_LINE = "| Joined to:"

MAX_DEPTH = 8
"""Deepest bracket nesting accepted; real lists use two levels (``Item(Caster(3))``)."""

_MAX_DIGITS = 18  # int64; larger values are refused by the limits anyway
_LEADING_COUNT = re.compile(r"-?[0-9]+x(?:\s|$)")
_COUNT = re.compile(r"(-?[0-9]+)x\s+")
_SIGNED = re.compile(r"[+-]?[0-9]+")
_RANGE = re.compile(r"(-?[0-9]+)\s*[\"”″]")
_ATTACKS = re.compile(r"A(-?[0-9]+)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_UNIT = re.compile(
    r"(?:(?P<k>-?[0-9]+)x\s+)?(?P<name>.+?)\s*\[\s*(?P<size>-?[0-9]+)\s*\]\s*"
    r"Q(?P<q>[0-9]+)\+\s*D(?P<d>[0-9]+)\+\s*\|\s*(?P<pts>-?[0-9]+)\s*(?i:pts)\s*(?:\|(?P<rules>.*))?"
)
_POINTS_PART = re.compile(r"\|\s*-?[0-9]+\s*pts", re.IGNORECASE)
_HEADER_TAIL = re.compile(
    r"(?P<title>.*?)\s*\[\s*(?P<gs>[A-Za-z][A-Za-z0-9]*)\s+(?P<pts>-?[0-9]+)\s*pts\s*\]"
    r"\s*(?:\[\s*[0-9]+\s*units?\s*\])?",
    re.IGNORECASE,
)
_JOIN = re.compile(r"\|\s*joined\s+to\s*:", re.IGNORECASE)


def _where(source: str, line: int) -> str:
    return f"{source}:{line}"


def slug(name: str) -> str:
    """The id stem of a unit name: lower case ASCII letters and digits joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def _int(text: str, what: str, where: str) -> int:
    """``int(text)`` with a clear error instead of Python's limit on huge digit strings."""
    if len(text.lstrip("+-")) > _MAX_DIGITS:
        raise ParseError(
            f"{what} is too large",
            value=text,
            expected=f"at most {_MAX_DIGITS} digits",
            where=where,
        )
    return int(text)


def split_top(text: str, where: str) -> list[str]:
    """Split at commas outside brackets; commas inside ``(...)`` belong to the inner list."""
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > MAX_DEPTH:
                raise ParseError(
                    "brackets nested too deeply",
                    value=text,
                    expected=f"at most {MAX_DEPTH} levels of '('",
                    where=where,
                )
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ParseError(
                    "unbalanced brackets: ')' without an opening '('",
                    value=text,
                    expected="every ')' to close an earlier '('",
                    where=where,
                )
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if depth:
        raise ParseError(
            "unbalanced brackets: '(' never closed",
            value=text,
            expected="a ')' for every '('",
            where=where,
        )
    parts.append(text[start:].strip())
    return parts


def _bracket(item: str, what: str, where: str) -> tuple[str, str | None]:
    """Split ``Name(inner)`` into ``("Name", "inner")``; ``("Name", None)`` without brackets.

    ``item`` is already balanced (it came from :func:`split_top`); the bracket that opens first
    must close at the very end, so ``Rifle (A1) x`` is refused.
    """
    open_at = item.find("(")
    if open_at < 0:
        if ")" in item:
            raise ParseError(
                "unbalanced brackets: ')' without an opening '('",
                value=item,
                expected="every ')' to close an earlier '('",
                where=where,
            )
        return item, None
    depth = 0
    for i in range(open_at, len(item)):
        if item[i] == "(":
            depth += 1
        elif item[i] == ")":
            depth -= 1
            if depth == 0:
                if i != len(item) - 1:
                    raise ParseError(
                        f"text after the closing ')' of a {what}",
                        value=item,
                        expected=f"the {what}'s brackets to end it, then ',' or the end of line",
                        where=where,
                    )
                break
    else:
        raise ParseError(
            "unbalanced brackets: '(' never closed",
            value=item,
            expected="a ')' for every '('",
            where=where,
        )
    return item[:open_at], item[open_at + 1 : -1].strip()


def _take_count(item: str, what: str, where: str) -> tuple[int | None, str]:
    """Strip a leading ``{n}x `` count; refuse counts below 1."""
    m = _COUNT.match(item)
    if m is None:
        return None, item
    count = _int(m.group(1), f"{what} count", where)
    if count < 1:
        raise ParseError(
            f"a {what} count must be at least 1",
            value=item,
            expected=f"a count like '2x ' before the {what}",
            where=where,
        )
    return count, item[m.end() :]


def check_name(name: str, what: str, where: str, *, forbidden: str = "") -> str:
    """Refuse names that would read back as something else (a count, a rating, a separator)."""
    if not name:
        raise ParseError(
            f"a {what} has no name", value=name, expected=f"a {what} name", where=where
        )
    if _LEADING_COUNT.match(name):
        raise ParseError(
            f"a {what} name cannot start with a count",
            value=name,
            expected=f"one count at most, then the {what} name ('2x Name')",
            where=where,
        )
    bad = sorted({ch for ch in name if ch in forbidden or ch in "\r\n"})
    if bad:
        raise ParseError(
            f"a {what} name cannot contain {''.join(bad)!r}",
            value=name,
            expected=f"a {what} name without {forbidden!r}",
            where=where,
        )
    if what == "rule" and _SIGNED.fullmatch(name):
        raise ParseError(
            "a rule name cannot be a number",
            value=name,
            expected="a rule name like 'Tough' (a number in brackets is a rating: 'Tough(3)')",
            where=where,
        )
    return printable(name)


def parse_rule(item: str, where: str) -> Rule:
    """One rule: ``[{n}x ]Name[(rating or inner rules)]``."""
    if not item:
        raise ParseError(
            "empty rule between commas",
            value=item,
            expected="a rule name between each pair of commas",
            where=where,
        )
    count, rest = _take_count(item, "rule", where)
    head, inner = _bracket(rest, "rule", where)
    name = check_name(head.strip(), "rule", where, forbidden="|")
    if inner is None:
        return Rule(name, count=count)
    if not inner:
        raise ParseError(
            "empty brackets after a rule",
            value=item,
            expected="a rating like 'Tough(3)' or rules like 'Banner(Fearless)'",
            where=where,
        )
    if _SIGNED.fullmatch(inner):
        return Rule(name, rating=_int(inner, "rating", where), count=count)
    return Rule(name, count=count, rules=parse_rules(inner, where))


def parse_rules(text: str, where: str) -> tuple[Rule, ...]:
    """A comma-separated rule list; empty text is no rules."""
    text = text.strip()
    if not text:
        return ()
    return tuple(parse_rule(part, where) for part in split_top(text, where))


def parse_weapon(item: str, where: str) -> Weapon:
    """One weapon: ``[{n}x ]Name ([{range}", ]A{attacks}[, rule…])``."""
    if not item:
        raise ParseError(
            "empty weapon between commas",
            value=item,
            expected="a weapon between each pair of commas",
            where=where,
        )
    count, rest = _take_count(item, "weapon", where)
    head, inner = _bracket(rest, "weapon", where)
    if inner is None:
        raise ParseError(
            "a weapon needs its profile in brackets",
            value=item,
            expected=WEAPON_SHAPE,
            where=where,
        )
    name = check_name(head.strip(), "weapon", where)
    parts = split_top(inner, where)
    range_: int | None = None
    m = _RANGE.fullmatch(parts[0])
    if m:
        range_ = _int(m.group(1), "range", where)
        if range_ < 0:
            raise ParseError(
                "a weapon range cannot be negative",
                value=item,
                expected='a range like 24" (melee weapons give none)',
                where=where,
            )
        parts = parts[1:]
    a = _ATTACKS.fullmatch(parts[0]) if parts else None
    if a is None:
        raise ParseError(
            "a weapon needs its attacks",
            value=item,
            expected="'A{attacks}' first in the brackets, after the range if any: (24\", A2)",
            where=where,
        )
    attacks = _int(a.group(1), "attacks", where)
    rules = tuple(parse_rule(part, where) for part in parts[1:])
    return Weapon(name, attacks, range_, 1 if count is None else count, rules)


def parse_weapons(text: str, where: str) -> tuple[Weapon, ...]:
    """A weapon line: weapons separated by commas outside brackets."""
    return tuple(parse_weapon(part, where) for part in split_top(text, where))


@dataclass(frozen=True, slots=True)
class _Block:
    """One unit block: the unit line, its weapons, and whether ``| Joined to:`` follows."""

    line: int
    copies: int
    name: str
    size: int
    quality: int
    defense: int
    cost: int
    rules: tuple[Rule, ...]
    weapons: tuple[Weapon, ...] = ()
    joins_next: bool = False


def _unit_problem(text: str) -> tuple[str, str]:
    """Say what is missing from a line that should be a unit line."""
    if re.match(r"(-[0-9]+|0+)x\s", text):
        return "a unit count must be at least 1", "a count like '2x ' before the unit name"
    if not _POINTS_PART.search(text):
        return "no points on the unit line", UNIT_SHAPE + " with '| {points}pts'"
    if not re.search(r"\[\s*-?[0-9]+\s*\]", text):
        return "no model count on the unit line", "the models in brackets after the name: '[5]'"
    if not re.search(r"Q[0-9]+\+", text):
        return "no quality on the unit line", "the quality after the models: 'Q4+'"
    if not re.search(r"D[0-9]+\+", text):
        return "no defense on the unit line", "the defense after the quality: 'D4+'"
    return "not a unit line", UNIT_SHAPE


def parse_unit_line(text: str, line: int, where: str) -> _Block:
    """``[{k}x ]Name [models] Q{q}+ D{d}+ | {points}pts[ | rules]``."""
    m = _UNIT.fullmatch(text)
    if m is None:
        message, expected = _unit_problem(text)
        raise ParseError(message, value=text, expected=expected, where=where)
    copies = 1
    if m["k"] is not None:
        copies = _int(m["k"], "unit count", where)
        if copies < 1:
            raise ParseError(
                "a unit count must be at least 1",
                value=text,
                expected="a count like '2x ' before the unit name",
                where=where,
            )
    name = check_name(m["name"], "unit", where, forbidden="|")
    size = _int(m["size"], "model count", where)
    cost = _int(m["pts"], "points", where)
    rules = parse_rules(m["rules"] or "", where)
    return _Block(
        line,
        copies,
        name,
        size,
        _int(m["q"], "quality", where),
        _int(m["d"], "defense", where),
        cost,
        rules,
    )


def _lines(text: str, source: str) -> list[tuple[int, str]]:
    """Numbered, stripped lines; a UTF-8 BOM and any line-ending style are accepted. Lines
    over :data:`~oprlab.limits.MAX_LINE_CHARS` are refused (no list has them)."""
    text = text.removeprefix("\ufeff")
    lines = [(i, line.strip()) for i, line in enumerate(_LINE_BREAK.split(text), start=1)]
    for i, line in lines:
        check_limit("characters on one line", len(line), MAX_LINE_CHARS, where=_where(source, i))
    return lines


def _parse_body(lines: list[tuple[int, str]], source: str) -> list[_Block]:
    """Unit blocks: a unit line, an optional weapon line, an optional ``| Joined to:``."""
    blocks: list[_Block] = []
    state = "unit"  # what may come next: "unit", "weapons" (or a unit), "end" (of a block)
    join_line: tuple[int, str] | None = None
    for no, line in lines:
        where = _where(source, no)
        if not line:
            state = "unit"
            continue
        if _JOIN.match(line):
            blocks[-1] = _join(blocks, join_line, line, where)
            join_line = (no, line)
            state = "unit"
            continue
        if line.startswith("++"):
            raise ParseError(
                "a list header inside the list",
                value=line,
                expected="one list per text, its header on the first line",
                where=where,
            )
        if state == "weapons" and "|" not in line:
            weapons = parse_weapons(line, where)
            blocks[-1] = replace(blocks[-1], weapons=weapons)
            state = "end"
            continue
        if state == "end" and "|" not in line:
            raise ParseError(
                "a second weapon line",
                value=line,
                expected=f"a blank line, '{JOIN_LINE}' or the next unit line after the weapons",
                where=where,
            )
        blocks.append(parse_unit_line(line, no, where))
        join_line = None
        state = "weapons"
    if join_line is not None:
        no, line = join_line
        raise ParseError(
            f"'{JOIN_LINE}' with no unit after it",
            value=line,
            expected="the joined unit's line after it",
            where=_where(source, no),
        )
    return blocks


def _join(blocks: list[_Block], pending: tuple[int, str] | None, line: str, where: str) -> _Block:
    """The last block, marked as joining the next one; refuse joins that cannot be."""
    if _JOIN.fullmatch(line) is None:
        raise ParseError(
            f"'{JOIN_LINE}' must stand alone on its line",
            value=line,
            expected=f"'{JOIN_LINE}' on its own line, the joined unit on the next",
            where=where,
        )
    if not blocks or pending is not None:
        raise ParseError(
            f"'{JOIN_LINE}' does not follow a unit",
            value=line,
            expected=f"a hero's unit and weapon lines, then '{JOIN_LINE}', then a unit",
            where=where,
        )
    last = blocks[-1]
    if last.joins_next:
        raise ParseError(
            "this unit already joins another unit",
            value=line,
            expected=f"one '{JOIN_LINE}' per unit",
            where=where,
        )
    if last.copies > 1:
        raise ParseError(
            f"'{JOIN_LINE}' after {last.copies} copies of {last.name!r}",
            value=line,
            expected=f"a single unit (no '{last.copies}x') before '{JOIN_LINE}'",
            where=where,
        )
    return replace(last, joins_next=True)


def _units(blocks: list[_Block], source: str) -> tuple[Unit, ...]:
    """Expand ``{k}x`` blocks into units with generated ids, and resolve joins to ids."""
    total = sum(b.copies for b in blocks)
    check_limit("units in the list", total, MAX_READ_UNITS, where=source)
    seen: dict[str, int] = {}
    uids: list[list[str]] = []
    for block in blocks:
        stem = slug(block.name)
        ids = []
        for _ in range(block.copies):
            seen[stem] = seen.get(stem, 0) + 1
            ids.append(f"{stem}-{seen[stem]}")
        uids.append(ids)
    units: list[Unit] = []
    for b, block in enumerate(blocks):
        joined_to = uids[b + 1][0] if block.joins_next else None
        for uid in uids[b]:
            units.append(
                Unit(
                    name=block.name,
                    size=block.size,
                    quality=block.quality,
                    defense=block.defense,
                    cost=block.cost,
                    rules=block.rules,
                    weapons=block.weapons,
                    joined_to=joined_to,
                    uid=uid,
                )
            )
    return tuple(units)


def _parse_header(line: str, where: str) -> tuple[str, tuple[str, ...], str, int]:
    """``++ {name}[ - {book}[, {book}…]] [{GS} {points}pts][ [{n} Units]] ++``."""
    if not line.startswith("++"):
        raise ParseError("no list header", value=line, expected=HEADER_SHAPE, where=where)
    if len(line) < 4 or not line.endswith("++"):
        raise ParseError(
            "the list header does not end with '++'", value=line, expected=HEADER_SHAPE, where=where
        )
    body = line[2:-2].strip()
    m = _HEADER_TAIL.fullmatch(body)
    if m is None:
        raise ParseError(
            "the list header has no points",
            value=line,
            expected="the game system and points before the closing '++': '[GF 1000pts]'",
            where=where,
        )
    points = _int(m["pts"], "points", where)
    if points < 0:
        raise ParseError(
            "the list points cannot be negative", value=line, expected=HEADER_SHAPE, where=where
        )
    title = printable(m["title"])
    name, books = title, ""
    cut = title.rfind(" - ")
    if cut >= 0:
        name, books = title[:cut].strip(), title[cut + 3 :]
    if not name:
        raise ParseError(
            "the list header has no list name", value=line, expected=HEADER_SHAPE, where=where
        )
    book_names: tuple[str, ...] = ()
    if cut >= 0:
        book_names = tuple(b.strip() for b in books.split(","))
        if not all(book_names):
            raise ParseError(
                "an empty army book name in the list header",
                value=line,
                expected="books separated by ', ' after ' - ': 'Book A (v1.0), Book B (v2.1)'",
                where=where,
            )
    return name, book_names, m["gs"], points


def parse_army_text(text: str, source: str = "<text>") -> Army:
    """Read a whole "Share as Text" list: header line, then unit blocks.

    Raises:
        ParseError: on the first problem, naming ``source:line``, the bad text and the shape
            that was expected.
    """
    lines = _lines(text, source)
    first = next(((no, line) for no, line in lines if line), None)
    if first is None:
        raise ParseError(
            "the text is empty", value=text, expected=HEADER_SHAPE, where=_where(source, 1)
        )
    no, line = first
    name, books, system, points = _parse_header(line, _where(source, no))
    body = [(n, ln) for n, ln in lines if n > no]
    blocks = _parse_body(body, source)
    return Army(name=name, system=system, points=points, units=_units(blocks, source), books=books)


def parse_unit_text(text: str, source: str = "<text>") -> tuple[Unit, ...]:
    """Read one unit block (no header): ``k`` units for ``{k}x``, or a hero and its unit.

    Raises:
        ParseError: on the first problem, or when the text holds more than one unit block
            (other than a hero and the unit it joins).
    """
    lines = _lines(text, source)
    blocks = _parse_body(lines, source)
    if not blocks:
        raise ParseError(
            "no unit in the text", value=text, expected=UNIT_SHAPE, where=_where(source, 1)
        )
    allowed = 2 if blocks[0].joins_next else 1
    if len(blocks) > allowed:
        extra = blocks[allowed]
        raise ParseError(
            "more than one unit",
            value=extra.name,
            expected=f"a single unit, or a hero, '{JOIN_LINE}' and the unit it joins",
            where=_where(source, extra.line),
        )
    return _units(blocks, source)
