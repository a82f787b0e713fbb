"""The deploy grid is checked for all points at once (issue 13) and must keep exactly the
points the one-point check keeps (seed 003 "Deployment" 3: wholly within 12" of its edge, Scout
within 12" of its zone, Ambush over 9" from enemy units; "Movement": 1" from other units),
on open tables and tables with terrain, with units already standing close by."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from oprlab.game import deploy_search, gff, gff_deploy
from oprlab.game import geometry as geo
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.samples import sample_path
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from tests.game import probe_points, specials

DEPLOYING = (Phase.DEPLOY, Phase.SCOUT, Phase.AMBUSH)


def _one_by_one(
    state: GameState, us: UnitState, points: list[tuple[float, float]]
) -> list[tuple[float, float]]:
    obstacles = gff_deploy._obstacles(state, us)
    return [p for p in points if gff_deploy._deploy_problem(state, us, p, obstacles) is None]


def _grid_and_probes(
    state: GameState, us: UnitState, rng: np.random.Generator
) -> list[tuple[float, float]]:
    """The unit's deployment grid (Ambush's in the Ambush phase) and 40 points anywhere, many
    of them close to the units already placed."""
    grid = (
        gff_deploy._ambush_grid(state)
        if state.phase == Phase.AMBUSH
        else gff_deploy._deploy_grid(state, us)
    )
    return grid + probe_points([o.placement for o in state.units.values()], rng, 40)


@pytest.mark.parametrize("terrain", [False, True])
@pytest.mark.parametrize("lists", ["specials", "300"])
def test_all_points_at_once_keep_what_one_at_a_time_keeps(terrain: bool, lists: str) -> None:
    if lists == "specials":
        a, b = specials(), specials()
    else:
        a = load_army(sample_path("gff/shooty-300.txt"))
        b = load_army(sample_path("gff/melee-300.txt"))
    rng = np.random.default_rng(7)
    compared = 0
    for seed in range(2):
        table = generate_table(seed) if terrain else None
        state = gff.new_game(a, b, seed=seed, table=table)
        while state.phase not in (Phase.ACTIVATION,) and not state.done:
            actions = gff.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in gff_deploy._to_deploy(state, state.active):
                    points = _grid_and_probes(state, us, rng)
                    got = list(gff_deploy._clear_points(state, us, points))
                    assert got == _one_by_one(state, us, points)
                    compared += 1
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 8


def _at_once(
    state: GameState, us: UnitState, points: list[tuple[float, float]], asked: list[int]
) -> list[tuple[float, float]]:
    """``_clear_points``, counting in ``asked`` the points it leaves to the one-point check."""
    one_point = gff_deploy._deploy_problem

    def counted(*args: Any) -> str | None:
        asked.append(1)
        return one_point(*args)

    gff_deploy._deploy_problem = counted  # type: ignore[assignment]
    try:
        return list(gff_deploy._clear_points(state, us, points))
    finally:
        gff_deploy._deploy_problem = one_point


def _compare_open_deployment(rng: np.random.Generator, asked: list[int]) -> tuple[int, int, int]:
    """Every deployment decision (Scouts and Ambush too) of two open-table games played to the
    end, grid and probe points: how many checks were compared, how many of them in Ambush, and
    how many found a point kept by only one of the two ways."""
    compared = differ = ambush = 0
    for a, b in (
        (load_army(sample_path("gff/shooty-300.txt")), load_army(sample_path("gff/melee-300.txt"))),
        (specials(), specials()),  # Scouts and Ambushers
    ):
        state = gff.new_game(a, b, seed=compared)
        while not state.done:  # to the end: Ambush units arrive in later rounds
            actions = gff.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in gff_deploy._to_deploy(state, state.active):
                    points = _grid_and_probes(state, us, rng)
                    got = _at_once(state, us, points, asked)
                    differ += got != _one_by_one(state, us, points)
                    compared += 1
                    ambush += state.phase == Phase.AMBUSH
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    return compared, differ, ambush


def test_open_table_gaps_are_measured_at_once() -> None:
    """On an open table no point is left to the one-point check: the gaps to the units near a
    point (1" from any, over 9" from enemies in Ambush) are measured for all points in one
    pass, with the same answers."""
    asked: list[int] = []
    compared, differ, ambush = _compare_open_deployment(np.random.default_rng(3), asked)
    assert compared >= 8 and ambush >= 1 and differ == 0 and not asked


def test_open_table_gaps_fail_when_loosened(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees a gap measured half an inch generous: points within 1" of a unit
    (or 9" of an enemy, in Ambush) would be kept."""
    gaps_at_points = geo.gaps_at_points
    monkeypatch.setattr(geo, "gaps_at_points", lambda *a: gaps_at_points(*a) + 0.5)
    _, differ, _ = _compare_open_deployment(np.random.default_rng(3), [])
    assert differ > 0


