"""Odds of the Riverside melee exchange (seed 002_fdb385c07cc953af "Melee Attacks", "Results of
the Morale Test"): exact, sampled and with the clock, through :func:`exchange_odds` with
``system="riverside"`` and the common result type.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction

import pytest

from oprlab.analysis.exchange import exchange_odds
from oprlab.analysis.stats import wilson
from oprlab.errors import OptionError, UnknownNameError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.clock import Clock
from oprlab.rules.gff.melee import Side, UnitState
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.melee import (
    OWNERS,
    exchange_outcomes,
    loser_shaken,
    resolve_exchange,
    routed,
)
from oprlab.units.model import Rule, Unit, Weapon

#: z for a two-sided 99.9% interval: the sampled-vs-exact checks should not fail by chance.
Z999 = 3.2905
RIVERSIDE = "riverside"


def unit(
    name: str,
    size: int = 1,
    q: int = 4,
    d: int = 4,
    weapons: Sequence[Weapon] = (),
    rules: Sequence[Rule] = (),
) -> Unit:
    return Unit(name, size, q, d, rules=tuple(rules), weapons=tuple(weapons))


def knife(count: int = 1, attacks: int = 1, *rules: Rule) -> Weapon:
    return Weapon("Knife", attacks, count=count, rules=tuple(rules))


BLADE = unit("Blade", weapons=[knife()])
GIANT = unit("Giant", weapons=[knife()], rules=[Rule("Tough", 2)])
RAIDERS = unit(
    "Raiders", 3, q=4, d=4, weapons=[knife(3)], rules=[Rule("Furious"), Rule("Impact", 1)]
)
GUARDS = unit("Guards", 3, q=4, d=5, weapons=[knife(3)], rules=[Rule("Tough", 2)])


def test_loser_shaken_by_hand() -> None:
    """seed 002 "Results of the Morale Test": a Q4 knife wounds with 1/4; a 3-model defender
    that does not strike back loses 1-0 with 2 of 3 left (not half), fails its Q4 test with 1/2
    and is Shaken: P(loser Shaken) = 1/8; the charger wins 1/4, the rest is a draw."""
    line = unit("Line", 3, weapons=[knife(3)])
    odds = exchange_odds(BLADE, line, system=RIVERSIDE, strike_back=False)
    assert odds.method == "exact" and odds.system == RIVERSIDE
    assert odds.exact["p_attacker_wins"] == Fraction(1, 4)
    assert odds.exact["p_draw"] == Fraction(3, 4)
    assert odds.exact["p_defender_wins"] == 0
    assert odds.exact["p_loser_shaken"] == Fraction(1, 8)
    assert odds.exact["p_defender_routed"] == 0 and odds.exact["p_defender_destroyed"] == 0
    assert odds.p_loser_shaken == pytest.approx(1 / 8)


def test_rout_counts_as_removed_but_not_as_casualties() -> None:
    """seed 002 "Results of the Morale Test": at half strength (1 of 2 left) a failure Routs
    and the unit is removed: P = 1/4 x 1/2 = 1/8, counted in p_defender_destroyed (routed or
    destroyed) and p_defender_routed, while the casualties count only the model lost to
    wounds."""
    pair = unit("Pair", 2, weapons=[knife(2)])
    odds = exchange_odds(BLADE, pair, system=RIVERSIDE, strike_back=False)
    assert odds.exact["p_defender_routed"] == Fraction(1, 8)
    assert odds.exact["p_defender_destroyed"] == Fraction(1, 8)
    assert odds.exact["p_loser_shaken"] == 0
    assert odds.figures["p_defender_routed"] == pytest.approx(1 / 8)
    assert odds.defender_casualties.pmf == pytest.approx((3 / 4, 1 / 4))


def test_worked_example_with_return_strikes() -> None:
    """seed 002 "Melee Attacks": a Q4 knife charges a Tough(2) single model that strikes back
    (docs example, also brute-forced in tests/rules/riverside/test_melee.py): attacker wins
    3/16, draw 9/16, defender wins 1/4; the defender Routs with 3/32; the charger is destroyed
    with 1/4."""
    odds = exchange_odds(BLADE, GIANT, system=RIVERSIDE)
    assert odds.exact["p_attacker_wins"] == Fraction(3, 16)
    assert odds.exact["p_draw"] == Fraction(9, 16)
    assert odds.exact["p_defender_wins"] == Fraction(1, 4)
    assert odds.exact["p_defender_destroyed"] == Fraction(3, 32)
    assert odds.exact["p_attacker_destroyed"] == Fraction(1, 4)
    assert odds.exact["attacker_wounds"] == Fraction(1, 4)
    assert odds.exact["defender_wounds"] == Fraction(1, 4)


def test_exact_odds_are_read_off_the_exact_distribution() -> None:
    """The odds are the exact joint distribution's (seed 002 charge with Furious and Impact,
    Return Strikes on the casualties left, the Morale Test)."""
    odds = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE)
    dist = exchange_outcomes(RAIDERS, GUARDS, get_mechanic("d6"))
    assert odds.exact["p_attacker_wins"] == dist.probability(lambda r: r.winner is Side.ATTACKER)
    assert odds.exact["p_loser_shaken"] == dist.probability(loser_shaken)
    assert odds.exact["p_attacker_routed"] == dist.probability(lambda r: routed(r, Side.ATTACKER))
    total = sum(odds.exact[k] for k in ("p_attacker_wins", "p_draw", "p_defender_wins"))
    assert total == 1
    assert sum(odds.attacker_casualties.pmf) == pytest.approx(1.0)


def test_sampled_agrees_with_exact_within_an_interval() -> None:
    """Monte Carlo of resolve_exchange (seeded) against the exact composition: every
    probability, the Riverside figures included, inside a 99.9% Wilson interval; mean wounds
    inside a 99.9% normal interval (seed 002 "Melee Attacks")."""
    exact = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE)
    n = 2000
    sampled = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE, samples=n, seed=2024)
    assert sampled.method == "monte carlo" and sampled.samples == n and sampled.seed == 2024
    probabilities = {
        "p_attacker_wins": (sampled.p_attacker_wins, exact.p_attacker_wins),
        "p_draw": (sampled.p_draw, exact.p_draw),
        "p_defender_wins": (sampled.p_defender_wins, exact.p_defender_wins),
        "p_defender_destroyed": (sampled.p_defender_destroyed, exact.p_defender_destroyed),
        "p_attacker_destroyed": (sampled.p_attacker_destroyed, exact.p_attacker_destroyed),
        **{k: (sampled.figures[k], exact.figures[k]) for k in exact.figures},
    }
    assert set(exact.figures) == {"p_loser_shaken", "p_defender_routed", "p_attacker_routed"}
    for key, (estimate, truth) in probabilities.items():
        interval = wilson(round(estimate * n), n, z=Z999)
        assert interval.low <= truth <= interval.high, key
        assert sampled.intervals[key].n == n
    for key in ("attacker_wounds", "defender_wounds"):
        iv = sampled.intervals[key]
        half = (iv.high - iv.low) / 2 * Z999 / 1.959963984540054
        assert abs(getattr(exact, key) - iv.estimate) <= half, key
    assert exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE, samples=n, seed=2024) == sampled


def test_clock_is_played_out_once() -> None:
    """seed 000 clock with seed 002 "Melee Attacks": certain given the clocks."""
    odds = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE, mechanic="clock")
    assert odds.method == "certain" and not odds.exact and odds.samples is None
    clock = Clock()
    r = resolve_exchange(RAIDERS, GUARDS, Roller(clock, clock.initial_state(OWNERS), None))
    assert odds.attacker_wounds == r.attacker.wounds_dealt
    assert odds.defender_wounds == r.defender.wounds_dealt
    assert odds.p_loser_shaken == float(loser_shaken(r))
    assert odds.p_attacker_wins == float(r.winner is Side.ATTACKER)


def test_system_options_pass_through() -> None:
    """docs/rules/riverside.md "Melee exchange": the tie and Impact readings and the attack
    Readings reach the exchange."""
    d6 = get_mechanic("d6")
    both = exchange_odds(GIANT, GIANT, system=RIVERSIDE, system_options={"tie": "both"})
    dist = exchange_outcomes(GIANT, GIANT, d6, tie="both")
    assert both.exact["p_loser_shaken"] == dist.probability(loser_shaken) > 0
    plain = exchange_odds(GIANT, GIANT, system=RIVERSIDE)
    assert plain.exact["p_loser_shaken"] == 0  # a 0-0 or 1-1 tie: nobody tests by default
    no_impact = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE, system_options={"impact": "none"})
    with_impact = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE)
    assert no_impact.attacker_wounds < with_impact.attacker_wounds


def test_a_shaken_unit_may_charge_in_riverside() -> None:
    """seed 002 "Terms: Shaken": no clause stops a Shaken unit charging; it fights as Fatigued
    (6s only), so it does worse than fresh."""
    shaken = exchange_odds(
        RAIDERS, GUARDS, system=RIVERSIDE, attacker_state=UnitState(3, shaken=True)
    )
    fresh = exchange_odds(RAIDERS, GUARDS, system=RIVERSIDE)
    assert shaken.attacker_wounds < fresh.attacker_wounds


def test_big_units_fall_back_to_monte_carlo_and_say_so() -> None:
    """Exact over the joint state is too large for two 60-model Tough(3) units: sampled."""
    horde = unit("Horde", 60, q=5, d=5, weapons=[knife(60, 3)], rules=[Rule("Tough", 3)])
    odds = exchange_odds(horde, horde, system=RIVERSIDE, fallback_samples=20, seed=1)
    assert odds.method == "monte carlo" and odds.samples == 20
    assert "exact is too large" in odds.note
    assert odds.intervals["p_loser_shaken"].n == 20


def test_bad_inputs() -> None:
    """Errors say what was wrong and what would be right."""
    with pytest.raises(OptionError, match="unknown Riverside exchange option") as e:
        exchange_odds(BLADE, GIANT, system=RIVERSIDE, system_options={"ties": "both"})
    assert e.value.expected == "impact, tie, readings"
    with pytest.raises(OptionError, match="impact_timing is a GFF option"):
        exchange_odds(BLADE, GIANT, system=RIVERSIDE, impact_timing="with_strikes")
    with pytest.raises(OptionError, match="Readings"):
        exchange_odds(BLADE, GIANT, system=RIVERSIDE, system_options={"readings": "max"})
    with pytest.raises(OptionError, match="unknown melee tie reading"):
        exchange_odds(BLADE, GIANT, system=RIVERSIDE, system_options={"tie": "coin"})
    with pytest.raises(OptionError, match="takes no system options"):
        exchange_odds(BLADE, GIANT, system_options={"tie": "both"})
    with pytest.raises(UnknownNameError) as u:
        exchange_odds(BLADE, GIANT, system="chess")
    assert u.value.expected is not None and "riverside" in u.value.expected


def test_gff_reports_no_riverside_figures() -> None:
    """The GFF exchange is unchanged: no extra figures, none in its JSON."""
    odds = exchange_odds(BLADE, BLADE)
    assert odds.figures == {} and odds.p_loser_shaken is None
    assert "figures" not in odds.to_json() and "p_loser_shaken" not in odds.exact


def test_to_json() -> None:
    """Riverside results record the extra figures, with exact Fractions as text."""
    exact = exchange_odds(BLADE, GIANT, system=RIVERSIDE).to_json()
    assert exact["system"] == RIVERSIDE and exact["exact"]["p_defender_routed"] == "3/32"
    assert exact["figures"]["p_defender_routed"] == pytest.approx(3 / 32)
    sampled = exchange_odds(BLADE, GIANT, system=RIVERSIDE, samples=30, seed=4).to_json()
    assert sampled["intervals"]["p_loser_shaken"]["n"] == 30
    json.dumps(exact)
    json.dumps(sampled)
