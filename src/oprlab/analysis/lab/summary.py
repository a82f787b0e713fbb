"""An experiment's numbers from its games: per cell, per effect, and the stopping rules' looks.

Everything here is a function of the stored games alone (no clock, no run count), so two runs
of the same experiment, or one interrupted and resumed, give the same numbers. Scores are army
A's (a win 1, a draw 1/2); a seed counts once both its seats are played.

No I/O; numpy through :mod:`oprlab.analysis.lab.stats`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oprlab.analysis.lab.design import FACTORS, Cell, GameRecord
from oprlab.analysis.lab.model import Stop
from oprlab.analysis.lab.stats import (
    MeanInterval,
    bootstrap_sd,
    mean_interval,
    paired_effect,
    sprt,
)
from oprlab.analysis.stats import wilson
from oprlab.analysis.verdicts import across, judge

__all__ = [
    "Contrast",
    "across_commanders",
    "cell_summary",
    "contrasts",
    "effect_summary",
    "paired_sd_change",
    "seed_scores",
    "stopped_cells",
]


def seed_scores(games: Sequence[GameRecord], below: int | None = None) -> dict[int, float]:
    """Army A's score per seed (the mean of its two seats), for seeds with both seats played
    (and index under ``below``, if given)."""
    seats: dict[int, list[float]] = defaultdict(list)
    for g in games:
        if below is None or g.seed_index < below:
            seats[g.seed_index].append(g.score_a)
    return {i: sum(s) / 2 for i, s in sorted(seats.items()) if len(s) == 2}


@dataclass(frozen=True)
class Contrast:
    """A variant cell against its baseline: the same matchup and levels but one factor's."""

    factor: str
    level: Any
    variant: Cell
    baseline: Cell

    @property
    def name(self) -> str:
        return f"{self.factor}: {_text(self.level)} vs {_text(self.baseline.levels[self.factor])}"


def _text(level: Any) -> str:
    if isinstance(level, dict):
        return "{" + ", ".join(f"{k}={v}" for k, v in level.items()) + "}" if level else "defaults"
    if isinstance(level, list):
        return "/".join(map(str, level))
    return str(level)


def contrasts(cells: Sequence[Cell], first_levels: Mapping[str, Any]) -> list[Contrast]:
    """Every variant cell paired with the cell that differs from it only by one factor, at
    that factor's baseline (its first level)."""
    found: list[Contrast] = []

    def key(c: Cell, skip: str) -> str:
        return repr((c.matchup, [(f, c.levels[f]) for f in FACTORS if f != skip]))

    for factor in FACTORS:
        base = first_levels[factor]
        by_rest = {key(c, factor): c for c in cells if c.levels[factor] == base}
        for c in cells:
            if c.levels[factor] != base:
                found.append(Contrast(factor, c.levels[factor], c, by_rest[key(c, factor)]))
    return found


def _aligned(a: Mapping[int, float], b: Mapping[int, float]) -> tuple[list[float], list[float]]:
    common = sorted(set(a) & set(b))
    return [a[i] for i in common], [b[i] for i in common]


def stopped_cells(
    stop: Stop,
    cells: Sequence[Cell],
    pairs: Sequence[Contrast],
    by_cell: Mapping[str, Sequence[GameRecord]],
    played: int,
) -> dict[str, str]:
    """After ``played`` seeds, the cells whose stopping rule is met, with the reason.

    ``width``: a cell's 95% interval on army A's score is narrower than ``stop.width``.
    ``sprt``: every contrast the cell is part of has a verdict (a cell in no contrast stops
    at once: there is nothing to test). ``fixed``: none before ``stop.seeds``.
    """
    out: dict[str, str] = {}
    if stop.rule == "width":
        for c in cells:
            m = mean_interval(list(seed_scores(by_cell[c.key], played).values()))
            if m.n >= 2 and m.width < stop.width:
                out[c.key] = f"interval width {m.width:.3f} < {stop.width} after {m.n} seeds"
    elif stop.rule == "sprt":
        open_cells: set[str] = set()
        for p in pairs:
            v, b = _aligned(
                seed_scores(by_cell[p.variant.key], played),
                seed_scores(by_cell[p.baseline.key], played),
            )
            if len(v) < 2 or sprt(np.subtract(v, b), stop.d, stop.alpha, stop.beta).verdict == (
                "undecided"
            ):
                open_cells |= {p.variant.key, p.baseline.key}
        for c in cells:
            if c.key not in open_cells:
                out[c.key] = f"every SPRT of this cell decided after {played} seeds"
    return out


def _iv(m: MeanInterval) -> dict[str, Any]:
    return m.to_json()


