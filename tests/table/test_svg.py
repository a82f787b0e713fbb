"""The SVG picture: valid XML in inches, terrain coloured by type, zones, markers, units;
deterministic bytes."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table.deploy import mission_table
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.svg import PRESET_COLOURS, piece_colour, table_svg
from oprlab.table.terrain import make_piece

NS = {"s": "http://www.w3.org/2000/svg"}
NUMBER = re.compile(r"-?\d+(\.\d{1,3})?")


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def group(root: ET.Element, gid: str) -> ET.Element:
    found = root.find(f"s:g[@id='{gid}']", NS)
    assert found is not None, gid
    return found


def test_view_box_is_the_table_in_inches() -> None:
    root = parse(table_svg(Table(width=44, depth=30)))
    assert root.get("viewBox") == "0 0 44 30"


def test_every_piece_drawn_with_its_preset_colour_and_flipped_y() -> None:
    table = mission_table(5)
    root = parse(table_svg(table))
    polygons = group(root, "terrain").findall("s:polygon", NS)
    assert len(polygons) == len(table.pieces)
    for poly, piece in zip(polygons, table.pieces, strict=True):
        assert poly.get("fill") == PRESET_COLOURS[piece.preset or ""]
        first = poly.get("points", "").split()[0].split(",")
        x, y = piece.outline[0]
        assert (float(first[0]), float(first[1])) == (round(x, 3), round(48 - y, 3))
        title = poly.find("s:title", NS)
        assert title is not None and piece.name in (title.text or "")


def test_custom_pieces_are_coloured_by_their_most_telling_type() -> None:
    rock = TerrainPiece("Rock", ((0, 0), (1, 0), (0, 1)), frozenset({TerrainType.IMPASSABLE}))
    mud = TerrainPiece("Mud", ((0, 0), (1, 0), (0, 1)), frozenset({TerrainType.DIFFICULT}))
    flat = TerrainPiece("Flat", ((0, 0), (1, 0), (0, 1)), frozenset())
    assert len({piece_colour(rock), piece_colour(mud), piece_colour(flat)}) == 3


def test_zones_markers_and_units() -> None:
    table = mission_table(6)
    squad = Placement(np.array([[20.0, 5.0], [21.5, 5.0], [23.0, 5.0]]), np.full(3, 0.5))
    squad.removed = np.array([False, False, True])
    hero = Placement(np.array([[24.0, 43.0]]), np.array([0.63]))
    root = parse(table_svg(table, {"Dust <Wardens> & co": squad, "Captain": hero}))
    zones = group(root, "zones").findall("s:rect", NS)
    assert [(z.get("y"), z.get("height")) for z in zones] == [("36", "12"), ("0", "12")]
    markers = group(root, "objectives").findall("s:circle", NS)
    assert len(markers) == 2 * len(table.objectives)
    units = group(root, "units").findall("s:g", NS)
    assert [len(u.findall("s:circle", NS)) for u in units] == [2, 1]
    labels = [t.text for t in group(root, "units").iter("{http://www.w3.org/2000/svg}text")]
    assert labels == ["Dust <Wardens> & co", "Captain"]
    circle = units[1].find("s:circle", NS)
    assert circle is not None and circle.get("r") == "0.63"
    assert parse(table_svg(table, zones=False)).find("s:g[@id='zones']", NS) is None


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_same_table_same_bytes(seed: int) -> None:
    """Same seed, byte-identical picture: no timestamps, fixed number format."""
    a = table_svg(mission_table(seed))
    assert a == table_svg(mission_table(seed))
    for element in parse(a).iter():
        for name, value in element.attrib.items():
            for token in re.split(r"[ ,]", value):
                if token[:1].isdigit() or token[:1] == "-":
                    assert NUMBER.fullmatch(token) and token != "-0", (name, token)


def test_numbers_have_at_most_three_decimals() -> None:
    piece = make_piece("Tiny", [(1 / 3, 2 / 3), (1.0000001, 0.5), (0.5, 1e-12)], "ruins")
    text = table_svg(Table(pieces=(piece,)))
    assert 'points="0.333,47.333 1,47.5 0.5,48"' in text
