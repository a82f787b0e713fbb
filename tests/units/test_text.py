"""Army Forge "Share as Text": reading the fixtures field by field, and every bad input.

The fixtures in ``tests/data/text/`` follow the shapes of the four examples described in
``shared/formats/README.md`` (multi-book AOF list, GF list with ``2x`` units, GFF list, joined
hero) with invented names.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oprlab.errors import ParseError, UserError
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.text import format_army_text, format_unit_text, parse_army_text, parse_unit_text

DATA = Path(__file__).resolve().parent.parent / "data" / "text"


def fixture(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


# --- the fixtures, field by field ---------------------------------------------------------------


def test_multi_book_aof_header() -> None:
    """Shape 1 (multi-book AOF): name, books with versions, system, points; [n Units] ignored."""
    army = parse_army_text(fixture("multi_book_aof.txt"))
    assert army.name == "Mixed Host"
    assert army.books == (
        "Marsh Goblins (v3.5.3)",
        "Pale Wardens (v3.5.1)",
        "Ember Lords (v3.5.3)",
    )
    assert army.system == "AOF"
    assert army.points == 1000
    assert [u.name for u in army.units] == ["Wailing Shade", "Ember Count", "Flame Sentinels"]
    assert army.cost == 115 + 225 + 135


def test_multi_book_aof_hero_rules_and_weapons() -> None:
    """Shape 1: rated rules (Tough(3)), names with spaces, hyphens and apostrophes; ranged+melee."""
    shade, count, _ = parse_army_text(fixture("multi_book_aof.txt")).units
    assert (shade.size, shade.quality, shade.defense, shade.cost) == (1, 3, 6, 115)
    assert shade.rules == (
        Rule("Ethereal"),
        Rule("Hero"),
        Rule("Tough", rating=3),
        Rule("Gloom Spirit"),
        Rule("Resistance"),
        Rule("Hold Fast Aura"),
    )
    assert shade.hero and shade.tough == 3
    assert shade.weapons == (
        Weapon("Shriek", attacks=4, range=12, rules=(Rule("AP", rating=1),)),
        Weapon("Talons", attacks=3),
    )
    assert shade.weapons[1].melee and not shade.weapons[0].melee
    assert count.rules == (
        Rule("Furious"),
        Rule("Hero"),
        Rule("Tough", rating=6),
        Rule("Ash-Blooded"),
        Rule("Rend in Melee Aura"),
        Rule("Fast"),
        Rule("Flying"),
        Rule("Impact", rating=2),
        Rule("Warden's Oath"),
    )
    assert count.weapons == (
        Weapon("Greatblade", 3, rules=(Rule("AP", rating=3),)),
        Weapon("Hooves", 1),
    )


def test_multi_book_aof_counted_rules() -> None:
    """Shape 1: per-model rules '5x Regeneration' keep their count; digits inside rule names."""
    sentinels = parse_army_text(fixture("multi_book_aof.txt")).units[2]
    assert sentinels.size == 5
    assert sentinels.rules == (
        Rule("Regeneration", count=5),
        Rule("Bright-born", count=5),
        Rule("Mark 2 Tag", rating=1),
    )
    assert sentinels.weapons == (
        Weapon("Long Glaive", 1, count=5, rules=(Rule("AP", rating=1), Rule("Rending"))),
    )


def test_gf_copies_give_k_units_with_distinct_ids() -> None:
    """Shape 2 (GF): '2x Drone Crew' is two units at the per-unit points shown; book without
    version."""
    army = parse_army_text(fixture("gf_copies.txt"))
    assert army.name == "my shiny robots"
    assert army.books == ("Cog Collective",)
    assert (army.system, army.points) == ("GF", 1030)
    overseer, crew1, crew2 = army.units
    assert overseer.uid == "plated-overseer-1"
    assert (crew1.uid, crew2.uid) == ("drone-crew-1", "drone-crew-2")
    assert crew1.cost == crew2.cost == 95
    assert army.cost == 205 + 2 * 95
    assert crew1.rules == (Rule("Good Shot"),)
    assert crew1.weapons == (
        Weapon("Shock Prods", 1, count=5),
        Weapon("Scatter Guns", 2, range=12, count=5, rules=(Rule("AP", rating=1),)),
    )
    assert crew2.weapons == crew1.weapons


def test_gf_counted_weapons_with_several_rules() -> None:
    """Shape 2: '3x Heavy Arc-Rifle (24", A1, AP(1))' and two rated weapon rules."""
    overseer = parse_army_text(fixture("gf_copies.txt")).units[0]
    assert overseer.weapons == (
        Weapon("Slam", 4, rules=(Rule("AP", rating=1),)),
        Weapon("Heavy Arc-Rifle", 1, range=24, count=3, rules=(Rule("AP", rating=1),)),
        Weapon("Fusion Lance", 1, range=12, rules=(Rule("AP", rating=4), Rule("Deadly", rating=3))),
    )
    assert overseer.weapons[2].rating("Deadly") == 3


def test_gff_list() -> None:
    """Shape 3 (GFF): 2x units with counted rules and counted melee weapons."""
    army = parse_army_text(fixture("gff.txt"))
    assert (army.name, army.books, army.system, army.points) == (
        "Skitterers!",
        ("Chitin Brood (v3.4.4)",),
        "GFF",
        320,
    )
    assert len(army.units) == 2
    drones = army.units[0]
    assert (drones.size, drones.quality, drones.defense, drones.cost) == (3, 5, 5, 55)
    assert drones.rules == (
        Rule("Fast", count=3),
        Rule("Strider", count=3),
        Rule("Venom in Melee", count=3),
    )
    assert drones.weapons == (
        Weapon("Hook Claws", 2, count=2),
        Weapon("Barbed Claws", 2, rules=(Rule("AP", rating=4),)),
    )


def test_joined_hero_unit_text() -> None:
    """Shape 4 (joined hero, no header): the hero joins the unit after '| Joined to:'."""
    hero, bowmen = parse_unit_text(fixture("joined_hero.txt"))
    assert hero.name == "Bone Captain"
    assert hero.joined_to == bowmen.uid == "hollow-bowmen-1"
    assert bowmen.joined_to is None
    assert hero.rules[-1] == Rule("Grave Lantern", count=1, rules=(Rule("Caster", rating=3),))
    assert hero.rating("Caster") == 3
    assert bowmen.rules == (Rule("Undead"), Rule("Banner"))
    assert bowmen.weapons == (
        Weapon("Longbow", 1, range=24, count=10),
        Weapon("Rusted Blade", 1, count=10),
    )


def test_joined_army_items_signed_ratings_and_missing_parts() -> None:
    """Items with inner rules, 'AP(+1)' as 1, an empty rules part, a unit with no weapon line."""
    army = parse_army_text(fixture("joined_army.txt"))
    assert army.system == "AOFS"
    captain, bowmen, hound, lurker = army.units
    assert captain.joined_to == bowmen.uid
    assert bowmen.rules[1] == Rule("Banner", count=1, rules=(Rule("Fearless"),))
    assert bowmen.has("Fearless")
    assert hound.rules == ()
    assert hound.weapons == (Weapon("Bite", 2, rules=(Rule("AP", rating=1),)),)
    assert (lurker.rules, lurker.weapons, lurker.cost) == ((), (), 60)


def test_unit_text_copies_and_single_line() -> None:
    """parse_unit_text: '{k}x' gives k units; one line without weapons is a unit too."""
    units = parse_unit_text('3x Scout Pair [2] Q4+ D5+ | 30pts | Scout\n2x Carbine (18", A1)')
    assert [u.uid for u in units] == ["scout-pair-1", "scout-pair-2", "scout-pair-3"]
    assert all(u.weapons == (Weapon("Carbine", 1, range=18, count=2),) for u in units)
    (lone,) = parse_unit_text("Lone Sentry [1] Q5+ D4+ | 15pts")
    assert (lone.name, lone.rules, lone.weapons) == ("Lone Sentry", (), ())


def test_tolerates_bom_crlf_trailing_spaces_and_extra_blank_lines() -> None:
    """The same list with a BOM, Windows line endings, trailing spaces and extra blank lines."""
    clean = fixture("gf_copies.txt")
    messy = "\ufeff\n\n" + "\r\n".join(line + "  " for line in clean.splitlines())
    messy = messy.replace("  \r\n  \r\n", "  \r\n\r\n\r\n   \t\r\n") + "\r\n\r\n"
    assert parse_army_text(messy) == parse_army_text(clean)
    assert parse_army_text(clean.replace("\n", "\r")) == parse_army_text(clean)


def test_trailing_bar_after_points_is_an_empty_rules_part() -> None:
    """'| 40pts |' and '| 40pts' both mean no rules."""
    (a,) = parse_unit_text("Hound [1] Q4+ D5+ | 40pts |")
    (b,) = parse_unit_text("Hound [1] Q4+ D5+ | 40pts")
    assert a == b and a.rules == ()


def test_header_only_list_has_no_units() -> None:
    army = parse_army_text("++ Empty [GF 500pts] ++\n")
    assert army == Army("Empty", "GF", 500)


def test_list_name_ends_at_last_dash() -> None:
    """The list name may contain ' - '; the books start after the last one."""
    army = parse_army_text("++ Cup - Round 2 - Cog Collective [GF 750pts] ++")
    assert (army.name, army.books) == ("Cup - Round 2", ("Cog Collective",))


def test_a0_weapons_are_read() -> None:
    """Army Forge exports A0 for some items: read (as JSON lists are), then a validation
    warning, the same for both formats."""
    text = "Relic Bearer [1] Q4+ D4+ | 50pts | Hero\nRelic (A0, Blast(3)), Staff (A1)"
    (unit,) = parse_unit_text(text)
    assert unit.weapons[0] == Weapon("Relic", 0, rules=(Rule("Blast", rating=3),))
    army = Army("Relics", "GF", 100, (unit,))
    assert parse_army_text(format_army_text(army)) == army


@pytest.mark.parametrize(
    ("line", "field", "value"),
    [
        ("Line Squad [0] Q4+ D4+ | 100pts", "size", 0),
        ("Line Squad [5] Q4+ D4+ | -100pts", "cost", -100),
        ("Line Squad [5] Q0+ D4+ | 100pts", "quality", 0),
        ("Line Squad [5] Q7+ D4+ | 100pts", "quality", 7),
    ],
)
def test_values_are_read_as_given_and_judged_by_validation(
    line: str, field: str, value: int
) -> None:
    """The reader reads numbers; whether they are in range is the validation's call, the same
    for text and JSON lists (oprlab.units.validate)."""
    army = parse_army_text(f"{HEADER}\n\n{line}\n{GOOD_WEAPONS}\n")
    assert getattr(army.units[0], field) == value


# --- writing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gf_copies.txt", "gff.txt", "joined_army.txt"])
def test_format_writes_canonical_fixtures_back_exactly(name: str) -> None:
    """Fixtures written the way Army Forge writes them come back byte for byte (k copies regrouped,
    the joined hero before its unit); the only change is 'AP(+1)' -> 'AP(1)', '| 40pts |' ->
    '| 40pts'."""
    text = fixture(name)
    expected = text.replace("AP(+1)", "AP(1)").replace("| 40pts |\n", "| 40pts\n")
    assert format_army_text(parse_army_text(text)) == expected


def test_format_drops_the_unit_count_but_reads_back_equal() -> None:
    army = parse_army_text(fixture("multi_book_aof.txt"))
    text = format_army_text(army)
    assert "[3 Units]" not in text.splitlines()[0]
    assert parse_army_text(text) == army


def test_format_unit_text_round_trip() -> None:
    unit = parse_army_text(fixture("gf_copies.txt")).units[0]
    text = format_unit_text(unit)
    assert text.count("\n") == 1
    assert parse_unit_text(text) == (unit,)


def test_format_puts_a_joined_hero_before_its_unit() -> None:
    """An army from elsewhere (JSON) may list the hero after its unit: written before it."""
    squad = Unit("Line Squad", 5, 4, 4, 100, weapons=(Weapon("Rifle", 1, 24, 5),), uid="A")
    hero = Unit("Field Captain", 1, 4, 4, 60, rules=(Rule("Hero"),), joined_to="C", uid="B")
    other = Unit("Line Squad", 5, 4, 4, 100, weapons=(Weapon("Rifle", 1, 24, 5),), uid="C")
    text = format_army_text(Army("Mix", "GF", 500, (squad, other, hero)))
    lines = text.splitlines()
    assert lines[2].startswith("Line Squad [5]")  # no '2x': the second squad is joined
    assert lines[5].startswith("Field Captain") and lines[6] == "| Joined to:"
    assert lines[7].startswith("Line Squad [5]")
    back = parse_army_text(text)
    assert [u.name for u in back.units] == ["Line Squad", "Field Captain", "Line Squad"]
    assert back.units[1].joined_to == back.units[2].uid == "line-squad-2"


@pytest.mark.parametrize(
    ("army", "where", "bad"),
    [
        (Army("A - B", "GF", 100), "name", "A - B"),
        (Army("", "GF", 100), "name", ""),
        (Army("L", "G F", 100), "system", "G F"),
        (Army("L", "GF", -1), "points", -1),
        (Army("L", "GF", 1, books=("X, Y",)), "books[0]", "X, Y"),
        (Army("L", "GF", 1, (Unit("3x Foo", 1, 4, 4),)), "units[0].name", "3x Foo"),
        (Army("L", "GF", 1, (Unit("Foo ", 1, 4, 4),)), "units[0].name", "Foo "),
        (Army("L", "GF", 1, (Unit("Foo", 0, 4, 4),)), "units[0].size", 0),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, rules=(Rule("T", 3, rules=(Rule("X"),)),)),)),
            "units[0].rules[0]",
            Rule("T", 3, rules=(Rule("X"),)),
        ),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, rules=(Rule("a,b"),)),)),
            "units[0].rules[0].name",
            "a,b",
        ),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, rules=(Rule("X", rules=(Rule("3"),)),)),)),
            "units[0].rules[0].rules[0].name",
            "3",
        ),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, weapons=(Weapon("Gun (big)", 1),)),)),
            "units[0].weapons[0].name",
            "Gun (big)",
        ),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, weapons=(Weapon("Gun", 1, count=0),)),)),
            "units[0].weapons[0].count",
            0,
        ),
        (Army("L", "GF", 1, (Unit("F", 1, 4, 4, joined_to="nope"),)), "units[0].joined_to", "nope"),
        (
            Army("L", "GF", 1, (Unit("F", 1, 4, 4, joined_to="f", uid="f"),)),
            "units[0].joined_to",
            "f",
        ),
        (
            Army(
                "L",
                "GF",
                1,
                (
                    Unit("H", 1, 4, 4, joined_to="t", uid="h1"),
                    Unit("H", 1, 4, 4, joined_to="t", uid="h2"),
                    Unit("T", 1, 4, 4, uid="t"),
                ),
            ),
            "units[1].joined_to",
            "t",
        ),
        (
            Army(
                "L",
                "GF",
                1,
                (
                    Unit("P", 1, 4, 4, joined_to="q", uid="p"),
                    Unit("Q", 1, 4, 4, joined_to="p", uid="q"),
                ),
            ),
            "units[0].joined_to",
            "q",
        ),
    ],
)
def test_format_refuses_what_would_not_read_back(army: Army, where: str, bad: object) -> None:
    with pytest.raises(UserError) as info:
        format_army_text(army)
    assert info.value.where == where
    assert info.value.value == bad
    assert info.value.expected


# --- bad input: each names the line and the bad text ------------------------------------------

HEADER = "++ Test List - Test Book (v1.0) [GF 500pts] ++"
GOOD_UNIT = "Line Squad [5] Q4+ D4+ | 100pts | Fearless"
GOOD_WEAPONS = '5x Rifle (24", A1)'


def _army_error(text: str, **kwargs: bool) -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_army_text(text, "list.txt", **kwargs)
    return info.value


def _assert_names(err: ParseError, line: int, bad: str) -> None:
    """The error names ``list.txt:{line}``, carries the bad text and says what was expected."""
    assert err.where == f"list.txt:{line}"
    assert bad in str(err.value)
    assert f"list.txt:{line}" in str(err)
    assert repr(err.value) in str(err)
    assert err.expected and err.expected in str(err)


def test_missing_header_names_line_1() -> None:
    err = _army_error(f"{GOOD_UNIT}\n{GOOD_WEAPONS}\n")
    _assert_names(err, 1, GOOD_UNIT)
    assert "header" in err.message and "++" in (err.expected or "")


def test_missing_header_after_blank_lines_names_the_first_text_line() -> None:
    _assert_names(_army_error(f"\n\n{GOOD_UNIT}\n"), 3, GOOD_UNIT)


def test_empty_text() -> None:
    err = _army_error("  \n\n")
    assert err.where == "list.txt:1" and "empty" in err.message


@pytest.mark.parametrize(
    "header",
    [
        "++ Test List - Test Book (v1.0) ++",
        "++ Test List - Test Book (v1.0) [GF] ++",
        "++ Test List [500pts] ++",
    ],
)
def test_header_without_points(header: str) -> None:
    err = _army_error(f"{header}\n\n{GOOD_UNIT}\n")
    _assert_names(err, 1, header)
    assert "no points" in err.message


def test_header_without_closing_marks_or_name() -> None:
    _assert_names(_army_error("++ Test List [GF 500pts]\n"), 1, "++ Test List [GF 500pts]")
    err = _army_error("++ [GF 500pts] ++\n")
    _assert_names(err, 1, "[GF 500pts]")
    assert "no list name" in err.message
    _assert_names(_army_error("++ L - A,, B [GF 5pts] ++"), 1, "A,, B")


@pytest.mark.parametrize(
    ("line", "bad", "words"),
    [
        ("Line Squad [5] D4+ | 100pts | Fearless", None, "no quality"),
        ("Line Squad [5] Q4+ | 100pts | Fearless", None, "no defense"),
        ("Line Squad Q4+ D4+ | 100pts | Fearless", None, "no model count"),
        ("Line Squad [5] Q4+ D4+ | Fearless", None, "no points"),
        ("-2x Line Squad [5] Q4+ D4+ | 100pts", None, "count must be at least 1"),
        ("0x Line Squad [5] Q4+ D4+ | 100pts", None, "count must be at least 1"),
        ("2x 3x Line Squad [5] Q4+ D4+ | 100pts", "3x Line Squad", "cannot start with a count"),
        ("Line Squad [5] Q4+ D4+ | 100pts | 5XP | Hero", "5XP | Hero", "cannot contain '|'"),
    ],
)
def test_bad_unit_lines(line: str, bad: str | None, words: str) -> None:
    err = _army_error(f"{HEADER}\n\n{line}\n{GOOD_WEAPONS}\n")
    _assert_names(err, 3, line if bad is None else bad)
    assert words in err.message


@pytest.mark.parametrize(
    ("rules", "bad", "words"),
    [
        ("Fearless, -5x Regeneration", "-5x Regeneration", "count must be at least 1"),
        ("Fearless,, Fast", "", "empty rule"),
        ("Banner(Fearless", "Banner(Fearless", "unbalanced"),
        ("Banner)Fearless(", "Banner)Fearless(", "unbalanced"),
        ("Banner(Fearless) Cloak", "Banner(Fearless) Cloak", "after the closing"),
        ("Banner()", "Banner()", "empty brackets"),
        ("Banner(3, 4)", "3", "cannot be a number"),
        ("Tough(9999999999999999999)", "9999999999999999999", "too large"),
        ("A(" * 9 + ")" * 9, "A(A(", "nested too deeply"),
    ],
)
def test_bad_rules(rules: str, bad: str, words: str) -> None:
    line = f"Line Squad [5] Q4+ D4+ | 100pts | {rules}"
    err = _army_error(f"{HEADER}\n\n{line}\n{GOOD_WEAPONS}\n")
    _assert_names(err, 3, bad)
    assert words in err.message


@pytest.mark.parametrize(
    ("weapons", "bad", "words"),
    [
        ('5x Rifle (24", A1', '5x Rifle (24", A1', "unbalanced"),
        ('5x Rifle 24", A1)', '5x Rifle 24", A1)', "unbalanced"),
        ("Claws (A3)), Bite (A1)", "Claws (A3)), Bite (A1)", "unbalanced"),
        ("-5x Rifle (A1)", "-5x Rifle (A1)", "count must be at least 1"),
        ("0x Rifle (A1)", "0x Rifle (A1)", "count must be at least 1"),
        ('Rifle (-24", A1)', 'Rifle (-24", A1)', "negative"),
        ('Rifle (24")', 'Rifle (24")', "needs its attacks"),
        ("Rifle", "Rifle", "profile in brackets"),
        ("(A1)", "", "has no name"),
        ("Claws (A3), , Bite (A1)", "", "empty weapon"),
        ("Claws (A3, AP(1)) sharp", "Claws (A3, AP(1)) sharp", "after the closing"),
        ("Claws (A3, -2x Rending)", "-2x Rending", "count must be at least 1"),
    ],
)
def test_bad_weapon_lines(weapons: str, bad: str, words: str) -> None:
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n{weapons}\n")
    _assert_names(err, 4, bad)
    assert words in err.message


@pytest.mark.parametrize(
    "garbage", ["hello world", "Line Squad, the best", "!!!", "}{", "Q4+ D4+ | 10pts"]
)
def test_garbage_where_a_unit_should_be(garbage: str) -> None:
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n{GOOD_WEAPONS}\n\n{garbage}\n")
    _assert_names(err, 6, garbage)


def test_second_weapon_line() -> None:
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n{GOOD_WEAPONS}\nClaws (A2)\n")
    _assert_names(err, 5, "Claws (A2)")
    assert "second weapon line" in err.message


def test_second_header() -> None:
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n\n{HEADER}\n")
    _assert_names(err, 5, HEADER)


@pytest.mark.parametrize("tail", ["", "\n\n\n", "\n   \n"])
def test_joined_to_with_no_following_unit(tail: str) -> None:
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n{GOOD_WEAPONS}\n| Joined to:{tail}")
    _assert_names(err, 5, "| Joined to:")
    assert "no unit after it" in err.message


def test_joined_to_misplaced() -> None:
    _assert_names(_army_error(f"{HEADER}\n| Joined to:\n{GOOD_UNIT}\n"), 2, "| Joined to:")
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n| Joined to:\n| Joined to:\n{GOOD_UNIT}\n")
    _assert_names(err, 5, "| Joined to:")
    err = _army_error(f"{HEADER}\n\n2x {GOOD_UNIT}\n| Joined to:\n{GOOD_UNIT}\n")
    _assert_names(err, 4, "| Joined to:")
    assert "2 copies" in err.message
    err = _army_error(f"{HEADER}\n\n{GOOD_UNIT}\n| Joined to: Line Squad\n{GOOD_UNIT}\n")
    _assert_names(err, 4, "| Joined to: Line Squad")


def test_joined_to_chain_reads_and_writes() -> None:
    """A hero joined to a hero joined to a unit: each joins the next block."""
    join = "| Joined to:"
    text = f"{HEADER}\n\nA [1] Q4+ D4+ | 1pts\n{join}\nB [1] Q4+ D4+ | 1pts\n{join}\n{GOOD_UNIT}\n"
    a, b, squad = parse_army_text(text).units
    assert (a.joined_to, b.joined_to, squad.joined_to) == (b.uid, squad.uid, None)
    army = parse_army_text(text)
    assert parse_army_text(format_army_text(army)) == army


def test_joined_target_with_copies_joins_the_first_copy() -> None:
    hero, first, second = parse_unit_text(f"Hero [1] Q4+ D4+ | 5pts\n| Joined to:\n2x {GOOD_UNIT}")
    assert hero.joined_to == first.uid != second.uid


def test_unit_text_with_more_than_one_unit() -> None:
    with pytest.raises(ParseError) as info:
        parse_unit_text(f"{GOOD_UNIT}\n{GOOD_WEAPONS}\n\nOther [1] Q4+ D4+ | 5pts", "cli")
    assert info.value.where == "cli:4" and info.value.value == "Other"
    with pytest.raises(ParseError) as info:
        parse_unit_text("  \n", "cli")
    assert info.value.where == "cli:1"


def test_parse_errors_are_user_errors() -> None:
    """The command line prints UserErrors as one line; ParseError must be one."""
    with pytest.raises(UserError):
        parse_unit_text("nonsense")
    with pytest.raises(ValueError):
        parse_army_text("nonsense")
