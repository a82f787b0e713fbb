"""A DragonQuest duel round by round: initiative, each fighter's action, and the end of a round.

Seed 001_7377b7b33dc9f88d, 57.3: unengaged initiative (D10 + PC + 2 x Military Scientist) before
the two meet, engaged initiative (PC + AG + weapon Rank + warrior Rank) once in melee; staying
conscious at EN 3 or less; stun recovery; and the choices a fighter has: charge (where the
charged fighter may repulse), close, attack (a strike or a special attack), evade, withdraw,
offensive withdrawal, pass. The strike itself is :mod:`oprlab.game.dq.strike`.

A round is DragonQuest's pulse: each fighter acts once, the higher initiative first; ties are
rolled off on D10 (rolled again while tied). Evading and a defensive withdrawal last until the
fighter's next action. Readings: ``docs/rules/dq.md`` ("A duel, round by round").

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and ``oprlab.game.dq``.
"""

from __future__ import annotations

from dataclasses import dataclass

from oprlab.game.dq.state import (
    Action,
    AutoStep,
    ChanceStep,
    DecisionStep,
    Duel,
    Event,
    Fight,
    Out,
    Outcome,
    Status,
    StepResult,
    other,
)
from oprlab.game.dq.strike import Strike, available_attacks
from oprlab.rules.dq.combat import (
    AttackKind,
    engaged_initiative,
    repulse_succeeds,
    roll_under,
    stay_conscious_chance,
    stun_recovery_chance,
    unengaged_initiative,
    withdraw_succeeds,
)

__all__ = [
    "Act",
    "ActMain",
    "Choose",
    "EndRound",
    "InitiativeRollOff",
    "Repulse",
    "StartRound",
    "StayConscious",
    "StunRecovery",
    "UnengagedInitiative",
    "WithdrawRoll",
    "new_fight",
]


def new_fight(duel: Duel) -> Fight:
    """A duel at its start: both fresh (full FT and EN), unengaged, round 1."""
    a, b = (Status(ft=f.characteristics.ft, en=f.characteristics.en) for f in duel.fighters)
    return Fight(duel, (a, b), steps=(StartRound(),))


def _names(fight: Fight) -> tuple[str, str]:
    return fight.fighter(0).name, fight.fighter(1).name


def _order(first: int) -> tuple[Act, Act]:
    return Act(first), Act(other(first))


@dataclass(frozen=True, slots=True)
class StartRound(AutoStep):
    """A round begins: a draw at the round limit, else initiative decides who acts first."""

    def run(self, fight: Fight) -> StepResult:
        if fight.round > fight.duel.rules.max_rounds:
            return fight.evolve(draw=True), (Event(fight.round, 0, "round limit: a draw"),)
        if not fight.engaged:
            return fight.push(UnengagedInitiative(), EndRound()), ()
        values = [
            engaged_initiative(fight.fighter(s), fight.status[s].initiative_penalty) for s in (0, 1)
        ]
        for side in (0, 1):
            if fight.status[side].initiative_penalty:
                fight = fight.with_status(side, initiative_penalty=0)
        a, b = _names(fight)
        text = f"engaged initiative: {a} {values[0]}, {b} {values[1]}"
        if values[0] == values[1]:
            return fight.push(InitiativeRollOff(), EndRound()), (Event(fight.round, 0, text),)
        first = 0 if values[0] > values[1] else 1
        return fight.push(*_order(first), EndRound()), (Event(fight.round, first, text),)


def _d10_pair(face: int) -> tuple[int, int]:
    """One face of 1..100 as two D10s (A's, B's)."""
    return (face - 1) // 10 + 1, (face - 1) % 10 + 1


@dataclass(frozen=True, slots=True)
class UnengagedInitiative(ChanceStep):
    """57.3 "Unengaged Initiative": each rolls D10 + PC + 2 x Military Scientist; the higher
    acts first; a tie is rolled again."""

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        da, db = _d10_pair(face)
        a = unengaged_initiative(da, fight.fighter(0))
        b = unengaged_initiative(db, fight.fighter(1))
        return None if a == b else (0 if a > b else 1)

    def rerolled(self, outcome: Outcome) -> bool:
        return outcome is None

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        first = int(outcome)  # type: ignore[call-overload]
        da, db = _d10_pair(face)
        ia = unengaged_initiative(da, fight.fighter(0))
        ib = unengaged_initiative(db, fight.fighter(1))
        a, b = _names(fight)
        text = f"unengaged initiative: {a} {ia} (D10 {da}), {b} {ib} (D10 {db})"
        return fight.push(*_order(first)), (Event(fight.round, first, text),)


