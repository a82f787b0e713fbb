"""The odds of one unit's attack on another: exact where it can be, sampled on request.

One entry point, :func:`attack_odds`, for every OPR rule system and mechanic: a random mechanic
(the d6) is composed exactly; a deterministic one (the clock) is played out once, since its
outcome is certain given the clocks; ``samples=N`` runs the same rules N times instead and
reports intervals. Rule systems plug in through their ``attack`` adapter
(:mod:`oprlab.rules.query`, found by :func:`oprlab.game.systems.find_system`).

Bounded work (:mod:`oprlab.limits`): a query rolls at most ``MAX_ODDS_DICE`` dice, and
``samples x dice`` stays under ``MAX_SAMPLED_DICE``. An exact answer whose estimated cost
(:func:`exact_work`) is over ``EXACT_WORK`` is sampled instead (``auto_sampled``, with the
sample size and intervals), so a query never runs for minutes. Units within the army limits
(:mod:`oprlab.units.validate`) always stay under it; units built in code may not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError, UserError
from oprlab.game.systems import find_system, system_names
from oprlab.limits import (
    EXACT_WORK,
    MAX_ODDS_DICE,
    MAX_SAMPLED_DICE,
    MAX_SAMPLES,
    MIN_AUTO_SAMPLES,
    SAMPLE_BUDGET,
    check_limit,
)
from oprlab.mechanics import Mechanic, Owner, get_mechanic
from oprlab.rules.query import (
    AttackOdds,
    AttackSystem,
    Outcome,
    Situation,
    Summary,
    rating,
)
from oprlab.units.model import Unit, Weapon
from oprlab.version import __version__

if TYPE_CHECKING:
    import numpy.typing as npt

__all__ = [
    "OWNERS",
    "AttackOdds",
    "AttackSystem",
    "Distribution",
    "OddsResult",
    "Outcome",
    "Situation",
    "Summary",
    "attack_dice",
    "attack_odds",
    "check_situation",
    "exact_work",
    "get_system",
    "select_weapons",
]

#: The owners of the attacker's and the defender's checks (clocks, pools) in odds queries.
OWNERS = (Owner(army="attacker", unit="attacker"), Owner(army="defender", unit="defender"))


def get_system(name: str) -> AttackOdds:
    """The attack odds adapter of the rule system called ``name`` (``find_system(name).attack``).

    Raises:
        OptionError: an unknown system, or one without attack odds (WWPD rolls its own dice:
            ``oprlab check wwpd``; DragonQuest: ``oprlab dq``).
    """
    rules = find_system(name)
    if rules.attack is None:
        raise OptionError(
            "no unit-against-unit odds for this rule system",
            value=name,
            expected=" or ".join(n for n in system_names() if find_system(n).attack is not None),
        )
    return rules.attack  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Distribution:
    """A count's distribution: ``pmf[k]`` = P(count = k)."""

    pmf: tuple[float, ...]

    @property
    def mean(self) -> float:
        return float(sum(k * p for k, p in enumerate(self.pmf)))

    def at_least(self, k: int) -> float:
        return float(sum(self.pmf[k:]))

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "pmf": list(self.pmf)}


def _dist(pmf: npt.NDArray[np.float64]) -> Distribution:
    trimmed = np.trim_zeros(np.where(pmf < 1e-15, 0.0, pmf), "b")
    return Distribution(tuple(float(x) for x in (trimmed if trimmed.size else np.ones(1))))


