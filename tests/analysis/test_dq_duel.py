"""DragonQuest duels in series (seed 001_7377b7b33dc9f88d): the sampled first round against its
exact law, the report's figures, the comparison of the two resolutions."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from oprlab.analysis.dq_duel import (
    compare_resolutions,
    duel_series,
    play_one,
    round_law,
    summarize,
)
from oprlab.errors import OptionError
from oprlab.game.dq.engine import play
from oprlab.game.dq.state import Action, DecisionStep, Duel, Fight, Out
from oprlab.players.dq_habits import DuelHabits
from oprlab.rng import make_rng, spawn
from oprlab.rules.dq.combat import AttackKind
from oprlab.rules.dq.duel_rules import DuelRules
from oprlab.rules.dq.resolution import Resolution, strike_outcome_dist
from oprlab.samples import sample_text
from oprlab.units.dq_fighter import DqFighter, load_dq_fighter
from tests.game.dq import choose, engaged, fighter, rolls

HABITS = (DuelHabits(), DuelHabits())
#: Samples of the first round; per state, |frequency - p| within 4.5 standard errors.
SAMPLES = 2000
Z_CELL = 4.5
#: The chi-square statistic over cells of expected count >= 5 stays below its 99.9% quantile.
Z_CHI = 3.09


def _fighter(name: str) -> DqFighter:
    return load_dq_fighter(sample_text(f"dq/{name}"), name)


def _chi2_quantile(k: int, z: float) -> float:
    """Wilson-Hilferty: the chi-square quantile with ``k`` degrees of freedom at normal ``z``."""
    h = 2 / (9 * k)
    return k * (1 - h + z * math.sqrt(h)) ** 3


def _damage(fight: Fight) -> int:
    """FT + EN both fighters have lost."""
    return sum(
        (f.characteristics.ft - s.ft) + (f.characteristics.en - s.en)
        for f, s in zip(fight.duel.fighters, fight.status, strict=True)
    )


@pytest.mark.parametrize("resolution", ["opposed", "current"])
def test_sampled_first_round_matches_its_exact_law(resolution: Resolution) -> None:
    """A duel's first round (novice against master: unengaged initiative, a charge the master's
    Rank 9 repulses on 9 or 10, the charge's blow, the other's blow), sampled 2,000 times with
    dice from seeded Generators, against the exact law of that round (every die enumerated by
    the same steps): every sampled fight is one the law lists; each fight with
    p >= 1% comes up within 4.5 standard errors of p; the chi-square over cells of expected
    count >= 5 (the rest pooled) is below its 99.9% quantile; the mean FT + EN lost is within
    4.5 standard errors of its exact value."""
    rules = DuelRules(resolution=resolution)
    duel = Duel((_fighter("novice"), _fighter("master")), rules)
    law = round_law(duel, HABITS, rounds=1)
    assert sum(law.values()) == 1
    seen = Counter(play(duel, HABITS, make_rng(s).rng, rounds=1)[0] for s in spawn(3, SAMPLES))
    assert set(seen) <= set(law)
    for fight, p in law.items():
        if p >= Fraction(1, 100):
            se = math.sqrt(p * (1 - p) / SAMPLES)
            assert abs(seen[fight] / SAMPLES - p) <= Z_CELL * se, (fight.status, p)
    big = [f for f, p in law.items() if p * SAMPLES >= 5]
    rest_p = 1 - sum(law[f] for f in big)
    rest_n = SAMPLES - sum(seen[f] for f in big)
    chi2: Fraction | float = sum(
        (seen[f] - law[f] * SAMPLES) ** 2 / (law[f] * SAMPLES) for f in big
    )
    if rest_p * SAMPLES >= 5:
        chi2 += (rest_n - rest_p * SAMPLES) ** 2 / (rest_p * SAMPLES)
    cells = len(big) + (rest_p * SAMPLES >= 5)
    assert float(chi2) <= _chi2_quantile(cells - 1, Z_CHI)
    mean = sum(p * _damage(f) for f, p in law.items())
    var = sum(p * (_damage(f) - mean) ** 2 for f, p in law.items())
    sampled = sum(n * _damage(f) for f, n in seen.items()) / SAMPLES
    assert abs(sampled - mean) <= Z_CELL * math.sqrt(var / SAMPLES)


class Passer:
    """A fighter who only ever passes (or closes, before the two meet)."""

    name = "passer"

    def choose(self, fight: Fight, step: DecisionStep, options: tuple[Action, ...]) -> Action:
        return Action("close") if not fight.engaged else Action("pass")


def test_round_law_of_one_blow_against_the_strike_law() -> None:
    """A always wins the unengaged initiative (D10 + 16 + 2 x 5 against D10 + 15) and closes in
    round 1 (no pole, no shield); in round 2 A (initiative 31 against 30) strikes and B passes.
    So P(B untouched after round 2) is P(A's strike is blocked), and P(B lost exactly 7
    Fatigue) is P(an Average result) x P(D10 = 7): the round law, built from the duel's steps,
    agrees with the strike's own exact law (brute-forced in tests/rules/dq/test_resolution.py)."""
    a, b = fighter("A", pc=16, bc=55, ms=5), fighter("B", ft=40, en=40)
    law = round_law(Duel((a, b)), (DuelHabits(), Passer()), rounds=2)
    strike = strike_outcome_dist(70, 15, resolution="opposed")
    blocked = strike.probability(lambda lp: lp[0] == 0)
    assert sum(p for f, p in law.items() if f.status[1].blows == 0) == blocked
    # Level 1 (Average: D10 fatigue) and 2 (Better: Maximum Fatigue, 10): 7 fatigue only from a
    # level-1 D10 of 7.
    average = strike.probability(lambda lp: lp[0] == 1)
    lost_7 = sum(p for f, p in law.items() if f.status[1].ft == 33 and f.status[1].en == 40)
    assert lost_7 == average / 10


