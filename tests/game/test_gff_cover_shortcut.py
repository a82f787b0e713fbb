"""The GFF shot's cover check taken short on an open table (issue 13) must give the full check's
answer (seed 003 "Cover Terrain": cover is terrain's, most shooting models seeing the target in
or behind it; models never block), or a house rule's fortifying: no sight line is traced on a
table without terrain, and with terrain (where some targets have cover) the lines are traced."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from oprlab.game import geometry as geo
from oprlab.game import gff, gff_fire, gff_shooting
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, Objective, Phase, UnitState
from oprlab.game.systems import find_system
from oprlab.samples import sample_path
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army


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
    """States along games of random legal actions, shooty against melee."""
    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    rng = np.random.default_rng(5)
    rules = find_system(system)
    out: list[GameState] = []
    for seed in seeds:
        state = rules.new_game(a, b, seed=seed)
        assert isinstance(state, GameState)
        state.table = generate_table(seed) if terrain else Table()
        steps = 0
        while not state.done and steps < 150:
            actions = gff.legal_actions(state)
            if state.phase == Phase.ACTIVATION:
                out.append(state.clone())
            gff.apply(state, actions[int(rng.integers(len(actions)))])
            steps += 1
    return out


def _pairs(state: GameState) -> list[tuple[UnitState, UnitState]]:
    placed = [u for u in state.units.values() if u.on_table and u.placement is not None]
    return [(u, e) for u in placed for e in placed if u.side != e.side]


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
        for (us, e), indirect in itertools.product(_pairs(state), (False, True)):
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
    assert not any(gff_fire.target_in_cover(state, us, e) for us, e in _pairs(state))
    state.table = generate_table(0)
    with pytest.raises(AssertionError, match="traced"):
        gff_fire.target_in_cover(state, *_pairs(state)[0])


def test_a_fortified_unit_has_cover_on_an_open_table() -> None:
    """Fortifications (a house rule) gives cover near a marker its side holds, terrain or not;
    the shortcut must still ask it."""
    state = _states("gff+fortifications", False, range(1))[0]
    us, them = _pairs(state)[0]
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
    us, them = _pairs(state)[0]
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
