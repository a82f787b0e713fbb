"""The special-rule registry: every rule the seed texts name is known, aliases, unknown rules."""

from __future__ import annotations

import pytest

from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.special_rules import (
    RuleSpec,
    UnknownRule,
    iter_rules,
    known_rules,
    lookup,
    normalize,
    unknown_rules,
)

#: seed 003_8abb008d4113ed75 "SPECIAL RULES REFERENCE": every entry, Ambush to Unstoppable.
GFF_RULES = (
    "Ambush", "AP", "Bane", "Blast", "Caster", "Counter", "Deadly", "Fast", "Fear", "Fearless",
    "Flying", "Furious", "Hero", "Immobile", "Impact", "Indirect", "Limited", "Regeneration",
    "Relentless", "Reliable", "Rending", "Scout", "Slow", "Stealth", "Strider", "Surge", "Thrust",
    "Tough", "Unstoppable",
)  # fmt: skip
#: The rules of GFF that take a rating X, as the reference writes them: AP(X), Blast(X) ...
GFF_RATED = ("AP", "Blast", "Caster", "Deadly", "Fear", "Impact", "Tough")

#: seed 002_fdb385c07cc953af: "Critical Hit Abilities" (Furious, Rending, Shooty, Extra Shooty,
#: Blast[X], "Shooty and Shock"), "Special Rules" (Flying, Teleport), "Morale Tests" (Impact,
#: Take Down, Tough), "Remove Casualties" (Tough, Hero), deployment phases (Scout, Ambush),
#: "Beginning Phase" (Caster), "Rolling Dice" examples (Good Shot, Reliable, Stealth, AP), Rending
#: (Regeneration), "1" Spacing" (Transport).
RIVERSIDE_RULES = (
    "Furious", "Rending", "Shooty", "Extra Shooty", "Blast", "Shock", "Flying", "Teleport",
    "Tough", "Hero", "Scout", "Ambush", "Caster", "Impact", "Take Down", "Good Shot", "Reliable",
    "Stealth", "AP", "Regeneration", "Transport",
)  # fmt: skip

#: seed 000_e2a2d86473ae65c4 "Other Rules": the DOPR translation list.
DOPR_RULES = (
    "Aircraft", "AP", "Caster", "Entrenched", "Fearless", "Furious", "Impact", "Indirect",
    "Poison", "Regeneration", "Relentless", "Rending", "Stealth",
)  # fmt: skip


def _spec(name: str) -> RuleSpec:
    spec = lookup(name)
    assert spec is not None, name
    return spec


@pytest.mark.parametrize("name", GFF_RULES)
def test_gff_rules_known(name: str) -> None:
    """seed 003_8abb008d4113ed75 "SPECIAL RULES REFERENCE": each rule is known for gff."""
    spec = _spec(name)
    assert spec.name == name
    assert "gff" in spec.systems
    assert any("003_8abb008d4113ed75" in s for s in spec.sources)


def test_gff_ratings() -> None:
    """seed 003_8abb008d4113ed75 "SPECIAL RULES REFERENCE": exactly the (X) rules are rated."""
    rated = {name for name in GFF_RULES if _spec(name).rated}
    assert rated == set(GFF_RATED)
    assert all(_spec(n).needs_rating for n in GFF_RATED)


@pytest.mark.parametrize("name", RIVERSIDE_RULES)
def test_riverside_rules_known(name: str) -> None:
    """seed 002_fdb385c07cc953af: each rule the text names is known for riverside."""
    spec = _spec(name)
    assert spec.name == name
    assert "riverside" in spec.systems
    assert any("002_fdb385c07cc953af" in s for s in spec.sources)


@pytest.mark.parametrize("name", DOPR_RULES)
def test_dopr_rules_known(name: str) -> None:
    """seed 000_e2a2d86473ae65c4 "Other Rules": each translated rule is known for the clock."""
    spec = _spec(name)
    assert spec.name == name
    assert "clock" in spec.systems
    assert any("000_e2a2d86473ae65c4" in s for s in spec.sources)


def test_clock_only_for_the_dopr_list() -> None:
    """seed 000_e2a2d86473ae65c4 "Other Rules": "clock" means a translation exists, no more."""
    assert {s.name for s in known_rules() if "clock" in s.systems} == set(DOPR_RULES)


def test_registry_is_the_union_of_the_seed_lists() -> None:
    """No rule is known that no seed names: meanings are never invented."""
    assert {s.name for s in known_rules()} == set(GFF_RULES) | set(RIVERSIDE_RULES) | set(
        DOPR_RULES
    )


