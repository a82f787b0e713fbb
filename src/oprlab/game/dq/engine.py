"""Driving a DragonQuest duel: run its steps, roll its dice, ask its fighters.

:func:`play` samples one duel (dice from an injected numpy Generator, through :class:`Dice`);
:func:`chance_outcomes` lists a die's outcomes with exact probabilities from the same reading of
the faces, so exact analysis (``oprlab.analysis.dq_duel``) walks the same steps. A
:class:`DuelCommander` chooses at each decision; it lives in ``oprlab.players`` and is handed in.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and ``oprlab.game.dq``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

import numpy as np

from oprlab.errors import OprlabError
from oprlab.game.dq.rounds import new_fight
from oprlab.game.dq.state import (
    Action,
    AutoStep,
    ChanceStep,
    DecisionStep,
    Duel,
    Event,
    Fight,
    Outcome,
    Step,
)

__all__ = [
    "MAX_STEPS",
    "Dice",
    "DuelCommander",
    "IllegalChoiceError",
    "advance",
    "apply_choice",
    "apply_outcome",
    "chance_outcomes",
    "next_step",
    "play",
]

#: A generous bound on steps in one duel; more is a bug, not a long fight.
MAX_STEPS = 200_000
#: Uniform numbers drawn at a time by :class:`Dice`.
_BATCH = 64


class IllegalChoiceError(OprlabError):
    """A commander chose an option that was not offered."""


class DuelCommander(Protocol):
    """A fighter's habits: choose one of ``options`` (never empty) at ``step``."""

    @property
    def name(self) -> str: ...

    def choose(self, fight: Fight, step: DecisionStep, options: tuple[Action, ...]) -> Action: ...


class Dice:
    """The dice of one duel, drawn from a numpy Generator in batches (one seed, one duel)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self._buffer: list[float] = []

    def roll(self, sides: int) -> int:
        """One face of a fair die, 1..``sides``."""
        if not self._buffer:
            self._buffer = self.rng.random(_BATCH).tolist()[::-1]
        return int(self._buffer.pop() * sides) + 1


def _pop(fight: Fight) -> tuple[Step, Fight]:
    return fight.steps[0], fight.evolve(steps=fight.steps[1:])


def _paused(fight: Fight, until_round: int | None) -> bool:
    return until_round is not None and fight.round > until_round


def advance(fight: Fight, until_round: int | None = None) -> tuple[Fight, tuple[Event, ...]]:
    """Run the waiting automatic steps (and dice of one face, such as a Maximum result's damage),
    up to a die, a decision, the end of the duel, or (with ``until_round``) the start of the
    round after it."""
    events: list[Event] = []
    while fight.steps and not fight.over and not _paused(fight, until_round):
        step, rest = _pop(fight)
        if isinstance(step, AutoStep):
            fight, new = step.run(rest)
        elif isinstance(step, ChanceStep) and step.sides(fight) == 1:
            fight, new = step.apply(rest, step.read(fight, 1), 1)  # a die of one face: no roll
        else:
            break
        events.extend(new)
    if fight.over and fight.steps:
        fight = fight.evolve(steps=())
    return fight, tuple(events)


def next_step(fight: Fight, until_round: int | None = None) -> ChanceStep | DecisionStep | None:
    """The die or decision the duel waits for (after :func:`advance`), or ``None`` when it is
    over (or paused after ``until_round``)."""
    if fight.over or not fight.steps or _paused(fight, until_round):
        return None
    step = fight.steps[0]
    if isinstance(step, ChanceStep | DecisionStep):
        return step
    raise OprlabError(f"advance() first: the next step runs on its own ({step!r})")


def chance_outcomes(fight: Fight, step: ChanceStep) -> list[tuple[Outcome, Fraction, int]]:
    """Every outcome of ``step``'s die with its exact probability and the first face giving it;
    outcomes that are rolled again (ties) are left out and the rest scaled up."""
    sides = step.sides(fight)
    counts: dict[Outcome, list[int]] = {}
    for face in range(1, sides + 1):
        outcome = step.read(fight, face)
        if step.rerolled(outcome):
            continue
        entry = counts.setdefault(outcome, [0, face])
        entry[0] += 1
    total = sum(n for n, _ in counts.values())
    return [(o, Fraction(n, total), face) for o, (n, face) in counts.items()]


def apply_outcome(
    fight: Fight, outcome: Outcome, face: int, until_round: int | None = None
) -> tuple[Fight, tuple[Event, ...]]:
    """The duel after the waiting die came up ``outcome`` (on ``face``), advanced."""
    step, rest = _pop(fight)
    if not isinstance(step, ChanceStep):
        raise OprlabError(f"the duel is not waiting for a die ({step!r})")
    fight, events = step.apply(rest, outcome, face)
    fight, more = advance(fight, until_round)
    return fight, events + more


def apply_choice(
    fight: Fight, action: Action, until_round: int | None = None
) -> tuple[Fight, tuple[Event, ...]]:
    """The duel after the waiting decision was ``action``, advanced.

    Raises:
        IllegalChoiceError: ``action`` is not one of the options.
    """
    step, rest = _pop(fight)
    if not isinstance(step, DecisionStep):
        raise OprlabError(f"the duel is not waiting for a decision ({step!r})")
    options = step.options(fight)
    if action not in options:
        raise IllegalChoiceError(
            f"{action} is not a choice here; the options are: {', '.join(map(str, options))}"
        )
    fight, events = step.apply(rest, action)
    fight, more = advance(fight, until_round)
    return fight, events + more


def _roll(fight: Fight, step: ChanceStep, dice: Dice) -> tuple[Outcome, int]:
    sides = step.sides(fight)
    for _ in range(1000):
        face = dice.roll(sides)
        outcome = step.read(fight, face)
        if not step.rerolled(outcome):
            return outcome, face
    raise OprlabError(f"{step!r} kept being rolled again")


def play(
    duel: Duel | Fight,
    commanders: Sequence[DuelCommander],
    rng: np.random.Generator,
    *,
    rounds: int | None = None,
) -> tuple[Fight, tuple[Event, ...]]:
    """Play a duel (or go on from a fight in progress) with dice from ``rng``.

    Args:
        duel: the duel to start, or a fight to go on with.
        commanders: side 0's and side 1's habits.
        rng: the only source of randomness.
        rounds: stop once this round is over (``None``: play to the end).

    Returns:
        The fight where it stopped, and its account.
    """
    fight = new_fight(duel) if isinstance(duel, Duel) else duel
    dice = Dice(rng)
    fight, first = advance(fight, rounds)
    events: list[Event] = list(first)
    for _ in range(MAX_STEPS):
        step = next_step(fight, rounds)
        if step is None:
            return fight, tuple(events)
        if isinstance(step, DecisionStep):
            options = step.options(fight)
            action = commanders[step.side].choose(fight, step, options)
            fight, new = apply_choice(fight, action, rounds)
        else:
            outcome, face = _roll(fight, step, dice)
            fight, new = apply_outcome(fight, outcome, face, rounds)
        events.extend(new)
    raise OprlabError(f"a duel ran past {MAX_STEPS} steps")
