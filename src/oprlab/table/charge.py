"""Melee on the table: charge moves, the defender's pile-in, who strikes, and after combat.

Seed 002 "Charge Action" / "Melee Attacks" and seed 003 "MELEE": the charging models move up to
their allowance into base contact with the target, the closest first, or as close as possible;
at least one must be able to reach contact for the charge to be legal. Then the target's models
not in contact move up to 3" into contact or as close as possible. Models within 2" of an enemy
strike (GFF: and within 4" vertically). After combat the survivor of a destroyed unit may move
3"; otherwise the charger moves back to be 1" apart, if it can (:mod:`oprlab.table.separation`,
its :func:`separate` re-exported here).

May import ``oprlab.errors``, ``oprlab.table.model``, ``oprlab.table.measure``,
``oprlab.table.formation``, ``oprlab.table.movement``, ``oprlab.table.paths`` and
``oprlab.table.separation``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from oprlab.errors import OptionError
from oprlab.memo import make_room
from oprlab.table.formation import (
    TOL,
    BoolArray,
    Neighbours,
    gaps,
    is_difficult,
    is_hazard,
    settle,
    standable,
)
from oprlab.table.measure import elevation
from oprlab.table.model import FloatArray, Placement, Point, Table, TerrainType
from oprlab.table.movement import (
    Mover,
    MoveResult,
    MoveRules,
    build_result,
    move_unit,
    path_touches,
)
from oprlab.table.paths import Path, none_within, reaches_within, walk
from oprlab.table.separation import SEPARATION as SEPARATION
from oprlab.table.separation import Separation as Separation
from oprlab.table.separation import separate as separate

#: Models this close (base to base) count as in base contact.
CONTACT_TOL = 0.05
#: Where a charging model stops: just short of touching, against round-off.
CONTACT_GAP = 0.005
#: Seeds 002 "Melee Attacks" Movement, 003 "Charging": the defenders move up to 3".
PILE_IN = 3.0
#: Seed 002 "Determine Attacks", 003 "Striking": models within 2" strike.
STRIKE_RANGE = 2.0
#: Seed 003 "Striking": and within 4" vertically.
STRIKE_VERTICAL = 4.0
#: Seed 003 "After Combat": the survivor of a destroyed unit may move up to 3".
CONSOLIDATE = 3.0
#: Angles around each enemy model at which a contact spot is tried.
_ANGLES = 24


@dataclass(frozen=True, eq=False)
class ChargeResult:
    """A charge (or pile-in) move and which of the moving models ended in base contact."""

    move: MoveResult
    in_contact: BoolArray

    @property
    def placement(self) -> Placement:
        return self.move.placement


def in_contact(unit: Placement, enemy: Placement, tol: float = CONTACT_TOL) -> BoolArray:
    """Which of ``unit``'s alive models touch (within ``tol``) an alive model of ``enemy``."""
    out = np.zeros(len(unit.radii), dtype=np.bool_)
    a, e = unit.alive, enemy.alive
    if not a.any() or not e.any():
        return out
    g = gaps(unit.centres[a], unit.radii[a], enemy.centres[e], enemy.radii[e])
    out[a] = (g <= tol).any(axis=1)
    return out


def strikers(
    attacker: Placement,
    defender: Placement,
    within: float = STRIKE_RANGE,
    *,
    table: Table | None = None,
    vertical: float | None = None,
) -> BoolArray:
    """Which alive ``attacker`` models are within ``within`` inches of an alive ``defender``
    model (seeds 002, 003). With a ``table`` and a ``vertical`` limit (GFF: 4"), the heights
    the models stand at must also be within that many inches."""
    if not (math.isfinite(within) and within >= 0):
        raise OptionError("strike range out of range", value=within, expected="inches >= 0")
    out = np.zeros(len(attacker.radii), dtype=np.bool_)
    a, d = attacker.alive, defender.alive
    if not a.any() or not d.any():
        return out
    near = gaps(attacker.centres[a], attacker.radii[a], defender.centres[d], defender.radii[d])
    ok = near <= within + TOL
    if table is not None and vertical is not None:
        za = elevation(table, attacker.centres[a])
        zd = elevation(table, defender.centres[d])
        ok &= np.abs(za[:, None] - zd[None, :]) <= vertical + TOL
    out[a] = ok.any(axis=1)
    return out


