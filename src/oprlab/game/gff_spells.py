"""GFF casting (seed 003 "Caster(X)"): the spells a Caster may try, paying tokens with its
friends' help, the enemy's resisting tokens (``RESIST``), the roll and the spell's hits (which
the target's side may defend with bennies, ``DEFEND``).

May import ``oprlab.rules.gff``, ``oprlab.units``, ``oprlab.mechanics`` and ``oprlab.game``'s
state, casting, bennies, geometry, gff_casting, gff_defend, gff_losses, gff_moving, gff_setup,
gff_shooting and ``opr.hooks`` (to end the activation through the rules).
"""

from __future__ import annotations

import math

from oprlab.game import casting as caster
from oprlab.game import geometry as geo
from oprlab.game import gff_casting as casting
from oprlab.game import gff_defend as defend
from oprlab.game.actions import Action
from oprlab.game.bennies import bennies_available
from oprlab.game.casting import Spell
from oprlab.game.gff_casting import Casting
from oprlab.game.gff_losses import _apply_result
from oprlab.game.gff_moving import _begin
from oprlab.game.gff_setup import options_of
from oprlab.game.gff_shooting import seeing as _seeing
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, Pending, Phase, UnitState
from oprlab.rules.gff.attack import (
    Hit,
    Situation,
    defense_check,
    regenerates,
    regeneration_check,
    wounds_from_block,
)
from oprlab.rules.gff.profile import AttackProfile, defender_profile
from oprlab.rules.gff.resolve import AttackResult, Roller, finish
from oprlab.rules.gff.wounds import take_wounds


def spell_targets(state: GameState, us: UnitState, spell: Spell) -> list[str]:
    """Enemy units within the spell's range and in line of sight of one of the caster's models.

    Seed 003 "Caster(X)": "resolve the effect on a target in line of sight".
    """
    here = us.placement
    assert here is not None
    own = geo.gap_key(here)
    x, y, spread = geo.bounding_circle(here, own)
    far = spell.range + spread + geo.BOUND_MARGIN
    out = []
    for e in state.enemies(us.side):
        there = e.placement
        assert there is not None
        key = geo.gap_key(there)
        ex, ey, their = geo.bounding_circle(there, key)
        if math.hypot(ex - x, ey - y) - their > far:
            continue  # the circles' gap bounds the models' (as charge_targets skips)
        if geo.keyed_gap(here, own, there, key) <= spell.range and _seeing(state, us, e).any():
            out.append(e.uid)
    return out


def spell_helpers(state: GameState, us: UnitState) -> list[UnitState]:
    """Friendly Casters with tokens within 18" and in line of sight of ``us``, nearest first.

    Seed 003 "Caster(X)": they "may spend any number of spell tokens at the same time".
    """
    return _casters_near(state, us, state.friends(us.side))


def _casters_near(state: GameState, us: UnitState, units: list[UnitState]) -> list[UnitState]:
    """Seed 003: GFF's line of sight (some model of the Caster sees the unit)."""
    return caster.casters_near(us, units, lambda f: bool(_seeing(state, f, us).any()))


def cast_actions(state: GameState, us: UnitState, tried: tuple[str, ...] = ()) -> list[Action]:
    """The spells ``us`` may try now: each spell not yet tried, value, target and boost.

    A Shaken unit casts nothing: it "must spend one full activation idle".
    """
    if us.shaken or us.spell_tokens <= 0 or not us.on_table:
        return []
    spare = sum(f.spell_tokens for f in spell_helpers(state, us))
    return caster.cast_actions(us, tried, spare, lambda sp: spell_targets(state, us, sp))


_spell = caster.spell


def _cast_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    """Why ``a`` (a ``CAST``) may not be tried now, or ``None`` (seed 003 "Caster(X)")."""
    if us.shaken:
        return "a Shaken unit must stay idle"
    tried = state.pending.cast if state.pending is not None else ()
    return caster.cast_problem(
        us,
        a,
        tried,
        lambda sp: spell_targets(state, us, sp),
        lambda: spell_helpers(state, us),
    )


