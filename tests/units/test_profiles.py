"""WWPD and DQ profile files: the examples load field by field, bad inputs name their path."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from oprlab.errors import ParseError
from oprlab.units.profiles import (
    DqArmour,
    DqCombatant,
    DqDefence,
    DqDefenceParts,
    DqStrikeParts,
    DqWeapon,
    WwpdForce,
    WwpdModel,
    WwpdWeapon,
    load_dq,
    load_wwpd,
    parse_damage,
)

DATA = Path(__file__).parents[1] / "data" / "profiles"
DOCS = Path(__file__).parents[2] / "docs" / "profiles.md"
WWPD_YAML = (DATA / "wwpd_example.yaml").read_text()
DQ_YAML = (DATA / "dq_example.yaml").read_text()


def _wwpd() -> WwpdForce:
    return load_wwpd(WWPD_YAML, "wwpd_example.yaml")


# --- WWPD -----------------------------------------------------------------------------------


def test_wwpd_example_units() -> None:
    """seed 004_b5c87f7769291d1c "Basic Characterisics": the example's profiles, field by field."""
    force = _wwpd()
    assert force.name == "Frontier Garrison"
    assert [u.name for u in force.units] == ["Colonial Rifles", "Hive Brutes", "Siege Crawler"]
    rifles, brutes, crawler = force.units
    assert rifles.size == 10
    assert rifles.models == (
        (9, WwpdModel("Rifleman", ranged_skill=2, melee_skill=1, leadership=4)),
        (1, WwpdModel("Sergeant", 2, 2, 3, melee_attacks=2)),
    )
    ((n, brute),) = brutes.models
    assert n == 3
    assert (brute.ranged_skill, brute.melee_skill, brute.leadership) == (0, 3, 2)
    assert (brute.toughness, brute.armor, brute.melee_attacks, brute.melee_defense) == (2, 1, 3, 1)
    assert not brute.vehicle
    ((_, hull),) = crawler.models
    assert hull.vehicle and hull.armor == 3 and hull.melee_attacks == 0


def test_wwpd_example_weapons() -> None:
    """seed 004_b5c87f7769291d1c "Weapons": range, Rate of Fire and ratings, ranged and melee."""
    rifles, brutes, crawler = _wwpd().units
    assert rifles.weapons == (
        (8, WwpdWeapon("Service Rifle", range=24, rate_of_fire=2)),
        (1, WwpdWeapon("Squad Support Gun", range=30, rate_of_fire=8, massive=1)),
        (10, WwpdWeapon("Bayonet")),
    )
    assert rifles.weapons[2][1].melee and not rifles.weapons[0][1].melee
    assert brutes.weapons == ((3, WwpdWeapon("Crushing Claws", massive=2, ap=1, melee_offense=1)),)
    ((_, mortar),) = crawler.weapons
    assert (mortar.range, mortar.rate_of_fire) == (48, 1)
    assert (mortar.massive, mortar.high_explosive, mortar.anti_tank, mortar.ap) == (2, 2, 1, 0)


def test_wwpd_json_loads_the_same() -> None:
    """JSON is accepted, and the JSON example is the YAML example."""
    text = (DATA / "wwpd_example.json").read_text()
    assert load_wwpd(text, "wwpd_example.json") == _wwpd()
    assert load_wwpd(json.dumps(yaml.safe_load(WWPD_YAML)), "x.json") == _wwpd()


def test_yaml_flow_mapping_is_not_mistaken_for_json() -> None:
    """A file starting with "{" that is YAML flow style, not JSON, still loads."""
    text = "{name: Tiny, units: [{name: Solo, models: [{name: A, ranged_skill: 1, " + (
        "melee_skill: 1, leadership: 5+}]}]}"
    )
    assert load_wwpd(text, "f.yaml").units[0].models[0][1].leadership == 5


def test_wwpd_leadership_as_number_or_target() -> None:
    """seed 004 "Basic Characterisics": Leadership is written as a target, 4+ (or just 4)."""
    a = load_wwpd(WWPD_YAML, "a").units[0].models[0][1]
    b = load_wwpd(WWPD_YAML.replace("leadership: 4+", "leadership: 4"), "b").units[0].models[0][1]
    assert a.leadership == b.leadership == 4