def _contact_spots(mover_r: float, enemy: Placement) -> FloatArray:
    """Spots where a base of ``mover_r`` just touches an alive enemy model."""
    c, r = enemy.centres[enemy.alive], enemy.radii[enemy.alive]
    dist = (mover_r + r + CONTACT_GAP)[:, None, None]
    spots: FloatArray = (c[:, None, :] + dist * _RING[None, :, :]).reshape(-1, 2)
    return spots


#: The directions of :func:`_contact_spots`, worked out once.
_RING = np.stack(
    [
        np.cos(np.linspace(0, 2 * math.pi, _ANGLES, endpoint=False)),
        np.sin(np.linspace(0, 2 * math.pi, _ANGLES, endpoint=False)),
    ],
    axis=1,
)


def _free_spots(
    m: Mover,
    spots: FloatArray,
    radius: float,
    neighbours: Neighbours,
    placed_c: FloatArray,
    placed_r: FloatArray,
) -> FloatArray:
    ok = standable(m.table, spots, radius, flying=m.rules.flying)
    if len(neighbours.radii) and ok.any():
        g = gaps(spots, np.full(len(spots), radius), neighbours.centres, neighbours.radii)
        ok &= (g >= neighbours.need[None, :] - 1e-9).all(axis=1)
    if len(placed_r) and ok.any():
        g = gaps(spots, np.full(len(spots), radius), placed_c, placed_r)
        ok &= (g >= TOL).all(axis=1)
    out: FloatArray = spots[ok]
    return out


def _open_spots(
    m: Mover,
    target: Placement,
    radius: float,
    neighbours: Neighbours,
    kept: dict[float, FloatArray],
) -> FloatArray:
    """:func:`_free_spots` of a base of ``radius`` touching ``target``, before any model is
    placed: worked out once per radius in ``kept`` (one move's, or one test's: the same
    mover, target and neighbours), not once per model."""
    found = kept.get(radius)
    if found is None:
        spots = _contact_spots(radius, target)
        found = kept[radius] = _free_spots(m, spots, radius, neighbours, _NO_POINTS, _NO_RADII)
    return found


def _clear_of(
    spots: FloatArray, radius: float, placed_c: FloatArray, placed_r: FloatArray
) -> FloatArray:
    """The spots (of :func:`_open_spots`) clear of the models already placed: what
    :func:`_free_spots` keeps of them with those models, each spot tested as there (each
    gap is worked out on its own, so testing fewer spots changes no bit)."""
    if len(placed_r) and len(spots):
        g = gaps(spots, np.full(len(spots), radius), placed_c, placed_r)
        out: FloatArray = spots[(g >= TOL).all(axis=1)]
        return out
    return spots


_NO_POINTS = np.zeros((0, 2))
_NO_RADII = np.zeros(0)


#: A contact search's progress: the best spot and path found so far, the place in the
#: straight-line order of the next spot to try (``-1``: finished, the best is the answer), and
#: whether some spot is known to be reached (found, or sure by
#: :func:`oprlab.table.paths.reaches_within`).
_Progress = tuple[tuple[FloatArray, Path] | None, int, bool]

#: :func:`_reach_contact` searches by what they depend on: the navigation graph and blockers
#: (by identity; each entry holds them, so their ids stay unique while it is there), the start,
#: radius, spots, allowance and tries. A charge asks ``can_charge`` first and then places its
#: models, asking the nearest model the same question twice; ``can_charge`` asks only whether
#: some spot is reached and stops at the first, and the move resumes that search where it
#: stopped.
_REACH: dict[tuple[object, ...], tuple[object, object, _Progress]] = {}
_REACH_LIMIT = 256


