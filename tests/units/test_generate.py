"""Random lists from a unit pool: legal under every limit (Force Org included), full, seeded,
and bad pools as one line naming the key."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.errors import ParseError
from oprlab.units.generate import generate_army, parse_pool
from oprlab.units.model import Army, Unit
from oprlab.units.text import format_army_text, parse_army_text
from oprlab.units.validate import errors, validate_army

POOL = """
name = "Test pool"
system = "GFF"
book = "Test Book (v1.0)"

[[units]]
text = '''
Rifles [2] Q4+ D5+ | 30pts | 2x Relentless
2x Rifle (24", A1, AP(1))
'''

[[units]]
text = '''
Captain [1] Q3+ D4+ | 45pts | Hero, Tough(3)
Sabre (A3, AP(1))
'''

[[units]]
text = '''
Brute [1] Q4+ D4+ | 50pts | Tough(3)
Claws (A3, AP(1))
'''
max = 1

[[units]]
text = '''
Horde [5] Q6+ D6+ | 40pts
5x Club (A1)
'''
"""


def _with(army: Army, unit: Unit) -> Army:
    return Army(army.name, army.system, army.points, (*army.units, unit), army.books)


@pytest.mark.parametrize("points", [150, 300, 500])
def test_lists_are_legal_and_full(points: int) -> None:
    """seed 003 'Force Org (Optional)': heroes, copies, 35%, units per 30pts, models per 20pts
    all hold, the list spends at most its limit, and no pool unit would still fit."""
    pool = parse_pool(POOL, "pool.toml")
    for seed in range(40):
        army = generate_army(pool, points, np.random.default_rng(seed))
        assert errors(validate_army(army)) == []
        assert army.cost <= points and army.points == points
        assert sum(u.name == "Brute" for u in army.units) <= 1  # the entry's max
        for entry in pool.units:
            at_max = entry.max is not None and (
                sum(u.name == entry.unit.name for u in army.units) >= entry.max
            )
            assert at_max or errors(validate_army(_with(army, entry.unit))), "not full"


def test_same_seed_same_list_and_text_round_trip() -> None:
    pool = parse_pool(POOL, "pool.toml")
    a = generate_army(pool, 300, np.random.default_rng(5))
    b = generate_army(pool, 300, np.random.default_rng(5))
    assert a == b
    lists = {
        format_army_text(generate_army(pool, 300, np.random.default_rng(s))) for s in range(20)
    }
    assert len(lists) > 5, "different seeds draw different lists"
    again = parse_army_text(format_army_text(a), "list.txt")
    assert errors(validate_army(again)) == [] and again.cost == a.cost


def test_draws_are_uniform_among_units_that_fit() -> None:
    """The first unit of a list is drawn with equal chance among the pool's units (all fit at
    150pts): each about a quarter of 2,000 lists."""
    pool = parse_pool(POOL, "pool.toml")
    firsts = [generate_army(pool, 150, np.random.default_rng(s)).units[0].name for s in range(2000)]
    for name in ("Rifles", "Captain", "Brute", "Horde"):
        assert abs(firsts.count(name) / 2000 - 0.25) < 0.04


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("name = 'x'\n[[units]]\ntxt = 'a'\n", "pool.toml: units[0].txt", "unknown key"),
        ("[[units]]\ntext = 'a'\n", "pool.toml: name", "missing key"),
        ("name = 'x'\n", "pool.toml: units", "missing key"),
        ("name = 'x'\nunits = [", "pool.toml", "not TOML"),
        (
            "name = 'x'\n[[units]]\ntext = \"Foo [1] Q4+ D9 | 10pts\\nA (A1)\"\n",
            "pool.toml: units[0].text:1",
            "no defense",
        ),
        (
            "name = 'x'\n[[units]]\ntext = \"2x Foo [1] Q4+ D4+ | 10pts\\nA (A1)\"\n",
            "pool.toml: units[0].text",
            "holds 2 units",
        ),
        (
            "name = 'x'\n[[units]]\ntext = \"Foo [1] Q4+ D4+ | 10pts\\nA (A1)\"\nmax = 0\n",
            "pool.toml: units[0].max",
            "greater than or equal to 1",
        ),
        (
            "name = 'x'\n[[units]]\ntext = \"Foo [1] Q4+ D4+ | 10pts\\nA (A1)\"\n"
            '[[units]]\ntext = "Foo [1] Q4+ D4+ | 20pts\\nB (A1)"\n',
            "pool.toml: units[1].text",
            "the same unit as units[0]",
        ),
    ],
)
def test_bad_pools_name_the_key(text: str, where: str, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_pool(text, "pool.toml")
    assert str(info.value).startswith(where) and words in str(info.value)


def test_points_too_small_is_one_line() -> None:
    pool = parse_pool(POOL, "pool.toml")
    with pytest.raises(ParseError, match="no unit of the pool fits in 20pts"):
        generate_army(pool, 20, np.random.default_rng(0))
    with pytest.raises(ParseError, match="points limit out of range"):
        generate_army(pool, 0, np.random.default_rng(0))
