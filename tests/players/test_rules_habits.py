"""Scene tests for the rules commander's habits (issue 14 item 1): each fails on ``rules-v1``
(the commander before the fixes, players/rules/style.py V1) and passes on ``rules``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.game import gff, wwpd
from oprlab.game import riverside as rv
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Objective
from oprlab.game.wwpd import Kind as WwpdKind
from oprlab.players.riverside_choices import zone_choice
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import RULES, V1, Style
from oprlab.players.wwpd_commanders import V1 as WWPD_V1
from oprlab.players.wwpd_commanders import RulesWwpdCommander
from oprlab.rules.wwpd.targets import Phase
from oprlab.table.model import Table, TerrainPiece, TerrainType
from tests.game import army, line
from tests.game.test_gff_rounds import scene
from tests.game.test_riverside_game import put as rv_put
from tests.game.test_riverside_game import scene as rv_scene
from tests.game.test_wwpd_game import RIFLES, hold_movement
from tests.game.test_wwpd_game import scene as wwpd_scene

#: A bog 4" deep across the middle of side A's half (dangerous).
BOG = TerrainPiece(
    "Bog", ((14, 10), (34, 10), (34, 14), (14, 14)), frozenset({TerrainType.DANGEROUS})
)
#: A thicket 5" deep across the table (difficult).
THICKET = TerrainPiece(
    "Thicket", ((4, 13), (44, 13), (44, 18), (4, 18)), frozenset({TerrainType.DIFFICULT})
)
BRUTES_TEXT = """++ Brutes [GFF 150pts] ++

