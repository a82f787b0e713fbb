"""The paired design: cells that differ only by a factor, played on the same seeds in both seats.

Seed ``i`` of an experiment is ``child_seed(experiment seed, i)`` (:mod:`oprlab.rng`), the same
in every cell, and it is played twice: seat 0 puts army A on side A (the first side), seat 1
swaps the armies. The game seed splits into the dice, table and commander streams, so the two
seats of a seed roll the same dice (the same roll-offs: each army goes first in one of them,
and first-mover advantage cancels in the seed's mean) and two cells of a seed differ only by
their factor (common random numbers). Who went first is recorded per game.

Results are in the armies' frame (index 0 is army A of the matchup, whichever side it
played), so a seed's score is the mean of its two seats.

May import game, players, table, units, rng; the analysis layer's own stores sit above.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from oprlab.analysis.lab.attribution import Attribution, UnitRecord, unit_lost
from oprlab.analysis.lab.model import Experiment, reading_pairs
from oprlab.errors import ParseError
from oprlab.files import read_text
from oprlab.game import deploy_search
from oprlab.game.options import parse_options
from oprlab.game.play import play_game
from oprlab.game.system import RuleSystem
from oprlab.game.systems import VERSIONS, find_system
from oprlab.players import get_commander
from oprlab.players.base import commander_revision
from oprlab.rng import child_seed, commander_stream
from oprlab.table.model import Table
from oprlab.table.terrain import generate_table, load_table
from oprlab.units.formats import army_format
from oprlab.units.generate import Pool, generate_army, parse_pool
from oprlab.units.model import Army
from oprlab.version import __version__

__all__ = [
    "FACTORS",
    "Cell",
    "GameRecord",
    "build_cells",
    "experiment_hash",
    "play_cell_game",
]

#: The factors of a cell, in the order cells are crossed and labelled.
FACTORS = ("system", "mechanic", "readings", "commanders", "table", "first")


@dataclass(frozen=True)
class Cell:
    """One combination of a matchup and a level of every factor: what its games play."""

    index: int
    key: str  # a hash of what decides its games: the store's key
    matchup: int
    armies: tuple[Army, Army]
    army_refs: tuple[str, str]
    levels: dict[str, Any]  # factor -> level as written in the file
    commanders: tuple[str, str]  # army A's, army B's
    options: Any  # the system's readings object (None: defaults)
    table: Table | None  # a fixed table (open: None; generated: made per seed)
    generated: bool = False
    pools: tuple[Pool | None, Pool | None] = (None, None)  # sides drawn from a pool per seed
    points: int = 0  # the points limit of pool sides
    revisions: tuple[str, str] = ("", "")  # army A's and B's commander revisions
    dice: str = "stream"  # the experiment's dice design (play_game's ``dice``)

    @property
    def system(self) -> str:
        return str(self.levels["system"])

    @property
    def mechanic(self) -> str:
        return str(self.levels["mechanic"])

    def label(self, factors: Sequence[str] = FACTORS) -> str:
        """The cell's levels of ``factors`` in words (``mechanic=clock``)."""
        return ", ".join(f"{f}={_level_text(self.levels[f])}" for f in factors)


def _level_text(level: Any) -> str:
    if isinstance(level, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in level.items()) + "}" if level else "defaults"
    if isinstance(level, list):
        return "/".join(map(str, level))
    return str(level)


@dataclass(frozen=True)
class GameRecord:
    """One finished game, in the armies' frame (index 0: army A of the matchup).

    Attributes:
        cell: the cell's key. seed_index: which seed of the experiment. seat: 0 if army A
        played side A, 1 if the armies were swapped. game_seed: the game's own seed.
        winner: 0 (army A), 1 (army B) or None (a draw). first: the army that went first in
        round 1. objectives, models_lost, points_lost, revisions (the commanders' revisions):
        per army, at the end. rounds,
        decisions: the game's length. lead_changes: how often the lead on objectives passed
        from one army to the other between round ends. decided_last_round: the army ahead
        before the last round (or a tie then) is not the result.
    """

    cell: str
    seed_index: int
    seat: int
    game_seed: int
    winner: int | None
    first: int
    objectives: tuple[int, int]
    models_lost: tuple[int, int]
    points_lost: tuple[float, float]
    rounds: int
    decisions: int
    lead_changes: int
    decided_last_round: bool
    units: tuple[UnitRecord, ...] = ()
    handicap: int = 0  # points added to army A's limit (a pool side; the handicap search)
    revisions: tuple[str, str] = ("", "")  # the commanders' revisions (players.base.REVISIONS)

    @property
    def score_a(self) -> float:
        """Army A's score: a win 1, a draw one half, a loss 0."""
        return 0.5 if self.winner is None else float(self.winner == 0)


