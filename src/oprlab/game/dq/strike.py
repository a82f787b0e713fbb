"""One melee attack in a DragonQuest duel, from the strike chance to its last consequence.

Seed 001_7377b7b33dc9f88d: the strike chance (57.3 with the 57.1 modifiers) and the Defence (57.3
with 57.2); the attack resolved by the duel's resolution, ``opposed`` (both roll, Table 1, result
= attack quality - defence quality) or ``current`` (one roll against SC - Defence); then by
attack kind: Table 2 damage with FT/EN/DR armour (fatigue spills into Endurance once Fatigue is
gone), a shield rush's or trip's knockdown (3 x AG to avoid), a disarm (MD + Rank to avoid), a
knockout (result 3 or better), an entanglement (3 x AG), a restraint (its own D100), a trample's
automatic knockdown; the evading parry and its 57.3 result table; a fumble on a natural 00.
What the seed leaves out (the Fumble Table, grievous injuries, stun, death) are the stand-ins of
:mod:`oprlab.rules.dq.standins`.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and ``oprlab.game.dq``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from oprlab.game.dq.state import (
    Action,
    AutoStep,
    ChanceStep,
    DecisionStep,
    Duel,
    Event,
    Fight,
    Harm,
    Out,
    Outcome,
    Status,
    Step,
    StepResult,
    StrikeRecord,
    other,
)
from oprlab.mechanics.dq import QUALITY_LETTERS, result_quality
from oprlab.rules.dq.combat import (
    AttackKind,
    DefenceSituation,
    StrikeSituation,
    avoid_chance,
    defence,
    engaged_initiative,
    fumble_check_chance,
    melee_strike_modifiers,
    restrain_chance,
    roll_under,
    special_damage,
    strike_chance,
)
from oprlab.rules.dq.resolution import attack_outcome, defence_quality, is_fumble, opposed_may_parry
from oprlab.rules.dq.standins import (
    DEATH_EN,
    GRIEVOUS_DIE,
    FumbleResult,
    fumble_result,
    grievous_happens,
)
from oprlab.rules.dq.tables import (
    KNOCKOUT_MIN_RESULT,
    PARRY_DISARM_EN_DAMAGE,
    AssassinAttack,
    DamageRoll,
    ParryResult,
    assassin_roll_modifier,
    damage,
    parry_result,
    result_row,
)

__all__ = [
    "AttackRoll",
    "Avoid",
    "DefenceRoll",
    "FumbleCheck",
    "FumbleTable",
    "GrievousCheck",
    "GrievousDamage",
    "Hit",
    "ParryChoice",
    "ParryRoll",
    "RestrainRoll",
    "Strike",
    "StrikeSpec",
    "available_attacks",
    "strike_spec",
    "take_damage",
]

#: What a landed special attack does to a defender who fails to avoid it.
_EFFECT = {
    AttackKind.SHIELD_RUSH: "prone",
    AttackKind.TRIP: "prone",
    AttackKind.DISARM: "disarmed",
    AttackKind.ENTANGLE: "entangled",
}
_EFFECT_TEXT = {"prone": "is knocked down", "disarmed": "is disarmed", "entangled": "is entangled"}


def available_attacks(fight: Fight, side: int) -> tuple[AttackKind, ...]:
    """The attacks ``side`` may make now, in a fixed order (57.3's special attacks that apply)."""
    me, foe = fight.fighter(side), fight.status[other(side)]
    kinds = [AttackKind.STRIKE]
    if me.shield is not None:
        kinds.append(AttackKind.SHIELD_RUSH)
    if not foe.disarmed:
        kinds.append(AttackKind.DISARM)
    if not foe.prone:
        kinds.append(AttackKind.TRIP)
    kinds.append(AttackKind.KNOCKOUT)
    if me.weapon.entangling and not foe.entangled:
        kinds.append(AttackKind.ENTANGLE)
    kinds.append(AttackKind.RESTRAIN)
    if me.hexes >= 2 and not foe.prone:
        kinds.append(AttackKind.TRAMPLE)
    return tuple(kinds)


@dataclass(frozen=True, slots=True)
class StrikeSpec:
    """The numbers of one attack, fixed when it is made.

    Attributes:
        attacker: the attacking side.
        kind: the attack kind.
        strike_chance: 57.3's strike chance with the 57.1 modifiers.
        defence: the defender's Defence with the 57.2 modifiers.
        roll_modifier: taken off the attack roll (the playtest's assassin).
        grievous_percent: added to the current rules' 5% band (their assassin).
        evading: the defender is evading (it may parry).
        riposte: the attack is a riposte after a parry.
    """

    attacker: int
    kind: AttackKind
    strike_chance: int
    defence: int
    roll_modifier: int = 0
    grievous_percent: int = 0
    evading: bool = False
    riposte: bool = False


def strike_spec(
    fight: Fight,
    side: int,
    kind: AttackKind,
    *,
    charging: bool = False,
    offensive_withdrawal: bool = False,
    riposte: bool = False,
    defender_evading: bool | None = None,
) -> StrikeSpec:
    """The strike chance and Defence of ``side``'s attack as things stand (the habits ask this
    too, with ``defender_evading`` to weigh an evasion before making it)."""
    return _strike_spec(
        fight.duel,
        fight.status,
        side,
        kind,
        charging,
        offensive_withdrawal,
        riposte,
        defender_evading,
    )


@lru_cache(maxsize=65536)
def _strike_spec(
    duel: Duel,
    status: tuple[Status, Status],
    side: int,
    kind: AttackKind,
    charging: bool,
    offensive_withdrawal: bool,
    riposte: bool,
    defender_evading: bool | None,
) -> StrikeSpec:
    # Cached: the same numbers are asked for by the habits and again by the strike.
    me, foe = duel.fighters[side], duel.fighters[other(side)]
    mine, theirs = status[side], status[other(side)]
    rules = duel.rules
    situation = StrikeSituation(
        no_fatigue=mine.ft == 0,
        offensive_withdrawal=offensive_withdrawal,
        charging=charging,
        defender_down=theirs.prone,
    )
    sc = strike_chance(me, kind, melee_strike_modifiers(me, kind, situation))
    evading = theirs.evading if defender_evading is None else defender_evading
    guard = DefenceSituation(
        no_fatigue=theirs.ft == 0,
        stunned=theirs.stunned,
        defensive_withdrawal=theirs.withdrawing,
        evading=evading,
        weapon_prepared=not theirs.disarmed,
    )
    dfn = defence(foe, guard, perception=rules.defence_perception)
    bonus = assassin_roll_modifier(me.skills.assassin, AssassinAttack.FRONT)
    opposed = rules.resolution == "opposed"
    return StrikeSpec(
        attacker=side,
        kind=kind,
        strike_chance=sc,
        defence=dfn,
        roll_modifier=bonus if opposed else 0,
        grievous_percent=0 if opposed else bonus,
        evading=evading,
        riposte=riposte,
    )


@dataclass(frozen=True, slots=True)
class Strike(AutoStep):
    """An attack is made: its numbers are fixed now, then the dice (a restraint rolls its own)."""

    side: int
    kind: AttackKind = AttackKind.STRIKE
    charging: bool = False
    offensive_withdrawal: bool = False
    riposte: bool = False

    def run(self, fight: Fight) -> StepResult:
        if fight.over or fight.status[self.side].out is not None:
            return fight, ()
        if self.kind == AttackKind.RESTRAIN:
            return fight.push(RestrainRoll(self.side)), ()
        spec = strike_spec(
            fight,
            self.side,
            self.kind,
            charging=self.charging,
            offensive_withdrawal=self.offensive_withdrawal,
            riposte=self.riposte,
        )
        return fight.push(AttackRoll(spec)), ()


@dataclass(frozen=True, slots=True)
class AttackRoll(ChanceStep):
    """The attacker's D100: an attack quality (opposed), or the whole result (current)."""

    spec: StrikeSpec

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        rules = fight.duel.rules
        quality, parry = attack_outcome(
            face,
            self.spec.strike_chance,
            self.spec.defence,
            resolution=rules.resolution,
            roll_modifier=self.spec.roll_modifier,
            grievous_percent=self.spec.grievous_percent,
            ladder=rules.ladder,
            table_01_row=rules.table_01_row,
            rounding=rules.current_rounding,
        )
        return quality, parry and self.spec.evading, is_fumble(face)

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        quality, parry, fumble = cast(tuple[int, bool, bool], outcome)
        if fight.duel.rules.resolution == "opposed":
            return fight.push(DefenceRoll(self.spec, quality, fumble, face)), ()
        return _resolve(fight, self.spec, quality, parry, fumble, face, None, None, None)


@dataclass(frozen=True, slots=True)
class DefenceRoll(ChanceStep):
    """The defender's D100 against its Defence (opposed only): a defence quality.

    ``attack_roll`` is kept for the account only; exact analysis passes one face per outcome.
    """

    spec: StrikeSpec
    attack_quality: int
    fumble: bool
    attack_roll: int

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        rules = fight.duel.rules
        return defence_quality(
            face, self.spec.defence, ladder=rules.ladder, table_01_row=rules.table_01_row
        )

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        guard = int(outcome)  # type: ignore[call-overload]
        level = result_quality(self.attack_quality, guard)
        parry = self.spec.evading and opposed_may_parry(self.attack_quality, guard)
        return _resolve(
            fight,
            self.spec,
            level,
            parry,
            self.fumble,
            self.attack_roll,
            self.attack_quality,
            face,
            guard,
        )


def _resolve(
    fight: Fight,
    spec: StrikeSpec,
    level: int,
    parry: bool,
    fumble: bool,
    attack_roll: int,
    attack_q: int | None,
    defence_roll: int | None,
    defence_q: int | None,
) -> StepResult:
    """Record the strike and queue what follows: its effects, a parry, a fumble."""
    side, foe = spec.attacker, other(spec.attacker)
    me, them = fight.fighter(side).name, fight.fighter(foe).name
    rolls = f"D100 {attack_roll} vs SC {spec.strike_chance}"
    if defence_roll is not None and attack_q is not None and defence_q is not None:
        rolls += (
            f" ({QUALITY_LETTERS[attack_q]}); {them} D100 {defence_roll} vs Defence "
            f"{spec.defence} ({QUALITY_LETTERS[defence_q]})"
        )
    else:
        rolls += f" - Defence {spec.defence}"
    row = result_row(level)
    text = f"{me} {spec.kind}{' (riposte)' if spec.riposte else ''}: {rolls}: {row.description}"
    record = StrikeRecord(
        fight.round,
        side,
        text,
        kind=spec.kind,
        strike_chance=spec.strike_chance,
        defence=spec.defence,
        attack_roll=attack_roll,
        roll_modifier=spec.roll_modifier,
        attack_quality=attack_q,
        defence_roll=defence_roll,
        defence_quality=defence_q,
        level=level,
        parry_allowed=parry,
        fumble=fumble,
        evading=spec.evading,
    )
    follow: list[Step] = []
    if level >= 1:
        follow += _effects(fight, spec, level)
    if fumble:
        follow.append(FumbleCheck(side))
    if parry:
        follow.append(ParryChoice(foe))
    return fight.push(*follow), (record,)


def _effects(fight: Fight, spec: StrikeSpec, level: int) -> list[Step]:
    """What a strike of result ``level`` >= 1 does, by attack kind."""
    foe = other(spec.attacker)
    hit_roll = special_damage(spec.kind, fight.fighter(spec.attacker))
    hit = Hit(foe, level, hit_roll.die, hit_roll.modifier)
    kind = spec.kind
    if kind == AttackKind.KNOCKOUT:
        return [KnockedOut(foe)] if level >= KNOCKOUT_MIN_RESULT else [hit]
    if kind == AttackKind.TRAMPLE:
        return [KnockedDown(foe), hit]
    if kind in (AttackKind.DISARM, AttackKind.ENTANGLE):
        return [Avoid(foe, kind)]
    if kind in (AttackKind.SHIELD_RUSH, AttackKind.TRIP):
        return [hit, Avoid(foe, kind)]
    return [hit]


@dataclass(frozen=True, slots=True)
class KnockedOut(AutoStep):
    """57.3 "Knockout": a result of 3 or better knocks the defender out (it leaves the fight)."""

    side: int

    def run(self, fight: Fight) -> StepResult:
        blows = fight.status[self.side].blows + 1
        name = fight.fighter(self.side).name
        return fight.with_status(self.side, out=Out.KNOCKED_OUT, blows=blows), (
            Event(fight.round, self.side, f"{name} is knocked out"),
        )


@dataclass(frozen=True, slots=True)
class KnockedDown(AutoStep):
    """57.3 "Trample ... Automatic knockdown"."""

    side: int

    def run(self, fight: Fight) -> StepResult:
        blows = fight.status[self.side].blows + 1
        name = fight.fighter(self.side).name
        return fight.with_status(self.side, prone=True, blows=blows), (
            Event(fight.round, self.side, f"{name} is trampled down"),
        )


def take_damage(
    fight: Fight, side: int, fatigue: int, endurance: int, *, stuns: bool, source: str
) -> StepResult:
    """``side`` loses ``fatigue`` (from Fatigue, the rest from Endurance once Fatigue is gone)
    and ``endurance``; at EN 0 or less it is dead; with ``stuns`` any Endurance lost stuns it
    (the duel's ``stun`` reading permitting)."""
    s = fight.status[side]
    from_ft = min(s.ft, fatigue)
    en_lost = endurance + (fatigue - from_ft)
    en = s.en - en_lost
    changes: dict[str, object] = {"ft": s.ft - from_ft, "en": en}
    if from_ft + en_lost > 0:
        changes["blows"] = s.blows + 1
    if stuns and en_lost > 0 and fight.duel.rules.stun == "endurance":
        changes["stunned"] = True
    if en <= DEATH_EN:
        changes["out"] = Out.DEAD
    name = fight.fighter(side).name
    text = f"{name} loses {from_ft} FT and {en_lost} EN ({source}): FT {s.ft - from_ft}, EN {en}"
    if changes.get("out") == Out.DEAD:
        text += ": dead"
    elif changes.get("stunned") and not s.stunned:
        text += ": stunned"
    harm = Harm(fight.round, side, text, fatigue=from_ft, endurance=en_lost, source=source)
    return fight.with_status(side, **changes), (harm,)


@dataclass(frozen=True, slots=True)
class Hit(ChanceStep):
    """Table 2 damage of a landed blow: the damage die where the level rolls it (1, 3, 4),
    the maximum otherwise; FT armour at 1-2, EN armour at 3-4, none at 5-6, DR at every level."""

    side: int
    level: int
    die: int
    modifier: int

    def sides(self, fight: Fight) -> int:
        row = result_row(self.level)
        return 1 if row.maximum or row.track is None else self.die

    def read(self, fight: Fight, face: int) -> Outcome:
        row = result_row(self.level)
        armour = fight.fighter(self.side).armour
        roll = None if row.maximum or row.track is None else face + self.modifier
        dealt = damage(
            self.level,
            DamageRoll(self.die, self.modifier),
            roll,
            ft_armour=armour.ft,
            en_armour=armour.en,
            dr=armour.dr,
        )
        return dealt.fatigue, dealt.endurance, dealt.possible_grievous

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        fatigue, endurance, grievous = cast(tuple[int, int, bool], outcome)
        fight, events = take_damage(
            fight, self.side, fatigue, endurance, stuns=True, source=result_row(self.level).name
        )
        if grievous and not fight.over and fight.duel.rules.grievous == "d10":
            fight = fight.push(GrievousCheck(self.side))
        return fight, events


@dataclass(frozen=True, slots=True)
class GrievousCheck(ChanceStep):
    """Stand-in for a "Possible Spec Grievous": a D10 of 6 or more makes it happen."""

    side: int

    def sides(self, fight: Fight) -> int:
        return 10

    def read(self, fight: Fight, face: int) -> Outcome:
        return grievous_happens(face)

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        name = fight.fighter(self.side).name
        if not outcome:
            return fight, (Event(fight.round, self.side, f"no grievous injury (D10 {face})"),)
        text = f"{name} suffers a specific grievous injury (D10 {face})"
        return fight.push(GrievousDamage(self.side)), (Event(fight.round, self.side, text),)


@dataclass(frozen=True, slots=True)
class GrievousDamage(ChanceStep):
    """The stand-in grievous injury's extra Endurance damage: D10, no armour, and it stuns."""

    side: int

    def sides(self, fight: Fight) -> int:
        return GRIEVOUS_DIE

    def read(self, fight: Fight, face: int) -> Outcome:
        return face

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        extra = int(outcome)  # type: ignore[call-overload]
        return take_damage(fight, self.side, 0, extra, stuns=True, source="grievous injury")


@dataclass(frozen=True, slots=True)
class Avoid(ChanceStep):
    """57.3: a landed shield rush, trip or entangle is avoided on D100 under 3 x AG, a disarm
    under MD + Rank (2 x MD + Rank two handed); otherwise it takes effect."""

    side: int
    kind: AttackKind

    def _chance(self, fight: Fight) -> int:
        prepared = not fight.status[self.side].disarmed
        return avoid_chance(self.kind, fight.fighter(self.side), weapon_prepared=prepared)

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        return roll_under(face, self._chance(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        name = fight.fighter(self.side).name
        how = f"D100 {face} against {self._chance(fight)}"
        if outcome:
            return fight, (Event(fight.round, self.side, f"{name} avoids the {self.kind} ({how})"),)
        effect = _EFFECT[self.kind]
        changes = {effect: True, "blows": fight.status[self.side].blows + 1}
        text = f"{name} {_EFFECT_TEXT[effect]} ({how})"
        return fight.with_status(self.side, **changes), (Event(fight.round, self.side, text),)


@dataclass(frozen=True, slots=True)
class FumbleCheck(ChanceStep):
    """57.3 "Fumble: Reduce Initiative by 10. Roll under Initiative on D100 or roll on the
    Fumble Table": the fumbler's next initiative is 10 lower, and it escapes the table on D100
    under its engaged initiative less 10."""

    side: int

    def _chance(self, fight: Fight) -> int:
        penalty = fight.status[self.side].initiative_penalty
        return fumble_check_chance(engaged_initiative(fight.fighter(self.side), penalty))

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        return roll_under(face, self._chance(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        name = fight.fighter(self.side).name
        how = f"D100 {face} against {self._chance(fight)}"
        fight = fight.with_status(self.side, initiative_penalty=10)
        if outcome:
            return fight, (Event(fight.round, self.side, f"{name} fumbles but recovers ({how})"),)
        text = f"{name} fumbles ({how}): Fumble Table"
        return fight.push(FumbleTable(self.side)), (Event(fight.round, self.side, text),)


@dataclass(frozen=True, slots=True)
class FumbleTable(ChanceStep):
    """The stand-in Fumble Table (52.4 is not in the seed): D10, 1-5 off balance (loses its next
    action), 6-8 drops its weapon, 9-10 falls prone."""

    side: int

    def sides(self, fight: Fight) -> int:
        return 10

    def read(self, fight: Fight, face: int) -> Outcome:
        return fumble_result(face)

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        flag = {
            FumbleResult.OFF_BALANCE: "must_pass",
            FumbleResult.DROPS_WEAPON: "disarmed",
            FumbleResult.FALLS: "prone",
        }[outcome]  # type: ignore[index]
        name = fight.fighter(self.side).name
        text = f"{name}: {outcome} (D10 {face})"
        blows = fight.status[self.side].blows + 1
        return fight.with_status(self.side, **{flag: True, "blows": blows}), (
            Event(fight.round, self.side, text),
        )


@dataclass(frozen=True, slots=True)
class ParryChoice(DecisionStep):
    """ "Evading": an evader whose defence beat the attack well enough may attempt a parry."""

    side: int

    def options(self, fight: Fight) -> tuple[Action, ...]:
        return Action("parry"), Action("decline")

    def apply(self, fight: Fight, action: Action) -> StepResult:
        if action.what != "parry":
            return fight, ()
        return fight.push(ParryRoll(self.side)), ()


@dataclass(frozen=True, slots=True)
class ParryRoll(ChanceStep):
    """57.3 "Parry result: D10 + evader's Rank - attacker's Rank": 3 or less, a parry (the
    evader must pass its next action); 4-7, the attacker is disarmed and takes 1 EN; 8 or more,
    disarmed, 1 EN, and the evader ripostes with a melee attack."""

    side: int

    def _ranks(self, fight: Fight) -> tuple[int, int]:
        mine = 0 if fight.status[self.side].disarmed else fight.fighter(self.side).weapon.rank
        return mine, fight.fighter(other(self.side)).weapon.rank

    def sides(self, fight: Fight) -> int:
        return 10

    def read(self, fight: Fight, face: int) -> Outcome:
        return parry_result(face, *self._ranks(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        mine, theirs = self._ranks(fight)
        name = fight.fighter(self.side).name
        head = Event(
            fight.round,
            self.side,
            f"{name} parries: D10 {face} + Rank {mine} - Rank {theirs}: {outcome}",
        )
        if outcome == ParryResult.PARRY:
            return fight.with_status(self.side, must_pass=True), (head,)
        attacker = other(self.side)
        fight = fight.with_status(attacker, disarmed=True)
        fight, harm = take_damage(
            fight, attacker, 0, PARRY_DISARM_EN_DAMAGE, stuns=False, source="parry"
        )
        if outcome == ParryResult.DISARM_RIPOSTE and not fight.over:
            fight = fight.push(Strike(self.side, AttackKind.STRIKE, riposte=True))
        return fight, (head, *harm)


@dataclass(frozen=True, slots=True)
class RestrainRoll(ChanceStep):
    """57.3 "Restrain": D100 under 3 x ((PS + AG of attacker) - (PS + AG of defender)); a
    restrained defender is held and the duel is over."""

    side: int

    def _chance(self, fight: Fight) -> int:
        return restrain_chance(fight.fighter(self.side), fight.fighter(other(self.side)))

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        return roll_under(face, self._chance(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        foe = other(self.side)
        name = fight.fighter(foe).name
        how = f"D100 {face} against {self._chance(fight)}"
        if not outcome:
            return fight, (Event(fight.round, self.side, f"restraint fails ({how})"),)
        blows = fight.status[foe].blows + 1
        return fight.with_status(foe, out=Out.RESTRAINED, blows=blows), (
            Event(fight.round, foe, f"{name} is restrained ({how})"),
        )