def _reach_contact(
    m: Mover,
    start: FloatArray,
    radius: float,
    spots: FloatArray,
    allow: float,
    tries: int = 6,
) -> tuple[FloatArray, Path] | None:
    """The nearest contact spot this model can walk to within ``allow`` (paths tried for the
    ``tries`` spots nearest in a straight line)."""
    found = _progress(m, start, radius, spots, allow, tries, False)[0]
    return None if found is None else (found[0].copy(), found[1])


def _reaches_contact(
    m: Mover,
    start: FloatArray,
    radius: float,
    spots: FloatArray,
    allow: float,
    tries: int = 6,
    *,
    vouch: bool = False,
) -> bool:
    """Whether :func:`_reach_contact` finds a spot: the search stops as soon as one is sure
    (with ``vouch``, also when :func:`oprlab.table.paths.reaches_within` is sure of a spot)."""
    return _progress(m, start, radius, spots, allow, tries, True, vouch)[2]


def _progress(
    m: Mover,
    start: FloatArray,
    radius: float,
    spots: FloatArray,
    allow: float,
    tries: int,
    first: bool,
    vouch: bool = False,
) -> _Progress:
    """The contact search, remembered, as far as asked: to the end, or (``first``) until some
    spot is sure to be reached."""
    if len(spots) == 0:
        return None, -1, False
    nav, blocks = m.nav(radius), m.blocks(radius)
    key = (
        id(nav),
        id(blocks),
        float(radius),
        start.tobytes(),
        spots.tobytes(),
        spots.shape,
        float(allow),
        tries,
    )
    hit = _REACH.get(key)
    if hit is not None and hit[0] is nav and hit[1] is blocks:
        progress = hit[2]
        if progress[1] >= 0 and not (first and progress[2]):
            progress = _reach_contact_search(
                m, start, radius, spots, allow, tries, progress, first, vouch
            )
            _REACH[key] = (nav, blocks, progress)
    else:
        progress = _reach_contact_search(m, start, radius, spots, allow, tries, None, first, vouch)
        make_room(_REACH, _REACH_LIMIT)
        _REACH[key] = (nav, blocks, progress)
    return progress


def _reach_contact_search(
    m: Mover,
    start: FloatArray,
    radius: float,
    spots: FloatArray,
    allow: float,
    tries: int,
    resume: _Progress | None,
    first: bool,
    vouch: bool = False,
) -> _Progress:
    """:func:`_reach_contact`, worked out from the start or from where ``resume`` stopped;
    with ``first`` it stops at the first spot sure to be reached (to be resumed for the
    nearest: a spot known only to be reachable is searched when resumed)."""
    straight = np.hypot(*(spots - start).T)
    order = np.argsort(straight, kind="stable")
    order = order[straight[order] <= allow + 1e-9]
    nav = m.nav(radius)
    blocks = m.blocks(radius)
    if resume is None and len(order) and nav is not None and nav.free(start[None, :], blocks)[0]:
        # the nearest spot in plain sight is the best one: the lines are traced as a fan from
        # the start (``clear``'s same answers) and only to the free spots
        near = spots[order]
        free = nav.free(near, blocks).nonzero()[0]
        seen = free[nav.clear(start, near[free], blocks)] if len(free) else free
        if len(seen):
            j = int(seen[0])
            a, b = start, near[j]
            climb = float(nav.climb(a[None, :], b[None, :])[0])
            length = float(np.hypot(*(b - a)))
            if length + climb <= allow + 1e-9:
                path = Path(((float(a[0]), float(a[1])), (float(b[0]), float(b[1]))), length, climb)
                return (b, path), -1, True
    best, at, _ = (None, 0, False) if resume is None else resume
    ks = order[:tries]
    shown = False
    while at < len(ks):
        k = ks[at]
        if straight[k] > allow + 1e-9:
            break
        if best is not None and straight[k] >= best[1].cost:
            break
        if best is None and at > 0 and not shown and nav is not None:
            # a spot tried and missed: the rest are often walled in too, and one search
            # toward all of them shows it for less than a path search to each
            shown = True
            if none_within(nav, start, spots[ks[at:]], blocks, allow + 1e-9):
                break
        if (
            first
            and vouch
            and nav is not None
            and reaches_within(nav, start, spots[k], m.blocks(radius), allow)
        ):
            return best, at, True  # resumed, this spot is searched
        at += 1
        p = m.path(radius, start, spots[k], within=allow + _WITHIN_SLACK)
        if p.reached and p.cost <= allow + 1e-9 and (best is None or p.cost < best[1].cost):
            best = (spots[k], p)
            if first:
                return best, at, True
    return best, -1, best is not None


