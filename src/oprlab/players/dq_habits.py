"""Simple fighters' habits for a DragonQuest duel, so that duels play to their end.

A fighter with these habits (seed 001_7377b7b33dc9f88d's choices, 57.3):

* before the two meet, charges with a trample (a multi-hex figure), a pole weapon or a shield
  rush (the +20 of 57.1), and otherwise closes without striking (a -15 charge is no bargain);
* once engaged, withdraws when losing: Endurance down to a third (at least 3) and less of its
  Fatigue and Endurance left, in proportion, than the opponent, if the withdraw roll succeeds
  at least 3 times in 10 (PS at least 2 above the opponent's);
* with ``aim: capture`` restrains when that is at least an even chance, else tries a knockout;
* otherwise tramples (multi-hex, opponent standing) or strikes; it evades instead when a parry
  is likelier than its own blow landing (exact odds of both, from the same rules the fight uses);
  the ``evader`` habits evade every time they may;
* always attempts a parry when allowed.

Every choice is a function of the fight alone (no dice), so exact analysis can follow it.

May import ``oprlab.game`` and below.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from oprlab.errors import UnknownNameError
from oprlab.game.dq.engine import DuelCommander
from oprlab.game.dq.state import Action, DecisionStep, Fight, other
from oprlab.game.dq.strike import ParryChoice, strike_spec
from oprlab.rules.dq.combat import AttackKind, restrain_chance
from oprlab.rules.dq.combat import withdraw_succeeds as _withdraws
from oprlab.rules.dq.resolution import land_and_parry

__all__ = [
    "HABITS",
    "DuelHabits",
    "RandomHabits",
    "get_duel_habits",
    "strike_odds",
    "withdraw_odds",
]

Style = Literal["habits", "evader"]
#: Restrain when its chance is at least this (a capture aim).
RESTRAIN_AT = 50
#: Withdraw (when losing) only if the withdraw roll succeeds at least this often.
WITHDRAW_AT = Fraction(3, 10)


def strike_odds(
    fight: Fight,
    side: int,
    kind: AttackKind = AttackKind.STRIKE,
    *,
    defender_evading: bool | None = None,
    charging: bool = False,
) -> tuple[Fraction, Fraction]:
    """Exact P(``side``'s attack lands) and P(the defender may parry it), as things stand."""
    spec = strike_spec(fight, side, kind, charging=charging, defender_evading=defender_evading)
    rules = fight.duel.rules
    return land_and_parry(
        spec.strike_chance,
        spec.defence,
        resolution=rules.resolution,
        evading=spec.evading,
        roll_modifier=spec.roll_modifier,
        grievous_percent=spec.grievous_percent,
        ladder=rules.ladder,
        table_01_row=rules.table_01_row,
        rounding=rules.current_rounding,
    )


def _health(fight: Fight, side: int) -> Fraction:
    c = fight.fighter(side).characteristics
    s = fight.status[side]
    return Fraction(max(0, s.ft) + max(0, s.en), c.ft + c.en)


def withdraw_odds(fight: Fight, side: int) -> Fraction:
    """Exact P(``side``'s withdraw roll succeeds): D10 + PS - hostile PS >= 10."""
    mine = fight.fighter(side).characteristics.ps
    theirs = fight.fighter(other(side)).characteristics.ps
    return Fraction(sum(_withdraws(d, mine, theirs) for d in range(1, 11)), 10)


def _losing(fight: Fight, side: int) -> bool:
    me = fight.fighter(side)
    en = fight.status[side].en
    low = en <= max(3, me.characteristics.en // 3)
    behind = _health(fight, side) < _health(fight, other(side))
    return low and behind and withdraw_odds(fight, side) >= WITHDRAW_AT


@dataclass(frozen=True)
class DuelHabits:
    """The habits above; ``DuelHabits("evader")`` evades whenever it may (to watch parries)."""

    name: Style = "habits"

    def choose(self, fight: Fight, step: DecisionStep, options: tuple[Action, ...]) -> Action:
        if isinstance(step, ParryChoice):
            return Action("parry")
        side = step.side
        if not fight.engaged:
            return self._opening(fight, side, options)
        if Action("withdraw") in options and _losing(fight, side):
            return Action("withdraw")
        if self.name == "evader" and Action("evade") in options:
            return Action("evade")
        me = fight.fighter(side)
        if me.aim == "capture":
            restrain = Action("attack", AttackKind.RESTRAIN)
            if (
                restrain in options
                and restrain_chance(me, fight.fighter(other(side))) >= RESTRAIN_AT
            ):
                return restrain
            knockout = Action("attack", AttackKind.KNOCKOUT)
            if knockout in options:
                return knockout
        trample = Action("attack", AttackKind.TRAMPLE)
        if trample in options:
            return trample
        land, _ = strike_odds(fight, side)
        _, parry = strike_odds(fight, other(side), defender_evading=True)
        if parry > land and Action("evade") in options:
            return Action("evade")
        return Action("attack", AttackKind.STRIKE)

    def _opening(self, fight: Fight, side: int, options: tuple[Action, ...]) -> Action:
        me = fight.fighter(side)
        for kind, wanted in (
            (AttackKind.TRAMPLE, me.hexes >= 2),
            (AttackKind.STRIKE, me.weapon.pole),
            (AttackKind.SHIELD_RUSH, me.shield is not None),
        ):
            if wanted and Action("charge", kind) in options:
                return Action("charge", kind)
        return Action("close")


#: The habits by name.
HABITS: dict[str, DuelCommander] = {"habits": DuelHabits(), "evader": DuelHabits("evader")}


def get_duel_habits(name: str) -> DuelCommander:
    """Habits by name (``habits`` or ``evader``)."""
    try:
        return HABITS[name]
    except KeyError:
        raise UnknownNameError(
            "unknown DQ habits", value=name, expected=" or ".join(sorted(HABITS))
        ) from None


class RandomHabits:
    """A fighter that picks any offered option at random (its own seeded Generator): it tries
    every special attack, so tests see every path of the rules."""

    name = "random"

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def choose(self, fight: Fight, step: DecisionStep, options: tuple[Action, ...]) -> Action:
        return options[int(self.rng.integers(len(options)))]
