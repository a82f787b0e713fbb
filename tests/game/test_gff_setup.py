"""Setting up a GFF game (seed 003_8abb008d4113ed75 "Mission" 1-3, "Deployment" 1-4, Scout,
Ambush): objectives, deployment zones and order, reserves, and armies that cannot play."""

from __future__ import annotations

import math
from typing import Any

import pytest

from oprlab.errors import UserError
from oprlab.game import geometry as geo
from oprlab.game import gff
from oprlab.game import gff_setup as edges
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from tests.game import army, first_action, line, play_setup, specials

#: Five plain units, to see alternation carry on after the other side runs out.
FIVE_TEXT = """++ Test Five [GFF 150pts] ++

Picket [1] Q4+ D4+ | 20pts
Carbine (18", A1)

Picket [1] Q4+ D4+ | 20pts
Carbine (18", A1)

Picket [1] Q4+ D4+ | 20pts
Carbine (18", A1)

Picket [1] Q4+ D4+ | 20pts
Carbine (18", A1)

Picket [1] Q4+ D4+ | 20pts
Carbine (18", A1)
"""


def _events(state: GameState, kind: str) -> list[dict[str, Any]]:
    return state.log.of_kind(kind)


def test_objectives_are_d3_plus_2() -> None:
    """seed 003 "Mission" 1: place D3+2 objectives: 3, 4 or 5, each about a third of games."""
    counts = []
    for seed in range(60):
        state = gff.new_game(line(), line(), seed=seed)
        while state.phase == "objectives":
            gff.apply(state, gff.legal_actions(state)[0])
        (setup,) = _events(state, "setup")
        assert len(state.objectives) == setup["objectives"]
        counts.append(len(state.objectives))
    assert set(counts) == {3, 4, 5}
    # 60 draws of a D3: each face 20 expected; 8..32 is over 99.9% likely for a fair die.
    assert all(8 <= counts.count(k) <= 32 for k in (3, 4, 5))


def test_markers_alternate_from_the_roll_off_winner() -> None:
    """seed 003 "Mission" 2-3: roll-off to go first, then alternate placing one marker each."""
    firsts = set()
    for seed in range(12):
        state = play_setup(gff.new_game(line(), line(), seed=seed))
        (setup,) = _events(state, "setup")
        sides = [e["side"] for e in _events(state, "objective")]
        first = setup["first"]
        firsts.add(first)
        assert sides == [(first + i) % 2 for i in range(len(sides))]
    assert firsts == {0, 1}


def test_markers_outside_deployment_zones_and_over_nine_inches_apart() -> None:
    """seed 003 "Mission" 3: markers outside deployment zones, over 9" away from each other."""
    for seed in range(12):
        state = play_setup(gff.new_game(line(), line(), seed=seed))
        t = state.table
        pts = [o.position for o in state.objectives]
        for p in pts:
            assert t.deployment_depth < p[1] < t.depth - t.deployment_depth
        for i, p in enumerate(pts):
            for q in pts[i + 1 :]:
                assert math.dist(p, q) > 9.0


def test_is_legal_checks_any_marker_point_by_the_rule() -> None:
    """seed 003 "Mission" 3: off-grid points are judged by the rule, exactly 9" is not over 9"."""
    state = gff.new_game(line(), line(), seed=0)
    assert gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(20.25, 20.75)))
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(20.0, 11.0)))  # zone A
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(20.0, 40.0)))  # zone B
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(60.0, 20.0)))  # off table
    gff.apply(state, Action(Kind.PLACE_OBJECTIVE, to=(20.0, 20.0)))
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(29.0, 20.0)))  # exactly 9"
    assert gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(29.5, 20.0)))
    with pytest.raises(UserError, match="over 9"):
        gff.apply(state, Action(Kind.PLACE_OBJECTIVE, to=(25.0, 20.0)))
    assert all(gff.objective_problem(state, p) is None for p in gff.objective_candidates(state))


def test_deployment_roll_off_and_alternation() -> None:
    """seed 003 "Deployment" 1-4: roll-off; alternate one unit each, the winner first; when one
    side has no units left the other places the rest."""
    seen_first = set()
    for seed in range(8):
        state = play_setup(gff.new_game(army(FIVE_TEXT), line(), seed=seed))
        (deployment,) = _events(state, "deployment")
        first = deployment["first"]
        seen_first.add(first)
        sides = [e["side"] for e in _events(state, "deploy")]
        assert sides[:6] == [(first + i) % 2 for i in range(6)]  # three units each, alternating
        assert sides[6:] == [0, 0]  # then army A's last two
        (round1,) = [e for e in _events(state, "round") if e["round"] == 1]
        assert round1["first"] == first  # "Playing the Game": the roll-off winner starts
    assert seen_first == {0, 1}


