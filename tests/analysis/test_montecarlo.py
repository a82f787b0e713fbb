"""The vectorised Monte Carlo of the GFF attack (seed 003_8abb008d4113ed75) against the exact
Fraction odds and the sequential driver, for a grid of the seed's special rules."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Unpack

import numpy as np
import numpy.typing as npt
import pytest

import oprlab.analysis.montecarlo as mc
from oprlab.analysis.montecarlo import (
    SampledAttacks,
    simulate_attacks,
    summarize,
    take_wounds_arrays,
)
from oprlab.errors import OptionError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.gff.attack import Situation, impact_profile
from oprlab.rules.gff.exact import AttackOdds, attack_odds
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import Roller, resolve_attack
from oprlab.rules.gff.wounds import take_wounds
from tests.rules.gff import WeaponRules

#: Allowed distance from the exact value, in standard errors of the sampled estimate.
Z = 5.0
N = 150_000
D6_MECH = D6()


def gun(dice: int, quality: int = 4, **rules: Unpack[WeaponRules]) -> AttackProfile:
    return AttackProfile("gun", dice=dice, quality=quality, melee=False, range=24, **rules)


def blade(dice: int, quality: int = 4, **rules: Unpack[WeaponRules]) -> AttackProfile:
    return AttackProfile("blade", dice=dice, quality=quality, melee=True, **rules)


def _bin_gaps(counts: npt.NDArray[np.int64], n: int, exact: Dist[int], what: str) -> list[str]:
    """Bins whose sampled count is further than Z standard errors from the exact pmf; a count
    in a bin the exact odds say is impossible is always a gap."""
    gaps = []
    for k in sorted(set(range(len(counts))) | set(exact.support)):
        p = float(exact[k])
        c = int(counts[k]) if k < len(counts) else 0
        if p == 0.0:
            if c:
                gaps.append(f"{what}={k}: {c} samples of an impossible result")
            continue
        se = math.sqrt(n * p * (1 - p))
        if abs(c - n * p) > Z * se + 1e-9:
            gaps.append(f"{what}={k}: {c} vs {n * p:.1f} expected (se {se:.1f})")
    return gaps


def _p_gap(hits: int, n: int, p: Fraction, what: str) -> list[str]:
    q = float(p)
    se = math.sqrt(n * q * (1 - q))
    if (q in (0.0, 1.0) and hits != n * q) or abs(hits - n * q) > Z * se + 1e-9:
        return [f"{what}: {hits} vs {n * q:.1f} expected"]
    return []


def disagreements(s: SampledAttacks, odds: AttackOdds) -> list[str]:
    """Every way the sample is implausible under the exact odds (empty when it agrees)."""
    gaps = []
    for name in ("hits", "wounds", "casualties"):
        gaps += _bin_gaps(np.bincount(getattr(s, name)), s.n, getattr(odds, name), name)
    gaps += _p_gap(int(s.destroyed.sum()), s.n, odds.p_destroyed, "destroyed")
    gaps += _p_gap(int(s.shaken.sum()), s.n, odds.p_shaken, "shaken")
    return gaps


CASES: dict[str, tuple[list[AttackProfile], DefenderProfile, Situation, int, str]] = {
    "plain": (
        [gun(8)],
        DefenderProfile(defense=4, models=5),
        Situation(),
        0,
        '"Shooting": a quality test per attack, a Defense roll per hit; "Groups & Wounds"',
    ),
    "ap": (
        [gun(6, quality=3, ap=2)],
        DefenderProfile(defense=3, models=1, tough=3),
        Situation(),
        0,
        '"AP(X)": -X to Defense rolls; "Tough(X)": rolls from X wounds, out on 5+X',
    ),
    "blast3_vs_5": (
        [gun(3, blast=3)],
        DefenderProfile(defense=5, models=5),
        Situation(cover=True),
        0,
        '"Blast(X)": ignores cover, each hit multiplied by X (5 models in the target)',
    ),
    "blast3_near2": (
        [gun(4, blast=3)],
        DefenderProfile(defense=4, models=5, near=2),
        Situation(),
        0,
        '"Blast(X)": X only up to the enemy models within 3" (2 here)',
    ),
    "deadly3_multi": (
        [gun(6, deadly=3)],
        DefenderProfile(defense=4, models=3),
        Situation(),
        0,
        '"Deadly(X)": one model per wound, wounds do not carry over',
    ),
    "deadly3_tough3": (
        [gun(5, deadly=3)],
        DefenderProfile(defense=4, models=1, tough=3),
        Situation(),
        0,
        '"Deadly(X)" x3 wounds on a single Tough(3) model',
    ),
    "rending_regeneration": (
        [gun(8, rending=True)],
        DefenderProfile(defense=4, models=1, tough=3, regeneration=True),
        Situation(),
        0,
        '"Rending": ignores Regeneration, a natural 6 to hit gets AP(+4)',
    ),
    "regeneration": (
        [gun(8, ap=1)],
        DefenderProfile(defense=4, models=4, regeneration=True),
        Situation(),
        0,
        '"Regeneration": one roll per wound, on a 5+ it is ignored',
    ),
    "deadly_regeneration": (
        [gun(4, quality=3, deadly=2)],
        DefenderProfile(defense=5, models=2, tough=3, regeneration=True),
        Situation(),
        0,
        '"Regeneration" rolled for each of a Deadly(2) wound\'s wounds',
    ),
    "bane_regeneration": (
        [gun(8, quality=3, bane=True)],
        DefenderProfile(defense=3, models=3, tough=2, regeneration=True),
        Situation(),
        0,
        '"Bane": ignores Regeneration, the target re-rolls unmodified Defense 6s',
    ),
    "surge_relentless": (
        [gun(6, surge=True, relentless=True)],
        DefenderProfile(defense=4, models=5),
        Situation(distance=12.0),
        0,
        '"Surge" and "Relentless" (over 9"): a natural 6 deals 1 extra hit each',
    ),
    "furious_charging": (
        [blade(6, furious=True)],
        DefenderProfile(defense=4, models=4),
        Situation(melee=True, charging=True),
        0,
        '"Furious": when charging, a natural 6 in melee deals 1 extra hit',
    ),
    "reliable": (
        [gun(6, quality=5, reliable=True)],
        DefenderProfile(defense=4, models=3),
        Situation(),
        0,
        '"Reliable": attacks at Quality 2+',
    ),
    "cover": (
        [gun(8, ap=1)],
        DefenderProfile(defense=4, models=3),
        Situation(cover=True),
        0,
        '"Cover Terrain": +1 to Defense rolls against shooting',
    ),
    "fatigue": (
        [blade(10, quality=3)],
        DefenderProfile(defense=5, models=3),
        Situation(melee=True, fatigued=True),
        0,
        '"Fatigue": only unmodified 6s hit in melee',
    ),
    "shaken_with_markers": (
        [gun(4)],
        DefenderProfile(defense=4, models=1, tough=3, markers=2, shaken=True),
        Situation(),
        0,
        '"Wound Effects": markers add to the roll; Shaken gets +1 to wound effect rolls',
    ),
    "fear_melee": (
        [blade(3, ap=1)],
        DefenderProfile(defense=4, models=2, tough=3),
        Situation(melee=True),
        2,
        '"Fear(X)": +X wounds when checking wound effects in melee (at least one wound)',
    ),
    "fear_shooting_ignored": (
        [gun(3, ap=1)],
        DefenderProfile(defense=4, models=2, tough=3),
        Situation(),
        2,
        '"Fear(X)" counts in melee only',
    ),
    "thrust_stealth_unstoppable": (
        [blade(6, thrust=True), gun(4, unstoppable=True)],
        DefenderProfile(defense=4, models=3, stealth=True),
        Situation(melee=True, charging=True, distance=12.0),
        0,
        '"Thrust": +1 to hit and AP(+1) charging; "Unstoppable" ignores negative modifiers',
    ),
    "indirect_moved_cover": (
        [gun(6, indirect=True, ap=1)],
        DefenderProfile(defense=4, models=3),
        Situation(moved=True, cover=True),
        0,
        '"Indirect": -1 to hit when shooting after moving; "Cover Terrain" +1 to Defense',
    ),
    "impact_and_blades": (
        [blade(4), impact_profile(quality=4, dice=3)],
        DefenderProfile(defense=4, models=3),
        Situation(melee=True, charging=True),
        0,
        '"Impact(X)": X dice after charging, each 2+ is a hit',
    ),
    "mixed_deadly_first": (
        [gun(4, ap=1), gun(2, deadly=2, blast=2), gun(3, quality=3, deadly=3)],
        DefenderProfile(defense=4, models=3, tough=2, markers=1),
        Situation(),
        0,
        '"Deadly(X)": hits from Deadly must be resolved first, packets in order',
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_agrees_with_exact_odds(name: str) -> None:
    """seed 003_8abb008d4113ed75 "Shooting"/"Melee", "Wound Effects", "Groups & Wounds" and the
    special rule named in each case: sampled pmfs within 5 standard errors of the Fractions."""
    weapons, defender, situation, fear, _clause = CASES[name]
    odds = attack_odds(weapons, defender, situation, D6_MECH, fear=fear)
    sample = simulate_attacks(weapons, defender, situation, N, np.random.default_rng(7), fear=fear)
    assert sample.n == N
    assert disagreements(sample, odds) == []


def test_the_agreement_check_can_fail() -> None:
    """seed 003 "AP(X)": a sample without AP(1) is told apart from the odds with it."""
    defender = DefenderProfile(defense=4, models=5)
    odds = attack_odds([gun(8, ap=1)], defender, Situation(), D6_MECH)
    sample = simulate_attacks([gun(8)], defender, Situation(), N, np.random.default_rng(7))
    assert disagreements(sample, odds) != []


def test_deadly_weapons_resolve_first_whatever_the_listing() -> None:
    """seed 003 "Deadly(X)": resolved first, so listing the Deadly weapon last changes nothing."""
    weapons = [gun(4, ap=1), gun(3, quality=3, deadly=3)]
    defender = DefenderProfile(defense=4, models=2, tough=3)
    forward = simulate_attacks(weapons, defender, Situation(), 500, np.random.default_rng(3))
    backward = simulate_attacks(weapons[::-1], defender, Situation(), 500, np.random.default_rng(3))
    for field in mc._FIELDS:
        assert np.array_equal(getattr(forward, field), getattr(backward, field))


def _two_sample_gaps(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64], what: str) -> list[str]:
    """Bins where two samples' proportions differ by more than Z pooled standard errors."""
    ca, cb = np.bincount(a), np.bincount(b)
    size = max(len(ca), len(cb))
    ca, cb = np.pad(ca, (0, size - len(ca))), np.pad(cb, (0, size - len(cb)))
    gaps = []
    for k in range(size):
        p = (ca[k] + cb[k]) / (len(a) + len(b))
        se = math.sqrt(p * (1 - p) * (1 / len(a) + 1 / len(b)))
        if abs(ca[k] / len(a) - cb[k] / len(b)) > Z * se + 1e-12:
            gaps.append(f"{what}={k}")
    return gaps


