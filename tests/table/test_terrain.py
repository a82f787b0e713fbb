"""Terrain presets (seed 002 groupings), the terrain JSON format, and the table generator."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.errors import OptionError, ParseError, UnknownNameError
from oprlab.table.model import Table, TerrainPiece, TerrainType
from oprlab.table.terrain import (
    PRESETS,
    SMALL_AREA,
    generate_table,
    load_table,
    make_piece,
    may_stand_in_zone,
    piece_polygon,
    preset,
    table_problems,
    table_to_json,
    zone_boxes,
)

T = TerrainType
SQUARE = [[10, 10], [14, 10], [14, 14], [10, 14]]


def doc(pieces: list[Any], **top: object) -> str:
    return json.dumps({"width": 48, "depth": 48, "pieces": pieces, **top})


# --- presets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "types"),
    [
        ("barricade", {T.DIFFICULT_LARGE, T.COVER_BEHIND, T.UNSTABLE}),
        ("forest", {T.COVER, T.BLOCKING}),
        ("forest_wall", {T.BLOCKING, T.IMPASSABLE}),
        ("lake", {T.DANGEROUS}),
        ("hill", {T.ELEVATED, T.COVER_BEHIND}),
        ("ramp", {T.DIFFICULT}),
        ("ruins", {T.COVER, T.DIFFICULT}),
    ],
)
def test_presets_are_the_seed_groupings(name: str, types: set[TerrainType]) -> None:
    """seed 002_fdb385c07cc953af "Terrain Grouping": Barricade (difficult for Large, cover behind,
    unstable per "Terrain Movement"), Forest (cover, blocks), Forest Wall (blocks, cannot be
    within), Lakes (dangerous), Hills (elevated on top, cover behind), Ramps (difficult), Ruins
    (cover, difficult)."""
    assert PRESETS[name].types == frozenset(types)


def test_barricade_cover_needs_over_one_inch_and_hills_are_climbable() -> None:
    """seed 002 "Barricade": cover "when over 1\\" from Barricade"; "Terrain Movement": units may
    climb up to 3\", so a default Hill is 3\" tall."""
    assert PRESETS["barricade"].cover_gap == 1.0
    assert PRESETS["hill"].height == 3.0
    assert all(p.cover_gap == 0 for n, p in PRESETS.items() if n != "barricade")


@pytest.mark.parametrize("spelling", ["Forest Wall", "forest-wall", "FOREST_WALLS"])
def test_preset_spellings(spelling: str) -> None:
    assert preset(spelling).name == "forest_wall"


def test_unknown_preset_lists_the_valid_ones() -> None:
    with pytest.raises(UnknownNameError) as err:
        preset("swamp")
    assert err.value.value == "swamp"
    assert err.value.expected is not None and all(n in err.value.expected for n in PRESETS)


# --- loading -------------------------------------------------------------------------------


def test_load_a_small_file() -> None:
    text = doc(
        [
            {"name": "Old Wood", "preset": "forest", "outline": SQUARE},
            {
                "name": "Rock",
                "types": ["impassable", "blocking"],
                "outline": [[0, 0], [3, 0], [0, 3]],
            },
            {"name": "Mound", "preset": "hills", "outline": SQUARE, "height": 2},
        ],
        objectives=[[24, 24], [24, 12.5]],
    )
    table = load_table(text, "t.json")
    assert (table.width, table.depth, table.deployment_depth) == (48, 48, 12)
    wood, rock, mound = table.pieces
    assert wood == TerrainPiece(
        "Old Wood", ((10, 10), (14, 10), (14, 14), (10, 14)), PRESETS["forest"].types, 0.0, "forest"
    )
    assert rock.types == {T.IMPASSABLE, T.BLOCKING} and rock.preset is None
    assert (mound.preset, mound.height) == ("hill", 2.0)
    assert table.objectives == ((24.0, 24.0), (24.0, 12.5))


def test_types_with_a_preset_replace_its_types_and_keep_the_name() -> None:
    """seed 002 "Terrain": "you may also add other conditions to further customize"."""
    text = doc([{"name": "Dense", "preset": "forest", "types": ["cover", "blocking", "difficult"],
                 "outline": SQUARE}])  # fmt: skip
    (piece,) = load_table(text).pieces
    assert piece.preset == "forest" and piece.types == {T.COVER, T.BLOCKING, T.DIFFICULT}


def test_a_closed_ring_drops_its_repeated_corner() -> None:
    (piece,) = load_table(
        doc([{"name": "a", "preset": "ruins", "outline": [*SQUARE, SQUARE[0]]}])
    ).pieces
    assert len(piece.outline) == 4


def test_overlapping_impassable_pieces_are_fine() -> None:
    text = doc(
        [
            {"name": "Crag A", "preset": "forest_wall", "outline": SQUARE},
            {"name": "Crag B", "preset": "forest_wall", "outline": [[12, 12], [16, 12], [16, 16]]},
        ]
    )
    assert len(load_table(text).pieces) == 2


def _where(text: str) -> str:
    with pytest.raises(ParseError) as err:
        load_table(text, "bad.json")
    return str(err.value)


