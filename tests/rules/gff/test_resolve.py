"""``resolve_attack``: the GFF attack check by check (seed 003_8abb008d4113ed75), sampled with the
d6 against the exact odds, and played out on the diceless clock (seed 000_e2a2d86473ae65c4) in
hand-worked examples."""

from __future__ import annotations

import math
from typing import Unpack

import numpy as np
import pytest

from oprlab.mechanics.clock import Clock, ClockState
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.gff.attack import ATTACKER, DEFENDER, Situation
from oprlab.rules.gff.exact import attack_odds
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import AttackResult, Roller, resolve_attack
from tests.rules.gff import WeaponRules

SHOOT = Situation(distance=6.0)
ARMY = Clock()  # the seed's default: one clock per army, starting at 1


def weapon(
    dice: int = 1, quality: int = 4, melee: bool = False, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name="w", dice=dice, quality=quality, melee=melee, **rules)


def clocks(attacker: int, defender: int) -> ClockState:
    return ClockState({(ATTACKER.army,): attacker, (DEFENDER.army,): defender})


def on_clock(
    weapons: list[AttackProfile],
    d: DefenderProfile,
    state: ClockState,
    s: Situation = SHOOT,
    clock: Clock = ARMY,
    fear: int = 0,
) -> tuple[AttackResult, ClockState]:
    roller = Roller(clock, state, None)
    result = resolve_attack(weapons, d, s, roller, fear=fear)
    assert isinstance(roller.state, ClockState)
    return result, roller.state


# --- the clock: hand-worked examples ----------------------------------------------------------


def test_clock_attack_q4_from_one() -> None:
    """seed 000 "Quality and Defense Checks": clocks start at 1; Q4 adds 3: the first attack
    lands on 4 (hit), the second on 7 -> rolls over to 1 (miss), the third on 4 (hit). D5 adds
    4: the first block lands on 5 (blocked), the second on 9 -> 3 (wound). The wound check
    adds 1 + 1 marker from 3 -> 5: no roll-over, Shaken (seed 000 "Wound Checks")."""
    result, state = on_clock([weapon(3)], DefenderProfile(5, 1), ARMY.initial_state())
    assert result == AttackResult(
        hits=2, wounds=1, casualties=0, destroyed=False, shaken=True, markers=1
    )
    assert state.clocks == {("attacker",): 4, ("defender",): 5}


def test_clock_rending_example() -> None:
    """seed 000 "Unmodified 1 and 6": a Q3 Rending attack with the clock at 4 lands exactly on
    6, so the defender blocks against AP(4): D2 adds 1 + 4 = 5 from 2 -> 7, rolls over: a
    wound. Without Rending the D2 block (2 -> 3) holds."""
    result, _ = on_clock(
        [weapon(quality=3, rending=True)], DefenderProfile(2, 1, tough=3), clocks(4, 2)
    )
    assert (result.hits, result.wounds) == (1, 1)
    result, _ = on_clock([weapon(quality=3)], DefenderProfile(2, 1, tough=3), clocks(4, 2))
    assert (result.hits, result.wounds) == (1, 0)


def test_clock_wound_check_examples() -> None:
    """seed 000 "Wound Checks": first wound with the clock at 3: add 2 -> 5, stunned (Shaken);
    a later wound with the clock at 5: add 3 -> 8, rolls over, Knocked Out."""
    # D6 adds 5: from 4 -> 9 -> 3, the block fails; the wound check then starts at 3.
    first, state = on_clock([weapon(quality=2)], DefenderProfile(6, 1), clocks(1, 4))
    assert (first.wounds, first.shaken, first.markers) == (1, True, 1)
    assert state.clocks[("defender",)] == 5
    # D6 from 6 -> 11 -> 5 fails; the wound check starts at 5 with 2 markers.
    second, state = on_clock([weapon(quality=2)], DefenderProfile(6, 1, markers=1), clocks(1, 6))
    assert (second.casualties, second.destroyed, second.markers) == (1, True, 0)
    assert state.clocks[("defender",)] == 2


