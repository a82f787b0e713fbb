"""The game's view of the table: distances, moves, sight and cover, behind one small seam.

The game asks these questions in rules words (how far apart, can it see, does it have cover,
move it toward there); this module answers them with :mod:`oprlab.table`. Keeping the seam
narrow lets the table's implementation improve without touching the game procedure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from oprlab.errors import OptionError
from oprlab.table import charge
from oprlab.table.cover import has_cover
from oprlab.table.formation import legal_end
from oprlab.table.model import Placement, Point, Table, base_radius, is_large
from oprlab.table.movement import MoveRules, move_unit
from oprlab.table.sight import SightCache, visible
from oprlab.units.model import Unit

#: GFF cohesion: within 1" of another member; formations leave this gap between bases.
FORMATION_GAP = 0.5
#: Units may only be within 1" of other units when charging.
SPACING = 1.0


def formation(unit: Unit, models: int, centre: Point, facing: float = 0.0) -> Placement:
    """A compact formation: rows of up to 5 models facing ``facing`` (radians), centred."""
    r = base_radius(unit)
    step = 2 * r + FORMATION_GAP
    per_row = min(5, max(1, models))
    rows = math.ceil(models / per_row)
    pts = []
    for i in range(models):
        row, col = divmod(i, per_row)
        in_row = min(per_row, models - row * per_row)
        x = (col - (in_row - 1) / 2) * step
        y = -(row - (rows - 1) / 2) * step
        pts.append((x, y))
    local = np.array(pts, dtype=np.float64)
    c, s = math.cos(facing), math.sin(facing)
    rot = np.array([[c, -s], [s, c]])
    centres = local @ rot.T + np.asarray(centre)
    return Placement(centres, np.full(models, r), large=is_large(unit))


def alive_centres(p: Placement) -> np.ndarray:
    return p.centres[p.alive]


def centroid(p: Placement) -> Point:
    c = alive_centres(p).mean(axis=0)
    return (float(c[0]), float(c[1]))


def gap(a: Placement, b: Placement) -> float:
    """Unit to unit: the closest models, base edge to base edge (seed 002 "Measuring")."""
    ca, cb = alive_centres(a), alive_centres(b)
    ra, rb = a.radii[a.alive], b.radii[b.alive]
    d = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2) - ra[:, None] - rb[None, :]
    return float(max(0.0, d.min()))


def point_gap(p: Placement, point: Point) -> float:
    """Distance from a point to the closest base edge of a unit."""
    c = alive_centres(p)
    d = np.linalg.norm(c - np.asarray(point), axis=1) - p.radii[p.alive]
    return float(max(0.0, d.min()))


def inside_table(table: Table, p: Placement) -> bool:
    c, r = alive_centres(p), p.radii[p.alive]
    return bool(
        np.all(c[:, 0] - r >= 0)
        and np.all(c[:, 0] + r <= table.width)
        and np.all(c[:, 1] - r >= 0)
        and np.all(c[:, 1] + r <= table.depth)
    )


def translated(p: Placement, dx: float, dy: float) -> Placement:
    q = p.copy()
    q.centres = q.centres + np.array([dx, dy])
    return q


def move_toward(
    table: Table,
    p: Placement,
    others: list[Placement],
    goal: Point,
    allowance: float,
    *,
    may_touch: Placement | None = None,
    stop_at: float = 0.0,
    unit: Unit | None = None,
    system: str = "gff",
) -> Placement:
    """Where a unit ends moving toward ``goal``: :func:`move_unit_toward`'s placement."""
    if stop_at > 0:
        cx, cy = centroid(p)
        d = math.hypot(goal[0] - cx, goal[1] - cy)
        if d <= stop_at:
            return p.copy()
        f = (d - stop_at) / d
        goal = (cx + (goal[0] - cx) * f, cy + (goal[1] - cy) * f)
    return move_unit_toward(
        table, p, others, goal, allowance, may_touch=may_touch, unit=unit, system=system
    ).placement


