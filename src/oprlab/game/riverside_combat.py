"""Riverside attacks on the table: who may attack, with what, with or without Cover, and after.

Seed 002_fdb385c07cc953af "Ranged Attacks" (choose targets, Determine Cover for each model,
Resolve Attacks, Morale Test), "Melee Attacks" (movement and the 3" pile-in, models within 2"
attack, Return Strikes, Fatigue, the Morale Test by comparing wounds), "Remove Casualties" on the
models standing on the table, and Dangerous Terrain tests. The dice are always rolled by the
Riverside pipeline (:mod:`oprlab.rules.riverside`) through the game's :class:`Roller`; this module
only decides which models take part and applies the results to the game's units.

The melee exchange of :mod:`oprlab.rules.riverside.melee` lets every model of both units attack
(the odds layer has no table); here only models within 2" attack, so the exchange is composed
from the same pieces (``resolve_attack``, the morale hooks) with the strikers the table gives.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and
``oprlab.game``'s state, events, geometry, ``casualties`` and ``riverside_defend``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from oprlab.errors import OptionError
from oprlab.game import casualties as losses
from oprlab.game import geometry as geo
from oprlab.game import riverside_defend as defend
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.riverside_defend import Group, Strike, Volley
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import Check, Test
from oprlab.memo import by_table, game_memo
from oprlab.prob.floats import frozen
from oprlab.rules.gff.melee import carried, impact_dice_left
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import (
    READINGS,
    Hit,
    Readings,
    Situation,
    defense_check,
    hit_check,
    hits_from,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.riverside.casualties import Casualties, casualties_at, remove_casualties
from oprlab.rules.riverside.melee import impact_profile
from oprlab.rules.riverside.morale import (
    fails_automatically,
    melee_loser,
    morale_check,
    morale_failure,
)
from oprlab.rules.riverside.profile import (
    AttackProfile,
    DefenderProfile,
    attack_profile,
    attack_profiles,
)
from oprlab.rules.riverside.profile import defender_profile as read_defender
from oprlab.rules.riverside.resolve import AttackResult, finish, resolve_attack
from oprlab.rules.weapon_lines import share_out
from oprlab.table import charge as table_charge
from oprlab.table.cover import los_and_cover_all
from oprlab.table.model import Placement
from oprlab.table.movement import MoveRules
from oprlab.table.sight import SightCache
from oprlab.units.model import Unit, Weapon
from oprlab.units.rule_scope import unit_rule

BoolArray = npt.NDArray[np.bool_]

#: Seed 002 "Determine Attacks" / "Return Strikes": models within 2" attack.
STRIKE_RANGE = 2.0
#: Seed 002 "Melee Attacks" Movement: the targeted unit's models move by up to 3".
PILE_IN = 3.0
#: Seed 002 "End Phase": units within 3" of a marker hold it (casualties keep those models).
OBJECTIVE_RANGE = losses.OBJECTIVE_RANGE
#: Dangerous terrain: "if the result is 1 the unit takes one automatic wound" (a 2+ passes).
DANGEROUS_PASS = 2
#: Melee ties: "the unit with the lowest total loses" (see ``rules/riverside/melee.py``).
TieReading = Literal["none", "both"]
ImpactReading = Literal["with_attack", "none"]
EPS = 1e-6


# --- reading units ------------------------------------------------------------------------


def defender(us: UnitState) -> DefenderProfile:
    """The unit as a target now: models left, wounds on its wounded Tough model, Shaken."""
    return read_defender(
        us.unit, models=us.models, wounds=us.markers, shaken=us.shaken, started=us.unit.size
    )


def ranged_weapons(unit: Unit) -> list[Weapon]:
    return [w for w in unit.weapons if not w.melee and (w.range or 0) > 0]


def melee_weapons(unit: Unit) -> list[Weapon]:
    return [w for w in unit.weapons if w.melee]


@lru_cache(maxsize=4096)
def weapon_types(unit: Unit) -> tuple[str, ...]:
    """The unit's ranged weapon types (names) in list order: "one target for each type"."""
    out: list[str] = []
    for w in ranged_weapons(unit):
        if w.name not in out:
            out.append(w.name)
    return tuple(out)


