"""Scene tests for the rules commander's need of a marker from who will contest it in GFF
(``Style.contest_need``, issue 14): seed 003 "Mission" 4-6, "If units from both sides contest
a marker, it becomes neutral", so a marker the side does not hold needs a unit less where an
enemy will contest it at the round's end; and a charge's target, contesting a marker, frees it
only if the charge destroys or Shakes it (Shaken units "can't contest or seize objectives")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role, break_chance
from oprlab.players.rules.needs import CONTESTED_NEED, OBJECTIVE_VALUE, SAFE_NEED
from oprlab.players.rules.style import RULES, V1
from tests.game import army
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

CONTEST = replace(RULES, contest_need=True)
WARDEN_TEXT = """++ Warden [GFF 150pts] ++

Warden [1] Q4+ D4+ | 50pts | Tough(3)
Hand Weapon (A2)
"""
#: Two markers nobody holds, both within the Brutes' Rush (12") of (24, 20).
WEST, EAST = (16.0, 28.0), (32.0, 28.0)
#: Round 1 of 4: one more marker held at the round's end weighs 40 x (0.5 + 1/8) points.
WEIGHT = 40.0 * (0.5 + 1 / 8)


def _brutes_and_warden(warden: tuple[float, float]) -> GameState:
    """Round 1: Brutes (side A, a fighter) at (24, 20) between the two markers, and a Warden
    (side B, one model, Tough(3)) at ``warden``."""
    return scene(
        army(BRUTES_TEXT),
        army(WARDEN_TEXT),
        {"A1": (24.0, 20.0), "B1": warden},
        objectives=(WEST, EAST),
    )


def test_a_rush_takes_the_marker_no_enemy_will_contest() -> None:
    """The Warden, yet to activate, stands 8" from the west marker: its Rush (12") brings it
    within 3" of it at the round's end. rules-v1 and rules Rush the Brutes to the west marker
    (the same need as the east one, and nearer the Warden to charge later); with the habit the
    west marker needs them 0.7 (they would turn it neutral, not take it) and they take the
    east one, which no enemy can reach this round."""
    state = _brutes_and_warden((16.0, 36.0))
    actions = [a for a in gff.legal_actions(state) if a.unit == "A1"]
    assert not any(a.kind is Kind.CHARGE for a in actions)  # out of the Brutes' charge reach
    new = RulesCommander(0, CONTEST)
    assert new.role(state.units["A1"].unit) is Role.MELEE
    for old in (V1, RULES):
        assert RulesCommander(0, old).choose(state, actions).to == WEST
    assert new.choose(state, actions).to == EAST
    west = Action(Kind.RUSH, "A1", to=WEST)
    gap = RulesCommander(0, RULES).score(state, west) - new.score(state, west)
    assert gap == pytest.approx((1.0 - CONTESTED_NEED) * OBJECTIVE_VALUE)


def test_an_enemy_that_has_activated_contests_only_where_it_stands() -> None:
    """The same Warden having activated cannot move before the round ends: it contests no
    marker, so every action scores as rules scores it (and the Brutes Rush west)."""
    state = _brutes_and_warden((16.0, 36.0))
    state.units["B1"].activated = True
    actions = [a for a in gff.legal_actions(state) if a.unit == "A1"]
    old, new = RulesCommander(0, RULES), RulesCommander(0, CONTEST)
    for a in actions:
        assert new.score(state, a) == pytest.approx(old.score(state, a))
    assert new.choose(state, actions).to == WEST


def test_a_charge_frees_the_marker_at_its_chance_to_break_the_target() -> None:
    """The Warden stands on the west marker, which nobody holds. rules counts the marker the
    Brutes charge onto as if the Warden were gone (its whole need) and its count at the round's
    end as if it stayed (neutral). With the habit both weigh the Warden gone by the charge's
    chance of destroying or Shaking it (d6 exact odds): the need is that chance of the whole
    and the rest 0.7, and the count gains one marker at that chance."""
    state = _brutes_and_warden((16.0, 29.0))
    us, warden = state.units["A1"], state.units["B1"]
    chance = break_chance(us, warden, distance=0.0, charge=True)
    assert 0.0 < chance < 1.0
    new, old = RulesCommander(0, CONTEST), RulesCommander(0, RULES)
    assert new._charge_break(state, new._read(state), us, warden) == chance
    charge = Action(Kind.CHARGE, "A1", target="B1")
    gap = new._charge_score(state, charge, True) - old._charge_score(state, charge, True)
    need = chance + (1.0 - chance) * CONTESTED_NEED
    assert gap == pytest.approx((need - 1.0) * OBJECTIVE_VALUE + chance * WEIGHT)


def test_a_charge_at_a_unit_on_our_marker_frees_it_at_the_same_chance() -> None:
    """On a marker side A holds, rules counts the charged Warden as gone (the need of a marker
    no enemy threatens, 0.15); with the habit the Warden stays at the chance it is not broken,
    and a marker an enemy could take needs a unit 0.7."""
    state = _brutes_and_warden((16.0, 29.0))
    state.objectives[0].controller = 0
    us, warden = state.units["A1"], state.units["B1"]
    chance = break_chance(us, warden, distance=0.0, charge=True)
    new, old = RulesCommander(0, CONTEST), RulesCommander(0, RULES)
    assert old._need(state, us, 0, 0, warden) == SAFE_NEED
    assert old._need(state, us, 0, 0, None) == CONTESTED_NEED
    was = chance * SAFE_NEED + (1.0 - chance) * CONTESTED_NEED
    assert new._need(state, us, 0, 0, warden) == pytest.approx(was)
    assert new._need(state, us, 0, 0, None) == CONTESTED_NEED
