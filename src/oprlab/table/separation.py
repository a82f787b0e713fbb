"""After combat (seed 003 "After Combat"): unless one unit was destroyed, the charger moves back
to be 1" apart from the defender, if it can. Split from :mod:`oprlab.table.charge` (which
re-exports :func:`separate`), whose charge and pile-in moves fill a module of their own.

May import ``oprlab.errors``, ``oprlab.table.model``, ``oprlab.table.planar``,
``oprlab.table.formation`` and ``oprlab.table.movement``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oprlab.errors import OptionError
from oprlab.table import planar
from oprlab.table.formation import TOL, Neighbours, gaps, is_coherent, settle, standable
from oprlab.table.model import FloatArray, Placement, Table
from oprlab.table.movement import Mover, MoveResult, MoveRules, build_result

#: Seed 003 "After Combat": otherwise the charger moves back to be 1" apart.
SEPARATION = 1.0


@dataclass(frozen=True, eq=False)
class Separation:
    """The charger's move back after combat, and whether it got 1" apart."""

    move: MoveResult
    separated: bool


def separate(
    table: Table,
    charger: Placement,
    defender: Placement,
    others: Sequence[Placement] = (),
    *,
    gap: float = SEPARATION,
    rules: MoveRules | None = None,
) -> Separation:
    """Seed 003 "After Combat": the charger moves back to be ``gap`` inches from the defender,
    if possible. The unit steps straight back as a block (trying directions fanning out from
    straight away from the defender, shortest step first); failing that its models each take
    the nearest legal spot in cohesion; failing that it stays."""
    rules = rules or MoveRules()
    if not (math.isfinite(gap) and gap >= 0):
        raise OptionError("separation gap out of range", value=gap, expected="inches >= 0")
    idx = charger.alive.nonzero()[0]
    starts = charger.centres[idx]
    radii = charger.radii[idx]
    dc, dr = defender.centres[defender.alive], defender.radii[defender.alive]
    still = [((float(p[0]), float(p[1])),) for p in starts]
    if len(idx) == 0 or len(dr) == 0 or gaps(starts, radii, dc, dr).min() >= gap - TOL:
        move = build_result(table, charger, starts, still, np.zeros(len(idx)), rules, 0.0)
        return Separation(move, True)
    rest = [o for o in others if o is not charger and o is not defender]
    neighbours = Neighbours.of(rest, gap=rules.spacing)
    apart = Neighbours(
        np.concatenate([neighbours.centres, dc]),
        np.concatenate([neighbours.radii, dr]),
        np.concatenate([neighbours.need, np.full(len(dr), gap)]),
    )
    m = Mover(table, charger, [*rest, defender], rules, (), False, idx, True)
    away = starts.mean(axis=0) - dc.mean(axis=0)
    base = math.atan2(away[1], away[0]) if float(np.hypot(*away)) > 1e-9 else -math.pi / 2
    dirs = np.array(
        [
            [math.cos(base + math.radians(deg)), math.sin(base + math.radians(deg))]
            for deg in _BACK_DEGREES
        ]
    )
    steps = _steps_back(starts, radii, dc, dr, dirs, gap + 2 * TOL)
    options = [(float(t), u) for t, u in zip(steps.tolist(), dirs, strict=True) if t < math.inf]
    options.sort(key=lambda tu: tu[0])
    for t, u in options:
        ends = starts + t * u
        if not _legal_block(m, ends, radii, apart):
            continue
        paths = [
            ((float(a[0]), float(a[1])), (float(b[0]), float(b[1])))
            for a, b in zip(starts, ends, strict=True)
        ]
        move = build_result(table, charger, ends, paths, np.full(len(idx), t), rules, t)
        return Separation(move, True)
    got = settle(table, starts, radii, apart, flying=rules.flying)
    if got is not None and is_coherent(Placement(got, radii), rules.system):
        paths_l = [m.path(float(radii[k]), starts[k], got[k]) for k in range(len(idx))]
        if all(p.reached for p in paths_l):
            costs = np.array([p.cost for p in paths_l])
            move = build_result(
                table, charger, got, [p.points for p in paths_l], costs, rules, float(costs.max())
            )
            return Separation(move, True)
    move = build_result(table, charger, starts, still, np.zeros(len(idx)), rules, 0.0)
    return Separation(move, False)


#: Directions the block steps back in, in degrees from straight away from the defender, in the
#: order tried (a shorter step first; of equal steps, the one listed first).
_BACK_DEGREES = (0, 15, -15, 30, -30, 45, -45, 60, -60, 90, -90, 120, -120, 150, -150, 180)


def _steps_back(
    starts: FloatArray,
    radii: FloatArray,
    dc: FloatArray,
    dr: FloatArray,
    dirs: FloatArray,
    gap: float,
) -> FloatArray:
    """For each direction ``dirs[k]``, the shortest step ``t >= 0`` along it after which every
    model is ``gap`` from every defender model (each pair rules out an open interval of ``t``),
    or ``inf`` if none: one numpy pass for every direction, the same arithmetic on each element
    as one direction alone (so the same bits). The step is the least of 0 and the intervals'
    ends above 0 that no interval holds."""
    w = starts[:, None, :] - dc[None, :, :]
    reach = radii[:, None] + dr[None, :] + gap
    k = len(dirs)
    wu = planar.dot2(w[None, :, :, :], dirs[:, None, None, :]).reshape(k, -1)
    disc = wu**2 - (w**2).sum(axis=-1).reshape(1, -1) + (reach**2).reshape(1, -1)
    inside = disc > 0
    near = inside.any(axis=0)  # a pair apart along every direction rules out no step
    if not near.all():
        wu, disc, inside = wu[:, near], disc[:, near], inside[:, near]
    root = np.sqrt(np.where(inside, disc, 0))
    lo = np.where(inside, -wu - root, np.inf)
    hi = np.where(inside, -wu + root, -np.inf)
    cand = np.concatenate((np.zeros((k, 1)), np.where(hi > 0, hi, np.inf)), axis=1)
    held = (lo[:, None, :] < cand[:, :, None] - 1e-12) & (cand[:, :, None] < hi[:, None, :] - 1e-12)
    out: FloatArray = np.where(held.any(axis=2), np.inf, cand).min(axis=1)
    return out


def _legal_block(m: Mover, ends: FloatArray, radii: FloatArray, apart: Neighbours) -> bool:
    for r in sorted(set(np.round(radii, 6).tolist())):
        group = np.round(radii, 6) == r
        if not standable(m.table, ends[group], float(r), flying=m.rules.flying).all():
            return False
    if len(apart.radii):
        g = gaps(ends, radii, apart.centres, apart.radii)
        if (g < apart.need[None, :] - TOL).any():
            return False
    starts = m.unit.centres[m.idx]
    for r in sorted(set(np.round(radii, 6).tolist())):
        group = np.round(radii, 6) == r
        nav = m.nav(float(r))
        if nav is not None and not nav.clear(starts[group], ends[group]).all():
            return False
    return True