@lru_cache(maxsize=4096)
def type_reach(unit: Unit) -> dict[str, int]:
    """The longest range of each ranged weapon type."""
    reach: dict[str, int] = {}
    for w in ranged_weapons(unit):
        reach[w.name] = max(reach.get(w.name, 0), w.range or 0)
    return reach


def dice_of(w: Weapon, unit: Unit, alive: int, attacking: int) -> int:
    """Attack dice of weapon line ``w`` when ``attacking`` of the ``alive`` models attack.

    The list gives weapon totals per unit, not per model: casualties and the attacking share
    are spread evenly over each line (GFF's :func:`carried`, rounded half up), so a weapon every
    model carries gives one die line per attacking model (docs/rules/riverside.md).
    """
    now = carried(w.count, alive, unit.size)
    return carried(now, attacking, alive) * w.attacks


# --- line of sight, range and cover, per shooting model -----------------------------------


@dataclass(frozen=True, eq=False)
class Look:
    """What the shooting unit's models make of one enemy unit (arrays over all its models).

    Attributes:
        sees: the model has LoS to at least one model of the target (seed 002 LoS: 10%).
        distance: from the model to the target's closest model (seed 002 "Measuring").
        cover: the target has Cover from the model's attack ("Determine Cover", Cover Terrain).
    """

    sees: BoolArray
    distance: npt.NDArray[np.float64]
    cover: BoolArray

    def attackers(self, reach: float) -> BoolArray:
        """Models with LoS and a weapon of this reach in range (removed models never)."""
        out: BoolArray = self.sees & (self.distance <= reach + EPS)
        return out


def sight_cache(state: GameState) -> SightCache:
    """The game's sight cache (positions are part of its key, so it is never stale)."""
    cache = state.memo.sight
    if not isinstance(cache, SightCache):
        cache = state.memo.sight = SightCache(maxsize=16)
    return cache


def look(state: GameState, us: UnitState) -> dict[str, Look]:
    """LoS, distance and Cover from each model of ``us`` to every enemy unit on the table.

    One batched trace (:func:`~oprlab.table.cover.los_and_cover_all`): enemy units block sight
    to each other, friendly units block too, the shooter's own unit never does.
    """
    assert us.placement is not None
    enemies = [e for e in state.enemies(us.side) if e.placement is not None]
    if not enemies or not ranged_weapons(us.unit):
        return {}
    shooter = us.placement
    targets = [e.placement for e in enemies if e.placement is not None]
    others = [
        f.placement for f in state.friends(us.side) if f.uid != us.uid and f.placement is not None
    ]
    key = (
        geo.placement_key(shooter),
        tuple(map(geo.placement_key, targets)),
        tuple(map(geo.placement_key, others)),
    )
    looks = by_table(
        _LOOKS, state.table, key, lambda: _trace(state, shooter, targets, others), _LOOKS_SIZE
    )
    rules = opr_rules(state)
    return {
        e.uid: replace(lk, cover=lk.cover | True) if rules.fortified(state, e) else lk
        for e, lk in zip(enemies, looks, strict=True)
    }


#: Looks by table and every position they depend on: a decision asks the same unit's look
#: again for its shots, the commander's cover of each and the attack (307 looks, 42
#: different, in three Riverside games).
_LOOKS: dict[tuple[object, ...], tuple[object, tuple[Look, ...]]] = game_memo(
    "game.riverside_combat._LOOKS"
)
_LOOKS_SIZE = 1024


def _trace(
    state: GameState, shooter: Placement, targets: list[Placement], others: list[Placement]
) -> tuple[Look, ...]:
    """The looks before Fortifications (asked afresh each time: they need not be where the
    positions say)."""
    answers = los_and_cover_all(
        state.table, shooter, targets, others, "riverside", cache=sight_cache(state)
    )
    return tuple(
        Look(
            sees=frozen(np.asarray(seen.any(axis=1) & shooter.alive, dtype=np.bool_)),
            distance=frozen(_model_distances(shooter, target)),
            cover=frozen(np.asarray(cover, dtype=np.bool_)),
        )
        for target, (seen, cover) in zip(targets, answers, strict=True)
    )


