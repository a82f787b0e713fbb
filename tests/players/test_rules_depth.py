"""Scene tests for the rules commander's depth against fighters (``Style.depth``, issue 14):
a shooting unit that can shoot from where it stands holds back and shoots rather than walk
into an enemy fighter's charge reach (seed 003 "Charge": a Charge moves up to 12")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import RULES, V1, Style
from tests.game import army, line
from tests.game.test_gff_rounds import scene

BRUTES_TEXT = """++ Brutes [GFF 150pts] ++

Brutes [3] Q4+ D4+ | 60pts
3x Great Club (A3)
"""
DEPTH = replace(RULES, depth=True)


def _rules(style: Style) -> RulesCommander:
    return RulesCommander(0, style)


def _rifles_before_brutes(round_: int = 1) -> GameState:
    """A Rifle Squad (24" rifles) 18" from Brutes (Charge 12" + 1" for the bases: out of
    reach), a marker side A holds 8" ahead of it: an Advance toward the marker ends within
    the Brutes' reach, and the Brutes are within rifle range from where the squad stands."""
    state = scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (24.0, 30.0)},
        objectives=((24.0, 20.0),),
        round_=round_,
    )
    state.objectives[0].controller = 0
    return state


def test_a_shooter_holds_and_shoots_rather_than_walk_into_charge_reach() -> None:
    """seed 003 "Charge" (12" and into contact) and "Shooting" (24" rifles): from 18" away
    the squad can shoot the Brutes where it stands. rules-v1 and rules without depth Advance
    toward the marker and end 12" from the Brutes, inside their reach; with depth the move
    counts the Brutes' whole charge as lost (rules counts half: the other half is the
    difference), so the squad Holds and shoots."""
    state = _rifles_before_brutes()
    actions = [a for a in gff.legal_actions(state) if a.unit == "A2"]
    deep = _rules(DEPTH)
    assert deep.role(state.units["A2"].unit) is Role.SHOOTING
    for old in (V1, RULES):
        picked = _rules(old).choose(state, actions)
        assert picked.kind is Kind.ADVANCE
    assert deep.choose(state, actions).kind is Kind.HOLD
    advance = Action(Kind.ADVANCE, "A2", to=(24.0, 20.0))
    view = deep._read(state)
    hit = deep._melee_damage(view, state.units["B1"], state.units["A2"], charging=True)
    assert hit > 0
    gap = _rules(RULES).score(state, advance) - deep.score(state, advance)
    assert gap == pytest.approx((1.0 - RULES.danger) * hit)
    hold = Action(Kind.HOLD, "A2")
    assert deep.score(state, hold) == pytest.approx(_rules(RULES).score(state, hold))


def test_depth_costs_nothing_in_the_last_round() -> None:
    """seed 003 "Game End": after the last round no charge follows, so the markers decide;
    in round 4 of 4 depth scores the Advance as rules does."""
    state = _rifles_before_brutes(round_=4)
    assert state.round == state.rounds
    advance = Action(Kind.ADVANCE, "A2", to=(24.0, 20.0))
    assert _rules(DEPTH).score(state, advance) == pytest.approx(_rules(RULES).score(state, advance))


def test_depth_costs_nothing_for_a_move_that_stays_out_of_reach_or_was_in_it() -> None:
    """Only a fighter whose reach the move enters counts whole: a short step that stays out
    of the Brutes' 13" costs nothing more, nor does a move of a unit already within it (the
    danger share counts there for both)."""
    state = _rifles_before_brutes()
    short = Action(Kind.ADVANCE, "A2", to=(24.0, 14.0))
    assert _rules(DEPTH).score(state, short) == pytest.approx(_rules(RULES).score(state, short))
    near = scene(line(), army(BRUTES_TEXT), {"A2": (24.0, 20.0), "B1": (24.0, 30.0)}, objectives=())
    step = Action(Kind.ADVANCE, "A2", to=(24.0, 22.0))
    assert _rules(DEPTH).score(near, step) == pytest.approx(_rules(RULES).score(near, step))
