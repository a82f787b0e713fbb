"""Riverside Special Abilities in play: Caster(X) spells (with boosts and resisting), Teleport.

Seed 002_fdb385c07cc953af names casters only in passing: "Casters receive spell tokens" in the
Beginning Phase, "Special Abilities such as the casting of a Spell ... may be used before or
after moving and in any order, but must be used before a Ranged or Melee Attack is made", Idle
"may not use any Special Abilities", and "Whenever a unit takes a wound from a spell ... a
Morale Test may be necessary". What a caster is comes from GFF (seed 003 "Caster(X)": X tokens
a round, at most 6; one try per spell; a 4+ roll; friendly and enemy casters within 18" in line
of sight may add +1/-1 per token), and the clock reading from seed 000 "Caster(X)" (the same
``Test.CASTING`` check gff.py rolls). Spells are :data:`oprlab.game.casting.SPELLS` (army lists
carry none; oprlab's stand-in), resolved with Riverside's own Defense, Regeneration, Remove
Casualties and Morale Test. Teleport is seed 002 "Teleport" through
:func:`oprlab.table.movement.teleport_unit`.

This module lists and resolves; :mod:`oprlab.game.riverside` owns when each decision comes.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics``,
``oprlab.game``'s state, actions, geometry, ``riverside_combat``, ``riverside_defend``,
``bennies`` and ``casting`` (Caster(X) as both procedures play it: tokens, spells, helpers in
reach, the casting roll).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from oprlab.game import geometry as geo
from oprlab.game import riverside_combat as combat
from oprlab.game import riverside_defend as defend
from oprlab.game.actions import Action, Kind
from oprlab.game.bennies import bennies_available
from oprlab.game.casting import (
    BOOST_LISTED,
    CASTING_ROLL,
    SPELL_TOKENS_MAX,
    SPELLS,
    Spell,
    casters_near,
    casting_check,
    give_spell_tokens,
    pay,
    spell,
)
from oprlab.game.casting import cast_actions as _cast_actions
from oprlab.game.casting import cast_problem as _cast_problem
from oprlab.game.state import GameState, UnitState
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import (
    READINGS,
    Hit,
    Readings,
    Situation,
    defense_check,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.riverside.casualties import remove_casualties
from oprlab.rules.riverside.profile import AttackProfile
from oprlab.rules.riverside.resolve import finish
from oprlab.table.model import Placement, Point
from oprlab.table.movement import TELEPORT_RANGE, MoveRules, teleport_unit
from oprlab.table.sight import visible_all
from oprlab.units.rule_scope import unit_rule

#: Resisting tokens listed by legal_actions (any number up to the tokens is legal), as boosts.
RESIST_LISTED = BOOST_LISTED

__all__ = [
    "CASTING_ROLL",
    "RESIST_LISTED",
    "SPELLS",
    "SPELL_TOKENS_MAX",
    "boosters",
    "cast_actions",
    "cast_problem",
    "casting_check",
    "give_spell_tokens",
    "resist_actions",
    "resisters",
    "resolve_cast",
    "spell",
    "spell_defended",
    "spell_targets",
    "teleport",
    "teleport_actions",
    "teleport_goals",
]


# --- Caster(X) ----------------------------------------------------------------------------


def _others(state: GameState, *skip: str) -> list[Placement]:
    return [
        u.placement
        for u in state.units.values()
        if u.uid not in skip and u.on_table and u.placement is not None
    ]


def _sees(state: GameState, viewer: UnitState, units: Sequence[UnitState]) -> list[bool]:
    """Whether some model of ``viewer`` has LoS (seed 002, 10% visible) to each of ``units``.

    The units looked at block sight to each other, every other unit blocks too (seed 002
    "Line of Sight"), the viewer's own models never do.
    """
    if not units:
        return []
    assert viewer.placement is not None
    targets = [u.placement for u in units if u.placement is not None]
    others = _others(state, viewer.uid, *(u.uid for u in units))
    seen = visible_all(
        state.table, viewer.placement, targets, others, "riverside", cache=combat.sight_cache(state)
    )
    return [bool(s.any()) for s in seen]


def spell_targets(state: GameState, us: UnitState, sp: Spell) -> list[str]:
    """Enemy units within the spell's range in line of sight of one of the caster's models."""
    assert us.placement is not None
    near = [
        e
        for e in state.enemies(us.side)
        if e.placement is not None and geo.gap(us.placement, e.placement) <= sp.range
    ]
    return [e.uid for e, ok in zip(near, _sees(state, us, near), strict=True) if ok]


def _token_holders(state: GameState, us: UnitState, side: int) -> list[UnitState]:
    """Casters of ``side`` with tokens within 18" of ``us`` whose models see ``us`` (seed 002
    line of sight), nearest first (seed 003: "Models within 18" in line of sight of the caster's
    unit")."""
    side_units = [f for f in state.units.values() if f.side == side and f.on_table]
    return casters_near(us, side_units, lambda f: _sees(state, f, [us])[0])


def boosters(state: GameState, us: UnitState) -> list[UnitState]:
    """Friendly Casters that may give the caster +1 per token."""
    return _token_holders(state, us, us.side)


def resisters(state: GameState, us: UnitState) -> list[UnitState]:
    """Enemy Casters that may give the caster -1 per token (the decision is theirs)."""
    return _token_holders(state, us, 1 - us.side)


def cast_actions(state: GameState, us: UnitState, tried: tuple[str, ...] = ()) -> list[Action]:
    """Each spell not yet tried this activation, at each value the tokens allow, at each
    target, with boosts of 0 up to :data:`BOOST_LISTED` (is_legal accepts more)."""
    if us.spell_tokens <= 0 or not us.on_table:
        return []
    spare = sum(f.spell_tokens for f in boosters(state, us))
    return _cast_actions(us, tried, spare, lambda sp: spell_targets(state, us, sp))


def cast_problem(state: GameState, us: UnitState, a: Action, tried: tuple[str, ...]) -> str | None:
    """Why ``a`` (a ``CAST``) may not be tried now by ``us``, or ``None``."""
    return _cast_problem(
        us, a, tried, lambda sp: spell_targets(state, us, sp), lambda: boosters(state, us)
    )


def resist_actions(state: GameState, caster: UnitState) -> list[Action]:
    """The resisting side's choice: 0 up to :data:`RESIST_LISTED` tokens against the spell."""
    spare = sum(f.spell_tokens for f in resisters(state, caster))
    return [
        Action(Kind.RESIST, target=caster.uid, value=v)
        for v in range(min(spare, RESIST_LISTED) + 1)
    ]


def pay_for_cast(state: GameState, us: UnitState, a: Action) -> dict[str, int]:
    """Spend the caster's tokens and its helpers' boost (nearest first)."""
    us.spell_tokens -= a.value
    return pay(boosters(state, us), a.boost)


def resolve_cast(
    state: GameState,
    us: UnitState,
    a: Action,
    helped: dict[str, int],
    resist: int,
    roller: Roller,
    readings: Readings = READINGS,
) -> defend.Defending | None:
    """Spend the resisting tokens, roll, and on a success the spell's hits land; the attack
    waiting for the target side's ``DEFEND`` decision when it has bennies (else ``None``)."""
    resisted = pay(resisters(state, us), resist) if resist else {}
    roll = roller.roll(casting_check(us, a.boost, resist))
    state.log.add(
        "cast",
        unit=us.uid,
        spell=a.spell,
        value=a.value,
        target=a.target,
        boost=a.boost,
        helpers=helped,
        resist=resist,
        resisters=resisted,
        natural=roll.natural,
        success=roll.success,
        tokens=us.spell_tokens,
    )
    target = state.units[a.target]
    sp = spell(a.spell)
    assert sp is not None
    if roll.success and target.on_table:
        return spell_hits(state, us, target, sp, a.value, roller, readings)
    return None


def spell_hits(
    state: GameState,
    us: UnitState,
    target: UnitState,
    sp: Spell,
    value: int,
    roller: Roller,
    readings: Readings = READINGS,
) -> defend.Defending | None:
    """The stand-in effect: ``value x hits_per_token`` hits at AP(``sp.ap``), through seed 002
    "Roll Defense" (no Cover: Cover is "against Ranged weapons"), Regeneration, "Remove
    Casualties" and "Morale Tests" ("a wound from a spell": at half strength, Shaken on a
    failure).

    Seed 000 "Bennies", "Defend against any single attack": when the target's side has bennies
    the hits wait for its ``DEFEND`` decision first (returned; :func:`spell_defended` goes on),
    as in the GFF game.
    """
    assert us.placement is not None and target.placement is not None
    hits = value * sp.hits_per_token
    p = AttackProfile(name=sp.name, dice=0, quality=us.unit.quality, melee=False, ap=sp.ap)
    s = Situation(
        distance=geo.gap(us.placement, target.placement), attacker=us.owner, defender=target.owner
    )
    d = combat.defender(target)
    if hits and bennies_available(state, target.side) > 0:
        rolled: defend.Rolled = ((p, s, (Hit(sp.ap),) * hits),)
        return defend.Defending(us.uid, target.uid, us.side, rolled, spell=sp.name)
    wounds = 0
    for _ in range(hits):
        wounds += wounds_from_block(p, roller.roll(defense_check(p, s, d, Hit(sp.ap))))
    if wounds and regenerates(d):
        check = regeneration_check(p, s)
        wounds = sum(not roller.roll(check).success for _ in range(wounds))
    result = finish(d, remove_casualties(d, wounds), wounds, hits, s, roller, readings)
    state.log.add(
        "spell",
        unit=us.uid,
        spell=sp.name,
        target=target.uid,
        hits=hits,
        wounds=result.wounds,
        casualties=result.casualties,
    )
    combat.apply_result(state, target, d, result, us.placement)
    return None


def spell_defended(
    state: GameState,
    shot: defend.Defending,
    defended: int,
    roller: Roller,
    readings: Readings = READINGS,
) -> None:
    """A spell's hits after the ``DEFEND`` decision: ``defended`` of them roll nothing, the rest
    go through Defense, Regeneration, Remove Casualties and the Morale Test
    (:func:`oprlab.game.riverside_defend.resolve_hits`, the checks of :func:`spell_hits`)."""
    us, target = state.units[shot.attacker], state.units[shot.target]
    assert us.placement is not None
    d = combat.defender(target)
    result = defend.resolve_hits(shot.rolled, d, roller, readings, defended=defended)
    state.log.add(
        "spell",
        unit=us.uid,
        spell=shot.spell,
        target=target.uid,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        defended=defended,
    )
    combat.apply_result(state, target, d, result, us.placement)


# --- Teleport -----------------------------------------------------------------------------


def teleport_goals(state: GameState, us: UnitState) -> list[Point]:
    """Canonical places to teleport toward: each marker, each enemy unit, the home edge."""
    assert us.placement is not None
    goals: list[Point] = [o.position for o in state.objectives]
    goals += [geo.centroid(e.placement) for e in state.enemies(us.side) if e.placement is not None]
    cx, _ = geo.centroid(us.placement)
    goals.append((cx, 0.0 if state.home_edges[us.side] == 0 else state.table.depth))
    return goals


def teleport_actions(state: GameState, us: UnitState) -> list[Action]:
    """``TELEPORT`` toward each goal (the unit is placed up to 6" toward it)."""
    if not unit_rule(us.unit, "Teleport") or not us.on_table:
        return []
    return [Action(Kind.TELEPORT, us.uid, to=g) for g in teleport_goals(state, us)]


def teleport(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 002 "Teleport": "place this unit anywhere within 6"" (toward ``a.to``): no path and
    no terrain effects, but legal ground, Unit Cohesion and 1" from other units."""
    assert us.placement is not None and a.to is not None
    before = geo.centroid(us.placement)
    moved = teleport_unit(
        state.table,
        us.placement,
        _others(state, us.uid),
        a.to,
        rules=MoveRules.of(us.unit, "riverside"),
        distance=TELEPORT_RANGE,
    )
    us.placement = moved.placement
    after = geo.centroid(us.placement)
    state.log.add(
        "teleport",
        unit=us.uid,
        to=[round(v, 3) for v in a.to],
        distance=round(math.dist(before, after), 3),
    )
