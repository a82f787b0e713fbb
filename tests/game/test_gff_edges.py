"""The deployment roll-off winner's table edge (seed 003_8abb008d4113ed75 "Deployment" 1-2,
"Mission" 2-3, "The Battlefield"): the choice, the opposite edge, zones, markers, facings."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest

from oprlab.errors import OptionError, UserError
from oprlab.game import geometry as geo
from oprlab.game import gff
from oprlab.game import gff_setup as edges
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_setup import GffOptions
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players import get_commander
from oprlab.players.gff_choices import choose_edge, deploy
from oprlab.players.rules.estimates import Role
from oprlab.players.rules_commander import RulesCommander
from oprlab.table.model import Table
from tests.game import line, play_setup


def _to_zone(seed: int, options: GffOptions | None = None) -> GameState:
    state = gff.new_game(line(), line(), seed=seed, options=options)
    while state.phase == "objectives":
        gff.apply(state, gff.legal_actions(state)[0])
    return state


def test_the_deployment_roll_off_winner_picks_an_edge_and_the_opponent_takes_the_opposite() -> None:
    """seed 003 "Deployment" 1-2: "winner picks a table edge"; "Opponent takes opposite edge".
    The deployment roll-off is its own roll, after the markers ("Mission" 2 is the roll-off to
    place first); its winner picks, deploys first and activates first."""
    winners = set()
    for seed in range(6):
        state = _to_zone(seed)
        assert state.phase == "zone"
        (deployment,) = state.log.of_kind("deployment")
        assert state.active == deployment["first"]
        winners.add(state.active)
        choices = gff.legal_actions(state)
        assert [a.choice for a in choices] == ["east", "north", "south", "west"]
        pick = choices[seed % 4].choice
        winner = state.active
        gff.apply(state, choices[seed % 4])
        assert gff.edge_of(state, winner) == pick
        assert gff.edge_of(state, 1 - winner) == edges.OPPOSITE[pick]
        (zone,) = state.log.of_kind("zone")
        assert zone["side"] == winner and zone["edge"] == pick
        assert state.phase == "deploy" and state.active == winner
    assert winners == {0, 1}


def test_markers_go_outside_every_edge_that_may_still_be_picked() -> None:
    """seed 003 "Mission" 3 before "Deployment" 1: markers are placed before the edge is known,
    so "outside deployment zones" keeps them over 12" from all four edges ("all", default),
    or from the south and north edges only (option ``edges="north-south"``)."""
    state = gff.new_game(line(), line(), seed=0)
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(6.0, 24.0)))  # west band
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(42.0, 24.0)))  # east band
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(12.0, 24.0)))  # its edge
    assert gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(12.5, 24.0)))
    for a in gff.legal_actions(state):
        assert a.to is not None and all(12.0 < v < 36.0 for v in a.to)
    pair = gff.new_game(line(), line(), seed=0, options=GffOptions(edges="north-south"))
    assert gff.is_legal(pair, Action(Kind.PLACE_OBJECTIVE, to=(6.0, 24.0)))
    assert not gff.is_legal(pair, Action(Kind.PLACE_OBJECTIVE, to=(24.0, 6.0)))
    state = _to_zone(0, GffOptions(edges="north-south"))
    assert [a.choice for a in gff.legal_actions(state)] == ["north", "south"]


def test_a_bad_edge_or_a_choice_at_the_wrong_time_is_refused() -> None:
    """Only the listed edges, only in the zone step, and only CHOOSE_ZONE takes a choice."""
    state = gff.new_game(line(), line(), seed=1)
    with pytest.raises(UserError, match="no deployment edge"):
        gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="north"))
    state = _to_zone(1, GffOptions(edges="north-south"))
    with pytest.raises(UserError, match="picks one of the edges south, north"):
        gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="west"))
    assert not gff.is_legal(state, Action(Kind.CHOOSE_ZONE, choice="up"))
    assert not gff.is_legal(state, Action(Kind.CHOOSE_ZONE, unit="A1", choice="north"))
    assert not gff.is_legal(state, Action(Kind.DEPLOY, "A1", to=(24.0, 6.0)))  # not yet
    assert not gff.is_legal(state, Action(Kind.HOLD, "A1", choice="north"))


def test_options_say_what_is_wrong() -> None:
    """Unknown readings name the value and what would be right."""
    with pytest.raises(OptionError, match="edges"):
        GffOptions(edges="diagonal")
    with pytest.raises(OptionError, match="dangerous"):
        GffOptions(dangerous="never")
    with pytest.raises(OptionError, match="table edge"):
        edges.zone_box(Table(), "up", 12.0)


@pytest.mark.parametrize(
    ("edge", "box", "home", "front"),
    [
        ("south", (0.0, 0.0, 48.0, 12.0), (10.0, 0.0), (0.0, 1.0)),
        ("north", (0.0, 36.0, 48.0, 48.0), (10.0, 48.0), (0.0, -1.0)),
        ("west", (0.0, 0.0, 12.0, 48.0), (0.0, 30.0), (1.0, 0.0)),
        ("east", (36.0, 0.0, 48.0, 48.0), (48.0, 30.0), (-1.0, 0.0)),
    ],
)
def test_zones_homes_and_facings_follow_the_edge(
    edge: str, box: edges.Box, home: tuple[float, float], front: tuple[float, float]
) -> None:
    """seed 003 "Deployment" 3 on "The Battlefield" (4'x4'): 12" deep along the edge; home is
    straight back to it; a formation's front rank faces the enemy's edge."""
    table = Table()
    assert edges.zone_box(table, edge, 12.0) == box
    assert edges.home_point(table, edge, (10.0, 30.0)) == home
    theta = edges.heading(edge)
    assert (-math.sin(theta), math.cos(theta)) == pytest.approx(front)
    assert edges.edge_distance(table, edge, home) == 0.0


def test_deployed_units_face_the_enemy_and_go_home_along_their_edge() -> None:
    """Facing and the "back toward home" move goal follow the picked edge (west/east)."""
    state = _to_zone(2)
    gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="west"))
    play_setup(state)
    for us in state.units.values():
        assert us.placement is not None
        edge = gff.edge_of(state, us.side)
        x = float(us.placement.centres[:, 0].mean())
        assert (x <= 12.0) if edge == "west" else (x >= 36.0)
        home = edges.home_point(state.table, edge, geo.centroid(us.placement))
        assert home in gff.move_goals(state, us)


def test_rules_commander_picks_the_edge_nearer_more_markers() -> None:
    """The habit (docs/rules/gff.md): the edge with more markers nearer to it than to the
    opposite edge; ties by the total distance, then south, north, west, east."""
    state = gff.new_game(line(), line(), seed=0, table=Table(objectives=((20.0, 30.0),)))
    actions = gff.legal_actions(state)
    assert choose_edge(state, actions).choice == "north"  # 18" from north, 30" from south
    state = gff.new_game(line(), line(), seed=0, table=Table(objectives=((14.0, 24.0),)))
    assert choose_edge(state, gff.legal_actions(state)).choice == "west"
    state = gff.new_game(line(), line(), seed=0, table=Table(objectives=((24.0, 24.0),)))
    assert choose_edge(state, gff.legal_actions(state)).choice == "south"  # all equal: order
    rules = get_commander("rules")
    assert rules.choose(state, gff.legal_actions(state)).choice == "south"


def test_rules_commander_deploys_shooters_back_along_any_edge() -> None:
    """The deployment habit turned with the edge: shooters as deep in the zone as they may."""
    state = _to_zone(3)
    gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="east"))
    rules = get_commander("rules")
    side = state.active
    a = rules.choose(state, gff.legal_actions(state))
    assert a.kind is Kind.DEPLOY and a.to is not None
    edge = gff.edge_of(state, side)
    depths = [
        edges.edge_distance(state.table, edge, b.to)
        for b in gff.legal_actions(state)
        if b.to is not None and b.unit == a.unit
    ]
    shooting = a.unit.endswith(("2", "3"))  # the Rifle Squads
    mine = edges.edge_distance(state.table, edge, a.to)
    assert mine == (min(depths) if shooting else max(depths))


def _fresh_deploy(cmd: RulesCommander, state: GameState, actions: Sequence[Action]) -> Action:
    """The deployment habit's choice worked out afresh (no remembered key)."""
    edge = gff.edge_of(state, state.active)
    lateral = 0 if edges.along_y(edge) else 1
    targets = [o.position for o in state.objectives]

    def key(a: Action) -> float:
        assert a.to is not None
        depth = abs(edges.edge_distance(state.table, edge, a.to))
        forward = depth if cmd.role(state.units[a.unit].unit) is Role.SHOOTING else -depth
        near = min(abs(a.to[lateral] - t[lateral]) for t in targets)
        return forward + 0.3 * near

    return min(actions, key=key)