SEQUENTIAL_CASES = {
    "deadly_bane_regeneration": (
        [gun(4, bane=True), gun(3, quality=3, deadly=2)],
        DefenderProfile(defense=4, models=3, tough=2, markers=1, regeneration=True),
        Situation(),
        0,
    ),
    "blast_surge_melee_fear": (
        [blade(3, surge=True, furious=True, blast=2)],
        DefenderProfile(defense=5, models=4, tough=2, shaken=True),
        Situation(melee=True, charging=True),
        1,
    ),
}


@pytest.mark.parametrize("name", sorted(SEQUENTIAL_CASES))
def test_agrees_with_sequential_driver(name: str) -> None:
    """seed 003 "Shooting"/"Melee": the vectorised path and resolve_attack (one check at a time)
    sample the same distribution (two-sample test, 5 pooled standard errors per bin)."""
    weapons, defender, situation, fear = SEQUENTIAL_CASES[name]
    rng = np.random.default_rng(11)
    roller = Roller(D6_MECH, None, rng)
    seq = [resolve_attack(weapons, defender, situation, roller, fear=fear) for _ in range(3000)]
    vec = simulate_attacks(weapons, defender, situation, 30_000, rng, fear=fear)
    gaps = []
    for field in ("hits", "wounds", "casualties", "destroyed", "shaken", "markers"):
        a = np.array([int(getattr(r, field)) for r in seq], dtype=np.int64)
        gaps += _two_sample_gaps(a, getattr(vec, field).astype(np.int64), field)
    assert gaps == []


