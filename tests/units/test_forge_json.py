"""Army Forge JSON import/export: the three shapes, links, errors with JSON paths, round trip.

Fixtures under ``tests/data/json/`` are invented armies written in the shapes documented in
shared/formats/README.md (``tts-list-unit-2023``, the current ``/api/tts`` list, army-book units).
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oprlab.errors import OptionError, ParseError, UserError
from oprlab.units.forge_json import (
    ForgeJSONError,
    detect_shape,
    format_army_json,
    parse_army_json,
)
from oprlab.units.model import Army, Bases, Rule, Unit, Weapon

DATA = Path(__file__).resolve().parent.parent / "data" / "json"


def _read(name: str) -> bytes:
    return (DATA / name).read_bytes()


def _doc(name: str) -> Any:
    return json.loads(_read(name))


def _parse_fixture(name: str) -> Army:
    return parse_army_json(_read(name), f"tests/data/json/{name}")


def _unit(**fields: Any) -> dict[str, Any]:
    """A minimal current-shape unit entry."""
    entry: dict[str, Any] = {"name": "Test Squad", "size": 5, "quality": 4, "defense": 4}
    entry["cost"] = 100
    entry["rules"] = []
    entry["weapons"] = [{"name": "Rifle", "count": 5, "range": 24, "attacks": 1}]
    entry.update(fields)
    return entry


def _list(*units: dict[str, Any], **top: Any) -> str:
    doc: dict[str, Any] = {"name": "Test List", "gameSystem": "gff", "pointsLimit": 300}
    doc.update(top)
    doc["units"] = list(units)
    return json.dumps(doc)


def _error(data: Any, source: str = "list.json") -> ParseError:
    with pytest.raises(ParseError) as info:
        parse_army_json(data, source)
    return info.value


# --- shapes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "shape"),
    [
        ("tts-2023-list.json", "tts-2023"),
        ("tts-list.json", "tts"),
        ("army-book-units.json", "army-book"),
        ("army-book.json", "army-book"),
    ],
)
def test_detect_shape(name: str, shape: str) -> None:
    """formats/README: 2023 /api/tts units, current units, and army-book units are told apart."""
    assert detect_shape(_doc(name)) == shape


def test_2023_list_fields() -> None:
    """formats/README tts-list-unit-2023: loadout, string ratings, combined pair, joined heroes."""
    army = _parse_fixture("tts-2023-list.json")
    assert (army.name, army.system, army.points) == ("Ember Court", "GF", 750)
    assert army.books == ("emberbook0001", "otherbook0002")  # a list mixing two army books
    assert [u.name for u in army.units] == [
        "Cinder Priest",
        "Ash Wardens",
        "Slag Hounds",
        "Kiln Herald",
    ]
    priest, wardens, hounds, herald = army.units

    # `loadout` (resolved) wins over `equipment`; "3" -> 3 and "" -> None.
    assert priest.weapons == (
        Weapon("Ember Staff", 2, 18, 1, (Rule("Blast", 3), Rule("Reliable"))),
    )
    assert priest.rules[:2] == (Rule("Hero"), Rule("Tough", 3))
    # A non-numeric rating string becomes the rule's inner rules.
    assert priest.rules[2] == Rule("Ember Relic", rules=(Rule("Fearless"), Rule("Caster", 2)))
    assert (priest.size, priest.quality, priest.defense, priest.cost) == (1, 3, 4, 85)
    assert priest.uid == "hA1"
    assert priest.hero and priest.tough == 3
    # The priest joins the *second* half of the pair: it is joined to the merged unit's uid.
    assert priest.joined_to == "sB2"

    assert wardens.combined and wardens.uid == "sB2"
    assert (wardens.size, wardens.cost, wardens.quality, wardens.defense) == (10, 210, 4, 4)
    assert wardens.rules == (Rule("Fearless"),)
    assert wardens.weapons == (
        Weapon("Ash Rifle", 1, 24, 9, (Rule("AP", 1),)),
        Weapon("Hand Weapon", 1, None, 10),
        Weapon("Flame Pike", 1, 12, 1, (Rule("Blast", 3),)),
    )
    assert wardens.joined_to is None

    # No loadout: equipment is used; a rule without a rating field has none.
    assert hounds.weapons == (Weapon("Jaws", 2, None, 3),)
    assert hounds.rules == (Rule("Fast"),)
    assert (hounds.uid, hounds.combined, hounds.joined_to) == ("gC4", False, None)

    # An item inside the loadout becomes a counted rule carrying its rules.
    assert herald.rules == (
        Rule("Hero"),
        Rule("Horn of Embers", None, 1, (Rule("Fear", 1),)),
    )
    assert herald.weapons == (Weapon("Kiln Hammer", 3, None, 1),)
    assert herald.joined_to == "gC4"
    assert all(u.bases is None for u in army.units)


def test_current_list_fields() -> None:
    """formats/README current shape: bases, items, attacksMultiplier, range 0/missing, A0."""
    army = _parse_fixture("tts-list.json")
    assert (army.name, army.system, army.points, army.books) == (
        "Glass Reavers",
        "GFF",
        300,
        ("reaverbook01",),
    )
    captain, squad, walker = army.units

    assert captain.bases == Bases(round=32, square=30)
    assert captain.rules == (
        Rule("Hero"),
        Rule("Tough", 3),
        Rule("Shard Banner", None, 1, (Rule("Fearless"),)),
    )
    assert captain.has("Fearless")  # carried by the item
    assert captain.weapons == (
        Weapon("Splinter Pistol", 1, 12, 1, (Rule("AP", 1),)),
        Weapon("Twin Blades", 4, None, 1),  # A2 with attacksMultiplier 2
    )
    assert (captain.uid, captain.joined_to, captain.cost) == ("p1", "p2", 70)

    assert squad.rules == (Rule("Regeneration", None, 5),)  # counted per model
    assert squad.bases == Bases(25, 25)
    assert squad.weapons == (
        Weapon("Shard Rifle", 1, 24, 5, (Rule("AP", 1),)),
        Weapon("CCW", 1, None, 5),  # no range key: melee
        Weapon("Flare Launcher", 0, 18, 1, (Rule("Indirect"),)),  # A0 kept
    )  # the count-0 "Old Carbine" (replaced gear) is dropped

    assert walker.bases == Bases(round=60, square=None)  # "none"
    assert walker.weapons == (
        Weapon("Stomp", 3, None, 1),
        Weapon("Glass Lance", 1, 30, 1, (Rule("AP", 4), Rule("Deadly", 3))),
    )  # loadout wins over weapons
    assert walker.rules[-1] == Rule("Mirror Plating", None, 1, (Rule("Shielded"),))
    assert walker.tough == 6


def test_army_book_units_fields() -> None:
    """formats/README army-book-units: a list of units -> an army named after the source."""
    army = _parse_fixture("army-book-units.json")
    assert (army.name, army.system, army.points, army.books) == ("army-book-units", "", 165, ())
    adept, reef = army.units
    assert adept == Unit(
        name="Tidecaller Adept",
        size=1,
        quality=4,
        defense=5,
        cost=55,
        rules=(Rule("Hero"), Rule("Tough", 3), Rule("Caster", 1)),
        weapons=(Weapon("Coral Staff", 1, None, 1, (Rule("Rending"),)),),
        bases=Bases(32, 30),
        uid="bkAdept",
    )
    assert reef.weapons == (
        Weapon("Barbed Spear", 1, None, 5, (Rule("Counter"),)),
        Weapon("Net Thrower", 1, 12, 1),  # count missing -> 1
    )
    assert reef.bases == Bases(25, 20)
    assert not reef.combined and reef.joined_to is None


def test_army_book_object() -> None:
    """An army book object: named after the book, system from its slug, points = sum of costs."""
    army = _parse_fixture("army-book.json")
    assert (army.name, army.system, army.points) == ("Tide Covenant", "AOF", 150)
    assert army.books == ("Tide Covenant (v1.2.0)",)
    (serpent,) = army.units
    assert serpent.tough == 9 and serpent.uid == "bkSerpent"
    assert serpent.weapons == (Weapon("Crushing Coils", 4, None, 1, (Rule("AP", 1),)),)


def test_book_units_without_names_use_source_stem() -> None:
    army = parse_army_json(json.dumps({"units": [_unit()]}), "lists/my army.json")
    assert (army.name, army.system, army.points) == ("my army", "", 100)


@pytest.mark.parametrize(
    ("code", "system"),
    [
        ("gf", "GF"),
        ("gff", "GFF"),
        ("aof", "AOF"),
        ("aofs", "AOFS"),
        ("aofr", "AOFR"),
        ("gfr", "GFR"),
        ("GFF", "GFF"),
        (2, "GF"),
        (3, "GFF"),
        (4, "AOF"),
        (5, "AOFS"),
        (6, "AOFR"),
        ("3", "GFF"),
        ("grimdark-future-firefight", "GFF"),
        ("", ""),
        (None, ""),
    ],
)
def test_game_system_codes(code: Any, system: str) -> None:
    """Army Forge codes, numeric ids (2-6) and slugs map to upper-case codes."""
    assert parse_army_json(_list(_unit(), gameSystem=code)).system == system


def test_points_fall_back_to_list_points_then_costs() -> None:
    doc = json.loads(_list(_unit(cost=40), _unit(cost=25)))
    del doc["pointsLimit"]
    assert parse_army_json(dict(doc, listPoints=70)).points == 70
    assert parse_army_json(doc).points == 65


@pytest.mark.parametrize(
    ("rating", "rule"),
    [
        ("3", Rule("Tough", 3)),
        (3, Rule("Tough", 3)),
        ("", Rule("Tough")),
        (None, Rule("Tough")),
        (" 2 ", Rule("Tough", 2)),
        ("Fearless", Rule("Tough", rules=(Rule("Fearless"),))),
        ("Fearless, Caster(3)", Rule("Tough", rules=(Rule("Fearless"), Rule("Caster", 3)))),
    ],
)
def test_ratings(rating: Any, rule: Rule) -> None:
    """formats/README pitfall "string vs numeric ratings"."""
    army = parse_army_json(_list(_unit(rules=[{"name": "Tough", "rating": rating}])))
    assert army.units[0].rules == (rule,)


def test_range_zero_null_and_missing_are_melee() -> None:
    """formats/README pitfall "range: 0 vs a missing range for melee"."""
    weapons = [
        {"name": "A", "attacks": 1, "range": 0},
        {"name": "B", "attacks": 1, "range": None},
        {"name": "C", "attacks": 1},
        {"name": "D", "attacks": 1, "range": 6},
    ]
    army = parse_army_json(_list(_unit(weapons=weapons)))
    assert [w.range for w in army.units[0].weapons] == [None, None, None, 6]
    assert [w.melee for w in army.units[0].weapons] == [True, True, True, False]


@pytest.mark.parametrize(("attacks", "mult", "total"), [(1, 1, 1), (2, 2, 4), (3, 0, 0), (0, 3, 0)])
def test_attacks_multiplier(attacks: int, mult: int, total: int) -> None:
    """formats/README pitfall "attacksMultiplier": attacks are multiplied by it."""
    weapon = {"name": "Claws", "attacks": attacks, "attacksMultiplier": mult}
    assert parse_army_json(_list(_unit(weapons=[weapon]))).units[0].weapons[0].attacks == total


def test_items_key_wins_over_items_in_loadout() -> None:
    item = {"type": "ArmyBookItem", "name": "Relic", "content": [{"name": "Fearless"}]}
    loadout = [{"name": "Claw", "attacks": 1}, item]
    with_items = _unit(loadout=loadout, items=[])
    without = _unit(loadout=loadout)
    army = parse_army_json(_list(with_items, without))
    assert army.units[0].rules == ()
    assert army.units[1].rules == (Rule("Relic", rules=(Rule("Fearless"),)),)


def test_combined_readme_form_first_entry_not_marked() -> None:
    """formats/README: the second entry has combined: true and joinToUnit = the first's id."""
    first = _unit(selectionId="a", rules=[{"name": "Regeneration", "count": 5}])
    second = _unit(
        selectionId="b",
        combined=True,
        joinToUnit="a",
        cost=90,
        rules=[{"name": "Regeneration", "count": 5}, {"name": "Scout"}],
    )
    (unit,) = parse_army_json(_list(first, second)).units
    assert (unit.size, unit.cost, unit.combined, unit.uid) == (10, 190, True, "a")
    assert unit.weapons == (Weapon("Rifle", 1, 24, 10),)
    assert unit.rules == (Rule("Regeneration", None, 10), Rule("Scout"))