def _model_distances(a: Placement, b: Placement) -> npt.NDArray[np.float64]:
    """From each model of ``a`` to the closest alive model of ``b``, base to base."""
    cb, rb = b.centres[b.alive], b.radii[b.alive]
    d = np.linalg.norm(a.centres[:, None, :] - cb[None, :, :], axis=2) - a.radii[:, None] - rb
    out: npt.NDArray[np.float64] = np.maximum(d.min(axis=1), 0.0)
    out[~a.alive] = np.inf
    return out


def reachable_types(us: UnitState, looks: dict[str, Look]) -> dict[str, tuple[str, ...]]:
    """For each enemy unit, the weapon types some model may fire at it (LoS and in range)."""
    reach = type_reach(us.unit)
    out: dict[str, tuple[str, ...]] = {}
    for uid, lk in looks.items():
        types = tuple(w for w in weapon_types(us.unit) if lk.attackers(reach[w]).any())
        if types:
            out[uid] = types
    return out


# --- resolving with Cover decided per model -----------------------------------------------


def resolve_groups(
    groups: Sequence[Group],
    d: DefenderProfile,
    roller: Roller,
    *,
    readings: Readings = READINGS,
) -> AttackResult:
    """One unit's attack on one target when its models do not share one situation.

    Seed 002 decides Cover "for each model", so some attack dice meet the target's Defense with
    Cover and some without. This is :func:`~oprlab.rules.riverside.resolve.resolve_attack`
    with a situation per group of weapons: every attack die (group by group, weapon by weapon),
    then a Defense roll per hit in the same order, Regeneration, Remove Casualties once and the
    one Morale Test. With one group it is exactly ``resolve_attack`` (tested).
    """
    if not groups:
        raise OptionError("an attack needs weapons", value=0, expected="at least one group")
    if len(groups) == 1:
        g = groups[0]
        return resolve_attack(g.weapons, d, g.situation, roller, readings=readings)
    r = readings
    rolled: list[tuple[AttackProfile, Situation, Hit]] = []
    for g in groups:
        for p in g.weapons:
            check = hit_check(p, g.situation, d, r)
            for _ in range(p.dice):
                outcome = roller.roll(check)
                rolled.extend((p, g.situation, h) for h in hits_from(p, g.situation, d, outcome, r))
    unsaved: list[tuple[AttackProfile, Situation, int]] = []
    for p, s, hit in rolled:
        size = wounds_from_block(p, roller.roll(defense_check(p, s, d, hit)))
        if size:
            unsaved.append((p, s, size))
    ordinary = 0
    packets: list[int] = []
    for p, s, size in unsaved:
        if regenerates(d):
            check = regeneration_check(p, s)
            size = sum(not roller.roll(check).success for _ in range(size))
        if p.deadly > 1:
            packets.append(size)
        else:
            ordinary += size
    after = remove_casualties(d, ordinary, packets)
    s0 = replace(groups[0].situation, cover=False)
    return finish(d, after, ordinary + sum(packets), len(rolled), s0, roller, r)