@dataclass(frozen=True)
class OddsResult:
    """The answer to one odds query, with what is needed to reproduce it."""

    system: str
    mechanic: str
    melee: bool
    weapons: tuple[str, ...]
    hits: Distribution
    wounds: Distribution
    casualties: Distribution
    p_destroyed: float
    p_shaken: float | None
    samples: int | None = None
    seed: int | None = None
    intervals: dict[str, Interval] = field(default_factory=dict)
    #: Sampled because the exact answer was estimated too costly (see :func:`exact_work`).
    auto_sampled: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "system": self.system,
            "mechanic": self.mechanic,
            "attack": "melee" if self.melee else "shooting",
            "weapons": list(self.weapons),
            "hits": self.hits.to_json(),
            "wounds": self.wounds.to_json(),
            "casualties": self.casualties.to_json(),
            "p_destroyed": self.p_destroyed,
            "p_shaken": self.p_shaken,
            "method": "monte carlo" if self.samples else "exact",
            "auto_sampled": self.auto_sampled,
            "samples": self.samples,
            "seed": self.seed,
            "oprlab": __version__,
        }
        if self.intervals:
            out["intervals"] = {
                k: {"estimate": v.estimate, "low": v.low, "high": v.high, "n": v.n}
                for k, v in self.intervals.items()
            }
        return out


def select_weapons(attacker: Unit, s: Situation) -> tuple[Weapon, ...]:
    """The weapons that take part: melee ones in melee, ranged ones in range when shooting."""
    if s.melee:
        chosen = tuple(w for w in attacker.weapons if w.melee)
        if not chosen:
            raise OptionError(
                f"{attacker.name!r} has no melee weapon",
                value=[w.label for w in attacker.weapons],
                expected="a unit with a melee weapon, or drop --melee",
            )
        return chosen
    ranged = tuple(w for w in attacker.weapons if not w.melee)
    if not ranged:
        raise OptionError(
            f"{attacker.name!r} has no ranged weapon",
            value=[w.label for w in attacker.weapons],
            expected="a unit with a ranged weapon, or --melee",
        )
    if s.distance is None:
        return ranged
    in_range = tuple(w for w in ranged if w.range is not None and w.range >= s.distance)
    if not in_range:
        longest = max(w.range or 0 for w in ranged)
        raise OptionError(
            f"no weapon of {attacker.name!r} reaches that far",
            value=f'{s.distance:g}"',
            expected=f'a range of at most {longest}"',
        )
    return in_range


def check_situation(s: Situation) -> None:
    """Refuse options that contradict each other."""
    if s.melee and s.cover:
        raise OptionError(
            "cover applies to shooting only", value="--cover", expected="drop --cover or --melee"
        )
    if s.charging and not s.melee:
        raise OptionError("charging is a melee attack", value="--charging", expected="add --melee")
    if s.distance is not None and s.distance < 0:
        raise OptionError("distance out of range", value=s.distance, expected="0 or more inches")


def attack_dice(attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation) -> int:
    """The dice one attack rolls: each weapon's count x attacks x Blast(X) (up to the target's
    models), plus Impact dice on a charge."""
    models = max(defender.size, 1)
    dice = sum(max(w.count * w.attacks, 0) * min(rating(w, "Blast"), models) for w in weapons)
    if s.melee and s.charging:
        dice += max(attacker.size, 0) * max(attacker.rating("Impact") or 0, 0)
    return dice


def exact_work(
    system: str, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
) -> float:
    """A rough cost of the exact answer, in elementary steps (about 3 x 10^9 a second), as the
    system's adapter estimates it (``AttackOdds.exact_work``)."""
    return get_system(system).exact_work(attacker, weapons, defender, s)


