"""An experiment's numbers from its games: per cell, per effect, and the stopping rules' looks.

Everything here is a function of the stored games alone (no clock, no run count), so two runs
of the same experiment, or one interrupted and resumed, give the same numbers. Scores are army
A's (a win 1, a draw 1/2); a seed counts once both its seats are played.

No I/O; numpy through :mod:`oprlab.analysis.lab.stats`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from oprlab.analysis.lab.design import FACTORS, Cell, GameRecord
from oprlab.analysis.lab.model import Stop
from oprlab.analysis.lab.stats import (
    MeanInterval,
    bootstrap_sd_counts,
    hist_interval,
    hist_moments,
    mean_interval,
    paired_effect_counts,
    sd_change_counts,
    sprt,
    sprt_counts,
)
from oprlab.analysis.lab.tally import CellTally, Hist, SeedTable, Tally, hist, tally_games
from oprlab.analysis.stats import wilson
from oprlab.analysis.verdicts import across, judge

__all__ = [
    "Contrast",
    "across_commanders",
    "across_every_commander",
    "cell_numbers",
    "cell_summary",
    "contrasts",
    "effect_summary",
    "paired_sd_change",
    "score_a",
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


def _scores(data: Sequence[GameRecord] | SeedTable, below: int) -> dict[int, float]:
    return data.scores(below) if isinstance(data, SeedTable) else seed_scores(data, below)


def stopped_cells(
    stop: Stop,
    cells: Sequence[Cell],
    pairs: Sequence[Contrast],
    by_cell: Mapping[str, Sequence[GameRecord] | SeedTable],
    played: int,
) -> dict[str, str]:
    """After ``played`` seeds, the cells whose stopping rule is met, with the reason.

    ``width``: a cell's 95% interval on army A's score is narrower than ``stop.width``.
    ``sprt``: every contrast the cell is part of has a verdict (a cell in no contrast stops
    at once: there is nothing to test). ``fixed``: none before ``stop.seeds``. ``by_cell``:
    each cell's games, or its seeds (:class:`SeedTable`, what the report reads from SQL).
    """
    out: dict[str, str] = {}
    if stop.rule == "width":
        for c in cells:
            m = mean_interval(list(_scores(by_cell[c.key], played).values()))
            if m.n >= 2 and m.width < stop.width:
                out[c.key] = f"interval width {m.width:.3f} < {stop.width} after {m.n} seeds"
    elif stop.rule == "sprt":
        open_cells: set[str] = set()
        for p in pairs:
            v, b = _aligned(
                _scores(by_cell[p.variant.key], played),
                _scores(by_cell[p.baseline.key], played),
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
    """One cell's numbers from its games (:func:`cell_numbers` of their counts)."""
    tally = tally_games(games, [cell.key], [], with_seeds=False)
    return cell_numbers(cell, tally.cells[cell.key], weaker, rng)


def cell_numbers(
    cell: Cell, tally: CellTally, weaker: int | None, rng: np.random.Generator
) -> dict[str, Any]:
    """One cell's numbers: army A's score, results, first-mover score, margins, swing."""
    n = tally.games
    out: dict[str, Any] = {
        "cell": cell.key,
        "label": cell.label(),
        "levels": cell.levels,
        "armies": [a.name for a in cell.armies],
        "army_files": list(cell.army_refs),
        "commanders": list(cell.commanders),
        "commander_revisions": list(cell.revisions),
        "games": n,
        "seeds": tally.seed_scores.n,
    }
    if not n:
        return out
    m = tally.measures
    results = dict(zip(m["winner"].values.tolist(), m["winner"].counts.tolist(), strict=True))
    wins = [int(results.get(float(k), 0)) for k in (0, 1)]
    draws = n - wins[0] - wins[1]

    def iv(key: str) -> dict[str, Any]:
        return _iv(hist_interval(m[key].values, m[key].counts))

    late = m["decided_last_round"]
    last = dict(zip(late.values.tolist(), late.counts.tolist(), strict=True))
    out |= {
        "score_a": _iv(hist_interval(tally.seed_scores.values, tally.seed_scores.counts)),
        "win_a": _wilson(wins[0], n),
        "win_b": _wilson(wins[1], n),
        "draw": _wilson(draws, n),
        "first_player_score": iv("first_score"),
        "objective_margin": iv("objective_margin"),
        "objective_margin_sd": _iv(
            bootstrap_sd_counts(m["objective_margin"].values, m["objective_margin"].counts, rng)
        ),
        "points_margin": iv("points_margin"),
        "points_margin_sd": _iv(
            bootstrap_sd_counts(m["points_margin"].values, m["points_margin"].counts, rng)
        ),
        "points_destroyed": [
            round(hist_moments(m[key].values, m[key].counts)[1], 4) for key in ("lost_b", "lost_a")
        ],
        "rounds": iv("rounds"),
        "lead_changes": iv("lead_changes"),
        "decided_last_round": _wilson(int(last.get(1.0, 0)), n),
        "objective_margins": _counts(m["objective_margin"]),
        "points_margins": _counts(m["points_margin"]),
    }
    if weaker is not None:
        out["weaker_army"] = weaker
        out["upset_rate"] = _wilson(wins[weaker], n)
    return out


