"""The rules commander's attack estimates remembered across a game's decisions
(players/rules/estimates.py ``pair_estimate``): the same number the system's odds give, asked
again only when something the odds read of the two units or the attack has changed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game.state import UnitState
from oprlab.players.riverside_odds import expected_damage as riverside_damage
from oprlab.players.rules import estimates
from oprlab.players.rules.estimates import Damage, expected_damage, pair_estimate, unit_facts
from oprlab.rules.gff.attack import LONG_RANGE
from tests.game import army

TEXT = """++ Pair Test [GFF 200pts] ++

Gunners [5] Q4+ D5+ | 60pts
5x Long Gun (30", A1), 5x Short Gun (12", A2), 5x Knife (A1)

Brutes [3] Q3+ D4+ | 90pts | Tough(3)
3x Great Axe (A3, AP(1))
"""


def _units() -> tuple[UnitState, UnitState]:
    gunners, brutes = army(TEXT).units
    return (
        UnitState(uid="A1", side=0, unit=gunners, models=gunners.size),
        UnitState(uid="B1", side=1, unit=brutes, models=brutes.size),
    )


class _Counting:
    """A system's odds that count how often they are asked."""

    def __init__(self, damage: Damage) -> None:
        self.damage = damage
        self.asked = 0

    def __call__(self, attacker: UnitState, target: UnitState, **kw: object) -> float:
        self.asked += 1
        return self.damage(attacker, target, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("odds", [expected_damage, riverside_damage])
def test_pair_estimate_is_the_odds_own_number_and_asks_again_on_any_change(odds: Damage) -> None:
    """seed 003 "Shooting"/"Melee": the odds read the units' models, wounds, Shaken and
    Fatigued and the weapons that reach; each change is a new question, the same one is not."""
    estimates._PAIRS.clear()
    us, them = _units()
    counting = _Counting(odds)
    reaches = unit_facts(us.unit)[2]

    def shot(a: UnitState, t: UnitState, d: float) -> float:
        band = [r >= d for r in reaches].index(True)
        return pair_estimate(counting, a, t, melee=False, distance=d, charging=False, band=band)

    def fight(a: UnitState, t: UnitState, charging: bool) -> float:
        return pair_estimate(counting, a, t, melee=True, distance=0.0, charging=charging, band=-1)

    assert shot(us, them, 10.0) == odds(us, them, melee=False, distance=10.0, charging=False)
    assert shot(us, them, 11.0) == odds(us, them, melee=False, distance=11.0, charging=False)
    assert counting.asked == 1  # the same band, both at long range: the same question
    near = LONG_RANGE - 1.0
    assert shot(us, them, near) == odds(us, them, melee=False, distance=near, charging=False)
    assert counting.asked == 2  # the same weapons, not at long range
    assert shot(us, them, 20.0) == odds(us, them, melee=False, distance=20.0, charging=False)
    assert counting.asked == 3  # another band (the short guns no longer reach)
    assert fight(them, us, True) == odds(them, us, melee=True, distance=0.0, charging=True)
    assert fight(them, us, False) == odds(them, us, melee=True, distance=0.0, charging=False)
    assert fight(us, them, False) == odds(us, them, melee=True, distance=0.0, charging=False)
    assert counting.asked == 6
    changes = [
        (replace(us, models=2), them),
        (us, replace(them, models=1)),
        (us, replace(them, markers=1)),
        (us, replace(them, shaken=True)),
        (replace(us, fatigued=True), them),
        (replace(us, shaken=True), them),
    ]
    for k, (a, t) in enumerate(changes, start=7):
        assert fight(a, t, False) == odds(a, t, melee=True, distance=0.0, charging=False)
        assert counting.asked == k, (a, t)
    other = _Counting(odds)  # another system's odds never answer from this one's entries
    pair_estimate(other, us, them, melee=False, distance=10.0, charging=False, band=0)
    assert other.asked == 1
