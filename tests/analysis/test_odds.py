"""``analysis.odds.attack_odds`` on the shipped sample armies (GFF, seed 003_8abb008d4113ed75):
exact d6 odds against the brute-force oracle, the clock (seed 000_e2a2d86473ae65c4) played out,
Monte Carlo with intervals, and every refused option."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from oprlab.analysis.odds import Situation, attack_odds
from oprlab.errors import OptionError, UnknownNameError
from oprlab.rules.gff import attack as gff
from oprlab.rules.gff.profile import attack_profile, defender_profile
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Unit
from tests.rules.gff.test_oracles import brute_force, marginal


def unit(sample: str, name: str) -> Unit:
    army = load_army(sample_path(f"gff/{sample}.txt"))
    return next(u for u in army.units if u.name == name)


RIFLES = unit("shooty-150", "Glass Rifle Team")  # Q4, 2x Glass Rifle (24", A1, AP(1)), Relentless
PARAGON = unit("elite-150", "Vigil Paragon")  # D3, Tough(3), Regeneration
#: Q3, Thorn Maul (A3, AP(2), Rending), Fear(1), Furious
CHIEF = unit("melee-150", "Briar Chieftain")
SKITTER = unit("horde-150", "Skitterlings")  # 2 models, D5
MORTAR = unit("shooty-150", "Mortar Drone")  # Lobber Mortar (24", A1, Blast(3), Indirect)
BEAST = unit("melee-150", "Bramble Beast")  # Tough(3), Impact(2), Goring Horns (A3, AP(1))
CHARGE = Situation(melee=True, charging=True)


def assert_pmf(got: tuple[float, ...], expected: dict[int, Fraction]) -> None:
    size = max(len(got), max(expected) + 1)
    for k in range(size):
        have = got[k] if k < len(got) else 0.0
        assert abs(have - float(expected.get(k, 0))) < 1e-12, (k, got, expected)


def test_shooting_d6_exact_equals_brute_force() -> None:
    """seed 003 "Shooting" with Relentless (default 12": over 9"), AP(1) against a Tough(3)
    Regeneration hero: the odds equal the brute-force enumeration of every die."""
    result = attack_odds(RIFLES, PARAGON)
    assert (result.system, result.mechanic, result.melee) == ("gff", "d6", False)
    assert result.weapons == ("Glass Rifle",)
    profiles = [attack_profile(RIFLES, w) for w in RIFLES.weapons if not w.melee]
    joint = brute_force(profiles, defender_profile(PARAGON), gff.Situation(distance=12.0))
    assert_pmf(result.hits.pmf, marginal(joint, lambda r: r[0]))
    assert_pmf(result.wounds.pmf, marginal(joint, lambda r: r[1]))
    assert_pmf(result.casualties.pmf, marginal(joint, lambda r: r[2]))
    assert abs(result.p_destroyed - float(sum(w for r, w in joint.items() if r[3]))) < 1e-12
    assert result.p_shaken is not None
    assert abs(result.p_shaken - float(sum(w for r, w in joint.items() if r[4]))) < 1e-12
    assert result.to_json()["method"] == "exact"


def test_melee_charge_d6_exact_equals_brute_force() -> None:
    """seed 003 "Melee", Furious (charging), Rending and Fear(1) against two one-wound models."""
    result = attack_odds(CHIEF, SKITTER, situation=CHARGE)
    assert result.melee and result.weapons == ("Thorn Maul",)
    profiles = [attack_profile(CHIEF, w) for w in CHIEF.weapons]
    s = gff.Situation(melee=True, charging=True)
    joint = brute_force(profiles, defender_profile(SKITTER), s, fear=1)
    assert_pmf(result.hits.pmf, marginal(joint, lambda r: r[0]))
    assert_pmf(result.casualties.pmf, marginal(joint, lambda r: r[2]))
    assert abs(result.p_destroyed - float(sum(w for r, w in joint.items() if r[3]))) < 1e-12


def test_distance_turns_relentless_off() -> None:
    """seed 003 "Relentless": at 9" (not over 9") no extra hits: at most one hit per rifle."""
    near = attack_odds(RIFLES, PARAGON, situation=Situation(distance=9.0))
    far = attack_odds(RIFLES, PARAGON, situation=Situation(distance=12.0))
    assert len(near.hits.pmf) == 3
    assert len(far.hits.pmf) == 5


def test_clock_is_played_out_once() -> None:
    """seed 000 "Quality and Defense Checks": clocks at 1; Q4 rifles: 1 -> 4 (hit), 4 -> 1 (miss);
    the Paragon's D3 against AP(1) adds 3: 1 -> 4, blocked. A certain result."""
    result = attack_odds(RIFLES, PARAGON, mechanic="clock")
    assert result.hits.pmf == (0.0, 1.0)
    assert result.wounds.pmf == (1.0,)
    assert result.casualties.pmf == (1.0,)
    assert (result.p_destroyed, result.p_shaken) == (0.0, 0.0)


