"""Scene tests for the rules commander's Rush onto markers in GFF (``Style.rush_for_markers``,
issue 14): a shooting unit's Rush is marked down (``Style.rush_cost``) for the shot it gives up,
except, with the habit on, one that leaves more markers held at the round's end than standing
still (seed 003 "Mission" 4-6: a unit within 3" of a marker no enemy is near seizes it)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import RULES
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.players.test_rules_depth import BRUTES_TEXT

RUSH = replace(RULES, rush_for_markers=True)
MARKER = (24.0, 22.0)


def _squad_short_of_a_marker() -> GameState:
    """Round 1: a Rifle Squad (shooting by its output) 10" short of a marker nobody holds;
    Brutes far off, out of its rifles' 24" and out of charge reach of the marker."""
    return scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (24.0, 48.0)},
        objectives=(MARKER,),
    )


def test_a_rush_that_seizes_a_marker_is_not_marked_down() -> None:
    """The Rush onto the marker seizes it at the round's end (seed 003 "Mission" 4): with the
    habit it scores ``rush_cost`` more, everything else the same, and is chosen."""
    state = _squad_short_of_a_marker()
    old, new = RulesCommander(0, RULES), RulesCommander(0, RUSH)
    assert old.role(state.units["A2"].unit) is Role.SHOOTING
    rush = Action(Kind.RUSH, "A2", to=MARKER)
    assert new.score(state, rush) - old.score(state, rush) == pytest.approx(RULES.rush_cost)


def test_a_rush_short_of_the_marker_is_marked_down_as_before() -> None:
    """A Rush that ends 6" away from the marker seizes nothing: it scores as before."""
    state = _squad_short_of_a_marker()
    old, new = RulesCommander(0, RULES), RulesCommander(0, RUSH)
    rush = Action(Kind.RUSH, "A2", to=(36.0, 12.0))
    assert new.score(state, rush) == pytest.approx(old.score(state, rush))


def test_the_bound_still_holds_with_the_habit() -> None:
    """The choice by bounds (:meth:`_best_action`) is the first best exact score, with moves
    that seize the marker and moves that do not."""
    state = _squad_short_of_a_marker()
    actions = [
        Action(Kind.HOLD, "A2"),
        Action(Kind.ADVANCE, "A2", to=(24.0, 18.0)),
        Action(Kind.RUSH, "A2", to=(36.0, 12.0)),
        Action(Kind.RUSH, "A2", to=MARKER),
        Action(Kind.RUSH, "A2", to=(24.0, 24.0)),
    ]
    cmd = RulesCommander(0, RUSH)
    for move in actions[1:]:
        bound = cmd._move_bounds(state, [move])[0]
        assert bound >= cmd.score(state, move)
    best = max(actions, key=lambda a: cmd.score(state, a))
    assert cmd._best_action(state, actions) == best


def test_with_nothing_to_shoot_the_mark_down_halves_the_walk() -> None:
    """``rush_cost`` 0 (``rules-v1`` classed such squads hybrid, never marked down): a squad
    with no enemy within its rifles' reach, a marker 26" off. Its Advance ends 20" from the
    marker (60 / (1 + 17.5 / 4) = 11.16), its Rush 14" (60 / (1 + 11.5 / 4) = 15.48): marked
    down by 5 the Rush loses and the squad walks 6"; not marked down it Rushes 12"."""
    state = scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (48.0, 48.0)},
        objectives=((24.0, 38.0),),
    )
    actions = [
        Action(Kind.ADVANCE, "A2", to=(24.0, 38.0)),
        Action(Kind.RUSH, "A2", to=(24.0, 38.0)),
    ]
    old = RulesCommander(0, RULES)
    assert old.score(state, actions[0]) == pytest.approx(60 / (1 + 17.5 / 4))
    assert old.score(state, actions[1]) == pytest.approx(60 / (1 + 11.5 / 4) - 5.0)
    assert old._best_action(state, actions).kind is Kind.ADVANCE
    new = RulesCommander(0, replace(RULES, rush_cost=0.0))
    assert new._best_action(state, actions).kind is Kind.RUSH


def test_a_shadow_counts_where_two_commanders_part() -> None:
    """``bench.habit_pairs --diff``'s shadow plays the first commander's choice and counts
    where the second would choose otherwise in the same position: here ``rules`` Advances
    (the mark-down) where ``rush_cost`` 0 Rushes."""
    from bench.habit_pairs import Shadow

    state = scene(
        line(),
        army(BRUTES_TEXT),
        {"A2": (24.0, 12.0), "B1": (48.0, 48.0)},
        objectives=((24.0, 38.0),),
    )
    actions = [
        Action(Kind.ADVANCE, "A2", to=(24.0, 38.0)),
        Action(Kind.RUSH, "A2", to=(24.0, 38.0)),
    ]
    spy = Shadow(RulesCommander(0, RULES), RulesCommander(0, replace(RULES, rush_cost=0.0)))
    assert spy.choose(state, actions) == actions[0]
    assert spy.decisions == {(1, "advance"): 1}
    assert spy.differ == {(1, "advance", "rush"): 1}