def experiment_hash(exp: Experiment, cells: Sequence[Cell]) -> str:
    """A hash of what decides the experiment's games: the file's seed, matchups and factors,
    the armies' content (not their file names), the procedures' versions and oprlab's."""
    blob = {
        "decided": exp.decided(),
        "cells": [c.key for c in cells],
        "versions": VERSIONS,
        "oprlab": __version__,
    }
    return _hash(blob)


def _hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _army_digest(army: Army) -> str:
    return _hash(repr(army))


def build_cells(
    exp: Experiment,
    *,
    load: Callable[[Sequence[tuple[str, str]]], Sequence[Army]] | None = None,
    source: str = "<experiment>",
) -> list[Cell]:
    """Every cell of ``exp``: matchups crossed with every factor's levels, in file order.

    Args:
        load: reads the armies ``[(label, ref), ...]`` (the command line checks them as
            ``battle`` does); by default the systems' army format (Army Forge lists for the
            OPR systems, forces for WWPD: :func:`oprlab.units.formats.army_format`).
        source: the experiment file, for errors about its tables.
    """
    reader = army_format(find_system(exp.factors.system[0]).army_format)  # one per file
    read = load or (lambda refs: [reader.load(ref) for _, ref in refs])
    armies: list[tuple[Army, Army]] = []
    pools: list[tuple[Pool | None, Pool | None]] = []
    for i, mu in enumerate(exp.matchups):
        found = (_pool(mu.pool("a"), source, i, "a"), _pool(mu.pool("b"), source, i, "b"))
        refs = [(f"matchups[{i}].{k} ", ref) for k, ref, p in (("a", mu.a, found[0]),
                ("b", mu.b, found[1])) if p is None]  # fmt: skip
        got = iter(read(refs) if refs else [])
        drawn = [_pool_army(p, mu.points or 0) if p is not None else next(got) for p in found]
        armies.append((drawn[0], drawn[1]))
        pools.append(found)
    tables = {lv: _fixed_table(lv, source, i) for i, lv in enumerate(exp.factors.table)}
    f = exp.factors
    cells: list[Cell] = []
    for m, (a, b) in enumerate(armies):
        for system, mechanic, reading, commanders, table, first in itertools.product(
            f.system, f.mechanic, f.readings, f.commanders, f.table, f.first
        ):
            pair = (commanders, commanders) if isinstance(commanders, str) else tuple(commanders)
            levels = {
                "system": system,
                "mechanic": mechanic,
                "readings": reading,
                "commanders": commanders,
                "table": table,
                "first": first,
            }
            fixed = tables[table]
            revisions = (
                commander_revision(str(pair[0]), system=system),
                commander_revision(str(pair[1]), system=system),
            )
            key = _hash(
                {
                    "armies": [_army_digest(a), _army_digest(b)],
                    "levels": levels,
                    "revisions": list(revisions),
                    "table": None if fixed is None else _hash(repr(fixed)),
                    "version": find_system(system).version,
                    **({"dice": exp.dice} if exp.dice != "stream" else {}),
                }
            )
            cells.append(
                Cell(
                    index=len(cells),
                    key=key,
                    matchup=m,
                    armies=(a, b),
                    army_refs=(exp.matchups[m].a, exp.matchups[m].b),
                    levels=levels,
                    commanders=(str(pair[0]), str(pair[1])),
                    options=parse_options(system, reading_pairs(reading)),
                    table=fixed,
                    generated=table == "generated",
                    pools=pools[m],
                    points=exp.matchups[m].points or 0,
                    revisions=revisions,
                    dice=exp.dice,
                )
            )
    return cells


def _pool(path: str | None, source: str, i: int, side: str) -> Pool | None:
    """The pool of a ``pool:FILE`` side (None for an army), errors naming the matchup."""
    if path is None:
        return None
    where = f"{source}: matchups[{i}].{side}"
    try:
        text = read_text(path, "pool file", "a TOML unit pool (docs/experiments.md)")
    except ParseError as exc:
        raise ParseError(exc.message, value=path, where=where, expected=exc.expected) from None
    return parse_pool(text, path)


def _pool_army(pool: Pool, points: int) -> Army:
    """A pool as one 'army' of all its units: what the cell's key, names and exact odds see."""
    units = tuple(p.unit for p in pool.units)
    return Army(name=f"{pool.name} (pool)", system=pool.system, points=points, units=units)


#: Seed streams of a game seed used by the lab beyond the game's own four (dice, table,
#: commanders): 4 and 5 draw army A's and army B's lists from a pool.
LIST_STREAMS = (4, 5)


def draw_armies(cell: Cell, game_seed: int, handicap: int = 0) -> tuple[Army, Army]:
    """The seed's two armies: fixed ones as they are, pool sides drawn from the seed's list
    streams (the same lists in both seats), army A's at ``points + handicap``."""
    out = list(cell.armies)
    for k, pool in enumerate(cell.pools):
        if pool is not None:
            rng = np.random.default_rng(child_seed(game_seed, LIST_STREAMS[k]))
            points = cell.points + (handicap if k == 0 else 0)
            out[k] = generate_army(pool, points, rng, f"{pool.name} {'AB'[k]} {points}pts")
    return out[0], out[1]


