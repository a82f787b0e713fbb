"""How one melee strike is resolved: the playtest's opposed rolls or the current subtraction.

Both resolutions read the same dice the same way the fight rolls them (seed 001_7377b7b33dc9f88d):

* ``opposed`` (the playtest, "Steps" 1-4): the attacker's D100 gives an attack quality against
  the strike chance, the defender's D100 a defence quality against the Defence (Table 1), and
  the result quality is their difference (Table 2 level; 0 or less is Blocked). An evading
  defender may parry when its defence quality is two or more better ("Evading").
* ``current`` (the rules the playtest replaces, as :func:`oprlab.mechanics.dq.current_result`
  reads them): one D100 against strike chance - Defence, a hit within it, an endurance hit
  within 15% of it and a possible grievous within 5%. An evading defender may parry when the
  attack misses by 30 or more ("the current miss by 30%").

A ``ladder`` replaces the playtest's quality ladder, to measure one of its changes alone:
``no_better`` merges Better into Average, ``no_high`` caps qualities at Decisive. A fumble is a
natural 00 on the attack roll under both (our stand-in trigger: docs/rules/dq.md).

May import ``oprlab.errors``, ``oprlab.prob`` and ``oprlab.mechanics``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from oprlab.mechanics.dq import (
    BETTER,
    DECISIVE,
    NATURAL_00,
    ROLLS,
    Rounding,
    current_result,
    result_quality,
    success_quality,
)
from oprlab.prob import Dist
from oprlab.rules.dq.tables import may_parry

__all__ = [
    "CURRENT_PARRY_MARGIN",
    "LADDERS",
    "Ladder",
    "QualityMap",
    "Resolution",
    "attack_outcome",
    "current_may_parry",
    "defence_quality",
    "is_fumble",
    "ladder_map",
    "land_and_parry",
    "opposed_may_parry",
    "p_lands",
    "p_parry",
    "strike_outcome_dist",
    "without_better",
    "without_high",
]

Resolution = Literal["opposed", "current"]
Ladder = Literal["full", "no_better", "no_high"]
LADDERS: tuple[Ladder, ...] = ("full", "no_better", "no_high")
QualityMap = Callable[[int], int]

#: "Evading is addressed as the current miss by 30% is no longer meaningful": under the current
#: rules an evader may parry an attack that misses by 30 or more.
CURRENT_PARRY_MARGIN = 30


def _same(q: int) -> int:
    return q


def without_better(q: int) -> int:
    """The playtest ladder without its added quality: Better merged into Average, and the
    qualities above it moved down one (seed 001 "An additional quality of result is added")."""
    return q - 1 if q >= BETTER else q


def without_high(q: int) -> int:
    """The playtest ladder without Excellent and Fantastic (qualities above 100 and 200)."""
    return min(q, DECISIVE)


_LADDER_MAPS: dict[str, QualityMap] = {
    "full": _same,
    "no_better": without_better,
    "no_high": without_high,
}


def ladder_map(ladder: Ladder) -> QualityMap:
    """The quality map of a ladder name."""
    return _LADDER_MAPS[ladder]


def is_fumble(roll: int) -> bool:
    """Our stand-in trigger for 57.3's fumble: a natural 00 on the attack roll (both rules)."""
    return roll == NATURAL_00


def attack_quality(
    roll: int, chance: int, roll_modifier: int, *, ladder: Ladder, table_01_row: bool
) -> int:
    """The attacker's quality (Table 1) on the chosen ladder."""
    q = success_quality(roll, chance, roll_modifier, table_01_row=table_01_row)
    return ladder_map(ladder)(q)


def defence_quality(roll: int, defence: int, *, ladder: Ladder, table_01_row: bool) -> int:
    """The defender's quality (Table 1 against its Defence) on the chosen ladder."""
    return ladder_map(ladder)(success_quality(roll, defence, table_01_row=table_01_row))


def opposed_may_parry(attack: int, guard: int) -> bool:
    """ "Evading": the defence quality is two or more better than the attack quality."""
    return may_parry(attack, guard)


def current_may_parry(roll: int, strike_chance: int, defence: int) -> bool:
    """Current evading: the roll misses strike chance - Defence by 30 or more."""
    return roll - (strike_chance - defence) >= CURRENT_PARRY_MARGIN


