"""Odds of the GFF melee exchange (seed 003_8abb008d4113ed75 "Melee", "Wound Effects"): exact,
sampled and with the clock, and "win the exchange" as docs/rules/gff.md "Melee exchange" defines.
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
from oprlab.rules.gff.melee import OWNERS, Side, UnitState, exchange_outcomes, resolve_exchange
from oprlab.rules.gff.resolve import Roller
from oprlab.units.model import Rule, Unit, Weapon

#: z for a two-sided 99.9% interval: the sampled-vs-exact checks should not fail by chance.
Z999 = 3.2905


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


DUELLIST = unit("Duellist", weapons=[knife()])
RAIDERS = unit("Raiders", 3, d=5, weapons=[knife(3, 1, Rule("AP", 1))], rules=[Rule("Impact", 1)])
GUARDS = unit(
    "Guards",
    3,
    d=4,
    weapons=[Weapon("Spear", 1, count=3, rules=(Rule("Counter"),))],
    rules=[Rule("Tough", 1)],
)


def test_hand_derived_duel_without_strike_back() -> None:
    """seed 003 Shooting ("Works like shooting"), Wound Effects: Q4 hits 1/2, D4 fails 1/2, the
    wound roll (die + 1 marker) Knocks Out on 6+: 1/3. A wound dealt and none taken wins."""
    odds = exchange_odds(DUELLIST, unit("Post", q=4, d=4), strike_back=False)
    assert odds.method == "exact"
    assert odds.exact["p_attacker_wins"] == Fraction(1, 4)
    assert odds.exact["p_defender_destroyed"] == Fraction(1, 12)
    assert odds.exact["p_draw"] == Fraction(3, 4)
    assert odds.exact["p_defender_wins"] == 0
    assert odds.exact["attacker_wounds"] == Fraction(1, 4)
    assert odds.defender_casualties.pmf == pytest.approx((11 / 12, 1 / 12))


def test_hand_derived_duel_with_strike_back() -> None:
    """seed 003 Striking (strike back), Wound Effects (a Shaken unit strikes back as fatigued:
    6s only), Fatigue. Two Q4 D4 duellists with one knife each; a wound is dealt with 1/4, and
    Knocks Out with 1/3 (else Shaken):

    - charger wins: 1/12 (Knocked Out) + 1/6 (Shaken) x 11/12 (the 6-only strike back deals no
      wound) = 17/72;
    - defender wins: 3/4 (no wound) x 1/4 (wounds back) + 1/6 x 1/12 x 1/3 (Shaken, wounds back
      on a 6 and Knocks the charger Out: destroyed loses despite equal wounds) = 83/432;
    - draw: the rest, 247/432. The charger is destroyed with 3/4 x 1/4 x 1/3 + 1/216 = 29/432.
    """
    odds = exchange_odds(DUELLIST, DUELLIST)
    assert odds.exact["p_attacker_wins"] == Fraction(17, 72)
    assert odds.exact["p_defender_wins"] == Fraction(83, 432)
    assert odds.exact["p_draw"] == Fraction(247, 432)
    assert odds.exact["p_attacker_destroyed"] == Fraction(29, 432)
    assert odds.p_attacker_wins == pytest.approx(17 / 72)


def test_exact_odds_match_the_exact_distribution() -> None:
    """The odds are read off the exact joint distribution of the exchange (seed 003 Melee)."""
    odds = exchange_odds(RAIDERS, GUARDS)
    dist = exchange_outcomes(RAIDERS, GUARDS, get_mechanic("d6"))
    wins = dist.probability(lambda r: r.winner is Side.ATTACKER)
    assert odds.exact["p_attacker_wins"] == wins
    total = sum(odds.exact[k] for k in ("p_attacker_wins", "p_draw", "p_defender_wins"))
    assert total == 1
    wounds = sum((p * r.attacker.wounds_dealt for r, p in dist.items()), Fraction(0))
    assert odds.exact["attacker_wounds"] == wounds
    assert sum(odds.attacker_casualties.pmf) == pytest.approx(1.0)
    assert sum(odds.defender_casualties.pmf) == pytest.approx(1.0)
    assert odds.defender_casualties.pmf[-1] == pytest.approx(odds.p_defender_destroyed)
    assert odds.samples is None and not odds.intervals


def test_sampled_agrees_with_exact_within_an_interval() -> None:
    """Monte Carlo of resolve_exchange (seeded) against the exact composition (seed 003 Melee
    with Impact, Counter, AP): every probability inside a 99.9% Wilson interval."""
    exact = exchange_odds(RAIDERS, GUARDS)
    n = 3000
    sampled = exchange_odds(RAIDERS, GUARDS, samples=n, seed=2024)
    assert sampled.method == "monte carlo" and sampled.samples == n and sampled.seed == 2024
    for key in (
        "p_attacker_wins",
        "p_draw",
        "p_defender_wins",
        "p_defender_destroyed",
        "p_attacker_destroyed",
    ):
        estimate = getattr(sampled, key)
        interval = wilson(round(estimate * n), n, z=Z999)
        assert interval.low <= getattr(exact, key) <= interval.high, key
        assert sampled.intervals[key].n == n
    for key in ("attacker_wounds", "defender_wounds"):
        iv = sampled.intervals[key]
        half = (iv.high - iv.low) / 2 * Z999 / 1.959963984540054
        assert abs(getattr(exact, key) - iv.estimate) <= half, key
    again = exchange_odds(RAIDERS, GUARDS, samples=n, seed=2024)
    assert again == sampled


def test_clock_is_played_out_once() -> None:
    """seed 000 clock with seed 003 Melee: certain given the clocks (start 1, or as given)."""
    raiders = unit("Raiders", 1, q=3, d=4, weapons=[knife(1, 2)])
    sentry = unit("Sentry", 1, q=4, d=5, weapons=[knife()])
    odds = exchange_odds(raiders, sentry, mechanic="clock")
    assert odds.method == "certain" and not odds.exact and odds.samples is None
    clock = Clock()
    r = resolve_exchange(raiders, sentry, Roller(clock, clock.initial_state(OWNERS), None))
    assert odds.p_attacker_wins == 1.0 and r.winner is Side.ATTACKER
    assert odds.attacker_wounds == r.attacker.wounds_dealt == 1
    assert odds.defender_wounds == 0 and odds.p_draw == 0.0
    assert exchange_odds(raiders, sentry, mechanic="clock", seed=3) == exchange_odds(
        raiders, sentry, mechanic="clock", seed=3
    )
    started = exchange_odds(raiders, sentry, mechanic="clock", mechanic_options={"start": 4})
    clock4 = Clock(start=4)
    r4 = resolve_exchange(raiders, sentry, Roller(clock4, clock4.initial_state(OWNERS), None))
    assert started.attacker_wounds == r4.attacker.wounds_dealt
    assert started.defender_wounds == r4.defender.wounds_dealt


def test_random_clock_starts_can_be_sampled() -> None:
    """seed 000 variation 3 (random start): each sampled exchange draws its clocks' starts."""
    odds = exchange_odds(RAIDERS, GUARDS, mechanic="clock-random", samples=60, seed=5)
    assert odds.method == "monte carlo" and odds.samples == 60
    assert odds == exchange_odds(RAIDERS, GUARDS, mechanic="clock-random", samples=60, seed=5)