def test_known_rules_sorted_and_complete() -> None:
    """known_rules() lists each rule once, sorted, with a summary, source and carrier."""
    specs = known_rules()
    names = [s.name for s in specs]
    assert names == sorted(names, key=str.casefold)
    assert len(set(names)) == len(names)
    for s in specs:
        assert s.summary and len(s.summary) <= 100
        assert s.sources
        assert s.carried <= {"unit", "weapon"} and s.carried
        assert s.systems <= {"gff", "riverside", "clock"} and s.systems


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("extra shooty", "Extra Shooty"),
        ("EXTRA SHOOTY", "Extra Shooty"),
        ("Extra-Shooty", "Extra Shooty"),
        ("Blast[X]", "Blast"),
        ("Blast(X)", "Blast"),
        ("Blast(3)", "Blast"),
        ("blast [3]", "Blast"),
        ("AP(+4)", "AP"),
        ("AP 4", "AP"),
        ("Tough (6)", "Tough"),
        ("Tough(X)", "Tough"),
        ("good shot", "Good Shot"),
        ("Takedown", "Take Down"),
        ("  rending ", "Rending"),
    ],
)
def test_aliases_and_spellings(written: str, canonical: str) -> None:
    """seed 002_fdb385c07cc953af writes "Blast[X]", "AP 4", "Tough (6)"; seed 003 "Blast(X)"."""
    assert _spec(written).name == canonical


def test_normalize() -> None:
    assert normalize("Blast[X]") == normalize("BLAST(3)") == "blast"
    assert normalize("Extra_Shooty") == "extra shooty"


@pytest.mark.parametrize(
    "name", ["Banner", "Musician", "Poison in Melee", "Undead", "", "Toughest"]
)
def test_unknown_names(name: str) -> None:
    """Army Forge names that no seed defines stay unknown: no meaning is guessed."""
    assert lookup(name) is None


def test_carriers_and_ratings() -> None:
    """seed 003 "SPECIAL RULES REFERENCE": AP is a weapon's, Tough a unit's, with their X."""
    assert _spec("AP").carried == {"weapon"}
    assert _spec("Tough").carried == {"unit"}
    assert _spec("Tough").rating is not None
    assert _spec("Fearless").rating is None
    transport = _spec("Transport")
    assert transport.rated and not transport.needs_rating


def _army() -> Army:
    scouts = Unit(
        "Scout Pack",
        3,
        4,
        5,
        cost=60,
        rules=(
            Rule("Scout"),
            Rule("Stalker"),
            Rule("Banner", rules=(Rule("Fearless"), Rule("Odd"))),
        ),
        weapons=(
            Weapon("Rifle", 1, 24, count=3, rules=(Rule("AP", 1), Rule("Shred"))),
            Weapon("Knife", 1, count=3),
        ),
    )
    grunts = Unit(
        "Grunt Squad",
        5,
        5,
        5,
        cost=50,
        rules=(Rule("Good Shot"), Rule("Banner"), Rule("Regeneration", count=5)),
    )
    return Army("Test", "GFF", 200, (scouts, grunts))


def test_unknown_rules_reported_with_place() -> None:
    """Unknown rules are listed in order with their place; items are opened, not looked up."""
    found = unknown_rules(_army())
    assert found == [
        UnknownRule("units[0] 'Scout Pack' rules[1]", Rule("Stalker")),
        UnknownRule("units[0] 'Scout Pack' rules[2] 'Banner' rules[1]", Rule("Odd")),
        UnknownRule("units[0] 'Scout Pack' weapons[0] 'Rifle' rules[1]", Rule("Shred")),
        UnknownRule("units[1] 'Grunt Squad' rules[1]", Rule("Banner")),
    ]


def test_unknown_rules_kept_in_army() -> None:
    """Unknown rules are reported, never dropped: the army still carries them."""
    army = _army()
    unknown_rules(army)
    assert army.units[0].has("Stalker") and army.units[1].has("Banner")


def test_iter_rules_carriers() -> None:
    """iter_rules opens items and says whether a unit or a weapon carries each rule."""
    places = [(where, rule.name, carrier) for where, rule, carrier in iter_rules(_army())]
    assert places[:4] == [
        ("units[0] 'Scout Pack' rules[0]", "Scout", "unit"),
        ("units[0] 'Scout Pack' rules[1]", "Stalker", "unit"),
        ("units[0] 'Scout Pack' rules[2] 'Banner' rules[0]", "Fearless", "unit"),
        ("units[0] 'Scout Pack' rules[2] 'Banner' rules[1]", "Odd", "unit"),
    ]
    assert ("units[0] 'Scout Pack' weapons[0] 'Rifle' rules[0]", "AP", "weapon") in places
    assert all(name != "Banner" for where, name, _ in places if "rules[2] 'Banner'" in where)


def test_no_unknown_rules() -> None:
    army = Army("Clean", "GFF", 100, (Unit("A", 1, 4, 4, rules=(Rule("Tough", 3),)),))
    assert unknown_rules(army) == []
