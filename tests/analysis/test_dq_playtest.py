"""DragonQuest's opposed rolls against the current rules, one strike at a time, and the
playtest's "Why?" claims (seed 001_7377b7b33dc9f88d): :mod:`oprlab.analysis.dq_playtest`, the
computations behind ``oprlab compare-mechanics --dq`` (moved here from the CLI's tests)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from oprlab.analysis.dq_playtest import (
    current_figures,
    dq_claims,
    opposed_figures,
    without_better,
    without_high,
)
from oprlab.cli.compare import parse_range

CLAIM_KEYS = {
    "predetermined",
    "miss_at_plus_100",
    "hit_above_sc",
    "low_sc_hits",
    "fewer_blocked",
    "fewer_misses_high_sc",
    "more_en_psg",
    "easy_thresholds",
}


def _quality(roll: int, chance: int) -> int:
    """Table 1 of seed 001, written here again: thresholds rounded up; natural 01 is at least
    Decisive, natural 00 is Poor; Excellent/Fantastic only above 100/200."""
    if roll == 100:
        return 0
    up = [chance, -(-chance * 40 // 100), -(-chance * 20 // 100), -(-chance * 10 // 100)]
    if chance > 100:
        up.append(-(-(chance - 100) * 10 // 100))
    if chance > 200:
        up.append(-(-(chance - 200) * 10 // 100))
    q = sum(1 for t in up if roll <= t)
    return max(q, 4) if roll == 1 else q


def _brute(sc: int, d: int) -> tuple[Fraction, Fraction, Fraction]:
    hit = en = blocked = 0
    for r1 in range(1, 101):
        a = _quality(r1, sc)
        for r2 in range(1, 101):
            res = a - _quality(r2, d)
            hit += res >= 1
            en += res >= 3
            blocked += a >= 1 and res <= 0
    return Fraction(hit, 10000), Fraction(en, 10000), Fraction(blocked, 10000)


@pytest.mark.parametrize(("sc", "d"), [(20, 80), (55, 35), (130, 10), (240, 60)])
def test_opposed_figures_match_brute_force(sc: int, d: int) -> None:
    """seed 001_7377b7b33dc9f88d Steps 1-3 and Table 1: both roll D100, result = attack
    quality - defence quality; every pair of rolls enumerated."""
    f = opposed_figures(sc, d)
    assert (f.p_hit, f.p_endurance, f.p_blocked) == _brute(sc, d)


def test_miss_at_plus_100_by_hand() -> None:
    """seed 001_7377b7b33dc9f88d Intent, why 4: SC 100 vs defence 0. The attacker misses on
    00 (1/100), or when the defender's natural 01 (Decisive) meets any attack quality 1..4:
    1/100 + 1/100 x 99/100 = 0.0199. Current rules: only the 00, 1/100."""
    assert opposed_figures(100, 0).p_miss == Fraction(199, 10000)
    assert current_figures(100, 0).p_miss == Fraction(1, 100)


def test_current_rules_by_hand() -> None:
    """Current: SC 50 vs D 20 hits on 30 or less; endurance within 15% (5), grievous within
    5% (2); blocked = rolls 31..50."""
    f = current_figures(50, 20)
    assert f.p_hit == Fraction(30, 100)
    assert f.p_endurance == Fraction(5, 100)
    assert f.p_grievous == Fraction(2, 100)
    assert f.p_blocked == Fraction(20, 100)


def test_ladder_maps() -> None:
    assert [without_better(q) for q in range(7)] == [0, 1, 1, 2, 3, 4, 5]
    assert [without_high(q) for q in range(7)] == [0, 1, 2, 3, 4, 4, 4]


def test_claims_computed_over_the_default_grid() -> None:
    """seed 001_7377b7b33dc9f88d "Why?" lists: each testable reason gets numbers and a verdict."""
    claims = {
        c.key: c for c in dq_claims(parse_range("20:120:10", "c"), parse_range("0:80:10", "d"))
    }
    assert set(claims) == CLAIM_KEYS
    miss = claims["miss_at_plus_100"]
    assert miss.passed is True
    assert miss.numbers["current_p_miss"]["min"] == miss.numbers["current_p_miss"]["max"] == 0.01
    assert miss.numbers["opposed_p_miss"]["min"] == pytest.approx(0.0199)
    hit = claims["hit_above_sc"]
    worst = hit.numbers["opposed_p_hit"]
    h, _, _ = _brute(20, 80)
    assert worst["min_at"] == "SC 20 vs D 80" and worst["min"] == pytest.approx(float(h))
    assert claims["easy_thresholds"].numbers["max_difference"] <= 1
    blocked = claims["fewer_blocked"].numbers
    assert blocked["p_blocked_mean_with"] < blocked["p_blocked_mean_without"]
    for claim in claims.values():
        assert claim.verdict in ("PASS", "FAIL")


def test_claims_without_cells_are_not_applicable() -> None:
    """With every defence below the SC, the claims about defence > SC have nothing to test."""
    claims = {c.key: c for c in dq_claims((100,), (0, 10))}
    assert claims["hit_above_sc"].passed is None and claims["hit_above_sc"].verdict == "N/A"
    assert claims["low_sc_hits"].passed is None


def test_added_quality_never_lowers_hits_on_a_grid() -> None:
    for sc in range(0, 301, 30):
        for d in range(0, 201, 40):
            assert opposed_figures(sc, d).p_hit >= opposed_figures(sc, d, without_better).p_hit