def test_big_units_fall_back_to_monte_carlo_and_say_so() -> None:
    """Exact over the joint state is too large for two 25-model units: sampled, with a note."""
    horde = unit("Horde", 25, q=5, d=5, weapons=[knife(25)])
    odds = exchange_odds(horde, horde, fallback_samples=40, seed=1)
    assert odds.method == "monte carlo" and odds.samples == 40
    assert "exact is too large" in odds.note
    assert odds.intervals["p_attacker_wins"].n == 40


def test_exact_false_samples() -> None:
    """exact=False asks for Monte Carlo even where exact is possible."""
    odds = exchange_odds(DUELLIST, DUELLIST, exact=False, fallback_samples=50, seed=9)
    assert odds.method == "monte carlo" and odds.samples == 50 and odds.note == ""


def test_no_strike_back_means_the_defender_cannot_win() -> None:
    """seed 003 Striking: a defender that does not strike back deals no wounds."""
    odds = exchange_odds(RAIDERS, GUARDS, strike_back=False)
    assert odds.p_defender_wins == 0 and odds.defender_wounds == 0
    assert not odds.strike_back


def test_states_pass_through() -> None:
    """A wounded, Shaken defender (seed 003 Wound Effects) fares worse than a fresh one."""
    ogre = unit("Ogre", 1, q=3, d=3, weapons=[knife(1, 3)], rules=[Rule("Tough", 3)])
    fresh = exchange_odds(RAIDERS, ogre)
    hurt = exchange_odds(RAIDERS, ogre, defender_state=UnitState(1, markers=2, shaken=True))
    assert hurt.p_defender_destroyed > fresh.p_defender_destroyed
    assert hurt.defender_wounds < fresh.defender_wounds


def test_bad_inputs() -> None:
    """Errors say what was wrong and what would be right."""
    with pytest.raises(OptionError, match="samples out of range"):
        exchange_odds(DUELLIST, DUELLIST, samples=0)
    with pytest.raises(OptionError, match="fallback_samples"):
        exchange_odds(DUELLIST, DUELLIST, fallback_samples=0)
    with pytest.raises(UnknownNameError, match="no melee exchange") as e:
        exchange_odds(DUELLIST, DUELLIST, system="wwpd")  # WWPD has no OPR exchange
    assert e.value.value == "wwpd" and e.value.expected == "gff or riverside"
    with pytest.raises(UnknownNameError, match="unknown rule system") as e:
        exchange_odds(DUELLIST, DUELLIST, system="chess")
    assert e.value.value == "chess" and e.value.expected is not None
    assert e.value.expected.startswith("gff or riverside or wwpd, each OPR one with any +HOUSE")
    with pytest.raises(UnknownNameError):
        exchange_odds(DUELLIST, DUELLIST, mechanic="d7")
    gunner = unit("Gunner", weapons=[Weapon("Rifle", 1, range=24)])
    with pytest.raises(OptionError, match="no melee weapon"):
        exchange_odds(gunner, DUELLIST)
    with pytest.raises(OptionError, match="cannot charge"):
        exchange_odds(DUELLIST, DUELLIST, attacker_state=UnitState(1, shaken=True))


def test_to_json() -> None:
    """Results record method, seed and package version, and exact Fractions as text."""
    exact = exchange_odds(DUELLIST, DUELLIST).to_json()
    assert exact["method"] == "exact" and exact["exact"]["p_attacker_wins"] == "17/72"
    assert "oprlab" in exact and exact["attacker_casualties"]["pmf"]
    sampled = exchange_odds(DUELLIST, DUELLIST, samples=20, seed=4).to_json()
    assert sampled["seed"] == 4 and sampled["intervals"]["p_draw"]["n"] == 20
    json.dumps(exact)
    json.dumps(sampled)