def score_a(tally: CellTally) -> float:
    """Army A's mean score over the cell's games (a win 1, a draw 1/2)."""
    w = tally.measures["winner"]
    return float(w.counts @ np.where(w.values == 0, 1.0, np.where(w.values == 2, 0.5, 0.0)))


def _counts(h: Hist) -> list[list[float]]:
    """``[[value, games], ...]`` by value: a distribution whose size does not grow with games."""
    return [[round(float(v), 6), int(k)] for v, k in zip(h.values, h.counts, strict=True)]


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
    keys = ("variant", "baseline")
    games = [
        replace(g, cell=k) for k, gs in zip(keys, (variant, baseline), strict=True) for g in gs
    ]
    pair = tally_games(games, keys, [keys], with_seeds=False).pairs[keys]
    return sd_change_counts(pair.margins.values, pair.margins.counts, rng, resamples)


def effect_summary(
    pair: Contrast, tally: Tally, stop: Stop, rng: np.random.Generator
) -> dict[str, Any]:
    """A contrast's paired effect on army A's score (and Welch's interval on the same seeds),
    its effect on the objective margin's spread, and the SPRT's verdict when that is the rule."""
    counts = tally.pairs[(pair.variant.key, pair.baseline.key)]
    scores = counts.scores
    n = scores.n
    effect = paired_effect_counts(scores.values, scores.counts)
    out: dict[str, Any] = {
        "name": pair.name,
        "factor": pair.factor,
        "level": pair.level,
        "baseline_level": pair.baseline.levels[pair.factor],
        "variant": pair.variant.key,
        "baseline": pair.baseline.key,
        "matchup": pair.variant.matchup,
        "seeds": n,
        "score_a": effect.to_json(),
    }
    out["objective_margin_sd_change"] = _iv(
        sd_change_counts(counts.margins.values, counts.margins.counts, rng)
    )
    if stop.rule == "sprt" and n >= 2:
        diffs = scores.values.reshape(-1, 2)
        out["sprt"] = sprt_counts(
            diffs[:, 0] - diffs[:, 1], scores.counts, stop.d, stop.alpha, stop.beta
        ).to_json()
    if pair.factor == "commanders":
        out["across_commanders"] = _verdicts(
            tally.cells[pair.variant.key].seed_scores, tally.cells[pair.baseline.key].seed_scores
        )
    return out


def _verdicts(*scores: Hist) -> dict[str, str]:
    said = []
    for h in scores:
        m = hist_interval(h.values, h.counts)
        said.append(judge(m.low, m.high) if m.n >= 2 else "none")
    return {"variant": said[0], "baseline": said[1], "verdict": across(said)}


def across_commanders(
    variant: Mapping[int, float], baseline: Mapping[int, float]
) -> dict[str, str]:
    """Issue 14 item 5: army A's verdict under each commander (``A`` when the cell's 95%
    interval on A's score is above 1/2, ``B`` below, ``none``) and whether it ``holds``,
    ``depends`` on the commander or ``flips`` (:mod:`oprlab.analysis.verdicts`); the contrast's
    paired effect beside it is the difference and its interval."""
    return _verdicts(hist(list(variant.values())), hist(list(baseline.values())))


def across_every_commander(cells: Sequence[Cell], tally: Tally) -> list[dict[str, Any]]:
    """Issue 14 item 5 for every commanders level at once: for each matchup and setting of the
    other factors that two or more commanders levels played, army A's verdict under each level
    and whether it ``holds``, ``depends`` on the commander or ``flips`` across all of them.
    The contrasts compare each level with the first only; a flip between two later levels
    (one ``A``, one ``B``, the first ``none``) shows here."""
    groups: dict[str, list[Cell]] = {}
    for c in cells:
        rest = [(f, c.levels[f]) for f in FACTORS if f != "commanders"]
        groups.setdefault(repr((c.matchup, rest)), []).append(c)
    out: list[dict[str, Any]] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        said = []
        for c in members:
            h = tally.cells[c.key].seed_scores
            m = hist_interval(h.values, h.counts)
            verdict = judge(m.low, m.high) if m.n >= 2 else "none"
            said.append({"commanders": _text(c.levels["commanders"]), "verdict": verdict})
        first = members[0]
        out.append(
            {
                "matchup": first.matchup,
                "levels": {
                    f: _text(first.levels[f])
                    for f in FACTORS
                    if f != "commanders" and len({repr(c.levels[f]) for c in cells}) > 1
                },
                "verdicts": said,
                "verdict": across([v["verdict"] for v in said]),
            }
        )
    return out
