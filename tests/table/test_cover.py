"""Cover (seed 002 "Determine Cover", "Cover Terrain", Hills, Barricade, Elevated; seed 003
"Cover Terrain", Blast, Indirect), per shooting model."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from oprlab.errors import OptionError, UnknownNameError
from oprlab.table.cover import has_cover, los_and_cover, los_and_cover_all
from oprlab.table.model import Placement, Table, TerrainPiece
from oprlab.table.sight import Elevated, SightCache, visible
from oprlab.table.terrain import generate_table, make_piece

R, G = "riverside", "gff"


def unit(*xy: tuple[float, float], r: float = 0.5, large: bool = False) -> Placement:
    return Placement(np.array(xy, dtype=float).reshape(-1, 2), np.full(len(xy), r), large=large)


def box(name: str, x0: float, y0: float, x1: float, y1: float, kind: str) -> TerrainPiece:
    return make_piece(name, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], kind)


def row(x: float, y0: float, n: int, step: float = 1.5, r: float = 0.5) -> Placement:
    return unit(*[(x, y0 + step * i) for i in range(n)], r=r)


def cover(table: Table, a: Placement, b: Placement, *others: Placement, **kw: Any) -> list[bool]:
    return [bool(c) for c in has_cover(table, a, b, others, **kw)]


# A forest wall along x in [10, 11], y in [0, 24]; open ground above y = 24.
SCREEN = Table(pieces=(box("Screen", 10, 0, 11, 24, "forest_wall"),))


# --- Riverside: Determine Cover ------------------------------------------------------------


def test_more_than_half_of_the_unit_out_of_sight_gives_cover() -> None:
    """seed 002_fdb385c07cc953af "Determine Cover": "if more than half of the targeted unit is not
    in LoS ... that target has Cover from the model's attack"."""
    shooter = unit((2, 12))
    three_of_four = unit((20, 12), (20, 16), (20, 20), (20, 40))  # three behind the screen
    two_of_four = unit((20, 12), (20, 16), (14, 40), (16, 40))
    assert visible(SCREEN, shooter, three_of_four, (), R).sum() == 1
    assert cover(SCREEN, shooter, three_of_four) == [True]
    assert cover(SCREEN, shooter, two_of_four) == [False], "exactly half is not more than half"


def test_cover_is_decided_for_each_shooting_model() -> None:
    """seed 002 "Determine Cover": "For each model"."""
    shooters = unit((2, 12), (2, 46))
    target = unit((20, 12), (20, 16), (20, 20), (20, 40))
    assert cover(SCREEN, shooters, target) == [True, False]


def test_other_units_hiding_the_target_count_too() -> None:
    """Models of other units block LoS, so they can give the "not in LoS" Cover."""
    shooter = unit((2, 40))
    target = unit((20, 39), (20, 40.5), (20, 42))
    screen = unit(*[(11, 36.5 + 0.9 * i) for i in range(10)])
    assert cover(Table(), shooter, target) == [False]
    assert cover(Table(), shooter, target, screen) == [True]
    assert cover(Table(), shooter, target, screen, system=G) == [False]


def test_single_model_unit_needs_more_than_half_its_base_hidden() -> None:
    """seed 002 "Determine Cover": "in the case of single model units - more than half of the
    unit is hidden". A 3" base with about three quarters, then about a quarter, behind the
    screen's end (y = 24)."""
    shooter = unit((2, 24))
    mostly_hidden = unit((20, 23.1), r=1.5)
    mostly_seen = unit((20, 24.9), r=1.5)
    assert cover(SCREEN, shooter, mostly_hidden) == [True]
    assert cover(SCREEN, shooter, mostly_seen) == [False]


# --- Riverside: Cover Terrain --------------------------------------------------------------

RUINS = Table(pieces=(box("Ruins", 18, 10, 24, 30, "ruins"),))


def test_models_in_cover_terrain() -> None:
    """seed 002 "Cover Terrain": "If more than half of the models of a unit are in or behind
    Cover Terrain ... that unit has Cover"."""
    shooter = unit((2, 20))
    three_in = unit((20, 14), (20, 16), (20, 18), (30, 40), (32, 40))
    two_in = unit((20, 14), (20, 16), (30, 40), (32, 40), (34, 40))
    assert cover(RUINS, shooter, three_in) == [True]
    assert cover(RUINS, shooter, two_in) == [False]


def test_models_behind_cover_terrain() -> None:
    """seed 002 "Cover Terrain": "in or behind": the ruins stand between shooter and target."""
    shooter = unit((2, 20))
    behind = row(30, 17, 3)
    beside = row(30, 42, 3)
    assert cover(RUINS, shooter, behind) == [True]
    assert cover(RUINS, shooter, beside) == [False]


