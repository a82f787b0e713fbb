"""DragonQuest's opposed-rolling playtest against the current rules, one strike at a time
(seed 001_7377b7b33dc9f88d), and the playtest's stated intents ("Why?") checked with numbers.

Pure functions behind ``oprlab compare-mechanics --dq``; the command line only parses and prints.
Definitions:

* P(hit): result quality >= 1 (opposed), a roll within SC - defence or a natural 01 (current).
* P(endurance): result >= 3 (Crucial: Endurance) under both (current endurance hits are 3 on
  the Table 2 numbering).
* P(blocked): the strike was good enough on its own but the defence stopped it. Opposed: attack
  quality >= 1 and result quality 0 (Table 2 "Blocked", the playtest's "1-1=0"). Current: the
  roll was within the strike chance (or a natural 01) but not within SC - defence.
* A claim about one change of the playtest is checked against the playtest *without that
  change*: "an additional quality" against the same ladder with Better merged into Average,
  "qualities above 100 and 200" against the ladder capped at Decisive. Claims that the seed
  states against the current rules (natural 00 and 01) are checked against the current rules.

May import ``oprlab.rules``, ``oprlab.mechanics`` and ``oprlab.prob`` (nothing above analysis).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from oprlab.mechanics.dq import (
    AVERAGE,
    CRUCIAL,
    DECISIVE,
    MAX_CHANCE,
    POOR,
    current_result_dist,
    quality_dist,
    quality_thresholds,
)
from oprlab.rules.dq.resolution import QualityMap, without_better, without_high

__all__ = [
    "HIGH_CHANCES",
    "LOW_DEFENCE",
    "Claim",
    "DqCell",
    "DqFigures",
    "QualityMap",
    "current_figures",
    "dq_cell",
    "dq_claims",
    "opposed_figures",
    "opposed_joint",
    "without_better",
    "without_high",
]

#: Strike chances that always take part in the claims about chances above 100.
HIGH_CHANCES = (150, 200, 250)
#: "Low defence" for the claim that high strike chances are blocked too often.
LOW_DEFENCE = 50


def _same(q: int) -> int:
    return q


@dataclass(frozen=True)
class DqFigures:
    """The chances that matter about one strike at one strike chance and defence (exact)."""

    p_hit: Fraction
    p_endurance: Fraction
    p_grievous: Fraction
    p_blocked: Fraction

    @property
    def p_miss(self) -> Fraction:
        return 1 - self.p_hit

    def to_json(self) -> dict[str, float]:
        return {
            "p_hit": float(self.p_hit),
            "p_endurance": float(self.p_endurance),
            "p_grievous": float(self.p_grievous),
            "p_blocked": float(self.p_blocked),
        }


@lru_cache(maxsize=8192)
def opposed_figures(strike_chance: int, defence: int, ladder: QualityMap = _same) -> DqFigures:
    """Opposed rolls (the playtest), optionally on another quality ladder (exact; cached, as
    the claims ask for the same cells again)."""
    joint = opposed_joint(strike_chance, defence, ladder)

    def p(pred: Callable[[int, int], bool]) -> Fraction:
        return sum((w for (a, d), w in joint if pred(a, d)), Fraction(0))

    return DqFigures(
        p_hit=p(lambda a, d: a - d >= AVERAGE),
        p_endurance=p(lambda a, d: a - d >= CRUCIAL),
        p_grievous=p(lambda a, d: a - d >= DECISIVE),
        p_blocked=p(lambda a, d: a >= AVERAGE and a - d <= POOR),
    )


@lru_cache(maxsize=8192)
def opposed_joint(
    strike_chance: int, defence: int, ladder: QualityMap = _same
) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    """The joint law of (attack quality, defence quality): two independent D100 rolls.

    Products of the two marginals, pair by pair (a 7 x 7 table): much faster than composing
    ``Dist`` objects, and as exact.
    """
    attack = quality_dist(strike_chance).map(ladder).items()
    guard = list(quality_dist(defence).map(ladder).items())
    return tuple(((a, d), pa * pd) for a, pa in attack for d, pd in guard)


@lru_cache(maxsize=8192)
def current_figures(strike_chance: int, defence: int) -> DqFigures:
    """The current subtractive rules (levels on the Table 2 numbering)."""
    dist = current_result_dist(strike_chance, defence)
    alone = current_result_dist(strike_chance, 0).probability(lambda r: r >= AVERAGE)
    hit = dist.probability(lambda r: r >= AVERAGE)
    return DqFigures(
        p_hit=hit,
        p_endurance=dist.probability(lambda r: r >= CRUCIAL),
        p_grievous=dist.probability(lambda r: r >= DECISIVE),
        p_blocked=alone - hit,
    )


@dataclass(frozen=True)
class DqCell:
    """One point of the grid: the playtest's opposed rolls and the current rules."""

    strike_chance: int
    defence: int
    opposed: DqFigures
    current: DqFigures

    def to_json(self) -> dict[str, Any]:
        return {
            "strike_chance": self.strike_chance,
            "defence": self.defence,
            "opposed": self.opposed.to_json(),
            "current": self.current.to_json(),
        }


