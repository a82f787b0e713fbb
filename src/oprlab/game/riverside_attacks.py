"""Riverside's attacks in an activation (seed 002 "Ranged Attacks", "Charge Action", "Melee
Attacks"): the chosen targets' volleys, the charge into contact, the charger's attack, Return
Strikes and the Morale Test, each pausing for the defender's bennies (``DEFEND``).

May import ``oprlab.table``, ``oprlab.units``, ``oprlab.game``'s state, bennies, geometry,
riverside_combat, riverside_defend, riverside_abilities, riverside_charge, riverside_options,
riverside_steps and ``opr.hooks`` (to end the activation through the rules), and below.
"""

from __future__ import annotations

import math

from oprlab.errors import OptionError
from oprlab.game import bennies, benny_defence
from oprlab.game import geometry as geo
from oprlab.game import riverside_abilities as abilities
from oprlab.game import riverside_combat as combat
from oprlab.game import riverside_defend as defend
from oprlab.game.actions import Action, Kind
from oprlab.game.bennies import bennies_available
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.riverside_charge import _rules, move_allowance
from oprlab.game.riverside_options import options_of
from oprlab.game.riverside_steps import _after_spell, _ask_defender
from oprlab.game.state import GameState, Pending, Phase, UnitState
from oprlab.rules.gff.resolve import Roller
from oprlab.table import charge as table_charge


def shooting_targets(state: GameState, us: UnitState) -> dict[str, tuple[str, ...]]:
    """Enemy units some model may shoot (LoS and a weapon in range), with the weapon types."""
    if not combat.ranged_weapons(us.unit):
        return {}
    return combat.reachable_types(us, combat.look(state, us))


def _shoot_step(state: GameState, us: UnitState, a: Action) -> None:
    """Seed 002 "Ranged Attacks": the chosen targets, each attacked and tested in turn."""
    pending = state.pending
    assert pending is not None
    if a.target and state.phase == Phase.SHOOT:
        targets = shooting_targets(state, us)
        plan = [(a.target, tuple(w for w in targets[a.target] if w not in a.split))]
        if a.second:
            plan.append((a.second, tuple(a.split)))
        volleys = combat.volleys(state, us, plan)
        if a.benny:
            _spend_benny(state, us)
            if volleys:  # "a single extra attack" against the (first) target
                volleys[0] = volleys[0].with_extra_die()
        _fire_volleys(state, us, tuple(volleys), pending.side)
        return
    if state.phase == Phase.SHOOT:
        state.log.add("hold_fire", unit=us.uid)
    opr_rules(state).end_activation(state, pending.side)


def _fire_volleys(
    state: GameState, us: UnitState, volleys: tuple[defend.Volley, ...], side: int
) -> None:
    """Each volley in turn; a defender with bennies gets a ``DEFEND`` decision once the hits
    are known (seed 002 "Roll Attacks" done, "Roll Defense" not yet), which pauses the rest."""
    readings = options_of(state).readings
    roller = state.dice
    for i, v in enumerate(volleys):
        target = state.units[v.target]
        if not target.on_table:
            continue
        d = combat.defender(target)
        rolled = defend.roll_hits(v.groups, d, roller, readings)
        if defend.hit_count(rolled) and bennies_available(state, target.side) > 0:
            shot = defend.Defending(us.uid, v.target, side, rolled, volley=v, rest=volleys[i + 1 :])
            _ask_defender(state, shot, roller)
            return
        result = defend.resolve_hits(rolled, d, roller, readings)
        combat.volley_result(state, us, v, d, result)
    opr_rules(state).end_activation(state, side)


