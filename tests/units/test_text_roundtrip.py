"""Army Forge "Share as Text": write then read gives the same army; garbage gives ParseError only.

Random armies are built independently of the reader: unit ids follow the documented scheme
(``slug(name)-n`` counted per slug in list order, computed here from scratch), ``{k}x`` copies are
consecutive equal units, and a joined hero stands right before the unit it joins.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oprlab.errors import ParseError
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.text import format_army_text, format_unit_text, parse_army_text, parse_unit_text

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_WORD = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-'!+", min_size=1, max_size=8
)
_COUNTISH = re.compile(r"-?[0-9]+x(\s|$)")
_NUMBER = re.compile(r"[+-]?[0-9]+")


def _ok_name(name: str) -> bool:
    """Names the format can carry: no leading count ('3x ...') and not a bare number."""
    return not _COUNTISH.match(name) and not _NUMBER.fullmatch(name)


NAMES = st.lists(_WORD, min_size=1, max_size=3).map(" ".join).filter(_ok_name)
COUNTS = st.none() | st.integers(1, 12)
RATINGS = st.integers(-3, 12)


def rules(names: st.SearchStrategy[str]) -> st.SearchStrategy[Rule]:
    """Plain, rated and counted rules, and items carrying inner rules (two levels deep)."""

    def extend(inner: st.SearchStrategy[Rule]) -> st.SearchStrategy[Rule]:
        return st.builds(
            Rule, names, st.none(), COUNTS, st.lists(inner, min_size=1, max_size=3).map(tuple)
        )

    return st.recursive(st.builds(Rule, names, st.none() | RATINGS, COUNTS), extend, max_leaves=5)


def units(names: st.SearchStrategy[str]) -> st.SearchStrategy[Unit]:
    rule_lists = st.lists(rules(names), max_size=4).map(tuple)
    weapons = st.builds(
        Weapon,
        names,
        st.integers(1, 12),
        st.none() | st.integers(0, 48),
        st.integers(1, 20),
        rule_lists,
    )
    return st.builds(
        Unit,
        name=names,
        size=st.integers(1, 20),
        quality=st.integers(2, 6),
        defense=st.integers(2, 6),
        cost=st.integers(0, 900),
        rules=rule_lists,
        weapons=st.lists(weapons, max_size=3).map(tuple),
    )


def name_pool(draw: st.DrawFn) -> st.SearchStrategy[str]:
    """A few names per example, reused: cheap to draw, and slugs collide as in real lists."""
    return st.sampled_from(draw(st.lists(NAMES, min_size=1, max_size=6)))


SYSTEMS = st.sampled_from(["GF", "GFF", "AOF", "AOFS", "AOFR", "GFR"])


def books_from(names: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Book names as written, with or without a version."""
    return (
        st.tuples(names, st.none() | st.sampled_from(["3.5.3", "3.4.4", "1.0"]))
        .map(lambda nb: nb[0] if nb[1] is None else f"{nb[0]} (v{nb[1]})")
        .filter(lambda b: " - " not in b and not b.startswith("- "))
    )


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def _number(units: list[tuple[Unit, bool]]) -> tuple[Unit, ...]:
    """Give ids by the documented scheme; a unit flagged True joins the next unit."""
    seen: Counter[str] = Counter()
    ids = []
    for unit, _ in units:
        stem = _slug(unit.name)
        seen[stem] += 1
        ids.append(f"{stem}-{seen[stem]}")
    return tuple(
        replace(unit, uid=ids[i], joined_to=ids[i + 1] if joins else None)
        for i, (unit, joins) in enumerate(units)
    )