def test_bytes_bom_and_parsed_values() -> None:
    text = _list(_unit())
    expected = parse_army_json(text)
    assert parse_army_json(text.encode("utf-8")) == expected
    assert parse_army_json("\ufeff" + text) == expected
    assert parse_army_json(b"\xef\xbb\xbf" + text.encode()) == expected
    assert parse_army_json(json.loads(text)) == expected


# --- errors ------------------------------------------------------------------------------------


def test_truncated_json_names_line_and_column() -> None:
    text = _read("tts-list.json").decode()[:500]
    err = _error(text, "cut.json")
    line = text.count("\n") + 1
    assert err.where is not None and err.where.startswith(f"cut.json:{line}:")
    assert "not valid JSON" in str(err) and "cut off" in str(err)


def test_invalid_json_in_the_middle() -> None:
    err = _error('{"units": [\n  {"name": "A",, "size": 1}\n]}', "bad.json")
    assert err.where == "bad.json:2:16"
    assert '"A",,' in str(err)


def test_not_utf8() -> None:
    err = _error(b'{"units": [\xff]}', "bin.json")
    assert "UTF-8" in str(err) and "offset 11" in str(err)


@pytest.mark.parametrize("value", ['"a list"', "42", "null", "true", "3.5"])
def test_wrong_top_level_type(value: str) -> None:
    err = _error(value, "top.json")
    assert "top.json" in str(err) and value in str(err)
    assert "units" in (err.expected or "")


