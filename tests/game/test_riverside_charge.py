"""Riverside's Charge Action listing and move allowances (seed 002_fdb385c07cc953af "Activation
Actions", "Charge Action"): the answers kept for speed are the answers worked out afresh."""

from __future__ import annotations

from oprlab.game import geometry as geo
from oprlab.game import riverside_charge
from oprlab.game.actions import Kind
from oprlab.table.movement import unit_allowance
from oprlab.units.load import parse_army
from oprlab.units.model import Unit


def squad(rules: str) -> Unit:
    text = f"++ Test [GFF 150pts] ++\n\nSquad [5] Q4+ D4+ | 20pts | {rules}\n5x Knife (A1)\n"
    return parse_army(text, "test").units[0]


def test_move_allowances_are_remembered_by_unit_and_action() -> None:
    """seed 002 "Activation Actions": Advance 6", Rush and Charge 12" (Fast and Slow as in
    GFF); Hold and the rest move nothing. Each answer is kept by the unit's and the action's
    identity (the commanders ask it thousands of times a game) and is the one worked out."""
    fast, slow = squad("Fast"), squad("Slow")
    for unit in (fast, slow, squad("")):
        for kind in Kind:
            want = unit_allowance(unit, kind.value) if kind in riverside_charge._MOVES else 0.0
            assert riverside_charge.move_allowance(unit, kind) == want
            assert riverside_charge._ALLOWANCE[(id(unit), id(kind))] == (unit, want)
    assert riverside_charge.move_allowance(fast, Kind.ADVANCE) == 8.0
    assert riverside_charge.move_allowance(slow, Kind.CHARGE) == 8.0
    assert riverside_charge.move_allowance(fast, Kind.HOLD) == 0.0


def test_a_remembered_charge_knows_the_bases() -> None:
    """Contact is base to base ("Charge Action": move into base contact), so the charge memo
    tells apart two placements at the same centres with other bases."""
    import numpy as np

    from oprlab.table.model import Placement

    at = np.array([(10.0, 10.0), (11.5, 10.0)])
    small = Placement(at, np.array([0.5, 0.5]))
    large = Placement(at.copy(), np.array([0.75, 0.75]))
    assert geo.gap_key(small) != geo.gap_key(large)  # the charge memo's key of a placement
    assert geo.gap_key(small) == geo.gap_key(small.copy())