def test_shooting_out_of_cover_terrain_gives_the_target_nothing() -> None:
    """The piece the shooter stands in is not "between" it and its target."""
    in_ruins = unit((21, 20))
    assert cover(RUINS, in_ruins, row(35, 18, 3)) == [False]


def test_single_model_more_than_half_of_its_base_in_cover_terrain() -> None:
    """seed 002 "Cover Terrain": single model units: "more than half of the unit's base is within
    or behind Cover Terrain"."""
    ruins = Table(pieces=(box("Ruins", 18, 32, 30, 42, "ruins"),))
    west, east = unit((10, 37)), unit((40, 37))
    assert cover(ruins, west, unit((18.7, 37), r=1.5)) == [True], "about 70% of it inside"
    assert cover(ruins, west, unit((17.3, 37), r=1.5)) == [False], "about 20% of it inside"
    assert cover(ruins, east, unit((17.3, 37), r=1.5)) == [True], "behind it counts"


def test_hills_give_cover_behind_but_not_on_top() -> None:
    """seed 002 "Hills": "Elevated Terrain for models on top. Cover Terrain for models behind"."""
    hill = Table(pieces=(box("Hill", 14, 10, 24, 30, "hill"),))
    shooter = unit((2, 20))
    assert cover(hill, shooter, row(30, 17, 3)) == [True]
    assert cover(hill, shooter, row(19, 17, 3)) == [False]


def test_barricade_covers_units_behind_it_when_over_one_inch_away() -> None:
    """seed 002 "Barricade": "Cover Terrain for units behind the Barricade when over 1\\" from
    Barricade" (default reading: the target is over 1" away; option: the shooter)."""
    table = Table(pieces=(box("Barricade", 10, 14, 10.6, 26, "barricade"),))
    far_target = row(14, 18, 3)  # bases 2.9" from it
    hugging = row(11.3, 18, 3)  # bases 0.2" from it
    shooter_far, shooter_close = unit((2, 20)), unit((9.2, 20))
    assert cover(table, shooter_far, far_target) == [True]
    assert cover(table, shooter_far, hugging) == [False]
    assert cover(table, shooter_close, far_target, gap_from="shooter") == [False]
    assert cover(table, shooter_far, hugging, gap_from="shooter") == [True]
    assert cover(table, shooter_far, row(14, 30, 3)) == [False], "not behind it"


# --- Riverside: Elevated -------------------------------------------------------------------

MOUND = box("Mound", 0, 0, 6, 6, "hill")


def test_elevated_shooter_treats_blocking_terrain_as_cover() -> None:
    """seed 002 "Elevated Terrain": "They may consider LoS Blocking Terrain as only giving Cover
    to their target"."""
    table = Table(pieces=(MOUND, box("Screen", 8, 0, 9, 10, "forest_wall")))
    on_hill = unit((3, 3))
    target = row(14, 1.5, 3)
    seen, has = los_and_cover(table, on_hill, target, (), R, elevated=Elevated.SEE_OVER)
    assert seen.all() and has.tolist() == [True]


def test_elevated_shooter_may_ignore_cover_from_terrain() -> None:
    """seed 002 "Elevated Terrain": "or they may ignore Cover granted to their target by
    Terrain"; a shooter on the ground, or level with the target, may not."""
    table = Table(pieces=(MOUND, box("Ruins", 12, 0, 18, 6, "ruins")))
    in_ruins = row(15, 1.5, 3)
    on_hill = unit((3, 3))
    assert cover(table, on_hill, in_ruins, elevated=Elevated.IGNORE_COVER) == [False]
    assert cover(table, on_hill, in_ruins, elevated=Elevated.NONE) == [True]
    assert cover(table, on_hill, in_ruins, elevated=Elevated.SEE_OVER) == [True]
    assert cover(table, unit((9, 3)), in_ruins, elevated=Elevated.IGNORE_COVER) == [True]
    with pytest.raises(OptionError):
        cover(table, on_hill, in_ruins, elevated="upwards")


# --- weapons -------------------------------------------------------------------------------


def test_blast_ignores_cover() -> None:
    """seed 002 "Blast[X]": "Weapons with Blast ignore cover"; seed 003 "Blast(X) Ignores
    cover"."""
    target = unit((20, 14), (20, 16), (20, 18))
    for system in (R, G):
        assert cover(RUINS, unit((2, 20)), target, system=system) == [True]
        assert cover(RUINS, unit((2, 20)), target, system=system, blast=True) == [False]