def _wholly_inside(us: UnitState, box: edges.Box) -> bool:
    assert us.placement is not None
    (x, y), r = us.placement.centres.T, us.placement.radii
    x0, y0, x1, y1 = box
    eps = 1e-9
    return bool(
        (x - r >= x0 - eps).all()
        and (x + r <= x1 + eps).all()
        and (y - r >= y0 - eps).all()
        and (y + r <= y1 + eps).all()
    )


def test_units_deploy_wholly_within_twelve_inches_of_their_edge() -> None:
    """seed 003 "Deployment" 3: within 12" of their table edge, whichever edge was picked."""
    for seed, choice in ((4, "south"), (4, "west"), (5, "east")):
        state = gff.new_game(line(), army(FIVE_TEXT), seed=seed)
        while state.phase == "objectives":
            gff.apply(state, gff.legal_actions(state)[0])
        gff.apply(state, Action(Kind.CHOOSE_ZONE, choice=choice))
        play_setup(state)
        for us in state.units.values():
            box = gff.deployment_zone(state, us.side)
            assert _wholly_inside(us, box)
            assert max(box[2] - box[0], box[3] - box[1]) == 48.0
            assert min(box[2] - box[0], box[3] - box[1]) == 12.0
    for a in state.units.values():
        for b in state.units.values():
            if a.uid < b.uid:
                assert a.placement is not None and b.placement is not None
                assert geo.gap(a.placement, b.placement) >= 1.0 - 1e-9  # "Movement": 1" apart


def test_deploy_outside_the_zone_is_illegal() -> None:
    """seed 003 "Deployment" 3: a point outside the 12" zone is refused, named in the error."""
    state = gff.new_game(line(), line(), seed=0)
    while state.phase == "objectives":
        gff.apply(state, gff.legal_actions(state)[0])
    gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="north"))
    uid = gff.legal_actions(state)[0].unit
    home = 0.0 if gff.edge_of(state, state.units[uid].side) == "south" else 48.0
    inside = (24.0, abs(home - 6.0))
    outside = (24.0, abs(home - 20.0))
    assert gff.is_legal(state, Action(Kind.DEPLOY, uid, to=inside))
    assert not gff.is_legal(state, Action(Kind.DEPLOY, uid, to=outside))
    with pytest.raises(UserError, match="deployment zone"):
        gff.apply(state, Action(Kind.DEPLOY, uid, to=outside))


def test_scout_deploys_after_all_others_within_twelve_inches_of_its_zone() -> None:
    """seed 003 Scout: after all other units are deployed, anywhere fully within 12" of the
    deployment zone; alternate, starting with the player that activates next."""
    for seed in range(4):
        state = gff.new_game(specials(), specials(), seed=seed)
        while state.phase == "objectives":
            gff.apply(state, gff.legal_actions(state)[0])
        # Take the deepest point offered: a Scout goes as far forward as it may.
        while state.phase in ("zone", "deploy", "scout"):
            actions = gff.legal_actions(state)
            edge = gff.edge_of(state, state.active)
            far = max(actions, key=lambda a: edges.edge_distance(state.table, edge, a.to or (0, 0)))
            gff.apply(state, far if state.phase == "scout" else actions[0])
        deploys = _events(state, "deploy")
        scouts = [e for e in deploys if state.units[str(e["unit"])].unit.has("Scout")]
        others = [e for e in deploys if e not in scouts]
        assert len(scouts) == 2
        assert deploys.index(scouts[0]) > max(deploys.index(e) for e in others)
        assert all(e["phase"] == "scout" for e in scouts)
        (deployment,) = _events(state, "deployment")
        assert scouts[0]["side"] == deployment["first"]  # the player that activates next
        for e in scouts:
            us = state.units[str(e["unit"])]
            assert us.placement is not None
            x0, y0, x1, y1 = box = gff.deployment_zone(state, us.side, scout=True)
            assert _wholly_inside(us, box)
            assert min(x1 - x0, y1 - y0) == pytest.approx(24.0)
            # The deepest offered point lies beyond the ordinary 12" zone.
            centre = geo.centroid(us.placement)
            assert edges.edge_distance(state.table, gff.edge_of(state, us.side), centre) > 12.0


