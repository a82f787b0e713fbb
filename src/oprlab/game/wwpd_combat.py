"""WWPD fighting: what a unit may fire at, cower from or charge, and the attacks of the
Shooting, Firefight and Melee phases: cover, the attack, casualties and pinning (readings:
``docs/rules/wwpd.md``). The phases that call these are in :mod:`oprlab.game.wwpd`, which
re-exports the public names.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.mechanics``, ``oprlab.memo``,
``oprlab.game.geometry`` and ``oprlab.game.wwpd_state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from oprlab.game import geometry as geo
from oprlab.game.wwpd_state import (
    EPS,
    HARD_COVER_PRESETS,
    MELEE_RANGE,
    OBJECTIVE_RANGE,
    WwpdState,
    WwpdUnitState,
    _check_end,
)
from oprlab.mechanics import Check, Test
from oprlab.memo import game_memo, make_room
from oprlab.rules.wwpd.attack import (
    Attack,
    AttackResult,
    Conditions,
    DiceRoller,
    Kit,
    defender_order,
    melee_attack,
    resolve,
    shooting_attack,
)
from oprlab.rules.wwpd.targets import FIREFIGHT_RANGE, Phase
from oprlab.table.charge import CONTACT_TOL
from oprlab.table.measure import centres_in
from oprlab.table.model import Placement

# --- what a unit can fire at or charge ----------------------------------------------------


def _gap(state: WwpdState, a: WwpdUnitState, b: WwpdUnitState) -> float:
    assert a.placement is not None and b.placement is not None
    return geo.gap(a.placement, b.placement)


def _reach(us: WwpdUnitState) -> int:
    return max(
        (w.range or 0 for k, a in zip(us.kits, us.alive, strict=True) if a for w in k.ranged),
        default=0,
    )


def _sees(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> npt.NDArray[np.bool_]:
    assert us.placement is not None and target.placement is not None
    return geo.sees(
        state.table,
        us.placement,
        target.placement,
        state.others(us.uid, target.uid),
        system="gff",
        cache=state.sight,
    )


def shooting_targets(state: WwpdState, us: WwpdUnitState) -> list[str]:
    """Enemy units this unit may fire at in the current phase: over 12" in Shooting, within 12"
    in Firefight; in range of a weapon and seen by a model. Cowering units do not fire."""
    if state.phase not in (Phase.SHOOTING.value, Phase.FIREFIGHT.value) or us.cowering:
        return []
    reach = _reach(us)
    out = []
    for e in state.enemies(us.side):
        d = _gap(state, us, e)
        far = d > FIREFIGHT_RANGE
        if (state.phase == Phase.SHOOTING.value) != far or d > reach:
            continue
        if _sees(state, us, e).any():
            out.append(e.uid)
    return out


def _may_cower(state: WwpdState, us: WwpdUnitState) -> bool:
    """A unit may cower in the Firefight when an enemy is within 12" of it."""
    return state.options.cowering and any(
        _gap(state, us, e) <= FIREFIGHT_RANGE for e in state.enemies(us.side)
    )


def charge_targets(state: WwpdState, us: WwpdUnitState) -> list[str]:
    """Enemy units within charge reach of an unpinned, uncowering unit of the player."""
    if us.side != state.player or us.pinned or us.cowering:
        return []
    if not any(k.profile.melee_attacks > 0 for k, a in zip(us.kits, us.alive, strict=True) if a):
        return []
    return [
        e.uid for e in state.enemies(us.side) if _gap(state, us, e) <= state.options.charge + EPS
    ]


# --- shooting and the Firefight ----------------------------------------------------------


def _roller(state: WwpdState) -> DiceRoller:
    return DiceRoller(state.rng, state.mechanic)


