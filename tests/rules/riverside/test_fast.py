"""The float fast path gives the exact Riverside odds (seed 002_fdb385c07cc953af) to float
precision, for the brute-forced cases and for larger attacks."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import get_mechanic
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.riverside.attack import Readings, Situation
from oprlab.rules.riverside.exact import attack_odds
from oprlab.rules.riverside.fast import attack_odds_fast
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile, HeroProfile
from tests.rules.riverside.test_exact import CASES

D6_MECHANIC = D6()


def as_array(d: Dist[int], size: int) -> np.ndarray:
    out = np.zeros(size)
    for k, p in d.items():
        out[k] = float(p)
    return out


BIG = [
    pytest.param(
        [
            AttackProfile("Rifles", dice=20, quality=4, melee=False, ap=1, rending=True),
            AttackProfile("Flamer", dice=2, quality=4, melee=False, blast=3, shock=True),
            AttackProfile("Lance", dice=3, quality=4, melee=False, ap=2, deadly=3),
        ],
        DefenderProfile(
            defense=4,
            models=5,
            quality=4,
            tough=3,
            wounds=2,
            started=8,
            regeneration=True,
            hero=HeroProfile(tough=3, quality=3),
        ),
        Situation(cover=True),
        Readings(),
        id="twenty-five-dice",
    ),
    pytest.param(
        [AttackProfile("Shooters", dice=12, quality=5, melee=False, shooty=True, critical_from=5)],
        DefenderProfile(defense=5, models=10, quality=5, stealth=True),
        Situation(),
        Readings(rout_when_shooting=True, widened_critical="shooty"),
        id="extra-shooty-horde",
    ),
]


@pytest.mark.parametrize(("weapons", "d", "s", "r"), CASES + BIG)
def test_fast_equals_exact(
    weapons: list[AttackProfile], d: DefenderProfile, s: Situation, r: Readings
) -> None:
    exact = attack_odds(weapons, d, s, D6_MECHANIC, readings=r)
    fast = attack_odds_fast(weapons, d, s, D6_MECHANIC, readings=r)
    for name in ("hits", "wounds", "casualties"):
        arr = getattr(fast, name)
        assert arr.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.allclose(arr, as_array(getattr(exact, name), arr.size), atol=1e-12)
    assert fast.casualties.size == d.size + 1
    assert fast.p_destroyed == pytest.approx(float(exact.p_destroyed), abs=1e-12)
    assert fast.p_morale == pytest.approx(float(exact.p_morale), abs=1e-12)
    assert fast.p_routed == pytest.approx(float(exact.p_routed), abs=1e-12)
    if exact.p_shaken is None:
        assert fast.p_shaken is None
    else:
        assert fast.p_shaken == pytest.approx(float(exact.p_shaken), abs=1e-12)


def test_fast_refuses_the_clock() -> None:
    gun = AttackProfile("Gun", dice=1, quality=4, melee=False)
    d = DefenderProfile(defense=4, models=1, quality=4)
    with pytest.raises(OptionError):
        attack_odds_fast([gun], d, Situation(), get_mechanic("clock"))
