"""Blast(X) on the table: the multiplier's cap and the hits split between units (seed 003).

"Blast(X) ... each hit is multiplied by X, where X is up to as many hits as enemy models in the
target unit and within 3" of it. Hits must be split evenly between all enemy units within 3" of
any model from the target (defender picks how)." The attack layer
(:mod:`oprlab.rules.gff.attack`) multiplies and caps by ``DefenderProfile.near``; a game knows
the table, so it counts the models near the target (:func:`blast_models`) and, after the hits
are rolled, shares the Blast weapons' hits between the target and the units near it
(:func:`split`; each other unit's part waits as a :class:`~oprlab.game.gff_defend.Share`). A
lone target (no other enemy unit within 3") keeps every number it had.

The defender's pick is a fixed habit: every unit takes ``n // k`` of the ``n`` Blast hits and
the ``n % k`` left over go one each to the units whose wounds cost the fewest points (points
per model over Tough; ties: the target, then the nearest); the hardest hits (Deadly, then AP)
go to those cheapest units first.

May import ``oprlab.game.state``, ``oprlab.game.gff_defend``, ``oprlab.table``, ``oprlab.rules``
and below.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oprlab.game.gff_defend import Rolled
from oprlab.game.state import UnitState
from oprlab.rules.gff.attack import Hit
from oprlab.table.model import Placement

#: Blast: "enemy models ... within 3" of it", "enemy units within 3" of any model".
BLAST_RANGE = 3.0
EPS = 1e-6


def _model_gaps(p: Placement, of: Placement) -> np.ndarray:
    """For each living model of ``p``: its base-to-base gap to the nearest model of ``of``."""
    a = p.centres[p.alive]
    b = of.centres[of.alive]
    if not len(a) or not len(b):
        return np.full(len(a), np.inf)
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    d -= p.radii[p.alive][:, None] + of.radii[of.alive][None, :]
    return np.asarray(d.min(axis=1))


def nearby_units(target: UnitState, enemies: Sequence[UnitState]) -> list[UnitState]:
    """The other units of ``enemies`` on the table within 3" of any model of ``target``,
    nearest first (then by uid): the units Blast's hits are split with."""
    assert target.placement is not None
    found: list[tuple[float, str, UnitState]] = []
    for u in enemies:
        if u.uid == target.uid or not u.on_table or u.placement is None:
            continue
        gaps = _model_gaps(u.placement, target.placement)
        if len(gaps) and float(gaps.min()) <= BLAST_RANGE + EPS:
            found.append((float(gaps.min()), u.uid, u))
    return [u for _, _, u in sorted(found, key=lambda t: (t[0], t[1]))]


def blast_models(target: UnitState, nearby: Sequence[UnitState]) -> int:
    """X's cap: the target's models and the other enemy models within 3" of it."""
    assert target.placement is not None
    near = 0
    for u in nearby:
        assert u.placement is not None
        near += int((_model_gaps(u.placement, target.placement) <= BLAST_RANGE + EPS).sum())
    return target.models + near


def wound_worth(us: UnitState) -> float:
    """Points one wound on ``us`` costs, roughly: points per model over Tough (the habit's key)."""
    return us.unit.cost / max(1, us.unit.size) / max(1, us.unit.tough)


def split(rolled: Rolled, worth: Sequence[float]) -> list[Rolled]:
    """Share the Blast hits of ``rolled`` evenly between ``len(worth)`` units (the target first).

    Hits of weapons without Blast all stay with the target. Returns one :data:`Rolled` per unit,
    in the given order, each keeping the weapons' order and the hits' roll order; the other
    units' parts hold only the weapons that hit them.
    """
    k = len(worth)
    pool = [(i, j) for i, (p, hits) in enumerate(rolled) if p.blast > 1 for j in range(len(hits))]
    q, r = divmod(len(pool), k)
    order = sorted(range(k), key=lambda u: (worth[u], u))  # cheapest wounds first
    quota = {u: q + (1 if rank < r else 0) for rank, u in enumerate(order)}
    harm = sorted(pool, key=lambda ij: (-rolled[ij[0]][0].deadly, -rolled[ij[0]][1][ij[1]].ap, ij))
    owner: dict[tuple[int, int], int] = {}
    it = iter(harm)
    for u in order:
        for _ in range(quota[u]):
            owner[next(it)] = u
    parts: list[Rolled] = []
    for u in range(k):
        part = []
        for i, (p, hits) in enumerate(rolled):
            if p.blast > 1:
                mine: tuple[Hit, ...] = tuple(h for j, h in enumerate(hits) if owner[(i, j)] == u)
            else:
                mine = hits if u == 0 else ()
            if u == 0 or mine:
                part.append((p, mine))
        parts.append(tuple(part))
    return parts
