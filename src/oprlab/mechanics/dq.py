"""DragonQuest D100 success qualities (seed 001_7377b7b33dc9f88d, opposed-rolling playtest).

The playtest replaces "strike chance minus defence" with two rolls: the attacker rolls D100
against the strike chance and the defender against the defence, each roll earning a *quality*
0..6 from Table 1, and the result quality is attack quality minus defence quality (0 or less is
Blocked). This module owns the D100 roll and its quality: Table 1 (:func:`success_quality`), the
exact distributions (:func:`quality_dist`, :func:`opposed_result_dist`), the 57.4 Success
Quality Table regenerated from the formulas (:func:`success_quality_table`), the ``dq``
mechanic, and, for comparison, the "current" subtractive rules (:func:`current_result`).

Readings (the full list with the clauses is in ``docs/rules/dq.md``):

* "All percentage calculations round up": ``ceil(SC * p / 100)`` in integer arithmetic.
* Excellent and Fantastic exist only for chances above 100 and 200 (their thresholds are then
  at least 1), so a dice modifier that pushes a roll below 1 cannot reach them at SC <= 100/200.
* Roll modifiers are *bonuses taken off the dice roll* (aiming 5, an assassin's 2/rank): a
  positive ``roll_modifier`` (``Check.modifier``) is subtracted from the roll, a negative one
  added. The modified roll is compared with every threshold and may fall below 1 or rise above
  100; it counts as that value. Natural 01 and 00 are judged on the unmodified roll.
* Natural 01 is quality ``max(4, formula)``; with ``table_01_row=True`` it is the printed 57.4
  row instead (SC 1 Average, 2 Better, 3-4 Crucial, 5-100 Decisive, 101-200 Excellent, 201+
  Fantastic; SC 0 Average), modifiers ignored. Natural 00 is quality 0.

May import ``oprlab.prob``, ``oprlab.errors`` and ``oprlab.mechanics.base``/``registry``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar, Literal

from oprlab.errors import OptionError, check_range
from oprlab.mechanics.base import Check, Mechanic, Outcome, State, Test
from oprlab.prob import Dist

if TYPE_CHECKING:
    import numpy as np

#: Highest chance accepted. From SC 1181 every roll but 00 is Fantastic, so no higher chance
#: changes anything; a chance above 1200 is taken to be a mistake.
MAX_CHANCE = 1200
#: Largest dice roll modifier accepted either way (aiming is 5, a rank-10 assassin's surprise 20).
MAX_ROLL_MODIFIER = 100
#: The D100 faces: 1..100, where the face "00" is 100.
ROLLS = range(1, 101)
#: The two natural rolls with a fixed meaning.
NATURAL_01 = 1
NATURAL_00 = 100

#: Quality levels (Table 1 and Table 2 share the numbering).
POOR, AVERAGE, BETTER, CRUCIAL, DECISIVE, EXCELLENT, FANTASTIC = range(7)
QUALITY_NAMES = ("Poor", "Average", "Better", "Crucial", "Decisive", "Excellent", "Fantastic")
QUALITY_LETTERS = ("P", "A", "B", "C", "D", "E", "F")

#: Checks whose target is a D100 chance in percent.
_D100_TESTS = frozenset({Test.STRIKE, Test.DEFENCE, Test.CASTING})
_ROLL_P = Fraction(1, 100)

Rounding = Literal["up", "nearest", "down"]
_ROUNDINGS: tuple[Rounding, ...] = ("up", "nearest", "down")


def check_chance(chance: int, where: str = "chance") -> int:
    """Return ``chance`` if it is a percent in ``0..MAX_CHANCE``, else raise OptionError."""
    return check_range(where, chance, 0, MAX_CHANCE)


def check_roll(roll: int, where: str = "roll") -> int:
    """Return ``roll`` if it is a D100 face ``1..100`` (00 is 100), else raise OptionError."""
    return check_range(where, roll, 1, 100)


def check_roll_modifier(modifier: int, where: str = "roll_modifier") -> int:
    """Return ``modifier`` if it is within ``±MAX_ROLL_MODIFIER``, else raise OptionError."""
    return check_range(where, modifier, -MAX_ROLL_MODIFIER, MAX_ROLL_MODIFIER)


def percent_of(value: int, percent: int, rounding: Rounding = "up") -> int:
    """``percent``% of ``value`` rounded as asked, in exact integer arithmetic.

    "All percentage calculations round up": 10% of 21 is 2.1, which counts as 3. ``nearest``
    rounds halves up (1.5 -> 2).
    """
    product = value * percent
    if rounding == "up":
        return -(-product // 100)
    if rounding == "down":
        return product // 100
    return (2 * product + 100) // 200


def quality_thresholds(chance: int) -> tuple[int | None, ...]:
    """The highest modified roll earning each quality 1..6 at ``chance`` (Table 1).

    Index 0 is Average (the chance itself). ``None`` marks Excellent at SC <= 100 and Fantastic
    at SC <= 200: those qualities exist only for chances above 100 and 200.
    """
    return (
        chance,
        percent_of(chance, 40),
        percent_of(chance, 20),
        percent_of(chance, 10),
        percent_of(chance - 100, 10) if chance > 100 else None,
        percent_of(chance - 200, 10) if chance > 200 else None,
    )


def _formula_quality(modified_roll: int, chance: int) -> int:
    # Thresholds are nested (each at most the one before), so the quality is the count met.
    quality = POOR
    for level, threshold in enumerate(quality_thresholds(chance), start=AVERAGE):
        if threshold is None or modified_roll > threshold:
            break
        quality = level
    return quality


def printed_01_quality(chance: int) -> int:
    """The quality of a natural 01 as the seed's printed 57.4 table gives it (its roll-1 row).

    SC 1 Average, 2 Better, 3-4 Crucial, 5-100 Decisive, 101-200 Excellent, 201+ Fantastic. The
    table has no SC 0 column; we read SC 0 like SC 1 (a natural 01 still succeeds).
    """
    if chance <= 1:
        return AVERAGE
    if chance == 2:
        return BETTER
    if chance <= 4:
        return CRUCIAL
    if chance <= 100:
        return DECISIVE
    if chance <= 200:
        return EXCELLENT
    return FANTASTIC


def _quality(roll: int, chance: int, roll_modifier: int, table_01_row: bool) -> int:
    if roll == NATURAL_00:
        return POOR
    if roll == NATURAL_01 and table_01_row:
        return printed_01_quality(chance)
    quality = _formula_quality(roll - roll_modifier, chance)
    if roll == NATURAL_01:
        return max(DECISIVE, quality)
    return quality


def success_quality(
    roll: int, chance: int, roll_modifier: int = 0, *, table_01_row: bool = False
) -> int:
    """The success quality 0..6 of one D100 roll against a chance (Table 1).

    Args:
        roll: the natural D100 roll, 1..100 (the face 00 is 100).
        chance: the success chance (SC or Defence) in percent, modifiers included.
        roll_modifier: a bonus taken off the dice roll (aiming: 5); negative adds to the roll.
        table_01_row: judge a natural 01 by the printed 57.4 roll-1 row, not by the text.
    """
    check_roll(roll)
    check_chance(chance)
    check_roll_modifier(roll_modifier)
    return _quality(roll, chance, roll_modifier, table_01_row)


def quality_dist(chance: int, roll_modifier: int = 0, *, table_01_row: bool = False) -> Dist[int]:
    """The exact distribution of the success quality over the 100 equally likely rolls."""
    check_chance(chance)
    check_roll_modifier(roll_modifier)
    return _quality_dist(chance, roll_modifier, table_01_row)


@lru_cache(maxsize=4096)
def _quality_dist(chance: int, roll_modifier: int, table_01_row: bool) -> Dist[int]:
    # Dist is immutable, so sharing one per (chance, modifier) is safe and saves the 100 rolls.
    return Dist.uniform(_quality(r, chance, roll_modifier, table_01_row) for r in ROLLS)


def opposed_qualities_dist(
    strike_chance: int,
    defence: int,
    strike_roll_modifier: int = 0,
    defence_roll_modifier: int = 0,
    *,
    table_01_row: bool = False,
) -> Dist[tuple[int, int]]:
    """The joint distribution of (attack quality, defence quality): two independent rolls."""
    attack = quality_dist(strike_chance, strike_roll_modifier, table_01_row=table_01_row)
    guard = quality_dist(defence, defence_roll_modifier, table_01_row=table_01_row)
    return attack.bind(lambda a: guard.map(lambda d: (a, d)))


def result_quality(attack_quality: int, defence_quality: int) -> int:
    """Result Quality = Attack Quality - Defence Quality; zero or less is 0, Blocked."""
    return max(POOR, attack_quality - defence_quality)


def opposed_result_dist(
    strike_chance: int,
    defence: int,
    strike_roll_modifier: int = 0,
    defence_roll_modifier: int = 0,
    *,
    table_01_row: bool = False,
) -> Dist[int]:
    """The exact distribution of the result quality 0..6 (Table 2 levels) of one strike."""
    joint = opposed_qualities_dist(
        strike_chance,
        defence,
        strike_roll_modifier,
        defence_roll_modifier,
        table_01_row=table_01_row,
    )
    return joint.map(lambda ad: result_quality(*ad))


# --- The current (subtractive) DQ rules, for comparison --------------------------------------

#: Current-rules result levels on the Table 2 numbering (the current rules have no 2, 5 or 6).
CURRENT_FATIGUE_HIT = AVERAGE
CURRENT_ENDURANCE_HIT = CRUCIAL
CURRENT_GRIEVOUS_HIT = DECISIVE
#: "Endurance hit within 15% of that chance" and "possible specific grievous within 5%".
CURRENT_ENDURANCE_PERCENT = 15
CURRENT_GRIEVOUS_PERCENT = 5


def _check_rounding(rounding: str) -> Rounding:
    for known in _ROUNDINGS:
        if rounding == known:
            return known
    raise OptionError(
        "unknown rounding", value=rounding, expected="one of " + ", ".join(_ROUNDINGS)
    )


def _current(
    roll: int, adjusted: int, rounding: Rounding, extra_percent: int, grievous_percent: int = 0
) -> int:
    if roll == NATURAL_00:
        return POOR
    if roll == NATURAL_01:
        adjusted = max(adjusted, 1)  # a natural 01 always hits: judged as if the chance were 1
    elif roll > adjusted:
        return POOR
    grievous = CURRENT_GRIEVOUS_PERCENT + extra_percent + grievous_percent
    if roll <= percent_of(adjusted, grievous, rounding):
        return CURRENT_GRIEVOUS_HIT
    if roll <= percent_of(adjusted, CURRENT_ENDURANCE_PERCENT + extra_percent, rounding):
        return CURRENT_ENDURANCE_HIT
    return CURRENT_FATIGUE_HIT


def current_result(
    roll: int,
    strike_chance: int,
    defence: int,
    *,
    rounding: Rounding = "up",
    extra_percent: int = 0,
    grievous_percent: int = 0,
) -> int:
    """The result level of one roll under the current subtractive rules (Table 2 numbering).

    The roll hits if it is at most ``strike_chance - defence``; a hit is an endurance hit (3)
    if the roll is at most 15% of that adjusted chance, and an endurance hit with a possible
    specific grievous (4) if at most 5% of it; any other hit is a fatigue hit (1). Natural 00
    always misses; natural 01 always hits, judged against an adjusted chance of at least 1.

    Args:
        roll: the natural D100 roll, 1..100.
        strike_chance: the attacker's strike chance, modifiers included.
        defence: the defender's defence, subtracted from the strike chance.
        rounding: how the 15% and 5% are rounded: ``up`` like the playtest (default),
            ``nearest`` or ``down``.
        extra_percent: points added to both percentages (current aiming: 5, making 20% and 10%).
        grievous_percent: points added to the grievous percentage only (the current rules'
            assassin: 2 per rank from surprise, 1 from behind, 1 per 3 ranks in front).
    """
    check_roll(roll)
    check_chance(strike_chance, "strike_chance")
    check_chance(defence, "defence")
    check_range("extra_percent", extra_percent, 0, 85)
    check_range("grievous_percent", grievous_percent, 0, 85)
    return _current(
        roll,
        strike_chance - defence,
        _check_rounding(rounding),
        extra_percent,
        grievous_percent,
    )


def current_result_dist(
    strike_chance: int,
    defence: int,
    *,
    rounding: Rounding = "up",
    extra_percent: int = 0,
) -> Dist[int]:
    """The exact distribution of :func:`current_result` over the 100 rolls."""
    check_chance(strike_chance, "strike_chance")
    check_chance(defence, "defence")
    check_range("extra_percent", extra_percent, 0, 85)
    mode = _check_rounding(rounding)
    adjusted = strike_chance - defence
    return Dist.uniform(_current(r, adjusted, mode, extra_percent) for r in ROLLS)


# --- The 57.4 Success Quality Table, regenerated ---------------------------------------------


@dataclass(frozen=True, slots=True)
class ChanceRange:
    """A range of success chances, as a 57.4 cell prints it: ``"3-4"``, ``"1"``, ``"201+"``."""

    low: int
    high: int | None  # None: open-ended

    def __str__(self) -> str:
        if self.high is None:
            return f"{self.low}+"
        if self.high == self.low:
            return str(self.low)
        return f"{self.low}-{self.high}"


#: The printed 57.4 table stops at SC 300: a range starting above it is printed "-".
TABLE_LAST_CHANCE = 300


def success_quality_table(
    *, table_01_row: bool = False, last_chance: int = TABLE_LAST_CHANCE
) -> dict[tuple[int, int], ChanceRange | None]:
    """The 57.4 Success Quality Table, regenerated from Table 1.

    For each roll 1..100 and quality 1..6, the range of chances (from SC 1, the table's first
    column) at which that roll earns exactly that quality. ``None`` (printed "-") where no chance
    gives it, or the range would begin above ``last_chance``; a range beginning at or below it is
    given whole, even past it (the printed table's convention: roll 50 Crucial is 246-490).
    Fantastic ranges never end ("201+").
    """
    check_range("last_chance", last_chance, 1, MAX_CHANCE)
    table: dict[tuple[int, int], ChanceRange | None] = {}
    for roll in ROLLS:
        seen: dict[int, list[int]] = {}
        for chance in range(1, MAX_CHANCE + 1):
            quality = _quality(roll, chance, 0, table_01_row)
            bounds = seen.setdefault(quality, [chance, chance])
            bounds[1] = chance
        for quality in range(AVERAGE, FANTASTIC + 1):
            if quality not in seen or seen[quality][0] > last_chance:
                table[roll, quality] = None
                continue
            low, high = seen[quality]
            table[roll, quality] = ChanceRange(low, None if high == MAX_CHANCE else high)
    return table


# --- The mechanic ------------------------------------------------------------------------------


class Dq(Mechanic):
    """DragonQuest D100 against a chance, graded by Table 1 into qualities 0..6.

    ``Check.target`` is the chance in percent with every chance modifier already added (aiming's
    +20 included); ``Check.modifier`` is the dice roll modifier only, positive a bonus taken off
    the roll (aiming's 5). ``Outcome.quality`` is the level, ``success`` is quality >= 1,
    ``natural`` the roll (00 = 100), ``critical`` marks a natural 01 (always Decisive or better
    under the text). DQ fumbles depend on weapon rank and are not a mechanic's business:
    ``fumble`` stays False.
    """

    name: ClassVar[str] = "dq"
    summary: ClassVar[str] = (
        "DragonQuest D100 success qualities 0-6 (opposed-rolling playtest, Table 1)"
    )

    def __init__(self, *, table_01_row: bool = False) -> None:
        self.table_01_row = table_01_row

    def __repr__(self) -> str:
        return f"Dq(table_01_row={self.table_01_row!r})"

    def _validate(self, check: Check) -> tuple[int, int]:
        if check.test not in _D100_TESTS:
            raise OptionError(
                "not a D100 check",
                value=str(check.test),
                expected="one of " + ", ".join(sorted(str(t) for t in _D100_TESTS)),
                where="check.test",
            )
        if check.replacements:
            raise OptionError(
                "DQ chances have no replacement effects",
                value=check.replacements,
                expected="() with the chance in check.target",
                where="check.replacements",
            )
        chance = check_chance(check.target, "check.target")
        modifier = check_roll_modifier(check.modifier, "check.modifier")
        return chance, modifier

    def _outcome(self, roll: int, chance: int, modifier: int) -> Outcome:
        quality = _quality(roll, chance, modifier, self.table_01_row)
        return Outcome(
            success=quality >= AVERAGE,
            natural=roll,
            critical=roll == NATURAL_01,
            quality=quality,
        )

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        """The 100 rolls, each 1/100, graded by Table 1."""
        chance, modifier = self._validate(check)
        return Dist.from_pairs((self._outcome(r, chance, modifier), _ROLL_P) for r in ROLLS)

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        """Roll D100 once and grade it (same code as :meth:`outcomes`)."""
        chance, modifier = self._validate(check)
        return self._outcome(int(rng.integers(1, 101)), chance, modifier)


#: This module's mechanic for the registry: name -> (factory, summary).
MECHANICS = {"dq": (Dq, Dq.summary)}
