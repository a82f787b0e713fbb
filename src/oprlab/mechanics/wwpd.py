"""The WWPD dice convention (seed 004_b5c87f7769291d1c, "Dice Conventions").

WWPD rolls one d6 against a target number X+ that modifiers may push off either end of the die,
and keeps every result possible by rerolling once at the extremes:

* ``2 <= X <= 6``: succeed on a die of X or more.
* ``X <= 1`` ("1+ or better"): reroll a 1; fail only if the reroll is a 1 too (double 1s).
* ``X >= 7``: reroll a 6; succeed only if the reroll is a 6 too (double 6s). The author rejected
  a graded 7/8/9 scale, so every X >= 7 is the same.
* To-wound against an armoured vehicle at 7+ cannot succeed (no roll is made).

"Dice may only ever be re-rolled once", so a check is at most two dice. Both paths are one rule:
after the optional reroll, the check succeeds if the die shown is at least ``X`` clamped to
``2..6``. :func:`needs_reroll` and :func:`succeeds` state it once; listing
(:meth:`Wwpd.outcomes`) and sampling (:meth:`Wwpd.sample`) both call them, and the vectorised
:func:`sample_successes` is their numpy form (tested against them).

May import ``oprlab.prob``, ``oprlab.errors`` and ``oprlab.mechanics.base``/``registry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from oprlab.errors import OptionError, check_range
from oprlab.mechanics.base import Check, Mechanic, Outcome, State, Test
from oprlab.prob import Dist

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: The lowest target accepted. Any target <= 1 behaves alike; far lower ones are a caller's bug.
MIN_TARGET = -10
#: The highest target accepted. Any target >= 7 behaves alike; far higher ones are a caller's bug.
MAX_TARGET = 20

#: Checks whose ``target`` is not an X+ number (a marker count, a D100 chance): not WWPD rolls.
_NOT_X_PLUS = frozenset({Test.WOUND_EFFECT, Test.STRIKE, Test.DEFENCE})

_FACES = range(1, 7)
_SIXTH = Fraction(1, 6)


def check_target(target: int, where: str = "target") -> int:
    """Return ``target`` if it is within ``MIN_TARGET..MAX_TARGET``, else raise OptionError."""
    return check_range(where, target, MIN_TARGET, MAX_TARGET)


def cannot_succeed(target: int, *, armoured_vehicle: bool = False) -> bool:
    """The one exception: to-wound a buttoned-up tank needing 7 or more is impossible."""
    return armoured_vehicle and target >= 7


def needs_reroll(target: int, first: int) -> bool:
    """Whether the first die is rerolled: a 1 at 1+ or better, a 6 at 7+."""
    return (target <= 1 and first == 1) or (target >= 7 and first == 6)


def succeeds(target: int, final: int) -> bool:
    """Whether the die shown after the optional reroll succeeds.

    At ``X <= 1`` the final die is either a first die of 2..6 or the reroll of a 1, and succeeds
    unless it is a 1; at ``X >= 7`` it succeeds only as a reroll of 6 that shows 6 (a first die
    below 6 fails). Both are "final die >= X clamped to 2..6".
    """
    return final >= min(max(target, 2), 6)


@dataclass(frozen=True, slots=True)
class RollPath:
    """One way a WWPD check can go: the dice rolled (one or two) and whether it succeeds."""

    dice: tuple[int, ...]
    success: bool
    probability: Fraction


@lru_cache(maxsize=64)
def roll_paths(target: int, *, armoured_vehicle: bool = False) -> tuple[RollPath, ...]:
    """Every (first die, reroll) path of a check at ``target``, each with its probability.

    An impossible check (armoured vehicle at 7+) has one path with no dice at all.
    """
    check_target(target)
    if cannot_succeed(target, armoured_vehicle=armoured_vehicle):
        return (RollPath((), False, Fraction(1)),)
    paths: list[RollPath] = []
    for first in _FACES:
        if needs_reroll(target, first):
            for second in _FACES:
                paths.append(RollPath((first, second), succeeds(target, second), _SIXTH * _SIXTH))
        else:
            paths.append(RollPath((first,), succeeds(target, first), _SIXTH))
    return tuple(paths)


def _outcome(dice: tuple[int, ...], success: bool) -> Outcome:
    # natural = the die finally shown; fumble = it is a 1 (which always fails); WWPD has no crits.
    natural = dice[-1] if dice else 0
    return Outcome(
        success=success, natural=natural, critical=False, fumble=natural == 1, quality=int(success)
    )


@lru_cache(maxsize=128)
def p_success(target: int, *, armoured_vehicle: bool = False) -> Fraction:
    """Exact chance that a WWPD check at ``target`` succeeds (closed form, cached).

    ``2..6`` gives ``(7 - X)/6``; ``X <= 1`` gives 35/36; ``X >= 7`` gives 1/36, or 0 to-wound
    against an armoured vehicle.
    """
    check_target(target)
    if cannot_succeed(target, armoured_vehicle=armoured_vehicle):
        return Fraction(0)
    if target <= 1:
        return Fraction(35, 36)
    if target >= 7:
        return Fraction(1, 36)
    return Fraction(7 - target, 6)


def sample_successes(
    target: int, dice: int, rng: np.random.Generator, *, armoured_vehicle: bool = False
) -> int:
    """Roll ``dice`` WWPD checks at ``target`` at once and count the successes (Monte Carlo).

    Every die is drawn with a possible reroll beside it, so the count follows the same rule as
    :meth:`Wwpd.sample`, vectorised with numpy.
    """
    check_target(target)
    if dice < 0:
        raise OptionError("number of dice out of range", value=dice, expected="0 or more")
    if dice == 0 or cannot_succeed(target, armoured_vehicle=armoured_vehicle):
        return 0
    first: npt.NDArray[np.int64] = rng.integers(1, 7, size=dice)
    second: npt.NDArray[np.int64] = rng.integers(1, 7, size=dice)
    import numpy as np  # with the rng's arrays: loaded already

    final = first
    if target <= 1 or target >= 7:
        edge = 1 if target <= 1 else 6  # the face rerolled: 1s at 1+ or better, 6s at 7+
        final = np.where(first == edge, second, first)
    return int(np.count_nonzero(final >= min(max(target, 2), 6)))


class Wwpd(Mechanic):
    """The WWPD d6 roll with once-only rerolls at the extremes (seed 004, "Dice Conventions").

    The difficulty of a check is ``check.base_difficulty - check.modifier`` (a positive modifier
    is a bonus). Outcomes: ``natural`` is the die finally shown (``0`` when no roll is made),
    ``fumble`` is that die being a 1 (which always fails), ``critical`` is always False (WWPD has
    no critical hits) and ``quality`` is 1 for a success, 0 for a failure. ``Check`` fields for
    OPR rules (``critical_from``, ``tough``, ``pool_size``, owners) do not apply and are ignored.
    """

    name: ClassVar[str] = "wwpd"
    summary: ClassVar[str] = (
        "WWPD d6: X+ with 1+ rerolling 1s once and 7+ needing a 6 then a 6 (seed 004)"
    )

    @staticmethod
    def difficulty(check: Check) -> int:
        """The target number of ``check`` after modifiers, validated."""
        if check.test in _NOT_X_PLUS:
            raise OptionError(
                "the WWPD roll only answers X+ checks",
                value=str(check.test),
                expected="hit, to_wound, save, quality, morale or generic",
                where="check.test",
            )
        if check.unmodified_six_only:
            raise OptionError(
                "WWPD has no 'unmodified 6 only' checks (that is OPR's Fatigue)",
                value=True,
                expected="a check without Fatigue",
                where="check.unmodified_six_only",
            )
        return check_target(check.base_difficulty - check.modifier, "check target after modifiers")

    @staticmethod
    def _vehicle(check: Check) -> bool:
        return check.armoured_vehicle and check.test == Test.TO_WOUND

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        """Every (first die, reroll) path, merged by the outcome it gives."""
        paths = roll_paths(self.difficulty(check), armoured_vehicle=self._vehicle(check))
        return Dist.from_pairs((_outcome(p.dice, p.success), p.probability) for p in paths)

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        """Roll one die, reroll it once if the target is off the die, and report the result."""
        target = self.difficulty(check)
        if cannot_succeed(target, armoured_vehicle=self._vehicle(check)):
            return _outcome((), False)
        first = int(rng.integers(1, 7))
        dice: tuple[int, ...] = (first,)
        if needs_reroll(target, first):
            dice = (first, int(rng.integers(1, 7)))
        return _outcome(dice, succeeds(target, dice[-1]))

    def p_success(self, check: Check, state: State = None) -> Fraction:
        """Exact chance of success by the closed form (same as summing :meth:`outcomes`)."""
        return p_success(self.difficulty(check), armoured_vehicle=self._vehicle(check))


#: This module's mechanic for the registry: name -> (factory, summary).
MECHANICS = {"wwpd": (Wwpd, Wwpd.summary)}