def _compare_grids(rng: np.random.Generator) -> tuple[int, int, int]:
    """Every deployment decision (Scouts and Ambush too) of two open-table games played to the
    end: each unit's grid points worked out from the answer with fewer units standing
    (``_grid_points``) against the whole grid checked afresh. How many were compared, how
    many were worked out from an earlier answer, and how many differed."""
    compared = incremental = differ = 0
    real = gff_deploy._clear_points
    among = gff_deploy._among_newcomers

    def counted(*args: Any, **kw: Any) -> Any:
        nonlocal incremental
        incremental += 1
        return among(*args, **kw)

    for a, b in (
        (load_army(sample_path("gff/shooty-300.txt")), load_army(sample_path("gff/melee-300.txt"))),
        (specials(), specials()),  # Scouts and Ambushers
    ):
        state = gff.new_game(a, b, seed=compared)
        while not state.done:
            gff_deploy._among_newcomers = counted
            try:  # the listing asks first: the units of a shape share its answer
                actions = gff.legal_actions(state)
                if state.phase in DEPLOYING:
                    for us in gff_deploy._to_deploy(state, state.active):
                        grid = (
                            gff_deploy._ambush_grid(state)
                            if state.phase == Phase.AMBUSH
                            else gff_deploy._deploy_grid(state, us)
                        )
                        got = list(gff_deploy._grid_points(state, us, grid))
                        differ += got != list(real(state, us, grid))
                        compared += 1
            finally:
                gff_deploy._among_newcomers = among
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    return compared, incremental, differ


def test_grid_points_among_more_units_are_the_fresh_check() -> None:
    """seed 003 "Deployment" 3 and "Movement" (1" from other units; Ambush: over 9" from
    enemies): the grid points kept for a unit after more units were placed, worked out from the
    points that passed before and the newcomers alone, are the points the whole grid keeps when
    checked afresh among every unit, in the same order (both tables of each shape: the
    answer kept for the same placements, and the newcomers' check, which occurs often)."""
    compared, incremental, differ = _compare_grids(np.random.default_rng(5))
    assert compared >= 40 and incremental >= 5 and differ == 0


