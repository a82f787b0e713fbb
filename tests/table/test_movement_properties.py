"""Invariants of moving units, on random tables (hypothesis): bases never overlap, no model ends
in impassable terrain, a coherent unit stays coherent, nobody moves further than allowed along
its path, and the same inputs give the same move."""

from __future__ import annotations

from typing import Any

import numpy as np
import shapely
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from oprlab.table.charge import can_charge, charge_move
from oprlab.table.formation import gaps, is_coherent, overlaps, place_in_zone, spacing_ok
from oprlab.table.model import Table, TerrainPiece, TerrainType
from oprlab.table.movement import MoveRules, move_unit

T = TerrainType
KINDS = (
    frozenset({T.IMPASSABLE}),
    frozenset({T.DIFFICULT, T.COVER}),
    frozenset({T.DANGEROUS}),
    frozenset({T.ELEVATED}),
)


def random_table(seed: int, pieces: int) -> Table:
    """Rectangles (some rotated) of impassable, difficult, dangerous and elevated terrain
    between the deployment zones."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(pieces):
        w, h = rng.uniform(1.5, 8.0, size=2)
        cx, cy = rng.uniform(4, 44), rng.uniform(14, 34)
        angle = rng.uniform(0, np.pi)
        corners = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        pts = corners @ rot.T + (cx, cy)
        kind = KINDS[int(rng.integers(len(KINDS)))]
        height = float(rng.choice([2.0, 3.0, 5.0])) if T.ELEVATED in kind else 0.0
        outline = tuple((float(x), float(y)) for x, y in pts)
        out.append(TerrainPiece(f"piece {i}", outline, kind, height))
    return Table(pieces=tuple(out))


def impassable(table: Table) -> list[shapely.Polygon]:
    return [shapely.Polygon(p.outline) for p in table.pieces if p.has(T.IMPASSABLE)]


scenario = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10_000),
        "pieces": st.integers(0, 10),
        "size": st.integers(1, 10),
        "radius": st.sampled_from([0.5, 0.63]),
        "goal": st.tuples(st.floats(0, 48), st.floats(0, 48)),
        "allow": st.sampled_from([3.0, 6.0, 12.0, 16.0]),
        "system": st.sampled_from(["gff", "riverside"]),
        "strider": st.booleans(),
        "flying": st.booleans(),
        "middle": st.booleans(),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario)
def test_move_invariants(s: dict[str, Any]) -> None:
    """Every move ends legal: no overlaps (any units), 1" from other units, no base in
    impassable terrain, in cohesion; each path starts and ends at the model and is no longer
    than the allowance; the same inputs give the same move."""
    table = random_table(int(s["seed"]), int(s["pieces"]))
    size, radius = int(s["size"]), float(s["radius"])
    system = str(s["system"])
    rng = np.random.default_rng(int(s["seed"]))
    enemy = place_in_zone(table, 5, 0.5, (0.0, 36.0, 48.0, 48.0), [], rng, system=system)
    assert enemy is not None
    others = [enemy]
    if s["middle"]:
        mid = place_in_zone(table, 3, 0.5, (0.0, 16.0, 48.0, 32.0), others, rng, system=system)
        if mid is not None:
            others.append(mid)
    u = place_in_zone(table, size, radius, (0.0, 0.0, 48.0, 12.0), others, rng, system=system)
    assume(u is not None)
    assert u is not None
    rules = MoveRules(system=system, strider=bool(s["strider"]), flying=bool(s["flying"]))
    allow = float(s["allow"])
    goal = s["goal"]
    r = move_unit(table, u, others, goal, allow, rules=rules)
    new = r.placement

    assert not overlaps([new, *others])
    assert spacing_ok(new, others)
    for c, rr in zip(new.centres, new.radii, strict=True):
        for poly in impassable(table):
            assert shapely.distance(shapely.Point(c), poly) >= rr - 1e-6
        assert rr - 1e-9 <= c[0] <= table.width - rr + 1e-9
        assert rr - 1e-9 <= c[1] <= table.depth - rr + 1e-9
    assert is_coherent(u, system)
    assert is_coherent(new, system) and r.coherent
    assert (r.path_lengths <= allow + 1e-9).all()
    if r.difficult:
        assert (r.path_lengths <= rules.difficult_cap + 1e-9).all()
    for k, pts in enumerate(r.paths):
        arr = np.array(pts)
        assert np.allclose(arr[0], u.centres[k]) and np.allclose(arr[-1], new.centres[k])
        length = float(np.hypot(*(arr[1:] - arr[:-1]).T).sum()) if len(arr) > 1 else 0.0
        assert length <= r.path_lengths[k] + 1e-9
        if len(arr) > 1 and not rules.flying:
            line = shapely.LineString(arr)
            for poly in impassable(table):
                assert shapely.distance(line, poly) >= radius - 0.05

    again = move_unit(table, u.copy(), [o.copy() for o in others], goal, allow, rules=rules)
    assert np.array_equal(again.placement.centres, new.centres)
    assert again.paths == r.paths


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(0, 8), st.integers(1, 8), st.floats(4.0, 14.0))
@example(5, 1, 3, 4.5)  # a target by difficult terrain, reached round it (the 6" cap)
def test_charge_invariants(seed: int, pieces: int, size: int, distance: float) -> None:
    """A legal charge puts at least one model in base contact, overlaps nothing, and no model
    moves further than the charge allowance along its path."""
    table = random_table(seed, pieces)
    rng = np.random.default_rng(seed)
    attacker = place_in_zone(table, size, 0.5, (0.0, 0.0, 48.0, 12.0), [], rng)
    assume(attacker is not None)
    assert attacker is not None
    front = float(attacker.centres[:, 1].max())
    zone = (0.0, front + distance, 48.0, min(48.0, front + distance + 6.0))
    assume(zone[3] - zone[1] > 2.0)
    target = place_in_zone(table, 3, 0.5, zone, [attacker], rng)
    assume(target is not None)
    assert target is not None
    if not can_charge(table, attacker, target, 12.0):
        return
    r = charge_move(table, attacker, target, [], 12.0)
    assert r.in_contact.any()
    assert not overlaps([r.placement, target])
    assert (r.move.path_lengths <= 12.0 + 1e-9).all()
    g = gaps(r.placement.centres, r.placement.radii, target.centres, target.radii)
    assert g.min() >= -1e-9
    for c in r.placement.centres:
        for poly in impassable(table):
            assert shapely.distance(shapely.Point(c), poly) >= 0.5 - 1e-6
