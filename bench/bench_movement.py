"""Movement on the table: building the navigation graph, moving a unit, charging, deploying."""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import itertools
from collections.abc import Callable, Sequence

import numpy as np

from bench.harness import Result, measure, prose
from oprlab.game import geometry
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table import blockers as table_blockers
from oprlab.table import charge as table_charge
from oprlab.table.charge import charge_move
from oprlab.table.formation import formation, place_in_zone
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.movement import MoveRules, move_unit
from oprlab.table.paths import nav_graph
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army

TITLE = "Movement on the table"
NOTES = prose("movement")

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
    for points in ("150", "300"):
        calls = record_game_moves(points, (1,))
        out.append(
            measure(
                f"a {points}-pt game's table moves, replayed ({len(calls)} calls)",
                functools.partial(replay, calls),
                unit="games",
                budget=budget,
            )
        )
    return out


# --- a game's table moves, recorded and replayed -----------------------------------------------

#: The table layer's functions a game's moves go through (``oprlab.game.geometry`` calls them).
_SEAMS = (
    ("geometry", "move_unit"),
    ("charge", "charge_move"),
    ("charge", "pile_in"),
    ("charge", "separate"),
)


def _digest(value: object) -> str:
    """A hash of a result's arrays and numbers (a replay must give the same bits)."""
    h = hashlib.sha256()

    def add(x: object) -> None:
        if isinstance(x, np.ndarray):
            h.update(x.tobytes())
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                add(getattr(x, f.name))
        elif isinstance(x, tuple | list):
            for y in x:
                add(y)
        else:
            h.update(repr(x).encode())

    add(value)
    return h.hexdigest()


Recorded = list[tuple[Callable[..., object], tuple[object, ...], dict[str, object], str]]


def record_game_moves(size: str = "300", seeds: Sequence[int] = (1,)) -> Recorded:
    """Play GFF games between rules commanders on an open table (the bundled shooty and melee
    lists) and record each call into the table layer's moves: its arguments (copied before
    the call, sharing the table) and a hash of its answer."""
    modules = {"geometry": geometry, "charge": table_charge}
    calls: Recorded = []
    saved = {(m, n): getattr(modules[m], n) for m, n in _SEAMS}

    def recorder(fn: Callable[..., object]) -> Callable[..., object]:
        def wrapped(table: Table, *args: object, **kw: object) -> object:
            copied = copy.deepcopy((args, kw), {id(table): table})
            out = fn(table, *args, **kw)
            calls.append((fn, (table, *copied[0]), copied[1], _digest(out)))
            return out

        return wrapped

    a = load_army(sample_path(f"gff/shooty-{size}.txt"))
    b = load_army(sample_path(f"gff/melee-{size}.txt"))
    try:
        for (m, n), fn in saved.items():
            setattr(modules[m], n, recorder(fn))
        for seed in seeds:
            players = [get_commander("rules", seed), get_commander("rules", seed + 1)]
            play_game(a, b, players, seed=seed)
    finally:
        for (m, n), fn in saved.items():
            setattr(modules[m], n, fn)
    return calls


def _forget_moves() -> None:
    """Empty the caches a game fills move by move (blockers and charge reach), so a replay
    costs what the game paid, not what a second pass over the same positions would."""
    table_blockers._BLOCKERS.clear()
    table_blockers._PARTS.clear()
    table_charge._REACH.clear()


def replay(calls: Recorded) -> None:
    """Make every recorded call again; fail if any answer changed."""
    _forget_moves()
    for fn, args, kw, digest in calls:
        if _digest(fn(*args, **kw)) != digest:
            raise AssertionError(f"{fn.__name__} answered differently on replay")