def test_grid_points_fail_when_the_newcomers_are_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees an answer kept without checking the units placed since."""
    real = gff_deploy._clear_points
    monkeypatch.setattr(gff_deploy, "_among_newcomers", lambda _s, _u, points, *_: points)
    rng = np.random.default_rng(5)
    differ = 0
    for seed in range(2):
        state = gff.new_game(
            load_army(sample_path("gff/shooty-300.txt")),
            load_army(sample_path("gff/melee-300.txt")),
            seed=seed,
        )
        while state.phase != Phase.ACTIVATION and not state.done:
            actions = gff.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in gff_deploy._to_deploy(state, state.active):
                    grid = gff_deploy._deploy_grid(state, us)
                    got = list(gff_deploy._grid_points(state, us, grid))
                    differ += got != list(real(state, us, grid))
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    assert differ > 0


def test_terrain_table_points_clear_of_units_are_settled_at_once() -> None:
    """On a table with terrain a point whose bounds clear every other unit is checked for the
    unit alone (on the table, off impassable and unstable terrain: seed 002 "Terrain
    Movement"; cohesion: seed 003 "MOVEMENT") with all such points at once: before any unit
    stands no point is left to the one-point check, and later only some are; the answers are
    the one-point check's."""
    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    rng = np.random.default_rng(11)
    compared = differ = 0
    asked_alone: list[int] = []
    asked_among: list[int] = []
    points_among = 0
    for seed in range(2):
        state = gff.new_game(a, b, seed=seed, table=generate_table(seed))
        while state.phase != Phase.ACTIVATION and not state.done:
            actions = gff.legal_actions(state)
            if state.phase in DEPLOYING:
                for us in gff_deploy._to_deploy(state, state.active):
                    grid = gff_deploy._deploy_grid(state, us)
                    alone = not gff_deploy._obstacles(state, us)
                    got = _at_once(state, us, grid, asked_alone if alone else asked_among)
                    differ += got != _one_by_one(state, us, grid)
                    compared += 1
                    points_among += 0 if alone else len(grid)
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 8 and differ == 0
    assert not asked_alone and 0 < len(asked_among) < points_among / 2


def test_gaps_to_the_near_units_answer_as_gaps_to_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_gaps_near`` measures an asked point only to the units whose bound comes near one of
    the asked points: the same passes as measuring it to every unit on the table, with fewer
    units measured in most calls."""
    real = gff_deploy._gaps_near
    calls: list[tuple[int, int]] = []

    def both(*args: Any) -> None:
        ask, _, enemy, xs, ys, base, obstacles, ok, settled = args
        plain = geo.gaps_at_points(xs[ask], ys[ask], base, [o[0] for o in obstacles])
        passes = (plain >= geo.SPACING - gff_deploy.EPS).all(axis=1)
        if enemy is not None:
            passes &= (plain[:, enemy] > gff_deploy.AMBUSH_DISTANCE).all(axis=1)
        measured: list[int] = []

        def counted(*a: Any) -> Any:
            measured.append(len(a[3]))
            return gaps(*a)

        monkeypatch.setattr(geo, "gaps_at_points", counted)
        real(*args)
        monkeypatch.setattr(geo, "gaps_at_points", gaps)
        assert measured and (ok[ask] == passes).all() and (settled[ask] == passes).all()
        calls.append((measured[0], len(obstacles)))

    gaps = geo.gaps_at_points
    monkeypatch.setattr(gff_deploy, "_gaps_near", both)
    compared, differ, _ = _compare_open_deployment(np.random.default_rng(5), [])
    assert compared >= 8 and differ == 0 and calls
    assert sum(near < every for near, every in calls) > len(calls) / 2


def test_formation_at_points_answers_as_one_point_at_a_time() -> None:
    """``geometry.formation_at_points``' table and zone answers, each model's tests joined
    before one reduction, are the one-point checks' (``inside_table``, ``_standing``'s zone
    test within 1e-6), on and around the table's and the zone's edges, with a model lost."""
    a = load_army(sample_path("gff/melee-300.txt"))
    state = gff.new_game(a, a, seed=0)
    t = state.table
    zone = (0.0, 0.0, t.width, t.deployment_depth)
    rng = np.random.default_rng(11)
    for unit in a.units:
        base = gff_deploy._formation_at_origin(unit, unit.size, 0.0)
        if unit.size > 2:
            base = base.copy()
            base.removed[1] = True
        xs = [0.0, 1e-7, 0.5, 1.0, 3.0, t.width - 3.0, t.width - 1.0, t.width, 30.0]
        ys = [0.0, 1e-7, 1.0, 2.5, zone[3] - 2.5, zone[3] - 1.0, zone[3], t.depth - 1.0, 9.0]
        points = [(x, y) for x in xs for y in ys]
        points += [(float(x), float(y)) for x, y in rng.uniform(-2, 74, (60, 2))]
        _, _, _, _, fine = geo.formation_at_points(base, points, t, zone)
        for (x, y), ok in zip(points, fine.tolist(), strict=True):
            p = geo.translated(base, x, y)
            cx, cy, r = p.centres[:, 0], p.centres[:, 1], p.radii
            inside = (
                float((cy - r).min()) >= zone[1] - 1e-6
                and float((cy + r).max()) <= zone[3] + 1e-6
                and float((cx - r).min()) >= zone[0] - 1e-6
                and float((cx + r).max()) <= zone[2] + 1e-6
            )
            assert ok == (geo.inside_table(t, p) and inside)


@pytest.mark.parametrize("edge", ["south", "north", "east", "west"])
@pytest.mark.parametrize("scout", [False, True])
@pytest.mark.parametrize("size", [(72.0, 48.0), (48.0, 48.0), (44.0, 30.0)])
def test_the_zone_grid_memo_gives_the_grid_worked_out_afresh(
    edge: str, scout: bool, size: tuple[float, float]
) -> None:
    """``_zone_grid`` is keyed on the zone, the table's size and the edge's direction (all the
    grid reads): every zone, table and edge gives the points worked out with no memo, and a
    caller's list is its own (changing it leaves the next answer as it was)."""
    from oprlab.game import gff_setup as edges
    from oprlab.table.model import Table

    table = Table(width=size[0], depth=size[1])
    zone = edges.zone_box(table, edge, table.deployment_depth + (12.0 if scout else 0.0))
    x0, y0, x1, y1 = zone
    if edges.along_y(edge):
        plain = [
            (float(x), float(y))
            for y in np.linspace(y0 + 2.5, y1 - 2.5, 3)
            for x in np.arange(4.0, table.width - 3.9, 4.0)
        ]
    else:
        plain = [
            (float(x), float(y))
            for x in np.linspace(x0 + 2.5, x1 - 2.5, 3)
            for y in np.arange(4.0, table.depth - 3.9, 4.0)
        ]
    for _ in range(2):  # afresh, then from the memo
        got = list(gff_deploy._zone_grid(zone, table.width, table.depth, edges.along_y(edge)))
        assert got == plain
        got.append((0.0, 0.0))


