"""Army validation: each check alone, then an army with many problems reported all at once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.validate import FORCE_ORG_SYSTEMS, Problem, errors, validate_army

RIFLE = Weapon("Rifle", 1, 24, count=5)
GRUNTS = Unit("Grunt Squad", 5, 5, 5, cost=50, weapons=(RIFLE,), uid="g1")
CAPTAIN = Unit(
    "Captain",
    1,
    4,
    4,
    cost=40,
    rules=(Rule("Hero"), Rule("Tough", 3)),
    weapons=(replace(RIFLE, count=1),),
    uid="c1",
)


def army(*units: Unit, points: int = 300, system: str = "GFF") -> Army:
    return Army("Test Army", system, points, units)


def test_fine_army_has_no_problems() -> None:
    assert validate_army(army(GRUNTS, replace(CAPTAIN, joined_to="g1"))) == []


def test_points_over_limit() -> None:
    """The list spends more than its points limit."""
    problems = validate_army(army(GRUNTS, replace(GRUNTS, uid="g2"), points=90))
    assert Problem("army", "spends 100pts, over the 90pts limit; remove at least 10pts") in problems


def test_points_no_limit() -> None:
    """A limit of 0 means no limit: spending is never over it."""
    assert validate_army(army(GRUNTS, points=0), force_org=False) == []


def test_negative_points_limit() -> None:
    (p,) = validate_army(army(GRUNTS, points=-5), force_org=False)
    assert p.where == "army" and "negative" in p.message


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"size": 0}, "size 0 is too small; expected at least 1 model"),
        ({"quality": 7}, "quality 7 is out of range; expected 2 to 6"),
        ({"quality": 1}, "quality 1 is out of range; expected 2 to 6"),
        ({"defense": 0}, "defense 0 is out of range; expected 2 to 6"),
        ({"cost": -10}, "cost -10pts is negative"),
        ({"name": " "}, "the unit has no name"),
    ],
)
def test_unit_values(change: dict[str, object], fragment: str) -> None:
    """Sizes >= 1, Quality and Defense 2..6 (seed 003 "DESIGN GUIDELINES": 2+ to 6+)."""
    unit = replace(GRUNTS, **change)  # type: ignore[arg-type]
    problems = validate_army(army(unit), force_org=False)
    assert len(problems) == 1
    assert problems[0].where == f"units[0] {unit.name!r}"
    assert fragment in problems[0].message


def test_weapon_a0_is_a_warning() -> None:
    """Army Forge has A0 items: reported, but only as a warning."""
    unit = replace(GRUNTS, weapons=(Weapon("Scanner", 0, 12),))
    (p,) = validate_army(army(unit), force_org=False)
    assert p == Problem(
        "units[0] 'Grunt Squad' weapons[0] 'Scanner'",
        "A0: the weapon makes no attacks and is ignored in combat",
        "warning",
    )
    assert errors([p]) == []


@pytest.mark.parametrize(
    ("weapon", "fragment"),
    [
        (Weapon("Rifle", -1, 24), "attacks A-1 is negative; expected A1 or more"),
        (Weapon("Rifle", 1, 24, count=0), "count 0 is too small; expected at least 1"),
        (Weapon("Rifle", 1, 0), 'range 0" is not a range'),
    ],
)
def test_weapon_values(weapon: Weapon, fragment: str) -> None:
    (p,) = validate_army(army(replace(GRUNTS, weapons=(weapon,))), force_org=False)
    assert p.where == "units[0] 'Grunt Squad' weapons[0] 'Rifle'"
    assert fragment in p.message and p.level == "error"


@pytest.mark.parametrize(
    ("rule", "fragment"),
    [
        (Rule("Tough"), "Tough: Tough needs a rating; write Tough(X)"),
        (Rule("Tough", 0), "Tough(0): the rating of Tough must be at least 1"),
        (Rule("Fearless", 2), "Fearless(2): Fearless takes no rating; write Fearless"),
        (Rule("Regeneration", count=0), "count 0 is too small"),
    ],
)
def test_rule_ratings(rule: Rule, fragment: str) -> None:
    """seed 003 "Tough(X)": a rated rule needs X >= 1; an unrated one takes none."""
    (p,) = validate_army(army(replace(GRUNTS, rules=(rule,))), force_org=False)
    assert p.where == "units[0] 'Grunt Squad' rules[0]"
    assert fragment in p.message


def test_rule_rating_optional() -> None:
    """Transport is named by seed 002 without a rating: both forms are accepted."""
    for rule in (Rule("Transport"), Rule("Transport", 11)):
        assert validate_army(army(replace(GRUNTS, rules=(rule,))), force_org=False) == []


def test_weapon_rule_rating_in_item() -> None:
    """Ratings are checked on weapons and inside items too."""
    weapon = Weapon("Cannon", 1, 24, rules=(Rule("Blast"),))
    unit = replace(GRUNTS, weapons=(weapon,), rules=(Rule("Banner", rules=(Rule("Caster"),)),))
    problems = validate_army(army(unit), force_org=False)
    assert [p.where for p in problems] == [
        "units[0] 'Grunt Squad' rules[0] 'Banner' rules[0]",
        "units[0] 'Grunt Squad' weapons[0] 'Cannon' rules[0]",
    ]


def test_unknown_rules_one_problem_each() -> None:
    """Unknown rules are warnings, one each, with their place; items are not looked up."""
    unit = replace(
        GRUNTS, rules=(Rule("Banner"), Rule("Standard", rules=(Rule("Fearless"), Rule("Odd"))))
    )
    problems = validate_army(army(unit), force_org=False)
    assert [(p.where, p.level) for p in problems] == [
        ("units[0] 'Grunt Squad' rules[0]", "warning"),
        ("units[0] 'Grunt Squad' rules[1] 'Standard' rules[1]", "warning"),
    ]
    assert problems[0].message.startswith("Banner: no rule of that name is known")


def test_join_to_missing_unit() -> None:
    (p,) = validate_army(army(GRUNTS, replace(CAPTAIN, joined_to="nobody")), force_org=False)
    assert p.where == "units[1] 'Captain'"
    assert "joined to 'nobody', which is no unit of the list" in p.message


def test_join_by_name() -> None:
    """Text lists join by name."""
    assert validate_army(army(GRUNTS, replace(CAPTAIN, joined_to="Grunt Squad"))) == []


def test_join_non_hero() -> None:
    (p,) = validate_army(army(GRUNTS, replace(GRUNTS, uid="g2", joined_to="g1")), force_org=False)
    assert p.where == "units[1] 'Grunt Squad'"
    assert "is not a Hero; only heroes join units" in p.message


def test_hero_joins_hero() -> None:
    other = replace(CAPTAIN, name="Major", uid="m1")
    (p,) = validate_army(army(other, replace(CAPTAIN, joined_to="m1")), force_org=False)
    assert p.where == "units[1] 'Captain'" and "which is a Hero" in p.message


def test_join_self_and_chain() -> None:
    me = replace(CAPTAIN, joined_to="c1")
    (p,) = validate_army(army(me), force_org=False)
    assert "joined to itself" in p.message
    chained = replace(GRUNTS, uid="g2", joined_to="g1")
    problems = validate_army(
        army(GRUNTS, chained, replace(CAPTAIN, joined_to="g2")), force_org=False
    )
    assert any("itself joined to another unit" in p.message for p in problems)


def test_duplicate_uid() -> None:
    (p,) = validate_army(army(GRUNTS, GRUNTS), force_org=False)
    assert p.where == "units[1] 'Grunt Squad'" and "already used by units[0]" in p.message


# --- Force Org: seed 003_8abb008d4113ed75 "Force Org (Optional)" -------------------------------


def _heroes(n: int) -> tuple[Unit, ...]:
    return tuple(replace(CAPTAIN, name=f"Captain {i}", uid=f"c{i}", cost=20) for i in range(n))


def test_force_org_heroes() -> None:
    """seed 003 "Force Org (Optional)": only up to 1 hero per (full) 150pts."""
    assert validate_army(army(*_heroes(2), points=300)) == []
    (p,) = validate_army(army(*_heroes(3), points=300))
    assert p.where == "army"
    assert p.message.startswith("3 heroes (units[0] 'Captain 0', ")
    assert "over the limit of 2 for 300pts" in p.message
    (p,) = validate_army(army(*_heroes(2), points=299))
    assert "over the limit of 1 for 299pts" in p.message


def test_force_org_one_hero_below_150() -> None:
    """Reading: at least one hero, even below 150pts."""
    assert validate_army(army(*_heroes(1), points=100)) == []


def test_force_org_copies() -> None:
    """seed 003 "Force Org (Optional)": 1+X copies of the same unit, X = 1 per 150pts."""
    three = tuple(replace(GRUNTS, uid=f"g{i}", cost=30, size=2) for i in range(3))
    assert validate_army(army(*three, points=300)) == []
    (p,) = validate_army(army(*three, points=299))
    assert p.where == "army"
    assert p.message.startswith("3 copies of 'Grunt Squad' (units[0], units[1], units[2])")
    assert "over the limit of 2" in p.message


def test_force_org_copies_ignore_upgrades_but_not_profile() -> None:
    """Copies share name, Quality and Defense; other weapons do not make a new unit."""
    a = replace(GRUNTS, uid="a", cost=30, size=2)
    b = replace(a, uid="b", weapons=(Weapon("Pistol", 1, 12),))
    c = replace(a, uid="c", quality=4)
    assert validate_army(army(a, b, c, points=150)) == []  # a, b: 2 copies; c differs
    (p,) = validate_army(army(a, b, replace(c, quality=5), points=150))
    assert p.message.startswith("3 copies of 'Grunt Squad' (units[0], units[1], units[2])")


def test_force_org_combined_counts_twice() -> None:
    """Reading: a combined unit counts as the two units it was made from."""
    combined = replace(GRUNTS, combined=True, size=4, cost=30)
    single = replace(GRUNTS, uid="g2", size=1, cost=20, weapons=(replace(RIFLE, count=1),))
    (p,) = validate_army(army(combined, single, points=149))
    assert p.message.startswith("3 copies of 'Grunt Squad'")


def test_force_org_35_percent() -> None:
    """seed 003 "Force Org (Optional)": no single unit over 35% of total points."""
    assert validate_army(army(replace(GRUNTS, cost=105), points=300)) == []
    (p,) = validate_army(army(replace(GRUNTS, cost=106), points=300))
    assert p == Problem(
        "units[0] 'Grunt Squad'", "costs 106pts, over 35% of 300pts; expected at most 105pts"
    )


def test_force_org_units_per_30pts() -> None:
    """seed 003 "Force Org (Optional)": max 1 unit per 30pts."""
    units = tuple(Unit(f"U{i}", 1, 4, 4, cost=10) for i in range(10))
    assert validate_army(army(*units, points=300)) == []
    problems = validate_army(army(*units, points=299))
    assert [p.message for p in problems] == [
        "10 units, over the limit of 9 for 299pts (1 per full 30pts); remove 1"
    ]


def test_force_org_models_per_full_20pts() -> None:
    """seed 003 "Force Org (Optional)": max 1 model per full 20pts."""
    assert validate_army(army(replace(GRUNTS, size=15, cost=90), points=300)) == []
    problems = validate_army(army(replace(GRUNTS, size=15, cost=90), points=299))
    assert [p.message for p in problems] == [
        "15 models, over the limit of 14 for 299pts (1 per full 20pts); remove 1"
    ]


def test_force_org_uses_spent_points_without_limit() -> None:
    """Reading: with no points limit, the points spent stand for the army's size."""
    problems = validate_army(army(replace(GRUNTS, size=4, cost=60), points=0))
    assert any(p.message.startswith("4 models, over the limit of 3 for 60pts") for p in problems)


