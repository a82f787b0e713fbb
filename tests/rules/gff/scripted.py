"""A d6 whose faces a test writes down: hand-worked rolls through the real pipeline.

``ScriptedDie`` answers each check with the next face of its script (via the d6's own face
rule, so modifiers, Fatigue and Tough apply as usual) and records every check it was asked, so a
test can say which dice were rolled, in what order, for what.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from oprlab.mechanics import Check, Mechanic, Outcome, State
from oprlab.mechanics.d6 import D6, face_outcome
from oprlab.prob import Dist
from oprlab.rules.gff.resolve import Roller


class ScriptedDie(Mechanic):
    """Rolls the faces it was given, in order; fails loudly when the script runs out."""

    name = "scripted"
    summary = "a d6 with written-down faces (tests only)"
    deterministic = False

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)
        self.asked: list[Check] = []

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        return D6().outcomes(check, state)

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        if not self.faces:
            raise AssertionError(f"the script ran out of faces at {check}")
        self.asked.append(check)
        return face_outcome(check, self.faces.pop(0))

    @property
    def done(self) -> bool:
        return not self.faces


def scripted_roller(*faces: int) -> tuple[Roller, ScriptedDie]:
    die = ScriptedDie(faces)
    return Roller(die, None, np.random.default_rng(0)), die
