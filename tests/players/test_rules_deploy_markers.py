"""Scene tests for the rules commander's deployment for markers (``Style.deploy_for_markers``,
issue 14): a shooting unit deploys where it can take a marker in the first round that no unit
of its side placed so far can, the farthest back of those places, rather than always at the
back (seed 003 "Mission" 4 and 8, "Deployment" 3, "Activation": Rush 12")."""

from __future__ import annotations

import math
from dataclasses import replace

from oprlab.game import gff
from oprlab.game import gff_setup as edges
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import RULES
from oprlab.table.model import Table
from tests.game import line

DEPLOY = replace(RULES, deploy_for_markers=True)
#: One marker 22" from the south edge: a Rifle Squad's centre within Rush 12" + 3" of it
#: needs to stand at least 7" from that edge (the zone runs 12" deep).
MARKER = (24.0, 22.0)


def _south(objectives: tuple[tuple[float, float], ...] = (MARKER,)) -> GameState:
    """Line against line on an open table with the given markers, side A's deployment next,
    on the south edge."""
    state = gff.new_game(line(), line(), seed=0, table=Table(objectives=objectives))
    gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="south"))
    assert gff.edge_of(state, state.active) == "south"
    return state


def _depth(state: GameState, a: Action) -> float:
    assert a.to is not None
    return edges.edge_distance(state.table, gff.edge_of(state, state.active), a.to)


def _deploy(state: GameState, uid: str, to: tuple[float, float]) -> None:
    gff.apply(state, Action(Kind.DEPLOY, uid, to=to))
    other = gff.legal_actions(state)[0]  # the other side places a unit where it may
    gff.apply(state, other)


def test_a_shooter_deploys_where_it_takes_a_marker_in_round_one() -> None:
    """seed 003 "Mission" 4 (seized by a unit within 3" at the end of a round) and "Rush"
    (12"): a marker 22" from the edge is out of a Rifle Squad's first-round reach from the
    back of the zone. rules places the squad as far back as it may (2.5" from the edge);
    with the habit on, the farthest back from which a Rush ends within 3" of the marker
    (centre within 15" of it). A second squad, the marker claimed by the first, goes back."""
    state = _south()
    rules = RulesCommander(0, DEPLOY)
    assert rules.role(state.units["A2"].unit) is Role.SHOOTING
    actions = [a for a in gff.legal_actions(state) if a.unit == "A2"]
    back = min(_depth(state, a) for a in actions)
    assert _depth(state, RulesCommander(0, RULES).choose(state, actions)) == back
    picked = rules.choose(state, actions)
    assert picked.to is not None
    assert math.dist(picked.to, MARKER) <= 15.0
    reaching = [a for a in actions if a.to is not None and math.dist(a.to, MARKER) <= 15.0]
    assert _depth(state, picked) == min(_depth(state, a) for a in reaching) > back
    _deploy(state, "A2", picked.to)
    second = [a for a in gff.legal_actions(state) if a.unit == "A3"]
    assert _depth(state, rules.choose(state, second)) == min(_depth(state, a) for a in second)