def dq_cell(strike_chance: int, defence: int) -> DqCell:
    return DqCell(
        strike_chance,
        defence,
        opposed_figures(strike_chance, defence),
        current_figures(strike_chance, defence),
    )


@dataclass(frozen=True)
class Claim:
    """One stated intent of the playtest, the measure that tests it, and the verdict.

    ``passed`` is ``None`` when the grid has no cell the claim is about.
    """

    key: str
    intent: str
    claim: str
    measure: str
    numbers: dict[str, Any] = field(default_factory=dict)
    passed: bool | None = None

    @property
    def verdict(self) -> str:
        return {True: "PASS", False: "FAIL", None: "N/A"}[self.passed]

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "intent": self.intent,
            "claim": self.claim,
            "measure": self.measure,
            "numbers": self.numbers,
            "result": self.verdict,
        }


def _f(x: Fraction) -> float:
    return round(float(x), 6)


def _extremes(values: Iterable[tuple[str, Fraction]]) -> dict[str, Any]:
    items = list(values)
    low = min(items, key=lambda kv: kv[1])
    high = max(items, key=lambda kv: kv[1])
    return {"min": _f(low[1]), "min_at": low[0], "max": _f(high[1]), "max_at": high[0]}


def _natural_only(
    claim: Claim,
    cells: Sequence[tuple[int, int]],
    name: str,
    figure: Callable[[DqFigures], Fraction],
    natural: Fraction,
) -> tuple[Claim, list[tuple[str, Fraction]]]:
    """A claim that ``figure`` is above the natural roll's chance in every cell under opposed
    rolls and exactly that chance under the current rules; also the current figures by cell.

    With no cells there is nothing to measure: no numbers and no verdict.
    """
    opposed = [(_at(sc, d), figure(opposed_figures(sc, d))) for sc, d in cells]
    current = [(_at(sc, d), figure(current_figures(sc, d))) for sc, d in cells]
    if not cells:
        return claim, current
    numbers = {f"opposed_{name}": _extremes(opposed), f"current_{name}": _extremes(current)}
    passed = all(v > natural for _, v in opposed) and all(v == natural for _, v in current)
    return replace(claim, numbers=numbers, passed=passed), current


def _at(sc: int, d: int) -> str:
    return f"SC {sc} vs D {d}"


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values)


def _improves(
    better: Sequence[Fraction], worse: Sequence[Fraction], *, higher: bool
) -> tuple[bool, dict[str, float]]:
    """A change improves a figure if no cell gets worse and the mean gets better.

    "Never worse" rather than "better everywhere": at some cells a change cannot act at all
    (Excellent needs SC > 100 and a defender below Decisive), and that is no failure.
    """
    sign = 1 if higher else -1
    never_worse = all(sign * (a - b) >= 0 for a, b in zip(better, worse, strict=True))
    gain = sign * (_mean(better) - _mean(worse))
    return never_worse and gain > 0, {
        "mean_with": _f(_mean(better)),
        "mean_without": _f(_mean(worse)),
    }


