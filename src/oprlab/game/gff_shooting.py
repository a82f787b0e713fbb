"""GFF shooting on the table, model by model (seed 003 "Shooting", Relentless, Stealth).

"Models in range and line of sight may fire all ranged weapons": for each target, each model of
the shooting unit is in range of a weapon when its base is within the weapon's range of the
target's closest model, and may fire it when it also sees a model of the target (Indirect
weapons need no sight). A target is listed when some model may fire some weapon at it; a weapon
type may take a target of a split when some model may fire it there. The dice are the weapons
the firing models carry (:func:`oprlab.rules.weapon_lines.lines`: spread evenly, split by the
per-model rules of those models), and Relentless and Stealth ("over 9" away") read each firing
model's own distance: the share of a line fired from over 9" is a profile of its own
(``AttackProfile.far``). docs/rules/gff.md "Full games" has the readings.

May import ``oprlab.game`` state, geometry and bennies, ``oprlab.rules`` and ``oprlab.units``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import numpy.typing as npt

from oprlab.game import bennies
from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from oprlab.memo import by_table, game_memo
from oprlab.prob.floats import frozen
from oprlab.rules.gff.attack import LONG_RANGE
from oprlab.rules.gff.melee import carried
from oprlab.rules.gff.profile import AttackProfile, attack_profile
from oprlab.rules.weapon_lines import lines, share_out
from oprlab.table.model import Placement, Table, TerrainType
from oprlab.units.model import Unit, Weapon

BoolArray = npt.NDArray[np.bool_]
#: Range is "within": a base exactly at the weapon's range is in range.
EPS = 1e-6


def ranged_weapons(unit: Unit) -> list[Weapon]:
    return [w for w in unit.weapons if not w.melee and (w.range or 0) > 0]


def weapon_types(unit: Unit) -> list[str]:
    """The unit's ranged weapon types (names), in list order: the units of a target split."""
    out: list[str] = []
    for w in ranged_weapons(unit):
        if w.name not in out:
            out.append(w.name)
    return out


def indirect(unit: Unit, w: Weapon) -> bool:
    return w.has("Indirect") or unit.has("Indirect")


def others(state: GameState, *units: UnitState) -> list[Placement]:
    """The placements of every unit on the table but these (what else may block sight)."""
    skip = {u.uid for u in units}
    return [
        u.placement
        for u in state.units.values()
        if u.uid not in skip and u.on_table and u.placement is not None
    ]


def seeing(
    state: GameState,
    us: UnitState,
    target: UnitState,
    rest: Sequence[Placement] | None = None,
) -> np.ndarray:
    """Which models of ``us`` (all of its models, removed ones False) see ``target``
    (``rest``: :func:`others`, when the caller has them; GFF's sight never reads them).

    Seed 003 "Line of Sight": only sight-blocking terrain hides a model (models never block,
    ``table.sight.gff_visible_all``), so on a table without such a piece every alive model
    sees every target with a model left, and no line is traced."""
    assert us.placement is not None and target.placement is not None
    if not blocks_sight(state.table):
        return us.placement.alive & bool(target.placement.alive.any())
    return geo.sees(
        state.table,
        us.placement,
        target.placement,
        others(state, us, target) if rest is None else rest,
        system="gff",
        cache=state.sight,
    )


def blocks_sight(table: Table) -> bool:
    """Whether some piece of ``table`` blocks sight (what GFF's sight lines are traced for)."""
    return any(p.has(TerrainType.BLOCKING) for p in table.pieces)


@dataclass(frozen=True, eq=False)
class Sight:
    """What each model of a shooting unit makes of one target (arrays over all its models).

    Attributes:
        sees: the model sees a model of the target (removed models never).
        distance: from the model's base to the target's closest model (``inf``: removed).
    """

    sees: BoolArray
    distance: npt.NDArray[np.float64]

    @cached_property
    def nearest(self) -> tuple[float, float]:
        """The least distance of a model that sees the target, and of any alive model
        (``inf``: none): a weapon of range ``r`` reaches the target from some model exactly
        when the first (Indirect: the second) is within ``r`` (:meth:`firing`'s test, as
        ``min(d) <= r`` is ``any(d <= r)``)."""
        seen = self.distance[self.sees]
        alive = self.distance[np.isfinite(self.distance)]
        return (
            float(seen.min()) if len(seen) else math.inf,
            float(alive.min()) if len(alive) else math.inf,
        )

    def reaches(self, unit: Unit, w: Weapon) -> bool:
        """Whether some model may fire ``w`` (:meth:`firing`'s ``any()``, from :attr:`nearest`)."""
        seen, alive = self.nearest
        return (alive if indirect(unit, w) else seen) <= (w.range or 0) + EPS

    def firing(self, unit: Unit, w: Weapon) -> BoolArray:
        """Models that may fire ``w``: in its range, and in line of sight unless Indirect."""
        able = np.isfinite(self.distance) if indirect(unit, w) else self.sees
        out: BoolArray = able & (self.distance <= (w.range or 0) + EPS)
        return out