@dataclass(frozen=True, slots=True)
class InitiativeRollOff(ChanceStep):
    """Equal engaged initiatives: a D10 each, the higher first, rolled again while tied."""

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        da, db = _d10_pair(face)
        return None if da == db else (0 if da > db else 1)

    def rerolled(self, outcome: Outcome) -> bool:
        return outcome is None

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        first = int(outcome)  # type: ignore[call-overload]
        da, db = _d10_pair(face)
        text = f"initiative roll-off: D10 {da} against {db}"
        return fight.push(*_order(first)), (Event(fight.round, first, text),)


@dataclass(frozen=True, slots=True)
class Act(AutoStep):
    """A fighter's turn to act: its evading and withdrawal end; at EN 3 or less it must first
    stay conscious."""

    side: int

    def run(self, fight: Fight) -> StepResult:
        status = fight.status[self.side]
        if fight.over or status.out is not None:
            return fight, ()
        if status.evading or status.withdrawing:
            fight = fight.with_status(self.side, evading=False, withdrawing=False)
        if stay_conscious_chance(status.en, fight.fighter(self.side).characteristics.wp) is None:
            return fight.push(ActMain(self.side)), ()
        return fight.push(StayConscious(self.side), ActMain(self.side)), ()


@dataclass(frozen=True, slots=True)
class StayConscious(ChanceStep):
    """57.3 "Stay conscious: If EN <= 3, roll under (EN x WP)" (at the start of each action)."""

    side: int

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        s = fight.status[self.side]
        chance = stay_conscious_chance(s.en, fight.fighter(self.side).characteristics.wp)
        return chance is None or roll_under(face, chance)

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        name = fight.fighter(self.side).name
        s = fight.status[self.side]
        chance = s.en * fight.fighter(self.side).characteristics.wp
        if outcome:
            text = f"{name} stays conscious (D100 {face} against {chance})"
            return fight, (Event(fight.round, self.side, text),)
        text = f"{name} faints (D100 {face} against {chance}): unconscious"
        return fight.with_status(self.side, out=Out.UNCONSCIOUS), (
            Event(fight.round, self.side, text),
        )


@dataclass(frozen=True, slots=True)
class ActMain(AutoStep):
    """What a conscious fighter does with its action: recover from a stun, pass when it must,
    free itself, stand up, ready its weapon, or choose."""

    side: int

    def run(self, fight: Fight) -> StepResult:
        s = fight.status[self.side]
        if fight.over or s.out is not None:
            return fight, ()
        name = fight.fighter(self.side).name
        if s.stunned:
            return fight.push(StunRecovery(self.side)), ()
        for flag, text in (
            ("must_pass", "passes (it must)"),
            ("entangled", "frees itself"),
            ("prone", "stands up"),
            ("disarmed", "readies its weapon"),
        ):
            if getattr(s, flag):
                changed = fight.with_status(self.side, **{flag: False})
                return changed, (Event(fight.round, self.side, f"{name} {text}"),)
        return fight.push(Choose(self.side)), ()