def ranged_groups(
    us: UnitState, target: UnitState, types: Sequence[str], lk: Look, distance: float
) -> list[Group]:
    """The weapons of ``types`` that models with LoS and range fire at ``target`` (split by
    the per-model rules of the firing models: :mod:`~oprlab.rules.weapon_lines`), grouped by
    whether the target has Cover from the firing model."""
    assert us.placement is not None
    alive = us.models
    covered_dice: list[AttackProfile] = []
    open_dice: list[AttackProfile] = []
    for w in ranged_weapons(us.unit):
        if w.name not in types:
            continue
        firing = lk.attackers(float(w.range or 0))
        total = dice_of(w, us.unit, alive, int(firing.sum()))
        if total <= 0:
            continue
        covered = min(total, dice_of(w, us.unit, alive, int((firing & lk.cover).sum())))
        pieces = attack_profiles(us.unit, [w], alive=alive, attacking=int(firing.sum()))
        for p, hidden in zip(pieces, share_out(covered, [p.dice for p in pieces]), strict=True):
            for dice, bucket in ((p.dice - hidden, open_dice), (hidden, covered_dice)):
                if dice > 0:
                    bucket.append(replace(p, dice=dice))
    groups: list[Group] = []
    base = Situation(distance=distance, attacker=us.owner, defender=target.owner)
    if open_dice:
        groups.append(Group(tuple(open_dice), base))
    if covered_dice:
        groups.append(Group(tuple(covered_dice), replace(base, cover=True)))
    return groups


# --- applying results to the table ---------------------------------------------------------


def casualty_order(
    state: GameState, target: UnitState, enemy: Placement | None, n: int, *, melee: bool
) -> list[int]:
    """Which models of ``target`` are removed, as the defending player would choose them.

    Seed 002 leaves the choice of models to the defender (the order of "Remove Casualties" is by
    kind of unit, and our units are one kind). A fixed habit: keep models within 3" of an
    objective marker; after shooting remove the models nearest the shooter first (the unit falls
    back); in melee remove those farthest from the enemy first (the fighters stay); never break
    the chain of models within 1" of each other while another choice keeps it.
    """
    assert target.placement is not None
    p = target.placement
    centres = p.centres
    if enemy is not None and len(enemy.centres):
        ec = enemy.centres[enemy.alive] if enemy.alive.any() else enemy.centres
        near = np.linalg.norm(centres[:, None, :] - ec[None, :, :], axis=2).min(axis=1)
    else:
        near = np.zeros(len(p.radii))
    sign = -1.0 if melee else 1.0
    return losses.casualty_order(state, p, n, sign * near)


def apply_casualties(
    state: GameState,
    target: UnitState,
    after: Casualties,
    enemy: Placement | None,
    *,
    melee: bool,
) -> None:
    """Take the models Remove Casualties removed off the table; carry the wounds left."""
    removed = min(target.models, target.models - after.models)
    if removed > 0 and target.placement is not None:
        gone = casualty_order(state, target, enemy, removed, melee=melee)
        target.placement.removed[gone] = True
        target.models -= removed
        state.log.add("casualties", unit=target.uid, models=removed, left=target.models)
    target.markers = after.wounds if target.models > 0 else 0
    if target.models <= 0:
        target.models = 0
        state.log.add("destroyed", unit=target.uid, side=target.side)


def rout(state: GameState, us: UnitState, cause: str) -> None:
    """ "The unit Routs and is removed from the game"."""
    us.routed = True
    us.shaken = False
    state.log.add("routed", unit=us.uid, side=us.side, cause=cause)


def shake(state: GameState, us: UnitState, cause: str) -> None:
    if not us.shaken:
        us.shaken = True
        state.log.add("shaken", unit=us.uid, cause=cause)


# --- the Ranged Attack ---------------------------------------------------------------------


def ranged_attack(
    state: GameState,
    us: UnitState,
    plan: Sequence[tuple[str, tuple[str, ...]]],
    roller: Roller,
    readings: Readings = READINGS,
) -> None:
    """Seed 002 "Ranged Attacks": each chosen target in turn, its own attack and Morale Test.

    ``plan`` pairs each target with the weapon types fired at it. LoS, range and Cover are read
    once, before any attack ("Choose Targets" and "Determine Cover" precede "Resolve Attacks").
    The game pauses between a volley's hits and its Defense rolls when the defender may spend
    bennies (``game/riverside.py``); this is the attack with nothing defended.
    """
    for v in volleys(state, us, plan):
        if state.units[v.target].on_table:
            fire(state, us, v, roller, readings)


