"""``oprlab compare-mechanics``: how swingy is an attack under the d6 and under the clock,
and does the DragonQuest opposed-rolling playtest do what it says?

An edge module: it may import every layer.

``compare-mechanics ATTACKER DEFENDER`` puts the wounds and casualties of one attack side by
side under the d6 and under every registered clock variant (seed 000), with the measures of
:mod:`oprlab.analysis.swing`. A clock is certain once its start is known, so each variant is
shown twice: from the default start (both clocks at 1) and over all 36 pairs of starting
values 1..6 (attacker's, defender's), equally likely, which is the "Random Clocks" variation.

``compare-mechanics --dq`` compares the playtest's opposed rolls with the current subtractive
rules (seed 001) over a grid of strike chance and defence, and checks the playtest's stated
intents (its "Why?" lists) with numbers. The computations are pure functions below
(:func:`dq_cell`, :func:`dq_claims`); definitions:

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
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from oprlab.analysis.efficiency import (
    DEFAULT_RANGE,
    STANDARD_TARGETS,
    EfficiencyReport,
    check_cost,
    efficiency_report,
    standard_target,
)
from oprlab.analysis.odds import OddsResult, Situation, attack_odds
from oprlab.analysis.swing import (
    FAR_DISTANCE,
    Swing,
    clock_start_odds,
    swing,
)
from oprlab.cli.inputs import check_playable, units_army
from oprlab.cli.odds import (
    ATTACKER_HELP,
    CHARGING_HELP,
    COVER_HELP,
    DEFENDER_HELP,
    MELEE_HELP,
    MOVED_HELP,
    RANGE_HELP,
    SYSTEM_HELP,
    Side,
    build_situation,
    check_system,
    fmt_p,
    load_side,
    mechanic_options,
    opr_mechanics,
)
from oprlab.errors import OptionError, UserError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.dq import (
    AVERAGE,
    BETTER,
    CRUCIAL,
    DECISIVE,
    MAX_CHANCE,
    POOR,
    current_result_dist,
    quality_dist,
    quality_thresholds,
)
from oprlab.units.load import load_unit_ref
from oprlab.units.model import Unit

__all__ = [
    "DEFAULT_CHANCES",
    "DEFAULT_DEFENCES",
    "Claim",
    "DqCell",
    "DqFigures",
    "MechanicRow",
    "compare_mechanics",
    "current_figures",
    "dq_cell",
    "dq_claims",
    "efficiency",
    "mechanic_rows",
    "opposed_figures",
    "opposed_joint",
    "parse_range",
    "register",
]

#: Default grid of ``--dq``: strike chance 20..120 and defence 0..80, in steps of 10.
DEFAULT_CHANCES = "20:120:10"
DEFAULT_DEFENCES = "0:80:10"
#: Strike chances that always take part in the claims about chances above 100.
HIGH_CHANCES = (150, 200, 250)
#: "Low defence" for the claim that high strike chances are blocked too often.
LOW_DEFENCE = 50
#: A grid larger than this is surely a typo (the whole D100 range in steps of 1 is 101).
MAX_GRID = 2000


def register(app: typer.Typer) -> None:
    """Add ``compare-mechanics`` and ``efficiency`` to the root app."""
    app.command("compare-mechanics")(compare_mechanics)
    app.command("efficiency")(efficiency)


# --- d6 against the clock -----------------------------------------------------------------------


@dataclass(frozen=True)
class MechanicRow:
    """One way of resolving the attack and its swing.

    Attributes:
        mechanic: the mechanic's registered name.
        starts: ``None`` for the d6, ``"1"`` for the clock's default start, ``"all"`` for the
            36 start pairs, equally likely.
        result: the odds.
        wounds: swing of the wounds.
        casualties: swing of the casualties.
    """

    mechanic: str
    starts: str | None
    result: OddsResult
    wounds: Swing
    casualties: Swing

    @property
    def label(self) -> str:
        if self.starts is None:
            return self.mechanic
        return f"{self.mechanic} @{'1' if self.starts == '1' else '1-6'}"

    @property
    def starts_text(self) -> str:
        if self.starts is None:
            return "-"
        return "1, 1" if self.starts == "1" else "all 36"

    def to_json(self) -> dict[str, Any]:
        def count(name: str, s: Swing) -> dict[str, Any]:
            return {"pmf": list(getattr(self.result, name).pmf), **s.to_json()}

        return {
            "mechanic": self.mechanic,
            "clock_starts": {None: None, "1": "attacker 1, defender 1"}.get(
                self.starts, "all 36 pairs 1-6 x 1-6, equally likely"
            ),
            "method": "exact",
            "wounds": count("wounds", self.wounds),
            "casualties": count("casualties", self.casualties),
            "p_destroyed": self.result.p_destroyed,
            "p_shaken": self.result.p_shaken,
        }


def _row(mechanic: str, starts: str | None, result: OddsResult, far: float) -> MechanicRow:
    return MechanicRow(
        mechanic,
        starts,
        result,
        swing(result.wounds.pmf, far),
        swing(result.casualties.pmf, far),
    )


def mechanic_rows(
    attacker: Unit,
    defender: Unit,
    *,
    system: str,
    situation: Situation,
    far: float = FAR_DISTANCE,
) -> tuple[list[MechanicRow], list[tuple[str, str]]]:
    """The d6 and every clock variant (from start 1 and over all starts); and the variants
    that cannot be used here, with the reason."""
    rows = [
        _row("d6", None, attack_odds(attacker, defender, system=system, situation=situation), far)
    ]
    unavailable: list[tuple[str, str]] = []
    for name in opr_mechanics():
        if name == "d6":
            continue
        mech = get_mechanic(name)
        if not isinstance(mech, Clock):
            continue
        try:
            if mech.start != "random":
                one = clock_start_odds(
                    attacker,
                    defender,
                    system=system,
                    mechanic=name,
                    situation=situation,
                    starts=[(1, 1)],
                )
                rows.append(_row(name, "1", one.result, far))
            mixed = clock_start_odds(
                attacker, defender, system=system, mechanic=name, situation=situation
            )
            rows.append(_row(name, "all", mixed.result, far))
        except UserError as exc:
            unavailable.append((name, exc.message))
    return rows, unavailable


def _swing_table(rows: Sequence[MechanicRow], count: str, far: float) -> Table:
    table = Table(title=f"{count}: swing")
    table.add_column("#", justify="right")
    table.add_column("mechanic", no_wrap=True)
    table.add_column("starts", no_wrap=True)
    for col in ("mean", "sd", "bits", "off1", f"off{far:g}"):
        table.add_column(col, justify="right")
    if count == "casualties":
        table.add_column("destr", justify="right")
    for i, row in enumerate(rows, start=1):
        s: Swing = getattr(row, count)
        cells = [
            str(i),
            row.mechanic,
            row.starts_text,
            f"{s.mean:.3f}",
            f"{s.sd:.3f}",
            f"{s.entropy_bits:.3f}",
            f"{s.p_off_by_1:.3f}",
            f"{s.p_far:.3f}",
        ]
        if count == "casualties":
            cells.append(f"{row.result.p_destroyed:.3f}")
        table.add_row(*cells)
    return table


def _short_p(p: float) -> str:
    """A probability in at most 4 characters: 0, 1, or .123."""
    if p == 0:
        return "0"
    if p == 1:
        return "1"
    text = f"{p:.3f}"
    if text == "0.000":
        return "<.001"
    return "1" if text == "1.000" else text.removeprefix("0")


def _pmf_table(rows: Sequence[MechanicRow], count: str) -> Table:
    table = Table(title=f"{count}: P(exactly k), columns numbered as above")
    table.add_column("k", justify="right")
    pmfs = [getattr(row.result, count).pmf for row in rows]
    for i in range(1, len(rows) + 1):
        table.add_column(f"#{i}", justify="right")
    for k in range(max(len(p) for p in pmfs)):
        table.add_row(str(k), *(_short_p(p[k]) if k < len(p) else "" for p in pmfs))
    return table


def _compare_units(
    attacker: str | None,
    defender: str | None,
    *,
    system: str,
    situation: Situation,
    far: float,
    as_json: bool,
) -> None:
    if attacker is None or defender is None:
        raise OptionError(
            "compare-mechanics needs ATTACKER and DEFENDER",
            expected="two unit references, or --dq",
        )
    if not far > 0:
        raise OptionError("--far must be positive", value=far, expected="e.g. 2")
    command = "compare-mechanics"
    att, dfd = load_side(attacker, command=command), load_side(defender, command=command)
    rows, unavailable = mechanic_rows(
        att.unit, dfd.unit, system=system, situation=situation, far=far
    )
    if as_json:
        out = {
            "attacker": att.unit.name,
            "defender": dfd.unit.name,
            "system": system,
            "situation": _situation_json(situation),
            "weapons": list(rows[0].result.weapons),
            "far_distance": far,
            "rows": [r.to_json() for r in rows],
            "unavailable": [{"mechanic": m, "reason": why} for m, why in unavailable],
        }
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    _header(console, att, dfd, rows[0].result, situation)
    for count in ("wounds", "casualties"):
        console.print(_swing_table(rows, count, far))
        console.print(_pmf_table(rows, count))
    for name, why in unavailable:
        console.print(f"{name}: not available here: {why}", markup=False)
    console.print(
        "bits: Shannon entropy; offD: P(|X - mean| >= D); destr: P(destroyed). A clock is "
        "certain given its start: '1, 1' is the default start, 'all 36' every start of the "
        "attacker's and defender's clocks, equally likely (= clock-random).",
        markup=False,
    )


def _situation_json(s: Situation) -> dict[str, Any]:
    return {
        "melee": s.melee,
        "charging": s.charging,
        "range": s.distance,
        "cover": s.cover,
        "moved": s.moved,
    }


def _header(console: Console, att: Side, dfd: Side, result: OddsResult, s: Situation) -> None:
    how = "melee" + (", charging" if s.charging else "") if s.melee else "shooting"
    if not s.melee:
        how += f' at {12.0 if s.distance is None else s.distance:g}"'
        how += ", target in cover" if s.cover else ""
    console.print(
        f"{att.unit.name} attacks {dfd.unit.name} ({result.system}, {how}; "
        f"weapons: {', '.join(result.weapons)})",
        markup=False,
    )


# --- DragonQuest: opposed against current ------------------------------------------------------


def parse_range(text: str, name: str) -> tuple[int, ...]:
    """``START:STOP:STEP`` (both ends included), ``START:STOP`` (step 10) or one value."""
    parts = text.split(":")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise OptionError(
            f"{name} is not a range", value=text, expected="START:STOP:STEP, e.g. 20:120:10"
        ) from None
    if len(numbers) == 1:
        numbers = [numbers[0], numbers[0], 1]
    elif len(numbers) == 2:
        numbers.append(10)
    if len(numbers) != 3:
        raise OptionError(
            f"{name} is not a range", value=text, expected="START:STOP:STEP, e.g. 20:120:10"
        )
    start, stop, step = numbers
    if step < 1 or start > stop:
        raise OptionError(
            f"{name} is empty", value=text, expected="START <= STOP and a STEP of 1 or more"
        )
    if start < 0 or stop > MAX_CHANCE:
        raise OptionError(
            f"{name} out of range", value=text, expected=f"chances from 0 to {MAX_CHANCE}"
        )
    return tuple(range(start, stop + 1, step))


QualityMap = Callable[[int], int]


def _same(q: int) -> int:
    return q


def without_better(q: int) -> int:
    """The playtest ladder without its added quality: Better merged into Average, and the
    qualities above it moved down one (seed 001 "An additional quality of result is added")."""
    return q - 1 if q >= BETTER else q


def without_high(q: int) -> int:
    """The playtest ladder without Excellent and Fantastic (qualities above 100 and 200)."""
    return min(q, DECISIVE)


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


def _dq(chance_range: str, defence_range: str, as_json: bool) -> None:
    chances = parse_range(chance_range, "--chance-range")
    defences = parse_range(defence_range, "--defence-range")
    if len(chances) * len(defences) > MAX_GRID:
        raise OptionError(
            "the grid is too large",
            value=len(chances) * len(defences),
            expected=f"at most {MAX_GRID} cells (use a larger STEP)",
        )
    cells = [dq_cell(sc, d) for sc in chances for d in defences]
    claims = dq_claims(chances, defences)
    if as_json:
        out = {
            "chances": list(chances),
            "defences": list(defences),
            "cells": [c.to_json() for c in cells],
            "claims": [c.to_json() for c in claims],
        }
        typer.echo(json.dumps(out, indent=2))
        return
    console = Console()
    table = Table(title="DragonQuest: opposed rolling (playtest) vs current subtraction")
    table.add_column("SC", justify="right")
    table.add_column("D", justify="right")
    for what in ("P(hit)", "P(endurance)", "P(blocked)"):
        table.add_column(f"{what}\nopposed", justify="right")
        table.add_column("\ncurrent", justify="right")
    for c in cells:
        table.add_row(
            str(c.strike_chance),
            str(c.defence),
            *(
                fmt_p(float(getattr(fig, name)))
                for name in ("p_hit", "p_endurance", "p_blocked")
                for fig in (c.opposed, c.current)
            ),
        )
    console.print(table)
    console.print('[bold]The playtest\'s stated intents (seed 001 "Why?")[/]')
    for claim in claims:
        style = {"PASS": "green", "FAIL": "bold red"}.get(claim.verdict, "yellow")
        console.print(f"[{style}]{claim.verdict}[/] {claim.claim}", highlight=False)
        console.print(
            f"     {claim.intent}; measure: {claim.measure}", markup=False, highlight=False
        )
        console.print(f"     {json.dumps(claim.numbers)}", markup=False, highlight=False)


# --- the command --------------------------------------------------------------------------------


def compare_mechanics(
    attacker: str | None = typer.Argument(None, help=ATTACKER_HELP),
    defender: str | None = typer.Argument(None, help=DEFENDER_HELP),
    system: str = typer.Option("gff", "--system", help=SYSTEM_HELP),
    melee: bool = typer.Option(False, "--melee", help=MELEE_HELP),
    distance: float | None = typer.Option(None, "--range", help=RANGE_HELP),
    cover: bool = typer.Option(False, "--cover", help=COVER_HELP),
    charging: bool = typer.Option(False, "--charging", help=CHARGING_HELP),
    moved: bool = typer.Option(False, "--moved", help=MOVED_HELP),
    far: float = typer.Option(
        FAR_DISTANCE, "--far", help="Swing: P(|X - mean| >= FAR) is shown (default 2)."
    ),
    dq: bool = typer.Option(
        False, "--dq", help="Compare DragonQuest opposed rolls with the current rules instead."
    ),
    chance_range: str = typer.Option(
        DEFAULT_CHANCES, "--chance-range", help="--dq: strike chances START:STOP:STEP."
    ),
    defence_range: str = typer.Option(
        DEFAULT_DEFENCES, "--defence-range", help="--dq: defences START:STOP:STEP."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """The d6 against the diceless clock for one attack, with measures of swing; or, with --dq,
    DragonQuest opposed rolls against the current rules, with the playtest's intents checked."""
    if dq:
        if attacker is not None or defender is not None:
            raise OptionError(
                "--dq takes no units", value=attacker, expected="drop ATTACKER and DEFENDER"
            )
        _dq(chance_range, defence_range, as_json)
        return
    if (chance_range, defence_range) != (DEFAULT_CHANCES, DEFAULT_DEFENCES):
        raise OptionError(
            "--chance-range and --defence-range go with --dq", expected="add --dq or drop them"
        )
    check_system(system)
    situation = build_situation(
        melee=melee, distance=distance, cover=cover, charging=charging, moved=moved
    )
    _compare_units(attacker, defender, system=system, situation=situation, far=far, as_json=as_json)