def attack_outcome(
    roll: int,
    strike_chance: int,
    defence: int,
    *,
    resolution: Resolution,
    roll_modifier: int = 0,
    grievous_percent: int = 0,
    ladder: Ladder = "full",
    table_01_row: bool = False,
    rounding: Rounding = "up",
) -> tuple[int, bool]:
    """What the attack roll alone settles: ``(quality, parry)``.

    Opposed: the attack quality (the defender's roll comes next); ``parry`` is False (it needs
    both rolls). Current: the result level itself and whether an evader may parry. The
    assassin's bonus is ``roll_modifier`` (opposed: off the dice roll) or ``grievous_percent``
    (current: added to the 5% band).
    """
    if resolution == "opposed":
        q = attack_quality(
            roll, strike_chance, roll_modifier, ladder=ladder, table_01_row=table_01_row
        )
        return q, False
    level = current_result(
        roll, strike_chance, defence, rounding=rounding, grievous_percent=grievous_percent
    )
    return level, current_may_parry(roll, strike_chance, defence)


@lru_cache(maxsize=16384)
def strike_outcome_dist(
    strike_chance: int,
    defence: int,
    *,
    resolution: Resolution,
    evading: bool = False,
    roll_modifier: int = 0,
    grievous_percent: int = 0,
    ladder: Ladder = "full",
    table_01_row: bool = False,
    rounding: Rounding = "up",
) -> Dist[tuple[int, bool]]:
    """The exact law of ``(result level, parry allowed)`` of one strike, from the same reading
    of the dice the fight uses (cached: habits ask for the same strikes again and again)."""
    outcomes: dict[tuple[int, bool], Fraction] = {}
    p_roll = Fraction(1, len(ROLLS))
    attack: dict[tuple[int, bool], Fraction] = {}
    for roll in ROLLS:
        key = attack_outcome(
            roll,
            strike_chance,
            defence,
            resolution=resolution,
            roll_modifier=roll_modifier,
            grievous_percent=grievous_percent,
            ladder=ladder,
            table_01_row=table_01_row,
            rounding=rounding,
        )
        attack[key] = attack.get(key, Fraction(0)) + p_roll
    if resolution == "current":
        for (level, parry), p in attack.items():
            key = (level, parry and evading)
            outcomes[key] = outcomes.get(key, Fraction(0)) + p
        return Dist(outcomes)
    guard: dict[int, Fraction] = {}
    for roll in ROLLS:
        g = defence_quality(roll, defence, ladder=ladder, table_01_row=table_01_row)
        guard[g] = guard.get(g, Fraction(0)) + p_roll
    for (a, _), pa in attack.items():
        for g, pg in guard.items():
            key = (result_quality(a, g), evading and opposed_may_parry(a, g))
            outcomes[key] = outcomes.get(key, Fraction(0)) + pa * pg
    return Dist(outcomes)


def p_lands(dist: Dist[tuple[int, bool]], level: int = 1) -> Fraction:
    """P(result level >= ``level``) of a strike outcome law."""
    return dist.probability(lambda lp: lp[0] >= level)


def p_parry(dist: Dist[tuple[int, bool]]) -> Fraction:
    """P(the evader may parry) of a strike outcome law."""
    return dist.probability(lambda lp: lp[1])


@lru_cache(maxsize=16384)
def land_and_parry(
    strike_chance: int,
    defence: int,
    *,
    resolution: Resolution,
    evading: bool = False,
    roll_modifier: int = 0,
    grievous_percent: int = 0,
    ladder: Ladder = "full",
    table_01_row: bool = False,
    rounding: Rounding = "up",
) -> tuple[Fraction, Fraction]:
    """Exact P(the strike lands) and P(an evader may parry it) (cached: habits ask often)."""
    dist = strike_outcome_dist(
        strike_chance,
        defence,
        resolution=resolution,
        evading=evading,
        roll_modifier=roll_modifier,
        grievous_percent=grievous_percent,
        ladder=ladder,
        table_01_row=table_01_row,
        rounding=rounding,
    )
    return p_lands(dist), p_parry(dist)