def _bad_wwpd(old: str, new: str) -> ParseError:
    assert old in WWPD_YAML
    with pytest.raises(ParseError) as info:
        load_wwpd(WWPD_YAML.replace(old, new, 1), "f.yaml")
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        # skills out of range (seed 004 "Basic Characterisics": 0..4)
        ("ranged_skill: 0", "ranged_skill: 5", "units[1].models[0].ranged_skill", "0 to 4"),
        ("melee_skill: 3", "melee_skill: -1", "units[1].models[0].melee_skill", "0 to 4"),
        ("leadership: 3+", "leadership: 7+", "units[0].models[1].leadership", "2+ to 6+"),
        ("leadership: 3+", "leadership: 1", "units[0].models[1].leadership", "2+ to 6+"),
        # negative ratings
        ("armor: 1", "armor: -1", "units[1].models[0].armor", "0 to 9"),
        ("massive: 1", "massive: -2", "units[0].weapons[1].massive", "0 to 9"),
        ("ap: 1", "ap: -1", "units[1].weapons[0].ap", "0 to 9"),
        ("anti_tank: 1", "anti_tank: -1", "units[2].weapons[0].anti_tank", "0 to 9"),
        ("high_explosive: 2", "high_explosive: -3", "units[2].weapons[0].high_explosive", "0 to 9"),
        ("melee_defense: 1", "melee_defense: -1", "units[1].models[0].melee_defense", "0 to 9"),
        # wrong types
        (
            "rate_of_fire: 8",
            'rate_of_fire: "8"',
            "units[0].weapons[1].rate_of_fire",
            "Rate of Fire",
        ),
        ("vehicle: true", "vehicle: 1", "units[2].models[0].vehicle", "armoured vehicle"),
        ("leadership: 3+", "leadership: four", "units[0].models[1].leadership", "2+ to 6+"),
        ("count: 9", "count: 2.5", "units[0].models[0].count", "from 1 to 100"),
        ("range: 24", "range: [24]", "units[0].weapons[0].range", "inches"),
        ("name: Frontier Garrison", "name: 7", "name", "non-empty name"),
        # counts and ranges
        ("count: 9", "count: 0", "units[0].models[0].count", "from 1 to 100"),
        ("range: 24", "range: 0", "units[0].weapons[0].range", "inches"),
    ],
)
def test_wwpd_bad_values(old: str, new: str, where: str, fragment: str) -> None:
    """Each bad value is reported with the source, its path, the value and what is expected."""
    err = _bad_wwpd(old, new)
    assert err.where == f"f.yaml: {where}"
    assert err.expected is not None and fragment in err.expected
    assert str(err).startswith(f"f.yaml: {where}: ")


@pytest.mark.parametrize(
    ("old", "new", "where"),
    [
        ("        melee_skill: 2\n", "", "units[0].models[1].melee_skill"),
        ("        leadership: 2\n", "", "units[1].models[0].leadership"),
        ("  - name: Hive Brutes\n", "  - nom: Hive Brutes\n", "units[1].nom"),
    ],
)
def test_wwpd_missing_and_misspelt_keys(old: str, new: str, where: str) -> None:
    err = _bad_wwpd(old, new)
    assert err.where == f"f.yaml: {where}"


def test_wwpd_unknown_key_lists_the_keys() -> None:
    """Unknown keys are rejected, naming the allowed ones."""
    err = _bad_wwpd("massive: 1", "massive: 1\n        rof: 3")
    assert err.where == "f.yaml: units[0].weapons[1].rof"
    assert err.value == "rof" and err.message == "unknown key"
    assert err.expected is not None and "rate_of_fire" in err.expected


def test_wwpd_misspelt_key_reports_the_unknown_one() -> None:
    """A misspelt key is reported as unknown, not as the missing key it should have been."""
    err = _bad_wwpd("        ranged_skill: 0\n", "        ranged_skil: 0\n")
    assert err.where == "f.yaml: units[1].models[0].ranged_skil"


