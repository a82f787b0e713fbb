"""Line of sight (seed 002 "Line of Sight", seed 003 "Shooting"): sampling, blockers, terrain,
Large over Small, Elevated, the GFF reading, symmetry, and the cache."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from oprlab.errors import OptionError, UnknownNameError
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.sight import (
    LOS_MIN_CLEAR,
    UNIT_DISC,
    Elevated,
    SightCache,
    riverside_share,
    sight_lines,
    visible,
    visible_all,
)
from oprlab.table.terrain import generate_table, make_piece

R, G = "riverside", "gff"


def unit(*xy: tuple[float, float], r: float = 0.5, large: bool = False) -> Placement:
    return Placement(np.array(xy, dtype=float).reshape(-1, 2), np.full(len(xy), r), large=large)


def box(name: str, x0: float, y0: float, x1: float, y1: float, kind: str) -> TerrainPiece:
    return make_piece(name, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], kind)


def sees(table: Table, a: Placement, b: Placement, *others: Placement, system: str = R) -> bool:
    return bool(visible(table, a, b, others, system)[0, 0])


def exact_visible_share(
    shooter: tuple[float, float], occluder: shapely.Polygon, centre: tuple[float, float], r: float
) -> float:
    """Oracle: the share of a disc outside the shadow a convex occluder casts from a point."""
    far = shapely.affinity.scale(occluder, 500, 500, origin=shooter)
    shadow = shapely.MultiPolygon([occluder, far]).convex_hull
    disc = shapely.Point(centre).buffer(r, quad_segs=256)
    return float(1.0 - disc.intersection(shadow).area / disc.area)


OPEN = Table()


# --- sampling ------------------------------------------------------------------------------


def test_thirty_samples_each_a_thirtieth_of_the_base() -> None:
    """The base is sampled by 30 points in rings of equal area share (docs/rules/riverside.md)."""
    assert UNIT_DISC.shape == (30, 2)
    radii = np.hypot(*UNIT_DISC.T)
    assert (radii < 1).all()
    for rings, share in ((2, 2 / 30), (10, 10 / 30), (30, 1.0)):
        edge = math.sqrt(share)  # the disc of this area share holds exactly these rings
        assert (radii < edge).sum() == rings


def test_sampling_error_against_a_straight_edge() -> None:
    """seed 002 "Line of Sight": at least 10% visible. Cutting the base with a straight edge at
    every angle and offset, the sampled share is within 8% of the true share, and the decision
    (4 clear points) flips between 8.2% and 11.2% visible."""
    worst, flips = 0.0, []
    for angle in np.linspace(0, 2 * np.pi, 360, endpoint=False):
        proj = UNIT_DISC @ np.array([math.cos(angle), math.sin(angle)])
        for c in np.linspace(-1, 1, 201):
            true = (math.pi - math.acos(c) + c * math.sqrt(1 - c * c)) / math.pi  # x <= c
            worst = max(worst, abs(float((proj <= c).mean()) - true))
        c = np.sort(proj)[-LOS_MIN_CLEAR]  # the visible part x >= c holds exactly 4 points
        flips.append(1 - (math.pi - math.acos(c) + c * math.sqrt(1 - c * c)) / math.pi)
    assert worst < 0.08
    assert min(flips) > 0.08 and max(flips) < 0.115


@settings(max_examples=80, deadline=None)
@given(
    st.tuples(st.floats(15, 33), st.floats(15, 33)),
    st.floats(1, 12),
    st.floats(0.2, 3),
    st.floats(0, math.pi),
    st.tuples(st.floats(0, 48), st.floats(0, 48)),
    st.tuples(st.floats(0, 48), st.floats(0, 48)),
    st.floats(0.4, 1.5),
)
def test_riverside_share_matches_the_exact_shadow(
    mid: tuple[float, float],
    length: float,
    width: float,
    angle: float,
    eye: tuple[float, float],
    centre: tuple[float, float],
    r: float,
) -> None:
    """A wall (convex, LoS Blocking) between two models: the sampled share is within 8.5% of the
    exact shadow computed by shapely, and the 10% decision is right outside its 8%-11.5% band."""
    wall = shapely.affinity.translate(
        shapely.affinity.rotate(
            shapely.box(-length / 2, -width / 2, length / 2, width / 2), angle, use_radians=True
        ),
        *mid,
    )
    assume(wall.distance(shapely.Point(eye)) > 0.01)
    assume(wall.distance(shapely.Point(centre)) > r + 0.01)
    assume(math.dist(eye, centre) > r + 0.6)
    table = Table(pieces=(make_piece("Wall", list(wall.exterior.coords)[:-1], "forest_wall"),))
    a, b = unit(eye), unit(centre, r=r)
    share = float(riverside_share(sight_lines(table, a, b))[0, 0])
    true = exact_visible_share(eye, wall, centre, r)
    assert abs(share - true) < 0.085
    if true >= 0.115:
        assert sees(table, a, b)
    if true < 0.08:
        assert not sees(table, a, b)


# --- models --------------------------------------------------------------------------------


def test_models_of_the_own_unit_never_block() -> None:
    """seed 002 "Line of Sight": "Models may always ignore friendly models from their own unit"."""
    shooters = unit((0, 24), (4, 24), r=1.5)  # the second stands right in front of the first
    target = unit((10, 24))
    assert visible(OPEN, shooters, target, (), R).all()


def test_other_units_block_friend_or_foe() -> None:
    """seed 002 "Line of Sight": no seeing through "the perimeter of other units, friendly or
    enemy"."""
    a, b = unit((0, 24)), unit((10, 24))
    wall_of_bases = unit((5, 22.75), (5, 23.75), (5, 24.75), (5, 25.75), r=0.5)
    assert not sees(OPEN, a, b, wall_of_bases)
    assert sees(OPEN, a, b, unit((5, 30)))
    assert sees(OPEN, a, b, wall_of_bases, system=G), "GFF: other units do not block"