def test_object_without_units() -> None:
    err = _error('{"name": "No Units"}', "nu.json")
    assert err.where == "nu.json: units"
    assert "missing" in str(err)


def test_wrong_type_reports_json_path_and_value() -> None:
    err = _error(_list(_unit(), _unit(quality="3")), "q.json")
    assert isinstance(err, ForgeJSONError)
    assert err.where == "q.json: units[1].quality"
    assert err.value == "3"
    assert 'units[1].quality: wrong type (got "3"); expected a whole number' in str(err)


@pytest.mark.parametrize(
    ("unit", "path", "value"),
    [
        (
            _unit(weapons=[{"name": "Gun", "attacks": 1, "count": -1}]),
            "units[0].weapons[0].count",
            -1,
        ),
        (
            _unit(weapons=[{"name": "Gun", "attacks": 1, "range": -6}]),
            "units[0].weapons[0].range",
            -6,
        ),
        (
            _unit(weapons=[{"name": "Gun", "attacks": 1, "attacksMultiplier": -2}]),
            "units[0].weapons[0].attacksMultiplier",
            -2,
        ),
        (_unit(rules=[{"name": "Regeneration", "count": -5}]), "units[0].rules[0].count", -5),
    ],
)
def test_negative_and_out_of_range_numbers(unit: dict[str, Any], path: str, value: int) -> None:
    """Negative counts, ranges and multipliers are rejected with their JSON path."""
    err = _error(_list(unit))
    assert err.where == f"list.json: {path}"
    assert err.value == value
    assert f"{path}: out of range (got {value})" in str(err)