@st.composite
def armies(draw: st.DrawFn, weapons_may_have_a0: bool = False) -> Army:
    """Units drawn from a small pool (so equal neighbours and shared slugs happen), some in
    ``{k}x`` copies, some with a hero joined to them."""
    names = name_pool(draw)
    pool = draw(st.lists(units(names), min_size=1, max_size=4))
    if weapons_may_have_a0:
        pool = [
            replace(u, weapons=tuple(replace(w, attacks=w.attacks % 3) for w in u.weapons))
            for u in pool
        ]
    entries = draw(
        st.lists(
            st.tuples(st.sampled_from(pool), st.integers(1, 3), st.none() | st.sampled_from(pool)),
            max_size=6,
        )
    )
    flat: list[tuple[Unit, bool]] = []
    for unit, copies, hero in entries:
        if hero is not None:
            flat.append((hero, True))
        flat += [(unit, False)] * copies
    books = tuple(draw(st.lists(books_from(names), max_size=3)))
    name = draw(names)
    if not books:
        name = name.replace(" - ", " ")
    return Army(name, draw(SYSTEMS), draw(st.integers(0, 5000)), _number(flat), books)


@SETTINGS
@given(armies())
def test_write_then_read_gives_the_same_army(army: Army) -> None:
    text = format_army_text(army)
    assert parse_army_text(text) == army
    assert format_army_text(parse_army_text(text)) == text


@SETTINGS
@given(armies(weapons_may_have_a0=True))
def test_round_trip_with_a0_weapons(army: Army) -> None:
    assert parse_army_text(format_army_text(army)) == army


@SETTINGS
@given(st.data())
def test_unit_text_round_trip(data: st.DataObject) -> None:
    unit = data.draw(units(NAMES))
    unit = replace(unit, uid=f"{_slug(unit.name)}-1")
    assert parse_unit_text(format_unit_text(unit)) == (unit,)


@SETTINGS
@given(armies())
def test_round_trip_survives_line_ending_bom_and_spacing(army: Army) -> None:
    text = format_army_text(army)
    messy = "\ufeff" + text.replace("\n\n", "\n \n\n").replace("\n", "  \r\n")
    assert parse_army_text(messy) == army


def _only_parse_errors(text: str) -> None:
    """Reading never fails with anything but ParseError, and whatever it reads writes back."""
    for read in (parse_army_text, parse_unit_text):
        try:
            result = read(text)
        except ParseError as err:
            assert err.where is not None and err.where.startswith("<text>:")
            continue
        if isinstance(result, Army):
            assert parse_army_text(format_army_text(result)) == result
        else:
            again = parse_unit_text("\n".join(format_unit_text(u) for u in result[:1]))
            assert again[0] == replace(result[0], joined_to=None)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_garbage_text_raises_only_parse_errors(text: str) -> None:
    _only_parse_errors(text)


FRAGMENTS = st.sampled_from(
    [
        "++ ",
        " ++",
        "++",
        "[GF 500pts]",
        "[3 Units]",
        " - ",
        "Book (v1.0)",
        ", ",
        ",",
        "\n",
        "\r\n",
        "\n\n",
        " ",
        "Name",
        "2x ",
        "-1x ",
        "0x ",
        "[5]",
        "[0]",
        " Q4+",
        " D4+",
        " | ",
        "|",
        "90pts",
        "-5pts",
        "(",
        ")",
        "A0",
        "A2",
        '24"',
        "AP(1)",
        "AP(+1)",
        "Tough(3)",
        "Banner(Fearless)",
        "| Joined to:",
        "\ufeff",
        "99999999999",
        "3",
        "x",
        "\t",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(FRAGMENTS, max_size=40).map("".join))
def test_near_miss_text_raises_only_parse_errors(text: str) -> None:
    _only_parse_errors(text)


@SETTINGS
@given(armies(), st.data())
def test_damaged_lists_raise_only_parse_errors(army: Army, data: st.DataObject) -> None:
    """A real list with a few characters changed: read cleanly, or a ParseError."""
    text = format_army_text(army)
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.text(max_size=3) | FRAGMENTS) + text[at + cut :]
    _only_parse_errors(text)
