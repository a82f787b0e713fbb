"""Every commander carries a revision from the players' registry (``REVISIONS``), bumped when a
change alters its play, so a stored result says whose play made it (issue 15's left list)."""

from __future__ import annotations

import importlib

import pytest

from oprlab.errors import UserError
from oprlab.players.base import _MODULES, _TUNED, FAMILIES, REVISIONS, commander_revision


def test_every_registered_commander_has_a_revision() -> None:
    for modules in _MODULES.values():
        for module in modules:
            importlib.import_module(f"oprlab.players.{module}")
    for family, known in FAMILIES.items():
        # bench variants (``sx-...``, bench.search_pairs.register) another test may have added
        shipped = {n: r for n, r in REVISIONS[family].items() if r != "bench"}
        assert set(known) - set(REVISIONS[family]) == set(), family
        assert {n for n in known if REVISIONS[family][n] != "bench"} == set(shipped), family
        assert set(_TUNED[family]) <= set(shipped), family
        assert all(r.startswith("r") and r[1:].isdigit() for r in shipped.values())


@pytest.mark.parametrize(
    ("spec", "system", "revision"),
    [
        ("rules", None, "r2"),  # issue 14's habit fixes
        ("rules-v1", None, "r1"),  # the games rules played before them
        ("random", "riverside", "r1"),
        ("rules:0.2", None, "r2"),  # noise inherits
        ("search:50", "gff", "r4"),  # a budget inherits
        ("search:50:0.1", None, "r4"),
        ("search-v3:50", None, "r3"),  # the games search r3 played
        ("search-v2:50", None, "r2"),  # the games search r2 played
        ("rules", "wwpd", "r2"),
        ("rules-v1", "wwpd", "r1"),
    ],
)
def test_specs_inherit_their_commanders_revision(
    spec: str, system: str | None, revision: str
) -> None:
    assert commander_revision(spec, system=system) == revision


def test_an_unknown_spec_is_the_usual_error() -> None:
    with pytest.raises(UserError, match="unknown commander"):
        commander_revision("genius")
