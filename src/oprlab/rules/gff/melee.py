"""The GFF melee exchange (seed 003 "Melee", "Wound Effects", "Groups & Wounds"), sampled and exact.

A charge is a short, fixed sequence of attacks, each an ordinary GFF attack
(:func:`~oprlab.rules.gff.resolve.resolve_attack`) whose weapons, target and situation follow from
the state the earlier attacks left:

1. Impact: X dice per charging model with Impact(X), unless fatigued, minus one die per defending
   model with a Counter weapon; each 2+ is a hit at AP 0.
2. Counter: the defender's Counter weapons strike first when charged (if it strikes back).
3. Strike: the charger's melee weapons (charging: Furious, Thrust).
4. Strike back: the defender's other melee weapons, if it chooses to and still has models.

Then the charger is Fatigued, and so is the defender if it struck. Dead models do not strike:
each weapon's count is scaled to the models left (:func:`carried`). A Shaken unit strikes as if
fatigued. See docs/rules/gff.md "Melee exchange" for the readings chosen.

The sequence is written once as a small state machine (:func:`_blow` says which attack comes
next from a :class:`_Fight` state, :func:`_after` applies its :class:`Effect`), and both drivers
run it: :func:`resolve_exchange` rolls each attack with a :class:`Roller` (d6 or clock), and
:func:`exchange_outcomes` composes the exact joint distribution of every stage with the d6, so
exact odds and simulation cannot drift apart.

:class:`ExchangeResult`, :class:`Side`, :func:`carried` and the exact stage driver are
system-neutral and live in :mod:`oprlab.rules.melee_exchange` (importable from here too), so
another system's exchange (Riverside, seed 002 "Melee Attacks") reports with the same type.

May import ``oprlab.mechanics``, ``oprlab.prob``, ``oprlab.units``, ``oprlab.rules.gff`` and the
shared ``oprlab.rules.attack_chain`` and ``oprlab.rules.melee_exchange``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Owner
from oprlab.prob import Dist
from oprlab.rules.attack_chain import casualty_dice, fold_packets, require_stateless
from oprlab.rules.gff.attack import ATTACKER, DEFENDER, HOOKS, Situation, impact_attack
from oprlab.rules.gff.profile import (
    AttackProfile,
    DefenderProfile,
    all_rules,
    attack_profile,
    defender_profile,
)
from oprlab.rules.gff.resolve import AttackResult, Roller, resolve_attack
from oprlab.rules.gff.wounds import Damage, rolls_wound_effect, take_wounds_from, wound_effect_check
from oprlab.rules.melee_exchange import (
    CONSOLIDATE_INCHES,
    SEPARATE_INCHES,
    AfterCombat,
    ExactTooLarge,
    ExchangeResult,
    Side,
    SideResult,
    UnitState,
    check_models,
    compose_stages,
)
from oprlab.rules.weapon_lines import carried, lines
from oprlab.units.model import Unit, Weapon
from oprlab.units.rule_scope import unit_rule

__all__ = [
    "CONSOLIDATE_INCHES",
    "OWNERS",
    "SEPARATE_INCHES",
    "AfterCombat",
    "Blow",
    "Effect",
    "ExactTooLarge",
    "Exchange",
    "ExchangeResult",
    "ImpactTiming",
    "Side",
    "SideResult",
    "Step",
    "Strike",
    "UnitState",
    "after_blow",
    "attack_effects",
    "carried",
    "counter_models_left",
    "exchange_outcomes",
    "exchange_result",
    "impact_dice_left",
    "next_blow",
    "probability_of",
    "resolve_exchange",
    "start_exchange",
    "strikes",
    "with_reach",
    "without_strike_back",
]

#: The clock owners of the charger's and the defender's checks (pass to ``initial_state``).
OWNERS = (ATTACKER, DEFENDER)

#: When Impact is rolled: "first", before Counter (the default), or "with_strikes": as part of
#: the charger's attack, after Counter (see docs/rules/gff.md "Melee exchange").
ImpactTiming = Literal["first", "with_strikes"]
IMPACT_TIMINGS: tuple[ImpactTiming, ...] = ("first", "with_strikes")


class Step(StrEnum):
    """The attacks of a charge, in the order they are resolved."""

    IMPACT = "impact"
    COUNTER = "counter"
    STRIKE = "strike"
    STRIKE_BACK = "strike back"


@dataclass(frozen=True, slots=True)
class Effect:
    """What one attack did to its target, without the hits (the exact path's joint state).

    Attributes:
        wounds: wounds dealt (after Defense, Deadly and Regeneration).
        casualties: models removed.
        markers: wound markers on the target's last model afterwards.
        shaken: the target rolled a Shaken wound effect.
    """

    wounds: int
    casualties: int
    markers: int
    shaken: bool

    @classmethod
    def of(cls, r: AttackResult) -> Effect:
        return cls(r.wounds, r.casualties, r.markers, r.shaken)


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack made during the exchange, for the record."""

    step: Step
    striker: Side
    dice: int
    result: AttackResult


# --- who strikes with what ----------------------------------------------------------------


def _models_with(unit: Unit, name: str, models: int) -> list[int]:
    """For each unit rule ``name``: models left that have it (``3x Impact(1)``: 3 of them)."""
    key = name.casefold()
    return [
        min(models, carried(r.count if r.count is not None else unit.size, models, unit.size))
        for r in all_rules(unit.rules)
        if r.name.casefold() == key
    ]


def _is_counter(unit: Unit, weapon: Weapon) -> bool:
    """Counter is a weapon rule; written on the unit for every model, it covers all its melee
    weapons (a count gives it to that many models' weapons: :mod:`~oprlab.rules.weapon_lines`).
    """
    return weapon.has("Counter") or unit_rule(unit, "Counter")


@lru_cache(maxsize=4096)
def _strike_lines(unit: Unit, alive: int, attacking: int) -> tuple[tuple[AttackProfile, bool], ...]:
    melee = tuple(w for w in unit.weapons if w.melee)
    return tuple(
        (attack_profile(unit, w), _is_counter(unit, w))
        for w in lines(unit, melee, alive=alive, attacking=attacking)
        if w.count * w.attacks > 0
    )


def strikes(
    unit: Unit, alive: int, attacking: int | None = None, counter: bool | None = None
) -> tuple[AttackProfile, ...]:
    """The melee weapons ``attacking`` of the ``alive`` models strike with (default: all of
    them), split by per-model rules (Counter lines, the others, or all for ``None``)."""
    now = min(alive, unit.size)
    k = now if attacking is None else max(0, min(attacking, now))
    return tuple(p for p, c in _strike_lines(unit, now, k) if counter is None or c == counter)


def counter_models_left(unit: Unit, models: int) -> int:
    """Models of ``unit`` with Counter when ``models`` are left (seed 003 Counter).

    :func:`~oprlab.rules.gff.profile.counter_models` for a unit that lost models: Counter
    weapon counts are scaled by :func:`carried` and added, a unit rule counts its models, and the
    larger is capped at the models left.
    """
    armed = sum(carried(w.count, models, unit.size) for w in unit.weapons if w.has("Counter"))
    ruled = max(_models_with(unit, "Counter", models), default=0)
    return min(models, max(armed, ruled))


def impact_dice_left(unit: Unit, models: int, attacking: int | None = None) -> int:
    """Impact(X) dice of ``unit`` when ``models`` are left: X per model that has it (of the
    ``attacking`` ones, default all: "Roll X dice when attacking after charging").

    :func:`~oprlab.rules.gff.profile.impact_dice` for a unit that lost models.
    """
    key = "impact"
    ratings = [r.rating or 0 for r in all_rules(unit.rules) if r.name.casefold() == key]
    having = _models_with(unit, "Impact", models)
    if attacking is not None and attacking < models:
        having = [carried(n, attacking, models) for n in having]
    return sum(x * n for x, n in zip(ratings, having, strict=True))


# --- the exchange as a state machine ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fight:
    """The joint state between attacks: both units and the wounds each has dealt."""

    attacker: UnitState
    defender: UnitState
    dealt_by_attacker: int = 0
    dealt_by_defender: int = 0
    struck_back: bool = False


@dataclass(frozen=True, slots=True)
class _Blow:
    """One attack ready to resolve: who strikes, with what, at whom, in which situation."""

    step: Step
    striker: Side
    weapons: tuple[AttackProfile, ...]
    target: DefenderProfile
    situation: Situation
    fear: int

    @property
    def dice(self) -> int:
        return sum(p.dice for p in self.weapons)


@dataclass(frozen=True)
class _Melee:
    """The fixed parts of one exchange: the units, the options and the clock owners."""

    attacker: Unit
    defender: Unit
    strike_back: bool
    impact_timing: ImpactTiming
    attacker_owner: Owner
    defender_owner: Owner
    #: Impact dice of the charger and Counter models of the defender, by models left.
    impact_by_models: tuple[int, ...]
    counter_by_models: tuple[int, ...]
    attacker_fear: int
    defender_fear: int
    #: Each unit as a target at full strength (read once; models and markers vary).
    attacker_target: DefenderProfile
    defender_target: DefenderProfile

    @property
    def steps(self) -> tuple[Step, ...]:
        if self.impact_timing == "first":
            return (Step.IMPACT, Step.COUNTER, Step.STRIKE, Step.STRIKE_BACK)
        return (Step.COUNTER, Step.STRIKE, Step.STRIKE_BACK)

    def situation(self, striker: Side, state: UnitState) -> Situation:
        """Melee, charging for the charger; a Shaken unit strikes as if fatigued."""
        charger = striker is Side.ATTACKER
        own, other = (
            (self.attacker_owner, self.defender_owner)
            if charger
            else (self.defender_owner, self.attacker_owner)
        )
        return Situation(
            melee=True,
            charging=charger,
            fatigued=state.fatigued or state.shaken,
            attacker=own,
            defender=other,
        )


def _target(base: DefenderProfile, s: UnitState) -> DefenderProfile:
    return replace(base, models=s.models, markers=s.markers, shaken=s.shaken)


#: How many models of each side strike (a game counts those within 2"); ``None``: all left.
Reach = tuple[int | None, int | None]
ALL_STRIKE: Reach = (None, None)


def _striking(models: int, reach: int | None) -> int:
    return models if reach is None else max(0, min(models, reach))


def _impact(m: _Melee, f: _Fight, reach: int | None = None) -> AttackProfile | None:
    """The charger's Impact dice as a weapon, or ``None`` (fatigued, or no dice left): X per
    striking model with Impact(X), less one per defending model with Counter.

    A Shaken unit fights as fatigued, so it rolls no Impact either.
    """
    models = f.attacker.models
    dice = (
        m.impact_by_models[models]
        if reach is None or reach >= models
        else impact_dice_left(m.attacker, models, _striking(models, reach))
    )
    return impact_attack(
        m.attacker.quality,
        dice,
        m.situation(Side.ATTACKER, f.attacker),
        m.counter_by_models[f.defender.models],
    )


def _blow(m: _Melee, step: Step, f: _Fight, reach: Reach = ALL_STRIKE) -> _Blow | None:
    """The attack ``step`` makes from state ``f``, or ``None`` when it does not happen.

    ``reach``: how many models of the charger and of the defender may strike (seed 003
    "Striking": "Models must strike enemies within 2""); ``None``: every model left.
    """
    if f.attacker.models <= 0 or f.defender.models <= 0:
        return None
    weapons: tuple[AttackProfile, ...]
    if step is Step.IMPACT or step is Step.STRIKE:
        striker, state, target, target_state = (
            Side.ATTACKER,
            f.attacker,
            m.defender_target,
            f.defender,
        )
        fear = m.attacker_fear
        if step is Step.IMPACT:
            impact = _impact(m, f, reach[0])
            weapons = () if impact is None else (impact,)
        else:
            weapons = strikes(m.attacker, state.models, _striking(state.models, reach[0]))
            impact = _impact(m, f, reach[0]) if m.impact_timing == "with_strikes" else None
            weapons += () if impact is None else (impact,)
    else:
        if not m.strike_back:
            return None
        striker, state, target, target_state = (
            Side.DEFENDER,
            f.defender,
            m.attacker_target,
            f.attacker,
        )
        fear = m.defender_fear
        counter = step is Step.COUNTER
        weapons = strikes(m.defender, state.models, _striking(state.models, reach[1]), counter)
    if not weapons:
        return None
    return _Blow(
        step=step,
        striker=striker,
        weapons=weapons,
        target=_target(target, target_state),
        situation=m.situation(striker, state),
        fear=fear,
    )


def _after(f: _Fight, blow: _Blow, e: Effect) -> _Fight:
    """The state after ``blow`` had effect ``e`` on its target."""
    t = blow.target
    left = t.models - e.casualties
    hit = UnitState(
        models=max(0, left),
        markers=e.markers if left > 0 else 0,
        shaken=(t.shaken or e.shaken) and left > 0,
        fatigued=(f.attacker if blow.striker is Side.DEFENDER else f.defender).fatigued,
    )
    if blow.striker is Side.ATTACKER:
        return replace(f, defender=hit, dealt_by_attacker=f.dealt_by_attacker + e.wounds)
    return replace(
        f, attacker=hit, dealt_by_defender=f.dealt_by_defender + e.wounds, struck_back=True
    )


def _result(start: _Fight, f: _Fight, strikes: tuple[Strike, ...] = ()) -> ExchangeResult:
    """Fatigue and the after-combat move once every attack is made (seed 003)."""
    a, d = f.attacker, f.defender
    if d.models <= 0 and a.models > 0:
        move = AfterCombat.ATTACKER_MOVES
    elif a.models <= 0 and d.models > 0:
        move = AfterCombat.DEFENDER_MOVES
    elif a.models > 0:
        move = AfterCombat.CHARGER_SEPARATES
    else:
        move = AfterCombat.NONE
    return ExchangeResult(
        attacker=SideResult(
            wounds_dealt=f.dealt_by_attacker,
            casualties=start.attacker.models - a.models,
            models=a.models,
            markers=a.markers,
            shaken=a.shaken,
            fatigued=a.models > 0,  # "After charging ... units only hit on unmodified 6s"
        ),
        defender=SideResult(
            wounds_dealt=f.dealt_by_defender,
            casualties=start.defender.models - d.models,
            models=d.models,
            markers=d.markers,
            shaken=d.shaken,
            fatigued=d.models > 0 and (d.fatigued or f.struck_back),
        ),
        struck_back=f.struck_back,
        after_combat=move,
        strikes=strikes,
    )


def _check_state(unit: Unit, s: UnitState | None, role: Side) -> UnitState:
    """A fresh unit by default; refuse states a unit cannot be in when a charge starts."""
    where = f"{role}_state"
    s = check_models(unit, s, where)
    if s.markers < 0 or (s.markers and s.models > 1):
        raise OptionError(
            "wound markers sit on the last model only (seed 003 Groups & Wounds)",
            value=s.markers,
            expected="0, or any count when one model is left",
            where=where,
        )
    if role is Side.ATTACKER and s.shaken:
        raise OptionError(
            "a Shaken unit must stay idle and cannot charge (seed 003 Wound Effects)",
            value=s,
            expected="shaken=False for the charger",
            where=where,
        )
    return s


@lru_cache(maxsize=256)
def _melee(
    attacker: Unit,
    defender: Unit,
    strike_back: bool,
    impact_timing: str,
    owners: tuple[Owner, Owner],
) -> _Melee:
    if impact_timing not in IMPACT_TIMINGS:
        raise OptionError(
            "unknown Impact timing",
            value=impact_timing,
            expected=" or ".join(IMPACT_TIMINGS),
            where="impact_timing",
        )
    timing: ImpactTiming = "first" if impact_timing == "first" else "with_strikes"
    return _Melee(
        attacker,
        defender,
        strike_back,
        timing,
        owners[0],
        owners[1],
        impact_by_models=tuple(impact_dice_left(attacker, n) for n in range(attacker.size + 1)),
        counter_by_models=tuple(counter_models_left(defender, n) for n in range(defender.size + 1)),
        attacker_fear=attacker.rating("Fear") or 0,
        defender_fear=defender.rating("Fear") or 0,
        attacker_target=defender_profile(attacker),
        defender_target=defender_profile(defender),
    )


# --- sampled (or the clock's certain) exchange --------------------------------------------


def resolve_exchange(
    attacker: Unit,
    defender: Unit,
    roller: Roller,
    *,
    strike_back: bool = True,
    attacker_state: UnitState | None = None,
    defender_state: UnitState | None = None,
    impact_timing: str = "first",
    owners: tuple[Owner, Owner] = OWNERS,
) -> ExchangeResult:
    """Roll one charge of ``attacker`` into ``defender`` and the strike back (seed 003 Melee).

    Args:
        attacker: the charging unit.
        defender: the charged unit.
        roller: rolls every check in order (d6 with a generator, or the clock's state).
        strike_back: the defender chooses to strike back (its Counter weapons included).
        attacker_state: the charger's condition (default: every model, unhurt, not fatigued).
        defender_state: the defender's condition (default the same).
        impact_timing: ``"first"`` or ``"with_strikes"`` (docs/rules/gff.md).
        owners: whose clocks the charger's and the defender's checks use.
    """
    m = _melee(attacker, defender, strike_back, impact_timing, owners)
    start = f = _Fight(
        _check_state(attacker, attacker_state, Side.ATTACKER),
        _check_state(defender, defender_state, Side.DEFENDER),
    )
    strikes: list[Strike] = []
    for step in m.steps:
        blow = _blow(m, step, f)
        if blow is None:
            continue
        r = resolve_attack(blow.weapons, blow.target, blow.situation, roller, fear=blow.fear)
        strikes.append(Strike(step, blow.striker, blow.dice, r))
        f = _after(f, blow, Effect.of(r))
    return _result(start, f, tuple(strikes))


# --- the exchange one attack at a time (games that pause between hits and Defense) ----------


#: One attack of the exchange ready to resolve (its weapons, target, situation, Fear).
Blow = _Blow


@dataclass(frozen=True)
class Exchange:
    """An exchange under way, between two of its attacks (a game may pause inside it).

    Attributes:
        melee: the fixed parts (units, options, clock owners).
        start: both units as the charge began.
        fight: both units now, and the wounds each has dealt.
        strikes: the attacks made so far.
        step: index into ``melee.steps`` of the next step to consider.
        reach: how many models of each side may strike now (a game counts those within 2"
            before each attack; ``None``: every model left).
        chosen: the defender has chosen whether to strike back (a game asks it once, before
            its first attack: the Counter strike, or else the strike back).
    """

    melee: _Melee
    start: _Fight
    fight: _Fight
    strikes: tuple[Strike, ...] = ()
    step: int = 0
    reach: Reach = ALL_STRIKE
    chosen: bool = False


def start_exchange(
    attacker: Unit,
    defender: Unit,
    *,
    strike_back: bool = True,
    attacker_state: UnitState | None = None,
    defender_state: UnitState | None = None,
    impact_timing: str = "first",
    owners: tuple[Owner, Owner] = OWNERS,
    shaken_charger: bool = False,
) -> Exchange:
    """:func:`resolve_exchange` taken apart: the exchange before its first attack.

    Drive it with :func:`next_blow` and :func:`after_blow`; resolving each blow with
    ``resolve_attack`` replays :func:`resolve_exchange` check for check. ``shaken_charger``
    lets a game's charger be Shaken (by dangerous terrain on its way in): it strikes as
    fatigued, as a Shaken unit always does.
    """
    m = _melee(attacker, defender, strike_back, impact_timing, owners)
    a_state = attacker_state
    if shaken_charger and a_state is not None and a_state.shaken:
        a_state = replace(
            _check_state(attacker, replace(a_state, shaken=False), Side.ATTACKER), shaken=True
        )
    else:
        a_state = _check_state(attacker, a_state, Side.ATTACKER)
    start = _Fight(a_state, _check_state(defender, defender_state, Side.DEFENDER))
    return Exchange(m, start, start)


def next_blow(x: Exchange) -> tuple[Blow, Exchange] | None:
    """The next attack that happens, with the exchange moved past its step; ``None`` when
    every step is done."""
    steps = x.melee.steps
    for i in range(x.step, len(steps)):
        blow = _blow(x.melee, steps[i], x.fight, x.reach)
        if blow is not None:
            return blow, replace(x, step=i + 1)
    return None


def with_reach(x: Exchange, attacker: int | None, defender: int | None) -> Exchange:
    """The exchange with ``attacker`` and ``defender`` models able to strike (within 2")."""
    return replace(x, reach=(attacker, defender))


def without_strike_back(x: Exchange) -> Exchange:
    """The exchange after the defender chose not to strike back ("Defenders may choose to
    strike back, but don't have to"): its Counter strike and its strike back do not happen."""
    m = x.melee
    owners = (m.attacker_owner, m.defender_owner)
    declined = _melee(m.attacker, m.defender, False, m.impact_timing, owners)
    return replace(x, melee=declined, chosen=True)


def after_blow(x: Exchange, blow: Blow, result: AttackResult) -> Exchange:
    """The exchange after ``blow`` came out as ``result``."""
    strike = Strike(blow.step, blow.striker, blow.dice, result)
    return replace(x, fight=_after(x.fight, blow, Effect.of(result)), strikes=(*x.strikes, strike))


def exchange_result(x: Exchange) -> ExchangeResult:
    """Fatigue and the after-combat move once :func:`next_blow` has nothing left."""
    return _result(x.start, x.fight, x.strikes)


# --- exact exchange (a random, stateless mechanic: the d6) --------------------------------


def attack_effects(
    weapons: tuple[AttackProfile, ...],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    *,
    fear: int = 0,
) -> Dist[Effect]:
    """The exact joint distribution of one attack's wounds, casualties, markers and Shaken.

    :func:`~oprlab.rules.gff.exact.attack_odds` gives marginals; an exchange needs the joint
    state of the target after each attack, so this composes the same per-die chains
    (:func:`~oprlab.rules.gff.exact.die_result`) into it, with the same wound rules.
    """
    spare = max(0, d.models - 1)
    ordered = sorted(weapons, key=lambda w: w.deadly == 1)  # Deadly first
    ordinary, deadly_dice = casualty_dice(HOOKS, ordered, s, lambda p: _die_key(p, d), mech)
    # Deadly packets first: state (models killed, markers on the last model, Deadly wounds).
    deadly = fold_packets(
        Dist.point((0, 0, 0)),
        deadly_dice,
        lambda st, pk: (*take_wounds_from((st[0], st[1]), pk, spare), st[2] + sum(pk)),
    )
    fear_now = fear if s.melee else 0

    def final(state: tuple[tuple[int, int, int], int]) -> Dist[Effect]:
        (killed, markers, deadly_wounds), w = state
        extra = min(w, spare - killed)
        damage = Damage(killed + extra, markers + w - extra)
        wounds = deadly_wounds + w
        kept = d.markers + damage.markers
        if not rolls_wound_effect(d, damage, fear_now):
            return Dist.point(Effect(wounds, damage.killed, kept, False))
        effect = mech.outcomes(wound_effect_check(d, damage, s.defender, fear_now))
        return effect.map(
            lambda o: Effect(
                wounds, damage.killed + int(not o.success), kept if o.success else 0, o.success
            )
        )

    return deadly.bind(lambda k: ordinary.map(lambda w: (k, w))).bind(final)


def _die_key(p: AttackProfile, d: DefenderProfile) -> DefenderProfile:
    """The target as one die's chain sees it: models count only for Blast, markers never."""
    return replace(d, models=d.models if p.blast > 1 else 1, markers=0, shaken=False)


#: Joint states allowed at any stage of the exact exchange before it gives up.
MAX_STATES = 25_000
#: Models of the charger times models of the defender beyond which exact gives up at once (the
#: stages then differ by models left on both sides; 20 x 20 takes about a second).
MAX_MODEL_PAIRS = 400


def exchange_outcomes(
    attacker: Unit,
    defender: Unit,
    mech: Mechanic,
    *,
    strike_back: bool = True,
    attacker_state: UnitState | None = None,
    defender_state: UnitState | None = None,
    impact_timing: str = "first",
    max_states: int = MAX_STATES,
    max_model_pairs: int = MAX_MODEL_PAIRS,
) -> Dist[ExchangeResult]:
    """The exact distribution of the exchange's outcome with a random mechanic (the d6).

    Each stage is composed over the joint state both units are in after the earlier stages
    (models left, markers, Shaken, wounds dealt), with the same state machine
    :func:`resolve_exchange` rolls. Raises :class:`ExactTooLarge` beyond ``max_states`` joint
    states, or when the units' models multiply to more than ``max_model_pairs``.
    """
    require_stateless(mech, "resolve_exchange")
    m = _melee(attacker, defender, strike_back, impact_timing, OWNERS)
    start = _Fight(
        _check_state(attacker, attacker_state, Side.ATTACKER),
        _check_state(defender, defender_state, Side.DEFENDER),
    )
    pairs = start.attacker.models * start.defender.models
    if pairs > max_model_pairs:
        raise ExactTooLarge(
            f"{start.attacker.models} x {start.defender.models} models is more than the "
            f"{max_model_pairs} pairs the exact exchange handles quickly"
        )
    fights = compose_stages(
        start,
        m.steps,
        lambda step, f: _blow(m, step, f),
        lambda b: attack_effects(b.weapons, b.target, b.situation, mech, fear=b.fear),
        _after,
        max_states,
    )
    return fights.map(lambda f: _result(start, f))


def probability_of(d: Dist[ExchangeResult], side: Side | None) -> Fraction:
    """P(``side`` wins the exchange); ``None`` gives P(draw)."""
    return d.probability(lambda r: r.winner is side)