# --- points efficiency ---------------------------------------------------------------------------


def _target(ref: str) -> Unit:
    """A standard target by name, else the first unit of a unit reference."""
    names = {u.name.casefold() for u in STANDARD_TARGETS}
    if ref.strip().casefold() in names:
        return standard_target(ref)
    return load_side(ref, command="efficiency").unit


def _efficiency_tables(report: EfficiencyReport, mode: str) -> list[Table]:
    rows = report.rankings[mode]
    what = f'shooting at {report.distance:g}"' if mode == "shooting" else "melee, charging"
    tables = []
    for title, attr, mean_attr, fmt in (
        ("expected wounds per 100 pts", "wounds_per_100", "mean_wounds_per_100", "{:.2f}"),
        ("P(destroyed) per 100 pts", "p_destroyed_per_100", "mean_p_destroyed_per_100", "{:.3f}"),
    ):
        table = Table(
            title=f"{mode} ({what}): {title}",
            box=box.SIMPLE_HEAD,
            pad_edge=False,
            collapse_padding=True,
        )
        table.add_column("#", justify="right")
        table.add_column("unit", no_wrap=True, max_width=16)
        table.add_column("pts", justify="right")
        for t in report.targets:  # one word a line: "Light infantry" fits in 80 columns
            table.add_column(t.name.replace(" ", "\n"), justify="right")
        table.add_column("mean", justify="right", style="bold")
        for r in rows:
            cells = [str(r.rank), r.unit.name, str(r.unit.cost)]
            cells += ["-" if e is None else fmt.format(getattr(e, attr)) for e in r.by_target]
            cells.append(fmt.format(getattr(r, mean_attr)) if r.can_attack else "cannot")
            table.add_row(*cells)
        tables.append(table)
    return tables