def volleys(
    state: GameState, us: UnitState, plan: Sequence[tuple[str, tuple[str, ...]]]
) -> list[Volley]:
    """The plan's targets with the weapons each model fires at them ("Choose Targets",
    "Determine Cover"), read before any attack; targets no model can attack are left out."""
    assert us.placement is not None
    looks = look(state, us)
    out: list[Volley] = []
    for uid, types in plan:
        target = state.units[uid]
        lk = looks.get(uid)
        if lk is None or not target.on_table or target.placement is None:
            continue
        distance = geo.gap(us.placement, target.placement)
        groups = ranged_groups(us, target, types, lk, distance)
        if groups:
            out.append(Volley(uid, tuple(groups), distance))
    return out


def fire(
    state: GameState, us: UnitState, v: Volley, roller: Roller, readings: Readings = READINGS
) -> None:
    """One volley resolved whole (nobody defends): "Resolving Attacks", then its result."""
    d = defender(state.units[v.target])
    rolled = defend.roll_hits(v.groups, d, roller, readings)
    volley_result(state, us, v, d, defend.resolve_hits(rolled, d, roller, readings))


def volley_result(
    state: GameState,
    us: UnitState,
    v: Volley,
    d: DefenderProfile,
    result: AttackResult,
    defended: int | None = None,
) -> None:
    """Log one volley and apply it to its target (``defended``: the bennies spent, if asked)."""
    event = {} if defended is None else {"defended": defended}
    state.log.add(
        "shoot",
        unit=us.uid,
        target=v.target,
        distance=round(v.distance, 3),
        weapons=list(v.weapons),
        dice=v.dice,
        covered_dice=v.covered_dice,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **event,
    )
    apply_result(state, state.units[v.target], d, result, us.placement)


def apply_result(
    state: GameState,
    target: UnitState,
    d: DefenderProfile,
    result: AttackResult,
    enemy: Placement | None,
) -> None:
    """Outside melee: remove the casualties, then the Morale Test's outcome (Shaken, or a Rout
    under ``rout_when_shooting``). ``d`` is the target as the attack found it."""
    apply_casualties(state, target, result.after, enemy, melee=False)
    if result.morale_test:
        state.log.add(
            "morale",
            unit=target.uid,
            cause="wounds",
            was_shaken=d.shaken,
            passed=not (d.shaken or result.routed or bool(result.shaken)),
        )
    if result.routed and target.alive:
        rout(state, target, "morale")
    elif result.shaken and target.alive:
        shake(state, target, "morale")


# --- the Melee Attack ----------------------------------------------------------------------


@dataclass(frozen=True)
class MeleeOptions:
    """Choices a Riverside melee leaves open (docs/rules/riverside.md).

    Attributes:
        strike_back: the defending unit "may choose to strike back": it always does (a unit
            that strikes back can only raise its wound total for the Morale Test).
        tie: equal wound totals: ``"none"`` nobody has the lowest total, ``"both"`` both test.
        impact: Impact(X) as in GFF inside the charger's attack, or ``"none"``.
    """

    strike_back: bool = True
    tie: TieReading = "none"
    impact: ImpactReading = "with_attack"


def melee_profiles(
    us: UnitState,
    strikers: int,
    *,
    charging: bool,
    fatigued: bool,
    impact: ImpactReading,
    extra: bool = False,
) -> tuple[AttackProfile, ...]:
    """The melee weapons of the ``strikers`` models within 2" (and Impact on the charge).

    ``extra``: a benny's "single extra attack" (seed 000 variation 5): one more die of the
    unit's first melee weapon line that attacks (of its first melee weapon if none does).
    """
    out: list[AttackProfile] = []
    if strikers <= 0:
        return ()
    s = Situation(melee=True, charging=charging, fatigued=fatigued)
    impact_dice = impact_dice_left(us.unit, us.models, strikers) if charging else 0
    impact_hit = impact_profile(impact_dice, s, impact)
    if impact_hit is not None:
        out.append(impact_hit)
    melee = melee_weapons(us.unit)
    for p in attack_profiles(us.unit, melee, alive=us.models, attacking=strikers):
        if p.dice > 0:
            out.append(replace(p, dice=p.dice + (1 if extra else 0)))
            extra = False
    if extra and melee:
        out.append(replace(attack_profile(us.unit, melee[0]), dice=1))
    return tuple(out)


