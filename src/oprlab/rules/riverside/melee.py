"""The Riverside melee exchange (seed 002 "Charge Action", "Melee Attacks"), sampled and exact.

A charge in Riverside is three steps, each built from the ordinary Riverside attack
(:func:`~oprlab.rules.riverside.resolve.resolve_attack`) and the morale hooks of
:mod:`~oprlab.rules.riverside.morale`:

1. Charge (Determine Attacks, Resolve Attacks): every charging model attacks with its melee
   weapons (the odds layer puts all of them within 2"); Furious brings Bonus Hits on Critical
   Hits; Impact(X), if read in (:data:`IMPACT_READINGS`), rolls in the same resolution.
2. Return Strikes: the defending unit may strike back with its models left, at the charger as
   the charge left it. Units in melee take no Morale Test from wounds.
3. Morale Test: the unit that caused fewer wounds loses and tests, unless the other unit was
   destroyed; a failure Routs it (removed) at half strength, else Shakes it. Equal totals follow
   :data:`TIE_READINGS`.

Afterwards a unit that attacked with a melee weapon is Fatigued. Casualties carry over: a Tough
model wounded by the charge keeps its wounds when its unit strikes back and in the Morale Test.

As in :mod:`oprlab.rules.gff.melee`, the sequence is a small state machine (:func:`_blow` says
which attack comes next from a :class:`_Fight`, :func:`_after` applies it; :func:`_testers`,
:func:`_morale` and :func:`_tested` do the same for the Morale Test), and both drivers run it:
:func:`resolve_exchange` rolls with a :class:`Roller` (d6 or clock), :func:`exchange_outcomes`
composes the exact joint distribution with the d6. Results are the system-neutral
:class:`~oprlab.rules.melee_exchange.ExchangeResult` (``system="riverside"``) whose sides are
:class:`RiversideSide`. See docs/rules/riverside.md "Melee exchange" for the readings chosen.

May import ``oprlab.errors``, ``oprlab.mechanics``, ``oprlab.prob``, ``oprlab.units``,
``oprlab.rules.riverside``, the shared ``oprlab.rules.attack_chain`` and
``oprlab.rules.melee_exchange``, and GFF's :func:`~oprlab.rules.gff.melee.impact_dice_left`
(Impact read as in GFF).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Literal

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Mechanic, Owner
from oprlab.prob import Dist
from oprlab.rules.attack_chain import Roller, casualty_dice, fold_packets, require_stateless
from oprlab.rules.gff.melee import impact_dice_left
from oprlab.rules.melee_exchange import (
    AfterCombat,
    ExchangeResult,
    Side,
    SideResult,
    UnitState,
    check_models,
    compose_stages,
    other,
)
from oprlab.rules.riverside.attack import (
    ATTACKER,
    DEFENDER,
    READINGS,
    Readings,
    RiversideHooks,
    Situation,
)
from oprlab.rules.riverside.casualties import (
    Casualties,
    assign_deadly,
    assign_wounds,
    casualties_at,
)
from oprlab.rules.riverside.morale import (
    fails_automatically,
    half_strength,
    melee_loser,
    morale_check,
)
from oprlab.rules.riverside.profile import (
    AttackProfile,
    DefenderProfile,
    attack_profiles,
    defender_profile,
)
from oprlab.rules.riverside.resolve import AttackResult, resolve_attack
from oprlab.units.model import Unit

__all__ = [
    "IMPACT_QUALITY",
    "IMPACT_READINGS",
    "MAX_STATES",
    "OWNERS",
    "TIE_READINGS",
    "ImpactReading",
    "MeleeAttack",
    "MeleeStep",
    "MoraleResult",
    "MoraleTest",
    "RiversideExchangeResult",
    "RiversideSide",
    "TieReading",
    "attack_effects",
    "exchange_outcomes",
    "impact_profile",
    "loser_shaken",
    "melee_strikes",
    "resolve_exchange",
    "routed",
    "side_result",
]

#: The clock owners of the charger's and the defender's checks (pass to ``initial_state``).
OWNERS = (ATTACKER, DEFENDER)
#: Impact dice hit on a 2+ whatever the Quality (read as in GFF, seed 003 Impact).
IMPACT_QUALITY = 2

#: Impact is only named in seed 002 ("Morale Tests": abilities that trigger as part of an
#: attack apply their wounds during that attack's resolution). ``"with_attack"``: Impact(X) as in
#: GFF (X dice per model, 2+, AP 0, not when Fatigued or Shaken) rolled inside the charger's
#: attack; ``"none"``: Riverside defines no Impact, so it does nothing.
ImpactReading = Literal["with_attack", "none"]
IMPACT_READINGS: tuple[ImpactReading, ...] = ("with_attack", "none")
#: Equal wound totals: "the unit with the lowest total loses". ``"none"``: with a tie no unit
#: has the lowest total, nobody tests; ``"both"``: both share the lowest total, both test.
TieReading = Literal["none", "both"]
TIE_READINGS: tuple[TieReading, ...] = ("none", "both")


class MeleeStep(StrEnum):
    """The attacks of a Riverside charge, in rulebook order (seed 002 "Melee Attacks")."""

    CHARGE = "charge"
    RETURN_STRIKES = "return strikes"


MoraleResult = Literal["passed", "shaken", "rout"]


@dataclass(frozen=True, slots=True)
class RiversideSide(SideResult):
    """One unit after a Riverside exchange.

    The inherited fields read: ``models`` are the models left on the table (0 after a Rout,
    which removes the unit from the game, so ``destroyed`` means "no longer in play");
    ``casualties`` the models removed by wounds in this exchange (a Rout is not counted);
    ``markers`` the wounds on the unit's wounded Tough model.

    Attributes:
        routed: it failed the melee Morale Test at half strength and Routed.
        morale_test: it took the melee Morale Test (it lost and the other unit stood).
    """

    routed: bool = False
    morale_test: bool = False

    @property
    def wiped_out(self) -> bool:
        """Every model was removed by wounds (not by a Rout)."""
        return self.destroyed and not self.routed


@dataclass(frozen=True, slots=True)
class MeleeAttack:
    """One attack made during the exchange, for the record."""

    step: MeleeStep
    striker: Side
    dice: int
    result: AttackResult


@dataclass(frozen=True, slots=True)
class MoraleTest:
    """One melee Morale Test, for the record (``check`` is ``None`` when Shaken: no roll)."""

    side: Side
    check: Check | None
    result: MoraleResult


@dataclass(frozen=True, slots=True)
class RiversideExchangeResult(ExchangeResult):
    """A Riverside exchange's outcome: the common result plus the attacks and tests made.

    The records are not compared, so a sampled result equals the exact distribution's.
    """

    attacks: tuple[MeleeAttack, ...] = field(default=(), compare=False)
    tests: tuple[MoraleTest, ...] = field(default=(), compare=False)


def side_result(r: ExchangeResult, side: Side) -> RiversideSide:
    """The Riverside side of a result (refuses results of other systems)."""
    s = r.attacker if side is Side.ATTACKER else r.defender
    if not isinstance(s, RiversideSide):
        raise OptionError(
            "not a Riverside exchange result", value=r.system, expected="system='riverside'"
        )
    return s


def routed(r: ExchangeResult, side: Side) -> bool:
    """``side`` Routed after losing the exchange (seed 002 "Results of the Morale Test")."""
    return side_result(r, side).routed


def loser_shaken(r: ExchangeResult) -> bool:
    """A unit took the melee Morale Test and is Shaken after it (failed, not at half)."""
    return any(
        s.morale_test and s.shaken and not s.destroyed
        for s in (side_result(r, Side.ATTACKER), side_result(r, Side.DEFENDER))
    )


# --- the fixed parts of one exchange ------------------------------------------------------


@dataclass(frozen=True)
class _Melee:
    attacker: Unit
    defender: Unit
    strike_back: bool
    impact: ImpactReading
    tie: TieReading
    readings: Readings
    attacker_owner: Owner
    defender_owner: Owner
    #: The charger's Impact dice by models left.
    impact_by_models: tuple[int, ...]
    #: Each unit as a target at full strength (models, wounds and Shaken vary).
    attacker_target: DefenderProfile
    defender_target: DefenderProfile
    #: Attacks and Morale Tests already worked out, by the states they start from (the
    #: drivers ask for the same ones again and again).
    blows: dict[tuple[MeleeStep, UnitState, UnitState], _Blow | None] = field(
        default_factory=dict, compare=False, repr=False
    )
    tests: dict[tuple[Side, UnitState], _Test] = field(
        default_factory=dict, compare=False, repr=False
    )

    def unit(self, side: Side) -> Unit:
        return self.attacker if side is Side.ATTACKER else self.defender

    def owner(self, side: Side) -> Owner:
        return self.attacker_owner if side is Side.ATTACKER else self.defender_owner

    def target(self, side: Side, s: UnitState) -> DefenderProfile:
        """``side`` as a target (or a unit testing morale) in condition ``s``."""
        base = self.attacker_target if side is Side.ATTACKER else self.defender_target
        return replace(base, models=s.models, wounds=s.markers, shaken=s.shaken)


def _choice(value: str, allowed: tuple[str, ...], what: str, where: str) -> None:
    if value not in allowed:
        raise OptionError(
            f"unknown {what} reading", value=value, expected=" or ".join(allowed), where=where
        )


@lru_cache(maxsize=256)
def _melee(
    attacker: Unit,
    defender: Unit,
    strike_back: bool,
    impact: str,
    tie: str,
    readings: Readings,
    owners: tuple[Owner, Owner],
) -> _Melee:
    _choice(impact, IMPACT_READINGS, "Impact", "impact")
    _choice(tie, TIE_READINGS, "melee tie", "tie")
    return _Melee(
        attacker,
        defender,
        strike_back,
        "none" if impact == "none" else "with_attack",
        "both" if tie == "both" else "none",
        readings,
        owners[0],
        owners[1],
        impact_by_models=tuple(impact_dice_left(attacker, n) for n in range(attacker.size + 1)),
        attacker_target=defender_profile(attacker),
        defender_target=defender_profile(defender),
    )


def _check_state(unit: Unit, s: UnitState | None, role: Side) -> UnitState:
    """A fresh unit by default; refuse states a unit cannot be in when a charge starts.

    ``markers`` are the wounds on the unit's wounded Tough model. A Shaken unit may charge in
    Riverside (only Idle removes Shaken; no clause forbids the Charge Action): it attacks as
    Fatigued.
    """
    where = f"{role}_state"
    s = check_models(unit, s, where)
    if not 0 <= s.markers < unit.tough:
        raise OptionError(
            "wounds on the wounded Tough model out of range (seed 002 Remove Casualties)",
            value=s.markers,
            expected=f"0 to {unit.tough - 1} for Tough({unit.tough})",
            where=where,
        )
    return s


# --- the exchange as a state machine ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Fight:
    """The joint state between steps: both units, the wounds each caused, the tests taken."""

    attacker: UnitState
    defender: UnitState
    dealt_by_attacker: int = 0
    dealt_by_defender: int = 0
    struck_back: bool = False
    attacker_tested: bool = False
    defender_tested: bool = False
    attacker_routed: bool = False
    defender_routed: bool = False

    def state(self, side: Side) -> UnitState:
        return self.attacker if side is Side.ATTACKER else self.defender

    def dealt(self, side: Side) -> int:
        return self.dealt_by_attacker if side is Side.ATTACKER else self.dealt_by_defender


@dataclass(frozen=True, slots=True)
class _Blow:
    """One attack ready to resolve: who strikes, with what, at whom, in which situation."""

    step: MeleeStep
    striker: Side
    weapons: tuple[AttackProfile, ...]
    target: DefenderProfile
    situation: Situation
    #: The striker attacked with a melee weapon (Impact alone is not one): Fatigued after.
    melee_weapon: bool

    @property
    def dice(self) -> int:
        return sum(p.dice for p in self.weapons)


@lru_cache(maxsize=4096)
def melee_strikes(unit: Unit, models: int) -> tuple[AttackProfile, ...]:
    """The melee weapons ``models`` left of ``unit`` attack with, split by the per-model rules
    of those models (:mod:`~oprlab.rules.weapon_lines`); the odds layer lets every model
    attack (a game counts those within 2")."""
    weapons = [w for w in unit.weapons if w.melee]
    return tuple(p for p in attack_profiles(unit, weapons, alive=models) if p.dice > 0)


def impact_profile(dice: int, situation: Situation, impact: str) -> AttackProfile | None:
    """Impact(X) inside the charger's attack (seed 002 "Morale Tests": abilities like Impact
    "apply their wounds during that attack's resolution"), read as in GFF: ``dice`` (X per
    charging model with it), each 2+ a hit at AP 0; ``None`` when not read in (``impact``
    ``"none"``), not charging, Fatigued (a Shaken unit counts as Fatigued), or no dice.

    Games, the exchange and the odds of one charge (``oprlab odds --system riverside --melee
    --charging``) all read Impact here.
    """
    if impact == "none" or not situation.charging or situation.fatigued or dice <= 0:
        return None
    return AttackProfile(name="Impact", dice=dice, quality=IMPACT_QUALITY, melee=True)


def _impact(m: _Melee, s: UnitState, situation: Situation) -> AttackProfile | None:
    """The charger's Impact dice as a weapon (2+, AP 0), or ``None``."""
    return impact_profile(m.impact_by_models[s.models], situation, m.impact)


def _blow(m: _Melee, step: MeleeStep, f: _Fight) -> _Blow | None:
    """The attack ``step`` makes from state ``f``, or ``None`` when it does not happen."""
    key = (step, f.attacker, f.defender)
    if key not in m.blows:
        m.blows[key] = _make_blow(m, step, f)
    return m.blows[key]


def _make_blow(m: _Melee, step: MeleeStep, f: _Fight) -> _Blow | None:
    if f.attacker.models <= 0 or f.defender.models <= 0:
        return None
    if step is MeleeStep.RETURN_STRIKES and not m.strike_back:
        return None
    striker = Side.ATTACKER if step is MeleeStep.CHARGE else Side.DEFENDER
    own, target = f.state(striker), other(striker)
    situation = Situation(
        melee=True,
        charging=step is MeleeStep.CHARGE,
        fatigued=own.fatigued or own.shaken,  # "Shaken units count as being Fatigued"
        attacker=m.owner(striker),
        defender=m.owner(target),
    )
    weapons = melee_strikes(m.unit(striker), own.models)
    impact = _impact(m, own, situation) if step is MeleeStep.CHARGE else None
    every = weapons if impact is None else (impact, *weapons)
    if not every:
        return None
    return _Blow(
        step=step,
        striker=striker,
        weapons=every,
        target=m.target(target, f.state(target)),
        situation=situation,
        melee_weapon=bool(weapons),
    )


def _after(f: _Fight, blow: _Blow, wounds: int, after: Casualties) -> _Fight:
    """The state after ``blow`` caused ``wounds`` and left its target at ``after``."""
    was = f.state(other(blow.striker))
    hit = UnitState(after.models, after.wounds, was.shaken, was.fatigued)
    own = f.state(blow.striker)
    if blow.melee_weapon and not own.fatigued:  # "Fatigue"
        own = UnitState(own.models, own.markers, own.shaken, True)
    if blow.striker is Side.ATTACKER:
        return replace(
            f, attacker=own, defender=hit, dealt_by_attacker=f.dealt_by_attacker + wounds
        )
    return replace(
        f,
        attacker=hit,
        defender=own,
        dealt_by_defender=f.dealt_by_defender + wounds,
        struck_back=True,
    )


def _testers(m: _Melee, f: _Fight) -> tuple[Side, ...]:
    """Who takes the melee Morale Test: the unit with the lowest total (a tie: see
    :data:`TIE_READINGS`), in play, "unless the opposing unit was destroyed"."""
    loser = melee_loser(f.dealt_by_attacker, f.dealt_by_defender)
    if loser is not None:
        losers: tuple[Side, ...] = (Side(loser),)
    else:
        losers = (Side.ATTACKER, Side.DEFENDER) if m.tie == "both" else ()
    return tuple(
        side for side in losers if f.state(side).models > 0 and f.state(other(side)).models > 0
    )


@dataclass(frozen=True, slots=True)
class _Test:
    """One Morale Test ready to take: its check (``None``: Shaken, it fails) and what a
    failure does."""

    side: Side
    check: Check | None
    rout: bool


def _morale(m: _Melee, f: _Fight, side: Side) -> _Test:
    """The Morale Test of ``side`` in state ``f`` ("Results of the Morale Test")."""
    key = (side, f.state(side))
    if key not in m.tests:
        m.tests[key] = _make_test(m, side, f.state(side))
    return m.tests[key]


def _make_test(m: _Melee, side: Side, state: UnitState) -> _Test:
    d = m.target(side, state)
    now = casualties_at(d, 0)
    s = Situation(melee=True, defender=m.owner(side))
    check = None if fails_automatically(d) else morale_check(d, now, s)
    return _Test(side, check, half_strength(d, now))


def _tested(f: _Fight, t: _Test, failed: bool) -> _Fight:
    """Success: nothing happens; failure: Rout (removed) at half strength, else Shaken."""
    s = f.state(t.side)
    routs = failed and t.rout
    s = replace(s, shaken=s.shaken or (failed and not routs))
    if t.side is Side.ATTACKER:
        return replace(f, attacker=s, attacker_tested=True, attacker_routed=routs)
    return replace(f, defender=s, defender_tested=True, defender_routed=routs)


def _side(start: UnitState, s: UnitState, dealt: int, tested: bool, routs: bool) -> RiversideSide:
    on_table = s.models > 0 and not routs
    return RiversideSide(
        wounds_dealt=dealt,
        casualties=start.models - s.models,
        models=s.models if on_table else 0,
        markers=s.markers if on_table else 0,
        shaken=s.shaken and on_table,
        fatigued=s.fatigued and on_table,
        routed=routs,
        morale_test=tested,
    )


def _result(
    start: _Fight,
    f: _Fight,
    attacks: tuple[MeleeAttack, ...] = (),
    tests: tuple[MoraleTest, ...] = (),
) -> ExchangeResult:
    """The common result: Riverside has no After Combat move, so ``after_combat`` is NONE."""
    return RiversideExchangeResult(
        attacker=_side(
            start.attacker, f.attacker, f.dealt_by_attacker, f.attacker_tested, f.attacker_routed
        ),
        defender=_side(
            start.defender, f.defender, f.dealt_by_defender, f.defender_tested, f.defender_routed
        ),
        struck_back=f.struck_back,
        after_combat=AfterCombat.NONE,
        system="riverside",
        attacks=attacks,
        tests=tests,
    )


def _start(m: _Melee, attacker_state: UnitState | None, defender_state: UnitState | None) -> _Fight:
    return _Fight(
        _check_state(m.attacker, attacker_state, Side.ATTACKER),
        _check_state(m.defender, defender_state, Side.DEFENDER),
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
    impact: str = "with_attack",
    tie: str = "none",
    readings: Readings = READINGS,
    owners: tuple[Owner, Owner] = OWNERS,
) -> ExchangeResult:
    """Roll one Riverside charge: the charger's attacks, Return Strikes, the Morale Test.

    Checks are rolled in rulebook order (seed 002 "Melee Attacks"), so the clock sees them in
    the order a player rolls them. The result is a :class:`RiversideExchangeResult` carrying
    the attacks and tests made.

    Args:
        attacker: the charging unit.
        defender: the charged unit.
        roller: rolls every check in order (d6 with a generator, or the clock's state).
        strike_back: the defending unit chooses to strike back.
        attacker_state: the charger's condition (default: every model, unhurt, fresh);
            ``markers`` are wounds on its wounded Tough model.
        defender_state: the defender's condition (default the same).
        impact: ``"with_attack"`` or ``"none"`` (:data:`IMPACT_READINGS`).
        tie: ``"none"`` or ``"both"`` (:data:`TIE_READINGS`).
        readings: the attack readings (:class:`~oprlab.rules.riverside.attack.Readings`).
        owners: whose clocks the charger's and the defender's checks use.
    """
    m = _melee(attacker, defender, strike_back, impact, tie, readings, owners)
    start = f = _start(m, attacker_state, defender_state)
    attacks: list[MeleeAttack] = []
    for step in MeleeStep:
        blow = _blow(m, step, f)
        if blow is None:
            continue
        r = resolve_attack(blow.weapons, blow.target, blow.situation, roller, readings=readings)
        attacks.append(MeleeAttack(step, blow.striker, blow.dice, r))
        f = _after(f, blow, r.wounds, r.after)
    tests: list[MoraleTest] = []
    for side in _testers(m, f):
        t = _morale(m, f, side)
        failed = t.check is None or not roller.roll(t.check).success
        f = _tested(f, t, failed)
        result: MoraleResult = ("rout" if t.rout else "shaken") if failed else "passed"
        tests.append(MoraleTest(side, t.check, result))
    return _result(start, f, tuple(attacks), tuple(tests))


# --- exact exchange (a random, stateless mechanic: the d6) --------------------------------

#: One attack's joint effect: (wounds caused, how far along the target's wound track).
Effect = tuple[int, int]


def _die_key(p: AttackProfile, d: DefenderProfile) -> DefenderProfile:
    """The target as one die's chain sees it: Defense, Regeneration, Stealth, and its models
    only for Blast; its wounds and Shaken never."""
    if p.blast > 1:
        return replace(d, wounds=0, shaken=False, started=None)
    return replace(d, models=1, wounds=0, shaken=False, started=None, hero=None)


def attack_effects(
    weapons: tuple[AttackProfile, ...],
    d: DefenderProfile,
    s: Situation,
    mech: Mechanic,
    readings: Readings = READINGS,
) -> Dist[Effect]:
    """The exact joint distribution of one attack's wounds caused and casualty state.

    :func:`~oprlab.rules.riverside.exact.attack_odds` gives marginals; the exchange needs the
    wounds (melee morale compares them) jointly with where they left the target, so this
    composes the same per-die chains with the same casualty order (ordinary wounds first, then
    each Deadly packet in rolling order).
    """
    require_stateless(mech)
    ordinary, deadly = casualty_dice(
        RiversideHooks(readings), weapons, s, lambda p: _die_key(p, d), mech
    )
    state: Dist[Effect] = ordinary.map(lambda w: (w, assign_wounds(d, 0, w)))
    return fold_packets(state, deadly, lambda e, pk: (e[0] + sum(pk), assign_deadly(d, e[1], pk)))


#: Joint states allowed at any step of the exact exchange before it gives up (two 30-model
#: units with 2 attacks need about 2,000 and take under a second; 4,000 take a few seconds).
MAX_STATES = 4_000


def exchange_outcomes(
    attacker: Unit,
    defender: Unit,
    mech: Mechanic,
    *,
    strike_back: bool = True,
    attacker_state: UnitState | None = None,
    defender_state: UnitState | None = None,
    impact: str = "with_attack",
    tie: str = "none",
    readings: Readings = READINGS,
    max_states: int = MAX_STATES,
) -> Dist[ExchangeResult]:
    """The exact distribution of the exchange's outcome with a random mechanic (the d6).

    The charge is composed first (the defender's models and wounds after it, with the wounds
    caused), then the Return Strikes conditioned on each of those states, then the Morale Test
    on each end state: the same state machine :func:`resolve_exchange` rolls. Raises
    :class:`~oprlab.rules.melee_exchange.ExactTooLarge` beyond ``max_states`` joint states.
    """
    require_stateless(mech)
    m = _melee(attacker, defender, strike_back, impact, tie, readings, OWNERS)
    start = _start(m, attacker_state, defender_state)
    fights = compose_stages(
        start,
        MeleeStep,
        lambda step, f: _blow(m, step, f),
        lambda b: attack_effects(b.weapons, b.target, b.situation, mech, readings),
        lambda f, b, e: _after(f, b, e[0], casualties_at(b.target, e[1])),
        max_states,
    )

    def morale(f: _Fight) -> Dist[_Fight]:
        out: Dist[_Fight] = Dist.point(f)
        for side in _testers(m, f):
            out = out.bind(_test_step(m, side, mech))
        return out

    return fights.bind(morale).map(lambda f: _result(start, f))


def _test_step(m: _Melee, side: Side, mech: Mechanic) -> Callable[[_Fight], Dist[_Fight]]:
    def go(f: _Fight) -> Dist[_Fight]:
        t = _morale(m, f, side)
        if t.check is None:
            return Dist.point(_tested(f, t, True))
        return mech.outcomes(t.check).map(lambda o: _tested(f, t, not o.success))

    return go