def _fight(state: GameState, fight: defend.Fight, side: int, roller: Roller) -> None:
    """Seed 002 "Melee Attacks" from ``fight.step`` on: the charger's attack, Return Strikes,
    the Morale Test. Once a strike's hits are known, a struck side with bennies decides
    (``DEFEND``) before its Defense rolls, which pauses the fight."""
    opts = options_of(state)
    us, target = state.units[fight.charger], state.units[fight.target]
    while fight.step != "morale":
        charging = fight.step == "charge"
        if not charging and not (opts.strike_back and target.alive and us.alive):
            fight = fight.after(0)
            continue
        striker, struck = (us, target) if charging else (target, us)
        st = combat.plan_strike(
            state, striker, struck, charging=charging, options=opts.melee,
            extra=charging and fight.extra,
        )  # fmt: skip
        d = combat.defender(struck)
        if not st.weapons:
            fight = fight.after(combat.strike_result(state, st, d, None))
            continue
        rolled = defend.roll_hits(st.groups, d, roller, opts.readings)
        if defend.hit_count(rolled) and bennies_available(state, struck.side) > 0:
            shot = defend.Defending(st.unit, st.target, side, rolled, strike=st, fight=fight)
            _ask_defender(state, shot, roller)
            return
        result = defend.resolve_hits(rolled, d, roller, opts.readings)
        fight = fight.after(combat.strike_result(state, st, d, result))
    combat.melee_end(
        state, us, target, fight.dealt, fight.taken, roller, options=opts.melee,
        readings=opts.readings,
    )  # fmt: skip
    opr_rules(state).end_activation(state, side)


def _defend(state: GameState, us: UnitState, a: Action) -> None:
    """Spend ``a.value`` bennies on as many hits, then roll the rest of the volley and go on."""
    shot, state.defending = state.defending, None
    assert isinstance(shot, defend.Defending)
    benny_defence.spend_defence(state, us, a.value)
    readings = options_of(state).readings
    roller = state.dice
    attacker = state.units[shot.attacker]
    if shot.spell:  # a spell's hits: the caster's activation then goes on
        abilities.spell_defended(state, shot, a.value, roller, readings)
        pending, state.after_spell = state.after_spell, None
        assert isinstance(pending, Pending)
        _after_spell(state, attacker, pending)
        return
    d = combat.defender(us)
    result = defend.resolve_hits(shot.rolled, d, roller, readings, defended=a.value)
    if shot.strike is not None and shot.fight is not None:
        wounds = combat.strike_result(state, shot.strike, d, result, defended=a.value)
        _fight(state, shot.fight.after(wounds), shot.side, roller)
        return
    assert shot.volley is not None
    combat.volley_result(state, attacker, shot.volley, d, result, defended=a.value)
    _fire_volleys(state, attacker, shot.rest, shot.side)


_spend_benny = bennies.spend_extra_attack


def _charge(state: GameState, us: UnitState, target: UnitState, *, benny: bool = False) -> None:
    """Seed 002 "Charge Action": move up to 12" into base contact, then the Melee Attack.

    ``benny``: one extra attack die in the charger's attack, the benny spent once the Melee
    Attack comes (a charge that cannot be made, or a charger lost on the way, keeps it)."""
    assert us.placement is not None and target.placement is not None
    others = [p for p in state.placements_except(us.uid) if p is not target.placement]
    start = us.placement
    try:
        res = table_charge.charge_move(
            state.table,
            us.placement,
            target.placement,
            others,
            move_allowance(us.unit, Kind.CHARGE),
            rules=_rules(us.unit),
        )
    except OptionError:  # listed targets are reachable; kept for scripted scenes
        state.log.add("charge_failed", unit=us.uid, target=target.uid)
        opr_rules(state).end_activation(state, us.side)
        return
    us.placement = res.placement
    state.log.add(
        "charge",
        unit=us.uid,
        target=target.uid,
        distance=round(math.dist(geo.centroid(start), geo.centroid(us.placement)), 3),
        in_contact=int(res.in_contact.sum()),
    )
    roller = state.dice
    combat.dangerous_terrain(state, us, res.move.dangerous, roller, "charge")
    if not (us.alive and target.alive):
        opr_rules(state).end_activation(state, us.side)
        return
    if benny:
        _spend_benny(state, us)
    combat.pile_in(state, us, target)
    _fight(state, defend.Fight(us.uid, target.uid, extra=benny), us.side, roller)
