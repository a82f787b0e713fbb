"""How swingy an attack is: measures of a count's spread, and the clock over its starts.

"Swing" is what the diceless clock (seed 000) sets out to remove, so comparing mechanics needs
numbers for it. Every measure here is a pure function of a pmf (``pmf[k]`` = P(count = k)):

* :func:`pmf_mean` and :func:`pmf_sd`: the mean and the standard deviation;
* :func:`entropy_bits`: Shannon entropy in bits (0 for a certain result, 1 for a fair coin):
  how many yes/no questions the outcome is worth, whatever the counts are;
* :func:`p_far`: P(|X - mean| >= d), by default ``d = 2``: the chance that the attack lands two
  or more wounds (or casualties) away from what it does on average, i.e. a result a player
  notices as lucky or unlucky. It is in absolute units on purpose, so that two mechanics on the
  same matchup compare directly.

The clock is certain once its start is known, so its only swing is the start. For a fair
comparison with the d6, :func:`clock_start_odds` plays the attack out from every pair of
starting values (attacker's clock, defender's clock), each pair equally likely: this is exactly
the seed's "Random Clocks" variation (each clock starts on a d6), for any clock variant.

May import the core layers (mechanics, units, rules through :mod:`oprlab.analysis.odds`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from oprlab.analysis.odds import (
    Distribution,
    OddsResult,
    Outcome,
    Situation,
    check_situation,
    get_system,
    select_weapons,
)
from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError, check_range
from oprlab.mechanics import Check, Mechanic, Owner, State, get_mechanic
from oprlab.mechanics.base import Outcome as CheckOutcome
from oprlab.mechanics.clock import Clock, ClockState
from oprlab.rng import make_rng
from oprlab.units.model import Unit

__all__ = [
    "CLOCK_STARTS",
    "FAR_DISTANCE",
    "ClockStartOdds",
    "StartedClock",
    "Swing",
    "clock_start_odds",
    "entropy_bits",
    "is_clock",
    "mixture",
    "p_far",
    "pmf_mean",
    "pmf_sd",
    "sample_clock_starts",
    "swing",
]

#: Default distance from the mean that counts as "far" (in wounds or casualties).
FAR_DISTANCE = 2
#: The values a clock can start on (seed 000: "At the start of the game, all clocks are set
#: to 1"; variation 3 rolls a d6 instead).
CLOCK_STARTS = range(1, 7)
#: Slack for float pmfs: a count exactly ``d`` from a float mean still counts as far.
_EPS = 1e-9


# --- measures of swing ----------------------------------------------------------------------


def _checked(pmf: Sequence[float]) -> list[float]:
    values = [float(p) for p in pmf]
    if not values:
        raise OptionError("an empty pmf", value=list(pmf), expected="at least P(0)")
    if any(p < -_EPS or math.isnan(p) for p in values):
        raise OptionError("negative probability in a pmf", value=values, expected="all >= 0")
    total = sum(values)
    if abs(total - 1.0) > 1e-6:
        raise OptionError("a pmf must sum to 1", value=total, expected="probabilities summing to 1")
    return values


def pmf_mean(pmf: Sequence[float]) -> float:
    """The mean count, sum of ``k * P(k)``."""
    return sum(k * p for k, p in enumerate(_checked(pmf)))


def pmf_sd(pmf: Sequence[float]) -> float:
    """The standard deviation of the count (population, since the pmf is the whole law)."""
    values = _checked(pmf)
    mu = sum(k * p for k, p in enumerate(values))
    variance = sum((k - mu) ** 2 * p for k, p in enumerate(values))
    return math.sqrt(max(0.0, variance))


def entropy_bits(pmf: Sequence[float]) -> float:
    """Shannon entropy in bits, ``-sum P(k) log2 P(k)``; 0 when the result is certain."""
    values = _checked(pmf)
    return max(0.0, -sum(p * math.log2(p) for p in values if p > 0))


def p_far(pmf: Sequence[float], distance: float = FAR_DISTANCE) -> float:
    """P(|X - mean| >= distance): how often the result is far from the average result."""
    if distance <= 0:
        raise OptionError("the far distance must be positive", value=distance, expected="> 0")
    values = _checked(pmf)
    mu = sum(k * p for k, p in enumerate(values))
    return sum(p for k, p in enumerate(values) if abs(k - mu) >= distance - _EPS)


@dataclass(frozen=True)
class Swing:
    """The swing measures of one count's distribution."""

    mean: float
    sd: float
    entropy_bits: float
    p_far: float
    far_distance: float = FAR_DISTANCE
    p_off_by_1: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "sd": self.sd,
            "entropy_bits": self.entropy_bits,
            "p_far": self.p_far,
            "far_distance": self.far_distance,
            "p_off_by_1": self.p_off_by_1,
        }