def test_self_intersecting_outline_names_the_piece() -> None:
    bow_tie = [[10, 10], [14, 14], [14, 10], [10, 14]]
    message = _where(doc([SQUARE_PIECE, {"name": "Knot", "preset": "ruins", "outline": bow_tie}]))
    assert "bad.json: pieces[1] 'Knot'" in message
    assert "not a simple polygon" in message and "Self-intersection" in message


SQUARE_PIECE = {"name": "Fine", "preset": "ruins", "outline": SQUARE}


@pytest.mark.parametrize(
    ("outline", "words"),
    [
        ([[1, 1], [2, 2]], "fewer than 3 distinct corners"),
        ([[1, 1], [2, 2], [1, 1], [2, 2]], "fewer than 3 distinct corners"),
        ([[1, 1], [2, 2], [3, 3]], "zero area"),
        ([[40, 40], [50, 40], [50, 45]], "outside the 48x48 table"),
        ([[-1, 0], [3, 0], [3, 3]], "outside the 48x48 table"),
        ([[1, 1], [2, 2], [1]], "not a point"),
        ([[1, 1], [2, "x"], [1, 3]], "not a point"),
        ("square", "outline missing or not a list"),
    ],
)
def test_bad_outlines(outline: object, words: str) -> None:
    message = _where(doc([{"name": "Blob", "preset": "lake", "outline": outline}]))
    assert "pieces[0] 'Blob'" in message and words in message


def test_unknown_type_lists_the_valid_types() -> None:
    text = doc([{"name": "Bog", "types": ["cover", "swampy"], "outline": SQUARE}])
    with pytest.raises(UnknownNameError) as err:
        load_table(text, "bad.json")
    assert err.value.value == "swampy"
    assert "pieces[0] 'Bog'" in str(err.value)
    assert err.value.expected is not None
    assert all(t.value in err.value.expected for t in TerrainType)


def test_unknown_preset_in_a_file_names_the_piece() -> None:
    with pytest.raises(UnknownNameError, match=r"pieces\[0\] 'Bog'.*unknown terrain preset"):
        load_table(doc([{"name": "Bog", "preset": "swamp", "outline": SQUARE}]))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"width": 48,\n "pieces": [}', "bad.json:2:"),
        ("[1, 2]", "a terrain file is a JSON object"),
        (doc([], colour="red"), "unknown key"),
        (doc([{"name": "A", "outline": SQUARE}]), "a piece needs a preset or types"),
        (doc([{"name": "A", "preset": "lake", "outline": SQUARE, "colour": 1}]), "unknown key"),
        (doc([{"name": "A", "preset": "lake", "outline": SQUARE, "height": -1}]), "zero or more"),
        (doc([{"name": "A", "preset": "lake", "outline": SQUARE, "height": True}]), "a number"),
        (doc([{"name": "", "preset": "lake", "outline": SQUARE}]), "non-empty string"),
        (doc([{"name": "A", "types": "cover", "outline": SQUARE}]), "list of names"),
        (doc(["forest"]), "a piece is a JSON object"),
        (doc([], width=0), "positive"),
        (doc([], deployment_depth=24), "deployment zones would meet"),
        (doc([], objectives=[[60, 10]]), "outside the table"),
        (doc([], objectives=[[1, 2, 3]]), "not a point"),
        (
            doc(
                [{"name": "Crag", "preset": "forest_wall", "outline": SQUARE}],
                objectives=[[12, 12]],
            ),
            "inside impassable terrain 'Crag'",
        ),
    ],
)
def test_bad_files(text: str, words: str) -> None:
    assert words in _where(text)


def test_table_problems_lists_every_problem_of_a_table_built_in_code() -> None:
    bad = Table(
        pieces=(
            TerrainPiece("Knot", ((0, 0), (4, 4), (4, 0), (0, 4)), frozenset({T.COVER})),
            TerrainPiece("Far", ((50, 0), (52, 0), (52, 2)), frozenset({T.COVER})),
        ),
        objectives=((100, 1),),
    )
    problems = table_problems(bad)
    assert len(problems) == 3
    assert "pieces[0] 'Knot'" in problems[0] and "pieces[1] 'Far'" in problems[1]
    assert problems[2].startswith("objectives[0]")
    assert table_problems(generate_table(5)) == []


# --- round trip ----------------------------------------------------------------------------


