"""GFF casualties and their consequences (seed 003): removing models, wound effects, Pushing,
Falling, and Morale at the end of a round.

May import ``oprlab.rules.gff``, ``oprlab.table``, ``oprlab.units``, ``oprlab.mechanics`` and
``oprlab.game``'s state, geometry, casualties, gff_moves, gff_melee, gff_setup, gff_shooting.
"""

from __future__ import annotations

import numpy as np

from oprlab.game import casualties as losses
from oprlab.game import deploy_search
from oprlab.game import geometry as geo
from oprlab.game import gff_melee as fight
from oprlab.game import gff_moves as moves
from oprlab.game.gff_setup import options_of
from oprlab.game.gff_shooting import others as _others
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, UnitState
from oprlab.mechanics import Check, Test
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    defense_check,
    wounds_from_block,
)
from oprlab.rules.gff.profile import AttackProfile, defender_profile
from oprlab.rules.gff.resolve import AttackResult, Roller, finish
from oprlab.rules.gff.wounds import take_wounds
from oprlab.table.special_moves import PUSH_TARGET, fall, land
from oprlab.units.rule_scope import unit_rule

HERO_AURA = 12.0


#: Fearless: "roll one die. On a 4+ it counts as passed instead".
FEARLESS_ROLL = 4


def _apply_result(
    state: GameState,
    target: UnitState,
    r: AttackResult,
    by: UnitState,
    roller: Roller | None = None,
) -> None:
    """Casualties, markers and Shaken; with ``roller`` (an attack) the attacker may push."""
    _remove(state, target, r.casualties, by)
    target.markers = r.markers if target.alive else 0
    if (
        r.shaken
        and target.alive
        and not target.shaken
        and not opr_rules(state).ignores_shaken(state, target)
    ):
        target.shaken = True
        state.log.add("shaken", unit=target.uid, cause="wound effect")
    if r.shaken and roller is not None and options_of(state).special_moves:
        _push(state, target, by, roller)


def _push(state: GameState, target: UnitState, by: UnitState, roller: Roller) -> None:
    """Seed 003 "Pushing": a model that rolled a Shaken result; the attacker rolls one die and
    on a 4+ moves it up to 2" (its habit: :func:`gff_moves.best_push`); off an elevated
    position at least 2" tall it falls ("Falling")."""
    if by is target or not target.alive or target.placement is None:
        return
    roll = roller.roll(Check(Test.GENERIC, PUSH_TARGET, owner=by.owner))
    found = moves.best_push(state, target, _others(state, target)) if roll.success else None
    state.log.add(
        "push",
        unit=by.uid,
        target=target.uid,
        success=roll.success,
        moved=0.0 if found is None else round(found[1].moved, 3),
        drop=0.0 if found is None else round(found[1].drop, 3),
    )
    if found is None:
        return
    index, pushed = found
    target.placement = pushed.placement
    if pushed.falls:
        _fall(state, target, by, index, pushed.drop, roller)


def _fall(
    state: GameState, target: UnitState, by: UnitState, index: int, drop: float, roller: Roller
) -> None:
    """Seed 003 "Falling": one hit at AP(1 per full 3"), or in a unit of several models the
    model is killed; the model is placed within 2" of the bottom."""
    assert target.placement is not None
    f = fall(drop, models_left=target.models)
    foot = target.placement.centres[index]
    landed = land(state.table, target.placement, index, (float(foot[0]), float(foot[1])))
    if landed is not None:
        target.placement = landed
    state.log.add("fall", unit=target.uid, height=round(drop, 3), ap=f.ap, killed=f.killed)
    if f.killed:
        _remove(state, target, 1, by)
        return
    p = AttackProfile(name="Fall", dice=0, quality=by.unit.quality, melee=False, ap=f.ap)
    situation = Situation(attacker=by.owner, defender=target.owner)
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    wounds = wounds_from_block(p, roller.roll(defense_check(p, situation, d, Hit(f.ap))))
    result = finish(d, take_wounds(d, [], wounds), wounds, 1, situation, roller)
    _apply_result(state, target, result, by)  # no roller: a fall pushes nobody


def casualty_order(state: GameState, target: UnitState, by: UnitState, n: int) -> list[int]:
    """Which models of ``target`` go, as the defender would choose them.

    A fixed habit, since seed 003 leaves the choice to the defender: keep models within 3" of
    an objective marker, remove the models nearest the attacker first (the unit falls back), and
    never break cohesion (each model within 1" of another) while another choice keeps it.
    """
    assert target.placement is not None and by.placement is not None
    bc = by.placement.centres.mean(axis=0)  # all its models: it may have just been destroyed
    near_attacker = np.linalg.norm(target.placement.centres - bc, axis=1)
    return losses.casualty_order(state, target.placement, n, near_attacker)


def _remove(
    state: GameState,
    target: UnitState,
    casualties: int,
    by: UnitState,
    *,
    melee_order: bool = False,
) -> None:
    """Remove casualties (the defender's choice: :func:`casualty_order`; in melee
    :func:`gff_melee.casualty_order`, the fighters stay)."""
    if casualties <= 0 or target.placement is None:
        return
    casualties = min(casualties, target.models)
    order = fight.casualty_order if melee_order else casualty_order
    target.placement.removed[order(state, target, by, casualties)] = True
    target.models -= casualties
    state.log.add("casualties", unit=target.uid, models=casualties, left=target.models)
    if target.models <= 0:
        state.log.add("destroyed", unit=target.uid, side=target.side)


def morale(state: GameState, side: int, roller: Roller) -> None:
    """Seed 003 "Morale": at half or less of its starting units, every unit tests.

    A failed test makes a unit Shaken, or routs it if it already was; a Shaken unit always
    fails (Wound Effects), Fearless (all models) then passes on a 4+. Hero: units within 12"
    of a Hero that is not Shaken when the morale step begins may use its Quality. A unit that
    found no room to deploy never started (:mod:`oprlab.game.deploy_search`).
    """
    missing = deploy_search.missing(state)
    start = sum(u.uid not in missing for u in state.side_units(side))
    alive = [u for u in state.side_units(side) if u.alive]
    if len(alive) * 2 > start:
        return
    heroes = [u for u in alive if u.unit.hero and not u.shaken and u.on_table]
    for us in alive:
        if not us.on_table:
            continue  # still in reserve: not on the battlefield to test
        assert us.placement is not None
        quality = us.unit.quality
        for h in heroes:
            if h.placement is not None and geo.gap(h.placement, us.placement) <= HERO_AURA:
                quality = min(quality, h.unit.quality)
        if us.shaken:
            passed = False  # "always fails morale tests"
        else:
            passed = roller.roll(Check(Test.MORALE, quality, owner=us.owner)).success
        fearless = False
        if not passed and unit_rule(us.unit, "Fearless"):
            fearless = True
            passed = roller.roll(Check(Test.GENERIC, FEARLESS_ROLL, owner=us.owner)).success
        state.log.add(
            "morale",
            unit=us.uid,
            round=state.round,
            quality=quality,
            was_shaken=us.shaken,
            fearless=fearless,
            passed=passed,
        )
        if passed:
            continue
        if us.shaken:
            us.routed = True
            state.log.add("routed", unit=us.uid, side=us.side)
        else:
            us.shaken = True
            state.log.add("shaken", unit=us.uid, cause="morale")
