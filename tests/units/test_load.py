"""``oprlab.units.load``: picking the parser by content, clear errors for bad files, and unit
references (``FILE``, ``FILE:Unit Name``, the text of one unit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oprlab.errors import ParseError
from oprlab.units.forge_json import format_army_json
from oprlab.units.load import load_army, load_unit_ref, looks_like_json
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.text import parse_army_text

LIST = """\
++ Test Patrol - Dust Wardens (v1.0) [GFF 300pts] [4 Units] ++

Warden Captain [1] Q3+ D4+ | 45pts | Hero, Tough(3)
Sabre (A3, AP(1))
| Joined to:
Warden Squad [4] Q4+ D4+ | 60pts | 4x Fast
4x Carbine (18", A1), 4x Knife (A1)

2x Sniper Pair [2] Q4+ D5+ | 35pts | 2x Stealth
2x Long Rifle (30", A1, AP(1))
"""

UNIT_TEXT = """\
Dune Stalker [1] Q4+ D4+ | 40pts | Tough(3), Scout
Twin Claws (A4, Rending)
"""


@pytest.fixture
def text_file(tmp_path: Path) -> Path:
    path = tmp_path / "patrol.txt"
    path.write_text(LIST, encoding="utf-8")
    return path


@pytest.fixture
def army() -> Army:
    return parse_army_text(LIST, "patrol.txt")


def test_load_army_reads_share_as_text(text_file: Path, army: Army) -> None:
    loaded = load_army(text_file)
    assert loaded == army
    assert loaded.name == "Test Patrol" and loaded.points == 300
    assert [u.name for u in loaded.units] == [
        "Warden Captain",
        "Warden Squad",
        "Sniper Pair",
        "Sniper Pair",
    ]
    assert load_army(str(text_file)) == army


def test_load_army_reads_json_by_its_first_character(tmp_path: Path, army: Army) -> None:
    """Content decides, not the extension: JSON in a ``.txt`` file is still JSON."""
    path = tmp_path / "patrol.txt"
    path.write_text(format_army_json(army), encoding="utf-8")
    assert load_army(path) == army


@pytest.mark.parametrize("prefix", ["", "\n\n  \t", "\ufeff", "\ufeff \r\n"])
def test_blanks_and_a_bom_before_the_content_are_skipped(
    tmp_path: Path, army: Army, prefix: str
) -> None:
    js = tmp_path / "a.json"
    js.write_text(prefix + format_army_json(army), encoding="utf-8")
    txt = tmp_path / "a.txt"
    txt.write_text(prefix + LIST, encoding="utf-8")
    assert load_army(js) == army
    assert load_army(txt) == army


def test_looks_like_json() -> None:
    assert looks_like_json('{"units": []}')
    assert looks_like_json("\ufeff  \n[1]")
    assert not looks_like_json("++ List [GFF 150pts] ++")
    assert not looks_like_json("")


def test_a_json_list_goes_to_the_json_parser(tmp_path: Path) -> None:
    """A file starting with ``[`` is an army-book unit list, read by the JSON parser."""
    units = [
        {
            "name": "Dune Stalker",
            "size": 1,
            "quality": 4,
            "defense": 4,
            "cost": 40,
            "rules": [{"name": "Scout"}],
            "weapons": [{"name": "Claws", "range": 0, "attacks": 4, "count": 1}],
        }
    ]
    path = tmp_path / "book.json"
    path.write_text(json.dumps(units), encoding="utf-8")
    (unit,) = load_army(path).units
    assert (unit.name, unit.rules, unit.weapons) == (
        "Dune Stalker",
        (Rule("Scout"),),
        (Weapon("Claws", 4),),
    )


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nope.txt"
    with pytest.raises(ParseError, match="not found") as exc:
        load_army(path)
    assert str(path) in str(exc.value)


def test_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="directory") as exc:
        load_army(tmp_path)
    assert str(tmp_path) in str(exc.value)


def test_non_utf8_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("++ Caf\xe9 [GFF 150pts] ++".encode("latin-1"))
    with pytest.raises(ParseError, match="UTF-8") as exc:
        load_army(path)
    assert str(path) in str(exc.value)


def test_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "name": "x",\n  "units": [,]\n}', encoding="utf-8")
    with pytest.raises(ParseError, match="invalid JSON") as exc:
        load_army(path)
    assert f"{path}:3:" in str(exc.value)


def test_bad_text_raises_the_parser_error_with_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("++ List [GFF 150pts] ++\n\nGrunts [5] Q4+ | 50pts\n", encoding="utf-8")
    with pytest.raises(ParseError) as exc:
        load_army(path)
    assert str(path) in str(exc.value)


# --- unit references ------------------------------------------------------------------------


def test_ref_to_a_file_is_the_whole_army(text_file: Path, army: Army) -> None:
    assert load_unit_ref(str(text_file)) == army.units


def test_ref_to_a_unit_gives_it_with_its_joined_hero(text_file: Path, army: Army) -> None:
    captain, squad = army.units[:2]
    assert load_unit_ref(f"{text_file}:Warden Squad") == (squad, captain)


def test_ref_unit_names_ignore_case_and_surrounding_spaces(text_file: Path, army: Army) -> None:
    assert load_unit_ref(f"{text_file}:  warden SQUAD ") == (army.units[1], army.units[0])


def test_ref_to_a_joined_hero_gives_the_hero_alone(text_file: Path, army: Army) -> None:
    assert load_unit_ref(f"{text_file}:Warden Captain") == (army.units[0],)


def test_ref_to_copies_gives_the_first_copy(text_file: Path, army: Army) -> None:
    (pair,) = load_unit_ref(f"{text_file}:Sniper Pair")
    assert pair == army.units[2]
    assert pair.uid != army.units[3].uid


def test_ref_to_a_unit_of_a_json_file(tmp_path: Path, army: Army) -> None:
    path = tmp_path / "patrol.json"
    path.write_text(format_army_json(army), encoding="utf-8")
    assert load_unit_ref(f"{path}:Warden Squad") == (army.units[1], army.units[0])


def test_ref_unknown_unit_lists_the_unit_names(text_file: Path) -> None:
    with pytest.raises(ParseError, match="no unit of that name") as exc:
        load_unit_ref(f"{text_file}:Warden Sqad")
    message = str(exc.value)
    assert "'Warden Sqad'" in message
    assert "'Warden Captain', 'Warden Squad', 'Sniper Pair'" in message
    assert message.count("Sniper Pair") == 1
    assert str(text_file) in message


def test_ref_with_an_empty_unit_name_is_refused(text_file: Path) -> None:
    with pytest.raises(ParseError, match="missing unit name"):
        load_unit_ref(f"{text_file}:")


def test_ref_to_a_file_with_a_colon_in_its_name(tmp_path: Path, army: Army) -> None:
    """The last ``:`` whose left part is a file splits the reference."""
    path = tmp_path / "game:2.txt"
    path.write_text(LIST, encoding="utf-8")
    assert load_unit_ref(str(path)) == army.units
    assert load_unit_ref(f"{path}:Warden Squad")[0] == army.units[1]


def test_ref_to_a_missing_file_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "gone.txt"
    with pytest.raises(ParseError, match="not found") as exc:
        load_unit_ref(f"{missing}:Warden Squad")
    assert repr(str(missing)) in str(exc.value)
    with pytest.raises(ParseError, match="not found") as exc:
        load_unit_ref(str(missing))
    assert repr(str(missing)) in str(exc.value)


def test_ref_as_the_text_of_one_unit() -> None:
    (unit,) = load_unit_ref(UNIT_TEXT)
    assert unit == Unit(
        "Dune Stalker",
        1,
        4,
        4,
        40,
        (Rule("Tough", 3), Rule("Scout")),
        (Weapon("Twin Claws", 4, rules=(Rule("Rending"),)),),
        uid=unit.uid,
    )


def test_ref_as_a_single_unit_line() -> None:
    """A unit line alone (no weapons) is unit text too, not a missing file."""
    (unit,) = load_unit_ref("Dune Stalker [1] Q4+ D4+ | 40pts | Scout")
    assert (unit.name, unit.size, unit.weapons) == ("Dune Stalker", 1, ())


def test_unit_text_wins_over_a_file_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Precedence 1 over 2: text with a line break is unit text even if a file has that name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / UNIT_TEXT.strip()).write_text(LIST, encoding="utf-8")
    assert [u.name for u in load_unit_ref(UNIT_TEXT)] == ["Dune Stalker"]


def test_a_file_wins_over_a_unit_line_of_the_same_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, army: Army
) -> None:
    """Precedence 2 over 4: a single line naming an existing file is that file."""
    monkeypatch.chdir(tmp_path)
    line = "Dune Stalker [1] Q4+ D4+ | 40pts | Scout"
    (tmp_path / line).write_text(LIST, encoding="utf-8")
    assert load_unit_ref(line) == army.units


def test_ref_as_unit_text_with_copies_and_a_joined_hero() -> None:
    copies = load_unit_ref("2x Scout Bike [1] Q4+ D4+ | 30pts | Fast\nLance (A2)\n")
    assert [u.name for u in copies] == ["Scout Bike", "Scout Bike"]
    hero, squad = load_unit_ref(LIST.split("\n\n")[1])
    assert hero.joined_to == squad.uid


def test_bad_unit_text_raises() -> None:
    with pytest.raises(ParseError):
        load_unit_ref("Dune Stalker [1] Q4+ D4+\nClaws (A4)")


@pytest.mark.parametrize("ref", ["", "   ", "\n\n"])
def test_empty_ref_is_refused(ref: str) -> None:
    with pytest.raises(ParseError, match="empty unit reference"):
        load_unit_ref(ref)