def attack_odds(
    attacker: Unit,
    defender: Unit,
    *,
    system: str = "gff",
    mechanic: str = "d6",
    mechanic_options: dict[str, Any] | None = None,
    situation: Situation | None = None,
    samples: int | None = None,
    seed: int | None = None,
) -> OddsResult:
    """The distribution of one unit's attack (all its weapons of the kind) on one target."""
    s = situation or Situation()
    check_situation(s)
    attack = get_system(system)
    mech = get_mechanic(mechanic, **(mechanic_options or {}))
    weapons = select_weapons(attacker, s)
    names = tuple(w.name for w in weapons)
    dice = attack_dice(attacker, weapons, defender, s)
    check_limit("attack dice of one odds query", dice, MAX_ODDS_DICE)
    if samples is not None:
        if samples < 1:
            raise OptionError("samples out of range", value=samples, expected="1 or more")
        check_limit("--samples", samples, MAX_SAMPLES)
        check_limit("dice to roll (samples x dice of one attack)", samples * dice, MAX_SAMPLED_DICE)
        return _sampled(attack, attacker, weapons, defender, s, mech, mechanic, samples, seed)
    if not mech.deterministic and attack.exact_work(attacker, weapons, defender, s) > EXACT_WORK:
        n = max(MIN_AUTO_SAMPLES, min(10_000, SAMPLE_BUDGET // max(dice, 1)))
        result = _sampled(
            attack, attacker, weapons, defender, s, mech, mechanic, n, 0 if seed is None else seed
        )
        return dataclasses.replace(result, auto_sampled=True)
    if mech.deterministic:
        try:
            start = mech.initial_state(OWNERS)
        except UserError as exc:
            raise OptionError(
                f"{mechanic} draws its starting state at random",
                value=mechanic,
                expected="--samples N, or compare-mechanics for every start",
            ) from exc
        out = attack.resolve(attacker, weapons, defender, s, mech, start, None)
        summary = _point(out, defender.size)
    else:
        summary = attack.exact(attacker, weapons, defender, s, mech)
    return OddsResult(
        system=system,
        mechanic=mechanic,
        melee=s.melee,
        weapons=names,
        hits=_dist(summary.hits),
        wounds=_dist(summary.wounds),
        casualties=_dist(summary.casualties),
        p_destroyed=summary.p_destroyed,
        p_shaken=summary.p_shaken,
    )


def _point(out: Outcome, models: int) -> Summary:
    def one(k: int, size: int) -> npt.NDArray[np.float64]:
        a = np.zeros(max(k, size) + 1)
        a[k] = 1.0
        return a

    return Summary(
        one(out.hits, 0),
        one(out.wounds, 0),
        one(out.casualties, models),
        float(out.destroyed),
        None if out.shaken is None else float(out.shaken),
    )


def _sampled(
    attack: AttackOdds,
    attacker: Unit,
    weapons: Sequence[Weapon],
    defender: Unit,
    s: Situation,
    mech: Mechanic,
    mechanic: str,
    samples: int,
    seed: int | None,
) -> OddsResult:
    from oprlab.rng import make_rng  # only sampling needs numpy.random (a tenth of odds' start)

    seeded = make_rng(seed)
    counts: dict[str, list[int]] = {"hits": [], "wounds": [], "casualties": []}
    destroyed = shaken = 0
    has_shaken = True
    for _ in range(samples):
        start = mech.initial_state(OWNERS, seeded.rng)
        out = attack.resolve(attacker, weapons, defender, s, mech, start, seeded.rng)
        counts["hits"].append(out.hits)
        counts["wounds"].append(out.wounds)
        counts["casualties"].append(out.casualties)
        destroyed += out.destroyed
        if out.shaken is None:
            has_shaken = False
        else:
            shaken += out.shaken
    dists: dict[str, Distribution] = {}
    intervals: dict[str, Interval] = {}
    for key, values in counts.items():
        arr = np.asarray(values, dtype=np.int64)
        dists[key] = _dist(np.bincount(arr).astype(np.float64) / samples)
        intervals[f"{key}_mean"] = mean_interval(
            float(arr.sum()), float((arr * arr).sum()), samples
        )
    intervals["p_destroyed"] = wilson(destroyed, samples)
    if has_shaken:
        intervals["p_shaken"] = wilson(shaken, samples)
    return OddsResult(
        system=attack.name,
        mechanic=mechanic,
        melee=s.melee,
        weapons=tuple(w.name for w in weapons),
        hits=dists["hits"],
        wounds=dists["wounds"],
        casualties=dists["casualties"],
        p_destroyed=destroyed / samples,
        p_shaken=shaken / samples if has_shaken else None,
        samples=samples,
        seed=seeded.seed,
        intervals=intervals,
    )