def sight(state: GameState, us: UnitState, target: UnitState) -> Sight:
    """What each model of ``us`` makes of ``target``, remembered by the table and the two
    units' positions (a decision asks the same pair again: listing shots, scoring, the
    attack). The other units are not in the key: GFF's sight never reads them (models never
    block, :func:`seeing`), so another unit's move keeps the answer."""
    assert us.placement is not None and target.placement is not None
    shooter, seen = us.placement, target.placement
    key = (geo.placement_key(shooter), geo.placement_key(seen))
    return by_table(
        _SIGHTS,
        state.table,
        key,
        lambda: Sight(
            frozen(np.asarray(seeing(state, us, target), dtype=np.bool_)),
            frozen(geo.model_gaps(shooter, seen)),
        ),
        _SIGHTS_SIZE,
    )


#: Sights by table (held, so its id stays unique) and the two units' positions: 735 asked, 214
#: different, in five 300-point games (with every position in the key).
_SIGHTS: dict[tuple[object, ...], tuple[object, Sight]] = game_memo("game.gff_shooting._SIGHTS")
_SIGHTS_SIZE = 4096


def type_reach(state: GameState, us: UnitState, target: UnitState) -> dict[str, bool]:
    """For each ranged weapon type of ``us``: may some model fire it at ``target``?"""
    look = sight(state, us, target)
    out: dict[str, bool] = {}
    for w in ranged_weapons(us.unit):
        out[w.name] = out.get(w.name, False) or look.reaches(us.unit, w)
    return out


def shooting_targets(state: GameState, us: UnitState) -> list[str]:
    """Enemy units some model of ``us`` may fire a ranged weapon at (in its range and in its
    line of sight, or an Indirect weapon in range): seed 003 "Models in range and line of
    sight may fire"."""
    assert us.placement is not None
    weapons = ranged_weapons(us.unit)
    reach = max((w.range or 0 for w in weapons), default=0)
    if reach <= 0:
        return []
    table, unit = state.table, us.unit
    mine = geo.placement_key(us.placement)
    head = (id(table), id(unit), mine)
    circle: tuple[float, float, float] | None = None
    out = []
    for e in state.enemies(us.side):
        assert e.placement is not None
        theirs = geo.placement_key(e.placement)
        key = (*head, theirs)
        found = _TARGETABLE.get(key)
        if found is None or found[0] is not table or found[1] is not unit:
            if circle is None:
                circle = _circle(us.placement, mine)
            found = (table, unit, _targetable(state, us, e, weapons, reach, circle, mine, theirs))
            if len(_TARGETABLE) >= _TARGETABLE_SIZE:
                _TARGETABLE.clear()
            _TARGETABLE[key] = found
        if found[2]:
            out.append(e.uid)
    return out


def _circle(p: Placement, key: tuple[bytes, bytes, bytes, bool]) -> tuple[float, float, float]:
    """The bounding circle of ``p``'s alive models (:func:`geometry.bounding_circle`; ``key``:
    its :func:`geometry.placement_key`, whose first three parts are the gap key); one that
    bounds nothing (an infinite radius) when no model is alive."""
    if not p.alive.any():
        return (0.0, 0.0, math.inf)
    return geo.bounding_circle(p, key[:3])


def _targetable(
    state: GameState,
    us: UnitState,
    e: UnitState,
    weapons: list[Weapon],
    reach: float,
    circle: tuple[float, float, float],
    mine: tuple[bytes, bytes, bytes, bool],
    theirs: tuple[bytes, bytes, bytes, bool],
) -> bool:
    """Whether some model of ``us`` (its bounding ``circle`` and placement key ``mine``) may
    fire some of its ranged ``weapons`` (the longest reaches ``reach``) at ``e`` (``theirs``).

    An enemy whose bounding circle is out of ``reach`` of the shooter's (the circles' gap, less
    :data:`geometry.BOUND_MARGIN`, is at most the models' gap) is out of range without its
    gap measured (issue 13: a unit that moved asked every enemy's exact gap again)."""
    here, there = us.placement, e.placement
    assert here is not None and there is not None
    x, y, spread = circle
    if math.isfinite(spread) and there.alive.any():
        ex, ey, their = geo.bounding_circle(there, theirs[:3])
        if math.hypot(ex - x, ey - y) - spread - their - geo.BOUND_MARGIN > reach + EPS:
            return False
    if geo.keyed_gap(here, mine[:3], there, theirs[:3]) > reach + EPS:
        return False  # no model is in range of anything
    look = sight(state, us, e)
    return any(look.reaches(us.unit, w) for w in weapons)


#: :func:`shooting_targets`' answer for one enemy, by the table and the shooter's unit (both
#: held, so their ids stay unique) and the two units' positions (:func:`geo.placement_key`):
#: all :func:`_targetable` reads (the gap and :func:`sight` read the positions, the weapons
#: are the unit's; GFF's sight never reads other units). The listing of shots, the check that
#: a unit may shoot and the commander ask the same pairs again (issue 13).
_TARGETABLE: dict[tuple[object, ...], tuple[Table, Unit, bool]] = game_memo(
    "game.gff_shooting._TARGETABLE"
)
_TARGETABLE_SIZE = 8192


