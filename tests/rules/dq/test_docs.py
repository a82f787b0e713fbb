"""docs/rules/dq.md stays true: no clause of seed 001_7377b7b33dc9f88d left "not yet", every test
it cites exists, every 57.3 equation is cited by a test, and the rule options table matches
``DuelRules``."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from oprlab.rules.dq.duel_rules import DuelRules

ROOT = Path(__file__).parents[3]
DOC = (ROOT / "docs" / "rules" / "dq.md").read_text(encoding="utf-8")
TESTS = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("test_*.py"))

#: Every line of the seed's "57.3 Combat Equation Summary", as the tests cite it.
EQUATIONS_57_3 = (
    "Engaged Initiative",
    "Unengaged Initiative",
    "Strike Chance with ranked weapon",
    "Shield Rush",
    "Disarm",
    "Trip",
    "Knockout",
    "Entangle",
    "Restrain",
    "Trample (by multihex figure)",
    "Fumble",
    "Defence: Front",
    "Defence: Rear or Flank",
    "Defence: Stunned",
    "Withdraw from close combat",
    "Repulse a charge attack",
    "Stay conscious",
    "Stun recovery",
    "Parry result",
)


def _rows() -> list[str]:
    return [line for line in DOC.splitlines() if line.startswith("| ")]


def test_no_clause_is_left_not_yet() -> None:
    assert not [row for row in _rows() if "not yet" in row.lower()]
    assert "## Not yet" not in DOC


def test_every_cited_test_exists() -> None:
    cited = set(re.findall(r"`(test_\w+)`", DOC))
    assert cited
    missing = sorted(name for name in cited if f"def {name}(" not in TESTS)
    assert not missing


def test_every_57_3_equation_is_cited_by_a_test() -> None:
    """A test docstring quotes each equation: ``57.3 "Engaged Initiative``, ..."""
    for name in EQUATIONS_57_3:
        assert f'57.3 "{name}' in TESTS, name


def test_rule_options_table_matches_duel_rules() -> None:
    section = DOC.split("## Rule options of a duel", 1)[1].split("\n## ", 1)[0]
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `(\w+)` \| `([^`]+)` \|", section, flags=re.MULTILINE)
    }
    fields = {f.name: f.default for f in dataclasses.fields(DuelRules) if f.name != "resolution"}
    assert set(rows) == set(fields)
    for name, default in fields.items():
        assert rows[name] == str(default).lower(), name