def test_round_trip_keeps_custom_pieces_exactly() -> None:
    table = Table(
        width=44.5,
        depth=30,
        deployment_depth=6,
        pieces=(
            make_piece("Odd Ruin", [(1.1, 1.2), (3.333333333333, 1.2), (2, 2.7)], "ruins"),
            replace(make_piece("Wall", [(5, 5), (9, 5), (9, 6)], "barricade"), cover_gap=0.5),
            TerrainPiece("Pit", ((20, 20), (22, 20), (22, 22)), frozenset({T.DANGEROUS}), 0.25),
            make_piece("Mesa", [(30, 10), (34, 10), (34, 14)], "hill", types=[T.ELEVATED]),
        ),
        objectives=((10.5, 15), (30, 15.25)),
    )
    text = table_to_json(table)
    assert load_table(text) == table
    assert table_to_json(load_table(text)) == text
    rows = json.loads(text)["pieces"]
    assert rows[0] == {
        "name": "Odd Ruin",
        "preset": "ruins",
        "outline": [[1.1, 1.2], [3.333333333333, 1.2], [2, 2.7]],
        "height": 0,
    }
    assert rows[1]["cover_gap"] == 0.5 and "types" not in rows[1]
    assert rows[2]["types"] == ["dangerous"] and "preset" not in rows[2]
    assert rows[3]["types"] == ["elevated"]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 24), st.booleans())
def test_round_trip_of_generated_tables(seed: int, pieces: int, symmetric: bool) -> None:
    table = generate_table(seed, pieces=pieces, symmetric=symmetric)
    assert load_table(table_to_json(table)) == table


def test_empty_table_round_trips() -> None:
    assert load_table(table_to_json(Table())) == Table()


# --- the generator -------------------------------------------------------------------------


def test_same_seed_same_table_exactly() -> None:
    a, b = generate_table(1234), generate_table(1234)
    assert a == b and table_to_json(a) == table_to_json(b)
    assert generate_table(1235) != a


def test_default_table_has_twenty_pieces_of_many_kinds() -> None:
    """seed 003_8abb008d4113ed75 "The Battlefield": a 4'x4' area with 20+ pieces of terrain."""
    table = generate_table(3)
    assert (table.width, table.depth) == (48, 48) and len(table.pieces) == 20
    kinds = {p.preset for p in table.pieces}
    assert kinds == set(PRESETS)


def _mirror_key(piece: TerrainPiece, table: Table) -> frozenset[tuple[float, float]]:
    return frozenset(
        (round(table.width - x, 6), round(table.depth - y, 6)) for x, y in piece.outline
    )


def _key(piece: TerrainPiece) -> frozenset[tuple[float, float]]:
    return frozenset((round(x, 6), round(y, 6)) for x, y in piece.outline)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    pieces=st.integers(0, 26),
    symmetric=st.booleans(),
    depth=st.sampled_from([48.0, 36.0]),
    deployment=st.sampled_from([12.0, 9.0, 6.0]),
)
def test_generator_keeps_its_promises(
    seed: int, pieces: int, symmetric: bool, depth: float, deployment: float
) -> None:
    """Every piece valid and on the table; pieces over 2" apart; nothing blocking, impassable,
    dangerous or elevated in a deployment zone, only small cover; point symmetry when asked."""
    table = generate_table(
        seed, pieces=pieces, symmetric=symmetric, depth=depth, deployment_depth=deployment
    )
    assert len(table.pieces) == pieces
    assert table_problems(table) == []
    polys = [piece_polygon(p) for p in table.pieces]
    for a, b in itertools.combinations(polys, 2):
        assert a.distance(b) >= 2.0
    zones = zone_boxes(table.width, table.depth, table.deployment_depth)
    for piece, poly in zip(table.pieces, polys, strict=True):
        if any(poly.intersects(z) for z in zones):
            assert may_stand_in_zone(piece)
            assert not piece.types & {T.BLOCKING, T.IMPASSABLE, T.DANGEROUS, T.ELEVATED}
            assert poly.area <= SMALL_AREA
    if symmetric:
        keys = {(_key(p), p.preset) for p in table.pieces}
        for p in table.pieces:
            assert (_mirror_key(p, table), p.preset) in keys
    assert len({p.name for p in table.pieces}) == pieces


def test_odd_symmetric_count_puts_a_point_symmetric_piece_in_the_centre() -> None:
    table = generate_table(8, pieces=21)
    centre = table.pieces[0]
    assert _mirror_key(centre, table) == _key(centre)
    assert shapely.Point(24, 24).within(piece_polygon(centre))


def test_asymmetric_tables_are_not_mirrored() -> None:
    table = generate_table(8, symmetric=False)
    keys = {_key(p) for p in table.pieces}
    assert sum(_mirror_key(p, table) in keys for p in table.pieces) < len(table.pieces)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"pieces": -1},
        {"pieces": 81},
        {"width": 6},
        {"deployment_depth": 24},
        {"deployment_depth": 0},
        {"gap": 1.0},
        {"pieces": 60, "width": 20, "depth": 20, "deployment_depth": 4},
    ],
)
def test_generator_rejects_bad_options(kwargs: dict[str, float]) -> None:
    with pytest.raises(OptionError):
        generate_table(1, **kwargs)  # type: ignore[arg-type]


def test_the_documented_example_loads() -> None:
    """docs/terrain.md's example is a valid file that round-trips byte for byte."""
    doc_path = Path(__file__).resolve().parents[2] / "docs" / "terrain.md"
    text = doc_path.read_text(encoding="utf-8")
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    table = load_table(example, "docs/terrain.md")
    assert len(table.pieces) == 5 and len(table.objectives) == 3
    assert table_to_json(table) == example
