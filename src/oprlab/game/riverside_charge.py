"""Riverside's Charge Action (seed 002): move allowances and which enemy units some model can
reach base contact with (a straight line on an open table, else the table's path search,
remembered by the positions that can matter).

May import ``oprlab.table``, ``oprlab.units`` and ``oprlab.game``'s state, geometry and
activation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from oprlab.game import activation
from oprlab.game import geometry as geo
from oprlab.game.actions import Kind
from oprlab.game.riverside_options import SYSTEM
from oprlab.game.state import GameState, UnitState
from oprlab.memo import game_memo, make_room
from oprlab.table import charge as table_charge
from oprlab.table.model import Placement, Table
from oprlab.table.movement import MoveRules, unit_allowance
from oprlab.units.model import Unit
from oprlab.units.rule_scope import any_has, unit_rule

EPS = 1e-6


def move_allowance(unit: Unit, kind: Kind) -> float:
    """Advance 6", Rush 12", Charge 12"; Fast and Slow as in GFF (not in seed 002)."""
    hit = _ALLOWANCE.get((id(unit), id(kind)))
    if hit is not None and hit[0] is unit:
        return hit[1]
    out = unit_allowance(unit, kind.value) if kind in _MOVES else 0.0
    make_room(_ALLOWANCE, _ALLOWANCE_SIZE)
    _ALLOWANCE[(id(unit), id(kind))] = (unit, out)
    return out


_MOVES = (Kind.ADVANCE, Kind.RUSH, Kind.CHARGE)
#: :func:`move_allowance` by the unit's and the action's identity (the entry holds the unit,
#: so its id stays unique): the commanders ask it thousands of times a game, and each answer
#: looks up two rules (Kind members live as long as the module, and an Enum's own hash is a
#: Python call).
_ALLOWANCE: dict[tuple[int, int], tuple[Unit, float]] = game_memo(
    "game.riverside_charge._ALLOWANCE"
)
_ALLOWANCE_SIZE = 4096


def _rules(unit: Unit) -> MoveRules:
    return MoveRules.of(unit, SYSTEM)


def charge_targets(
    state: GameState, us: UnitState, foes: activation.Foes | None = None
) -> list[str]:
    """Enemy units at least one model can reach base contact with ("Charge Action");
    ``foes``: the listing's enemies and standing units, read once for all its units.

    Units are measured by their bounding circles before their models (the circles' gap is at
    most the models' :func:`geometry.gap`): most are too far to charge or to be in the way."""
    unit = us.placement
    assert unit is not None
    if not any(w.melee for w in us.unit.weapons) and not any_has(us.unit, "Impact"):
        return []
    reach = move_allowance(us.unit, Kind.CHARGE)
    foes = foes or activation.Foes(state, us.side)
    own = geo.gap_key(unit)
    x, y, spread = geo.bounding_circle(unit, own)
    near: list[tuple[Placement, geo.GapKey]] | None = None
    head = (reach, unit_rule(us.unit, "Flying"), unit_rule(us.unit, "Strider"), own)
    out = []
    for uid, target, key, (ex, ey, their) in foes.placed():
        if (
            math.hypot(ex - x, ey - y) - their > reach + spread + geo.BOUND_MARGIN
            or geo.keyed_gap(unit, own, target, key) > reach
        ):
            continue
        if near is None:  # once, for the first target in reach (most listings have none)
            # A unit farther than this can neither stand in a path nor crowd a spot in
            # contact (paths are at most ``reach`` long).
            margin = reach + geo.SPACING + 2 * float(unit.radii.max()) + 0.5
            far = margin + spread + geo.BOUND_MARGIN
            near = [
                (p, k)
                for u, p, k, (ox, oy, r) in foes.standing()
                if u != us.uid
                and math.hypot(ox - x, oy - y) - r <= far
                and geo.keyed_gap(unit, own, p, k) <= margin
            ]
        others = [(p, k) for p, k in near if p is not target]
        if _can_charge(state, us, target, key, others, head):
            out.append(uid)
    return out


_CHARGE_MEMO_SIZE = 4096


def _can_charge(
    state: GameState,
    us: UnitState,
    target: Placement,
    target_key: geo.GapKey,
    near: list[tuple[Placement, geo.GapKey]],
    head: tuple[float, bool, bool, geo.GapKey],
) -> bool:
    """:func:`oprlab.table.charge.can_charge`, remembered by the positions that can matter:
    the target's (``target_key``), those of ``near``, the units near enough the charger to be
    in the way, with their gap keys (most pairs are unchanged from one decision to the next),
    and ``head``: the reach, Flying, Strider and the charger's own positions."""
    assert us.placement is not None
    reach = head[0]
    key = (*head, target_key, tuple(sorted(k for _, k in near)))
    memo = state.memo.charge
    if key not in memo:
        if len(memo) >= _CHARGE_MEMO_SIZE:
            memo.clear()
        others = [p for p, _ in near]
        keys = (head[3], target_key)
        memo[key] = _straight_charge(state.table, us.placement, target, others, reach, keys) or (
            table_charge.can_charge(
                state.table,
                us.placement,
                target,
                reach,
                others,
                rules=_rules(us.unit),
                listing=True,
            )
        )
    return bool(memo[key])


