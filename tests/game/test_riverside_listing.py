"""The listing of Riverside's legal actions (issue 13's speed): each decision's markers and
enemies read once (``activation.Foes``), charges and the units in their way measured only where
the bounding circles allow, the units' actions put in canonical order without sorting the whole
listing. Every answer must be the one the plain listing gives: seed 002 "Activation Actions"
(every unit may Hold, Advance, Rush, Charge or Idle) and "Charge Action" (a target some model
can reach base contact with). The straight lines a charge tries are remembered by the charger
and target alone; only the 1" from other units is asked again."""

from __future__ import annotations

import numpy as np

from oprlab.game import activation, riverside, riverside_charge
from oprlab.game import geometry as geo
from oprlab.game.actions import Kind
from oprlab.game.opr.hooks import OprRules
from oprlab.game.state import GameState, Phase
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table import charge as table_charge
from oprlab.table.model import Placement, Table
from oprlab.table.movement import MoveRules
from oprlab.units.load import load_army
from oprlab.units.rule_scope import any_has


def _plain_targets(state: GameState, uid: str) -> list[str]:
    """Charge targets as the rule reads, every unit measured by its models: each enemy in
    reach whose charge some model can make among every unit near enough to be in the way."""
    us = state.units[uid]
    unit = us.placement
    assert unit is not None
    if not any(w.melee for w in us.unit.weapons) and not any_has(us.unit, "Impact"):
        return []
    reach = riverside_charge.move_allowance(us.unit, Kind.CHARGE)
    margin = reach + geo.SPACING + 2 * float(unit.radii.max()) + 0.5
    near = [p for p in state.placements_except(uid) if geo._gap(unit, p) <= margin]
    out = []
    for e in state.enemies(us.side):
        target = e.placement
        assert target is not None
        if geo._gap(unit, target) > reach:
            continue
        others = [p for p in near if p is not target]
        if _plain_straight(state.table, unit, target, others, reach) or table_charge.can_charge(
            state.table,
            unit,
            target,
            reach,
            others,
            rules=MoveRules.of(us.unit, "riverside"),
            listing=True,
        ):
            out.append(e.uid)
    return sorted(out)


def _plain_straight(
    table: Table, unit: Placement, target: Placement, others: list[Placement], reach: float
) -> bool:
    """:func:`riverside_charge._straight_charge` worked out whole each time: each pair of
    models nearest first, a line on the table clear of the other units by 1" and of the
    target's other bases."""
    if table.pieces:
        return False
    clear = riverside_charge._segment_clear
    tc, tr = target.centres[target.alive], target.radii[target.alive]
    oc = [o.centres[o.alive] for o in others]
    orr = [o.radii[o.alive] for o in others]
    blocks_c = np.concatenate(oc) if oc else np.zeros((0, 2))
    blocks_r = np.concatenate(orr) if orr else np.zeros(0)
    ac, ar = unit.centres[unit.alive], unit.radii[unit.alive]
    d = np.linalg.norm(ac[:, None, :] - tc[None, :, :], axis=2) - ar[:, None] - tr[None, :]
    pairs = np.argwhere(d <= reach - riverside_charge._STRAIGHT_SLACK)
    order = np.argsort(d[pairs[:, 0], pairs[:, 1]], kind="stable")
    for i, j in pairs[order[: riverside_charge._STRAIGHT_TRIES]]:
        a, ra = ac[i], float(ar[i])
        v = a - tc[j]
        n = float(np.hypot(*v))
        if n < riverside_charge.EPS:
            continue
        spot = tc[j] + v / n * (tr[j] + ra + 0.01)
        if not (ra <= spot[0] <= table.width - ra and ra <= spot[1] <= table.depth - ra):
            continue
        if clear(a, spot, ra, blocks_c, blocks_r + geo.SPACING) and clear(
            a, spot, ra, np.delete(tc, j, axis=0), np.delete(tr, j) - riverside_charge.EPS
        ):
            return True
    return False


def test_every_activation_listing_is_the_plain_sorted_one() -> None:
    """A whole game with bennies (benny charges): at each activation the listing is the generic
    one (each unit's actions and Special Abilities, sorted), in the same order, and each unit's
    charge targets are the ones the plain measure gives."""
    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    state = riverside.new_game(a, b, seed=2, mechanic="clock-bennies")
    sides = [get_commander("rules", 2, system="riverside")]
    sides.append(get_commander("rules", 3, system="riverside"))
    rules = state.rules
    assert isinstance(rules, OprRules)
    checked = charges = 0
    while not state.done:
        actions = riverside.legal_actions(state)
        if state.phase == Phase.ACTIVATION:
            assert actions == OprRules.activation_actions(rules, state, state.active)
            foes = activation.Foes(state, state.active)
            for us in activation.can_activate(state, state.active):
                found = riverside_charge.charge_targets(state, us, foes)
                assert sorted(found) == _plain_targets(state, us.uid)
                charges += len(found)
            checked += 1
        riverside.apply(state, sides[state.active].choose(state, actions))
    assert checked > 20 and charges > 0
