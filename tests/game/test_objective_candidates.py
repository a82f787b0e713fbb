"""The marker grid both OPR procedures offer (``oprlab.game.objectives.candidates``).

Seed 003_8abb008d4113ed75 "Mission" 3 and seed 002_fdb385c07cc953af "Placing Objectives":
markers go between the deployment zones, by each system's placing rules (the hook here).
The armies are invented.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from oprlab.game import activation, gff, objectives, riverside
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState, Objective
from oprlab.table.deploy import place_objectives
from oprlab.table.model import Point, Table
from tests.game import line
from tests.game.test_gff_rounds import scene


def test_grid_between_the_zones_filtered_by_the_rules() -> None:
    state = gff.new_game(line(), line(), seed=0)
    t = state.table
    every = objectives.candidates(state, lambda s, p: None)
    assert every and all(t.deployment_depth < y < t.depth - t.deployment_depth for _, y in every)
    assert all(0 < x < t.width for x, _ in every)
    xs = sorted({x for x, _ in every})
    assert all(abs(b - a - 3.0) < 1e-9 for a, b in itertools.pairwise(xs))

    def left_half(s: GameState, p: Point) -> str | None:
        return None if p[0] < t.width / 2 else "right half"

    assert objectives.candidates(state, left_half) == [p for p in every if p[0] < t.width / 2]


def test_goals_are_markers_then_enemies() -> None:
    """Canonical destinations before each system's way home: markers, then enemy units."""
    state = scene(
        line(), line(), {"A1": (10.0, 10.0), "B1": (30.0, 40.0)}, objectives=((5.0, 5.0),)
    )
    goals = activation.marker_and_enemy_goals(state, state.units["A1"])
    assert goals[0] == (5.0, 5.0) and len(goals) == 2
    assert abs(goals[1][0] - 30.0) < 1e-9 and abs(goals[1][1] - 40.0) < 1e-9


#: Four markers 12" apart around the table's centre: every point of GFF's central 24" square
#: (markers go outside every edge's 12" band before the edge is picked) is within 9" of one.
BLOCKING = ((18.0, 18.0), (30.0, 30.0), (18.0, 30.0), (30.0, 18.0))


def _stuck(system: str = "gff", stuck_markers: str = "farthest") -> GameState:
    """A game placing its fifth marker with no point over 9" from the four placed."""
    if system == "gff":
        options = GffOptions(stuck_markers=stuck_markers)
        state = gff.new_game(line(), line(), seed=0, options=options)
    else:
        opts = riverside.RiversideOptions(stuck_markers=stuck_markers)
        state = riverside.new_game(line(), line(), seed=0, options=opts)
    state.objectives = [Objective(p) for p in BLOCKING]
    state.objectives_left = 1
    return state


def _point(a: Action) -> Point:
    """Where a listed objective goes (every such action has one)."""
    assert a.to is not None
    return a.to


def _by_hand(points: list[Point]) -> list[Point]:
    """The points farthest from their nearest marker, worked out by brute force."""
    far = {p: min(math.dist(p, m) for m in BLOCKING) for p in points}
    best = max(far.values())
    return [p for p in points if far[p] == best]


def test_a_stuck_marker_goes_at_the_farthest_point() -> None:
    """seed 003 "Mission" 3 (issue 10, defect 4): with no point over 9" from the markers, the
    legal actions are the grid points of the central square farthest from them (not none),
    and ``is_legal`` takes any point at least as far; a nearer one is refused."""
    state = _stuck()
    listed = [_point(a) for a in gff.legal_actions(state)]
    square = [
        (float(x), float(y))
        for x in range(15, 34, 3)
        for y in (13.5, 16.5, 19.5, 22.5, 25.5, 28.5, 31.5, 34.5)
    ]
    assert listed and sorted(listed) == sorted(_by_hand(square))
    assert all(min(math.dist(p, m) for m in BLOCKING) <= 9.0 for p in listed)
    assert not gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(19.0, 19.0)))
    assert gff.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(24.0, 24.0)))  # 8.49" from all
    gff.apply(state, Action(Kind.PLACE_OBJECTIVE, to=listed[0]))
    assert len(state.objectives) == 5 and state.phase == "zone"