def test_clock_melee_charge() -> None:
    """seed 000 with seed 003 "Furious": the Chieftain (Q3, adds 2) from 1: 3, 5, 7 -> 1: two
    hits; Skitterlings D5 add 4 + AP(2), capped at 5: 1 -> 6 (held), 6 -> 11 -> 5 (wound)."""
    result = attack_odds(CHIEF, SKITTER, mechanic="clock", situation=CHARGE)
    assert result.hits.pmf == (0.0, 0.0, 1.0)
    assert result.wounds.pmf == (0.0, 1.0)
    assert result.casualties.pmf == (0.0, 1.0)
    assert result.p_destroyed == 0.0


@pytest.mark.parametrize(
    ("attacker", "defender", "situation"),
    [(RIFLES, SKITTER, Situation()), (CHIEF, SKITTER, CHARGE), (MORTAR, PARAGON, Situation())],
)
def test_samples_agree_with_exact(attacker: Unit, defender: Unit, situation: Situation) -> None:
    """``samples=N`` runs the same rules N times with a recorded seed; the sample means lie
    within 5 standard errors of the exact ones, and the result carries intervals."""
    exact = attack_odds(attacker, defender, situation=situation)
    sampled = attack_odds(attacker, defender, situation=situation, samples=2000, seed=11)
    assert (sampled.samples, sampled.seed) == (2000, 11)
    assert sampled.to_json()["method"] == "monte carlo"
    for name in ("hits", "wounds", "casualties"):
        dist = getattr(exact, name)
        var = sum((k - dist.mean) ** 2 * p for k, p in enumerate(dist.pmf))
        got = getattr(sampled, name).mean
        assert abs(got - dist.mean) <= 5 * math.sqrt(var / 2000) + 1e-9, name
        interval = sampled.intervals[f"{name}_mean"]
        assert interval.low <= got <= interval.high
    p = exact.p_destroyed
    assert abs(sampled.p_destroyed - p) <= 5 * math.sqrt(p * (1 - p) / 2000) + 1e-9
    again = attack_odds(attacker, defender, situation=situation, samples=2000, seed=11)
    assert again == sampled


def test_samples_on_the_clock_repeat_the_certain_result() -> None:
    """seed 000: every sample of a fresh clock plays out the same attack."""
    sampled = attack_odds(RIFLES, PARAGON, mechanic="clock", samples=20, seed=1)
    assert sampled.hits.pmf == (0.0, 1.0)
    assert sampled.p_destroyed == 0.0


def test_charging_adds_impact_dice() -> None:
    """seed 003 "Impact(X)": the Bramble Beast (Impact(2), Goring Horns A3) charging makes its 3
    weapon attacks (Q4: 1/2 each) and 2 Impact dice (2+: 5/6 each)."""
    result = attack_odds(BEAST, SKITTER, situation=CHARGE)
    assert abs(result.hits.mean - (3 * 0.5 + 2 * 5 / 6)) < 1e-12


@pytest.mark.parametrize(
    ("attacker", "situation", "match"),
    [
        (CHIEF, Situation(melee=True, cover=True), "cover applies to shooting"),
        (RIFLES, Situation(charging=True), "charging is a melee attack"),
        (CHIEF, Situation(), "no ranged weapon"),
        (Unit("Gunline", 1, 4, 4, weapons=MORTAR.weapons[:1]), CHARGE, "no melee weapon"),
        (RIFLES, Situation(distance=30.0), "reaches that far"),
        (RIFLES, Situation(distance=-1.0), "distance out of range"),
    ],
)
def test_bad_options_raise_option_error(attacker: Unit, situation: Situation, match: str) -> None:
    """Contradicting or impossible options are refused with an OptionError naming the fix."""
    with pytest.raises(OptionError, match=match) as info:
        attack_odds(attacker, PARAGON, situation=situation)
    assert info.value.expected


def test_bad_samples_raise_option_error() -> None:
    with pytest.raises(OptionError, match="samples"):
        attack_odds(RIFLES, PARAGON, samples=0)


@pytest.mark.parametrize(("option", "value"), [("system", "warhammer"), ("mechanic", "d20")])
def test_unknown_system_or_mechanic(option: str, value: str) -> None:
    """An unknown rule system or mechanic is a user error that lists the known names."""
    with pytest.raises(UnknownNameError) as info:
        attack_odds(RIFLES, PARAGON, **{option: value})  # type: ignore[arg-type]
    assert info.value.value == value
    assert "gff" in (info.value.expected or "") or "d6" in (info.value.expected or "")