def swing(pmf: Sequence[float], distance: float = FAR_DISTANCE) -> Swing:
    """Every measure of this module for one pmf.

    ``p_off_by_1`` is :func:`p_far` at distance 1: small counts (the casualties of a 2-model
    unit) are never 2 away from their mean, yet can still swing.
    """
    return Swing(
        pmf_mean(pmf),
        pmf_sd(pmf),
        entropy_bits(pmf),
        p_far(pmf, distance),
        distance,
        p_far(pmf, 1),
    )


def mixture(pmfs: Iterable[Sequence[float]], weights: Sequence[float] | None = None) -> list[float]:
    """The pmf of a count drawn from one of ``pmfs`` (equally likely unless ``weights``)."""
    rows = [list(p) for p in pmfs]
    if not rows:
        raise OptionError("nothing to mix", value=[], expected="one pmf or more")
    w = [1.0 / len(rows)] * len(rows) if weights is None else [float(x) for x in weights]
    if len(w) != len(rows):
        raise OptionError("one weight per pmf", value=len(w), expected=str(len(rows)))
    out = [0.0] * max(len(r) for r in rows)
    for row, weight in zip(rows, w, strict=True):
        for k, p in enumerate(row):
            out[k] += weight * p
    return out


# --- the clock over its starting values ---------------------------------------------------------


def is_clock(mechanic: str, options: dict[str, Any] | None = None) -> bool:
    """Whether the mechanic called ``mechanic`` is the diceless clock (any variant)."""
    return isinstance(get_mechanic(mechanic, **(options or {})), Clock)


class StartedClock(Clock):
    """A clock variant whose clocks start on given values, in the order they are first used.

    The first clock a check uses starts at ``starts[0]``, the second at ``starts[1]``, and so
    on (the last value for any further clock). Every OPR attack begins with the attacker's
    quality tests and only then the defender's rolls, so ``(attacker, defender)`` is the order,
    whatever owner names the rule system gives the two sides. A global clock is one clock: only
    ``starts[0]`` matters.
    """

    def __init__(self, starts: Sequence[int], **options: Any) -> None:
        super().__init__(**{**options, "start": 1})
        if not starts:
            raise OptionError("no clock starts given", value=list(starts), expected="1 to 6")
        for value in starts:
            check_range("clock start", value, CLOCK_STARTS[0], CLOCK_STARTS[-1])
        self.starts = tuple(starts)

    def initial_state(
        self, owners: Sequence[Owner] = (), rng: np.random.Generator | None = None
    ) -> ClockState:
        """No clock set yet (each is set on first use), bennies as the variant gives them."""
        base = super().initial_state(owners, rng)
        return ClockState({}, {}, base.bennies)

    def resolve(self, check: Check, state: State = None) -> CheckOutcome:
        current = self._state(state)
        if not self.uses_tokens(check):
            key = self.clock_key(check.owner)
            if key not in current.clocks:
                index = min(len(current.clocks), len(self.starts) - 1)
                current = current.with_clock(key, self.starts[index])
        return super().resolve(check, current)


def _started(mechanic: str, options: dict[str, Any] | None, starts: Sequence[int]) -> Mechanic:
    base = get_mechanic(mechanic, **(options or {}))
    if not isinstance(base, Clock):
        raise OptionError(
            "clock starts apply to the clock only",
            value=mechanic,
            expected="clock or a clock variant",
        )
    return StartedClock(starts, **{k: v for k, v in base.options.items() if k != "start"})


@dataclass(frozen=True)
class ClockStartOdds:
    """A clock attack played from several start pairs, mixed with equal weights.

    Attributes:
        result: the mixed distribution as an :class:`OddsResult` (method "exact").
        starts: the (attacker, defender) start pairs, in order.
        outcomes: the certain outcome from each pair.
    """

    result: OddsResult
    starts: tuple[tuple[int, int], ...]
    outcomes: tuple[Outcome, ...]

    def by_start_json(self) -> list[dict[str, Any]]:
        return [
            {
                "attacker_start": a,
                "defender_start": d,
                "hits": o.hits,
                "wounds": o.wounds,
                "casualties": o.casualties,
                "destroyed": o.destroyed,
                "shaken": o.shaken,
            }
            for (a, d), o in zip(self.starts, self.outcomes, strict=True)
        ]


def _pmf_of(values: Sequence[int], weight: Fraction) -> Distribution:
    counts = Counter(values)
    return Distribution(tuple(float(counts[k] * weight) for k in range(max(counts) + 1)))


