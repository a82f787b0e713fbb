"""GFF moving (seed 003): move allowances, a unit's move along its path, and the Dangerous
Terrain rolls of its models as it activates in it or moves across it.

May import ``oprlab.rules.gff``, ``oprlab.table``, ``oprlab.units``, ``oprlab.mechanics``,
``oprlab.memo`` and ``oprlab.game``'s state, activation, geometry, gff_losses and gff_setup.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from oprlab.game import activation
from oprlab.game import geometry as geo
from oprlab.game.actions import Kind
from oprlab.game.gff_losses import _apply_result
from oprlab.game.gff_setup import options_of
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.mechanics import Check, Test
from oprlab.memo import game_memo
from oprlab.rules.gff.attack import (
    Situation,
)
from oprlab.rules.gff.profile import defender_profile
from oprlab.rules.gff.resolve import finish
from oprlab.rules.gff.wounds import take_wounds
from oprlab.table.model import Placement, Point
from oprlab.table.movement import dangerous_terrain_checks
from oprlab.units.model import Unit
from oprlab.units.rule_scope import unit_rule

#: :func:`move_allowance` by the unit's identity (a frozen Unit's hash walks every field): each
#: entry holds its unit, so the id cannot be reused while the entry is there.
_ALLOWANCES: dict[tuple[int, Kind], tuple[Unit, float]] = game_memo("game.gff_moving._ALLOWANCES")


def move_allowance(unit: Unit, kind: Kind) -> float:
    """Advance 6", Rush/Charge 12"; Fast +2"/+4", Slow -2"/-4" (seed 003)."""
    found = _ALLOWANCES.get((id(unit), kind))
    if found is not None and found[0] is unit:
        return found[1]
    if len(_ALLOWANCES) >= 4096:
        _ALLOWANCES.clear()
    inches = _move_allowance(unit, kind)
    _ALLOWANCES[(id(unit), kind)] = (unit, inches)
    return inches


@lru_cache(maxsize=4096)
def _move_allowance(unit: Unit, kind: Kind) -> float:
    base = {Kind.ADVANCE: 6.0, Kind.RUSH: 12.0, Kind.CHARGE: 12.0}.get(kind, 0.0)
    if not base:
        return 0.0
    fast = 2.0 if kind is Kind.ADVANCE else 4.0
    if unit_rule(unit, "Fast"):
        base += fast
    if unit_rule(unit, "Slow"):
        base -= fast
    return base


def _begin(state: GameState, us: UnitState) -> None:
    """Count the activation (once: a cast and the action after it are one activation)."""
    if state.phase == Phase.ACT:
        state.pending = None
        state.phase = Phase.ACTIVATION
        return
    activation.count_activation(state, us)
    _dangerous_start(state, us)


def _dangerous_start(state: GameState, us: UnitState) -> None:
    """Seed 003 "Dangerous Terrain": models "that activate in it" roll at the activation's
    start (Flying too: it ignores terrain only "whilst moving"). Under ``dangerous="once"``
    those models do not roll again for moving across it in this activation."""
    assert us.placement is not None
    checks = dangerous_terrain_checks(state.table, us.placement, None, system="gff")
    if not checks:
        return
    touching = np.zeros(len(us.placement.radii), dtype=np.bool_)
    touching[[c.owner.model for c in checks]] = True
    state.rolled_in = (us.uid, state.activations, touching)
    _dangerous(state, us, len(checks), cause="activation")


def _move(
    state: GameState,
    us: UnitState,
    to: Point,
    allowance: float,
    event: str,
    *,
    may_touch: Placement | None = None,
) -> None:
    """Move a unit along its path (terrain-aware), then roll for dangerous terrain."""
    assert us.placement is not None
    start = us.placement
    before = geo.centroid(start)
    outcome = geo.move_unit_toward(
        state.table,
        start,
        state.placements_except(us.uid),
        to,
        allowance,
        may_touch=may_touch,
        unit=us.unit,
        system="gff",
    )
    us.placement = outcome.placement
    after = geo.centroid(us.placement)
    state.log.add(
        event,
        unit=us.uid,
        distance=round(math.dist(before, after), 3),
        path=round(outcome.advanced, 3),
    )
    _dangerous_crossed(state, us, start, outcome.dangerous)


def _dangerous_crossed(
    state: GameState, us: UnitState, start: Placement, dangerous: np.ndarray, cause: str = "move"
) -> None:
    """Seed 003 "Dangerous Terrain": models "moving across" it roll (not Flying ones); under
    ``dangerous="once"`` not those that rolled as the unit activated."""
    crossed = np.asarray(dangerous, dtype=np.bool_)
    rolled = state.rolled_in
    once = options_of(state).dangerous == "once"
    if once and rolled is not None and rolled[0] == us.uid and rolled[1] == state.activations:
        crossed = crossed & ~rolled[2]  # one roll per model per activation
    if crossed.any() and not unit_rule(us.unit, "Flying"):
        _dangerous(state, us, int((crossed & start.alive).sum()), cause)


def _dangerous(state: GameState, us: UnitState, models: int, cause: str = "move") -> None:
    """Seed 003 "Dangerous Terrain": each model rolls one die (Tough: that many); a 1 wounds."""
    if models <= 0:
        return
    roller = state.dice
    check = Check(Test.GENERIC, 2, owner=us.owner)
    wounds = sum(not roller.roll(check).success for _ in range(models * us.unit.tough))
    event = {"cause": cause} if cause != "move" else {}  # (moving: as logged before)
    state.log.add("dangerous", unit=us.uid, dice=models * us.unit.tough, wounds=wounds, **event)
    if wounds:
        d = defender_profile(us.unit, models=us.models, markers=us.markers, shaken=us.shaken)
        situation = Situation(defender=us.owner)
        result = finish(d, take_wounds(d, [], wounds), wounds, 0, situation, roller)
        _apply_result(state, us, result, us)