def test_scout_ground_is_refused_to_other_units() -> None:
    """seed 003 Scout: only Scout units may stand 12"-24" from their edge at deployment."""
    state = gff.new_game(specials(), specials(), seed=1)
    while state.phase in ("objectives", "zone"):
        gff.apply(state, gff.legal_actions(state)[-1])  # the last edge: west
    actions = gff.legal_actions(state)
    uid = actions[0].unit
    assert {gff.edge_of(state, 0), gff.edge_of(state, 1)} == {"west", "east"}
    far = (abs(48.0 * (gff.edge_of(state, state.units[uid].side) == "east") - 20.0), 24.0)
    assert not gff.is_legal(state, Action(Kind.DEPLOY, uid, to=far))
    assert all(not state.units[a.unit].unit.has("Scout") for a in actions)  # not yet


def _to_round_two_ambush(seed: int) -> GameState:
    state = play_setup(gff.new_game(specials(), specials(), seed=seed))
    assert state.units["A2"].placement is None  # Hidden Blades: set aside
    assert state.units["B2"].placement is None
    while state.round < 2 and not state.done:
        gff.apply(state, first_action(state, gff.legal_actions(state)))
    return state


def test_ambush_units_arrive_at_the_start_of_round_two_over_nine_inches_from_enemies() -> None:
    """seed 003 Ambush: set aside; at the start of a round after the first, deployed anywhere
    over 9" away from enemy units; the player that activates next places first."""
    firsts = set()
    for seed in range(4):
        state = _to_round_two_ambush(seed)
        assert state.phase == "ambush"
        assert not [e for e in state.log.of_kind("activate") if e["unit"] in ("A2", "B2")]
        (round2,) = [e for e in state.log.of_kind("round") if e["round"] == 2]
        firsts.add(round2["first"])
        order = []
        while state.phase == "ambush":
            actions = gff.legal_actions(state)
            assert {a.kind for a in actions} == {Kind.DEPLOY}
            side = state.active
            enemies = [e.placement for e in state.enemies(side) if e.placement is not None]
            a = actions[len(actions) // 2]
            gff.apply(state, a)
            arrived = state.units[a.unit]
            order.append(side)
            assert arrived.placement is not None and arrived.arrived == 2
            assert all(geo.gap(arrived.placement, p) > 9.0 for p in enemies)
        assert order == [round2["first"], 1 - round2["first"]]
        assert state.phase == "activation"
    assert firsts == {0, 1}


def test_ambush_too_close_to_an_enemy_is_illegal() -> None:
    """seed 003 Ambush: "over 9" away from enemy units": 9" or closer is refused."""
    state = _to_round_two_ambush(0)
    uid = "AB"[state.active] + "2"
    enemy = next(e for e in state.enemies(state.active) if e.placement is not None)
    assert enemy.placement is not None
    x, y = geo.centroid(enemy.placement)
    near = (x, y - 8.0 if y > 24 else y + 8.0)
    assert not gff.is_legal(state, Action(Kind.DEPLOY, uid, to=near))
    with pytest.raises(UserError, match="over 9"):
        gff.apply(state, Action(Kind.DEPLOY, uid, to=near))


def test_army_without_units_is_refused() -> None:
    """seed 003 "The Armies": each player needs an army; an empty list cannot play."""
    empty = army("++ Nobody Home [GFF 150pts] ++\n")
    with pytest.raises(UserError, match="no units"):
        gff.new_game(empty, line(), seed=0)


def test_army_of_another_game_system_is_refused() -> None:
    """The gff rules play GFF (or GF) lists; an Age of Fantasy list is another game."""
    aof = army("++ Old Host [AOF 150pts] ++\n\nSpearmen [5] Q4+ D4+ | 50pts\n5x Spear (A1)\n")
    with pytest.raises(UserError, match="another game system"):
        gff.new_game(line(), aof, seed=0)


def test_legal_actions_are_sorted_and_all_legal_during_setup() -> None:
    """Canonical order (DESIGN: legal actions in a fixed order) and is_legal agree."""
    state = gff.new_game(specials(), line(), seed=2)
    while state.phase in ("objectives", *gff.DEPLOY_PHASES):
        actions = gff.legal_actions(state)
        assert actions == sorted(actions, key=Action.sort_key)
        assert all(gff.is_legal(state, a) for a in actions[:: max(1, len(actions) // 7)])
        gff.apply(state, actions[-1])
