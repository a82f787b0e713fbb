"""The OPR d6 roll: one six-sided die against a difficulty (seeds 002 "Rolling Dice", 003).

Every OPR check is one die: the difficulty starts at the base difficulty (Quality, Defense, "on a
X+"), replacement effects come next (the roller picks their order, so the lowest stands), then
modifiers. A natural 1 always fails and a natural 6 always succeeds. The GFF wound effect is not a
test but a table lookup (die + markers, Knocked Out on 5+X), so those overrides do not apply to it.

Each face's outcome is computed once per :class:`~oprlab.mechanics.base.Check` and cached, so
:meth:`D6.outcomes`, :meth:`D6.sample` and the vectorised :func:`face_table` share one code path.

May import ``oprlab.prob``, ``oprlab.errors`` and ``oprlab.mechanics.base``/``registry`` only.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Mechanic, Outcome, State, Test
from oprlab.prob import Dist

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

FACES = (1, 2, 3, 4, 5, 6)
#: OPR stats and "on a X+" rolls run from 2+ to 6+; harder or easier rolls are modifiers.
LOWEST_DIFFICULTY = 2
HIGHEST_DIFFICULTY = 6
#: Check kinds that belong to other systems' mechanics (WWPD, DQ), not to OPR.
FOREIGN_TESTS = frozenset({Test.TO_WOUND, Test.SAVE, Test.STRIKE, Test.DEFENCE})


def validate_check(check: Check, mechanic: str = "d6") -> None:
    """Raise :class:`OptionError` for a check no OPR mechanic (d6 or clock) can resolve.

    Shared by the d6 and the clock so both refuse the same inputs with the same words.
    """
    where = f"{mechanic} check"
    if check.test in FOREIGN_TESTS:
        raise OptionError(
            f"the {mechanic} mechanic resolves OPR checks only",
            value=str(check.test),
            expected="hit, defense, quality, morale, wound_effect, regeneration, casting, generic",
            where=where,
        )
    if not LOWEST_DIFFICULTY <= check.critical_from <= 6:
        raise OptionError(
            "critical_from out of range",
            value=check.critical_from,
            expected="2 to 6 (6 is a natural 6; 5 widens criticals to 5-6)",
            where=where,
        )
    if check.test is Test.WOUND_EFFECT:
        if check.target < 0:
            raise OptionError(
                "a wound effect's target is the number of wound markers",
                value=check.target,
                expected="0 or more",
                where=where,
            )
        if check.tough < 1:
            raise OptionError(
                "Tough(X) out of range", value=check.tough, expected="1 or more", where=where
            )
        if check.replacements or check.unmodified_six_only:
            raise OptionError(
                "a wound effect is a table lookup: it takes no replacement effects or Fatigue",
                value=check.replacements or "Fatigue",
                expected="no replacement effect and no Fatigue",
                where=where,
            )
        return
    for value in (check.target, *check.replacements):
        if not LOWEST_DIFFICULTY <= value <= HIGHEST_DIFFICULTY:
            raise OptionError(
                "difficulty out of range",
                value=value,
                expected="2 to 6 (2+ to 6+); express harder or easier rolls as modifiers",
                where=where,
            )


def face_outcome(check: Check, natural: int) -> Outcome:
    """The outcome of ``check`` when the die shows ``natural`` (no validation; see below).

    Rule text: seed 002 "Rolling Dice" (difficulty, overrides), "Critical Hit" (a widened
    critical must succeed), seed 003 "Wound Effects" and Tough(X).
    """
    fumble = natural == 1
    if check.test is Test.WOUND_EFFECT:
        # Shaken's +1 to the roll arrives as modifier -1 (a penalty for the model).
        knocked_out = natural + check.target - check.modifier >= 5 + check.tough
        return Outcome(not knocked_out, natural, False, fumble, int(not knocked_out))
    if check.unmodified_six_only:
        success = natural == 6
    elif natural == 1:
        success = False
    elif natural == 6:
        success = True
    else:
        success = natural >= check.base_difficulty - check.modifier
    critical = success and natural >= check.critical_from
    return Outcome(success, natural, critical, fumble, int(success))


@lru_cache(maxsize=8192)
def outcome_table(check: Check) -> tuple[Outcome, ...]:
    """The outcome of each face 1..6 (index 0 is face 1), validated and cached per check."""
    validate_check(check)
    return tuple(face_outcome(check, n) for n in FACES)


@lru_cache(maxsize=8192)
def _dist(check: Check) -> Dist[Outcome]:
    return Dist.uniform(outcome_table(check))


@lru_cache(maxsize=8192)
def face_table(check: Check) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Read-only ``(success, critical)`` boolean arrays indexed by ``face - 1``.

    The vectorised form of :func:`face_outcome`: a Monte Carlo draws a faces array with one
    ``rng.integers(1, 7, size=n)`` call and looks every result up at once.
    """
    import numpy as np  # only for the vectorised paths: `oprlab check` starts without it

    table = outcome_table(check)
    success = np.array([o.success for o in table], dtype=np.bool_)
    critical = np.array([o.critical for o in table], dtype=np.bool_)
    success.flags.writeable = False
    critical.flags.writeable = False
    return success, critical


def resolve_faces(
    check: Check, faces: npt.NDArray[np.integer]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """``(success, critical)`` for an array of natural faces 1..6, by table lookup."""
    success, critical = face_table(check)
    import numpy as np

    index = np.asarray(faces) - 1
    return success[index], critical[index]


class D6(Mechanic):
    """The OPR d6 roll; stateless, so ``state`` is ignored and outcomes carry ``None``."""

    name = "d6"
    summary = "OPR d6: one die against a difficulty; natural 1 fails, natural 6 succeeds"
    deterministic = False

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        """The six faces, each 1/6; faces with equal outcomes merge."""
        return _dist(check)

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        """One die: a single ``rng.integers`` call and a cached table lookup."""
        return outcome_table(check)[int(rng.integers(6))]

    def __repr__(self) -> str:
        return "D6()"


#: This module's mechanic for the registry: name -> (factory, summary).
MECHANICS = {"d6": (D6, D6.summary)}
