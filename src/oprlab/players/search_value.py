"""What a playout's end is worth: the search's points value, or a side's chance of winning
learned from the rules commander's own games (issue 14).

The search commander compares candidates by the value of the copies it played on. Its first
value (:func:`standing`'s markers at :data:`OBJECTIVE_VALUE` points each plus the points
lost) weighs a marker the same in round 1 as in round 4, and a unit's points the same when
the game is decided as when it is not. The learned value is instead a side's expected share
of the game (a win 1, a draw 1/2) as a logistic model of a few differences between the sides
(:func:`features`), with weights for each round, fitted to where rules-against-rules games
ended (``bench.value_fit``). Its weights are in :data:`WEIGHTS` (GFF's). It predicts the
games better than the points value, yet the search chooses worse with it (judged decision by
decision, docs/commanders.md): what goes with winning in the rules commander's games is not
what an action changes. So it is a bench variant (``sx-...-v1``), not the search's value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from oprlab.game import objectives
from oprlab.game.state import GameState

__all__ = [
    "FEATURES",
    "WEIGHTS",
    "features",
    "fit",
    "round_weights",
    "standing",
    "win_value",
]

#: The differences a state is read by, each the side's less the enemy's: markers it would hold
#: if the round ended now, the same times the share of the round's activations done (a marker
#: held late in a round is nearer to being scored), the share of the enemy's points lost less
#: its own, the share of its points shaken less the enemy's, and its units yet to activate
#: this round less the enemy's (a tempo the side still has in hand).
FEATURES = ("markers", "markers_late", "points", "shaken", "ready")

#: The learned weights per system: for each round (the last row for any round after), one weight
#: per :data:`FEATURES` entry, in logits of the side's share. Made by ``python -m
#: bench.value_fit`` (docs/commanders.md: the games, their number and the fit's check).
WEIGHTS: dict[str, tuple[tuple[float, ...], ...]] = {
    "gff": (
        (-0.1751, 0.5075, 2.9548, 0.0778, 0.1456),
        (0.4123, 0.0469, 3.7460, -3.1291, 0.2896),
        (0.5841, -0.0084, 4.0810, -0.9843, 0.6018),
        (0.5754, 0.8851, 2.9366, 0.0323, 0.8735),
    ),
}


def standing(state: GameState) -> tuple[list[int], list[float]]:
    """Per side, the markers it would hold if the round ended now and the points it has lost
    (models, and wounds on Tough models, at the unit's cost per model)."""
    holders = [
        (u.side, u.placement)
        for u in state.units.values()
        if u.on_table and not u.shaken and u.placement is not None and u.arrived != state.round
    ]
    held = [0, 0]
    for marker, sides in zip(
        state.objectives, objectives.sides_near(state.objectives, holders), strict=True
    ):
        owner = next(iter(sides)) if len(sides) == 1 else None if sides else marker.controller
        if owner is not None:
            held[owner] += 1
    lost = [0.0, 0.0]
    for u in state.units.values():
        per_model = u.unit.cost / max(1, u.unit.size)
        if u.routed or u.models <= 0:
            gone = float(u.unit.size)
        else:
            gone = u.unit.size - u.models + u.markers / max(1, u.unit.tough)
        lost[u.side] += gone * per_model
    return held, lost


def features(state: GameState, side: int) -> list[float]:
    """:data:`FEATURES` for ``side`` (each the side's less the enemy's, so the enemy's are the
    same numbers negated)."""
    held, lost = standing(state)
    cost = [0.0, 0.0]
    shaken = [0.0, 0.0]
    ready = [0, 0]
    acted = total = 0
    for u in state.units.values():
        cost[u.side] += u.unit.cost
        if u.on_table:
            total += 1
            acted += u.activated
            ready[u.side] += not u.activated
            if u.shaken:
                shaken[u.side] += u.unit.cost * u.models / max(1, u.unit.size)
    other = 1 - side
    late = acted / total if total else 0.0
    share = [lost[s] / cost[s] if cost[s] else 0.0 for s in (0, 1)]
    shaken_share = [shaken[s] / cost[s] if cost[s] else 0.0 for s in (0, 1)]
    markers = held[side] - held[other]
    return [
        float(markers),
        markers * late,
        share[other] - share[side],
        shaken_share[other] - shaken_share[side],
        float(ready[side] - ready[other]),
    ]


def win_value(state: GameState, side: int, system: str) -> float:
    """``side``'s expected share of the game by :data:`WEIGHTS` (a finished game's own result),
    in thousandths (0 to 1,000), so that the search's means and margins stay in its units."""
    if state.done:
        return 500.0 if state.winner is None else 1000.0 if state.winner == side else 0.0
    w = round_weights(WEIGHTS[system], state.round)
    z = sum(a * b for a, b in zip(w, features(state, side), strict=True))
    return 1000.0 / (1.0 + math.exp(-z))


def round_weights(rows: Sequence[Sequence[float]], round_: int) -> Sequence[float]:
    """The weights of round ``round_``: the last row's after the rows run out, round 1's
    before the first round (deployment)."""
    return rows[max(1, min(round_, len(rows))) - 1]


def fit(rounds: ArrayLike, x: ArrayLike, y: ArrayLike, ridge: float = 1.0) -> list[list[float]]:
    """Per round, the logistic weights (no intercept: the features are differences, so a side's
    chance and the enemy's add to one) that best predict the shares ``y`` (0, 1/2 or 1) from
    the rows ``x``, by Newton's method with a small ridge that keeps a rare round finite."""
    r = np.asarray(rounds)
    xs = np.asarray(x, dtype=float)
    ys = np.asarray(y, dtype=float)
    out = []
    for k in range(1, int(r.max()) + 1):
        a, b = xs[r == k], ys[r == k]
        w = np.zeros(xs.shape[1])
        for _ in range(50):
            p = 1.0 / (1.0 + np.exp(-(a @ w)))
            grad = a.T @ (p - b) + ridge * w
            hess = (a * (p * (1 - p))[:, None]).T @ a + ridge * np.eye(len(w))
            step = np.linalg.solve(hess, grad)
            w -= step
            if float(np.abs(step).max()) < 1e-10:
                break
        out.append([float(v) for v in w])
    return out
