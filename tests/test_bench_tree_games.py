"""bench/tree_games.py: the side-by-side command's script runs on this tree's API (issue 13)."""

from __future__ import annotations

from bench import tree_games


def test_imports_only_loads_the_armies_and_plays_nothing() -> None:
    tree_games.main(["rules", "--imports-only"])