def test_same_seed_same_arrays() -> None:
    """Reproducibility (STYLE "Randomness enters through one place"): same seed, same attacks."""
    weapons, defender, situation, fear, _ = CASES["mixed_deadly_first"]
    a = simulate_attacks(weapons, defender, situation, 2000, np.random.default_rng(5), fear=fear)
    b = simulate_attacks(weapons, defender, situation, 2000, np.random.default_rng(5), fear=fear)
    c = simulate_attacks(weapons, defender, situation, 2000, np.random.default_rng(6), fear=fear)
    for field in mc._FIELDS:
        assert np.array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.wounds, c.wounds)


def test_chunks_cover_every_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunking bounds memory without losing or repeating samples, and stays reproducible."""
    monkeypatch.setattr(mc, "CHUNK", 7)
    weapons, defender, situation, _, _ = CASES["deadly3_multi"]
    a = simulate_attacks(weapons, defender, situation, 1003, np.random.default_rng(1))
    b = simulate_attacks(weapons, defender, situation, 1003, np.random.default_rng(1))
    assert a.n == 1003 and all(len(getattr(a, f)) == 1003 for f in mc._FIELDS)
    assert np.array_equal(a.casualties, b.casualties)
    # Successive chunks are not copies of each other.
    assert not all(np.array_equal(a.wounds[:7], a.wounds[k : k + 7]) for k in range(7, 1000, 7))


def test_take_wounds_arrays_matches_take_wounds() -> None:
    """seed 003 "Groups & Wounds" and "Deadly(X)": the array form equals the scalar rule."""
    rng = np.random.default_rng(0)
    for models in range(0, 6):
        defender = DefenderProfile(defense=4, models=models, tough=2)
        packets = rng.integers(0, 4, size=(200, 5)) * rng.integers(0, 2, size=(200, 5))
        wounds = rng.integers(0, 6, size=200)
        killed, markers = take_wounds_arrays(defender, packets, wounds)
        for i in range(200):
            damage = take_wounds(defender, [int(x) for x in packets[i]], int(wounds[i]))
            assert (killed[i], markers[i]) == (damage.killed, damage.markers)


def test_deadly_packets_do_not_carry_over() -> None:
    """seed 003 "Deadly(X)": 3 models; packets 3, 0, 3, 3 then 2 wounds: two models die to the
    first two packets, the third packet's 3 wounds and the 2 ordinary ones stay on the last."""
    defender = DefenderProfile(defense=4, models=3)
    killed, markers = take_wounds_arrays(defender, np.array([[3, 0, 3, 3]]), np.array([2]))
    assert (int(killed[0]), int(markers[0])) == (2, 5)


