"""Movement on the table: building the navigation graph, moving a unit, charging, deploying."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from bench.harness import Result, measure
from oprlab.table.charge import charge_move
from oprlab.table.formation import formation, place_in_zone
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.movement import MoveRules, move_unit
from oprlab.table.paths import nav_graph
from oprlab.table.terrain import generate_table

TITLE = "Movement on the table"
NOTES = """
Tables are 48"x48" with 10 or 25 random rectangles (2-8" a side, turned at random) crowded
between the deployment zones, half impassable and half difficult (a stress test: most moves must
detour), and a table from `generate_table(1, pieces=20)` (the Riverside presets: hills, forests,
lakes, forest walls, ruins, ramps, barricades). A move is one unit's Rush (12") toward a
goal in the far half, round terrain and past another unit, as `move_unit` plays it: the centre's
path, the models' spots, every model's path and the difficult-terrain choice. Moves cycle
through 16 starts and goals per table. The navigation graph (corners of the inflated obstacles,
all-pairs shortest paths) is built once per table and base size and cached; its build time is
shown on its own and grows with the square of the obstacle corners (times their edges for the
visibility test). A move on an open stretch costs a few numpy calls per model; a move that has
to search round terrain costs a visibility test from its ends to every corner, so it grows
with the number of pieces; bigger units pay per model for spots and paths. Other units'
obstacles (and what the search learnt among them) are kept while those units stand still, so
the cycled moves here, past one unit that never moves, reuse them as a game's moves do.
"""

T = TerrainType


def random_table(seed: int, pieces: int) -> Table:
    """Rectangles between the deployment zones, alternately impassable and difficult."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(pieces):
        w, h = rng.uniform(2.0, 8.0, size=2)
        cx, cy = rng.uniform(3, 45), rng.uniform(15, 33)
        a = rng.uniform(0, np.pi)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        pts = (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2) @ rot.T + (cx, cy)
        kind = frozenset({T.IMPASSABLE}) if i % 2 == 0 else frozenset({T.DIFFICULT, T.COVER})
        out.append(TerrainPiece(f"piece {i}", tuple((float(x), float(y)) for x, y in pts), kind))
    return Table(pieces=tuple(out))


def _scenarios(
    table: Table, size: int, count: int = 16
) -> list[tuple[Placement, tuple[float, float]]]:
    rng = np.random.default_rng(size)
    out = []
    for _ in range(count * 4):
        unit = place_in_zone(table, size, 0.5, (0.0, 0.0, 48.0, 12.0), [], rng)
        if unit is None:
            continue
        goal = (float(rng.uniform(2, 46)), float(rng.uniform(26, 40)))
        out.append((unit, goal))
        if len(out) == count:
            break
    return out


def _mover(table: Table, size: int) -> Callable[[], object]:
    cases = itertools.cycle(_scenarios(table, size))
    other = Placement(formation(5, 0.5, (30.0, 44.0)), np.full(5, 0.5))
    rules = MoveRules()

    def go() -> object:
        unit, goal = next(cases)
        return move_unit(table, unit, [other], goal, 12.0, rules=rules)

    return go


def run(budget: float) -> list[Result]:
    out: list[Result] = []
    for pieces in (10, 25):
        table = random_table(pieces, pieces)

        def build(t: Table = table) -> object:
            return nav_graph(Table(t.width, t.depth, t.pieces), 0.5)  # a new table: no cache

        out.append(
            measure(f"nav graph build, {pieces} pieces", build, unit="graphs", budget=budget)
        )
        for size in (5, 10):
            out.append(
                measure(
                    f"move {size} models, {pieces} pieces",
                    _mover(table, size),
                    unit="moves",
                    budget=budget,
                )
            )
    generated = generate_table(1, pieces=20)
    out.append(
        measure(
            "move 5 models, generated table (20 pieces)",
            _mover(generated, 5),
            unit="moves",
            budget=budget,
        )
    )
    open_table = Table()
    out.append(
        measure("move 5 models, open table", _mover(open_table, 5), unit="moves", budget=budget)
    )
    attacker = Placement(formation(5, 0.5, (20.0, 12.0)), np.full(5, 0.5))
    target = Placement(formation(5, 0.5, (22.0, 22.0), (0.0, -1.0)), np.full(5, 0.5))
    out.append(
        measure(
            "charge 5 models into 5",
            lambda: charge_move(open_table, attacker, target, [], 12.0),
            unit="charges",
            budget=budget,
        )
    )
    rng = np.random.default_rng(0)
    table10 = random_table(10, 10)
    out.append(
        measure(
            "deploy 10 models in a zone",
            lambda: place_in_zone(table10, 10, 0.5, (0.0, 0.0, 48.0, 12.0), [], rng),
            unit="units",
            budget=budget,
        )
    )
    return out
