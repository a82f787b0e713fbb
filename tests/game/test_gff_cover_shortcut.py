"""The GFF shot's cover check taken short on an open table (issue 13) must give the full check's
answer (seed 003 "Cover Terrain": cover is terrain's, most shooting models seeing the target in
or behind it; models never block), or a house rule's fortifying: no sight line is traced on a
table without terrain, and with terrain (where some targets have cover) the lines are traced."""

from __future__ import annotations

import itertools

import pytest

from oprlab.game import geometry as geo
from oprlab.game import gff_fire, gff_shooting
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, Objective, UnitState
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.terrain import generate_table
from tests.game import enemy_pairs, walk_states


def _full(state: GameState, us: UnitState, target: UnitState, *, indirect: bool) -> bool:
    """The check without the shortcut: a house rule's fortifying, else the traced lines."""
    assert us.placement is not None and target.placement is not None
    return opr_rules(state).fortified(state, target) or geo.in_cover(
        state.table,
        us.placement,
        target.placement,
        gff_shooting.others(state, us, target),
        system="gff",
        indirect=indirect,
    )


def _states(system: str, terrain: bool, seeds: range) -> list[GameState]:
    return walk_states(system, terrain, seeds, rng_seed=5, steps=150)


@pytest.mark.parametrize(
    ("system", "terrain"),
    [("gff", False), ("gff", True), ("gff+fortifications", False)],
)
def test_the_shortcut_gives_the_full_checks_answer(system: str, terrain: bool) -> None:
    """Every (shooter, enemy) pair of every activation state, Indirect or not: the same answer
    as the full check. On generated tables some targets have cover (a shortcut taken there
    would fail), and with Fortifications some dug-in ones on an open table (a shortcut that
    skipped the house rule would fail); plain GFF on an open table gives none."""
    covered = compared = 0
    for state in _states(system, terrain, range(2)):
        for (us, e), indirect in itertools.product(enemy_pairs(state), (False, True)):
            full = _full(state, us, e, indirect=indirect)
            assert gff_fire.target_in_cover(state, us, e, indirect=indirect) is full
            covered += full
            compared += 1
    assert compared > 100
    assert (covered > 0) == (terrain or system != "gff")


def test_an_open_table_traces_no_sight_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without terrain the check answers without ``geometry.in_cover``; with terrain it asks."""
    state = _states("gff", False, range(1))[-1]

    def traced(*_: object, **__: object) -> bool:
        raise AssertionError("traced sight lines on an open table")

    monkeypatch.setattr(geo, "in_cover", traced)
    assert not any(gff_fire.target_in_cover(state, us, e) for us, e in enemy_pairs(state))
    state.table = generate_table(0)
    with pytest.raises(AssertionError, match="traced"):
        gff_fire.target_in_cover(state, *enemy_pairs(state)[0])


def test_a_fortified_unit_has_cover_on_an_open_table() -> None:
    """Fortifications (a house rule) gives cover near a marker its side holds, terrain or not;
    the shortcut must still ask it."""
    state = _states("gff+fortifications", False, range(1))[0]
    us, them = enemy_pairs(state)[0]
    assert them.placement is not None
    centre = them.placement.centres.mean(axis=0)
    state.objectives = [Objective((float(centre[0]), float(centre[1])), controller=them.side)]
    assert gff_fire.target_in_cover(state, us, them)
    assert _full(state, us, them, indirect=False)
    state.objectives = [Objective((float(centre[0]), float(centre[1])), controller=us.side)]
    assert not gff_fire.target_in_cover(state, us, them)
    us.placement = None
    assert not gff_fire.target_in_cover(state, us, them)
    assert isinstance(them.placement, Placement)


def test_a_wood_that_hides_nothing_still_gives_cover() -> None:
    """A cover piece that blocks no sight (a table GFF's sight never traces) still covers the
    models fully inside it: the shortcut is for a table without any piece, not without sight
    blockers."""
    state = _states("gff", False, range(1))[-1]
    us, them = enemy_pairs(state)[0]
    assert them.placement is not None
    (x0, y0), (x1, y1) = (
        them.placement.centres.min(axis=0) - 2,
        them.placement.centres.max(axis=0) + 2,
    )
    wood = TerrainPiece(
        "Wood", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), frozenset({TerrainType.COVER})
    )
    state.table = Table(pieces=(wood,))
    assert not gff_shooting.blocks_sight(state.table)
    assert _full(state, us, them, indirect=False)
    assert gff_fire.target_in_cover(state, us, them)
