"""The Riverside system behind the odds layer (seed 002_fdb385c07cc953af): `attack_odds(...,
system="riverside")` through the system's adapter, exact, sampled and with the clock."""

from __future__ import annotations

import math

import pytest

from oprlab.analysis.odds import Situation, attack_odds, get_system
from oprlab.game.systems import find_system
from oprlab.mechanics import get_mechanic
from oprlab.rules.riverside.attack import Readings
from oprlab.rules.riverside.odds import RiversideAttack, riverside_situation
from oprlab.units.model import Rule, Unit, Weapon

GUNNERS = Unit(
    "Rust Gunners",
    5,
    quality=4,
    defense=5,
    rules=(Rule("Shooty"), Rule("Extra Shooty")),
    weapons=(
        Weapon("Slugger", attacks=2, range=18, count=5, rules=(Rule("Rending"),)),
        Weapon("Choppa", attacks=1, count=5, rules=(Rule("AP", 1),)),
    ),
)
BRUTES = Unit("Moss Brutes", 3, quality=4, defense=4, rules=(Rule("Tough", 3),))


def test_the_system_offers_its_adapter() -> None:
    """`find_system("riverside").attack` is the Riverside adapter; the odds layer asks for it."""
    assert isinstance(find_system("riverside").attack, RiversideAttack)
    assert get_system("riverside").name == "riverside"


def test_exact_shooting_odds() -> None:
    """seed 002 "Ranged Attacks": shooting with Shooty critting on 5-6 and Rending; the
    summary reports p_shaken (a Morale Test can follow) and sums to 1."""
    result = attack_odds(GUNNERS, BRUTES, system="riverside")
    assert result.system == "riverside" and result.weapons == ("Slugger",)
    assert sum(result.hits.pmf) == pytest.approx(1.0)
    assert len(result.casualties.pmf) <= BRUTES.size + 1
    assert result.p_shaken is not None and 0 < result.p_shaken < 1
    assert 0 < result.p_destroyed < 1
    # 10 dice, each hitting on 4+ with a Bonus Hit on 5 or 6: 10 * (1/6 + 2 * 2/6) hits.
    assert result.hits.mean == pytest.approx(10 * (1 / 6 + 4 / 6))


def test_melee_leaves_morale_open() -> None:
    """seed 002 "Melee Attacks: Morale Test": no Morale Test from wounds, p_shaken is None."""
    result = attack_odds(
        GUNNERS, BRUTES, system="riverside", situation=Situation(melee=True, charging=True)
    )
    assert result.p_shaken is None and result.weapons == ("Choppa",)


def test_cover_raises_defense() -> None:
    """seed 002 "Terms: Cover": +1 to Defense against ranged weapons: fewer wounds."""
    open_ground = attack_odds(GUNNERS, BRUTES, system="riverside")
    covered = attack_odds(GUNNERS, BRUTES, system="riverside", situation=Situation(cover=True))
    assert covered.wounds.mean < open_ground.wounds.mean
    assert covered.hits.mean == pytest.approx(open_ground.hits.mean)


def test_routed_figures_and_readings() -> None:
    """seed 002 "Results of the Morale Test": RiversideAttack.odds reports p_routed beside the
    summary; with rout_when_shooting every failed test at half strength Routs."""
    weapons = (GUNNERS.weapons[0],)
    s = Situation()
    d6 = get_mechanic("d6")
    plain = RiversideAttack().odds(GUNNERS, weapons, BRUTES, s, d6)
    routing = RiversideAttack(Readings(rout_when_shooting=True)).odds(
        GUNNERS, weapons, BRUTES, s, d6
    )
    assert plain.p_routed == 0 and plain.p_shaken is not None and routing.p_shaken is not None
    assert routing.p_routed == pytest.approx(plain.p_shaken)
    assert routing.p_shaken == pytest.approx(0.0)


def test_clock_is_played_out() -> None:
    """seed 000 clock: a certain outcome, reported as point distributions."""
    result = attack_odds(GUNNERS, BRUTES, system="riverside", mechanic="clock")
    assert max(result.hits.pmf) == 1.0 and result.p_destroyed in (0.0, 1.0)
    direct = RiversideAttack().resolve(
        GUNNERS,
        (GUNNERS.weapons[0],),
        BRUTES,
        Situation(),
        get_mechanic("clock"),
        get_mechanic("clock").initial_state(),
        None,
    )
    assert result.hits.pmf[direct.hits] == 1.0


def test_sampled_odds_agree_with_exact() -> None:
    """A seeded Monte Carlo of the same rules (n = 3000) lands within 4.5 standard errors."""
    exact = attack_odds(GUNNERS, BRUTES, system="riverside")
    sampled = attack_odds(GUNNERS, BRUTES, system="riverside", samples=3000, seed=11)
    assert sampled.samples == 3000 and "p_shaken" in sampled.intervals
    for name in ("hits", "wounds", "casualties"):
        mean = getattr(exact, name).mean
        var = sum(p * (k - mean) ** 2 for k, p in enumerate(getattr(exact, name).pmf))
        assert abs(getattr(sampled, name).mean - mean) <= 4.5 * math.sqrt(var / 3000)
    assert exact.p_shaken is not None and sampled.p_shaken is not None
    p = exact.p_shaken
    assert abs(sampled.p_shaken - p) <= 4.5 * math.sqrt(p * (1 - p) / 3000)


def test_situation_maps_fatigue_and_distance() -> None:
    s = riverside_situation(Situation(melee=True, fatigued=True))
    assert s.fatigued and s.melee and s.distance == 12.0
    assert riverside_situation(Situation(distance=20.0)).distance == 20.0