def shoot_actions(state: GameState, us: UnitState) -> list[Action]:
    """Hold fire; all weapons at one target; a split of weapon types over two targets.

    Splits listed: one weapon type at a second target, the other types at the first (every
    split for units with two types; ``is_legal`` accepts any split). The unit's first weapon
    type always fires at ``target``, so each split has one spelling. With bennies left each
    shot may also spend one for an extra attack.
    """
    targets = shooting_targets(state, us)
    uid = us.uid
    acts = [_shot(uid)]
    reach = {t: type_reach(state, us, state.units[t]) for t in targets}
    types = weapon_types(us.unit)
    shots = [_shot(uid, t) for t in targets]
    if len(types) >= 2:
        for w in types[1:]:  # canonical: the first type always fires at the first target
            for t2 in targets:
                if not reach[t2][w]:
                    continue
                for t1 in targets:
                    if t1 != t2 and any(ok for v, ok in reach[t1].items() if v != w):
                        shots.append(_shot(uid, t1, t2, (w,)))
    acts += shots
    if bennies.bennies_available(state, us.side) > 0:
        acts += [_shot(a.unit, a.target, a.second, a.split, benny=True) for a in shots]
    return acts


def _shot(
    uid: str,
    target: str = "",
    second: str = "",
    split: tuple[str, ...] = (),
    *,
    benny: bool = False,
) -> Action:
    """``Action(Kind.SHOOT, uid, target=..., second=..., split=..., benny=...)``, made once and
    handed out again (as :func:`oprlab.game.actions.listed`: a frozen Action is dear to build,
    and each shot listing made every target's and split's afresh). Its fields are the key."""
    key = (uid, target, second, split, benny)
    found = _SHOTS.get(key)
    if found is None:
        if len(_SHOTS) >= _SHOTS_LIMIT:
            _SHOTS.clear()
        found = _SHOTS[key] = Action(
            Kind.SHOOT, uid, target=target, second=second, split=split, benny=benny
        )
    return found


#: :func:`_shot`'s actions by their fields (values: a global memo, emptied whole at its limit).
_SHOTS: dict[tuple[str, str, str, tuple[str, ...], bool], Action] = {}
_SHOTS_LIMIT = 16384


def shot_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    """Why the ``SHOOT`` ``a`` may not be taken, or ``None`` (after the phase was checked)."""
    if not a.target:
        if a.second or a.split or a.benny:
            return "a second target, a split or a benny needs a first target"
        return None
    if a.to is not None:
        return "shooting takes no move"
    targets = shooting_targets(state, us)
    if a.target not in targets:
        return "target out of range"
    if a.benny and bennies.bennies_available(state, us.side) <= 0:
        return "no bennies left"
    if not a.second and not a.split:
        return None
    if not a.second or not a.split:
        return "a second target needs the weapon types that fire at it, and the reverse"
    if a.second == a.target or a.second not in targets:
        return "the second target must be another unit in range"
    types = weapon_types(us.unit)
    if len(set(a.split)) != len(a.split) or not set(a.split) <= set(types):
        return "split names each of the unit's ranged weapon types at most once"
    if types[0] in a.split:
        return "the unit's first weapon type fires at the first target (split the others)"
    second = type_reach(state, us, state.units[a.second])
    if not all(second[w] for w in a.split):
        return "a weapon type split to the second target does not reach it"
    first = type_reach(state, us, state.units[a.target])
    if not any(ok for w, ok in first.items() if w not in a.split):
        return "no other weapon type reaches the first target"
    return None


def fire_profiles(
    state: GameState, us: UnitState, target: UnitState, weapons: Sequence[Weapon]
) -> list[AttackProfile]:
    """The attack dice ``weapons`` of ``us`` roll at ``target``: each line's weapons carried by
    the models that may fire it (split by their per-model rules), and the share fired from over
    9" as a profile of its own (``far``: Relentless, Stealth)."""
    look = sight(state, us, target)
    out: list[AttackProfile] = []
    for w in weapons:
        fire = look.firing(us.unit, w)
        firing = int(fire.sum())
        if firing <= 0:
            continue
        far = int((fire & (look.distance > LONG_RANGE)).sum())
        pieces = lines(us.unit, [w], alive=us.models, attacking=firing)
        total = sum(p.count for p in pieces)
        far_counts = share_out(carried(total, far, firing), [p.count for p in pieces])
        for piece, far_count in zip(pieces, far_counts, strict=True):
            p = attack_profile(us.unit, piece)
            for count, is_far in ((piece.count - far_count, False), (far_count, True)):
                if count * piece.attacks > 0:
                    out.append(replace(p, dice=count * piece.attacks, far=is_far))
    return out