def cover_of(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> tuple[bool, bool]:
    """(soft, hard) cover of ``target`` from ``us``: the table's cover rule (GFF's), Hard when
    most of the target's models stand in a fortification preset (ruins, barricade)."""
    assert us.placement is not None and target.placement is not None
    covered = geo.in_cover(
        state.table,
        us.placement,
        target.placement,
        state.others(us.uid, target.uid),
        system="gff",
        cache=state.sight,
    )
    if not covered:
        return False, False
    hard_pieces = np.array(
        [(p.preset or "").casefold() in HARD_COVER_PRESETS for p in state.table.pieces],
        dtype=np.bool_,
    )
    alive = target.placement.alive
    inside = centres_in(state.table, target.placement.centres[alive])
    hard = bool(hard_pieces.any() and (inside[:, hard_pieces].any(axis=1).sum() * 2 > len(inside)))
    return not hard, hard


def shooting_attack_of(
    state: WwpdState, us: WwpdUnitState, target: WwpdUnitState, phase: Phase | None = None
) -> Attack:
    """The attack ``us`` would make on ``target`` now: models that see it fire the weapons
    that reach it; hits go to models in range of each weapon; cover from the table.

    The attacking commander's choice of a model to single out (weapons with ``single_out``) is
    not a decision of its own: the attacker follows the habit
    :func:`~oprlab.rules.wwpd.attack.single_out_pick` (the rarest kit in range it can damage),
    which keeps the legal actions what they were."""
    assert us.placement is not None and target.placement is not None
    d = _gap(state, us, target)
    phase = phase or (Phase.SHOOTING if d > FIREFIGHT_RANGE else Phase.FIREFIGHT)
    seeing = _sees(state, us, target)
    soft, hard = cover_of(state, us, target)
    conditions = Conditions(
        phase,
        soft_cover=soft,
        hard_cover=hard,
        target_cowering=target.cowering,
        attacker_cowering_or_suppressed=us.cowering or us.pinned,
        moved=us.moved,
    )
    # per attacking model, per target model: base-to-base distance
    pa, pt = us.placement, target.placement
    dist = np.linalg.norm(pa.centres[:, None, :] - pt.centres[None, :, :], axis=2)
    dist = dist - pa.radii[:, None] - pt.radii[None, :]
    in_range: dict[str, list[bool]] = {}
    for i, k in enumerate(us.kits):
        if not (us.alive[i] and seeing[i]):
            continue
        for w in k.ranged:
            row = in_range.setdefault(w.name, [False] * len(target.kits))
            for j in range(len(target.kits)):
                row[j] = row[j] or bool(dist[i, j] <= (w.range or 0))
    firing = tuple(bool(s) for s in seeing)
    order = _order(state, target)
    options = state.options.attack
    ranges = tuple((name, tuple(row)) for name, row in in_range.items())
    alive, their = tuple(us.alive), tuple(target.alive)
    key = (id(us.unit), id(target.unit), conditions, alive, their, firing, d, ranges, order)
    hit = _ATTACKS.get(key)
    if hit is not None and hit[0] is us.unit and hit[1] is target.unit and hit[2] == options:
        return hit[3]
    found = shooting_attack(
        us.unit,
        target.unit,
        conditions,
        attacker_alive=alive,
        target_alive=their,
        firing=firing,
        distance=d,
        in_range=dict(ranges),
        order=order,
        options=options,
    )
    make_room(_ATTACKS, _ATTACKS_SIZE)
    _ATTACKS[key] = (us.unit, target.unit, options, found)
    return found


#: :func:`~oprlab.rules.wwpd.attack.shooting_attack`'s answers by every argument it is given:
#: the two units (by identity; the entry holds them, so the ids stay theirs), the conditions,
#: the alive and firing masks, the distance, the models each weapon reaches, the defender's
#: order and the readings (checked on a hit). The commander asks each shooter's attack on each
#: target for every action it weighs, most of them the same attack (an :class:`Attack` is
#: frozen: sharing it is safe).
_ATTACKS: dict[tuple[Any, ...], tuple[Any, Any, Any, Attack]] = game_memo(
    "game.wwpd_combat._ATTACKS"
)
_ATTACKS_SIZE = 2048


def _order(state: WwpdState, target: WwpdUnitState) -> tuple[int, ...]:
    """The defender's habit: spare hits on the most common kit; keep models on markers."""
    kits, p = target.kits, target.placement
    markers = tuple(m.position for m in state.markers) if p is not None else ()
    at = (p.centres.tobytes(), p.radii.tobytes()) if markers and p is not None else None
    key = (id(kits), at, markers)
    hit = _ORDERS.get(key)
    if hit is not None and hit[0] is kits:
        return hit[1]
    base = defender_order(kits)
    if p is not None and markers:
        c, r = p.centres, p.radii
        holds = np.zeros(len(r), dtype=np.bool_)
        for m in markers:
            holds |= np.linalg.norm(c - np.asarray(m), axis=1) - r <= OBJECTIVE_RANGE
        rank = {m: i for i, m in enumerate(base)}
        base = tuple(sorted(base, key=lambda i: (bool(holds[i]), rank[i])))
    make_room(_ORDERS, _ORDERS_SIZE)
    _ORDERS[key] = (kits, base)
    return base


#: :func:`_order` by the kits' identity (a unit's kits are a tuple made once, held by the entry
#: so the id stays theirs), the models' centres and bases and the markers' positions (all it
#: reads; none with no marker): asked for every attack weighed, most on units standing still.
_ORDERS: dict[
    tuple[int, tuple[bytes, bytes] | None, tuple[tuple[float, float], ...]],
    tuple[tuple[Kit, ...], tuple[int, ...]],
] = game_memo("game.wwpd_combat._ORDERS")
_ORDERS_SIZE = 1024


def _fire(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> AttackResult | None:
    """Roll one shooting or firefight attack; casualties are returned, not yet removed."""
    attack = shooting_attack_of(state, us, target, Phase(state.phase))
    if not attack.volleys:
        return None
    result = resolve(attack, _roller(state))
    c = attack.conditions
    # Only attacks with a singling-out weapon carry the extra field, so other logs are unchanged.
    chosen = {v.name: v.singled_out for v in attack.volleys if v.singled_out is not None}
    extra: dict[str, Any] = {"singled_out": chosen} if chosen else {}
    state.log.add(
        state.phase,
        unit=us.uid,
        target=target.uid,
        dice=attack.dice,
        volleys=[[v.name, v.dice, v.to_hit] for v in attack.volleys],
        cover="hard" if c.hard_cover else "soft" if c.soft_cover else "none",
        hits=result.total_hits,
        wounds=result.wounds,
        saves=result.saves,
        casualties=result.casualties,
        **extra,
    )
    return result


def _fire_now(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> None:
    result = _fire(state, us, target)
    if result is not None:
        _remove(state, target, result.removed)
        _pinning(state, target, result.casualties)
        _check_end(state)


def _resolve_declared(state: WwpdState) -> None:
    """The simultaneous Firefight: every declared attack, then every casualty."""
    losses: list[tuple[WwpdUnitState, tuple[int, ...]]] = []
    for uid, target_uid in state.declared:
        us, target = state.units[uid], state.units[target_uid]
        if not (us.on_table and target.on_table):
            continue
        result = _fire(state, us, target)
        if result is not None and result.removed:
            losses.append((target, result.removed))
    state.declared = []
    lost: dict[str, int] = {}
    for target, removed in losses:
        before = target.models
        _remove(state, target, removed)
        lost[target.uid] = lost.get(target.uid, 0) + before - target.models
    for uid, n in lost.items():
        _pinning(state, state.units[uid], n)
    _check_end(state)


def _remove(state: WwpdState, target: WwpdUnitState, removed: Sequence[int]) -> None:
    gone = [i for i in removed if target.alive[i]]
    if not gone or target.placement is None:
        return
    for i in gone:
        target.alive[i] = False
    target.placement.removed[gone] = True
    state.log.add("casualties", unit=target.uid, models=len(gone), left=target.models)
    if target.destroyed:
        state.log.add("destroyed", unit=target.uid, side=target.side)


def _pinning(state: WwpdState, us: WwpdUnitState, lost: int) -> None:
    """A unit that lost models to fire may be pinned (our reading; :class:`GameOptions`)."""
    rule = state.options.pinning
    if lost <= 0 or us.destroyed or us.pinned or rule == "off":
        return
    if rule == "losses":
        us.pinned = True
    else:
        leadership = min(k.profile.leadership for k, a in zip(us.kits, us.alive, strict=True) if a)
        passed = _roller(state).roll(Check(Test.MORALE, leadership)).success
        state.log.add("leadership", unit=us.uid, target=leadership, passed=passed)
        us.pinned = not passed
    if us.pinned:
        state.log.add("pinned", unit=us.uid)


# --- melee --------------------------------------------------------------------------------


def reach_masks(
    attacker: Placement, defender: Placement
) -> list[tuple[list[bool], list[bool]] | None]:
    """Per attacking model: the defending models within 2" and in base contact (``None``: none
    within 2", or the model is gone)."""
    d = np.linalg.norm(attacker.centres[:, None, :] - defender.centres[None, :, :], axis=2)
    d = d - attacker.radii[:, None] - defender.radii[None, :]
    out: list[tuple[list[bool], list[bool]] | None] = []
    for i in range(len(attacker.radii)):
        if attacker.removed[i]:
            out.append(None)
            continue
        within = [
            bool(d[i, j] <= MELEE_RANGE + EPS) and not defender.removed[j]
            for j in range(len(defender.radii))
        ]
        contact = [w and bool(d[i, j] <= CONTACT_TOL) for j, w in enumerate(within)]
        out.append((within, contact) if any(within) else None)
    return out


def melee_attack_of(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> Attack:
    """``us``'s models within 2" of ``target`` strike it (hits on models in contact first)."""
    assert us.placement is not None and target.placement is not None
    return melee_attack(
        us.unit,
        target.unit,
        attacker_alive=us.alive,
        target_alive=target.alive,
        reach=reach_masks(us.placement, target.placement),
        order=_order(state, target),
        options=state.options.attack,
    )


def _charge(state: WwpdState, us: WwpdUnitState, target: WwpdUnitState) -> None:
    """Charge into base contact; both units' models within 2" fight; then step apart."""
    assert us.placement is not None and target.placement is not None
    moved = geo.charge_move(
        state.table, us.placement, target.placement, state.others(us.uid), state.options.charge
    )
    if moved is None:
        state.log.add("charge_failed", unit=us.uid, target=target.uid)
        return
    us.placement = moved
    roller = _roller(state)
    results = []
    for a, b in ((us, target), (target, us)):
        attack = melee_attack_of(state, a, b)
        r = resolve(attack, roller)
        results.append((b, r))
        state.log.add(
            "melee",
            unit=a.uid,
            target=b.uid,
            dice=attack.dice,
            hits=r.total_hits,
            wounds=r.wounds,
            saves=r.saves,
            casualties=r.casualties,
        )
    for b, r in results:  # both fight: casualties come off together
        _remove(state, b, r.removed)
    if us.on_table and target.on_table:
        assert us.placement is not None and target.placement is not None
        us.placement = geo.separate(
            state.table, us.placement, target.placement, state.others(us.uid, target.uid)
        )
        state.log.add("separate", unit=us.uid, gap=round(_gap(state, us, target), 3))
    _check_end(state)
