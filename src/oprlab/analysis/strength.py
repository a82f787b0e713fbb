"""Strength for time (issue 14, item 2): the search commander at several budgets against the
rules commander, with what each budget costs.

For each system and budget, ``search:BUDGET`` (or another search form's, ``form:BUDGET``)
plays the rules commander on ``games`` seeds,
each seed twice (search on side A, then on side B: the seat-swapped pair of
:mod:`oprlab.analysis.ladder`). The rules commander also plays itself on the same seeds: those
games are the cost's yardstick. A row gives search's share of the points (a win 1, a draw 1/2)
with a normal 95% interval over the pairs, and the CPU seconds of a search-against-rules game
over those of a rules-against-rules game on the same seeds (the cost, ``x`` times).

May import: analysis.ladder (its games and how one is played), rng.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oprlab.analysis.ladder import LadderGame, LadderSpec, Task, play_tasks, sweeps
from oprlab.rng import iter_seeds

__all__ = ["StrengthRow", "curve", "markdown", "play_curve", "strength_tasks"]

Z95 = 1.959963984540054
#: The commander search is measured against, and whose own games are the cost's yardstick.
BASE = "rules"


@dataclass(frozen=True)
class StrengthRow:
    """One budget in one system: search's share against the rules commander and its cost."""

    system: str
    commander: str
    games: int
    score: float
    low: float
    high: float
    seconds: float  # CPU seconds per search-against-rules game
    cost: float  # over a rules-against-rules game on the same seeds
    #: pairs the search won and lost from both seats (the rest split: see analysis.ladder)
    swept: tuple[int, int] = (0, 0)

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def strength_tasks(
    systems: Sequence[str], budgets: Sequence[int], games: int, seed: int, form: str = "search"
) -> list[Task]:
    """Rules against itself once per seed, then ``form`` at each budget from both seats, per
    system."""
    out: list[Task] = []
    for system in systems:
        for s in iter_seeds(seed, games):
            out.append((system, 0, BASE, BASE, s))
            for b in budgets:
                name = f"{form}:{b}"
                out += [(system, 0, name, BASE, s), (system, 0, BASE, name, s)]
    return out


def play_curve(
    spec: LadderSpec,
    budgets: Sequence[int],
    *,
    form: str = "search",
    n_jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
) -> list[LadderGame]:
    """Every game of the curve (``spec`` gives the matchup, systems, seeds and table; its
    commanders are not used). Ctrl-C keeps the games already finished."""
    todo = strength_tasks(spec.systems, budgets, spec.games, spec.seed, form)
    return play_tasks(spec, todo, n_jobs=n_jobs, on_game=on_game)


def curve(
    games: Sequence[LadderGame], budgets: Sequence[int], form: str = "search"
) -> list[StrengthRow]:
    """A row per system and budget, from the seeds whose both seats (and whose rules-against-
    rules game) finished."""
    base: dict[tuple[str, int], float] = {}
    seats: dict[tuple[str, str, int], dict[int, LadderGame]] = {}
    for g in games:
        if g.commander_a == g.commander_b == BASE:
            base[g.system, g.seed] = g.seconds
        elif BASE in (g.commander_a, g.commander_b):
            name = g.commander_b if g.commander_a == BASE else g.commander_a
            seats.setdefault((g.system, name, g.seed), {})[int(g.commander_a == BASE)] = g
    rows = []
    for system in dict.fromkeys(g.system for g in games):
        for b in budgets:
            name = f"{form}:{b}"
            pairs, spent, yard = [], 0.0, 0.0
            for (sys_, n, seed), pair in seats.items():
                if sys_ != system or n != name or len(pair) < 2 or (system, seed) not in base:
                    continue
                pairs.append((pair[0].score_a + 1 - pair[1].score_a) / 2)
                spent += pair[0].seconds + pair[1].seconds
                yard += 2 * base[system, seed]
            if not pairs:
                continue
            x = np.array(pairs)
            m = float(x.mean())
            half = Z95 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else math.inf
            rows.append(
                StrengthRow(
                    system,
                    name,
                    2 * len(x),
                    m,
                    max(0.0, m - half),
                    min(1.0, m + half),
                    spent / (2 * len(x)),
                    spent / yard if yard > 0 else math.nan,
                    sweeps(pairs),
                )
            )
    return rows


def markdown(rows: Sequence[StrengthRow]) -> str:
    """The curve as a Markdown table (what ``oprlab strength --docs`` writes)."""
    lines = [
        "| system | commander | games | score against rules | 95% interval | CPU per game "
        "| vs rules | swept (for / against) |",
        "|---|---|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r.system} | `{r.commander}` | {r.games} | {r.score:.3f} | "
            f"[{r.low:.3f}, {r.high:.3f}] | {r.seconds:.2f} s | {r.cost:.1f}x | "
            f"{r.swept[0]} / {r.swept[1]} |"
        )
    return "\n".join(lines)