@dataclass(frozen=True, slots=True)
class StunRecovery(ChanceStep):
    """57.3 "Stun recovery": roll under (2 x WP) + current Fatigue; the action is spent."""

    side: int

    def _chance(self, fight: Fight) -> int:
        wp = fight.fighter(self.side).characteristics.wp
        return stun_recovery_chance(wp, fight.status[self.side].ft)

    def sides(self, fight: Fight) -> int:
        return 100

    def read(self, fight: Fight, face: int) -> Outcome:
        return roll_under(face, self._chance(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        name = fight.fighter(self.side).name
        how = f"D100 {face} against {self._chance(fight)}"
        if outcome:
            changed = fight.with_status(self.side, stunned=False)
            return changed, (Event(fight.round, self.side, f"{name} recovers ({how})"),)
        return fight, (Event(fight.round, self.side, f"{name} stays stunned ({how})"),)


def _charge_attacks(fight: Fight, side: int) -> tuple[AttackKind, ...]:
    me = fight.fighter(side)
    kinds = [AttackKind.STRIKE]
    if me.shield is not None:
        kinds.append(AttackKind.SHIELD_RUSH)
    if me.hexes >= 2:
        kinds.append(AttackKind.TRAMPLE)
    return tuple(kinds)


@dataclass(frozen=True, slots=True)
class Choose(DecisionStep):
    """A fighter's free action. Unengaged: charge (with a strike, a shield rush or a trample)
    or close without striking. Engaged: attack (a strike or a special attack), evade,
    withdraw, offensive withdrawal (a strike at -20, then the withdraw roll), or pass."""

    side: int

    def options(self, fight: Fight) -> tuple[Action, ...]:
        if not fight.engaged:
            charges = tuple(Action("charge", k) for k in _charge_attacks(fight, self.side))
            return (*charges, Action("close"))
        attacks = tuple(Action("attack", k) for k in available_attacks(fight, self.side))
        return (
            *attacks,
            Action("evade"),
            Action("withdraw"),
            Action("offensive withdrawal", AttackKind.STRIKE),
            Action("pass"),
        )

    def apply(self, fight: Fight, action: Action) -> StepResult:
        name = fight.fighter(self.side).name
        foe = other(self.side)
        note = Event(fight.round, self.side, f"{name}: {action}")
        if action.what == "charge" and action.attack is not None:
            fight = fight.evolve(engaged=True)
            if not fight.status[foe].disarmed:
                return fight.push(Repulse(self.side, action.attack)), (note,)
            return fight.push(Strike(self.side, action.attack, charging=True)), (note,)
        if action.what == "close":
            return fight.evolve(engaged=True), (note,)
        if action.what == "attack" and action.attack is not None:
            return fight.push(Strike(self.side, action.attack)), (note,)
        if action.what == "evade":
            return fight.with_status(self.side, evading=True), (note,)
        if action.what == "withdraw":
            return fight.with_status(self.side, withdrawing=True).push(WithdrawRoll(self.side)), (
                note,
            )
        if action.what == "offensive withdrawal":
            strike = Strike(self.side, AttackKind.STRIKE, offensive_withdrawal=True)
            return fight.push(strike, WithdrawRoll(self.side)), (note,)
        return fight, (note,)


@dataclass(frozen=True, slots=True)
class Repulse(ChanceStep):
    """57.3 "Repulse a charge attack: D10 >= prepared weapon Rank" (the charged fighter's
    weapon); a repulsed charge ends without its blow, the two now engaged."""

    charger: int
    attack: AttackKind

    def _rank(self, fight: Fight) -> int:
        return fight.fighter(other(self.charger)).weapon.rank

    def sides(self, fight: Fight) -> int:
        return 10

    def read(self, fight: Fight, face: int) -> Outcome:
        return repulse_succeeds(face, self._rank(fight), fight.duel.rules.repulse)

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        foe = other(self.charger)
        name = fight.fighter(foe).name
        how = f"D10 {face}, Rank {self._rank(fight)}"
        if outcome:
            return fight, (Event(fight.round, foe, f"{name} repulses the charge ({how})"),)
        return fight.push(Strike(self.charger, self.attack, charging=True)), (
            Event(fight.round, foe, f"{name} fails to repulse the charge ({how})"),
        )


@dataclass(frozen=True, slots=True)
class WithdrawRoll(ChanceStep):
    """57.3 "Withdraw": (D10 + friendly PS - hostile PS) >= 10; a fighter that makes it leaves
    the fight at the end of the round."""

    side: int

    def _ps(self, fight: Fight) -> tuple[int, int]:
        return (
            fight.fighter(self.side).characteristics.ps,
            fight.fighter(other(self.side)).characteristics.ps,
        )

    def sides(self, fight: Fight) -> int:
        return 10

    def read(self, fight: Fight, face: int) -> Outcome:
        return withdraw_succeeds(face, *self._ps(fight))

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        mine, theirs = self._ps(fight)
        name = fight.fighter(self.side).name
        how = f"D10 {face} + PS {mine} - PS {theirs}"
        if outcome:
            changed = fight.with_status(self.side, leaving=True)
            return changed, (Event(fight.round, self.side, f"{name} breaks away ({how})"),)
        return fight, (Event(fight.round, self.side, f"{name} cannot break away ({how})"),)


@dataclass(frozen=True, slots=True)
class EndRound(AutoStep):
    """The round ends: a fighter that broke away has withdrawn; the next round starts."""

    def run(self, fight: Fight) -> StepResult:
        events: list[Event] = []
        leaving = [s for s in (0, 1) if fight.status[s].leaving]
        if len(leaving) == 2:  # both broke away: nobody holds the field
            return fight.evolve(draw=True), (Event(fight.round, 0, "both withdraw: a draw"),)
        for side in leaving:
            fight = fight.with_status(side, out=Out.WITHDREW)
            name = fight.fighter(side).name
            events.append(Event(fight.round, side, f"{name} withdraws from the fight"))
        if fight.over:
            return fight, tuple(events)
        return fight.evolve(round=fight.round + 1).push(StartRound()), tuple(events)
