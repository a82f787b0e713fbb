"""GFF's shooting sight taken short (issue 13) must give the traced answer (seed 003 "Line of
Sight": only sight-blocking terrain hides a model, models never block; "Shooting": models in
range and line of sight may fire, Indirect weapons need no sight): on a table without a
sight-blocking piece nothing is traced, the sight memo is kept while other units move, and a
weapon's reach is read from the nearest seeing model."""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.game import geometry as geo
from oprlab.game import gff_shooting
from oprlab.game.state import GameState, UnitState
from oprlab.samples import sample_path
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from oprlab.units.model import Rule, Weapon
from tests.game import enemy_pairs, walk_states


def _traced(state: GameState, us: UnitState, target: UnitState) -> np.ndarray:
    """The slow path: every sight line traced, the other units passed."""
    assert us.placement is not None and target.placement is not None
    return geo.sees(
        state.table,
        us.placement,
        target.placement,
        gff_shooting.others(state, us, target),
        system="gff",
    )


def _slow_reach(state: GameState, us: UnitState, target: UnitState) -> dict[str, bool]:
    """``type_reach`` from each weapon's firing models (the arrays, model by model)."""
    look = gff_shooting.Sight(
        _traced(state, us, target),
        geo.model_gaps(us.placement, target.placement),  # type: ignore[arg-type]
    )
    out: dict[str, bool] = {}
    for w in gff_shooting.ranged_weapons(us.unit):
        out[w.name] = out.get(w.name, False) or bool(look.firing(us.unit, w).any())
    return out


def _states(terrain: bool, seeds: range) -> list[GameState]:
    return walk_states("gff", terrain, seeds, rng_seed=11, steps=120)


@pytest.mark.parametrize("terrain", [False, True])
def test_the_sight_and_the_reach_are_the_traced_ones(terrain: bool) -> None:
    """Every (shooter, enemy) pair of every activation state: ``seeing``, the memoised
    ``sight`` and ``type_reach`` equal the full trace. On generated tables some models are
    hidden (so a shortcut taken there would fail), on the open table none is."""
    hidden = compared = 0
    for state in _states(terrain, range(2)):
        for us, e in enemy_pairs(state):
            traced = _traced(state, us, e)
            assert np.array_equal(gff_shooting.seeing(state, us, e), traced)
            look = gff_shooting.sight(state, us, e)
            assert np.array_equal(look.sees, traced)
            assert gff_shooting.type_reach(state, us, e) == _slow_reach(state, us, e)
            assert us.placement is not None
            hidden += int((us.placement.alive & ~traced).sum())
            compared += 1
    assert compared > 100
    assert (hidden > 0) == terrain


def test_a_sight_is_kept_while_other_units_move_and_stays_right() -> None:
    """The sight memo is keyed on the two units only: another unit moving (into the line
    too) keeps the answer, which is still the traced one, on a table with terrain."""
    state = next(s for s in _states(True, range(1)) if len(enemy_pairs(s)) >= 6)
    us, target = enemy_pairs(state)[0]
    rest = [u for u in state.units.values() if u is not us and u is not target and u.on_table]
    gff_shooting._SIGHTS.clear()
    first = gff_shooting.sight(state, us, target)
    assert us.placement is not None and target.placement is not None
    middle = (us.placement.centres.mean(axis=0) + target.placement.centres.mean(axis=0)) / 2
    for u in rest:
        assert u.placement is not None
        u.placement.centres[:] += middle - u.placement.centres.mean(axis=0)
        again = gff_shooting.sight(state, us, target)
        assert again is first
        assert np.array_equal(again.sees, _traced(state, us, target))
    target.placement.centres[:, 1] += 3.0
    assert gff_shooting.sight(state, us, target) is not first


def test_a_table_without_sight_blockers_is_not_traced(monkeypatch: pytest.MonkeyPatch) -> None:
    state = _states(False, range(1))[-1]
    us, e = enemy_pairs(state)[0]

    def traced(*args: object, **kw: object) -> np.ndarray:
        raise AssertionError("traced")

    monkeypatch.setattr(geo, "sees", traced)
    assert not gff_shooting.blocks_sight(state.table)
    assert us.placement is not None
    assert np.array_equal(gff_shooting.seeing(state, us, e), us.placement.alive)
    assert gff_shooting.blocks_sight(generate_table(0))


@pytest.mark.parametrize("indirect", [False, True])
def test_a_weapon_reaches_exactly_where_a_model_may_fire_it(indirect: bool) -> None:
    """``Sight.reaches`` against ``Sight.firing``'s models on many made-up sights: distances
    at, just inside and just outside a range (the 1e-6 of "within"), removed models, models
    that do not see."""
    rng = np.random.default_rng(3)
    unit = load_army(sample_path("gff/shooty-300.txt")).units[0]
    assert not unit.has("Indirect")
    rules = (Rule("Indirect"),) if indirect else ()
    ranges = (6, 12, 24)
    checked = reached = 0
    for _ in range(3000):
        n = int(rng.integers(1, 6))
        r = ranges[int(rng.integers(len(ranges)))]
        near = [r - 1.0, r - 1e-7, float(r), r + 5e-7, r + 2e-6, r + 3.0, np.inf]
        distance = np.array([near[int(rng.integers(len(near)))] for _ in range(n)])
        sees = (rng.random(n) < 0.5) & np.isfinite(distance)
        look = gff_shooting.Sight(sees, distance)
        w = Weapon(name="Gun", attacks=1, range=r, rules=rules)
        want = bool(look.firing(unit, w).any())
        assert look.reaches(unit, w) == want
        checked += 1
        reached += want
    assert 0 < reached < checked