def test_clock_global_defense_then_regeneration() -> None:
    """seed 000 variation 1 (one global clock) and seed 003 "Shooting" / "Regeneration": every
    Defense roll comes before the Regeneration rolls. Q4 x3 from 1: 4 (hit), 1 (miss), 4 (hit);
    D4: 4 -> 1 (wound), 1 -> 4 (block); Regeneration adds 4: 4 -> 8 -> 2, the wound stays."""
    glob = Clock(scope="global")
    result, state = on_clock(
        [weapon(3)], DefenderProfile(4, 2, regeneration=True), glob.initial_state(), clock=glob
    )
    assert (result.hits, result.wounds, result.casualties) == (2, 1, 1)
    assert state.clocks == {(): 2}


def test_clock_fatigue_only_lands_on_six() -> None:
    """seed 000 "Unmodified 1 and 6" with seed 003 "Fatigue": fatigued, a melee attack hits
    only when the clock lands exactly on 6 (Q3 from 4: yes; from 1: no)."""
    tired = Situation(melee=True, fatigued=True)
    hit, _ = on_clock([weapon(quality=3, melee=True)], DefenderProfile(6, 3), clocks(4, 1), tired)
    miss, _ = on_clock([weapon(quality=3, melee=True)], DefenderProfile(6, 3), clocks(1, 1), tired)
    assert (hit.hits, miss.hits) == (1, 0)


def test_clock_is_deterministic() -> None:
    """seed 000 "The Clock": the outcome is certain given the clocks: replaying gives the same."""
    args = ([weapon(6, ap=1), weapon(2, deadly=2)], DefenderProfile(4, 3, regeneration=True))
    assert on_clock(*args, clocks(3, 5)) == on_clock(*args, clocks(3, 5))


# --- the d6: sampled against exact ------------------------------------------------------------


def moments(d: Dist[int]) -> tuple[float, float]:
    m = sum(float(k * p) for k, p in d.items())
    return m, sum(float((k - m) ** 2 * p) for k, p in d.items())


CASES = [
    ([weapon(6, ap=1, rending=True)], DefenderProfile(4, 1, tough=3, regeneration=True), SHOOT),
    ([weapon(3, deadly=3), weapon(4, surge=True)], DefenderProfile(5, 3), SHOOT),
    (
        [weapon(4, melee=True, furious=True, thrust=True)],
        DefenderProfile(3, 2, tough=2),
        Situation(melee=True, charging=True),
    ),
    (
        [weapon(2, blast=3, bane=True)],
        DefenderProfile(4, 4, regeneration=True),
        Situation(distance=12.0, cover=True),
    ),
]


@pytest.mark.parametrize(("weapons", "d", "s"), CASES)
def test_sampled_d6_agrees_with_exact(
    weapons: list[AttackProfile], d: DefenderProfile, s: Situation
) -> None:
    """The same hooks sampled 3000 times with a fixed seed land within 5 standard errors of the
    exact means of hits, wounds and casualties, and of P(destroyed) and P(Shaken)."""
    n = 3000
    rng = np.random.default_rng(20240503)
    results = [resolve_attack(weapons, d, s, Roller(D6(), None, rng), fear=1) for _ in range(n)]
    exact = attack_odds(weapons, d, s, D6(), fear=1)
    for name in ("hits", "wounds", "casualties"):
        m, var = moments(getattr(exact, name))
        got = sum(getattr(r, name) for r in results) / n
        assert abs(got - m) <= 5 * math.sqrt(var / n) + 1e-9, name
    for name, p in (("destroyed", exact.p_destroyed), ("shaken", exact.p_shaken)):
        got = sum(getattr(r, name) for r in results) / n
        assert abs(got - float(p)) <= 5 * math.sqrt(float(p * (1 - p)) / n) + 1e-9, name


def test_sampled_results_repeat_with_the_seed() -> None:
    """The d6 draws only from the generator handed in: the same seed, the same results."""

    def run(seed: int) -> list[AttackResult]:
        rng = np.random.default_rng(seed)
        w, d, s = CASES[1]
        return [resolve_attack(w, d, s, Roller(D6(), None, rng)) for _ in range(50)]

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_d6_needs_a_generator() -> None:
    """A random mechanic cannot roll without the caller's generator (no hidden RNG)."""
    with pytest.raises(ValueError, match="random generator"):
        resolve_attack([weapon()], DefenderProfile(4, 1), SHOOT, Roller(D6(), None, None))
