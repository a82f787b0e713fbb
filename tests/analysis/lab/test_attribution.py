"""Who destroyed what: the lab's per-unit credit, decision by decision (docs/experiments.md
"Per unit"), on hand-made states."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from oprlab.analysis.lab.attribution import Attribution, unit_lost
from oprlab.game.actions import Action, Kind
from oprlab.units.model import Unit


@dataclass
class _Us:
    uid: str
    side: int
    unit: Unit
    models: int
    routed: bool = False


@dataclass
class _State:
    units: dict[str, _Us]
    not_deployed: dict[str, str] = field(default_factory=dict)

    def side_units(self, side: int) -> list[_Us]:
        return [u for u in self.units.values() if u.side == side]


def _state() -> _State:
    rifles = Unit("Rifles", 5, 4, 4, cost=100)
    beast = Unit("Beast", 1, 4, 4, cost=60)
    hero = Unit("Hero", 1, 3, 4, cost=40)
    return _State(
        {
            "A1": _Us("A1", 0, rifles, 5),
            "A2": _Us("A2", 0, hero, 1),
            "B1": _Us("B1", 1, beast, 1),
            "B2": _Us("B2", 1, rifles, 5),
        }
    )


def test_unit_lost_is_cost_times_share_routed_whole_undeployed_none() -> None:
    s = _state()
    s.units["A1"].models = 3
    assert unit_lost(s.units["A1"], {}) == pytest.approx(40.0)
    s.units["A1"].routed = True
    assert unit_lost(s.units["A1"], {}) == 100.0
    assert unit_lost(s.units["A1"], {"A1": "no room"}) == 0.0


def test_enemy_losses_go_to_the_acting_unit_own_losses_to_its_opponent() -> None:
    s = _state()
    credit = Attribution()
    credit.after(s, Action(Kind.DEPLOY, unit="A1"))
    s.units["B2"].models = 4  # A1 shoots B2: one model of five (20pts)
    credit.after(s, Action(Kind.SHOOT, unit="A1", target="B2"))
    s.units["B1"].routed = True  # B1 charges A2 and the melee's morale routs B1 ...
    s.units["A2"].models = 0  # ... after it killed the hero
    credit.after(s, Action(Kind.CHARGE, unit="B1", target="A2"))
    assert credit.destroyed == {"A1": pytest.approx(20.0), "B1": 40.0, "A2": 60.0}


def test_a_reaction_credits_the_activating_unit() -> None:
    """seed 003 'Melee / Striking': the charged side's strike-back decision resolves the fight:
    the charger's kills go to the charger, the strike back's to the charged unit."""
    s = _state()
    credit = Attribution()
    credit.after(s, Action(Kind.CHARGE, unit="B2", target="A1"))
    s.units["A1"].models = 2  # the charger killed three rifles (60pts)
    s.units["B2"].models = 4  # the strike back killed one (20pts)
    credit.after(s, Action(Kind.STRIKE_BACK, unit="A1", value=1))
    assert credit.destroyed == {"B2": pytest.approx(60.0), "A1": pytest.approx(20.0)}
    rows = credit.records(s, (1, 0))  # side 0 is army B here
    assert [(r.army, r.name) for r in rows][:2] == [(0, "Beast"), (0, "Rifles")]
    assert sum(r.points_lost for r in rows if r.army == 1) == pytest.approx(60.0)
