"""Run an experiment into its lab file: batches of seeds until each cell's stopping rule is met.

Seeds are played in batches of ``stop.batch`` (``fixed``: all at once). After each batch the
stopping rule looks at the stored games of the seeds played so far and stops the cells it is
met for; the others go on with the next batch, up to ``stop.seeds``. The looks depend only on
the stored games, so a rerun after an interrupt takes the same decisions at the same seeds and
plays exactly the games an uninterrupted run would have played, skipping those already stored.

Games run through joblib on local processes, or on a Dask cluster (``cluster``, as
:mod:`oprlab.analysis.series` does it); each is stored the moment it comes back.

May import the lab's modules, analysis.series (the Dask backend), joblib.
"""

from __future__ import annotations

import os
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field

from joblib import Parallel, delayed

from oprlab.analysis.lab.design import (
    FACTORS,
    Cell,
    GameRecord,
    experiment_hash,
    play_cell_game,
)
from oprlab.analysis.lab.fairpoints import batch_steps, bisect_next
from oprlab.analysis.lab.model import Experiment
from oprlab.analysis.lab.progress_file import ProgressFile
from oprlab.analysis.lab.store import LabStore
from oprlab.analysis.lab.summary import contrasts, stopped_cells
from oprlab.analysis.lab.tally import seed_table
from oprlab.analysis.series import dask_backend

__all__ = ["RunOutcome", "first_levels", "handicap_steps", "run_experiment", "schedule"]

Todo = tuple[Cell, int, int, int]  # cell, seed index, seat, handicap


@dataclass
class RunOutcome:
    """What a run did: the experiment's hash, games played now and stored before, and why
    each cell stopped."""

    experiment: str
    played: int = 0
    already: int = 0
    seeds_played: int = 0
    stopped: dict[str, str] = field(default_factory=dict)


def first_levels(exp: Experiment) -> dict[str, object]:
    """Each factor's baseline: its first level."""
    return {factor: getattr(exp.factors, factor)[0] for factor in FACTORS}


def schedule(exp: Experiment) -> list[int]:
    """The seed counts at which the stopping rule looks: every batch, then the last seed."""
    if exp.stop.rule == "fixed":
        return [exp.stop.seeds]
    looks = list(range(exp.stop.batch, exp.stop.seeds, exp.stop.batch))
    return [*looks, exp.stop.seeds]


def handicap_steps(
    exp: Experiment, games: Sequence[GameRecord], below: int
) -> list[tuple[float, float]]:
    """The handicap search's steps so far in one cell: each batch of seeds under ``below``
    with its handicap and army A's mean seed score (seeds with both seats played)."""
    return batch_steps(exp.stop.batch, seed_table(games).pairs(), below)


def _handicap(exp: Experiment, games: Sequence[GameRecord], start: int) -> int:
    if exp.stop.rule != "handicap":
        return 0
    return int(bisect_next(exp.stop.low, exp.stop.high, handicap_steps(exp, games, start)))


def run_experiment(
    exp: Experiment,
    cells: Sequence[Cell],
    out: str | os.PathLike[str],
    *,
    n_jobs: int = 1,
    cluster: str | None = None,
    on_game: Callable[[GameRecord, bool], None] | None = None,
    on_batch: Callable[[int, int], None] | None = None,
) -> RunOutcome:
    """Play what is missing of ``exp`` into the lab file ``out``.

    Args:
        n_jobs: local worker processes (1: in this process).
        cluster: a Dask scheduler address (or ``"local"``); ``n_jobs`` is then ignored.
        on_game: called with each finished game and whether it was new (a progress bar).
        on_batch: called before each batch with (games to play now, games planned so far).

    Ctrl-C (KeyboardInterrupt) stops the run; every finished game is already stored.
    """
    exp_hash = experiment_hash(exp, cells)
    outcome = RunOutcome(exp_hash)
    pairs = contrasts(cells, first_levels(exp))
    with ExitStack() as stack:
        store = stack.enter_context(LabStore(out))
        store.register(exp_hash, exp, cells)
        done = store.done(exp_hash)
        outcome.already = len(done)
        most = 2 * exp.stop.seeds * len(cells)
        progress = stack.enter_context(
            ProgressFile(out, exp_hash, exp.name, most=most, already=len(done))
        )
        if cluster is not None:
            stack.enter_context(dask_backend(cluster))
            n_jobs = -1
        active = list(cells)
        start = 0
        planned = 0
        by_cell: dict[str, list[GameRecord]] = defaultdict(list)
        for upto in schedule(exp):
            shift = {c.key: _handicap(exp, by_cell[c.key], start) for c in active}
            todo = [
                (c, i, seat, shift[c.key])
                for i in range(start, upto)
                for c in active
                for seat in (0, 1)
                if (c.key, i, seat) not in done
            ]
            planned += 2 * (upto - start) * len(active)
            if on_batch:
                on_batch(len(todo), planned)
            for group in _play(_groups(todo), exp.seed, n_jobs):
                stored = store.add_many(exp_hash, group)
                outcome.played += sum(stored)
                progress.update(outcome.already + outcome.played, planned)
                if on_game:
                    for game, new in zip(group, stored, strict=True):
                        on_game(game, new)
            outcome.seeds_played = upto
            start = upto
            if upto == exp.stop.seeds:
                break
            by_cell = defaultdict(list)
            for g in store.games(exp_hash):
                by_cell[g.cell].append(g)
            stopped = stopped_cells(exp.stop, active, pairs, by_cell, upto)
            outcome.stopped |= stopped
            active = [c for c in active if c.key not in stopped]
            if not active:
                break
        for c in active:
            outcome.stopped.setdefault(c.key, f"played every seed ({exp.stop.seeds})")
    return outcome


def _groups(todo: Sequence[Todo]) -> list[list[Todo]]:
    """The games of ``todo`` by seed: one task for a worker and one insert for the file (a
    statement costs DuckDB milliseconds of CPU, a row of a multi-row insert a fraction)."""
    groups: dict[int, list[Todo]] = {}
    for game in todo:
        groups.setdefault(game[1], []).append(game)
    return list(groups.values())


def play_group(group: Sequence[Todo], seed: int) -> list[GameRecord]:
    """The games of one group (a top-level function: workers run it)."""
    return [play_cell_game(c, i, seat, seed, h) for c, i, seat, h in group]


def _play(groups: Sequence[Sequence[Todo]], seed: int, n_jobs: int) -> Iterator[list[GameRecord]]:
    """Each group's games as the group finishes, in order. In this process, a Ctrl-C in the
    middle of a group still hands back the group's finished games first."""
    if n_jobs == 1:
        for group in groups:
            finished: list[GameRecord] = []
            try:
                for c, i, seat, h in group:
                    finished.append(play_cell_game(c, i, seat, seed, h))
            except KeyboardInterrupt:
                yield finished
                raise
            yield finished
        return
    if not groups:
        return
    runner = Parallel(n_jobs=n_jobs, return_as="generator")
    results = runner(delayed(play_group)(g, seed) for g in groups)
    try:
        yield from results
    finally:
        with warnings.catch_warnings():  # "N tasks ... executed but not used": we stopped early
            warnings.filterwarnings("ignore", "[0-9]+ tasks have been", UserWarning)
            results.close()
