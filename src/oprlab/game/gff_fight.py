"""GFF melee (seed 003 "Melee"): the charge into contact, the exchange attack by attack (with
the charged side's choice to strike back and the defender's bennies), After Combat (separate,
or the survivor consolidates).

May import ``oprlab.rules.gff``, ``oprlab.units``, ``oprlab.table``, ``oprlab.mechanics`` and
``oprlab.game``'s state, bennies, geometry, gff_defend, gff_limited, gff_losses, gff_melee,
gff_moving, gff_setup, gff_shooting and ``opr.hooks`` (to end the activation through the rules).
"""

from __future__ import annotations

from dataclasses import replace

from oprlab.errors import OptionError
from oprlab.game import geometry as geo
from oprlab.game import gff_defend as defend
from oprlab.game import gff_limited as limited
from oprlab.game import gff_melee as fight
from oprlab.game.actions import Action, Kind
from oprlab.game.bennies import bennies_available
from oprlab.game.bennies import spend_extra_attack as _spend_benny
from oprlab.game.gff_losses import _push, _remove
from oprlab.game.gff_moving import _dangerous_crossed, _move, move_allowance
from oprlab.game.gff_setup import options_of
from oprlab.game.gff_shooting import others as _others
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, Pending, Phase, UnitState
from oprlab.mechanics.clock_state import ClockState
from oprlab.memo import game_memo
from oprlab.rules.gff import melee
from oprlab.rules.gff.melee import Side
from oprlab.rules.gff.melee import UnitState as MeleeState
from oprlab.rules.gff.resolve import AttackResult, Roller, resolve_attack
from oprlab.table import charge as table_charge
from oprlab.table.movement import MoveRules
from oprlab.units.model import Unit, Weapon
from oprlab.units.rule_scope import any_has

#: After Combat: "the other may move by up to 3"", "chargers must ... separate by 1"".
CONSOLIDATE_INCHES = 3.0


SEPARATE_INCHES = 1.0


#: Striking: "Models must strike enemies within 2" horizontally".
STRIKE_RANGE = 2.0


def _melee_weapons(unit: Unit) -> list[Weapon]:
    return [w for w in unit.weapons if w.melee]


def charging(unit: Unit) -> tuple[float | None, bool]:
    """How far ``unit`` charges (``None``: it may not, with no melee weapon and no Impact) and
    whether it has a melee weapon (for a benny's extra attack). By the unit's identity (the
    entry holds it, so the id stays unique while there): every listing asks it of each unit,
    and the answer reads the unit's profile only."""
    found = _CHARGING.get(id(unit))
    if found is None or found[0] is not unit:
        melee_ = bool(_melee_weapons(unit))
        reach = move_allowance(unit, Kind.CHARGE) if melee_ or any_has(unit, "Impact") else None
        if len(_CHARGING) >= 4096:
            _CHARGING.clear()
        found = _CHARGING[id(unit)] = (unit, reach, melee_)
    return found[1], found[2]


_CHARGING: dict[int, tuple[Unit, float | None, bool]] = game_memo("game.gff_fight._CHARGING")