def test_wwpd_missing_key_message() -> None:
    err = _bad_wwpd("        melee_skill: 2\n", "")
    assert err.message == "missing key" and err.expected == "a skill from 0 to 4"


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("        rate_of_fire: 1\n", "", "units[2].weapons[0]", "needs rate_of_fire"),
        ("      - name: Bayonet\n", "      - name: Bayonet\n        rate_of_fire: 2\n",
         "units[0].weapons[2]", "no rate_of_fire"),
        ("        rate_of_fire: 2\n", "        rate_of_fire: 2\n        melee_offense: 1\n",
         "units[0].weapons[0]", "melee weapons"),
        ("        melee_offense: 1\n", "        high_explosive: 1\n",
         "units[1].weapons[0]", "ranged weapons"),
    ],
)  # fmt: skip
def test_wwpd_weapon_kinds(old: str, new: str, where: str, fragment: str) -> None:
    """seed 004 "Weapons": ranged weapons have a Rate of Fire and HE; melee ones MD/MO."""
    err = _bad_wwpd(old, new)
    assert err.where == f"f.yaml: {where}"
    assert fragment in err.message


@pytest.mark.parametrize(
    ("text", "where", "fragment"),
    [
        ("", "f.yaml", "empty file"),
        ("# nothing\n", "f.yaml", "empty file"),
        ("just text", "f.yaml: (top level)", "not a mapping"),
        ("- a\n- b\n", "f.yaml: (top level)", "not a mapping"),
        ("name: [", "f.yaml:1:8", "invalid YAML"),
        ('{"name": 1', "f.yaml:1:11", "invalid JSON"),
        ("system: dq\nname: x\nunits: []\n", "f.yaml: system", "expected 'wwpd'"),
        ("system: 3\nname: x\nunits: []\n", "f.yaml: system", "expected 'wwpd'"),
        ("name: x\nunits: []\n", "f.yaml: units", "at least 1"),
        ("name: x\nunits:\n  - name: y\n    models: []\n", "f.yaml: units[0].models", "at least 1"),
        ("name: x\nunits: [3]\n", "f.yaml: units[0]", "not a mapping"),
    ],
)
def test_wwpd_bad_files(text: str, where: str, fragment: str) -> None:
    with pytest.raises(ParseError) as info:
        load_wwpd(text, "f.yaml")
    assert info.value.where == where
    assert fragment in str(info.value)


# Weapon traits of "Allocation of Hits" (invented weapons).
TRAITS_YAML = """
name: Marksmen
units:
  - name: Hunters
    models:
      - {name: Hunter, count: 2, ranged_skill: 3, melee_skill: 2, leadership: 4}
    weapons:
      - name: Marksman Rifle
        range: 36
        rate_of_fire: 1
        single_out: true
      - name: Hunter Cannon
        range: 36
        rate_of_fire: 2
        anti_tank: 2
        prefers: vehicle
      - name: Knife
        count: 2
"""


def test_wwpd_weapon_traits() -> None:
    """seed 004_b5c87f7769291d1c "Allocation of Hits": a weapon may permit the attacker to
    single out a target model, or to designate a preferred target type (vehicle or infantry,
    the one type distinction of a model profile); both default to off."""
    (hunters,) = load_wwpd(TRAITS_YAML, "t.yaml").units
    rifle, cannon, knife = (w for _, w in hunters.weapons)
    assert rifle == WwpdWeapon("Marksman Rifle", 36, 1, single_out=True)
    assert cannon == WwpdWeapon("Hunter Cannon", 36, 2, anti_tank=2, prefers="vehicle")
    assert not knife.single_out and knife.prefers is None
    infantry = TRAITS_YAML.replace("prefers: vehicle", "prefers: infantry")
    assert load_wwpd(infantry, "t.yaml").units[0].weapons[1][1].prefers == "infantry"
    assert all(not w.single_out and w.prefers is None for _, w in _wwpd().units[0].weapons)


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment", "value"),
    [
        ("prefers: vehicle", "prefers: tank", "weapons[1].prefers", "infantry or vehicle", "tank"),
        ("prefers: vehicle", "prefers: Vehicle", "weapons[1].prefers", "infantry or vehicle",
         "Vehicle"),
        ("prefers: vehicle", "prefers: [vehicle]", "weapons[1].prefers", "infantry or vehicle",
         ["vehicle"]),
        ("single_out: true", "single_out: 1", "weapons[0].single_out", "true", 1),
        ("single_out: true", "single_out: sometimes", "weapons[0].single_out", "true",
         "sometimes"),
    ],
)  # fmt: skip
def test_wwpd_weapon_traits_bad_values(
    old: str, new: str, where: str, fragment: str, value: object
) -> None:
    """A bad trait names its path, the value and what is allowed."""
    with pytest.raises(ParseError) as info:
        load_wwpd(TRAITS_YAML.replace(old, new), "t.yaml")
    assert info.value.where == f"t.yaml: units[0].{where}"
    assert info.value.value == value
    assert info.value.expected is not None and fragment in info.value.expected