def _outcome_from(
    attacker: Unit,
    defender: Unit,
    system: str,
    mechanic: str,
    options: dict[str, Any] | None,
    situation: Situation,
    start: tuple[int, int],
) -> tuple[tuple[str, ...], Outcome]:
    attack = get_system(system)
    weapons = select_weapons(attacker, situation)
    mech = _started(mechanic, options, start)
    out = attack.resolve(attacker, weapons, defender, situation, mech, mech.initial_state(), None)
    return tuple(w.name for w in weapons), out


def clock_start_odds(
    attacker: Unit,
    defender: Unit,
    *,
    system: str = "gff",
    mechanic: str = "clock",
    mechanic_options: dict[str, Any] | None = None,
    situation: Situation | None = None,
    starts: Sequence[tuple[int, int]] | None = None,
) -> ClockStartOdds:
    """The attack's distribution when the clocks start on each pair in ``starts``, equally likely.

    The default is all 36 pairs of 1..6: the "Random Clocks" variation's exact distribution.
    Any clock variant may be given (its own start option is replaced by the pairs).
    """
    s = situation or Situation()
    check_situation(s)
    pairs = (
        tuple(starts)
        if starts is not None
        else tuple((a, d) for a in CLOCK_STARTS for d in CLOCK_STARTS)
    )
    if not pairs:
        raise OptionError("no clock starts given", value=[], expected="pairs of 1 to 6")
    outcomes: list[Outcome] = []
    names: tuple[str, ...] = ()
    for pair in pairs:
        names, out = _outcome_from(attacker, defender, system, mechanic, mechanic_options, s, pair)
        outcomes.append(out)
    weight = Fraction(1, len(pairs))
    shaken = [o.shaken for o in outcomes]
    result = OddsResult(
        system=system,
        mechanic=mechanic,
        melee=s.melee,
        weapons=names,
        hits=_pmf_of([o.hits for o in outcomes], weight),
        wounds=_pmf_of([o.wounds for o in outcomes], weight),
        casualties=_pmf_of([o.casualties for o in outcomes], weight),
        p_destroyed=float(sum(o.destroyed for o in outcomes) * weight),
        p_shaken=None if None in shaken else float(sum(bool(x) for x in shaken) * weight),
    )
    return ClockStartOdds(result, pairs, tuple(outcomes))


def sample_clock_starts(
    attacker: Unit,
    defender: Unit,
    *,
    samples: int,
    seed: int | None = None,
    system: str = "gff",
    mechanic: str = "clock-random",
    mechanic_options: dict[str, Any] | None = None,
    situation: Situation | None = None,
) -> OddsResult:
    """Monte Carlo of a clock with random starts: each sample rolls a d6 for each clock.

    The exact answer is :func:`clock_start_odds`; this exists so that ``--samples`` means the
    same thing for every mechanic (a sampled figure with its interval).
    """
    if samples < 1:
        raise OptionError("samples out of range", value=samples, expected="1 or more")
    s = situation or Situation()
    check_situation(s)
    seeded = make_rng(seed)
    drawn = seeded.rng.integers(CLOCK_STARTS[0], CLOCK_STARTS[-1] + 1, size=(samples, 2))
    cache: dict[tuple[int, int], Outcome] = {}
    names: tuple[str, ...] = ()
    rows: list[Outcome] = []
    for a, d in drawn.tolist():
        key = (int(a), int(d))
        if key not in cache:
            names, cache[key] = _outcome_from(
                attacker, defender, system, mechanic, mechanic_options, s, key
            )
        rows.append(cache[key])
    dists: dict[str, Distribution] = {}
    intervals: dict[str, Interval] = {}
    for field in ("hits", "wounds", "casualties"):
        arr = np.asarray([getattr(o, field) for o in rows], dtype=np.int64)
        dists[field] = Distribution(tuple(float(x) for x in np.bincount(arr) / samples))
        intervals[f"{field}_mean"] = mean_interval(
            float(arr.sum()), float((arr * arr).sum()), samples
        )
    destroyed = sum(o.destroyed for o in rows)
    intervals["p_destroyed"] = wilson(destroyed, samples)
    has_shaken = all(o.shaken is not None for o in rows)
    shaken = sum(bool(o.shaken) for o in rows)
    if has_shaken:
        intervals["p_shaken"] = wilson(shaken, samples)
    return OddsResult(
        system=system,
        mechanic=mechanic,
        melee=s.melee,
        weapons=names,
        hits=dists["hits"],
        wounds=dists["wounds"],
        casualties=dists["casualties"],
        p_destroyed=destroyed / samples,
        p_shaken=shaken / samples if has_shaken else None,
        samples=samples,
        seed=seeded.seed,
        intervals=intervals,
    )