def _plain_crowded(state: GameState, us: UnitState) -> bool:
    """Whether the side's units still to place crowd ``us``'s zone, worked out afresh."""
    zone = gff_deploy.deployment_zone(state, us.side, scout=us.reserve == "scout")
    heading = gff_deploy.facing(us.side, gff_deploy.edge_of(state, us.side))
    need = sum(
        gff_deploy._footprint(u.unit, u.models, heading)
        for u in gff_deploy._to_deploy(state, us.side)
    )
    return deploy_search.crowded(state, zone, need)


def _kept_crowded(state: GameState, us: UnitState) -> bool:
    zone = gff_deploy.deployment_zone(state, us.side, scout=us.reserve == "scout")
    heading = gff_deploy.facing(us.side, gff_deploy.edge_of(state, us.side))
    return gff_deploy._crowded(state, us.side, zone, heading)


def test_a_listings_crowding_is_the_plain_sum() -> None:
    """``gff_deploy._crowded``, kept for a listing: at every decision of the deployment of two
    horde armies and of Scouts, each unit's answer is the footprints summed afresh; a unit
    left out for want of room (no unit placed) is seen."""
    rng = np.random.default_rng(7)
    army = load_army(sample_path("gff/horde-300.txt"))
    compared = removed = 0
    for a, b in ((army, army), (specials(), specials())):
        state = gff.new_game(a, b, seed=compared)
        while state.phase != Phase.ACTIVATION and not state.done:
            actions = gff.legal_actions(state)
            if state.phase not in (Phase.DEPLOY, Phase.SCOUT):
                gff.apply(state, actions[int(rng.integers(len(actions)))])
                continue
            units = gff_deploy._to_deploy(state, state.active)
            for us in units:
                assert _kept_crowded(state, us) == _plain_crowded(state, us)
                compared += 1
            if len(units) > 2 and not removed:
                deploy_search.not_deployed(state, units[-1], "test")
                for us in units[:-1]:
                    assert _kept_crowded(state, us) == _plain_crowded(state, us)
                removed += 1
                actions = gff.legal_actions(state)
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    assert compared >= 40 and removed == 1  # crowded: the next test


