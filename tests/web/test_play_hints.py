"""What the play page draws when a person clicks a unit, before choosing: how far it could
move with each of its moves (the engine's allowance around each model, on the table, less
what difficult and impassable terrain take away)."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from shapely.geometry import Point, Polygon

from oprlab.game import gff
from oprlab.game.actions import Kind
from oprlab.samples import sample_text
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.units.model import Rule, Unit
from oprlab.units.rule_scope import unit_rule
from oprlab.web import engine, views
from oprlab.web.gamefile import GameSetup
from oprlab.web.reach import reach_areas


def _polygons(d: str, depth: float) -> list[Polygon]:
    """The rings of an SVG path ``M x,y L x,y ... Z`` back in table inches (y up)."""
    rings = []
    for part in d.split("M")[1:]:
        xy = [tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", part)]
        rings.append(Polygon([(x, depth - y) for x, y in xy]))
    return rings


def _inside(rings: list[Polygon], p: Point) -> bool:
    """Even-odd: inside the area when inside an odd number of its rings (holes included)."""
    return sum(bool(ring.contains(p)) for ring in rings) % 2 == 1


def _first_activation(seed: int) -> tuple[engine.Recorded, dict[str, Any]]:
    setup = GameSetup(
        sample_text("gff/shooty-150.txt"),
        sample_text("gff/melee-150.txt"),
        commander_a="person",
        commander_b="random",
        seed=seed,
    )
    game = engine.start(setup)
    engine.advance(game, until_person=True)
    for _ in range(60):
        view = views.play_view(game)
        if view["reach"]:
            return game, view
        game.step(game.rules.legal_actions(game.state)[0])
        engine.advance(game, until_person=True)
    pytest.fail("no activation with a move")


def test_reach_is_the_rulebook_allowance_around_each_model() -> None:
    """seed 003 "Actions": Advance 6", Rush 12" (and Charge 12"); "Fast": +2" / +4",
    "Slow": -2" / -4". A point just inside the allowance of one model is in the drawn area,
    one just outside every model's is not."""
    game, view = _first_activation(4)
    depth = game.state.table.depth
    assert view["reach"]
    for uid, areas in view["reach"].items():
        us = game.state.units[uid]
        fast, slow = unit_rule(us.unit, "Fast"), unit_rule(us.unit, "Slow")
        want = {
            "advance": 6 + 2 * bool(fast) - 2 * bool(slow),
            "rush": 12 + 4 * bool(fast) - 4 * bool(slow),
            "charge": 12 + 4 * bool(fast) - 4 * bool(slow),
        }
        offered = {a["action"]["kind"] for a in view["actions"] if a["unit"] == uid}
        assert {r["kind"] for r in areas} == offered & set(want)
        for r in areas:
            assert r["inches"] == want[r["kind"]]
            rings = _polygons(r["d"], depth)
            centres = us.placement.centres[us.placement.alive]
            for cx, cy in centres:
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    step = r["inches"] - 0.1
                    inside = Point(cx + dx * step, cy + dy * step)
                    if 0 < inside.x < game.state.table.width and 0 < inside.y < depth:
                        assert _inside(rings, inside)
            beyond = Point(centres[:, 0].max() + r["inches"] + 0.5, centres[:, 1].mean())
            assert not _inside(rings, beyond)


def _wwpd_movement() -> tuple[engine.Recorded, dict[str, Any]]:
    setup = GameSetup(
        sample_text("wwpd/colonial.yaml"),
        sample_text("wwpd/colonial.yaml"),
        system="wwpd",
        mechanic="wwpd",
        commander_a="person",
        commander_b="random",
        seed=3,
    )
    game = engine.start(setup)
    engine.advance(game, until_person=True)
    for _ in range(80):
        view = views.play_view(game)
        if view["reach"]:
            return game, view
        game.step(game.rules.legal_actions(game.state)[0])
        engine.advance(game, until_person=True)
    pytest.fail("no WWPD move offered")


def test_wwpd_units_show_their_move() -> None:
    """WWPD's Movement phase: a unit moves up to its move distance (6\", the game's option:
    seed 004 gives no distance; docs/rules/wwpd.md); the area is that distance around each
    model."""
    game, view = _wwpd_movement()
    depth = game.state.table.depth
    for uid, areas in view["reach"].items():
        assert [r["kind"] for r in areas] == ["move"]
        (r,) = areas
        assert r["inches"] == game.state.options.move == 6.0
        rings = _polygons(r["d"], depth)
        centres = game.state.units[uid].placement.centres
        cx, cy = centres[:, 0].max(), centres[:, 1].mean()
        assert not _inside(rings, Point(cx + 6.5, cy))
        inside = Point(cx + 5.5, cy)
        if inside.x < game.state.table.width:
            assert _inside(rings, inside)


# --- difficult and impassable terrain (seed 003 "Difficult Terrain") ----------------------------


def _state(unit: Unit, pieces: tuple[TerrainPiece, ...]) -> tuple[Any, list[Any]]:
    """A table with one one-model unit at (10, 24) and ``pieces``, and its Rush offered."""
    us = SimpleNamespace(
        unit=unit, on_table=True, placement=Placement(np.array([[10.0, 24.0]]), np.array([0.5]))
    )
    state = SimpleNamespace(
        table=Table(48.0, 48.0, pieces=pieces),
        units={"A1": us},
        rules=SimpleNamespace(move_allowance=gff.move_allowance),
    )
    return state, [SimpleNamespace(kind=Kind.RUSH, unit="A1")]


#: A wood 2" deep across the way east, from x = 13 to 15 (3" to 5" from the model).
WOOD = TerrainPiece(
    "Wood",
    ((13.0, 14.0), (15.0, 14.0), (15.0, 34.0), (13.0, 34.0)),
    frozenset({TerrainType.DIFFICULT}),
)
ROCK = TerrainPiece(
    "Rock",
    ((4.0, 22.0), (6.0, 22.0), (6.0, 26.0), (4.0, 26.0)),
    frozenset({TerrainType.IMPASSABLE}),
)


def _rush(unit: Unit, pieces: tuple[TerrainPiece, ...]) -> list[Polygon]:
    state, actions = _state(unit, pieces)
    (area,) = reach_areas(state, actions)["A1"]
    assert area["kind"] == "rush" and area["inches"] == 12.0
    return _polygons(area["d"], 48.0)


def test_difficult_terrain_caps_the_move_at_six_inches() -> None:
    """seed 003 "Difficult Terrain": "Units moving through difficult terrain at any point
    can't move more than 6\" at a time in total". Rush is 12\" (seed 003 "Actions"): 11\"
    west in the open is reached, 11\" east through the wood is not, 5.5\" east (into the
    wood, within 6\") is; 11\" north-east, past the wood's end, is reached in the open."""
    rings = _rush(Unit("Squad", 4, 4, 1), (WOOD,))
    assert _inside(rings, Point(10 - 11, 24)) is False  # off the table: x < 0
    assert _inside(rings, Point(10 - 9.5, 24))
    assert not _inside(rings, Point(10 + 11, 24))
    assert not _inside(rings, Point(10 + 7, 24))
    assert _inside(rings, Point(10 + 5.5, 24))
    assert _inside(rings, Point(10 + 2.0, 24 + 11.0))  # north of the wood's end (y > 34.5)


def test_strider_ignores_difficult_terrain() -> None:
    """seed 003 "Strider": "May ignore the effects of difficult terrain when moving"."""
    rings = _rush(Unit("Striders", 4, 4, 1, rules=(Rule("Strider"),)), (WOOD,))
    assert _inside(rings, Point(10 + 11, 24))


def test_a_unit_in_difficult_terrain_moves_six_inches_at_most() -> None:
    """Moving out of difficult terrain is moving through it: 6\" in every direction."""
    state, actions = _state(Unit("Squad", 4, 4, 1), (WOOD,))
    state.units["A1"].placement = Placement(np.array([[14.0, 24.0]]), np.array([0.5]))
    rings = _polygons(reach_areas(state, actions)["A1"][0]["d"], 48.0)
    assert _inside(rings, Point(14 - 5.9, 24)) and not _inside(rings, Point(14 - 6.5, 24))


def test_impassable_terrain_is_never_reached() -> None:
    rings = _rush(Unit("Squad", 4, 4, 1), (ROCK,))
    assert not _inside(rings, Point(5.0, 24.0))
    assert _inside(rings, Point(8.0, 24.0))