def test_a_base_hiding_most_but_not_all_of_the_target() -> None:
    a, b = unit((0, 24)), unit((10, 24), r=1)
    share = riverside_share(sight_lines(OPEN, a, b, [unit((5, 24), r=0.3)]))[0, 0]
    assert 0.1 < share < 0.9
    assert sees(OPEN, a, b, unit((5, 24), r=0.3))


def test_large_models_see_and_are_seen_over_small_ones() -> None:
    """seed 002 "Line of Sight": "Large Models can see and be seen over Small Models"."""
    small_wall = unit(*[(5, 20 + 0.9 * i) for i in range(10)], r=0.5)
    large_wall = unit(*[(5, 20 + 0.9 * i) for i in range(10)], r=0.5, large=True)
    a, b = unit((0, 24)), unit((10, 24))
    big_a, big_b = unit((0, 24), large=True), unit((10, 24), large=True)
    assert not sees(OPEN, a, b, small_wall)
    assert sees(OPEN, big_a, b, small_wall)
    assert sees(OPEN, a, big_b, small_wall)
    assert not sees(OPEN, big_a, big_b, large_wall), "Large models still block Large ones"


def test_models_have_los_to_themselves() -> None:
    """seed 002 "Line of Sight": "Models have LoS to themselves, and may target themselves"."""
    forest = box("Forest", 4, 0, 6, 48, "forest_wall")
    squad = unit((2, 10), (8, 10))
    seen = visible(Table(pieces=(forest,)), squad, squad, (), R)
    assert seen.tolist() == [[True, False], [False, True]]


def test_the_target_unit_does_not_hide_itself_unless_asked() -> None:
    """Reading (docs/rules/riverside.md): a unit's own models do not hide its other models from
    the unit shooting at it; ``target_blocks=True`` makes them block."""
    a = unit((0, 24))
    column = unit(*[(6 + 1.05 * i, 24) for i in range(5)], r=0.5)
    assert visible(OPEN, a, column, (), R).all()
    hidden = visible(OPEN, a, column, (), R, target_blocks=True)
    assert hidden[0, 0] and not hidden[0, 4]