def test_a_listings_crowding_fails_without_the_left_out_in_its_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison sees a crowding kept across a unit left out: with a huge unit to place
    (its footprint more than the zone's room) the listing is crowded; once it is left out,
    an answer keyed without the count of units left out would still say so."""
    state = gff.new_game(
        load_army(sample_path("gff/horde-300.txt")),
        load_army(sample_path("gff/horde-300.txt")),
        seed=0,
    )
    while state.phase != Phase.DEPLOY:
        gff.apply(state, gff.legal_actions(state)[0])
    units = gff_deploy._to_deploy(state, state.active)
    monkeypatch.setattr(
        gff_deploy,
        "_footprint",
        lambda unit, models, heading: 1e6 if unit is units[0].unit else 1.0,
    )
    state.memo.deploy_options = None  # a listing afresh with the huge unit
    assert _kept_crowded(state, units[1]) and _plain_crowded(state, units[1])
    deploy_search.not_deployed(state, units[0], "test")
    assert not _plain_crowded(state, units[1])
    assert _kept_crowded(state, units[1]) == _plain_crowded(state, units[1])
    monkeypatch.setattr(state, "not_deployed", {})
    assert _kept_crowded(state, units[1]) != _plain_crowded(state, units[1])


def test_the_models_at_points_are_formation_at_points_bits() -> None:
    """``_models_at`` (the newcomers' check of points that passed the table and the zone
    before) gives the points and the models' places bit for bit as
    ``geometry.formation_at_points``."""
    rng = np.random.default_rng(11)
    state = gff.new_game(
        load_army(sample_path("gff/horde-300.txt")),
        load_army(sample_path("gff/shooty-300.txt")),
        seed=0,
    )
    for us in state.units.values():
        base, _ = gff_deploy._origin_formation(us.unit, us.models, gff_deploy.facing(us.side))
        points = [(float(x), float(y)) for x, y in rng.uniform(0.0, 48.0, (30, 2))]
        got = gff_deploy._models_at(base, points)
        want = geo.formation_at_points(base, points, state.table)[:4]
        assert all(g.tobytes() == w.tobytes() for g, w in zip(got, want, strict=True))


def _compare_newcomers(rng: np.random.Generator, *, blind: bool = False) -> tuple[int, int, int]:
    """Every deployment decision outside Ambush of two open-table games: the grid and probe
    points that stand on the table and in the zone, asked of ``_clear_of_newcomers`` among
    every unit standing (``blind``: but the last) against the one-point check. How many were
    compared, how many points failed for a gap, and how many answers differed."""
    compared = refused = differ = 0
    for a, b in (
        (load_army(sample_path("gff/shooty-300.txt")), load_army(sample_path("gff/horde-300.txt"))),
        (specials(), specials()),  # Scouts
    ):
        state = gff.new_game(a, b, seed=compared)
        while state.phase in (Phase.DEPLOY, Phase.SCOUT) or state.round == 0:
            actions = gff.legal_actions(state)
            if state.done or state.phase == Phase.ACTIVATION:
                break
            if state.phase in (Phase.DEPLOY, Phase.SCOUT):
                for us in gff_deploy._to_deploy(state, state.active):
                    zone = gff_deploy.deployment_zone(state, us.side, scout=us.reserve == "scout")
                    points = tuple(
                        p
                        for p in _grid_and_probes(state, us, rng)
                        if gff_deploy._standing(state, us, p, zone)[1] is None
                    )
                    heading = gff_deploy.facing(us.side, gff_deploy.edge_of(state, us.side))
                    base, own = gff_deploy._origin_formation(us.unit, us.models, heading)
                    obstacles = gff_deploy._obstacles(state, us)
                    obstacles = obstacles[:-1] if blind else obstacles
                    got = gff_deploy._clear_of_newcomers(points, base, own, obstacles)
                    want = tuple(_one_by_one(state, us, list(points)))
                    differ += got != want
                    refused += len(points) - len(want)
                    compared += 1
            gff.apply(state, actions[int(rng.integers(len(actions)))])
    return compared, refused, differ


def test_the_newcomers_gaps_in_python_floats_are_the_one_point_check() -> None:
    """seed 003 "Movement" (1" from other units): the points ``_clear_of_newcomers`` keeps
    among the units standing are those the one-point check keeps, in order, with many points
    near a unit refused."""
    compared, refused, differ = _compare_newcomers(np.random.default_rng(7))
    assert compared >= 20 and refused >= 50 and differ == 0


def test_the_newcomers_gaps_fail_with_a_unit_left_out() -> None:
    """The comparison sees the gaps measured without the unit placed last."""
    _, _, differ = _compare_newcomers(np.random.default_rng(7), blind=True)
    assert differ > 0
