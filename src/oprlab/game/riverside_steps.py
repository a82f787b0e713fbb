"""Riverside's Special Abilities in an activation (seed 002 "Special Abilities", "Teleport";
spells as seed 003 "Caster(X)"): which may be used now, casting with the enemy's resisting
tokens (``RESIST``), teleporting, and where the activation goes on afterwards.

May import ``oprlab.game``'s state, actions, riverside_abilities, riverside_defend,
riverside_options and ``opr.hooks`` (to end the activation through the rules), and below.
"""

from __future__ import annotations

from dataclasses import dataclass

from oprlab.game import activation
from oprlab.game import riverside_abilities as abilities
from oprlab.game import riverside_defend as defend
from oprlab.game.actions import Action
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.riverside_options import options_of
from oprlab.game.state import GameState, Pending, Phase, UnitState
from oprlab.rules.gff.resolve import Roller

#: Phases in which the unit in ``state.pending`` may still use Special Abilities.
ABILITY_STEPS = (Phase.ACT, Phase.SHOOT, Phase.SPECIAL)


def ability_actions(state: GameState, us: UnitState) -> list[Action]:
    """Special Abilities ``us`` may use now: spells not yet tried, Teleport once.

    Seed 002 "Special Abilities": "before or after moving and in any order, but ... before a
    Ranged or Melee Attack"; seed 002 "Teleport": "Once per activation, before attack".
    """
    tried = _tried(state, us)
    acts = abilities.cast_actions(state, us, tried)
    if not _teleported(state, us):
        acts += abilities.teleport_actions(state, us)
    return acts


def _tried(state: GameState, us: UnitState) -> tuple[str, ...]:
    p = state.pending
    return p.cast if p is not None and p.unit == us.uid else ()


def _teleported(state: GameState, us: UnitState) -> bool:
    return bool(state.teleported == us.uid)


@dataclass(frozen=True)
class SpellCast:
    """A spell waiting for the other side's resisting tokens: the ``CAST`` and the tokens
    friendly Casters paid towards it (by uid)."""

    action: Action
    helped: dict[str, int]


def casting(state: GameState) -> tuple[UnitState, Action, dict[str, int]]:
    """The spell waiting for the other side's resisting tokens."""
    c = state.casting
    assert isinstance(c, SpellCast)
    return state.units[c.action.unit], c.action, c.helped


def _begin(state: GameState, us: UnitState) -> None:
    """Count the activation once (Special Abilities and the action are one activation)."""
    if state.phase != Phase.ACTIVATION:
        return
    activation.count_activation(state, us)


def _cast(state: GameState, us: UnitState, a: Action) -> None:
    """A spell (seed 003 "Caster(X)"): pay, let the enemy resist if it can, roll."""
    step = state.phase if state.phase in ABILITY_STEPS else Phase.ACT
    p = state.pending
    moved = p.moved if p is not None else False
    tried = _tried(state, us)
    _begin(state, us)
    helped = abilities.pay_for_cast(state, us, a)
    clock_set = p is not None and p.unit == us.uid and p.clock_set
    state.pending = Pending(
        step, us.uid, us.side, moved=moved, cast=(*tried, a.spell), clock_set=clock_set
    )
    state.phase = step
    if abilities.resisters(state, us):  # "at the same time before rolling": their decision
        state.casting = SpellCast(a, helped)
        state.phase = Phase.RESIST
        state.active = 1 - us.side
        return
    _finish_cast(state, us, a, helped, 0)


def _finish_cast(
    state: GameState, us: UnitState, a: Action, helped: dict[str, int], resist: int
) -> None:
    roller = state.dice
    waiting = abilities.resolve_cast(
        state, us, a, helped, resist, roller, options_of(state).readings
    )
    pending = state.pending
    assert pending is not None
    if waiting is not None:  # the target's side decides on its bennies first (DEFEND)
        state.after_spell = pending
        _ask_defender(state, waiting, roller)
        return
    _after_spell(state, us, pending)


def _after_spell(state: GameState, us: UnitState, pending: Pending) -> None:
    """The caster's activation goes on from the step it cast in."""
    state.pending = pending
    state.phase = pending.step
    state.active = pending.side
    _after_ability(state, us)


def _teleport(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 002 "Teleport": once per activation, before the attack, before or after moving."""
    step = state.phase if state.phase in ABILITY_STEPS else Phase.ACT
    p = state.pending
    moved = p.moved if p is not None else False
    tried = _tried(state, us)
    _begin(state, us)
    abilities.teleport(state, us, a)
    state.teleported = us.uid
    clock_set = p is not None and p.unit == us.uid and p.clock_set
    state.pending = Pending(step, us.uid, us.side, moved=moved, cast=tried, clock_set=clock_set)
    state.phase = step
    _after_ability(state, us)


def _after_ability(state: GameState, us: UnitState) -> None:
    """After a Rush, the activation ends once no Special Ability is left to use."""
    if state.phase == Phase.SPECIAL and not ability_actions(state, us):
        opr_rules(state).end_activation(state, us.side)


def _ask_defender(state: GameState, shot: defend.Defending, roller: Roller) -> None:
    """Pause the attack for the ``DEFEND`` decision of the side hit (seed 000 "Bennies")."""
    opr_rules(state).ask_defender(state, shot, shot.target, shot.side)