@pytest.mark.parametrize("trait", ["single_out: true", "prefers: infantry"])
def test_wwpd_weapon_traits_are_for_ranged_weapons(trait: str) -> None:
    """seed 004 "Allocation of Hits" lists both traits under Shooting and Firefight only."""
    text = TRAITS_YAML.replace("      - name: Knife\n", f"      - name: Knife\n        {trait}\n")
    with pytest.raises(ParseError) as info:
        load_wwpd(text, "t.yaml")
    assert info.value.where == "t.yaml: units[0].weapons[2]"
    assert "ranged weapons" in info.value.message


# --- DQ -------------------------------------------------------------------------------------


def _dq() -> tuple[DqCombatant, ...]:
    return load_dq(DQ_YAML, "dq_example.yaml")


def test_dq_sellsword_from_parts() -> None:
    """seed 001_7377b7b33dc9f88d 57.3 "Strike Chance with ranked weapon": BC + MD + 4 x Rank +
    Magic + Modifiers = 55 + 15 + 12 + 0 - 10 = 72; "Defence Calculation": AG + shield."""
    sellsword, _ = _dq()
    assert sellsword.name == "Sellsword"
    assert sellsword.weapon == DqWeapon("Broadsword", "D10+1", 55)
    assert sellsword.weapon_rank == 3
    assert sellsword.strike_parts == DqStrikeParts(15, magic=0, modifiers=-10)
    assert sellsword.strike_chance == 72
    assert sellsword.defence_parts == DqDefenceParts(agility=14, shield=10)
    assert sellsword.defence == DqDefence(front=24, rear_flank=14, stunned=0)
    assert sellsword.armour == DqArmour(ft=4, en=2, dr=0)


def test_dq_duelist_given_directly() -> None:
    """A strike chance and defence given directly are kept as they are."""
    _, duelist = _dq()
    assert duelist.weapon == DqWeapon("Rapier", "D10", None)
    assert (duelist.weapon_rank, duelist.strike_chance) == (6, 92)
    assert duelist.strike_parts is None and duelist.defence_parts is None
    assert duelist.defence == DqDefence(31, 26, 5)
    assert duelist.armour == DqArmour(dr=1)


def test_dq_defence_by_facing() -> None:
    """seed 001 "Defence Calculation": front AG + shield + magic + modifiers; rear and flank
    without the shield; stunned only magical defence + modifiers."""
    parts = DqDefenceParts(agility=14, shield=10, magic=5, modifiers=-2, perception=3)
    d = DqDefence.from_parts(parts)
    assert d.value("front") == 14 + 3 + 10 + 5 - 2
    assert d.value("flank") == d.value("rear") == 14 + 5 - 2
    assert d.value("front", stunned=True) == d.value("rear", stunned=True) == 5 - 2


def test_dq_defence_shorthands() -> None:
    """A single number is the front and rear/flank Defence; rear_flank defaults to front."""
    text = DQ_YAML.replace(
        "    defence:\n      front: 31\n      rear_flank: 26\n      stunned: 5\n",
        "    defence: 40\n",
    )
    assert load_dq(text, "x")[1].defence == DqDefence(40, 40, 0)
    text = DQ_YAML.replace("      rear_flank: 26\n", "")
    assert load_dq(text, "x")[1].defence == DqDefence(31, 31, 5)


def test_dq_perception_option() -> None:
    """seed 001 57.3 "Defence: Front" adds PC; giving perception follows it."""
    text = DQ_YAML.replace("      shield: 10\n", "      shield: 10\n      perception: 12\n")
    assert load_dq(text, "x")[0].defence == DqDefence(36, 14, 0)


def test_dq_json_loads_the_same() -> None:
    assert load_dq((DATA / "dq_example.json").read_text(), "dq.json") == _dq()


@pytest.mark.parametrize(
    ("text", "dice"),
    [("D10", (1, 10, 0)), ("D10+2", (1, 10, 2)), ("2d6-1", (2, 6, -1)), (" D 10 + 3 ", (1, 10, 3))],
)
def test_parse_damage(text: str, dice: tuple[int, int, int]) -> None:
    assert parse_damage(text) == dice