def test_indirect_ignores_cover_from_sight_obstructions_only() -> None:
    """seed 003 "Indirect": "ignores cover from sight obstructions" (cover from being inside
    cover terrain stays)."""
    hidden = unit((20, 12), (20, 16), (20, 20))
    shooter = unit((2, 12))
    in_ruins = unit((20, 14), (20, 16), (20, 18))
    for system in (R, G):
        assert cover(SCREEN, shooter, hidden, system=system) == [True]
        assert cover(SCREEN, shooter, hidden, system=system, indirect=True) == [False]
        assert cover(RUINS, unit((2, 20)), in_ruins, system=system, indirect=True) == [True]


# --- GFF -----------------------------------------------------------------------------------


def test_gff_most_models_fully_inside_cover_terrain() -> None:
    """seed 003_8abb008d4113ed75 "Cover Terrain": "Units with most models fully inside cover
    terrain ... get +1 to Defense rolls"."""
    shooter = unit((2, 20))
    fully = unit((20, 14), (20, 16), (20, 18), (30, 40), (32, 40))
    half_out = unit((18.2, 14), (18.2, 16), (18.2, 18), (30, 40), (32, 40))
    assert cover(RUINS, shooter, fully, system=G) == [True]
    assert cover(RUINS, shooter, half_out, system=G) == [False]
    assert cover(RUINS, shooter, row(30, 17, 3), system=G) == [False], "behind ruins: no"


def test_gff_most_models_behind_sight_blockers() -> None:
    """seed 003 "Cover Terrain": "or behind sight blockers"; a model counts when a blocker hides
    part of its base (docs/rules/gff.md)."""
    shooter = unit((2, 22))
    target = unit((20, 26.6), (21, 26.9), (20, 35))  # two of three partly behind the screen
    assert visible(SCREEN, shooter, target, (), G).all()
    assert cover(SCREEN, shooter, target, system=G) == [True]
    assert cover(SCREEN, shooter, unit((20, 25.5), (20, 27), (20, 30)), system=G) == [False]


def test_gff_low_blockers_count_as_sight_blockers_for_cover() -> None:
    """Reading (docs/rules/gff.md): a Barricade or Hill hides models behind it."""
    table = Table(pieces=(box("Barricade", 10, 14, 10.6, 26, "barricade"),))
    assert cover(table, unit((2, 20)), row(14, 18, 3), system=G) == [True]


def test_gff_single_model_mostly_inside_cover() -> None:
    """seed 003 "Cover Terrain": single-model units "mostly inside cover terrain or behind sight
    blockers"."""
    shooter = unit((2, 20))
    assert cover(RUINS, shooter, unit((18.7, 20), r=1.5), system=G) == [True]
    assert cover(RUINS, shooter, unit((17.3, 20), r=1.5), system=G) == [False]


# --- API -----------------------------------------------------------------------------------


def test_removed_models() -> None:
    shooters = unit((2, 12), (2, 14))
    shooters.removed = np.array([False, True])
    target = unit((20, 12), (20, 16), (20, 20), (20, 40))
    assert cover(SCREEN, shooters, target) == [True, False]
    target.removed = np.ones(4, dtype=bool)
    assert cover(SCREEN, shooters, target) == [False, False]
    assert has_cover(SCREEN, unit(), target).shape == (0,)


def test_los_and_cover_agree_with_separate_calls() -> None:
    shooter = unit((2, 12), (2, 40), (6, 30))
    target = unit((20, 12), (20, 16), (20, 20), (20, 40))
    for system in (R, G):
        cache = SightCache()
        seen, has = los_and_cover(SCREEN, shooter, target, (), system, cache=cache)
        assert np.array_equal(seen, visible(SCREEN, shooter, target, (), system))
        assert np.array_equal(has, has_cover(SCREEN, shooter, target, (), system))


def test_unknown_system() -> None:
    with pytest.raises(UnknownNameError):
        has_cover(SCREEN, unit((1, 1)), unit((3, 3)), (), "dq")


def test_batched_cover_equals_one_call_per_target() -> None:
    table = generate_table(21)
    rng = np.random.default_rng(4)
    shooter = Placement(rng.uniform(0, 48, (5, 2)), np.full(5, 0.5))
    targets = [Placement(rng.uniform(0, 48, (n, 2)), np.full(n, 0.5)) for n in (1, 2, 5, 8)]
    for system in (R, G):
        for flags in ({}, {"indirect": True}, {"elevated": Elevated.IGNORE_COVER}):
            batch = los_and_cover_all(table, shooter, targets, (), system, **flags)
            for i, target in enumerate(targets):
                rest = [t for j, t in enumerate(targets) if j != i]
                seen, has = los_and_cover(table, shooter, target, rest, system, **flags)
                assert np.array_equal(batch[i][0], seen)
                assert np.array_equal(batch[i][1], has)