Brutes [3] Q4+ D4+ | 60pts
3x Great Club (A3)
"""


def _rules(style: Style = RULES) -> RulesCommander:
    return RulesCommander(0, style)


def test_a_move_across_dangerous_terrain_costs_the_wounds_it_is_expected_to_take() -> None:
    """seed 003 "Dangerous Terrain": each model moving across it rolls one die and a 1 is a
    wound: a Rush of three Rifle models (40 pts, 40/3 a model) through the bog costs
    3 x 1/6 x 40/3 = 20/3 points; rules-v1 saw nothing there (rules with only that habit
    off scores the Rush 20/3 higher; rules-v1 also classes the squad otherwise)."""
    state = scene(line(), line(), {"A2": (24.0, 6.0), "B2": (5.0, 44.0)}, objectives=((24, 20),))
    state.table = Table(pieces=(BOG,))
    rush = next(a for a in gff.legal_actions(state) if a.kind is Kind.RUSH and a.to == (24, 20))
    blind = _rules(replace(RULES, dangerous_terrain=False)).score(state, rush)
    assert blind - _rules().score(state, rush) == pytest.approx(20 / 3)
    assert _rules(V1).score(state, rush) > _rules().score(state, rush)
    clear = Table(pieces=())
    state.table = clear
    assert _rules(replace(RULES, dangerous_terrain=False)).score(state, rush) == pytest.approx(
        _rules().score(state, rush)
    )


def test_a_charge_that_cannot_arrive_is_not_taken() -> None:
    """seed 003 "Melee" and "Difficult Terrain": a charge is listed within 12", but through
    5" of difficult terrain the Brutes cannot reach contact (the move is capped at 6") and the
    charge fails. rules-v1 charges anyway (the fight it scores never happens); rules does not,
    so the same Brutes do not fall short twice."""
    state = scene(army(BRUTES_TEXT), line(), {"A1": (24.0, 9.0), "B2": (24.0, 21.0)})
    state.table = Table(pieces=(THICKET,))
    actions = gff.legal_actions(state)
    charge = Action(Kind.CHARGE, "A1", target="B2")
    assert charge in actions
    assert _rules(V1).choose(state, actions) == charge
    gff.apply(state, charge)
    assert state.log.of_kind("charge_failed")
    state = scene(army(BRUTES_TEXT), line(), {"A1": (24.0, 9.0), "B2": (24.0, 21.0)})
    state.table = Table(pieces=(THICKET,))
    assert _rules().choose(state, gff.legal_actions(state)).kind is not Kind.CHARGE


def _behind() -> GameState:
    """Riverside: B holds the only marker, far off; A's Rifle Squad has B's in range."""
    state = rv_scene(line(), line())
    state.objectives = [Objective((40.0, 40.0), controller=1)]
    rv_put(state, "A2", (10.0, 10.0))
    rv_put(state, "B2", (10.0, 28.0), ready=False)
    return state


def test_riverside_idle_carries_the_same_outlook_as_every_other_action() -> None:
    """seed 002 "Activation Actions": every unit may Idle (it removes Shaken). Behind on
    markers every real action carries the negative outlook of the markers held at the round's
    end; rules-v1 scored Idle a flat -1, so a healthy unit with a target in range idled."""
    state = _behind()
    actions = rv.legal_actions(state)
    assert _rules(V1).choose(state, actions) == Action(Kind.IDLE, "A2")
    picked = _rules().choose(state, actions)
    assert picked.kind is not Kind.IDLE


def test_units_are_classed_by_their_output() -> None:
    """Three Rifles (24", A1) and three Knives (A1) get as many hits through a 4+ save each
    way: the squad shoots (it can every round, from afar). rules-v1 counted ranged dice twice
    against melee dice times three and called it hybrid (six of seven shooting units)."""
    rifles = line().units[1]
    assert _rules(V1).role(rifles) is Role.HYBRID
    assert _rules().role(rifles) is Role.SHOOTING
    brutes = army(BRUTES_TEXT).units[0]
    assert _rules().role(brutes) is Role.MELEE


def test_riverside_roll_off_winner_follows() -> None:
    """seed 002 "Choosing Deployment Zone and Activation Order": the winner taking the order
    may lead or follow; under the rules commander the first mover scores 0.33 (issue 14), so
    rules follows where rules-v1 led."""
    state = rv_scene(line(), line())
    picks = [Action(Kind.CHOOSE_ZONE, choice=c) for c in ("follow", "lead")]
    assert zone_choice(state, picks, lead=V1.lead).choice == "lead"
    assert zone_choice(state, picks, lead=RULES.lead).choice == "follow"


GUARDS_TEXT = """++ Guards [GFF 100pts] ++

Guards [3] Q4+ D4+ | 45pts
3x Pistol (12", A1), 3x Axe (A1, AP(1))
"""


def test_a_hybrid_unit_counts_an_enemy_fighters_charge_reach_as_danger() -> None:
    """Standing within a rested enemy fighter's charge reach (12" + 1") costs half the points
    its charge is expected to remove, for every unit that is not a fighter itself; rules-v1
    counted it for shooting units only, so hybrids and casters walked into charge reach."""
    state = scene(army(GUARDS_TEXT), army(BRUTES_TEXT), {"A1": (24.0, 10.0), "B1": (24.0, 30.0)})
    guards = state.units["A1"]
    fixed = _rules()
    assert fixed.role(guards.unit) is Role.HYBRID
    near, far = (24.0, 22.0), (24.0, 8.0)
    loose = _rules(replace(RULES, weak_out_of_reach=False))
    hit = fixed._melee_damage(fixed._read(state), state.units["B1"], guards, charging=True)
    assert hit > 0
    gap = loose._position_value(state, guards, near) - fixed._position_value(state, guards, near)
    assert gap == pytest.approx(0.5 * hit)
    assert loose._position_value(state, guards, far) == fixed._position_value(state, guards, far)


def _wood(x0: float, y0: float, x1: float, y1: float) -> TerrainPiece:
    return TerrainPiece(
        "Wood", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), frozenset({TerrainType.COVER})
    )


def test_a_shooter_prefers_to_end_its_move_in_cover_within_reach_of_enemy_shooters() -> None:
    """seed 003 "Cover Terrain": a unit with most models fully inside cover gets +1 to its
    Defense rolls against shooting. Two Advances mirror each other about the Rifle Squad (the
    same distance to the enemy Rifle Squad, 24" and an Advance away); one ends in a wood.
    rules scores the open end lower by half what cover saves against that enemy's shot (by
    the system's own odds); rules-v1 (and rules with the habit off) scores both the same."""
    state = scene(line(), line(), {"A2": (30.0, 10.0), "B2": (30.0, 34.0)})
    state.table = Table(pieces=(_wood(19, 9, 29, 19),))
    into = Action(Kind.ADVANCE, "A2", to=(25.0, 14.0))
    open_ = Action(Kind.ADVANCE, "A2", to=(35.0, 14.0))
    fixed = _rules()
    assert fixed.score(state, into) > fixed.score(state, open_)
    for blind in (_rules(V1), _rules(replace(RULES, cover=False))):
        assert blind.score(state, into) == pytest.approx(blind.score(state, open_))
    hold = fixed.habits(state).damage
    us, them = state.units["A2"], state.units["B2"]
    saved = hold(them, us, melee=False, distance=0.0, charging=False) - hold(
        them, us, melee=False, distance=0.0, charging=False, cover=True
    )
    assert saved > 0  # cover gives +1 to the Defense roll
    gap = fixed.score(state, into) - fixed.score(state, open_)
    assert gap == pytest.approx(0.5 * saved)


def test_a_shooter_picks_the_target_out_of_cover() -> None:
    """seed 003 "Cover Terrain" and "Shooting": two like Rifle Squads at like distances, the
    first listed standing in a wood (cover: +1 to its Defense rolls, the game's own check).
    rules shoots the one in the open; rules-v1 scored both as in the open and took the first."""
    where = {"A2": (24.0, 10.0), "B2": (12.0, 30.0), "B3": (36.0, 30.0)}
    state = scene(line(), line(), where)
    state.table = Table(pieces=(_wood(6, 25, 18, 35),))
    gff.apply(state, Action(Kind.HOLD, "A2"))
    shots = gff.legal_actions(state)
    assert {a.target for a in shots} == {"", "B2", "B3"}
    assert _rules(V1).choose(state, shots).target == "B2"
    assert _rules().choose(state, shots).target == "B3"


def test_riverside_scores_a_shot_at_a_target_in_cover_with_its_own_odds() -> None:
    """seed 002 "Cover Terrain": a target with most models in cover gets +1 to Defense against
    ranged attacks; the Riverside commander counts it by Riverside's own check and odds."""
    state = rv_scene(line(), line())
    rv_put(state, "A2", (24.0, 10.0))
    rv_put(state, "B2", (24.0, 30.0), ready=False)
    state.table = Table(pieces=(_wood(18, 25, 30, 35),))
    fixed = _rules()
    us, them = state.units["A2"], state.units["B2"]
    assert fixed.habits(state).target_cover(state, us, them)
    shot = Action(Kind.SHOOT, "A2", target="B2")
    covered = fixed._shoot_value(state, shot)
    assert covered < _rules(V1)._shoot_value(state, shot)
    assert covered == pytest.approx(
        fixed.habits(state).damage(
            us, them, melee=False, distance=20.0, charging=False, cover=True,
        )
    )  # fmt: skip


def _edge_pick(text: str | None, pieces: tuple[TerrainPiece, ...], style: Style) -> str:
    """The edge a commander of side A (``text``'s army, else the test line) picks, with one
    marker at the table's centre (every edge as near it)."""
    mine = army(text) if text else line()
    state = scene(mine, line(), {}, objectives=((24, 24),))
    state.table = Table(pieces=pieces)
    picks = [Action(Kind.CHOOSE_ZONE, choice=e) for e in ("south", "north", "west", "east")]
    return _rules(style).choose(state, picks).choice


#: A wood (cover, blocks sight) across the north half's way from its zone to the centre line.
NORTH_WOOD = TerrainPiece(
    "Wood",
    ((8, 25), (40, 25), (40, 35), (8, 35)),
    frozenset({TerrainType.COVER, TerrainType.BLOCKING}),
)
#: Ruins (cover) in the west deployment zone.
WEST_RUINS = _wood(0, 8, 11, 40)


def test_gff_edge_is_chosen_for_the_army_s_kind() -> None:
    """seed 003 "Deployment" 1: the roll-off winner picks a table edge. With the markers no
    nearer one edge than another, a melee army (the Brutes) takes the edge whose way to the
    centre runs through the wood (it comes hidden), a shooting army (the test line, most of its
    points in Rifle Squads) the edge whose zone has cover to shoot from; rules-v1 saw only the
    markers and took the first edge, south, both times."""
    assert _edge_pick(BRUTES_TEXT, (NORTH_WOOD,), V1) == "south"
    assert _edge_pick(BRUTES_TEXT, (NORTH_WOOD,), RULES) == "north"
    assert _edge_pick(None, (WEST_RUINS,), V1) == "south"
    assert _edge_pick(None, (WEST_RUINS,), RULES) == "west"
    assert _edge_pick(None, (), RULES) == "south"  # no terrain: the markers alone, as before


def test_markers_are_placed_for_every_edge_the_roll_off_winner_may_pick() -> None:
    """seed 003 "Mission" 3 and "Deployment" 1: markers are placed before the deployment
    roll-off, whose winner picks any edge. With one marker nearer the south edge, rules places
    the next one nearer the north (one marker nearer each edge of both pairs: the winner gains
    nothing by its pick); rules-v1 placed it near its own side's edge as if it were always
    south, handing the winner the south edge with both markers."""
    state = scene(line(), line(), {}, objectives=((24, 18),))
    places = [
        Action(Kind.PLACE_OBJECTIVE, to=p) for p in ((24.0, 15.0), (24.0, 30.0), (15.0, 24.0))
    ]
    assert _rules(V1).choose(state, places).to == (24.0, 15.0)
    assert _rules().choose(state, places).to == (24.0, 30.0)


WALKER = """
name: Walkers
units:
  - name: Walker
    models:
      - {name: Walker, count: 1, ranged_skill: 2, melee_skill: 1, leadership: 4, toughness: 2,
         armor: 3, vehicle: true}
    weapons:
      - {name: Autocannon, range: 36, rate_of_fire: 3, massive: 2, ap: 2}
"""


def _wwpd_walker(round_: int = 1) -> tuple[wwpd.WwpdState, str]:
    """A walker in its corner, a Rifle Pair 30" off (in its reach), the marker far away."""
    state = wwpd_scene(WALKER, RIFLES, {"A1": (4.0, 4.0), "B1": (4.0, 34.0)})
    if state.player != 0:  # the walker's side to move
        hold_movement(state)
        while state.player != 0 or state.phase != Phase.MOVEMENT.value:
            actions = wwpd.legal_actions(state)
            wwpd.apply(state, actions[0])
    state.round = round_
    return state, "A1"


def test_wwpd_walker_leaves_its_corner() -> None:
    """seed 004 "To Hit": only small arms lose 1 to hit for moving. rules-v1 gave standing
    still a flat 1.5 whenever an enemy was in reach, so a walker (always in reach of someone
    with its 36" gun) never left its corner; rules counts the fire standing keeps (none for
    its heavy gun, by the exact odds) and walks toward the marker."""
    state, walker = _wwpd_walker()
    actions = [a for a in wwpd.legal_actions(state) if a.unit == walker]
    assert RulesWwpdCommander(0, WWPD_V1).choose(state, actions).kind is WwpdKind.HOLD
    picked = RulesWwpdCommander(0).choose(state, actions)
    assert picked.kind is WwpdKind.MOVE and picked.to == state.markers[0].position


def test_wwpd_last_round_markers_weigh_more() -> None:
    """seed 004: markers held after the last round decide the game; in the last round a
    marker is worth three times as much (rules), so a unit reaching one pushes onto it."""
    state, walker = _wwpd_walker(round_=4)
    us = state.units[walker]
    near = (state.markers[0].position[0] - 4.0, state.markers[0].position[1])
    late = RulesWwpdCommander(0)._marker_value(state, us, near)
    state.round = 3
    assert late == pytest.approx(3 * RulesWwpdCommander(0)._marker_value(state, us, near))
    assert RulesWwpdCommander(0, WWPD_V1)._marker_value(state, us, near) == pytest.approx(late / 3)
