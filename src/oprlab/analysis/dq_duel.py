"""DragonQuest duels played many times: who wins, how long, how bloody, with intervals; and the
exact law of a duel's first rounds (seed 001_7377b7b33dc9f88d).

:func:`duel_series` plays ``games`` duels, each from its own seed spawned from one seed (one seed,
one duel, replayable alone), and sums them up in :class:`DuelReport`: P(each side wins) and P(draw)
with Wilson intervals, rounds to the end (mean with interval, and the distribution), damage dealt
per round by each side, how fights end (dead, unconscious, knocked out, restrained, withdrew), and
the share decided by one blow: the loser was out after the first roll that touched it.
:func:`compare_resolutions` plays the same pairing under ``opposed`` and ``current`` and gives the
differences with intervals. :func:`round_law` walks every die of the first round(s) exactly,
from the same steps the sampled duels take.

May import every layer below ``analysis``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from oprlab.analysis.stats import Z95, Interval, mean_interval, wilson
from oprlab.errors import OptionError
from oprlab.game.dq.engine import (
    DuelCommander,
    advance,
    apply_choice,
    apply_outcome,
    chance_outcomes,
    next_step,
    play,
)
from oprlab.game.dq.rounds import new_fight
from oprlab.game.dq.state import DecisionStep, Duel, Event, Fight, Harm, Out, StrikeRecord
from oprlab.rng import MAX_SEED, make_rng, spawn
from oprlab.rules.dq.duel_rules import RESOLUTIONS, DuelRules
from oprlab.units.dq_fighter import DqFighter

__all__ = [
    "MAX_GAMES",
    "Difference",
    "DuelComparison",
    "DuelReport",
    "FightSummary",
    "compare_resolutions",
    "difference",
    "duel_series",
    "play_one",
    "play_series",
    "round_law",
    "summarize",
]

#: More duels than this in one series is surely a typo.
MAX_GAMES = 1_000_000
#: Ways a fight ends, in report order.
ENDINGS = (*(o.value for o in Out), "draw")


@dataclass(frozen=True)
class FightSummary:
    """One played duel, reduced to what the report counts.

    Attributes:
        seed: the duel's own seed.
        winner: 0, 1, or ``None`` for a draw.
        ending: how the loser left (``dead``, ``unconscious`` ...) or ``draw``.
        rounds: rounds played.
        damage: FT + EN each side dealt (index: the dealer).
        endurance: EN each side took away.
        one_blow: the loser was out after the first roll that harmed or hampered it.
        strikes: strikes made.
        grievous: specific grievous injuries suffered.
    """

    seed: int
    winner: int | None
    ending: str
    rounds: int
    damage: tuple[int, int]
    endurance: tuple[int, int]
    one_blow: bool
    strikes: int
    grievous: int


def summarize(seed: int, fight: Fight, events: Sequence[Event]) -> FightSummary:
    """The summary of a finished duel and its account."""
    winner = fight.winner
    loser = None if winner is None else 1 - winner
    out = None if loser is None else fight.status[loser].out
    dealt = [0, 0]
    en = [0, 0]
    grievous = 0
    for e in events:
        if isinstance(e, Harm):
            dealt[1 - e.side] += e.fatigue + e.endurance
            en[1 - e.side] += e.endurance
            grievous += e.source == "grievous injury"
    one_blow = (
        loser is not None and out not in (None, Out.WITHDREW) and fight.status[loser].blows == 1
    )
    rounds = min(fight.round, fight.duel.rules.max_rounds)
    return FightSummary(
        seed=seed,
        winner=winner,
        ending="draw" if out is None else out.value,
        rounds=rounds,
        damage=(dealt[0], dealt[1]),
        endurance=(en[0], en[1]),
        one_blow=one_blow,
        strikes=sum(isinstance(e, StrikeRecord) for e in events),
        grievous=grievous,
    )


def play_one(
    duel: Duel, commanders: Sequence[DuelCommander], seed: int
) -> tuple[Fight, tuple[Event, ...]]:
    """One duel from its seed (what a series plays for each of its games)."""
    return play(duel, commanders, make_rng(seed).rng)


def _mean(values: Sequence[float]) -> Interval:
    return mean_interval(sum(values), sum(v * v for v in values), len(values), floor=0.0)


@dataclass(frozen=True)
class DuelReport:
    """A series of duels between two fighters under one set of rules."""

    names: tuple[str, str]
    rules: DuelRules
    seed: int
    games: int
    commanders: tuple[str, str]
    wins: tuple[Interval, Interval]
    draws: Interval
    rounds: Interval
    rounds_hist: dict[int, int]
    damage_per_round: tuple[Interval, Interval]
    endings: dict[str, Interval]
    one_blow: Interval
    deaths: Interval
    knockouts: Interval
    grievous_per_fight: Interval
    summaries: tuple[FightSummary, ...] = field(repr=False, default=())

    def rounds_quantiles(self, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> dict[float, int]:
        """Rounds at the given quantiles of the distribution."""
        out: dict[float, int] = {}
        total = sum(self.rounds_hist.values())
        for q in qs:
            seen = 0
            for r in sorted(self.rounds_hist):
                seen += self.rounds_hist[r]
                if seen >= q * total:
                    out[q] = r
                    break
        return out

    def to_json(self) -> dict[str, Any]:
        def iv(i: Interval) -> dict[str, float]:
            return {"estimate": i.estimate, "low": i.low, "high": i.high, "n": i.n}

        return {
            "fighters": list(self.names),
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "games": self.games,
            "commanders": list(self.commanders),
            "p_win": [iv(w) for w in self.wins],
            "p_draw": iv(self.draws),
            "rounds": {
                "mean": iv(self.rounds),
                "quantiles": {str(q): r for q, r in self.rounds_quantiles().items()},
                "distribution": {str(r): n for r, n in sorted(self.rounds_hist.items())},
            },
            "damage_per_round": [iv(d) for d in self.damage_per_round],
            "endings": {k: iv(v) for k, v in self.endings.items()},
            "p_one_blow": iv(self.one_blow),
            "p_death": iv(self.deaths),
            "p_knockout": iv(self.knockouts),
            "grievous_per_fight": iv(self.grievous_per_fight),
        }


def report(
    duel: Duel, summaries: Sequence[FightSummary], seed: int, commanders: tuple[str, str]
) -> DuelReport:
    """Sum up played duels with 95% intervals."""
    n = len(summaries)
    wins = tuple(wilson(sum(s.winner == side for s in summaries), n) for side in (0, 1))
    ending = Counter(s.ending for s in summaries)
    per_round = tuple(_mean([s.damage[side] / s.rounds for s in summaries]) for side in (0, 1))
    return DuelReport(
        names=(duel.fighters[0].name, duel.fighters[1].name),
        rules=duel.rules,
        seed=seed,
        games=n,
        commanders=commanders,
        wins=(wins[0], wins[1]),
        draws=wilson(ending["draw"], n),
        rounds=_mean([s.rounds for s in summaries]),
        rounds_hist=dict(sorted(Counter(s.rounds for s in summaries).items())),
        damage_per_round=(per_round[0], per_round[1]),
        endings={k: wilson(ending[k], n) for k in ENDINGS},
        one_blow=wilson(sum(s.one_blow for s in summaries), n),
        deaths=wilson(ending[Out.DEAD.value], n),
        knockouts=wilson(ending[Out.KNOCKED_OUT.value], n),
        grievous_per_fight=_mean([s.grievous for s in summaries]),
        summaries=tuple(summaries),
    )


def duel_series(
    fighters: tuple[DqFighter, DqFighter],
    commanders: Sequence[DuelCommander],
    *,
    rules: DuelRules | None = None,
    games: int = 1000,
    seed: int = 0,
) -> DuelReport:
    """Play ``games`` duels (seeds spawned from ``seed``) and report them."""
    duel = Duel(fighters, rules or DuelRules())
    summaries = [summarize(*played) for played in play_series(duel, commanders, games, seed)]
    names = (commanders[0].name, commanders[1].name)
    return report(duel, summaries, seed, names)


def play_series(
    duel: Duel, commanders: Sequence[DuelCommander], games: int, seed: int
) -> Iterator[tuple[int, Fight, tuple[Event, ...]]]:
    """Each duel of a series: its own seed (spawned from ``seed``), the end, the account."""
    if not 1 <= games <= MAX_GAMES:
        raise OptionError("--games out of range", value=games, expected=f"1 to {MAX_GAMES:,}")
    if not 0 <= seed <= MAX_SEED:
        raise OptionError("--seed out of range", value=seed, expected=f"0 to {MAX_SEED}")
    for child in spawn(seed, games):
        fight, events = play_one(duel, commanders, child)
        yield child, fight, events


@dataclass(frozen=True)
class Difference:
    """Opposed minus current for one figure, with a 95% normal interval."""

    name: str
    opposed: float
    current: float
    diff: float
    low: float
    high: float


@dataclass(frozen=True)
class DuelComparison:
    """The same pairing played under both resolutions (seeds spawned from one seed each)."""

    opposed: DuelReport
    current: DuelReport
    differences: tuple[Difference, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "opposed": self.opposed.to_json(),
            "current": self.current.to_json(),
            "differences": [d.__dict__ for d in self.differences],
        }


def difference(name: str, a: Interval, b: Interval) -> Difference:
    """Difference of two independent estimates; each interval's half-width gives its standard
    error (Wilson and normal alike, near enough for the difference)."""
    se_a = (a.high - a.low) / (2 * Z95)
    se_b = (b.high - b.low) / (2 * Z95)
    half = Z95 * math.sqrt(se_a**2 + se_b**2)
    diff = a.estimate - b.estimate
    return Difference(name, a.estimate, b.estimate, diff, diff - half, diff + half)


def compare_resolutions(
    fighters: tuple[DqFighter, DqFighter],
    commanders: Sequence[DuelCommander],
    *,
    rules: DuelRules | None = None,
    games: int = 1000,
    seed: int = 0,
) -> DuelComparison:
    """The pairing under ``opposed`` and ``current`` (other readings as in ``rules``)."""
    base = rules or DuelRules()
    reports = {
        res: duel_series(
            fighters,
            commanders,
            rules=replace(base, resolution=res, ladder="full"),
            games=games,
            seed=seed,
        )
        for res in RESOLUTIONS
    }
    o, c = reports["opposed"], reports["current"]
    diffs = [
        difference("P(A wins)", o.wins[0], c.wins[0]),
        difference("P(B wins)", o.wins[1], c.wins[1]),
        difference("P(draw)", o.draws, c.draws),
        difference("rounds (mean)", o.rounds, c.rounds),
        difference("damage per round by A", o.damage_per_round[0], c.damage_per_round[0]),
        difference("damage per round by B", o.damage_per_round[1], c.damage_per_round[1]),
        difference("P(a death)", o.deaths, c.deaths),
        difference("P(knockout)", o.knockouts, c.knockouts),
        difference("P(decided by one blow)", o.one_blow, c.one_blow),
        difference("grievous injuries per fight", o.grievous_per_fight, c.grievous_per_fight),
    ]
    return DuelComparison(o, c, tuple(diffs))


def round_law(
    duel: Duel, commanders: Sequence[DuelCommander], rounds: int = 1
) -> dict[Fight, Fraction]:
    """The exact law of the fight at the end of round ``rounds`` (or its end, if sooner): every
    die enumerated through :func:`~oprlab.game.dq.engine.chance_outcomes`, every decision the
    commanders'. Equal fights are merged as they arise, which keeps a round to a few thousand
    states."""
    start, _ = advance(new_fight(duel), rounds)
    frontier: dict[Fight, Fraction] = {start: Fraction(1)}
    final: dict[Fight, Fraction] = {}
    while frontier:
        ahead: dict[Fight, Fraction] = {}
        for fight, p in frontier.items():
            step = next_step(fight, rounds)
            if step is None:
                final[fight] = final.get(fight, Fraction(0)) + p
                continue
            if isinstance(step, DecisionStep):
                action = commanders[step.side].choose(fight, step, step.options(fight))
                after, _ = apply_choice(fight, action, rounds)
                ahead[after] = ahead.get(after, Fraction(0)) + p
                continue
            for outcome, q, face in chance_outcomes(fight, step):
                after, _ = apply_outcome(fight, outcome, face, rounds)
                ahead[after] = ahead.get(after, Fraction(0)) + p * q
        frontier = ahead
    return final