def strikers(state: GameState, us: UnitState, enemy: UnitState) -> int:
    """Models of ``us`` within 2" of ``enemy`` ("Determine Attacks", "Return Strikes")."""
    assert us.placement is not None and enemy.placement is not None
    return int(table_charge.strikers(us.placement, enemy.placement, STRIKE_RANGE).sum())


def plan_strike(
    state: GameState,
    us: UnitState,
    enemy: UnitState,
    *,
    charging: bool,
    options: MeleeOptions,
    extra: bool = False,
) -> Strike:
    """Who strikes and with what ("Determine Attacks", "Return Strikes"); ``extra``: a benny."""
    n = strikers(state, us, enemy)
    fatigued = us.fatigued or us.shaken  # "Shaken units count as being Fatigued"
    weapons = melee_profiles(
        us, n, charging=charging, fatigued=fatigued, impact=options.impact, extra=extra
    )
    s = Situation(
        melee=True,
        charging=charging,
        fatigued=fatigued,
        attacker=us.owner,
        defender=enemy.owner,
    )
    step = "charge" if charging else "return strikes"
    return Strike(us.uid, enemy.uid, step, n, weapons, s)


def strike_result(
    state: GameState,
    st: Strike,
    d: DefenderProfile,
    result: AttackResult | None,
    defended: int | None = None,
) -> int:
    """Log one strike and apply it: casualties, then Fatigue; returns the wounds caused (the
    number morale compares). ``result`` is ``None`` for a strike with no attack dice."""
    us, enemy = state.units[st.unit], state.units[st.target]
    if result is None:
        state.log.add(
            "strike", step=st.step, unit=st.unit, target=st.target, strikers=st.strikers, dice=0
        )
        return 0
    event = {} if defended is None else {"defended": defended}
    state.log.add(
        "strike",
        step=st.step,
        unit=st.unit,
        target=st.target,
        strikers=st.strikers,
        dice=sum(p.dice for p in st.weapons),
        fatigued=st.situation.fatigued,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **event,
    )
    apply_casualties(state, enemy, result.after, us.placement, melee=True)
    if any(p.name != "Impact" for p in st.weapons) and not us.fatigued:
        us.fatigued = True  # "Fatigue": after attacking with a melee weapon
        state.log.add("fatigued", unit=us.uid)
    return result.wounds


def strike(
    state: GameState,
    us: UnitState,
    enemy: UnitState,
    roller: Roller,
    *,
    charging: bool,
    options: MeleeOptions,
    readings: Readings,
    extra: bool = False,
) -> int:
    """One side's melee attack resolved whole: returns the wounds caused (the number morale
    compares); ``extra``: one more attack die (a benny)."""
    st = plan_strike(state, us, enemy, charging=charging, options=options, extra=extra)
    d = defender(enemy)
    if not st.weapons:
        return strike_result(state, st, d, None)
    rolled = defend.roll_hits(st.groups, d, roller, readings)
    return strike_result(state, st, d, defend.resolve_hits(rolled, d, roller, readings))


def melee_morale(
    state: GameState, loser: UnitState, roller: Roller, readings: Readings = READINGS
) -> None:
    """The melee Morale Test: a Quality test (Shaken always fails); a failure Routs the unit at
    half strength, else Shakes it ("Results of the Morale Test")."""
    d = defender(loser)
    now = casualties_at(d, 0)
    s = Situation(melee=True, defender=loser.owner)
    passed = (not fails_automatically(d)) and roller.roll(morale_check(d, now, s)).success
    state.log.add("morale", unit=loser.uid, cause="melee", was_shaken=d.shaken, passed=passed)
    if passed:
        return
    if morale_failure(d, now, s, readings) == "rout":
        rout(state, loser, "melee")
    else:
        shake(state, loser, "melee")