def dq_claims(chances: Sequence[int], defences: Sequence[int]) -> list[Claim]:
    """Each "Why?" of seed 001 that numbers can test, tested over the grid (see module doc)."""
    claims: list[Claim] = []
    natural = Fraction(1, 100)
    grid = [(sc, d) for sc in chances for d in defences]

    # Intent 1, why 3: special qualities predetermined (the attack quality ignores defence).
    spread_opp: list[Fraction] = []
    spread_cur: list[Fraction] = []
    for sc in chances:
        # The attack quality's marginal in the joint law of both rolls, at each defence.
        opp = [
            sum((w for (a, _), w in opposed_joint(sc, d) if a >= CRUCIAL), Fraction(0))
            for d in defences
        ]
        cur = [current_figures(sc, d).p_endurance for d in defences]
        spread_opp.append(max(opp) - min(opp))
        spread_cur.append(max(cur) - min(cur))
    claims.append(
        Claim(
            "predetermined",
            "Defence is rolled rather than subtracted (why 3)",
            "the chance of a special attack quality does not depend on the defender's defence",
            "largest spread over the defence range, at one SC, of P(attack quality >= Crucial); "
            "current rules: of P(endurance hit)",
            {"opposed_max_spread": _f(max(spread_opp)), "current_max_spread": _f(max(spread_cur))},
            all(v == 0 for v in spread_opp),
        )
    )

    # Intent 1, why 4: a miss is possible even at SC = defence + 100, not only on a natural 00.
    plus_100 = [(d + 100, d) for d in defences if d + 100 <= MAX_CHANCE]
    miss, _ = _natural_only(
        Claim(
            "miss_at_plus_100",
            "Defence is rolled rather than subtracted (why 4)",
            "an attacker can miss even with SC 100 more than the defence, not just on a natural 00",
            "P(miss) at SC = defence + 100 for each defence: opposed > 1/100 at every one, "
            "current = 1/100 (natural 00 only)",
        ),
        plus_100,
        "p_miss",
        lambda f: f.p_miss,
        natural,
    )
    claims.append(miss)

    # Intent 1, why 5: a hit is possible against a defence above the SC, not only on a 01.
    above = [(sc, d) for sc, d in grid if d > sc]
    hit, hit_cur = _natural_only(
        Claim(
            "hit_above_sc",
            "Defence is rolled rather than subtracted (why 5)",
            "an attacker can hit a defence greater than its SC, not just on a natural 01",
            "P(hit) where defence > SC: opposed > 1/100 in every cell, current = 1/100 "
            "(natural 01 only)",
        ),
        above,
        "p_hit",
        lambda f: f.p_hit,
        natural,
    )
    claims.append(hit)

    # Intent 2, why 1: the added quality lets low SC attackers hit higher defences.
    numbers: dict[str, Any] = {}
    passed: bool | None = None
    if above:
        with_ = [opposed_figures(sc, d).p_hit for sc, d in above]
        without = [opposed_figures(sc, d, without_better).p_hit for sc, d in above]
        passed, numbers = _improves(with_, without, higher=True)
        numbers = {f"p_hit_{k}": v for k, v in numbers.items()}
        numbers["current_mean_p_hit"] = _f(_mean([v for _, v in hit_cur]))
    claims.append(
        Claim(
            "low_sc_hits",
            "An additional quality of result is added (why 1)",
            "low strike chance attackers have a better chance of hitting higher defences",
            "P(hit) where defence > SC, with the added quality (Better) and without it: "
            "never lower, higher on average",
            numbers,
            passed,
        )
    )

    # Intent 2, why 2: fewer blocked (1-1=0) results.
    with_ = [opposed_figures(sc, d).p_blocked for sc, d in grid]
    without = [opposed_figures(sc, d, without_better).p_blocked for sc, d in grid]
    passed, numbers = _improves(with_, without, higher=False)
    claims.append(
        Claim(
            "fewer_blocked",
            "An additional quality of result is added (why 2)",
            "fewer blocked (1-1=0) results",
            "P(blocked) over the grid with the added quality (Better) and without it: "
            "never higher, lower on average",
            {f"p_blocked_{k}": v for k, v in numbers.items()},
            passed,
        )
    )

    # Intent 3: qualities above 100 and 200: fewer misses, more EN and PSG for high SC.
    high = sorted({*HIGH_CHANCES, *(sc for sc in chances if sc > 100)})
    low_d = [d for d in defences if d <= LOW_DEFENCE] or [min(defences)]
    cells = [(sc, d) for sc in high for d in low_d]
    figs_with = [opposed_figures(sc, d) for sc, d in cells]
    figs_without = [opposed_figures(sc, d, without_high) for sc, d in cells]
    where = f"SC {', '.join(map(str, high))} against defence {', '.join(map(str, low_d))}"
    passed, numbers = _improves(
        [f.p_miss for f in figs_with], [f.p_miss for f in figs_without], higher=False
    )
    numbers = {f"p_miss_{k}": v for k, v in numbers.items()}
    numbers["current_mean_p_miss"] = _f(_mean([current_figures(sc, d).p_miss for sc, d in cells]))
    claims.append(
        Claim(
            "fewer_misses_high_sc",
            "Qualities for strike chances above 100 and 200 (why 1)",
            "fewer misses: high strike chance attackers are blocked less often by low defences",
            f"P(miss) at {where}, with Excellent/Fantastic and without them: never higher, "
            "lower on average (the current rules' figure is shown for context)",
            numbers,
            passed,
        )
    )
    en_ok, en = _improves(
        [f.p_endurance for f in figs_with], [f.p_endurance for f in figs_without], higher=True
    )
    sg_ok, sg = _improves(
        [f.p_grievous for f in figs_with], [f.p_grievous for f in figs_without], higher=True
    )
    claims.append(
        Claim(
            "more_en_psg",
            "Qualities for strike chances above 100 and 200 (why 2)",
            "a greater likelihood of EN and Possible Spec Grievous results",
            f"P(result >= Crucial) and P(result >= Decisive) at {where}, with "
            "Excellent/Fantastic and without them: never lower, higher on average",
            {
                **{f"p_endurance_{k}": v for k, v in en.items()},
                **{f"p_grievous_{k}": v for k, v in sg.items()},
            },
            en_ok and sg_ok,
        )
    )

    # Intent 4: 10/20/40%: "Quality 4 is chance/10, 3 is twice that and 2 twice that again".
    worst, worst_at = -1, ""
    for sc in chances:
        # Better, Crucial and Decisive exist at every chance (only 5 and 6 may be None).
        t2, t3, t4 = (int(t or 0) for t in quality_thresholds(sc)[1:4])
        off = max(abs(t3 - 2 * t4), abs(t2 - 2 * t3))
        if off > worst:
            worst, worst_at = off, f"SC {sc}"
    claims.append(
        Claim(
            "easy_thresholds",
            "Percentages changed to 10, 20 and 40% (why 1)",
            "Decisive is SC/10, Crucial twice that and Better twice that again",
            "largest difference, over the grid's SC, between the Crucial threshold and twice "
            "the Decisive one (and Better and twice Crucial): at most 1, from rounding up",
            {"max_difference": worst, "at": worst_at},
            worst <= 1,
        )
    )
    return claims
