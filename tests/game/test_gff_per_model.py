"""GFF games measure each model (issue 10, defects 2 and 3; seed 003_8abb008d4113ed75).

"Models in range and line of sight may fire" ("Shooting"), "Models must strike enemies within
2"" ("Striking"), Relentless ("When this model shoots at enemies over 9" away") and Stealth
("shot from over 9" away") are about each model, not the unit: scenes with the models set out
by hand, a scripted mechanic (every check succeeds with a natural 6, or fails) so the dice can
be counted.
"""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import geometry as geo
from oprlab.game import gff, gff_melee
from oprlab.game import gff_shooting as shooting
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_fight import _fight
from oprlab.game.state import GameState, Phase
from oprlab.mechanics import Check, Outcome, State, Test
from oprlab.prob import Dist
from oprlab.rules.gff import melee
from oprlab.table.model import Placement
from oprlab.units.model import Army
from tests.game import Scripted, army, clear_table, strike_back

RADIUS = 0.5


class Sixes(Scripted):
    """Every check comes out as the test says; a success is a natural 6 (a critical)."""

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        self.checks.append(check)
        ok = self.succeeds(check)
        return Dist.point(Outcome(success=ok, natural=6 if ok else 1, critical=ok))


def _army(text: str) -> Army:
    return army(f"++ Test [GFF 150pts] ++\n\n{text}\n")


def _stand(state: GameState, uid: str, points: list[tuple[float, float]]) -> None:
    us = state.units[uid]
    us.placement = Placement(np.array(points, dtype=np.float64), np.full(len(points), RADIUS))
    us.reserve = None


def _scene(
    a: str, b: str, where: dict[str, list[tuple[float, float]]], ok: bool = True
) -> tuple[GameState, Scripted]:
    mech = Sixes(lambda check: ok)
    state = gff.new_game(_army(a), _army(b), seed=0, mechanic=mech)
    clear_table(state)
    for uid, points in where.items():
        _stand(state, uid, points)
    state.phase, state.round, state.active = Phase.ACTIVATION, 1, 0
    return state, mech


#: Five models in a file at 5", 8", 13", 16" and 19" (base to base) from a lone target.
FILE = [(24.0, 30.0 - 2 * RADIUS - d) for d in (5.0, 8.0, 13.0, 16.0, 19.0)]
TARGET = [(24.0, 30.0)]
LONE = "Sentry [1] Q4+ D6+ | 10pts | Tough(9)\nKnife (A1)"


def test_only_models_in_range_fire() -> None:
    """seed 003 "Shooting": five 12" rifles with two models in range fire two dice, not five."""
    rifles = 'Rifles [5] Q4+ D4+ | 50pts\n5x Rifle (12", A1)'
    state, _ = _scene(rifles, LONE, {"A1": FILE, "B1": TARGET})
    a1, b1 = state.units["A1"].placement, state.units["B1"].placement
    assert a1 is not None and b1 is not None
    gaps = geo.model_gaps(a1, b1)
    assert np.allclose(gaps, [5.0, 8.0, 13.0, 16.0, 19.0])
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 2 and shot["hits"] == 2


def test_a_target_only_an_unseeing_model_could_reach_is_not_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """seed 003 "Shooting": "in range and line of sight" is one model's: a model in range that
    sees nothing and a model that sees but is out of range fire nothing."""
    rifles = 'Rifles [2] Q4+ D4+ | 20pts\n2x Rifle (12", A1)'
    state, _ = _scene(rifles, LONE, {"A1": [FILE[0], FILE[4]], "B1": TARGET})
    assert gff.shooting_targets(state, state.units["A1"]) == ["B1"]  # the near one sees it
    blind = np.array([False, True])  # the near model sees nothing, the far one does
    monkeypatch.setattr(shooting, "seeing", lambda *_: blind)
    shooting._SIGHTS.clear()  # the same positions: forget what the real sight lines gave
    shooting._TARGETABLE.clear()  # and the targets found from them
    assert gff.shooting_targets(state, state.units["A1"]) == []


def test_relentless_counts_each_shooting_models_distance() -> None:
    """seed 003 "Relentless": "When this model shoots at enemies over 9" away": of five 24"
    rifles at 5", 8", 13", 16" and 19", the three over 9" add one extra hit on a 6: every die
    here is a 6, so 5 hits and 3 extra hits."""
    rifles = 'Rifles [5] Q4+ D4+ | 50pts | Relentless\n5x Rifle (24", A1)'
    state, _ = _scene(rifles, LONE, {"A1": FILE, "B1": TARGET})
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 5 and shot["hits"] == 8


def test_stealth_counts_each_shooting_models_distance() -> None:
    """seed 003 "Stealth": "shot from over 9" away": only the three shooters over 9" get -1."""
    rifles = 'Rifles [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1)'
    sneaky = "Sentry [1] Q4+ D6+ | 10pts | Tough(9), Stealth\nKnife (A1)"
    state, mech = _scene(rifles, sneaky, {"A1": FILE, "B1": TARGET})
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    # One check per weapon profile is asked per die: three dice at -1, two at +0.
    assert sorted(c.modifier for c in mech.of(Test.HIT)) == [-1, -1, -1, 0, 0]


def test_only_models_within_two_inches_strike() -> None:
    """seed 003 "Striking": "Models must strike enemies within 2"": a five-model column that
    reached a lone model with three models within 2" strikes with three, not five; the lone
    model, within 2" of them, strikes back with its one attack."""
    column = "Column [5] Q4+ D4+ | 50pts\n5x Blade (A1)"
    # Base to base from the lone model: 0", 1", 1.9" (within 2"), 3" and 5" (not).
    points = [(24.0, 30.0 - 2 * RADIUS - d) for d in (0.0, 1.0, 1.9, 3.0, 5.0)]
    state, mech = _scene(column, LONE, {"A1": points, "B1": TARGET})
    mech.succeeds = lambda check: check.test is Test.HIT  # hits land, no Defense roll saves
    a1, b1 = state.units["A1"], state.units["B1"]
    assert gff_melee.strikers(state, a1, b1) == 3 and gff_melee.strikers(state, b1, a1) == 1
    x = melee.start_exchange(a1.unit, b1.unit)
    _fight(state, "A1", "B1", x, state.dice, 0)
    strike_back(state)
    (fight,) = state.log.of_kind("melee")
    assert fight["wounds_dealt"] == 3 and fight["wounds_taken"] == 1
    # The casualty came off the column where the fight was not: the farthest model.
    assert a1.placement is not None and list(a1.placement.removed) == [False] * 4 + [True]


def test_casualties_in_melee_keep_the_fighters() -> None:
    """seed 003 leaves casualties to the defender: in melee the models farthest from the enemy
    go first, so the strike back keeps its strikers (docs/rules/gff.md "Full games")."""
    pack = "Pack [3] Q4+ D4+ | 30pts\n3x Claw (A1)"
    state, _ = _scene(pack, LONE, {"A1": [(24.0, 28.0), (24.0, 26.0), (24.0, 20.0)], "B1": TARGET})
    order = gff_melee.casualty_order(state, state.units["A1"], state.units["B1"], 2)
    assert order == [2, 1]