def test_a0_weapon_is_kept() -> None:
    """formats/README pitfall "weapons with A0": kept, since some items have them."""
    army = parse_army_json(_list(_unit(weapons=[{"name": "Spotter", "attacks": 0, "range": 24}])))
    assert army.units[0].weapons == (Weapon("Spotter", 0, 24, 1),)


@pytest.mark.parametrize(
    ("field", "value"),
    [("attacks", True), ("attacks", 1.5), ("attacks", "2"), ("name", 7), ("count", None)],
)
def test_weapon_wrong_types(field: str, value: Any) -> None:
    weapon = {"name": "Gun", "attacks": 1, field: value}
    err = _error(_list(_unit(weapons=[weapon])))
    assert err.where == f"list.json: units[0].weapons[0].{field}"
    assert json.dumps(value) in str(err)


def test_missing_field() -> None:
    entry = _unit()
    del entry["defense"]
    err = _error(_list(entry))
    assert err.where == "list.json: units[0].defense"
    assert "required field is missing" in str(err)


def test_bad_rating_and_base_and_system() -> None:
    err = _error(_list(_unit(rules=[{"name": "Tough", "rating": "3+"}])))
    assert err.where == "list.json: units[0].rules[0].rating"
    assert '"3+"' in str(err)
    err = _error(_list(_unit(bases={"round": "60x35"})))
    assert err.where == "list.json: units[0].bases.round"
    assert '"60x35"' in str(err)
    err = _error(_list(_unit(), gameSystem=99))
    assert err.where == "list.json: gameSystem" and "99" in str(err)
    err = _error(_list(_unit(), gameSystem="g f"))
    assert '"g f"' in str(err)