def with_extra_attack(unit: Unit, models: int) -> Unit:
    """``unit`` with one more melee attack die when ``models`` are left (a benny).

    The melee exchange scales weapon lines to the models left (``melee.carried``), so the extra
    line carries a count that comes out at exactly one weapon: a copy of the unit's first melee
    weapon with one attack.
    """
    first = _melee_weapons(unit)[0]
    count = 1 if 2 * models >= unit.size else -(-unit.size // max(1, models))
    extra = replace(first, attacks=1, count=count)
    return replace(unit, weapons=(*unit.weapons, extra))


def _charge_move(
    state: GameState, us: UnitState, target: UnitState
) -> table_charge.ChargeResult | None:
    """``geometry.charge_move`` keeping the move's result (which models crossed dangerous
    terrain); ``None`` if no model can reach contact."""
    assert us.placement is not None and target.placement is not None
    rest = [o for o in state.placements_except(us.uid) if o is not target.placement]
    try:
        return table_charge.charge_move(
            state.table,
            us.placement,
            target.placement,
            rest,
            move_allowance(us.unit, Kind.CHARGE),
            rules=MoveRules.of(us.unit, "gff"),
        )
    except OptionError:
        return None


def _charge(state: GameState, us: UnitState, target: UnitState, *, benny: bool = False) -> None:
    """Seed 003 "Melee": charge into contact (rolling for dangerous terrain crossed), strike,
    strike back, then After Combat."""
    assert us.placement is not None and target.placement is not None
    res = _charge_move(state, us, target)
    if res is None:
        # No path into contact (terrain or units in the way): "or as close as possible".
        goal = geo.centroid(target.placement)
        allowance = move_allowance(us.unit, Kind.CHARGE)
        _move(state, us, goal, allowance, "move", may_touch=target.placement)
        if not us.alive or geo.gap(us.placement, target.placement) > STRIKE_RANGE:
            state.log.add("charge_failed", unit=us.uid, target=target.uid)
            opr_rules(state).end_activation(state, us.side)
            return
    else:
        start = us.placement
        us.placement = res.placement
        if options_of(state).charge_dangerous:  # seed 003: "moving across" it, in contact too
            _dangerous_crossed(state, us, start, res.move.dangerous, "charge")
            if not us.alive:
                opr_rules(state).end_activation(state, us.side)
                return
    assert us.placement is not None
    # Charging: "Defenders must do the same by moving up to 3"" into base contact.
    target.placement = geo.pile_in(
        state.table, target.placement, us.placement, _others(state, us, target), unit=target.unit
    )
    striker = us.unit
    if benny:
        _spend_benny(state, us)
        striker = with_extra_attack(us.unit, us.models)
    exchange = melee.start_exchange(
        striker,
        target.unit,
        attacker_state=MeleeState(us.models, us.markers, us.shaken, us.fatigued),
        defender_state=MeleeState(target.models, target.markers, target.shaken, target.fatigued),
        owners=(us.owner, target.owner),
        shaken_charger=True,  # Shaken by dangerous terrain on its way: it strikes as fatigued
    )
    _fight(state, us.uid, target.uid, exchange, state.dice, 0)


def _fight(
    state: GameState, charger: str, charged: str, x: melee.Exchange, roller: Roller, defended: int
) -> None:
    """The exchange, attack by attack (``rules/gff/melee.py``), each made by the models within
    2" of the enemy (counted before it, casualties removed after it: ``gff_melee``). Before its
    first attack the charged side decides whether to strike back (``STRIKE_BACK``); under
    ``defend="all"`` the victim of an attack with hits may first spend bennies (``DEFEND``)."""
    opts = options_of(state)
    may_defend = opts.defend == "all" and isinstance(state.mech_state, ClockState)
    spend = opts.limited
    side = state.units[charger].side
    while (found := melee.next_blow(x := fight.reach(state, x, charger, charged))) is not None:
        blow, after = found
        if blow.striker is Side.DEFENDER and not x.chosen:  # "may choose to strike back"
            if opts.strike_back == "choose":
                _ask_strike_back(
                    state, fight.StrikeBackDeciding(charger, charged, side, x, blow, defended)
                )
                return
            x = replace(x, chosen=True)
            continue
        x = after
        by, hit = (charger, charged) if blow.striker is Side.ATTACKER else (charged, charger)
        if spend:
            limited.spend_limited(state.units[by], (p.name for p in blow.weapons), state.log)
        if may_defend and bennies_available(state, state.units[hit].side) > 0:
            rolled = defend.roll_hits(
                blow.weapons,
                blow.target,
                blow.situation,
                roller,
                hooks=opr_rules(state).attack_hooks,
            )
            if defend.hit_count(rolled):  # seed 000 variation 5: "any single attack"
                waiting = defend.MeleeDefending(
                    charger, charged, side, by, hit, x, blow, rolled, defended
                )
                opr_rules(state).ask_defender(state, waiting, hit, side)
                return
            r = defend.resolve_hits(
                rolled,
                blow.target,
                blow.situation,
                roller,
                fear=blow.fear,
                hooks=opr_rules(state).attack_hooks,
            )
        else:
            r = resolve_attack(
                blow.weapons,
                blow.target,
                blow.situation,
                roller,
                fear=blow.fear,
                hooks=opr_rules(state).attack_hooks,
            )
        x = _struck(state, charger, charged, x, blow, r)
    _after_exchange(state, charger, charged, melee.exchange_result(x), roller, defended)


def _struck(
    state: GameState,
    charger: str,
    charged: str,
    x: melee.Exchange,
    blow: melee.Blow,
    r: AttackResult,
) -> melee.Exchange:
    """The exchange after ``blow`` came out as ``r``, its casualties taken off the table."""
    x = melee.after_blow(x, blow, r)
    victim, by = (charged, charger) if blow.striker is Side.ATTACKER else (charger, charged)
    left = x.fight.defender.models if victim == charged else x.fight.attacker.models
    target = state.units[victim]
    _remove(state, target, target.models - left, state.units[by], melee_order=True)
    return x


def _ask_strike_back(state: GameState, waiting: fight.StrikeBackDeciding) -> None:
    """Stop for the charged side's ``STRIKE_BACK`` decision (phase ``strike_back``)."""
    state.strike_back = waiting
    state.pending = Pending(Phase.STRIKE_BACK, waiting.charged, waiting.side)
    state.phase = Phase.STRIKE_BACK
    state.active = state.units[waiting.charged].side


def _strike_back(state: GameState, us: UnitState, a: Action) -> None:
    """The charged side strikes back (``value`` 1) or not (0); the exchange goes on."""
    waiting, state.strike_back = state.strike_back, None
    assert isinstance(waiting, fight.StrikeBackDeciding)
    state.log.add("strike_back", unit=us.uid, target=waiting.charger, chosen=bool(a.value))
    x = waiting.exchange
    x = replace(x, chosen=True) if a.value else melee.without_strike_back(x)
    _fight(state, waiting.charger, waiting.charged, x, state.dice, waiting.defended)


def _after_exchange(
    state: GameState,
    charger: str,
    charged: str,
    result: melee.ExchangeResult,
    roller: Roller,
    defended: int,
) -> None:
    """Log the exchange, apply it to both units, then After Combat."""
    us, target = state.units[charger], state.units[charged]
    state.log.add(
        "melee",
        unit=us.uid,
        target=target.uid,
        wounds_dealt=result.attacker.wounds_dealt,
        wounds_taken=result.defender.wounds_dealt,
        casualties_dealt=result.defender.casualties,
        casualties_taken=result.attacker.casualties,
        struck_back=result.struck_back,
        **({"defended": defended} if defended else {}),
    )
    for side_state, res, foe in ((us, result.attacker, target), (target, result.defender, us)):
        _remove(state, side_state, side_state.models - res.models, foe)
        side_state.markers = res.markers if side_state.alive else 0
        if (
            res.shaken
            and side_state.alive
            and not side_state.shaken
            and not opr_rules(state).ignores_shaken(state, side_state)
        ):
            side_state.shaken = True
            state.log.add("shaken", unit=side_state.uid, cause="wound effect")
            if options_of(state).special_moves:  # the exchange reports Shaken, not each roll
                _push(state, side_state, foe, roller)
        side_state.fatigued = res.fatigued
    if us.alive and target.alive:
        _separate(state, us, target)
    elif us.alive != target.alive:
        survivor = us if us.alive else target
        state.pending = Pending(Phase.CONSOLIDATE, survivor.uid, us.side)
        state.phase = Phase.CONSOLIDATE
        state.active = survivor.side
        return
    opr_rules(state).end_activation(state, us.side)


def _separate(state: GameState, us: UnitState, target: UnitState) -> None:
    """After Combat: "chargers must move back and separate by 1" (if possible)"."""
    assert us.placement is not None and target.placement is not None
    us.placement = geo.separate(
        state.table, us.placement, target.placement, _others(state, us, target), unit=us.unit
    )
    state.log.add("separate", unit=us.uid, gap=round(geo.gap(us.placement, target.placement), 3))


def _consolidate_step(state: GameState, us: UnitState, a: Action) -> None:
    pending = state.pending
    assert pending is not None and us.placement is not None
    if a.to is not None:
        _move(state, us, a.to, CONSOLIDATE_INCHES, "consolidate")
    opr_rules(state).end_activation(state, pending.side)