@pytest.mark.parametrize("text", ["sword", "D0", "0D6", "D10+", "10", "D10*2"])
def test_parse_damage_bad(text: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_damage(text)
    assert info.value.value == text


def test_dq_damage_normalized() -> None:
    text = DQ_YAML.replace("damage: D10+1", "damage: d10 + 1")
    assert load_dq(text, "x")[0].weapon.damage == "D10+1"


def _bad_dq(old: str, new: str) -> ParseError:
    assert old in DQ_YAML
    with pytest.raises(ParseError) as info:
        load_dq(DQ_YAML.replace(old, new, 1), "d.yaml")
    return info.value


@pytest.mark.parametrize(
    ("old", "new", "where", "fragment"),
    [
        ("damage: D10+1", "damage: sword", "combatants[0].weapon.damage", "not a damage roll"),
        ("damage: D10+1", "damage: 10", "combatants[0].weapon.damage", "valid string"),
        ("      en: 2", "      en: -2", "combatants[0].armour.en", "greater than or equal to 0"),
        ("weapon_rank: 3", "weapon_rank: -1", "combatants[0].weapon_rank", "greater than"),
        ("weapon_rank: 3", "weapon_rank: three", "combatants[0].weapon_rank", "valid integer"),
        ("      agility: 14", "      agility: -4", "combatants[0].defence.agility", "greater"),
        ("      base_chance: 55\n", "", "combatants[0]", "base_chance is needed"),
        ("      base_chance: 55", "      base_chance: -5", "combatants[0].weapon.base_chance",
         "greater"),
        ("strike_chance: 92", "strike_chance: ninety", "combatants[1].strike_chance",
         "not a mapping"),
        ("strike_chance: 92", "strike_chance: true", "combatants[1].strike_chance",
         "not a mapping"),
        ("      stunned: 5\n", "      stunned: 5\n      agility: 3\n", "combatants[1].defence",
         "mixes a given Defence"),
        ("      agility: 14\n", "", "combatants[0].defence", "needs a number, front"),
        ("      front: 31\n", "", "combatants[1].defence", "needs front"),
        ("      manual_dexterity: 15\n", "", "combatants[0].strike_chance", "manual_dexterity"),
        ("    weapon_rank: 6\n", "    weapon_rank: 6\n    initiative: 3\n",
         "combatants[1].initiative", "unknown key"),
        ("      dr: 1", "      mr: 1", "combatants[1].armour.mr", "unknown key"),
    ],
)  # fmt: skip
def test_dq_bad_values(old: str, new: str, where: str, fragment: str) -> None:
    """Each bad value is reported with the source and its path."""
    err = _bad_dq(old, new)
    assert err.where == f"d.yaml: {where}"
    assert fragment in str(err)


def test_dq_missing_weapon() -> None:
    text = DQ_YAML.replace("      name: Rapier\n      damage: D10\n", "      name: Rapier\n")
    with pytest.raises(ParseError) as info:
        load_dq(text, "d.yaml")
    assert info.value.where == "d.yaml: combatants[1].weapon.damage"
    assert info.value.message == "missing key"


def test_dq_bad_files() -> None:
    with pytest.raises(ParseError, match="empty file"):
        load_dq("", "d.yaml")
    with pytest.raises(ParseError, match=r"d.yaml: combatants: .*at least 1"):
        load_dq("combatants: []", "d.yaml")
    with pytest.raises(ParseError, match=r"d.yaml: system: .*'wwpd'.*expected 'dq'"):
        load_dq(WWPD_YAML, "d.yaml")


# --- docs/profiles.md -----------------------------------------------------------------------


def _doc_blocks() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)


def test_docs_examples_load() -> None:
    """docs/profiles.md shows the full examples, and they load as documented."""
    wwpd, dq, *_ = _doc_blocks()  # then the DQ fighter (tests/units/test_dq_fighter.py)
    assert load_wwpd(wwpd, "docs") == _wwpd()
    assert load_dq(dq, "docs") == _dq()


def test_docs_mention_every_key() -> None:
    """Every key the format accepts is documented."""
    text = DOCS.read_text()
    keys = set(re.findall(r"^\s*-?\s*([a-z_]+):", WWPD_YAML + DQ_YAML, flags=re.MULTILINE))
    keys |= {"perception", "magic", "modifiers", "front", "rear_flank", "stunned", "dr"}
    for key in keys:
        assert f"`{key}`" in text or f"{key}," in text or f"{key}}}" in text, key