def test_removed_models_see_nothing_and_do_not_block() -> None:
    a, b = unit((0, 24), (0, 30)), unit((10, 24), (10, 30))
    blocker = unit((5, 24), r=1.5)
    a.removed = np.array([False, True])
    b.removed = np.array([True, False])
    assert visible(OPEN, a, b, (blocker,), R).tolist() == [[False, True], [False, False]]
    blocker.removed = np.array([True])
    b.removed = np.array([False, False])
    assert visible(OPEN, a, b, (blocker,), R)[0, 0]


# --- terrain -------------------------------------------------------------------------------


WALL = box("Forest Wall", 9, 0, 11, 30, "forest_wall")
WOOD = box("Forest", 20, 20, 30, 30, "forest")
HILL = box("Hill", 34, 20, 44, 30, "hill")
RUIN = box("Ruins", 34, 36, 44, 44, "ruins")
TERRAIN = Table(pieces=(WALL, WOOD, HILL, RUIN))


def test_los_blocking_terrain_blocks() -> None:
    """seed 002 "LoS Blocking Terrain": "Units may not draw Line of Sight through" it; Forest Wall:
    "LoS Blocking terrain for units behind the Forest Wall"."""
    assert not sees(TERRAIN, unit((5, 10)), unit((15, 10)))
    assert not sees(TERRAIN, unit((5, 10)), unit((15, 10)), system=G)
    assert sees(TERRAIN, unit((5, 35)), unit((15, 35)))


def test_forest_blocks_units_behind_it_but_not_units_in_it() -> None:
    """seed 002 "Forest": "LoS Blocking terrain for units behind the Forest". A model in the
    forest sees out and is seen; a line through the forest between two others is blocked; two
    models in the same forest see each other (docs/rules/riverside.md)."""
    outside_w, outside_e = unit((15, 25)), unit((33, 25))
    inside, inside2 = unit((21, 25)), unit((29, 25))
    for system in (R, G):
        assert not sees(TERRAIN, outside_w, outside_e, system=system)
        assert sees(TERRAIN, inside, outside_e, system=system)
        assert sees(TERRAIN, outside_e, inside, system=system)
        assert sees(TERRAIN, inside, inside2, system=system)


def test_a_line_through_another_part_of_the_forest_is_blocked() -> None:
    """Only the parts of the forest the shooter and the target stand in are see-through: in a
    U-shaped wood, a model in one arm sees a model in the other arm across the open notch, but
    not a model beyond the other arm (docs/rules/riverside.md)."""
    u_wood = make_piece(
        "U Wood", [(10, 10), (30, 10), (30, 20), (26, 20), (26, 14), (14, 14), (14, 20), (10, 20)],
        "forest",
    )  # fmt: skip
    table = Table(pieces=(u_wood,))
    left_arm, right_arm, notch, beyond = (
        unit((12, 17)),
        unit((28, 17)),
        unit((20, 17)),
        unit((34, 17)),
    )
    for system in (R, G):
        assert sees(table, left_arm, notch, system=system)
        assert sees(table, left_arm, right_arm, system=system)
        assert not sees(table, left_arm, beyond, system=system)
        assert not sees(table, beyond, left_arm, system=system)
        assert sees(table, right_arm, beyond, system=system)


def test_hills_and_ruins_do_not_block_los() -> None:
    """seed 002 "Hills": elevated and cover; "Ruins": cover and difficult; neither is LoS
    Blocking."""
    assert sees(TERRAIN, unit((32, 25)), unit((46, 25)))
    assert sees(TERRAIN, unit((32, 40)), unit((46, 40)))