def test_series_report() -> None:
    """A series reports P(wins) and P(draw) summing to 1, rounds, damage per round, endings, with
    intervals; the same seed gives the same series; each duel replays alone from its seed."""
    fighters = (_fighter("knight"), _fighter("novice"))
    report = duel_series(fighters, HABITS, games=60, seed=4)
    again = duel_series(fighters, HABITS, games=60, seed=4)
    assert report.summaries == again.summaries
    total = report.wins[0].estimate + report.wins[1].estimate + report.draws.estimate
    assert total == pytest.approx(1)
    assert sum(report.rounds_hist.values()) == 60
    assert sum(v.estimate for v in report.endings.values()) == pytest.approx(1)
    assert report.wins[0].low <= report.wins[0].estimate <= report.wins[0].high
    first = report.summaries[0]
    fight, events = play_one(Duel(fighters, report.rules), HABITS, first.seed)
    assert summarize(first.seed, fight, events) == first
    data = report.to_json()
    assert set(data) >= {"p_win", "p_draw", "rounds", "damage_per_round", "p_one_blow", "p_death"}
    assert data["rules"]["resolution"] == "opposed"
    q = report.rounds_quantiles()
    assert q[0.1] <= q[0.5] <= q[0.9]
    with pytest.raises(OptionError, match="--games"):
        duel_series(fighters, HABITS, games=0)


def test_summary_counts_one_blow_and_damage() -> None:
    """A fight decided by one blow: the loser's first harm put it out. Damage is credited to
    the dealer."""
    a, b = fighter("A", pc=16, modifier=20), fighter("B", en=5)
    fight = choose(engaged(a, b), "attack", AttackKind.STRIKE)
    fight, events = rolls(fight, 5, 60, 9)  # Decisive: 9 + 20 EN
    assert fight.status[1].out == Out.DEAD
    s = summarize(0, fight, events)
    assert s.one_blow and s.winner == 0 and s.ending == "dead"
    assert s.damage == (29, 0) and s.endurance == (29, 0)


def test_compare_resolutions() -> None:
    """Both resolutions on the same pairing, with differences and intervals."""
    cmp = compare_resolutions((_fighter("master"), _fighter("novice")), HABITS, games=40, seed=2)
    assert cmp.opposed.rules.resolution == "opposed"
    assert cmp.current.rules.resolution == "current"
    for d in cmp.differences:
        assert d.low <= d.diff <= d.high
        assert d.diff == pytest.approx(d.opposed - d.current)
    assert "differences" in cmp.to_json()