def _cast(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 003 "Caster(X)": spend the spell's value in tokens, helpers add +1 per token, roll
    one die, and on a 4+ the spell hits its target; the unit then takes its action."""
    tried = state.pending.cast if state.pending is not None else ()
    _begin(state, us)
    if not us.on_table:  # lost to dangerous terrain as it activated: nothing is cast
        opr_rules(state).end_activation(state, us.side)
        return
    spell = _spell(a.spell)
    assert spell is not None
    us.spell_tokens -= a.value
    helped = caster.pay(spell_helpers(state, us), a.boost)
    paid = Casting(us.uid, a, tuple(helped.items()), (*tried, spell.name))
    if spell_resisters(state, us):  # the other side may spend tokens first (RESIST)
        state.casting = paid
        state.pending = Pending(Phase.RESIST, us.uid, us.side, cast=paid.tried)
        state.phase = Phase.RESIST
        state.active = 1 - us.side
        return
    _roll_cast(state, paid, None)


def _roll_cast(state: GameState, c: Casting, resisted: dict[str, int] | None) -> None:
    """Roll the spell: +1 per boosting token, -1 per resisting token; on a success the spell
    hits its target. The caster then takes its action (phase ``act``)."""
    us, a = state.units[c.caster], c.action
    spell = _spell(a.spell)
    assert spell is not None
    against = sum(resisted.values()) if resisted else 0
    roller = state.dice
    # The clock: "add 3 to the clock"; each extra token takes 1 off, down to 0 (Test.CASTING);
    # each resisting token adds 1 (up to the clock's most, 5).
    roll = roller.roll(caster.casting_check(us, a.boost, against))
    state.log.add(
        "cast",
        unit=us.uid,
        spell=spell.name,
        value=a.value,
        target=a.target,
        boost=a.boost,
        helpers=dict(c.helped),
        natural=roll.natural,
        success=roll.success,
        tokens=us.spell_tokens,
        **({} if resisted is None else {"resisted": against}),
    )
    target = state.units[a.target]
    if roll.success and target.on_table:
        roller = state.dice
        waiting = _spell_hits(state, us, target, spell, a.value, roller, c.tried)
        if waiting:  # the target's side decides on its bennies first (DEFEND)
            return
    _to_act(state, us, c.tried)


def _to_act(state: GameState, us: UnitState, tried: tuple[str, ...]) -> None:
    """After a cast the caster chooses its action (phase ``act``)."""
    state.pending = Pending(Phase.ACT, us.uid, us.side, cast=tried)
    state.phase = Phase.ACT
    state.active = us.side


def spell_resisters(state: GameState, us: UnitState) -> list[UnitState]:
    """Enemy Casters with tokens within 18" of the casting unit and seeing it, nearest first.

    Seed 003 "Caster(X)": models "within 18" in line of sight of the caster's unit" may spend
    tokens "to give the caster +1/-1 to the roll per token": the enemy's are the -1.
    """
    return _casters_near(state, us, state.enemies(us.side))


def resist_actions(state: GameState) -> list[Action]:
    """The other side's choice: 0 up to its Casters' tokens (listed to boost + 2)."""
    c = state.casting
    if state.phase != Phase.RESIST or not isinstance(c, Casting):
        return []
    return casting.resist_actions(c, spell_resisters(state, state.units[c.caster]))


def _resist_problem(state: GameState, us: UnitState, a: Action) -> str | None:
    c = state.casting
    if state.phase != Phase.RESIST or not isinstance(c, Casting):
        return "no spell to resist now"
    return casting.resist_problem(c, spell_resisters(state, state.units[c.caster]), us, a)


def _resist(state: GameState, us: UnitState, a: Action) -> None:
    """Spend the resisting tokens, nearest Caster first, then roll the spell."""
    c, state.casting = state.casting, None
    assert isinstance(c, Casting)
    spent = caster.pay(spell_resisters(state, state.units[c.caster]), a.value)
    state.log.add("resist", side=us.side, unit=c.caster, tokens=a.value, casters=spent)
    _roll_cast(state, c, spent)


def _spell_hits(
    state: GameState,
    us: UnitState,
    target: UnitState,
    spell: Spell,
    value: int,
    roller: Roller,
    tried: tuple[str, ...] = (),
) -> bool:
    """The stand-in effect: ``value x hits_per_token`` hits at AP(``spell.ap``), no cover.

    Under ``defend="all"`` a target whose side has bennies may defend against them first
    (the spell's hits are "an attack"): ``True`` when the game now waits for that decision.
    """
    assert us.placement is not None and target.placement is not None
    hits = value * spell.hits_per_token
    p = AttackProfile(name=spell.name, dice=0, quality=us.unit.quality, melee=False, ap=spell.ap)
    distance = geo.gap(us.placement, target.placement)
    situation = Situation(distance=distance, attacker=us.owner, defender=target.owner)
    d = defender_profile(
        target.unit, models=target.models, markers=target.markers, shaken=target.shaken
    )
    if hits and options_of(state).defend == "all" and bennies_available(state, target.side) > 0:
        rolled: defend.Rolled = ((p, (Hit(spell.ap),) * hits),)
        waiting = defend.SpellDefending(
            us.uid, target.uid, us.side, spell.name, rolled, situation, d, tried
        )
        opr_rules(state).ask_defender(state, waiting, target.uid, us.side)
        return True
    wounds = 0
    for _ in range(hits):
        wounds += wounds_from_block(p, roller.roll(defense_check(p, situation, d, Hit(spell.ap))))
    if wounds and regenerates(p, d):
        wounds = sum(not roller.roll(regeneration_check(situation)).success for _ in range(wounds))
    result = finish(d, take_wounds(d, [], wounds), wounds, hits, situation, roller)
    _spell_result(state, us, target, spell.name, result, roller)
    return False


def _spell_result(
    state: GameState,
    us: UnitState,
    target: UnitState,
    spell: str,
    result: AttackResult,
    roller: Roller,
    defended: int | None = None,
) -> None:
    """Log a spell's hits and apply them to the target."""
    state.log.add(
        "spell",
        unit=us.uid,
        spell=spell,
        target=target.uid,
        hits=result.hits,
        wounds=result.wounds,
        casualties=result.casualties,
        **({} if defended is None else {"defended": defended}),
    )
    _apply_result(state, target, result, us, roller)