def _fixed_table(level: str, source: str, i: int) -> Table | None:
    if not level.startswith("file:"):
        return None
    path = level.removeprefix("file:")
    try:
        text = read_text(path, "terrain file", "a terrain JSON file")
    except ParseError as exc:
        raise ParseError(
            f"cannot read the terrain file ({exc.message})",
            value=path,
            where=f"{source}: factors.table[{i}]",
            expected="file:PATH of a readable terrain JSON file",
        ) from None
    return load_table(text, path)


@lru_cache(maxsize=16)
def _generated(game_seed: int) -> Table:
    """The seed's generated table (its table stream), made once per worker for all cells."""
    return generate_table(game_seed)


def play_cell_game(
    cell: Cell, seed_index: int, seat: int, experiment_seed: int, handicap: int = 0
) -> GameRecord:
    """Play seed ``seed_index`` of ``cell`` in ``seat`` (a top-level function: workers run it);
    ``handicap``: points added to army A's list when it is drawn from a pool."""
    game_seed = child_seed(experiment_seed, seed_index)
    armies = draw_armies(cell, game_seed, handicap)
    order = (0, 1) if seat == 0 else (1, 0)  # order[side] = the army on that side
    rules = find_system(cell.system)
    commanders = [
        get_commander(cell.commanders[order[side]], commander_stream(game_seed, side), system=rules)
        for side in (0, 1)
    ]
    priced = _priced(armies)
    options = _first_options(cell, rules, seat)
    leaders: list[int] = []
    first: list[int] = []
    credit = Attribution()

    def on_round(state: Any, n: int) -> None:
        a, b = rules.score(state)
        leaders.append((a > b) - (a < b))

    def on_decision(state: Any, action: Any) -> None:
        if priced:
            credit.after(state, action)
        if not first and state.round >= 1:
            first.append(int(state.first))

    result, state = play_game(
        armies[order[0]],
        armies[order[1]],
        commanders,
        seed=game_seed,
        mechanic=cell.mechanic,
        table=_generated(game_seed) if cell.generated else cell.table,
        log=False,
        system=rules,
        options=options,
        on_round=on_round,
        on_decision=on_decision,
        dice=cell.dice,
    )
    flip = seat == 1

    def by_army(pair: tuple[Any, Any]) -> tuple[Any, Any]:
        return (pair[1], pair[0]) if flip else (pair[0], pair[1])

    winner = None if result.winner is None else int(result.winner) ^ int(flip)
    side_leaders = [-x for x in leaders] if flip else leaders
    outcome = 0 if winner is None else (1 if winner == 0 else -1)
    return GameRecord(
        cell=cell.key,
        seed_index=seed_index,
        seat=seat,
        game_seed=game_seed,
        winner=winner,
        first=order[first[0]] if first else order[int(getattr(state, "first", 0))],
        objectives=by_army(result.objectives),
        models_lost=by_army(result.models_lost),
        points_lost=by_army((_points_lost(state, 0), _points_lost(state, 1)))
        if priced
        else (0.0, 0.0),
        rounds=result.rounds,
        decisions=result.decisions,
        lead_changes=_lead_changes(side_leaders),
        decided_last_round=(side_leaders[-2] if len(side_leaders) > 1 else 0) != outcome,
        units=credit.records(state, (order[0], order[1])) if priced else (),
        handicap=handicap,
        revisions=by_army(result.commander_revisions),
    )


def _first_options(cell: Cell, rules: RuleSystem, seat: int) -> Any:
    """The cell's readings with the ``first`` factor applied: ``"A"`` / ``"B"`` is an army of
    the matchup, so its side (``roll_off_winner``) follows the seat (seat 0: army A on side A)."""
    first = str(cell.levels.get("first", "rolloff"))
    if first == "rolloff":
        return cell.options
    side = seat if first == "A" else 1 - seat
    base = cell.options if cell.options is not None else rules.readings()
    return dataclasses.replace(base, roll_off_winner="AB"[side])


def _priced(armies: Sequence[Any]) -> bool:
    """Whether the armies' units have points costs (OPR lists); WWPD forces have none, so their
    games record no points lost and no per-unit rows."""
    return all(hasattr(u, "cost") for army in armies for u in army.units)


def _lead_changes(leaders: Sequence[int]) -> int:
    """How often the lead passed from one army to the other (ties in between skipped)."""
    held = [x for x in leaders if x]
    return sum(x != y for x, y in itertools.pairwise(held))


def _points_lost(state: Any, side: int) -> float:
    """The points of ``side``'s models lost: each unit's cost times its share of models lost
    (a routed unit counts whole); units that never deployed are not counted."""
    missing = deploy_search.missing(state)
    return round(sum(unit_lost(u, missing) for u in state.side_units(side)), 6)
