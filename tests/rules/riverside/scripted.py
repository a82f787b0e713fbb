"""Test helpers: dice that come out as scripted, and brute force over every sequence of faces.

:class:`ScriptedDice` is a d6 whose faces are dictated, so a worked example can be rolled
through :func:`~oprlab.rules.riverside.resolve.resolve_attack` face by face. :func:`every_roll`
enumerates every sequence of faces the driver asks for (a depth-first search that extends a
script whenever the driver needs one more die), each with probability (1/6)^length: the exact
distribution by brute force, independent of the exact module's composition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

import numpy as np

from oprlab.mechanics.base import Check, Mechanic, Outcome, State
from oprlab.mechanics.d6 import D6, outcome_table
from oprlab.prob import Dist
from oprlab.rules.gff.resolve import Roller

T = TypeVar("T")


class OutOfDice(Exception):
    """The driver asked for a die beyond the script."""


class ScriptedDice(Mechanic):
    """A d6 that shows the scripted faces in order; records every check it was asked."""

    name = "scripted"
    summary = "d6 faces from a script (tests only)"

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)
        self.used = 0
        self.checks: list[Check] = []

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        return D6().outcomes(check, state)

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        if self.used >= len(self.faces):
            raise OutOfDice
        face = self.faces[self.used]
        self.used += 1
        self.checks.append(check)
        return outcome_table(check)[face - 1]


#: The Roller wants a generator for a random mechanic; scripted dice never draw from it.
_UNUSED_RNG = np.random.default_rng(0)


def scripted_roller(faces: Sequence[int]) -> tuple[Roller, ScriptedDice]:
    dice = ScriptedDice(faces)
    return Roller(dice, None, _UNUSED_RNG), dice


def every_roll(run: Callable[[Roller], T], limit: int = 200_000) -> Dist[T]:
    """The exact distribution of ``run``'s result over every sequence of d6 faces."""
    results: dict[T, Fraction] = {}
    stack: list[tuple[int, ...]] = [()]
    leaves = 0
    while stack:
        prefix = stack.pop()
        roller, dice = scripted_roller(prefix)
        try:
            out = run(roller)
        except OutOfDice:
            stack.extend((*prefix, face) for face in range(1, 7))
            continue
        if dice.used != len(prefix):
            raise AssertionError("the driver did not use its whole script")
        leaves += 1
        if leaves > limit:
            raise AssertionError("brute force too large for a test")
        results[out] = results.get(out, Fraction(0)) + Fraction(1, 6 ** len(prefix))
    return Dist(results)