def melee(
    state: GameState,
    us: UnitState,
    target: UnitState,
    roller: Roller,
    *,
    options: MeleeOptions = MeleeOptions(),
    readings: Readings = READINGS,
    extra: bool = False,
) -> None:
    """Seed 002 "Melee Attacks" after the charge move: pile-in, attacks, Return Strikes, Fatigue,
    and the Morale Test by comparing wounds ("unless the opposing unit was destroyed").

    ``extra``: the charger's attack has one more die (a benny spent on the charge)."""
    pile_in(state, us, target)
    dealt = strike(
        state, us, target, roller, charging=True, options=options, readings=readings, extra=extra
    )
    taken = 0
    if options.strike_back and target.alive and us.alive:
        taken = strike(
            state, target, us, roller, charging=False, options=options, readings=readings
        )
    melee_end(state, us, target, dealt, taken, roller, options=options, readings=readings)


def pile_in(state: GameState, us: UnitState, target: UnitState) -> None:
    """Seed 002 "Melee Attacks" Movement: the target's models not in contact move up to 3"."""
    assert us.placement is not None and target.placement is not None
    others = [
        p for p in state.placements_except(us.uid) if p is not target.placement
    ]  # neither side of the fight
    rules = _move_rules(target.unit)
    piled = table_charge.pile_in(
        state.table, target.placement, us.placement, others, distance=PILE_IN, rules=rules
    )
    target.placement = piled.placement
    state.log.add("pile_in", unit=target.uid, in_contact=int(piled.in_contact.sum()))


def melee_end(
    state: GameState,
    us: UnitState,
    target: UnitState,
    dealt: int,
    taken: int,
    roller: Roller,
    *,
    options: MeleeOptions,
    readings: Readings,
) -> None:
    """Seed 002 "Melee Attacks" Morale Test: the unit with the lowest wound total tests, unless
    the opposing unit was destroyed."""
    state.log.add("melee", unit=us.uid, target=target.uid, wounds_dealt=dealt, wounds_taken=taken)
    loser = melee_loser(dealt, taken)
    if loser == "attacker":
        losers = [us]
    elif loser == "defender":
        losers = [target]
    else:
        losers = [us, target] if options.tie == "both" else []
    for unit in losers:
        other = target if unit is us else us
        if unit.alive and other.alive:  # "unless the opposing unit was destroyed"
            melee_morale(state, unit, roller, readings)


def _move_rules(unit: Unit) -> MoveRules:
    return MoveRules.of(unit, "riverside")


# --- Dangerous Terrain ----------------------------------------------------------------------


def dangerous_terrain(
    state: GameState, us: UnitState, crossed: BoolArray, roller: Roller, action: str
) -> None:
    """Seed 002 "Dangerous Terrain": with a Rush or Charge, each model that moved in or through
    it rolls one die (X dice with Tough(X)); each 1 is one automatic wound to the unit.

    The wounds are not from an attack, a spell or an ability, so no Morale Test follows.
    """
    if action not in ("rush", "charge") or unit_rule(us.unit, "Flying"):
        return
    movers = int((crossed & (us.placement.alive if us.placement is not None else crossed)).sum())
    if movers <= 0:
        return
    check = Check(Test.GENERIC, DANGEROUS_PASS, owner=us.owner)
    dice = movers * us.unit.tough
    wounds = sum(not roller.roll(check).success for _ in range(dice))
    state.log.add("dangerous", unit=us.uid, models=movers, dice=dice, wounds=wounds)
    if wounds:
        after = remove_casualties(defender(us), wounds)
        apply_casualties(state, us, after, None, melee=False)


__all__: Sequence[str] = [
    "Group",
    "Look",
    "MeleeOptions",
    "Volley",
    "apply_casualties",
    "casualty_order",
    "dangerous_terrain",
    "defender",
    "fire",
    "look",
    "melee",
    "melee_end",
    "melee_morale",
    "pile_in",
    "plan_strike",
    "ranged_attack",
    "ranged_groups",
    "reachable_types",
    "resolve_groups",
    "strike",
    "strike_result",
    "volley_result",
    "volleys",
]