def test_item_in_loadout_errors_have_json_paths() -> None:
    """Paths skip the weapon/item discriminator: loadout[1].content[0].name, not '<item>'."""
    item = {"type": "ArmyBookItem", "name": "Relic", "content": [{"name": 5}]}
    err = _error(_list(_unit(loadout=[{"name": "Claw", "attacks": 1}, item])))
    assert err.where == "list.json: units[0].loadout[1].content[0].name"
    assert "<" not in str(err)


@pytest.mark.parametrize(
    ("change", "field", "value"),
    [({"size": 0}, "size", 0), ({"cost": -5}, "cost", -5), ({"quality": 7}, "quality", 7)],
)
def test_values_are_read_as_given_and_judged_by_validation(
    change: dict[str, Any], field: str, value: int
) -> None:
    """Sizes, qualities, defenses, costs and attacks are read as any whole number: the
    validation judges them, the same for text and JSON (oprlab.units.validate)."""
    army = parse_army_json(_list(_unit(**change)))
    assert getattr(army.units[0], field) == value


def test_all_pydantic_errors_in_one_message() -> None:
    """Every problem of the file is listed on one line: a summary, then each, by '; '."""
    bad = _unit(size="x", weapons=[{"name": "Gun", "attacks": "x"}])
    err = _error(_list(_unit(), bad, _unit(name="")), "many.json")
    assert isinstance(err, ForgeJSONError)
    text = str(err)
    assert "\n" not in text
    head, rest = text.split(": ", 2)[:2], text.split("JSON: ", 1)[1]
    assert ": ".join(head) == "many.json: 3 problems in Army Forge JSON"
    parts = rest.split("; expected ")
    assert parts[0] == 'units[1].size: wrong type (got "x")'
    assert 'units[1].weapons[0].attacks: wrong type (got "x")' in text
    assert 'units[2].name: empty (got "")' in text
    assert [p.path for p in err.problems] == [
        "units[1].size",
        "units[1].weapons[0].attacks",
        "units[2].name",
    ]
    assert err.where == "many.json: units[1].size" and err.value == "x"


def test_wrong_types_in_a_top_level_array() -> None:
    err = _error(json.dumps([_unit(), 3]), "book.json")
    assert err.where == "book.json: [1]"
    assert "expected an object" in str(err)


