"""Whole games played by a checking commander: the scene the rules commander's shared
answers are compared with their one-by-one readings in (a generated table and an open one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from oprlab.game.play import play_game
from oprlab.players.base import Commander
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army


def play_checked(
    commander: Callable[[int], Commander],
    games: Sequence[tuple[int, bool]] = ((5, True), (6, False)),
) -> None:
    """Shooty-300 against melee-300 once per (seed, generated table?), each side commanded by
    ``commander(seed)`` and ``commander(seed + 1)``."""
    for seed, generated in games:
        a = load_army(sample_path("gff/shooty-300.txt"))
        b = load_army(sample_path("gff/melee-300.txt"))
        table = mission_table(seed) if generated else None
        play_game(a, b, [commander(seed), commander(seed + 1)], seed=seed, table=table)