def cell_summary(
    cell: Cell, games: Sequence[GameRecord], weaker: int | None, rng: np.random.Generator
) -> dict[str, Any]:
    """One cell's numbers: army A's score, results, first-mover score, margins, swing."""
    scores = seed_scores(games)
    n = len(games)
    out: dict[str, Any] = {
        "cell": cell.key,
        "label": cell.label(),
        "levels": cell.levels,
        "armies": [a.name for a in cell.armies],
        "army_files": list(cell.army_refs),
        "games": n,
        "seeds": len(scores),
    }
    if not n:
        return out
    wins = [sum(g.winner == k for g in games) for k in (0, 1)]
    draws = n - wins[0] - wins[1]
    first_scores = [
        0.5 if g.winner is None else float(g.winner == g.first) for g in games
    ]  # the score of the army that went first
    obj_margin = [g.objectives[0] - g.objectives[1] for g in games]
    pts_margin = [g.points_lost[1] - g.points_lost[0] for g in games]
    out |= {
        "score_a": _iv(mean_interval(list(scores.values()))),
        "win_a": _wilson(wins[0], n),
        "win_b": _wilson(wins[1], n),
        "draw": _wilson(draws, n),
        "first_player_score": _iv(mean_interval(first_scores)),
        "objective_margin": _iv(mean_interval(obj_margin)),
        "objective_margin_sd": _iv(bootstrap_sd(obj_margin, rng)),
        "points_margin": _iv(mean_interval(pts_margin)),
        "points_margin_sd": _iv(bootstrap_sd(pts_margin, rng)),
        "points_destroyed": [
            round(float(np.mean([g.points_lost[1 - k] for g in games])), 4) for k in (0, 1)
        ],
        "rounds": _iv(mean_interval([g.rounds for g in games])),
        "lead_changes": _iv(mean_interval([g.lead_changes for g in games])),
        "decided_last_round": _wilson(sum(g.decided_last_round for g in games), n),
        "objective_margins": _counts(obj_margin),
        "points_margins": _counts(pts_margin),
    }
    if weaker is not None:
        out["weaker_army"] = weaker
        out["upset_rate"] = _wilson(wins[weaker], n)
    return out


def _counts(values: Sequence[float]) -> list[list[float]]:
    """``[[value, games], ...]`` by value: a distribution whose size does not grow with games."""
    found, counts = np.unique(np.asarray(values, dtype=float), return_counts=True)
    return [[round(float(v), 6), int(k)] for v, k in zip(found, counts, strict=True)]


def _wilson(k: int, n: int) -> dict[str, Any]:
    w = wilson(k, n)
    return {
        "estimate": round(w.estimate, 6),
        "low": round(w.low, 6),
        "high": round(w.high, 6),
        "n": n,
    }


def paired_sd_change(
    variant: Sequence[GameRecord],
    baseline: Sequence[GameRecord],
    rng: np.random.Generator,
    resamples: int = 1000,
) -> MeanInterval:
    """The change in the spread (standard deviation) of the objective margin, variant minus
    baseline, with a 95% paired bootstrap interval: seeds are resampled, each with its two
    seats in both cells, so the interval keeps the pairing ("is the clock less swingy")."""
    margins = [_seat_margins(games) for games in (variant, baseline)]
    common = sorted(set(margins[0]) & set(margins[1]))
    if len(common) < 2:
        return MeanInterval(math.nan, math.nan, math.nan, len(common))
    v = np.array([margins[0][i] for i in common], dtype=float)
    b = np.array([margins[1][i] for i in common], dtype=float)
    n = len(common)
    idx = rng.integers(0, n, size=(resamples, n))
    diffs = v[idx].reshape(resamples, -1).std(axis=1, ddof=1) - b[idx].reshape(resamples, -1).std(
        axis=1, ddof=1
    )
    lo, hi = np.quantile(diffs, [0.025, 0.975])
    return MeanInterval(float(v.std(ddof=1) - b.std(ddof=1)), float(lo), float(hi), n)


def _seat_margins(games: Sequence[GameRecord]) -> dict[int, tuple[int, int]]:
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for g in games:
        seats[g.seed_index][g.seat] = g.objectives[0] - g.objectives[1]
    return {i: (s[0], s[1]) for i, s in seats.items() if len(s) == 2}


def effect_summary(
    pair: Contrast,
    by_cell: Mapping[str, Sequence[GameRecord]],
    stop: Stop,
    rng: np.random.Generator,
) -> dict[str, Any]:
    """A contrast's paired effect on army A's score (and Welch's interval on the same seeds),
    its effect on the objective margin's spread, and the SPRT's verdict when that is the rule."""
    v, b = _aligned(seed_scores(by_cell[pair.variant.key]), seed_scores(by_cell[pair.baseline.key]))
    effect = paired_effect(v, b)
    out: dict[str, Any] = {
        "name": pair.name,
        "factor": pair.factor,
        "level": pair.level,
        "baseline_level": pair.baseline.levels[pair.factor],
        "variant": pair.variant.key,
        "baseline": pair.baseline.key,
        "matchup": pair.variant.matchup,
        "seeds": len(v),
        "score_a": effect.to_json(),
    }
    out["objective_margin_sd_change"] = _iv(
        paired_sd_change(by_cell[pair.variant.key], by_cell[pair.baseline.key], rng)
    )
    if stop.rule == "sprt" and len(v) >= 2:
        out["sprt"] = sprt(np.subtract(v, b), stop.d, stop.alpha, stop.beta).to_json()
    if pair.factor == "commanders":
        out["across_commanders"] = across_commanders(
            seed_scores(by_cell[pair.variant.key]), seed_scores(by_cell[pair.baseline.key])
        )
    return out


def across_commanders(
    variant: Mapping[int, float], baseline: Mapping[int, float]
) -> dict[str, str]:
    """Issue 14 item 5: army A's verdict under each commander (``A`` when the cell's 95%
    interval on A's score is above 1/2, ``B`` below, ``none``) and whether it ``holds``,
    ``depends`` on the commander or ``flips`` (:mod:`oprlab.analysis.verdicts`); the contrast's
    paired effect beside it is the difference and its interval."""
    said = []
    for scores in (variant, baseline):
        m = mean_interval(list(scores.values()))
        said.append(judge(m.low, m.high) if m.n >= 2 else "none")
    return {"variant": said[0], "baseline": said[1], "verdict": across(said)}