def test_duplicate_selection_ids() -> None:
    err = _error(_list(_unit(selectionId="x1"), _unit(selectionId="x2"), _unit(selectionId="x1")))
    assert err.where == "list.json: units[2].selectionId"
    assert err.value == "x1" and "units[0]" in str(err)


def test_join_to_missing_unit() -> None:
    hero = _unit(name="Hero", size=1, selectionId="h", joinToUnit="nowhere")
    err = _error(_list(_unit(selectionId="s"), hero))
    assert err.where == "list.json: units[1].joinToUnit"
    assert err.value == "nowhere" and "not in the list" in str(err) and "'s'" in str(err)


def test_join_to_itself() -> None:
    err = _error(_list(_unit(selectionId="s", joinToUnit="s")))
    assert err.where == "list.json: units[0].joinToUnit" and err.value == "s"


def test_combined_second_half_without_partner() -> None:
    second = _unit(selectionId="b", combined=True, joinToUnit="a")
    err = _error(_list(second))
    assert err.where == "list.json: units[0].joinToUnit"
    assert err.value == "a" and "partner" in str(err)


def test_combined_first_half_without_partner() -> None:
    err = _error(_list(_unit(selectionId="a", combined=True, joinToUnit=None)))
    assert err.where == "list.json: units[0].combined"
    assert err.value is True and '"joinToUnit": "a"' in str(err)


def test_three_entries_combined() -> None:
    first = _unit(selectionId="a", combined=True)
    copies = [_unit(selectionId=s, combined=True, joinToUnit="a") for s in ("b", "c")]
    err = _error(_list(first, *copies))
    assert err.where == "list.json: units[2].joinToUnit"
    assert "already combined" in str(err) and err.value == "a"


def test_combined_with_a_second_half() -> None:
    first = _unit(selectionId="a", combined=True)
    second = _unit(selectionId="b", combined=True, joinToUnit="a")
    third = _unit(selectionId="c", combined=True, joinToUnit="b")
    err = _error(_list(first, second, third))
    assert err.where == "list.json: units[2].joinToUnit" and err.value == "b"


def test_bare_array_of_list_units_keeps_links() -> None:
    """A JSON list of shared-list units (with selectionId/joinToUnit) is read as a list."""
    hero = _unit(name="Hero", size=1, selectionId="h", joinToUnit="s")
    doc = [_unit(selectionId="s"), hero]
    assert detect_shape(doc) == "tts"
    army = parse_army_json(json.dumps(doc), "units.json")
    assert army.name == "units" and army.points == 200
    assert army.units[1].joined_to == "s"


def test_deeply_nested_rules_are_a_parse_error() -> None:
    rule: dict[str, Any] = {"name": "X"}
    for _ in range(600):
        rule = {"name": "X", "content": [rule]}
    err = _error({"units": [_unit(rules=[rule])]})
    assert "nested too deeply" in str(err)
    assert err.where is not None and err.where.startswith("list.json: units[0].rules[0].content")


def test_errors_are_user_errors() -> None:
    err = _error("[")
    assert isinstance(err, UserError) and isinstance(err, ValueError)


# --- writing -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["tts-2023-list.json", "tts-list.json", "army-book-units.json", "army-book.json"]
)
def test_fixture_round_trip(name: str) -> None:
    army = _parse_fixture(name)
    assert parse_army_json(format_army_json(army)) == army