#: Inches over the allowance a contact path's search still looks for the shortest way: a path
#: the search keeps (at most 1e-9 over) is then the one an unbounded search finds.
_WITHIN_SLACK = 1e-6


def _mover(
    table: Table,
    unit: Placement,
    target: Placement,
    others: Sequence[Placement],
    rules: MoveRules,
    avoid: bool = False,
) -> Mover:
    """The charge's (or pile-in's) mover. Its ``started_coherent`` is left False: only a plain
    move (:func:`oprlab.table.movement.move_unit`, keeping its formation) reads it, and the
    cohesion test cost a listing's search about a tenth of its time."""
    others = [o for o in others if o is not unit and o is not target]
    idx = unit.alive.nonzero()[0]
    return Mover(table, unit, [*others, target], rules, (target,), avoid, idx)


def can_charge(
    table: Table,
    attacker: Placement,
    target: Placement,
    allowance: float,
    others: Sequence[Placement] = (),
    *,
    rules: MoveRules | None = None,
    listing: bool = False,
) -> bool:
    """Whether at least one charging model can reach base contact with the target within its
    allowance (seed 002 "Charge Action", seed 003 "May only charge if ...").

    ``listing``: asked for every target in reach, most of which are not charged: a contact
    spot a quick search finds a way to within the allowance counts as reached without its
    shortest path (which the charge move searches if it is made). The same answer either way.
    """
    rules = rules or MoveRules()
    _check_allowance(allowance)
    if not attacker.alive.any() or not target.alive.any():
        return False
    key = _answer_key(table, attacker, target, allowance, others, rules, listing)
    hit = _ANSWERS.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    answer = _can_charge(table, attacker, target, allowance, others, rules, listing)
    make_room(_ANSWERS, _ANSWERS_LIMIT)
    _ANSWERS[key] = (table, answer)
    return answer


#: A placement by all :func:`can_charge` reads of it: centres, bases, losses and Large.
_PlaceKey = tuple[bytes, bytes, bytes, bool]
#: :func:`can_charge`'s answers by everything they read (:func:`_answer_key`). A GFF charge is
#: tested by the commander and then again by its move among the same units, and a commander
#: asks again in later decisions while the units near stand still: the search's own memo
#: (:data:`_REACH`) answers those too, but only after the spots and blockers are worked out.
_ANSWERS: dict[tuple[object, ...], tuple[Table, bool]] = {}
_ANSWERS_LIMIT = 512


def _place_key(p: Placement) -> _PlaceKey:
    return (p.centres.tobytes(), p.radii.tobytes(), p.removed.tobytes(), p.large)


def _answer_key(
    table: Table,
    attacker: Placement,
    target: Placement,
    allowance: float,
    others: Sequence[Placement],
    rules: MoveRules,
    listing: bool,
) -> tuple[object, ...]:
    """What :func:`can_charge` reads: the table (by identity; each entry holds it, so its id
    stays unique while there), the allowance, the rules, ``listing``, and the charger's, the
    target's and each other unit's :func:`_place_key`, in order. The charger and target among
    ``others`` are left out, as :func:`_mover` leaves them out; an object listed twice is keyed
    by where it first came (the blockers keep one of it), so the key covers every unit the
    search sees, once each, as the search sees them."""
    seen: dict[int, int] = {}
    parts: list[object] = []
    for o in others:
        if o is attacker or o is target:
            continue
        at = seen.setdefault(id(o), len(parts))
        parts.append(at if at < len(parts) else _place_key(o))
    return (
        id(table),
        float(allowance),
        rules,
        listing,
        _place_key(attacker),
        _place_key(target),
        tuple(parts),
    )


