"""Seeded 300-point GFF games with whichever oprlab is first on ``PYTHONPATH`` (issue 13).

A side-by-side timing of two checkouts (``farm-bench --vs``) needs one command that runs
unchanged against either tree, including the code issue 13 measured (1af4b01), which predates
``bench.instructions``. It uses only the API both trees share. It plays the warm-up game and
seeds 1-10 (shooty-300 against melee-300, open table, d6, the commander named on both sides);
``--imports-only`` loads the modules and the armies and plays nothing, which is the process's
fixed cost to subtract::

    farm-bench -n 5 --vs "env PYTHONPATH=OLD/src .venv/bin/python bench/tree_games.py rules" \\
        -- env PYTHONPATH=src .venv/bin/python bench/tree_games.py rules
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> None:
    from oprlab.game.play import play_game
    from oprlab.players import get_commander
    from oprlab.samples import sample_path
    from oprlab.units.load import load_army

    names = [a for a in argv if not a.startswith("--")]
    commander = names[0] if names else "rules"
    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    if "--imports-only" in argv:
        return
    for seed in range(11):
        sides = [get_commander(commander, seed), get_commander(commander, seed + 1)]
        play_game(a, b, sides, seed=seed)


if __name__ == "__main__":
    main(sys.argv[1:])