def test_stop_placing_is_a_reading_option() -> None:
    """``stuck_markers="stop"``: after the four blocking markers the fifth has no point over
    9" away, so placing stops (logged) and the deployment roll-off comes next."""
    state = gff.new_game(line(), line(), seed=0, options=GffOptions(stuck_markers="stop"))
    state.objectives_left = 5
    for point in BLOCKING:
        assert state.phase == "objectives"
        gff.apply(state, Action(Kind.PLACE_OBJECTIVE, to=point))
    assert len(state.objectives) == 4 and state.phase == "zone"
    assert state.log.of_kind("objectives_stopped") == [
        {"kind": "objectives_stopped", "placed": 4, "left": 1}
    ]


def test_riverside_reads_a_stuck_marker_the_same_way() -> None:
    """seed 002 "Placing Objectives": "over 9" away from other markers" has the same gap;
    Riverside's band between the zones is 48" wide, so the farthest point is well away."""
    state = _stuck("riverside")
    listed = [_point(a) for a in riverside.legal_actions(state)]
    assert listed and all(min(math.dist(p, m) for m in BLOCKING) > 9.0 for p in listed)
    assert riverside.options_of(state).stuck_markers == "farthest"


def test_wwpd_markers_never_fail_to_place() -> None:
    """WWPD borrows GFF's mission: a marker with no random spot over 9" away goes at the
    farthest point of the legal area instead of failing the game."""
    narrow = Table(width=20.0, depth=30.0, deployment_depth=12.0)
    rng = np.random.default_rng(0)
    points = place_objectives(narrow, rng, 5)
    assert len(points) == 5


def test_riverside_keeps_a_points_terrain_answer_by_table() -> None:
    """seed 002 "Placing Objectives" ("not in impassable terrain"): whether a grid point keeps
    clear of impassable terrain is kept by table and point (the phase asks every point for each
    marker), and is the table's own answer on tables with terrain and after another table."""
    from oprlab.game.riverside import _CLEAR
    from oprlab.table.deploy import objective_ok
    from oprlab.table.terrain import generate_table

    refused = 0
    for seed in range(4):
        state = riverside.new_game(line(), line(), seed=seed, table=generate_table(seed))
        t = state.table
        grid = objectives._grid(state, lambda s, p: None)
        placing = [riverside._marker_placing(state, p) for p in grid]
        assert [p is None for p in placing] == [objective_ok(t, p) for p in grid]
        assert _CLEAR[id(t)][0] is t
        assert all(_CLEAR[id(t)][1][p] == objective_ok(t, p) for p in grid)
        refused += sum(p is not None for p in placing)
    assert refused  # some tables put impassable terrain on the grid


def test_the_remembered_grid_is_the_plain_one() -> None:
    """``objectives._grid`` remembers the placing rules' answers for the game: the same points
    as asking them afresh, in GFF and Riverside, through a whole placing phase; another hook
    or other readings are asked again."""
    games = [
        gff.new_game(line(), line(), seed=3),
        gff.new_game(line(), line(), seed=3, options=GffOptions(edges="north-south")),
        riverside.new_game(line(), line(), seed=3),
    ]
    for state in games:
        rules = state.rules
        assert isinstance(rules, (gff.GffRules, riverside.RiversideRules))
        while state.objectives_left:
            listed = rules.objective_candidates(state)
            state.memo.marker_grid = None
            assert rules.objective_candidates(state) == listed
            rules.apply(state, Action(Kind.PLACE_OBJECTIVE, to=listed[0]))
        hook = rules.marker_problem
        plain = [p for p in objectives._grid(state, lambda s, p: None) if hook(state, p) is None]
        assert list(objectives._grid(state, hook)) == plain
    ns, every = games[1], games[0]
    hook = gff.GffRules().marker_problem
    kept = objectives._grid(every, hook)
    ns.table = every.table  # the same hook and table, other readings: asked again
    ns.memo.marker_grid = every.memo.marker_grid
    assert objectives._grid(ns, hook) != kept
