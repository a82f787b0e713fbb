"""GFF's optional special moves: pushing, jumping and falling (seed 003 "SPECIAL MOVES").

Each rule is a pure function that says which checks to roll and what follows, so the game layer
resolves the dice with whatever mechanic it plays (d6 or the clock) and exact odds come from the
same checks:

- Pushing: on a Shaken result the attacker rolls one die; on a 4+ it may move the model up to
  2" in any direction.
- Jumping: gaps up to 1" and drops up to 3" are ordinary movement; gaps or drops up to 6" need a
  jump: X+1 dice needing 3+ (Strider 2+; Flying passes), X one per full 3"; all must succeed or
  the model falls.
- Falling: off a position at least 2" tall, one hit with AP(1 per full 3" fallen), then the
  model is placed within 2" of the bottom and its activation ends; in a unit of several models
  the model is killed instead, until one is left.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.table.model``,
``oprlab.table.measure``, ``oprlab.table.formation`` and ``oprlab.table.movement``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Mechanic, Outcome, Test
from oprlab.mechanics.registry import get_mechanic
from oprlab.table import planar
from oprlab.table.formation import BoolArray, Neighbours, settle, standable
from oprlab.table.measure import elevation
from oprlab.table.model import FloatArray, Placement, Point, Table
from oprlab.table.paths import nav_graph

#: Pushing: a 4+ lets the attacker move the model.
PUSH_TARGET = 4
#: Pushing: up to 2" in any direction.
PUSH_DISTANCE = 2.0
#: Jumping: gaps up to 1" and drops up to 3" are regular movement.
FREE_GAP = 1.0
FREE_DROP = 3.0
#: Jumping: gaps and drops up to 6" may be jumped.
MAX_JUMP = 6.0
#: Jumping: one die per full 3", plus one.
JUMP_STEP = 3.0
JUMP_TARGET = 3
STRIDER_JUMP_TARGET = 2
#: Falling: from at least 2" tall; AP(1) per full 3"; placed within 2" of the bottom.
FALL_MIN = 2.0
FALL_AP_STEP = 3.0
LANDING = 2.0


def push_check() -> Check:
    """The attacker's roll to push a model that rolled a Shaken result: one die, 4+."""
    return Check(Test.GENERIC, PUSH_TARGET)


@dataclass(frozen=True, eq=False)
class PushResult:
    """Where the pushed model ended, how far it moved, and how far it dropped."""

    placement: Placement
    moved: float
    drop: float

    @property
    def falls(self) -> bool:
        """Pushed off an elevated position at least 2" tall."""
        return self.drop >= FALL_MIN - 1e-9


def push_model(
    table: Table,
    unit: Placement,
    index: int,
    direction: Point,
    others: Sequence[Placement] = (),
    *,
    distance: float = PUSH_DISTANCE,
) -> PushResult:
    """Push model ``index`` of ``unit`` up to ``distance`` inches along ``direction``.

    The model goes as far as it can in a straight line: it stops short of impassable terrain,
    of the table edge and of other bases (it may not overlap them). Falling off an elevated
    piece is reported as ``drop``; the caller applies :func:`fall`.
    """
    if not 0 <= index < len(unit.radii) or not unit.alive[index]:
        raise OptionError("no such model to push", value=index, expected="an alive model's index")
    if not (math.isfinite(distance) and 0 <= distance <= PUSH_DISTANCE):
        raise OptionError("push distance out of range", value=distance, expected='0 to 2"')
    dx, dy = float(direction[0]), float(direction[1])
    norm = math.hypot(dx, dy)
    if not math.isfinite(norm) or norm < 1e-12:
        raise OptionError("push direction must be non-zero", value=direction, expected="(dx, dy)")
    u = np.array([dx / norm, dy / norm])
    start = unit.centres[index].copy()
    r = float(unit.radii[index])
    nav = nav_graph(table, r, climb_limit=math.inf)  # a push may go over any edge
    others_c, others_r = _other_bases(unit, index, others)
    z0 = float(elevation(table, start[None, :])[0])
    best = 0.0
    for t in np.linspace(distance, 0.0, 41)[:-1]:
        end = start + t * u
        if not standable(table, end[None, :], r, climb_limit=math.inf)[0]:
            continue
        if float(elevation(table, end[None, :])[0]) > z0 + 1e-9:
            continue  # pushed, not lifted: never onto higher ground
        if not nav.clear(start[None, :], end[None, :])[0]:
            continue
        if len(others_r) and (_sweep_gap(start, end, others_c) < r + others_r - 1e-9).any():
            continue
        best = float(t)
        break
    new = unit.copy()
    new.centres[index] = start + best * u
    z1 = float(elevation(table, new.centres[index : index + 1])[0])
    return PushResult(new, best, max(0.0, z0 - z1))


def _sweep_gap(a: FloatArray, b: FloatArray, points: FloatArray) -> FloatArray:
    """Distance from each point to the segment ``ab`` (a base swept along a push)."""
    d = b - a
    t = np.clip(planar.dot2(points - a, d) / float(planar.dot2(d, d)), 0.0, 1.0)
    near = a + t[:, None] * d
    out: FloatArray = np.hypot(*(points - near).T)
    return out


