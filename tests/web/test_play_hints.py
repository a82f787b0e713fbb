"""What the play page draws when a person clicks a unit, before choosing: how far it could
move with each of its moves (the engine's allowance around each model, on the table)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from shapely.geometry import Point, Polygon

from oprlab.samples import sample_text
from oprlab.units.rule_scope import unit_rule
from oprlab.web import engine, views
from oprlab.web.gamefile import GameSetup


def _polygons(d: str, depth: float) -> list[Polygon]:
    """The rings of an SVG path ``M x,y L x,y ... Z`` back in table inches (y up)."""
    rings = []
    for part in d.split("M")[1:]:
        xy = [tuple(map(float, p.split(","))) for p in re.findall(r"[-\d.]+,[-\d.]+", part)]
        rings.append(Polygon([(x, depth - y) for x, y in xy]))
    return rings


def _inside(rings: list[Polygon], p: Point) -> bool:
    """Even-odd: inside the area when inside an odd number of its rings (holes included)."""
    return sum(ring.contains(p) for ring in rings) % 2 == 1


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


def test_a_system_without_allowances_draws_no_reach() -> None:
    """WWPD's moves are the engine's points only (no allowance is asked of its rules)."""
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
    view = views.play_view(game)
    assert view["reach"] == {} and view["actions"]
