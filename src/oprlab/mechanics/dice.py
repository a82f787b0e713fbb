"""The dice: the one place a check is rolled and the mechanic's state (clocks, tokens, bennies)
is kept.

A game state owns one :class:`Dice` (its mechanic, the mechanic's state and the seed's dice
stream); every roll of the game goes through it, so no caller copies the mechanic's state out
and writes it back. The rules layer's resolvers take the same object, and the odds and
Monte Carlo paths make their own from a mechanic, a state and a generator.

May import ``oprlab.mechanics.base`` only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oprlab.mechanics.base import Check, Mechanic, Outcome, State

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Dice"]


class Dice:
    """Rolls checks with one mechanic, threading its state.

    Attributes:
        mechanic: how checks come out (d6, the clock, clock-bennies...).
        state: the mechanic's state after the latest roll or spend (``None`` for the d6).
        rng: the dice stream (``None`` only for a deterministic mechanic).
    """

    __slots__ = ("mechanic", "rng", "state")

    def __init__(self, mechanic: Mechanic, state: State, rng: np.random.Generator | None):
        self.mechanic = mechanic
        self.state = state
        self.rng = rng

    def roll(self, check: Check) -> Outcome:
        if self.mechanic.deterministic:
            ((outcome, _),) = self.mechanic.outcomes(check, self.state).items()
        else:
            if self.rng is None:
                raise ValueError(f"{self.mechanic.name} needs a random generator")
            outcome = self.mechanic.sample(check, self.state, self.rng)
        if outcome.state is not None:
            self.state = outcome.state
        return outcome