def test_summary_intervals_cover_exact_values() -> None:
    """A Monte Carlo figure always carries its sample size and a 95% interval (DESIGN)."""
    weapons, defender, situation, _, _ = CASES["deadly3_tough3"]
    odds = attack_odds(weapons, defender, situation, D6_MECH)
    sample = simulate_attacks(weapons, defender, situation, 40_000, np.random.default_rng(2))
    summary = summarize(sample)
    exact = {
        "hits_mean": sum(k * p for k, p in odds.hits.items()),
        "wounds_mean": sum(k * p for k, p in odds.wounds.items()),
        "casualties_mean": sum(k * p for k, p in odds.casualties.items()),
        "p_destroyed": odds.p_destroyed,
        "p_shaken": odds.p_shaken,
    }
    for key, interval in summary.as_dict().items():
        assert interval.n == 40_000
        # 95% intervals: widen by 5/1.96 so the fixed seed cannot make this flaky.
        half = (interval.high - interval.low) / 2 * Z / 1.96
        assert abs(interval.estimate - float(exact[key])) <= half + 1e-12, key
    assert summary.p_destroyed.estimate == sample.destroyed.mean()


def test_no_samples_and_no_dice() -> None:
    """n = 0 gives empty arrays; a weapon with no dice does nothing."""
    defender = DefenderProfile(defense=4, models=2)
    empty = simulate_attacks([gun(3)], defender, Situation(), 0, np.random.default_rng(0))
    assert empty.n == 0 and empty.destroyed.dtype == np.bool_
    idle = simulate_attacks([gun(0)], defender, Situation(), 50, np.random.default_rng(0))
    assert not idle.hits.any() and not idle.casualties.any() and not idle.shaken.any()


def test_refuses_the_clock_and_bad_sizes() -> None:
    """Only the stateless d6 is vectorised; bad sizes raise OptionError naming the value."""
    defender = DefenderProfile(defense=4, models=2)
    rng = np.random.default_rng(0)
    with pytest.raises(OptionError, match="clock"):
        simulate_attacks([gun(3)], defender, Situation(), 10, rng, mechanic=get_mechanic("clock"))
    with pytest.raises(OptionError, match="-1"):
        simulate_attacks([gun(3)], defender, Situation(), -1, rng)
    with pytest.raises(OptionError, match="-2"):
        simulate_attacks([gun(-2)], defender, Situation(), 10, rng)
    ok = simulate_attacks([gun(3)], defender, Situation(), 10, rng, mechanic=D6())
    assert ok.n == 10