def test_deploy_keys_remembered_across_decisions_are_the_fresh_ones() -> None:
    """The deployment habit's key of a place is remembered across the deployment decisions
    (the same places are listed for every unit still to deploy) by the table's size, the
    edge, the markers and whether the unit shoots: at every deployment decision of seeded
    games the choice is the one worked out afresh, and so it is when the same places are
    measured from each of the four edges in turn (seed 003 "Deployment" 3)."""
    seen = {"decisions": 0, "moved": 0}

    class Checking(RulesCommander):
        def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
            chosen = super().choose(state, actions)
            if actions[0].kind is not Kind.DEPLOY:
                return chosen
            shooting = lambda u: self.role(u) is Role.SHOOTING  # noqa: E731
            assert deploy(state, actions, shooting) == _fresh_deploy(self, state, actions)
            seen["decisions"] += 1
            kept = list(state.edges)
            for edge in edges.EDGES:
                state.edges = [edge, edge]
                best = deploy(state, actions, shooting)
                assert best == _fresh_deploy(self, state, actions)
                seen["moved"] += best != chosen
            state.edges = kept
            return chosen

    for seed in range(1, 4):
        play_game(line(), line(), [Checking(seed), Checking(seed + 1)], seed=seed)
    assert seen["decisions"] > 10 and seen["moved"] > seen["decisions"]