TARGETS_HELP = (
    "A standard target ("
    + ", ".join(t.name for t in STANDARD_TARGETS)
    + ") or a unit reference; repeatable. Default: all the standard targets."
)


def efficiency(
    units: list[str] = typer.Argument(
        ...,
        help="Army files (every unit is ranked), FILE:Unit Name, or one unit's text.",
    ),
    targets: list[str] = typer.Option(
        [],
        "--targets",
        "--target",
        help=TARGETS_HELP,
    ),
    distance: float = typer.Option(DEFAULT_RANGE, "--range", help="Shooting range in inches."),
    system: str = typer.Option("gff", "--system", help=SYSTEM_HELP),
    mechanic: str = typer.Option("d6", "--mechanic", help="d6, clock, or a clock variant."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Expected wounds and P(destroyed) per 100 points, shooting and in melee, ranked."""
    check_system(system)
    mechanic_options(mechanic, None)
    if not distance >= 0:
        raise OptionError("--range out of range", value=distance, expected="0 or more inches")
    attackers = []
    for ref in units:
        found = load_unit_ref(ref)
        check_playable([("", ref, units_army(found))], command="efficiency")
        attackers += [check_cost(u) for u in found]
    chosen = tuple(_target(t) for t in targets) or STANDARD_TARGETS
    report = efficiency_report(
        attackers, chosen, distance=distance, system=system, mechanic=mechanic
    )
    if as_json:
        typer.echo(json.dumps(report.to_json(), indent=2))
        return
    console = Console()
    console.print(
        f"{report.system}, {report.mechanic}: one attack of each unit on each target; "
        "ranked by mean expected wounds per 100 points ('-': cannot attack that way)",
        markup=False,
    )
    for mode in report.rankings:
        for table in _efficiency_tables(report, mode):
            console.print(table)