def _can_charge(
    table: Table,
    attacker: Placement,
    target: Placement,
    allowance: float,
    others: Sequence[Placement],
    rules: MoveRules,
    listing: bool,
) -> bool:
    """:func:`can_charge`, worked out."""
    for avoid, allow in _charge_modes(rules, allowance):
        m = _mover(table, attacker, target, others, rules, avoid)
        any_path = _any_path_within_cap(m, allow)
        neighbours = Neighbours.of(m.others, exempt=m.exempt, gap=rules.spacing, skip=attacker)
        starts = attacker.centres[m.idx]
        radii = attacker.radii[m.idx]
        near = gaps(starts, radii, target.centres[target.alive], target.radii[target.alive])
        kept: dict[float, FloatArray] = {}
        for k in np.argsort(near.min(axis=1), kind="stable"):
            if near[k].min() > allow + 1e-9:
                break
            r = float(radii[k])
            spots = _open_spots(m, target, r, neighbours, kept)
            if any_path:  # whether some spot is reached is the answer: the first will do
                if _reaches_contact(m, starts[k], r, spots, allow, vouch=listing):
                    return True
                continue
            got = _reach_contact(m, starts[k], r, spots, allow)
            if got is not None and _within_cap(m, [got[1]], [r], allowance):
                return True
        if _one_mode_decides(m):
            break
    return False


def _one_mode_decides(m: Mover) -> bool:
    """Whether the charge at full allowance answers for every mode: no piece is a hazard
    (:func:`oprlab.table.formation.is_hazard`, what the search round hazards leaves out) or
    elevated for the unit. Then going round the hazards is the same search, and a capped charge
    tries the same spots nearest first, only fewer, along the same paths (no climb makes a
    nearer spot dearer), so it reaches contact only if the full one does."""
    return not any(
        is_hazard(p, m.unit.large) or p.has(TerrainType.ELEVATED) for p in m.table.pieces
    )


def _any_path_within_cap(m: Mover, allow: float) -> bool:
    """Whether every path within ``allow`` passes :func:`_within_cap`: the unit flies or
    strides, ``allow`` is within the difficult-terrain cap, or the table has no piece that is
    difficult for it."""
    rules = m.rules
    if rules.flying or rules.strider or allow <= rules.difficult_cap:
        return True
    return not any(is_difficult(p, m.unit.large) for p in m.table.pieces)


def _charge_modes(rules: MoveRules, allowance: float) -> list[tuple[bool, float]]:
    """Ways to charge: straight through at full allowance (if that touches no difficult terrain
    or the allowance is within the cap), capped, or around the hazards."""
    if rules.flying or rules.strider or allowance <= rules.difficult_cap:
        return [(False, allowance)]
    return [(False, allowance), (False, rules.difficult_cap), (True, allowance)]


def _within_cap(m: Mover, paths: Sequence[Path], radii: Sequence[float], allow: float) -> bool:
    if m.rules.flying or m.rules.strider:
        return True
    if max((p.cost for p in paths), default=0.0) <= m.rules.difficult_cap + 1e-9:
        return True
    return not path_touches(
        m.table,
        [p.points for p in paths],
        np.array(radii),
        TerrainType.DIFFICULT,
        large=m.unit.large,
    ).any()


def _check_allowance(allowance: float) -> None:
    if not (math.isfinite(allowance) and allowance >= 0):
        raise OptionError("allowance out of range", value=allowance, expected="inches >= 0")