def test_format_writes_current_shape() -> None:
    army = _parse_fixture("tts-2023-list.json")
    doc = json.loads(format_army_json(army))
    assert detect_shape(doc) == "tts"
    assert (doc["name"], doc["gameSystem"], doc["pointsLimit"]) == ("Ember Court", "gf", 750)
    assert doc["listPoints"] == army.cost == 400
    # The combined unit is written as two entries, the second pointing at the first.
    first, second = doc["units"][1], doc["units"][2]
    assert (first["selectionId"], first["combined"], first["joinToUnit"]) == ("sB2", True, None)
    assert (second["combined"], second["joinToUnit"]) == (True, "sB2")
    assert first["size"] + second["size"] == 10
    priest = doc["units"][0]
    assert priest["joinToUnit"] == "sB2"
    staff = priest["weapons"][0]
    assert staff["label"] == 'Ember Staff (18", A2, Blast(3), Reliable)'
    assert staff["range"] == 18 and staff["attacksMultiplier"] == 1
    assert doc["units"][1]["weapons"][1]["range"] == 0  # melee
    herald = doc["units"][4]
    assert herald["items"] == [
        {
            "name": "Horn of Embers",
            "type": "ArmyBookItem",
            "count": 1,
            "label": "Horn of Embers(Fear(1))",
            "content": [{"name": "Fear", "rating": 1, "label": "Fear(1)"}],
        }
    ]


def test_format_joins_by_name_get_a_selection_id() -> None:
    """Text lists join heroes by the target's name; JSON needs its selectionId."""
    squad = Unit("Drained Archers", 10, 5, 5, 135)
    hero = Unit("Champion", 1, 4, 4, 95, rules=(Rule("Hero"),), joined_to="Drained Archers")
    army = parse_army_json(format_army_json(Army("L", "AOF", 500, (hero, squad))))
    assert army.units[1].uid == "u2"
    assert army.units[0].joined_to == "u2"


@pytest.mark.parametrize(
    ("army", "where"),
    [
        (Army("L", "GF", 100, (Unit("A", 1, 4, 4, combined=True, uid="a"),)), "units[0].size"),
        (Army("L", "GF", 100, (Unit("A", 1, 4, 4, joined_to="zz"),)), "units[0].joined_to"),
        (Army("L", "GF", 100, (Unit("A", 1, 4, 4, uid="a"), Unit("B", 1, 4, 4, uid="a"))), None),
        (Army("L", "G F", 100), "system"),
        (Army("L", "GF", -1), "points"),
        (Army("L", "GF", 1, (Unit("A", 1, 4, 4, weapons=(Weapon("W", 1, 0),)),)), None),
        (Army("L", "GF", 1, (Unit("A", 1, 4, 4, rules=(Rule("R", count=0),)),)), None),
    ],
)
def test_format_refuses_what_it_cannot_write(army: Army, where: str | None) -> None:
    with pytest.raises(OptionError) as info:
        format_army_json(army)
    if where is not None:
        assert info.value.where == where


# --- properties --------------------------------------------------------------------------------

_names = st.sampled_from(["Rifle", "Blade", "Claw", "Fearless", "Tough", "Ünïcødé ✓", "a b"])
#: Names as a list holds them: no control characters (a reader shows those as U+FFFD).
_text = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=10)
_ratings = st.none() | st.integers(-3, 12)
_counts = st.none() | st.integers(1, 12)
_rules = st.recursive(
    st.builds(Rule, name=_names, rating=_ratings, count=_counts),
    lambda inner: st.builds(
        Rule,
        name=_names,
        rating=_ratings,
        count=_counts,
        rules=st.lists(inner, min_size=1, max_size=3).map(tuple),
    ),
    max_leaves=5,
)
_weapons = st.builds(
    Weapon,
    name=_names,
    attacks=st.integers(0, 4),
    range=st.none() | st.integers(1, 36),
    count=st.integers(1, 12),
    rules=st.lists(_rules, max_size=2).map(tuple),
)
_bases = st.none() | st.builds(
    Bases, round=st.none() | st.integers(0, 200), square=st.none() | st.integers(0, 200)
)
_units = st.builds(
    Unit,
    name=_names | _text.filter(bool),
    size=st.integers(1, 20),
    quality=st.integers(1, 6),
    defense=st.integers(1, 6),
    cost=st.integers(0, 400),
    rules=st.lists(_rules, max_size=4).map(tuple),
    weapons=st.lists(_weapons, max_size=4).map(tuple),
    bases=_bases,
)