def move_unit_toward(
    table: Table,
    p: Placement,
    others: list[Placement],
    goal: Point,
    allowance: float,
    *,
    may_touch: Placement | None = None,
    unit: Unit | None = None,
    system: str = "gff",
) -> MoveOutcome:
    """Move a unit toward ``goal`` by up to ``allowance`` along a path round terrain.

    The unit keeps its formation, 1" from other units (``may_touch``: the unit it charges),
    coherent and off impassable terrain (:func:`oprlab.table.movement.move_unit`); difficult
    terrain caps the move at 6" unless it has Strider, and Flying ignores terrain.
    """
    rules = MoveRules.of(unit, system) if unit is not None else MoveRules(system=system)
    result = move_unit(table, p, others, goal, allowance, rules=rules, charging_target=may_touch)
    return MoveOutcome(result.placement, float(result.advanced), result.dangerous)


@dataclass(frozen=True)
class MoveOutcome:
    """Where a unit ended, how far it got, and which models crossed dangerous terrain."""

    placement: Placement
    advanced: float
    dangerous: npt.NDArray[np.bool_]


def charge_move(
    table: Table,
    p: Placement,
    target: Placement,
    others: list[Placement],
    allowance: float,
    *,
    unit: Unit | None = None,
    system: str = "gff",
) -> Placement | None:
    """Move a charger into base contact with ``target``; ``None`` if no model can reach."""
    rules = MoveRules.of(unit, system) if unit is not None else MoveRules(system=system)
    rest = [o for o in others if o is not target]
    try:
        return charge.charge_move(table, p, target, rest, allowance, rules=rules).placement
    except OptionError:
        return None


def pile_in(
    table: Table,
    defender: Placement,
    attacker: Placement,
    others: list[Placement],
    *,
    unit: Unit | None = None,
) -> Placement:
    """The charged unit's models move up to 3" into base contact (seed 003 Charging)."""
    rules = MoveRules.of(unit) if unit is not None else None
    rest = [o for o in others if o is not attacker and o is not defender]
    return charge.pile_in(table, defender, attacker, rest, rules=rules).placement


def separate(
    table: Table,
    charger: Placement,
    defender: Placement,
    others: list[Placement],
    *,
    unit: Unit | None = None,
) -> Placement:
    """After combat the charger moves back to be 1" from the defender (if possible)."""
    rules = MoveRules.of(unit) if unit is not None else None
    rest = [o for o in others if o is not charger and o is not defender]
    return charge.separate(table, charger, defender, rest, rules=rules).move.placement


def fits(table: Table, p: Placement, others: Sequence[Placement]) -> bool:
    """A unit may stand here: on the table, clear of impassable terrain, 1" from others."""
    return not legal_end(table, p, others)


def within(p: Placement, point: Point, distance: float) -> bool:
    return point_gap(p, point) <= distance


# --- line of sight and cover (oprlab.table.sight / cover) ---------------------------------


def sees(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    *,
    system: str = "gff",
    cache: SightCache | None = None,
) -> npt.NDArray[np.bool_]:
    """Which shooting models see at least one model of ``target`` (seed 003/002 rules)."""
    seen = visible(table, shooter, target, others, system, cache=cache)
    return np.asarray(seen.any(axis=1), dtype=np.bool_)


def in_cover(
    table: Table,
    shooter: Placement,
    target: Placement,
    others: Sequence[Placement] = (),
    *,
    system: str = "gff",
    blast: bool = False,
    indirect: bool = False,
    cache: SightCache | None = None,
) -> bool:
    """Whether the target has cover from this shooting, judged for the unit as a whole.

    Cover is decided per shooting model by the table; a unit's attack is resolved at once, so
    the target counts as in cover when it has cover from most of the models that can see it.
    """
    seen = sees(table, shooter, target, others, system=system, cache=cache)
    covered = has_cover(
        table, shooter, target, others, system, blast=blast, indirect=indirect, cache=cache
    )
    shooting = covered[seen] if seen.any() else covered
    return bool(shooting.size and shooting.sum() * 2 > shooting.size)