def _close_in(
    m: Mover,
    target: Placement,
    allowance: float,
    stay: BoolArray | None = None,
) -> tuple[FloatArray, list[Path], BoolArray]:
    """Move each alive model (closest to the enemy first) into base contact, or as close as it
    can while keeping within 1" of models already placed. ``stay`` models do not move."""
    table, unit, rules = m.table, m.unit, m.rules
    neighbours = Neighbours.of(m.others, exempt=m.exempt, gap=rules.spacing, skip=unit)
    starts = unit.centres[m.idx]
    radii = unit.radii[m.idx]
    n = len(m.idx)
    ends = starts.copy()
    paths: list[Path] = [Path(((float(p[0]), float(p[1])),), 0.0, 0.0) for p in starts]
    contact = np.zeros(n, dtype=np.bool_)
    tc, tr = target.centres[target.alive], target.radii[target.alive]
    near = gaps(starts, radii, tc, tr).min(axis=1)
    order = [int(k) for k in np.argsort(near, kind="stable")]
    fixed = np.zeros(n, dtype=np.bool_) if stay is None else stay[m.idx].copy()
    placed_c = starts[fixed]
    placed_r = radii[fixed]
    contact[fixed] = near[fixed] <= CONTACT_TOL
    movers = [k for k in order if not fixed[k]]
    later: list[int] = []
    kept: dict[float, FloatArray] = {}
    for k in movers:
        r = float(radii[k])
        spots = _clear_of(_open_spots(m, target, r, neighbours, kept), r, placed_c, placed_r)
        got = _reach_contact(m, starts[k], r, spots, allowance)
        if got is None:
            later.append(k)
            continue
        ends[k], paths[k], contact[k] = got[0], got[1], True
        placed_c = np.vstack([placed_c, got[0][None, :]])
        placed_r = np.append(placed_r, r)
    for k in later:
        r = float(radii[k])
        spots = _contact_spots(r, target)
        nearest = spots[int(np.argmin(np.hypot(*(spots - starts[k]).T)))]
        toward = m.path(r, starts[k], nearest)
        walked, _ = walk(m.nav(r), toward.points, allowance)
        wish = np.array(walked[-1])
        spot: FloatArray | None = None
        path: Path | None = None
        for cohesive, want in ((True, wish), (False, wish), (False, starts[k])):
            got_c = settle(
                table,
                want[None, :],
                np.array([r]),
                neighbours,
                flying=rules.flying,
                cohesion=cohesive,
                fixed=placed_c,
                fixed_radii=placed_r,
                reach=(starts[k : k + 1], allowance),
            )
            if got_c is None:
                continue
            p = m.path(r, starts[k], got_c[0])
            if p.reached and p.cost <= allowance + 1e-9:
                spot, path = got_c[0], p
                break
        if spot is None or path is None:
            spot, path = starts[k], paths[k]
        ends[k], paths[k] = spot, path
        placed_c = np.vstack([placed_c, spot[None, :]])
        placed_r = np.append(placed_r, r)
    return ends, paths, contact


def _best_close_in(
    table: Table,
    unit: Placement,
    target: Placement,
    others: Sequence[Placement],
    allowance: float,
    rules: MoveRules,
    stay: BoolArray | None = None,
) -> tuple[FloatArray, list[Path], BoolArray, float]:
    """The charge (or pile-in) that puts the most models in contact, among: going straight at
    full speed; the same with the models whose way crosses difficult terrain standing still
    (so the rest are not held to 6"); everyone capped at 6"; or going round the hazards."""
    idx = unit.alive.nonzero()[0]
    best: tuple[FloatArray, list[Path], BoolArray, float] | None = None
    modes: list[tuple[bool, float, BoolArray | None]] = [
        (avoid, allow, stay) for avoid, allow in _charge_modes(rules, allowance)
    ]
    tried = 0
    while tried < len(modes):
        avoid, allow, frozen = modes[tried]
        tried += 1
        m = _mover(table, unit, target, others, rules, avoid)
        ends, paths, contact = _close_in(m, target, allow, frozen)
        touching = np.zeros(len(idx), dtype=np.bool_)
        if not (rules.flying or rules.strider):
            touching = path_touches(
                table,
                [p.points for p in paths],
                unit.radii[idx],
                TerrainType.DIFFICULT,
                large=unit.large,
            )
        costs = np.array([p.cost for p in paths])
        if touching.any() and costs.max(initial=0.0) > rules.difficult_cap + 1e-9:
            if allow == allowance and len(modes) < 2 * len(idx) + 4:
                # let the models that would cross it stand still instead, and try again (also
                # going round: a model that reaches contact round the terrain may charge while
                # those that would have to cross it stay put)
                still = np.zeros(len(unit.radii), dtype=np.bool_)
                if frozen is not None:
                    still |= frozen
                still[idx[touching]] = True
                modes.insert(tried, (avoid, allow, still))
            continue
        if best is None or int(contact.sum()) > int(best[2].sum()):
            best = (ends, paths, contact, allow)
        if contact.all() or (tried == 1 and not touching.any()):
            break  # at full speed touching no difficult terrain: nothing can do better
    if best is None:  # nothing legal at full speed: stand still
        starts = unit.centres[idx]
        still_paths = [Path(((float(p[0]), float(p[1])),), 0.0, 0.0) for p in starts]
        return starts.copy(), still_paths, np.zeros(len(idx), dtype=np.bool_), allowance
    return best


