"""Verdicts that say whether they depend on the player (issue 14, item 5, for a matchup).

"Is army A stronger than army B?" is asked once per commander, that commander playing both
sides, on the same game seeds (so the dice, tables and streams are paired across commanders).
Under each commander A's share of the points (a win 1, a draw 1/2) gets a 95% Wilson interval
and a verdict: ``A`` if the interval is above 1/2, ``B`` if below, ``none`` if it holds 1/2. Each
commander's share is then compared with the first's: the difference and its 95% interval over
the paired seeds. The verdict *holds* if every commander gives the same one and no difference's
interval excludes 0, *depends* if some give a verdict and others none (or all give the same one
but a commander moves A's share beyond chance), and *flips* if two commanders give opposite
verdicts.

May import: analysis.ladder (its games and how one is played), rng.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oprlab.analysis.ladder import LadderGame, LadderSpec, play_tasks
from oprlab.rng import iter_seeds

__all__ = ["Verdict", "across", "judge", "play_verdicts", "robustness", "robustness_of"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Verdict:
    """A's share of the points under one commander, its 95% interval and what it says;
    ``diff``: the share less the first commander's, with its interval over paired seeds."""

    commander: str
    games: int
    score: float
    low: float
    high: float
    verdict: str
    diff: float
    diff_low: float
    diff_high: float

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _interval(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("inf")
    return m, m - half, m + half


def share_interval(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's interval for a share of points (draws as halves): sane when every game went
    one way, where the normal interval has width 0."""
    p = points / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


def judge(low: float, high: float) -> str:
    """``A`` when the interval is above 1/2, ``B`` when below, else ``none``."""
    return "A" if low > 0.5 else "B" if high < 0.5 else "none"


def play_verdicts(
    spec: LadderSpec,
    *,
    n_jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
) -> list[LadderGame]:
    """Each commander of ``spec`` playing both sides of its first matchup, in its first system,
    on the same ``spec.games`` seeds."""
    system = spec.systems[0]
    todo = [
        (system, 0, c, c, s) for c in spec.commanders for s in iter_seeds(spec.seed, spec.games)
    ]
    return play_tasks(spec, todo, n_jobs=n_jobs, on_game=on_game)


def across(verdicts: Sequence[str]) -> str:
    """``flips`` if two verdicts are opposite (``A`` and ``B``), ``depends`` if some give one
    and others ``none``, else ``holds``."""
    said = set(verdicts)
    if {"A", "B"} <= said:
        return "flips"
    return "depends" if len(said) > 1 else "holds"


def robustness(games: Sequence[LadderGame], commanders: Sequence[str]) -> tuple[list[Verdict], str]:
    """The verdict under each commander, its difference from the first's, and whether the
    verdict ``holds``, ``depends`` on the commander or ``flips``. Differences pair the seeds
    both commanders finished."""
    by: dict[str, dict[int, float]] = {c: {} for c in commanders}
    for g in games:
        if g.commander_a == g.commander_b and g.commander_a in by:
            by[g.commander_a][g.seed] = g.score_a
    return robustness_of(by, commanders)


def robustness_of(
    by: Mapping[str, Mapping[int, float]], commanders: Sequence[str]
) -> tuple[list[Verdict], str]:
    """:func:`robustness` from A's score per commander and game seed (a series per commander
    on the same seeds, as ``battle --games N --across`` plays them)."""
    first = by.get(commanders[0], {})
    out = []
    for c in commanders:
        mine = by.get(c, {})
        if not mine:
            continue
        score = float(np.mean(list(mine.values())))
        low, high = share_interval(sum(mine.values()), len(mine))
        common = [s for s in mine if s in first]
        if common:
            d, d_low, d_high = _interval(np.array([mine[s] - first[s] for s in common]))
        else:
            d = d_low = d_high = float("nan")
        if c == commanders[0]:
            d = d_low = d_high = 0.0
        out.append(Verdict(c, len(mine), score, low, high, judge(low, high), d, d_low, d_high))
    overall = across([v.verdict for v in out])
    if overall == "holds" and any(v.diff_low > 0 or v.diff_high < 0 for v in out):
        overall = "depends"  # the same verdict, but the commander moves A's share beyond chance
    return out, overall