#: A straight charge must be this much shorter than the move for the quick answer to stand
#: (the table's own search tries contact spots at fixed angles, a little off the straight line).
_STRAIGHT_SLACK = 0.25


#: Pairs of models (nearest first) tried for a straight charge before the path search.
_STRAIGHT_TRIES = 64


def _straight_charge(
    table: Table,
    unit: Placement,
    target: Placement,
    others: Sequence[Placement],
    reach: float,
    keys: tuple[geo.GapKey, geo.GapKey] | None = None,
) -> bool:
    """A sufficient condition for a legal charge on a table with no terrain: some charging
    model can go in a straight line, clear of other units by 1" and of the target's other
    bases, to a free spot touching the target's model nearest to it. Otherwise the table's
    path search answers (:func:`oprlab.table.charge.can_charge`). ``keys``: the charger's and
    the target's :func:`geometry.gap_key`, when the caller has them.

    Only the 1" from other units reads ``others``: the lines that pass the rest
    (:func:`_straight_lines`) are remembered, most pairs stand still from one decision to the
    next while some unit near them moves."""
    if table.pieces:
        return False
    unit_key, target_key = keys or (geo.gap_key(unit), geo.gap_key(target))
    lines = _straight_lines(table, unit, target, reach, unit_key, target_key)
    if not lines:
        return False
    oc = [o.centres[o.alive] for o in others]
    orr = [o.radii[o.alive] for o in others]
    blocks_c = np.concatenate(oc) if oc else np.zeros((0, 2))
    need = (np.concatenate(orr) if orr else np.zeros(0)) + geo.SPACING
    return any(_segment_clear(a, spot, ra, blocks_c, need) for a, spot, ra in lines)


#: A straight line: a charging model's centre, the spot it would stop at and its base radius.
_Line = tuple[np.ndarray, np.ndarray, float]
#: :func:`_straight_lines` by the charger's and the target's gap keys (every position and base
#: it reads), the reach and the table's size (a table with pieces is never asked).
_LINES: dict[tuple[geo.GapKey, geo.GapKey, float, float, float], tuple[_Line, ...]] = game_memo(
    "game.riverside_charge._LINES"
)
_LINES_SIZE = 2048


def _straight_lines(
    table: Table,
    unit: Placement,
    target: Placement,
    reach: float,
    unit_key: geo.GapKey,
    target_key: geo.GapKey,
) -> tuple[_Line, ...]:
    """The lines :func:`_straight_charge` tries (pairs of models nearest first, at most
    ``_STRAIGHT_TRIES``) that end on the table and pass clear of the target's other bases, in
    the order tried: what it reads of the charger and target alone (read-only arrays)."""
    key = (unit_key, target_key, reach, table.width, table.depth)
    found = _LINES.get(key)
    if found is not None:
        return found
    tc, tr = target.centres[target.alive], target.radii[target.alive]
    ac, ar = unit.centres[unit.alive], unit.radii[unit.alive]
    d = geo.edge_gaps(unit, target)  # as ``np.linalg.norm(..., axis=2)``: the same bits
    pairs = np.argwhere(d <= reach - _STRAIGHT_SLACK)
    order = np.argsort(d[pairs[:, 0], pairs[:, 1]], kind="stable")[:_STRAIGHT_TRIES]
    lines = []
    models = np.arange(len(tr))
    for i, j in pairs[order].tolist():
        a, ra = ac[i].copy(), float(ar[i])
        v = a - tc[j]
        n = float(np.hypot(*v))
        if n < EPS:
            continue
        spot = tc[j] + v / n * (tr[j] + ra + 0.01)
        if not (ra <= spot[0] <= table.width - ra and ra <= spot[1] <= table.depth - ra):
            continue
        rest = models != j  # the target's other models
        if _segment_clear(a, spot, ra, tc[rest], tr[rest] - EPS):
            a.setflags(write=False)
            spot.setflags(write=False)
            lines.append((a, spot, ra))
    make_room(_LINES, _LINES_SIZE)
    found = _LINES[key] = tuple(lines)
    return found


def _segment_clear(
    a: np.ndarray, b: np.ndarray, ra: float, centres: np.ndarray, need: np.ndarray
) -> bool:
    """A base of radius ``ra`` swept from ``a`` to ``b`` keeps ``need`` from every centre."""
    if len(centres) == 0:
        return True
    ab = b - a
    length2 = float(ab @ ab)
    # np.clip(..., 0.0, 1.0) without its wrapper (the same values: the ratio is never NaN)
    t = (
        np.minimum(np.maximum(((centres - a) @ ab) / length2, 0.0), 1.0)
        if length2 > 0
        else np.zeros(len(need))
    )
    closest = a + t[:, None] * ab
    gap = np.hypot(*(centres - closest).T) - ra
    return bool((gap >= need).all())