def test_elevated_shooter_may_see_over_los_blocking_terrain() -> None:
    """seed 002 "Elevated Terrain": a model on Elevated Terrain higher than its target "may
    consider LoS Blocking Terrain as only giving Cover"."""
    mound = box("Mound", 0, 0, 6, 6, "hill")
    screen = box("Screen", 8, 0, 9, 10, "forest_wall")
    table = Table(pieces=(mound, screen))
    on_hill, ground = unit((3, 3)), unit((14, 3))
    seen = visible(table, on_hill, ground, (), R, elevated=Elevated.SEE_OVER)
    assert seen[0, 0]
    assert not visible(table, on_hill, ground, (), R, elevated=Elevated.NONE)[0, 0]
    assert not visible(table, on_hill, ground, (), R, elevated=Elevated.IGNORE_COVER)[0, 0]
    assert not sees(table, ground, on_hill), "only the higher model gains the bonus"
    assert not sees(table, on_hill, ground, system=G), "GFF has no Elevated terrain"


# --- symmetry ------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_gff_los_is_symmetric(table_seed: int, seed: int) -> None:
    """GFF reading: one centre-to-centre segment, so A sees B exactly when B sees A."""
    table = generate_table(table_seed, pieces=14)
    rng = np.random.default_rng(seed)
    a = Placement(rng.uniform(0, 48, (6, 2)), rng.uniform(0.4, 1.2, 6))
    b = Placement(rng.uniform(0, 48, (5, 2)), rng.uniform(0.4, 1.2, 5))
    assert np.array_equal(visible(table, a, b, (), G), visible(table, b, a, (), G).T)


def test_riverside_los_is_not_always_symmetric() -> None:
    """The Riverside rule is point (the shooter's centre) to area (10% of the target's base), so
    near the end of a wall A may see a sliver of B while B sees none of A."""
    table = Table(pieces=(box("Wall", 20, 10, 21, 24, "forest_wall"),))
    a, b = unit((10.41, 18.5)), unit((23.73, 25.74))
    assert sees(table, a, b) and not sees(table, b, a)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.floats(0.4, 1.5))
def test_riverside_los_is_symmetric_when_nothing_touches_the_corridor(
    table_seed: int, seed: int, r: float
) -> None:
    """What does hold: if no blocking terrain and no other model touches the convex hull of the
    two bases, each sees the other."""
    table = generate_table(table_seed, pieces=12)
    rng = np.random.default_rng(seed)
    a, b = unit(tuple(rng.uniform(0, 48, 2)), r=r), unit(tuple(rng.uniform(0, 48, 2)), r=r)
    other = unit(tuple(rng.uniform(0, 48, 2)), r=r)
    corridor = shapely.MultiPoint([a.centres[0], b.centres[0]]).buffer(r).convex_hull
    blockers = [p for p in table.pieces if p.has(TerrainType.BLOCKING)]
    clear = not any(corridor.intersects(shapely.Polygon(p.outline)) for p in blockers)
    clear &= not corridor.intersects(shapely.Point(other.centres[0]).buffer(r))
    assume(clear and math.dist(a.centres[0], b.centres[0]) > 2 * r)
    assert sees(table, a, b, other) and sees(table, b, a, other)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.floats(-10, 10), st.floats(-10, 10))