def test_force_org_off_and_other_systems() -> None:
    """Force Org is optional, and only for the skirmish systems of seed 003."""
    big = army(replace(GRUNTS, size=40, cost=200), points=300)
    assert len(validate_army(big)) == 2  # 35% and models
    assert validate_army(big, force_org=False) == []
    assert validate_army(replace(big, system="GF")) == []
    assert len(validate_army(replace(big, system="aofs"))) == 2
    assert {"GFF", "AOFS"} == FORCE_ORG_SYSTEMS


def test_many_problems_at_once() -> None:
    """Every problem of a bad army comes back in one call, not just the first."""
    bad = Army(
        "Broken",
        "GFF",
        150,
        (
            Unit(
                "Brutes",
                0,
                7,
                4,
                cost=100,
                rules=(Rule("Tough"), Rule("Frenzy")),
                weapons=(Weapon("Claws", 0), Weapon("Spit", 1, 12, rules=(Rule("AP"),))),
                uid="b",
            ),
            Unit("Boss", 1, 3, 1, cost=60, rules=(Rule("Hero"),), joined_to="x", uid="h"),
            Unit("Runt", 9, 5, 6, cost=10, joined_to="b", uid="r"),
        ),
    )
    got = {(p.where, p.message.split(";")[0].split(":")[0], p.level) for p in validate_army(bad)}
    assert got == {
        ("army", "spends 170pts, over the 150pts limit", "error"),
        ("units[0] 'Brutes'", "size 0 is too small", "error"),
        ("units[0] 'Brutes'", "quality 7 is out of range", "error"),
        ("units[0] 'Brutes' weapons[0] 'Claws'", "A0", "warning"),
        ("units[1] 'Boss'", "defense 1 is out of range", "error"),
        ("units[1] 'Boss'", "joined to 'x', which is no unit of the list", "error"),
        ("units[2] 'Runt'", "joins units[0] 'Brutes' but is not a Hero", "error"),
        ("units[0] 'Brutes' rules[0]", "Tough", "error"),
        ("units[0] 'Brutes' rules[1]", "Frenzy", "warning"),
        ("units[0] 'Brutes' weapons[1] 'Spit' rules[0]", "AP", "error"),
        ("units[0] 'Brutes'", "costs 100pts, over 35% of 150pts", "error"),
        ("units[1] 'Boss'", "costs 60pts, over 35% of 150pts", "error"),
        ("army", "10 models, over the limit of 7 for 150pts (1 per full 20pts)", "error"),
    }


def test_problem_str() -> None:
    assert str(Problem("army", "bad")) == "army: bad"
    assert str(Problem("army", "odd", "warning")) == "army: odd (warning)"