def charge_move(
    table: Table,
    attacker: Placement,
    target: Placement,
    others: Sequence[Placement],
    allowance: float,
    *,
    rules: MoveRules | None = None,
) -> ChargeResult:
    """Move the charging unit into base contact with ``target`` (closest models first), the
    rest as close as possible in cohesion; each model within the allowance along its path.

    Raises:
        OptionError: no charging model can reach base contact (the charge is not legal), or
            no move within the difficult-terrain cap puts one in contact (seed 003
            "Difficult Terrain"): the engines then move the unit as close as it can.
    """
    rules = rules or MoveRules()
    _check_allowance(allowance)
    if not can_charge(table, attacker, target, allowance, others, rules=rules):
        raise OptionError(
            "no charging model can reach base contact with the target",
            value=allowance,
            expected="a target at least one model can reach within the charge move",
        )
    ends, paths, contact, allow = _best_close_in(table, attacker, target, others, allowance, rules)
    if not contact.any():  # no legal move puts a model in contact after all: not a charge
        raise OptionError(
            "no charging model can reach base contact with the target within the difficult"
            " terrain cap",
            value=allowance,
            expected="a target at least one model can reach within the charge move",
        )
    return _finish(table, attacker, ends, paths, contact, rules, allow)


def pile_in(
    table: Table,
    defender: Placement,
    attacker: Placement,
    others: Sequence[Placement] = (),
    *,
    distance: float = PILE_IN,
    rules: MoveRules | None = None,
) -> ChargeResult:
    """The charged unit's models not in base contact move up to 3" into contact, or as close
    as possible (seed 002 "Melee Attacks" Movement, seed 003 "Charging")."""
    rules = rules or MoveRules()
    _check_allowance(distance)
    stay = in_contact(defender, attacker)
    ends, paths, contact, allow = _best_close_in(
        table, defender, attacker, others, distance, rules, stay=stay
    )
    return _finish(table, defender, ends, paths, contact, rules, allow)


def _finish(
    table: Table,
    unit: Placement,
    ends: FloatArray,
    paths: list[Path],
    contact: BoolArray,
    rules: MoveRules,
    allow: float,
) -> ChargeResult:
    idx = unit.alive.nonzero()[0]
    move = build_result(
        table,
        unit,
        ends,
        [p.points for p in paths],
        np.array([p.cost for p in paths]),
        rules,
        allow,
    )
    mask = np.zeros(len(unit.radii), dtype=np.bool_)
    mask[idx] = contact
    return ChargeResult(move, mask)


def consolidate(
    table: Table,
    unit: Placement,
    others: Sequence[Placement],
    goal: Point,
    *,
    distance: float = CONSOLIDATE,
    rules: MoveRules | None = None,
) -> MoveResult:
    """Seed 003 "After Combat": if one unit is destroyed, the other may move up to 3"."""
    return move_unit(table, unit, others, goal, distance, rules=rules)
