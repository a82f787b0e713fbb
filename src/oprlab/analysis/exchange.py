"""The odds of a melee exchange: a charge, the strike back, and who comes out ahead.

:func:`exchange_odds` answers "if my unit charges that one, how likely am I to win the fight?"
for a rule system's whole exchange (GFF: Impact, Counter, strikes, strike back, fatigue, wound
effects; :mod:`oprlab.rules.gff.melee`). With the d6 the outcome is composed exactly over the
joint state of both units; if that is too large it falls back to Monte Carlo and says so. With
``samples=N`` it runs N seeded exchanges and reports intervals. With the clock the exchange is
certain given the clocks, so it is played out once.

"Win" follows docs/rules/gff.md "Melee exchange": the other unit destroyed, or more wounds dealt;
equal wounds are a draw. Rule systems plug in through their ``exchange`` adapter
(:class:`~oprlab.rules.query.ExchangeSystem`, ``rules/<system>/odds.py``, found by
:func:`~oprlab.game.systems.find_system`) with the same
:class:`~oprlab.rules.gff.melee.ExchangeResult`: ``"gff"`` and ``"riverside"``
(:mod:`oprlab.rules.riverside.melee`: charge, Return Strikes, the melee Morale Test; a Routed
unit counts as destroyed, and :attr:`ExchangeOdds.figures` adds P(loser Shaken) and the Routs).

May import every core layer and ``oprlab.analysis`` (stats, odds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from oprlab.analysis.odds import Distribution
from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError, UnknownNameError
from oprlab.game.systems import find_system, system_names
from oprlab.mechanics import Mechanic, get_mechanic
from oprlab.prob import Dist
from oprlab.rng import make_rng
from oprlab.rules.gff.melee import ExactTooLarge, ExchangeResult, Side, UnitState
from oprlab.rules.query import ExchangeOptions, ExchangeSystem
from oprlab.units.model import Unit
from oprlab.version import __version__

__all__ = [
    "DEFAULT_SAMPLES",
    "ExchangeOdds",
    "ExchangeOptions",
    "ExchangeSystem",
    "exchange_odds",
    "get_exchange_system",
]

#: The headline figures of an exchange, in :class:`ExchangeOdds` order.
FIGURES = (
    "p_attacker_wins",
    "p_draw",
    "p_defender_wins",
    "p_defender_destroyed",
    "p_attacker_destroyed",
    "attacker_wounds",
    "defender_wounds",
)
#: Exchanges sampled when ``exact=False`` without ``samples``, or when exact is too large.
DEFAULT_SAMPLES = 10_000


@dataclass(frozen=True)
class ExchangeOdds:
    """The answer to one exchange query, with what is needed to reproduce it.

    Attributes:
        method: ``"exact"``, ``"certain"`` (a deterministic mechanic, played out once) or
            ``"monte carlo"``.
        p_attacker_wins: P(the charger wins the exchange).
        p_draw: P(neither wins: no unit destroyed and equal wounds dealt).
        p_defender_wins: P(the charged unit wins).
        p_defender_destroyed: P(the charged unit is destroyed; Riverside: or Routed).
        p_attacker_destroyed: P(the charger is destroyed; Riverside: or Routed).
        attacker_wounds: expected wounds the charger deals.
        defender_wounds: expected wounds the defender deals.
        attacker_casualties: models the charger loses.
        defender_casualties: models the defender loses.
        note: why the method is what it is, when it is not what was asked for.
        exact: the exact Fractions behind the figures (exact method only).
        intervals: 95% intervals of every sampled figure (Monte Carlo only).
        figures: the figures only this rule system reports (Riverside: ``p_loser_shaken``,
            ``p_defender_routed``, ``p_attacker_routed``); exact Fractions and intervals of
            them sit in :attr:`exact` and :attr:`intervals` under the same names.
    """

    system: str
    mechanic: str
    method: str
    strike_back: bool
    p_attacker_wins: float
    p_draw: float
    p_defender_wins: float
    p_defender_destroyed: float
    p_attacker_destroyed: float
    attacker_wounds: float
    defender_wounds: float
    attacker_casualties: Distribution
    defender_casualties: Distribution
    samples: int | None = None
    seed: int | None = None
    note: str = ""
    exact: dict[str, Fraction] = field(default_factory=dict)
    intervals: dict[str, Interval] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)

    @property
    def p_loser_shaken(self) -> float | None:
        """Riverside: P(the unit that lost and tested is Shaken after it); ``None`` elsewhere."""
        return self.figures.get("p_loser_shaken")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "system": self.system,
            "mechanic": self.mechanic,
            "method": self.method,
            "strike_back": self.strike_back,
            "p_attacker_wins": self.p_attacker_wins,
            "p_draw": self.p_draw,
            "p_defender_wins": self.p_defender_wins,
            "p_defender_destroyed": self.p_defender_destroyed,
            "p_attacker_destroyed": self.p_attacker_destroyed,
            "attacker_wounds": self.attacker_wounds,
            "defender_wounds": self.defender_wounds,
            "attacker_casualties": self.attacker_casualties.to_json(),
            "defender_casualties": self.defender_casualties.to_json(),
            "samples": self.samples,
            "seed": self.seed,
            "note": self.note,
            "oprlab": __version__,
        }
        if self.figures:
            out["figures"] = dict(self.figures)
        if self.exact:
            out["exact"] = {k: str(v) for k, v in self.exact.items()}
        if self.intervals:
            out["intervals"] = {
                k: {"estimate": v.estimate, "low": v.low, "high": v.high, "n": v.n}
                for k, v in self.intervals.items()
            }
        return out


def get_exchange_system(name: str) -> ExchangeSystem:
    """The melee exchange adapter of the rule system ``name`` (``find_system(name).exchange``).

    Raises:
        OptionError: an unknown system, or one with no melee exchange odds.
    """
    rules = find_system(name)
    if rules.exchange is None:
        raise UnknownNameError(
            "no melee exchange for this rule system",
            value=name,
            expected=" or ".join(n for n in system_names() if find_system(n).exchange is not None),
        )
    return rules.exchange  # type: ignore[no-any-return]


def _check_attacker(attacker: Unit) -> None:
    if not any(w.melee for w in attacker.weapons) and not attacker.rating("Impact"):
        raise OptionError(
            f"{attacker.name!r} has no melee weapon and no Impact to charge with",
            value=[w.label for w in attacker.weapons],
            expected="a charger with a melee weapon or Impact(X)",
        )


def exchange_odds(
    attacker: Unit,
    defender: Unit,
    *,
    mechanic: str = "d6",
    samples: int | None = None,
    seed: int | None = None,
    exact: bool = True,
    system: str = "gff",
    mechanic_options: dict[str, Any] | None = None,
    strike_back: bool = True,
    attacker_state: UnitState | None = None,
    defender_state: UnitState | None = None,
    impact_timing: str = "first",
    fallback_samples: int = DEFAULT_SAMPLES,
    system_options: Mapping[str, Any] | None = None,
) -> ExchangeOdds:
    """The odds of ``attacker`` charging ``defender``: who wins, who is destroyed, wounds.

    Args:
        attacker: the charging unit.
        defender: the charged unit.
        mechanic: a registered mechanic name (``"d6"``, ``"clock"``, …).
        samples: run this many sampled exchanges instead of the exact composition.
        seed: the seed of the sampled exchanges (and of a clock's random start).
        exact: ``False`` samples ``fallback_samples`` exchanges when ``samples`` is not given.
        system: the rule system (``"gff"`` or ``"riverside"``).
        mechanic_options: options of the mechanic (the clock's ``start``, ``scope`` …).
        strike_back: the defender chooses to strike back.
        attacker_state: the charger's condition (default fresh).
        defender_state: the defender's condition (default fresh).
        impact_timing: ``"first"`` or ``"with_strikes"`` (docs/rules/gff.md).
        fallback_samples: exchanges sampled when exact is too large (or ``exact=False``).
        system_options: options of the rule system's exchange (Riverside: ``impact``, ``tie``,
            ``readings``; see :class:`~oprlab.rules.riverside.odds.RiversideExchange`).
    """
    for name, n in (("samples", samples), ("fallback_samples", fallback_samples)):
        if n is not None and n < 1:
            raise OptionError(f"{name} out of range", value=n, expected="1 or more", where=name)
    ex = get_exchange_system(system)
    mech = get_mechanic(mechanic, **(mechanic_options or {}))
    _check_attacker(attacker)
    o = ExchangeOptions(
        strike_back, attacker_state, defender_state, impact_timing, dict(system_options or {})
    )
    base = {"system": ex.name, "mechanic": mechanic, "strike_back": strike_back}
    if samples is None and mech.deterministic:
        seeded = make_rng(seed)
        state = mech.initial_state(ex.owners, seeded.rng)
        result = ex.resolve(attacker, defender, mech, state, None, o)
        point = Dist.point(result)
        return _from_dist(ex, point, attacker, defender, base, "certain", seeded.seed)
    if samples is None and exact:
        try:
            dist = ex.exact(attacker, defender, mech, o)
        except ExactTooLarge as e:
            note = f"exact is too large ({e}): Monte Carlo with {fallback_samples} exchanges"
            return _sampled(ex, attacker, defender, mech, o, fallback_samples, seed, base, note)
        return _from_dist(ex, dist, attacker, defender, base, "exact", None)
    n = fallback_samples if samples is None else samples
    return _sampled(ex, attacker, defender, mech, o, n, seed, base, "")


def _from_dist(
    ex: ExchangeSystem,
    dist: Dist[ExchangeResult],
    attacker: Unit,
    defender: Unit,
    base: dict[str, Any],
    method: str,
    seed: int | None,
) -> ExchangeOdds:
    exact = {
        "p_attacker_wins": dist.probability(lambda r: r.winner is Side.ATTACKER),
        "p_draw": dist.probability(lambda r: r.winner is None),
        "p_defender_wins": dist.probability(lambda r: r.winner is Side.DEFENDER),
        "p_defender_destroyed": dist.probability(lambda r: r.defender.destroyed),
        "p_attacker_destroyed": dist.probability(lambda r: r.attacker.destroyed),
        "attacker_wounds": sum((p * r.attacker.wounds_dealt for r, p in dist.items()), Fraction(0)),
        "defender_wounds": sum((p * r.defender.wounds_dealt for r, p in dist.items()), Fraction(0)),
    }
    extra = {name: dist.probability(event) for name, event in ex.figures.items()}

    def casualties(side: Callable[[ExchangeResult], int], size: int) -> Distribution:
        pmf = [Fraction(0)] * (size + 1)
        for r, p in dist.items():
            pmf[side(r)] += p
        return _trimmed([float(x) for x in pmf])

    return ExchangeOdds(
        **base,
        method=method,
        **_figures({k: float(v) for k, v in exact.items()}),
        attacker_casualties=casualties(lambda r: r.attacker.casualties, attacker.size),
        defender_casualties=casualties(lambda r: r.defender.casualties, defender.size),
        seed=seed,
        exact={**exact, **extra} if method == "exact" else {},
        figures={k: float(v) for k, v in extra.items()},
    )


def _figures(values: dict[str, float]) -> dict[str, Any]:
    """The seven headline figures, by the names :class:`ExchangeOdds` gives them."""
    return {k: values[k] for k in FIGURES}


def _trimmed(pmf: list[float]) -> Distribution:
    while len(pmf) > 1 and pmf[-1] == 0.0:
        pmf.pop()
    return Distribution(tuple(pmf))


def _sampled(
    ex: ExchangeSystem,
    attacker: Unit,
    defender: Unit,
    mech: Mechanic,
    o: ExchangeOptions,
    n: int,
    seed: int | None,
    base: dict[str, Any],
    note: str,
) -> ExchangeOdds:
    seeded = make_rng(seed)
    rng = seeded.rng
    wins = {Side.ATTACKER: 0, None: 0, Side.DEFENDER: 0}
    destroyed = {Side.ATTACKER: 0, Side.DEFENDER: 0}
    wounds = {Side.ATTACKER: np.zeros(n), Side.DEFENDER: np.zeros(n)}
    extra = dict.fromkeys(ex.figures, 0)
    lost = {
        Side.ATTACKER: np.zeros(attacker.size + 1, dtype=np.int64),
        Side.DEFENDER: np.zeros(defender.size + 1, dtype=np.int64),
    }
    for i in range(n):
        r = ex.resolve(attacker, defender, mech, mech.initial_state(ex.owners, rng), rng, o)
        wins[r.winner] += 1
        for name, event in ex.figures.items():
            extra[name] += event(r)
        for side, res in ((Side.ATTACKER, r.attacker), (Side.DEFENDER, r.defender)):
            destroyed[side] += res.destroyed
            wounds[side][i] = res.wounds_dealt
            lost[side][res.casualties] += 1
    intervals = {
        "p_attacker_wins": wilson(wins[Side.ATTACKER], n),
        "p_draw": wilson(wins[None], n),
        "p_defender_wins": wilson(wins[Side.DEFENDER], n),
        "p_defender_destroyed": wilson(destroyed[Side.DEFENDER], n),
        "p_attacker_destroyed": wilson(destroyed[Side.ATTACKER], n),
    }
    for side in (Side.ATTACKER, Side.DEFENDER):
        w = wounds[side]
        intervals[f"{side}_wounds"] = mean_interval(float(w.sum()), float((w * w).sum()), n)
    for name, count in extra.items():
        intervals[name] = wilson(count, n)
    return ExchangeOdds(
        **base,
        method="monte carlo",
        **_figures({k: v.estimate for k, v in intervals.items()}),
        attacker_casualties=_trimmed([c / n for c in lost[Side.ATTACKER].tolist()]),
        defender_casualties=_trimmed([c / n for c in lost[Side.DEFENDER].tolist()]),
        samples=n,
        seed=seeded.seed,
        note=note,
        intervals=intervals,
        figures={name: intervals[name].estimate for name in extra},
    )
