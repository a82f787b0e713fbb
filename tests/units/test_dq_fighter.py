"""DragonQuest fighter files (docs/profiles.md "DragonQuest fighters"): the shipped archetypes
load with the numbers their comments promise, and every bad value is named by its path."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oprlab.errors import ParseError
from oprlab.rules.dq.combat import defence, engaged_initiative, strike_chance
from oprlab.samples import sample_names, sample_text
from oprlab.units.dq_fighter import DqFighter, load_dq_fighter

DOCS = Path(__file__).parents[2] / "docs" / "profiles.md"
KNIGHT = sample_text("dq/knight")
ARCHETYPES = ("novice", "knight", "master", "champion", "brute", "cutthroat", "watchman")


def _load(name: str) -> DqFighter:
    return load_dq_fighter(sample_text(f"dq/{name}"), name)


def test_the_archetypes_are_shipped_and_load() -> None:
    """Seven invented fighters, each a file of its own beside the older duel.yaml."""
    names = {n for n in sample_names() if n.startswith("dq/")}
    assert {f"dq/{a}.yaml" for a in ARCHETYPES} <= names
    for name in ARCHETYPES:
        fighter = _load(name)
        assert fighter.name and fighter.weapon.die == 10


def test_knight_numbers() -> None:
    """seed 001 57.3: the knight's Strike Chance 55 + 14 + 4 x 5 = 89, front Defence 13 + 15 =
    28, engaged initiative 12 + 13 + 5 + 4 = 34."""
    knight = _load("knight")
    assert knight.characteristics.ps == 18 and knight.characteristics.wp == 15
    assert knight.weapon.damage == "D10+4" and knight.weapon.modifier == 4
    assert knight.shield is not None and knight.shield.defence == 15
    assert (knight.armour.ft, knight.armour.en, knight.armour.dr) == (5, 3, 0)
    assert knight.skills.military_scientist == 3 and knight.skills.warrior == 4
    assert (strike_chance(knight), defence(knight), engaged_initiative(knight)) == (89, 28, 34)


def test_archetype_promises() -> None:
    """What the archetypes' comments say: the master's SC is above 100, the champion's above
    200; the brute fills 2 hexes; the cutthroat is an assassin; the watchman fights to capture."""
    assert strike_chance(_load("master")) > 100
    assert strike_chance(_load("champion")) > 200
    assert _load("brute").hexes == 2 and _load("brute").weapon.two_handed
    assert _load("cutthroat").skills.assassin == 9
    assert _load("watchman").aim == "capture"
    assert _load("novice").weapon.pole and _load("novice").weapon.rank == 0


def _bad(old: str, new: str) -> ParseError:
    assert old in KNIGHT, old
    with pytest.raises(ParseError) as info:
        load_dq_fighter(KNIGHT.replace(old, new, 1), "k.yaml")
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("PS: 18", "PS: 180", "characteristics.PS", "less than or equal to 99"),
        ("PS: 18", "PS: -1", "characteristics.PS", "greater than or equal to 0"),
        ("EN: 18", "EN: 0", "characteristics.EN", "greater than or equal to 1"),
        ("PS: 18", "ps: 18", "characteristics.ps", "unknown key"),
        ("PS: 18, ", "", "characteristics.PS", "missing key"),
        ("WP: 15", 'WP: "15"', "characteristics.WP", "valid integer"),
        ("damage: D10+4", "damage: 2D10", "weapon.damage", "one die"),
        ("damage: D10+4", "damage: sword", "weapon.damage", "not a damage roll"),
        ("damage: D10+4", "damage: D10+99", "weapon.damage", "modifier"),
        ("rank: 5", "rank: 11", "weapon.rank", "less than or equal to 10"),
        ("base_chance: 55", "base_chance: 101", "weapon.base_chance", "less than or equal"),
        ("defence: 15", "defence: big", "shield.defence", "valid integer"),
        ("  en: 3", "  en: -3", "armour.en", "greater than or equal to 0"),
        ("warrior: 4", "warrior: 12", "skills.warrior", "less than or equal to 10"),
        ("warrior: 4", "wizard: 4", "skills.wizard", "unknown key"),
        ("military_scientist: 3", "military_scientist: true", "skills.military_scientist",
         "valid integer"),
        ("name: Sir Odo Brannock", "name: ''", "name", "at least 1 character"),
    ],
)  # fmt: skip
def test_bad_values_are_named_by_path(old: str, new: str, where: str, fragment: str) -> None:
    """Each bad value is reported with the file, the key path, and what would be right."""
    err = _bad(old, new)
    assert err.where == f"k.yaml: {where}"
    assert fragment in str(err)


def test_bad_files() -> None:
    """Other kinds of file are named as such; an unknown aim lists the two."""
    with pytest.raises(ParseError, match="empty file"):
        load_dq_fighter("", "f.yaml")
    with pytest.raises(ParseError, match=r"f.yaml: combatants: .*cannot fight a duel"):
        load_dq_fighter(sample_text("dq/duel.yaml"), "f.yaml")
    with pytest.raises(ParseError, match=r"f.yaml: system: .*'wwpd'"):
        load_dq_fighter(sample_text("wwpd/colonial.yaml"), "f.yaml")
    with pytest.raises(ParseError, match=r"f.yaml: aim: .*'kill' or 'capture'"):
        load_dq_fighter(KNIGHT + "aim: maim\n", "f.yaml")
    with pytest.raises(ParseError, match="invalid YAML"):
        load_dq_fighter("name: [", "f.yaml")


def test_json_is_read_too() -> None:
    text = (
        '{"name": "X", "characteristics": {"PS": 1, "MD": 2, "AG": 3, "MA": 4, "EN": 5, '
        '"FT": 6, "WP": 7, "PC": 8}, "weapon": {"name": "w", "base_chance": 40, "damage": "D6"}}'
    )
    fighter = load_dq_fighter(text, "x.json")
    assert fighter.weapon.die == 6 and fighter.weapon.modifier == 0 and fighter.shield is None
    assert fighter.characteristics.pc == 8 and fighter.aim == "kill"


def test_docs_example_loads() -> None:
    """docs/profiles.md shows a fighter file, and it loads."""
    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    fighters = [b for b in blocks if "characteristics:" in b]
    assert len(fighters) == 1
    assert load_dq_fighter(fighters[0], "docs") == _load("knight")
