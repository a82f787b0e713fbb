"""The system-neutral melee parts (``oprlab.rules.melee_exchange``): weapons of the models left,
starting states, the exact stage driver (against a hand-composed toy fight), the result type."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import pytest

from oprlab.errors import OptionError
from oprlab.prob import Dist
from oprlab.rules.gff.melee import strikes
from oprlab.rules.melee_exchange import (
    AfterCombat,
    ExactTooLarge,
    ExchangeResult,
    Side,
    SideResult,
    UnitState,
    check_models,
    compose_stages,
    other,
)
from oprlab.rules.weapon_lines import carried
from oprlab.units.model import Rule, Unit, Weapon


@dataclass(frozen=True)
class Blade:
    """An invented weapon profile: only its dice matter here."""

    name: str
    dice: int


def _unit(size: int, *weapons: Weapon) -> Unit:
    return Unit(name="Pebble Guard", size=size, quality=4, defense=4, weapons=weapons)


def _weapon(name: str, count: int, attacks: int, *rules: str, melee: bool = True) -> Weapon:
    return Weapon(
        name=name,
        count=count,
        attacks=attacks,
        range=None if melee else 12,
        rules=tuple(Rule(r) for r in rules),
    )


def test_carried_spreads_losses_evenly_rounding_half_up() -> None:
    """seed 003_8abb008d4113ed75 "Melee": dead models do not strike (5x CCW, 3 of 5 left: 3)."""
    assert carried(5, 3, 5) == 3
    assert carried(1, 3, 5) == 1  # an upgrade stays while half the models are left
    assert carried(1, 2, 5) == 0
    assert carried(4, 0, 5) == 0 and carried(4, 9, 5) == 4


def test_strikes_scale_lines_and_pick_counter_ones() -> None:
    """seed 003 "Melee": dead models do not strike; Counter lines strike first when charged."""
    unit = _unit(
        5,
        _weapon("Club", 5, 2),
        _weapon("Pike", 1, 1, "Counter"),
        _weapon("Sling", 5, 1, melee=False),
    )

    def dice(
        alive: int, attacking: int | None = None, counter: bool | None = None
    ) -> list[tuple[str, int]]:
        return [(p.name, p.dice) for p in strikes(unit, alive, attacking, counter)]

    assert dice(5) == [("Club", 10), ("Pike", 1)]
    assert dice(2) == [("Club", 4)]  # the Pike's model is gone
    assert dice(5, counter=True) == [("Pike", 1)]
    assert dice(5, counter=False) == [("Club", 10)]
    assert dice(5, 3) == [("Club", 6), ("Pike", 1)]  # 3 of 5 strike: the Pike stays with them


def test_check_models_gives_a_fresh_unit_and_refuses_bad_counts() -> None:
    unit = _unit(3, _weapon("Club", 3, 1))
    assert check_models(unit, None, "attacker_state") == UnitState(models=3)
    kept = UnitState(models=2, markers=1, shaken=True)
    assert check_models(unit, kept, "attacker_state") is kept
    for bad in (0, 4):
        with pytest.raises(OptionError, match="models out of range") as err:
            check_models(unit, UnitState(models=bad), "defender_state")
        assert err.value.value == bad and err.value.where == "defender_state"


def test_compose_stages_equals_the_hand_composed_fight() -> None:
    """Two steps: the first adds 0 or 1 (a fair coin), the second adds 0-2 (two coins) only
    from an odd total; the driver's distribution equals the walk over every coin."""
    coin = Dist.uniform([0, 1])

    def blow(step: str, total: int) -> str | None:
        return None if step == "second" and total % 2 == 0 else step

    def effects(b: str) -> Dist[int]:
        return coin if b == "first" else Dist.uniform([0, 1, 1, 2])

    got = compose_stages(3, ["first", "second"], blow, effects, lambda f, b, e: f + e, 10)
    want: dict[int, Fraction] = {}
    for a, b, c in product((0, 1), repeat=3):
        total = 3 + a + ((b + c) if (3 + a) % 2 else 0)
        want[total] = want.get(total, Fraction(0)) + Fraction(1, 8)
    assert dict(got.items()) == want


def test_compose_stages_stops_before_too_many_states() -> None:
    six = Dist.uniform(range(6))
    with pytest.raises(ExactTooLarge, match="5 joint states at the 0 step"):
        compose_stages(0, [0], lambda step, f: step, lambda b: six, lambda f, b, e: e, 5)
    kept = compose_stages(0, [0, 1], lambda step, f: None, lambda b: six, lambda f, b, e: e, 1)
    assert kept == Dist.point(0)


def test_result_winner_and_after_combat() -> None:
    """seed 003_8abb008d4113ed75 "After Combat": 3" after destroying the other unit, else 1"."""

    def side(dealt: int, models: int) -> SideResult:
        return SideResult(dealt, 0, models, 0, False, models > 0)

    won = ExchangeResult(side(2, 3), side(1, 0), True, AfterCombat.ATTACKER_MOVES)
    assert won.winner is Side.ATTACKER and won.after_combat.inches == 3
    draw = ExchangeResult(side(1, 3), side(1, 2), True, AfterCombat.CHARGER_SEPARATES)
    assert draw.winner is None and draw.after_combat.mover is Side.ATTACKER
    assert AfterCombat.CHARGER_SEPARATES.inches == 1 and AfterCombat.NONE.mover is None
    assert other(Side.ATTACKER) is Side.DEFENDER and other(Side.DEFENDER) is Side.ATTACKER
