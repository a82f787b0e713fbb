"""Helpers for DragonQuest duel tests: fighters with round numbers, and a duel driven by hand
(every die face chosen by the test, every choice made by it)."""

from __future__ import annotations

from dataclasses import replace

from oprlab.game.dq.engine import advance, apply_choice, apply_outcome, next_step
from oprlab.game.dq.rounds import StartRound, new_fight
from oprlab.game.dq.state import Action, ChanceStep, DecisionStep, Duel, Event, Fight, Status
from oprlab.rules.dq.combat import AttackKind
from oprlab.rules.dq.duel_rules import DuelRules
from oprlab.units.dq_fighter import (
    Aim,
    Characteristics,
    DqFighter,
    FighterArmour,
    FighterWeapon,
    Shield,
    Skills,
)

SEED = "seed 001_7377b7b33dc9f88d"


def fighter(
    name: str = "A",
    *,
    ps: int = 15,
    md: int = 15,
    ag: int = 15,
    en: int = 15,
    ft: int = 15,
    wp: int = 15,
    pc: int = 15,
    bc: int = 50,
    rank: int = 0,
    die: int = 10,
    modifier: int = 0,
    two_handed: bool = False,
    pole: bool = False,
    entangling: bool = False,
    shield: int | None = None,
    armour: tuple[int, int, int] = (0, 0, 0),
    ms: int = 0,
    assassin: int = 0,
    warrior: int = 0,
    magic_strike: int = 0,
    magic_defence: int = 0,
    hexes: int = 1,
    aim: Aim = "kill",
) -> DqFighter:
    """A fighter with plain numbers (every characteristic 15 unless given)."""
    damage = f"D{die}" + (f"{modifier:+d}" if modifier else "")
    return DqFighter(
        name=name,
        characteristics=Characteristics(ps, md, ag, 10, en, ft, wp, pc),
        weapon=FighterWeapon(
            "weapon", bc, rank, damage, die, modifier, two_handed, pole, entangling
        ),
        shield=None if shield is None else Shield("shield", shield),
        armour=FighterArmour("armour", *armour),
        skills=Skills(ms, assassin, warrior),
        magic_strike=magic_strike,
        magic_defence=magic_defence,
        hexes=hexes,
        aim=aim,
    )


def engaged(
    a: DqFighter,
    b: DqFighter,
    rules: DuelRules | None = None,
    *,
    status: tuple[Status, Status] | None = None,
) -> Fight:
    """The two already in melee at the start of round 2, fresh unless ``status`` is given."""
    start = new_fight(Duel((a, b), rules or DuelRules()))
    fight = start.evolve(
        status=status or start.status, round=2, engaged=True, steps=(StartRound(),)
    )
    return advance(fight)[0]


def with_status(fight: Fight, side: int, **changes: object) -> Fight:
    """``fight`` with one side's condition changed (for setting up a scene)."""
    return fight.with_status(side, **changes)


def roll(fight: Fight, face: int) -> tuple[Fight, tuple[Event, ...]]:
    """The waiting die shows ``face``."""
    step = next_step(fight)
    assert isinstance(step, ChanceStep), f"waiting for {step!r}, not a die"
    assert 1 <= face <= step.sides(fight), (face, step)
    outcome = step.read(fight, face)
    assert not step.rerolled(outcome)
    return apply_outcome(fight, outcome, face)


def rolls(fight: Fight, *faces: int) -> tuple[Fight, tuple[Event, ...]]:
    """Several dice in a row; the account of all of them."""
    events: list[Event] = []
    for face in faces:
        fight, new = roll(fight, face)
        events.extend(new)
    return fight, tuple(events)


def choose(fight: Fight, what: str, attack: AttackKind | None = None) -> Fight:
    """The waiting decision is ``what`` (with ``attack``)."""
    step = next_step(fight)
    assert isinstance(step, DecisionStep), f"waiting for {step!r}, not a decision"
    return apply_choice(fight, Action(what, attack))[0]


def waiting(fight: Fight) -> str:
    """The name of the step the duel waits for ('' when over)."""
    step = next_step(fight)
    return "" if step is None else type(step).__name__


def fresh(f: DqFighter) -> Status:
    return Status(ft=f.characteristics.ft, en=f.characteristics.en)


__all__ = [
    "SEED",
    "choose",
    "engaged",
    "fighter",
    "fresh",
    "replace",
    "roll",
    "rolls",
    "waiting",
    "with_status",
]
