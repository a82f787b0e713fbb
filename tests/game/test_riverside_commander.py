"""The rules commander in Riverside games (seed 002_fdb385c07cc953af): it scores attacks with
Riverside's own odds, and it beats the random commander.

The odds are checked against the exact Fraction path of the Riverside pipeline; the win rate
is over seeded games, so the test is exact for its seeds.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from oprlab.analysis.stats import wilson
from oprlab.game import riverside as rv
from oprlab.game.gff import GffRules
from oprlab.game.play import play_game
from oprlab.game.riverside import RiversideRules
from oprlab.game.state import UnitState
from oprlab.mechanics import get_mechanic
from oprlab.players import get_commander, riverside_odds
from oprlab.players.rules.habits import HABITS
from oprlab.prob.dist import mean
from oprlab.rules.riverside.attack import Situation
from oprlab.rules.riverside.exact import attack_odds
from oprlab.rules.riverside.profile import attack_profile, defender_profile
from oprlab.units.model import Army
from tests.game.test_riverside_game import army, sample

#: Rending claws: seed 002 gives a Critical Hit AP(4); seed 003 adds AP(+4) and ignores
#: Regeneration. The target regenerates, so the two systems' odds differ.
RENDERS_TEXT = """++ Tide Rippers [GFF 60pts] ++

Tide Rippers [3] Q4+ D4+ | 60pts
3x Ripper Claws (A3, Rending)
"""

TROLLS_TEXT = """++ Bank Trolls [GFF 120pts] ++

Bank Trolls [3] Q4+ D3+ | 120pts | Tough(3), Regeneration
3x Club (A2)
"""


def _units(a: Army, b: Army) -> tuple[UnitState, UnitState]:
    state = rv.new_game(a, b, seed=0)
    return state.units["A1"], state.units["B1"]


def _exact_value(attacker: UnitState, target: UnitState, *, melee: bool, charging: bool) -> float:
    """The same estimate from the exact Fraction odds (seed 002 pipeline), by hand."""
    unit = attacker.unit
    profiles = [
        replace(attack_profile(unit, w), dice=w.count * w.attacks)
        for w in unit.weapons
        if w.melee == melee
    ]
    d = defender_profile(target.unit, models=target.models, started=target.unit.size)
    odds = attack_odds(profiles, d, Situation(melee=melee, charging=charging), get_mechanic("d6"))
    per_model = Fraction(target.unit.cost, target.unit.size)
    casualties = mean(odds.casualties)
    value = casualties * per_model + odds.p_routed * (target.models - casualties) * per_model
    if odds.p_shaken is not None:
        value += Fraction(3, 10) * odds.p_shaken * target.unit.cost
    return float(value)


@pytest.mark.parametrize(("melee", "charging"), [(True, True), (True, False)])
def test_riverside_estimates_come_from_riverside_odds(melee: bool, charging: bool) -> None:
    """The commander's estimate in a Riverside game (its rules class's habits) equals the exact
    Riverside odds (float fast path, to 1e-9), and differs from GFF's for Rending against
    Regeneration (seed 002 "Rending": -1 to Regeneration rolls, AP(4) on a Critical Hit; seed
    003: ignores it)."""
    riverside_odds.clear()
    a, b = _units(army(RENDERS_TEXT), army(TROLLS_TEXT))
    ours = HABITS[RiversideRules].damage(a, b, melee=melee, distance=0.0, charging=charging)
    assert ours == pytest.approx(_exact_value(a, b, melee=melee, charging=charging), abs=1e-9)
    exact = riverside_odds.expected_damage(a, b, melee=melee, distance=0.0, charging=charging)
    assert ours == exact
    gff = HABITS[GffRules].damage(a, b, melee=melee, distance=0.0, charging=charging)
    assert abs(ours - gff) > 0.5


def test_ranged_estimate_counts_the_shaken_share() -> None:
    """Shooting (seed 002 "Ranged Attacks" 3-4): the Morale Test comes with the attack, so the
    chance of leaving the target Shaken adds its share; weapons out of range add nothing."""
    riverside_odds.clear()
    state = rv.new_game(sample("shooty-150"), sample("melee-150"), seed=0)
    shooter = max(
        state.side_units(0), key=lambda u: sum(w.count * w.attacks for w in u.unit.weapons)
    )
    target = max(state.side_units(1), key=lambda u: u.models)
    ours = riverside_odds.expected_damage(
        shooter, target, melee=False, distance=1.0, charging=False
    )
    exact = _exact_value(shooter, target, melee=False, charging=False)
    assert ours == pytest.approx(exact, abs=1e-9) and ours > 0.0
    far = riverside_odds.expected_damage(
        shooter, target, melee=False, distance=999.0, charging=False
    )
    assert far == 0.0


def _mirror(name: str, seeds: range) -> dict[str | None, int]:
    a = sample(name)
    wins: dict[str | None, int] = {}
    for seed in seeds:
        for flip in (False, True):
            names = ("random", "rules") if flip else ("rules", "random")
            cs = [get_commander(n, seed + i) for i, n in enumerate(names)]
            result, _ = play_game(a, a, cs, seed=seed, system="riverside")
            who = None if result.winner is None else names[result.winner]
            wins[who] = wins.get(who, 0) + 1
    return wins


def test_rules_commander_beats_random_in_riverside_games() -> None:
    """Riverside mirror (shooty-150, with a Caster, on both sides), 10 seeds x both side
    assignments = 20 games: the rules commander must win at least 19 (95%; draws count
    against it). At 19 of 20 the 95% Wilson interval is [0.76, 0.99]."""
    wins = _mirror("shooty-150", range(10))
    n = sum(wins.values())
    assert n == 20
    assert wins.get("rules", 0) >= 19, (wins, wilson(wins.get("rules", 0), n))