@st.composite
def _armies(draw: st.DrawFn) -> Army:
    units = draw(st.lists(_units, max_size=6))
    with_ids: list[Unit] = []
    for i, unit in enumerate(units):
        uid = draw(st.sampled_from(["", f"sel{i}", f"{i}-é"]))
        combined = unit.size >= 2 and draw(st.booleans())
        if combined and not uid:
            uid = f"sel{i}"
        # Equal weapons and rules with other counts: the hard case for merging combined halves.
        extra_w = [replace(w, count=draw(st.integers(1, 9))) for w in unit.weapons[:2]]
        extra_r = [replace(r, count=draw(_counts)) for r in unit.rules[:2]]
        unit = replace(
            unit,
            weapons=unit.weapons + tuple(draw(st.permutations(extra_w))),
            rules=unit.rules + tuple(draw(st.permutations(extra_r))),
        )
        with_ids.append(replace(unit, uid=uid, combined=combined))
    targets = [u.uid for u in with_ids if u.uid]
    out: list[Unit] = []
    for unit in with_ids:
        others = [t for t in targets if t != unit.uid]
        join = draw(st.none() | st.sampled_from(others)) if others else None
        out.append(replace(unit, joined_to=join))
    return Army(
        name=draw(_text),
        system=draw(st.sampled_from(["", "GF", "GFF", "AOF", "AOFS", "AOFR", "GFR"])),
        points=draw(st.integers(0, 5000)),
        units=tuple(out),
        books=tuple(draw(st.lists(_text, max_size=3))),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_armies())
def test_round_trip(army: Army) -> None:
    """parse_army_json(format_army_json(a)) == a for armies the format can represent."""
    assert parse_army_json(format_army_json(army)) == army


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["3", "", "gff", "ArmyBookItem", "Fearless"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)
_keys = st.sampled_from(
    [
        "name",
        "size",
        "quality",
        "defense",
        "cost",
        "selectionId",
        "combined",
        "joinToUnit",
        "rules",
        "specialRules",
        "items",
        "loadout",
        "weapons",
        "equipment",
        "bases",
        "attacks",
        "range",
        "count",
        "rating",
        "content",
        "type",
        "round",
        "attacksMultiplier",
    ]
)
_unitish = st.recursive(
    _json_values,
    lambda inner: st.dictionaries(_keys, inner, max_size=8) | st.lists(inner, max_size=3),
    max_leaves=25,
)


def _only_user_errors(data: Any) -> None:
    try:
        result = parse_army_json(data, "fuzz.json")
    except UserError:
        return
    assert isinstance(result, Army)


@settings(max_examples=300, deadline=None)
@given(_json_values)
def test_garbage_json_values(value: Any) -> None:
    """Random JSON never raises anything but oprlab's UserError."""
    _only_user_errors(json.dumps(value))


@settings(max_examples=150, deadline=None)
@given(st.lists(_unitish, max_size=4), st.dictionaries(_keys, _json_values, max_size=3))
def test_garbage_units(units: list[Any], top: dict[str, Any]) -> None:
    """Unit-like garbage (Army Forge keys, random values) never raises but UserError."""
    _only_user_errors(json.dumps({**top, "units": units}))
    _only_user_errors(json.dumps(units))


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_garbage_text(text: str) -> None:
    _only_user_errors(text)


@settings(max_examples=200, deadline=None)
@given(st.binary())
def test_garbage_bytes(data: bytes) -> None:
    _only_user_errors(data)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _leaves(v, (*path, i))
    return out


_FIXTURES = [_doc(n) for n in ("tts-2023-list.json", "tts-list.json", "army-book-units.json")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_FIXTURES), st.data())
def test_mutated_fixtures(doc: Any, data: st.DataObject) -> None:
    """One value of a real-shaped list replaced by garbage: a clean Army or a UserError."""
    doc = copy.deepcopy(doc)
    path = data.draw(st.sampled_from(_leaves(doc)[1:]))
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = data.draw(_json_values)
    _only_user_errors(json.dumps(doc))