def test_los_does_not_depend_on_where_the_table_is(seed: int, dx: float, dy: float) -> None:
    """Shifting everything (terrain and models) by the same amount changes nothing."""
    table = generate_table(seed % 1000, pieces=10)
    shifted = Table(
        width=200,
        depth=200,
        pieces=tuple(
            TerrainPiece(p.name, tuple((x + dx, y + dy) for x, y in p.outline), p.types, p.height,
                         p.preset, p.cover_gap)
            for p in table.pieces
        ),
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    a = Placement(rng.uniform(0, 48, (4, 2)), np.full(4, 0.5))
    b = Placement(rng.uniform(0, 48, (6, 2)), np.full(6, 0.8))
    o = Placement(rng.uniform(0, 48, (5, 2)), np.full(5, 0.5))
    move = np.array([dx, dy])
    a2, b2, o2 = (Placement(p.centres + move, p.radii) for p in (a, b, o))
    same = visible(table, a, b, (o,), R) == visible(shifted, a2, b2, (o2,), R)
    # a sight line grazing a corner may flip with rounding; nearly all must agree
    assert same.mean() >= 0.95


def test_another_unit_never_makes_a_hidden_model_visible() -> None:
    table = generate_table(11)
    rng = np.random.default_rng(5)
    a = Placement(rng.uniform(0, 48, (5, 2)), np.full(5, 0.5))
    b = Placement(rng.uniform(0, 48, (8, 2)), np.full(8, 0.5))
    o = Placement(rng.uniform(0, 48, (6, 2)), np.full(6, 0.8))
    without = visible(table, a, b, (), R)
    with_other = visible(table, a, b, (o,), R)
    assert not (with_other & ~without).any()


# --- API, cache ----------------------------------------------------------------------------


def test_shape_is_shooters_by_targets() -> None:
    a, b = unit((1, 1), (2, 1), (3, 1)), unit((20, 20), (22, 20))
    for system in (R, G):
        assert visible(OPEN, a, b, (), system).shape == (3, 2)
    assert visible(OPEN, unit(), b, (), R).shape == (0, 2)


def test_bad_system_and_choice() -> None:
    with pytest.raises(UnknownNameError, match="riverside, gff"):
        visible(OPEN, unit((1, 1)), unit((2, 2)), (), "wwpd")
    with pytest.raises(OptionError, match="see_over"):
        visible(OPEN, unit((1, 1)), unit((2, 2)), (), R, elevated="sideways")  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        SightCache(0)


def test_cache_hits_until_anything_moves() -> None:
    table = generate_table(4)
    cache = SightCache(maxsize=8)
    a, b, o = unit((10, 5), (12, 5)), unit((30, 40), (32, 40)), unit((20, 24), r=1)
    first = visible(table, a, b, (o,), R, cache=cache)
    again = visible(table, a, b, (o,), R, cache=cache)
    assert np.array_equal(first, again) and (cache.hits, cache.misses) == (1, 1)
    o.centres[0] = (40, 24)  # the blocker moves: a new key
    moved = visible(table, a, b, (o,), R, cache=cache)
    assert cache.misses == 2
    assert np.array_equal(moved, visible(table, a, b, (o,), R))
    b.removed = np.array([True, False])
    assert not visible(table, a, b, (o,), R, cache=cache)[:, 0].any()
    assert cache.misses == 3
    for i in range(10):
        visible(table, unit((i, 1)), b, (), R, cache=cache)
    assert len(cache) == 8
    cache.clear()
    assert len(cache) == 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.booleans())
def test_batched_activation_equals_one_call_per_target(
    seed: int, large_shooter: bool, target_blocks: bool
) -> None:
    """``visible_all`` traces every target at once; each target blocks sight to the others."""
    table = generate_table(seed % 100, pieces=16)
    rng = np.random.default_rng(seed)
    shooter = Placement(rng.uniform(0, 48, (4, 2)), np.full(4, 0.5), large=large_shooter)
    targets = [
        Placement(rng.uniform(0, 48, (n, 2)), np.full(n, 0.6), large=bool(rng.random() < 0.3))
        for n in (1, 3, 6)
    ]
    friends = [Placement(rng.uniform(0, 48, (3, 2)), np.full(3, 0.5))]
    for system in (R, G):
        batch = visible_all(table, shooter, targets, friends, system, target_blocks=target_blocks)
        for i, target in enumerate(targets):
            rest = [t for j, t in enumerate(targets) if j != i] + friends
            one = visible(table, shooter, target, rest, system, target_blocks=target_blocks)
            assert np.array_equal(batch[i], one)