def _other_bases(
    unit: Placement, index: int, others: Sequence[Placement]
) -> tuple[FloatArray, FloatArray]:
    keep = unit.alive.copy()
    keep[index] = False
    cs = [unit.centres[keep]] + [o.centres[o.alive] for o in others if o is not unit]
    rs = [unit.radii[keep]] + [o.radii[o.alive] for o in others if o is not unit]
    return np.concatenate(cs), np.concatenate(rs)


def jump_dice(distance: float) -> int:
    """How many dice a jump of ``distance`` inches rolls: one per full 3", plus one."""
    if not (math.isfinite(distance) and 0 <= distance <= MAX_JUMP):
        raise OptionError("jump distance out of range", value=distance, expected='0 to 6"')
    return math.floor(distance / JUMP_STEP + 1e-9) + 1


def jump_needed(gap: float = 0.0, drop: float = 0.0) -> bool:
    """Whether crossing ``gap`` or dropping ``drop`` inches needs a jump (not regular movement).

    Raises:
        OptionError: over 6" (too far to jump) or negative.
    """
    for name, value in (("gap", gap), ("drop", drop)):
        if not (math.isfinite(value) and 0 <= value <= MAX_JUMP):
            raise OptionError(f"jump {name} out of range", value=value, expected='0 to 6"')
    return gap > FREE_GAP + 1e-9 or drop > FREE_DROP + 1e-9


def jump_checks(
    gap: float = 0.0, drop: float = 0.0, *, strider: bool = False, flying: bool = False
) -> tuple[Check, ...]:
    """The dice a jump rolls: X+1 checks of 3+ (Strider 2+), X one per full 3" of the longer of
    the gap and the drop. Flying passes jumping rolls, and regular movement needs none: both
    roll nothing."""
    if not jump_needed(gap, drop) or flying:
        return ()
    target = STRIDER_JUMP_TARGET if strider else JUMP_TARGET
    return tuple(Check(Test.GENERIC, target) for _ in range(jump_dice(max(gap, drop))))


def jump_succeeds(outcomes: Sequence[Outcome]) -> bool:
    """The model crosses (without the distance counting toward its move) only if every jump
    roll succeeded; otherwise it falls."""
    return all(o.success for o in outcomes)


def jump_probability(checks: Sequence[Check], mechanic: Mechanic | None = None) -> Fraction:
    """Exact chance that every check of a jump succeeds (independent dice; d6 by default)."""
    mech = mechanic or get_mechanic("d6")
    p = Fraction(1)
    for check in checks:
        p *= mech.p_success(check)
    return p


@dataclass(frozen=True)
class FallResult:
    """What a fall does.

    Attributes:
        hits: hits the model takes (one, for the last model of a unit; none when killed).
        ap: the AP(X) of that hit: one per full 3" fallen.
        killed: in a unit of several models, the fallen model is killed instead.
        activation_ends: the model's activation ends immediately.
    """

    hits: int
    ap: int
    killed: bool
    activation_ends: bool


def fall(height: float, models_left: int = 1) -> FallResult:
    """A model falls (or is pushed) ``height`` inches off an elevated position.

    Under 2" nothing happens. Otherwise, with more than one model left in its unit the model
    is killed; the last model takes one hit with AP(1 per full 3") and its activation ends.
    """
    if not (math.isfinite(height) and height >= 0):
        raise OptionError("fall height out of range", value=height, expected="inches >= 0")
    if models_left < 1:
        raise OptionError("models_left out of range", value=models_left, expected="1 or more")
    if height < FALL_MIN - 1e-9:
        return FallResult(0, 0, False, False)
    ap = math.floor(height / FALL_AP_STEP + 1e-9)
    if models_left > 1:
        return FallResult(0, ap, True, False)
    return FallResult(1, ap, False, True)


def land(
    table: Table,
    unit: Placement,
    index: int,
    bottom: Point,
    others: Sequence[Placement] = (),
) -> Placement | None:
    """Place a fallen model within 2" of ``bottom`` (the foot of the drop), on ground lower than
    where it fell from, clear of other bases; ``None`` if there is no room."""
    if not 0 <= index < len(unit.radii):
        raise OptionError("no such model", value=index, expected="a model index of the unit")
    r = float(unit.radii[index])
    foot = np.array([float(bottom[0]), float(bottom[1])])
    top = float(elevation(table, unit.centres[index : index + 1])[0])
    fixed_c, fixed_r = _other_bases(unit, index, others)

    def below(points: FloatArray, radius: float) -> BoolArray:
        near = np.hypot(*(points - foot).T) <= LANDING + 1e-9
        if top > 0:
            near &= elevation(table, points) < top - 1e-9
        return np.asarray(near, dtype=np.bool_)

    got = settle(
        table,
        foot[None, :],
        np.array([r]),
        Neighbours.of([], gap=0.0),
        cohesion=False,
        allowed=below,
        fixed=fixed_c,
        fixed_radii=fixed_r,
    )
    if got is None:
        return None
    new = unit.copy()
    new.centres[index] = got[0]
    return new
