"""The listing of legal actions (issue 13's speed). GFF's activations: each decision's markers
and enemies read once (``activation.Foes``), charges measured only where the bounding circles
allow, the units' actions put in canonical order without sorting the whole listing; every
deployment: each unit's options sorted as plain tuples. Every answer must be the one the plain
listing gives: seed 003 "Playing the Game" (each unit may Hold, Advance, Rush or Charge),
"Charge" (a target within charge distance, base to base) and "Deployment"."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.game import activation, casting, gff, gff_shooting, gff_spells
from oprlab.game import geometry as geo
from oprlab.game.actions import Action, Kind, listed
from oprlab.game.gff_fight import charging
from oprlab.game.gff_moving import move_allowance
from oprlab.game.opr.hooks import DEPLOY_PHASES, OprRules, _deploy_actions
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table.model import Placement
from oprlab.units.load import load_army
from oprlab.units.model import Army
from oprlab.units.rule_scope import any_has
from tests.game import line


def _plain_targets(state: GameState, uid: str) -> list[str]:
    """Charge targets as the rule reads: every enemy whose closest models are in reach."""
    us = state.units[uid]
    assert us.placement is not None
    reach = move_allowance(us.unit, Kind.CHARGE)
    return sorted(
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None and geo._gap(us.placement, e.placement) <= reach
    )


def _plain_aims(state: GameState, uid: str, spell: casting.Spell) -> list[str]:
    """A spell's targets as the rule reads: every enemy in range (closest models) and sight."""
    us = state.units[uid]
    assert us.placement is not None
    return [
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None
        and geo._gap(us.placement, e.placement) <= spell.range
        and gff_shooting.seeing(state, us, e).any()
    ]


def _army(*names: str) -> Army:
    armies = [load_army(sample_path(f"gff/{n}.txt")) for n in names]
    units = tuple(u for a in armies for u in a.units)
    return Army(" and ".join(names), "GFF", sum(a.points for a in armies), units)


def test_every_activation_listing_is_the_plain_sorted_one() -> None:
    """A whole 600-point game with Casters and bennies (benny charges, spells; 13 units a side,
    so A10 sorts before A2): at each activation the listing is the generic one (each unit's
    actions and spells, sorted), in the same order, and each unit's charge targets are the
    ones every enemy's exact gap gives; at each deployment the listing is every unit's options
    sorted (seed 003 "Deployment")."""
    a, b = _army("shooty-300", "elite-300"), _army("melee-300", "horde-300")
    state = gff.new_game(a, b, seed=3, mechanic="clock-bennies")
    sides = [get_commander("rules", 3), get_commander("rules", 4)]
    checked = spells = charges = deployments = aimed = 0
    rules = state.rules
    assert isinstance(rules, OprRules)
    while not state.done:
        actions = gff.legal_actions(state)
        if state.phase == Phase.ACTIVATION:
            assert actions == OprRules.activation_actions(rules, state, state.active)
            foes = activation.Foes(state, state.active)
            for us in activation.can_activate(state, state.active):
                if not us.shaken and any(w.melee for w in us.unit.weapons):
                    found = gff.charge_targets(state, us, foes)
                    assert sorted(found) == _plain_targets(state, us.uid)
                    charges += len(found)
                if us.spell_tokens > 0:
                    for sp in casting.SPELLS:
                        aims = gff_spells.spell_targets(state, us, sp)
                        assert aims == _plain_aims(state, us.uid, sp)
                        aimed += len(aims)
            spells += sum(x.kind is Kind.CAST for x in actions)
            checked += 1
        elif state.phase in DEPLOY_PHASES:
            plain = [
                listed(Kind.DEPLOY, us.uid, to=pt, formation=k)
                for us in rules.to_deploy(state, state.active)
                for pt, k in rules.deploy_options(state, us)
            ]
            assert actions == sorted(plain, key=Action.sort_key)
            deployments += 1
        gff.apply(state, sides[state.active].choose(state, actions))
    assert checked > 20 and spells > 0 and charges > 0 and deployments > 10 and aimed > 0


def _placement(points: list[tuple[float, float]], radius: float, gone: int) -> Placement:
    removed = np.zeros(len(points), dtype=np.bool_)
    removed[: min(gone, len(points) - 1)] = True
    return Placement(np.array(points), np.full(len(points), radius), removed=removed)


_POINTS = st.lists(st.tuples(st.floats(0.0, 60.0), st.floats(0.0, 40.0)), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    _POINTS,
    _POINTS,
    st.sampled_from([0.5, 0.63, 1.0, 1.57]),
    st.sampled_from([0.5, 0.98, 1.2]),
    st.integers(0, 3),
)
def test_the_circles_gap_bounds_the_models_gap(
    first: list[tuple[float, float]],
    second: list[tuple[float, float]],
    r1: float,
    r2: float,
    gone: int,
) -> None:
    """What charge_targets skips on: the bounding circles' gap (less the margin) is never
    more than the closest models' gap, so no unit in reach is left out."""
    a, b = _placement(first, r1, gone), _placement(second, r2, 0)
    x, y, spread = geo.bounding_circle(a, geo.gap_key(a))
    u, v, their = geo.bounding_circle(b)
    bound = float(np.hypot(u - x, v - y)) - spread - their
    assert bound - geo.BOUND_MARGIN <= geo.gap(a, b)
    assert geo.keyed_gap(a, geo.gap_key(a), b, geo.gap_key(b)) == geo._gap(a, b)


def test_moves_benny_charges_and_spells_are_made_once() -> None:
    """The listing hands out the same objects each decision, equal to ones built afresh."""

    us = gff.new_game(line(), line(), seed=0).units["A1"]
    first = [listed(Kind.HOLD, "A1")]
    once = activation.unit_action_list(
        us, first, [(3.0, 4.0), (1.0, 9.0)], ["B2", "B1"], benny_charges=True
    )
    again = activation.unit_action_list(
        us, first, [(1.0, 9.0), (3.0, 4.0)], ["B1", "B2"], benny_charges=True
    )
    assert all(x is y for x, y in zip(once, again, strict=True))
    assert once == sorted(once, key=Action.sort_key)
    assert once[-1] == Action(Kind.CHARGE, "A1", target="B2", benny=True)
    spell = casting._cast("A7", "B1", "Bolt", 2, 1)
    assert spell is casting._cast("A7", "B1", "Bolt", 2, 1)
    assert spell == Action(Kind.CAST, "A7", target="B1", spell="Bolt", value=2, boost=1)


def test_the_ordered_goals_are_the_plain_sorted_ones() -> None:
    """``Foes.ordered_goals``: the listing's goals with a unit's way home, each point once and
    sorted, as ``sorted(dict.fromkeys(...))`` gives them: a home on a goal, a new home, goals
    twice."""
    state = gff.new_game(line(), line(), seed=0)
    foes = activation.Foes(state, 0)
    foes.goals = [(30.0, 20.0), (10.0, 5.0), (30.0, 20.0), (10.0, 40.0), (0.0, 24.0)]
    for home in [(10.0, 5.0), (10.0, 0.0), (72.0, 24.0), (0.0, 24.0), (-1.0, 0.0)]:
        got = foes.ordered_goals(home)
        assert got == sorted(dict.fromkeys([*foes.goals, home]))
    assert foes.ordered_goals((5.0, 5.0)) is not foes.ordered_goals((5.0, 6.0))


def test_a_units_charging_facts_are_read_from_its_profile() -> None:
    """``gff_fight.charging``, remembered by the unit: its charge move when it has a melee
    weapon or Impact (else ``None``), and whether it has a melee weapon."""
    a, b = _army("shooty-300", "elite-300"), _army("melee-300", "horde-300")
    for unit in (*a.units, *b.units):
        melee = any(w.melee for w in unit.weapons)
        reach = move_allowance(unit, Kind.CHARGE) if melee or any_has(unit, "Impact") else None
        assert charging(unit) == (reach, melee) == charging(unit)


def test_a_units_deploy_actions_are_the_plain_ones() -> None:
    """``hooks._deploy_actions`` hands a unit's last answer back only for the same options:
    each answer is the plain listing of its options, whatever was asked before."""
    first = [((4.0, 2.5), 0), ((8.0, 2.5), 0)]
    moved = [((4.0, 2.5), 0), ((8.0, 6.0), 3)]
    for uid, options in [("A1", first), ("A1", first), ("A1", moved), ("B1", first)]:
        plain = [listed(Kind.DEPLOY, uid, to=pt, formation=k) for pt, k in options]
        assert list(_deploy_actions(uid, list(options))) == plain
    asked = list(first)
    kept = _deploy_actions("A1", asked)
    asked.append(((12.0, 2.5), 0))  # the caller's list changed after: not the answer's
    assert len(_deploy_actions("A1", list(first))) == len(kept) == 2


def _plain_shots(state: GameState, uid: str) -> list[str]:
    """Shooting targets as the rule reads (seed 003 "Models in range and line of sight may
    fire"): every enemy some model may fire some ranged weapon at, asked afresh."""
    us = state.units[uid]
    assert us.placement is not None
    return [
        e.uid
        for e in state.enemies(us.side)
        if e.placement is not None and any(gff_shooting.type_reach(state, us, e).values())
    ]


def _plain_deploy_choice(state: GameState, actions: list[Action], shooting: Any) -> Action:
    """The deployment habit's place as ``min`` with a key an action gives it (no reach)."""
    from oprlab.game import gff_setup as edges

    table, edge = state.table, gff.edge_of(state, state.active)
    lateral = 0 if edges.along_y(edge) else 1
    targets = [o.position for o in state.objectives]

    def key(a: Action) -> float:
        assert a.to is not None
        depth = abs(edges.edge_distance(table, edge, a.to))
        forward = depth if shooting(state.units[a.unit].unit) else -depth
        return forward + 0.3 * min(abs(a.to[lateral] - t[lateral]) for t in targets)

    return min(actions, key=key)


def test_shooting_targets_and_the_deploy_habit_give_the_plain_answers() -> None:
    """``gff_shooting.shooting_targets`` remembers each enemy's answer by the table, the
    shooter's unit and the two positions: at every decision of a 600-point game, and with an
    enemy moved to a random spot, every unit's targets are the ones asked afresh; and
    ``gff_choices.deploy`` (its ``min`` written out) picks the place the plain ``min`` of
    its key picks at every deployment decision."""
    from oprlab.players import gff_choices

    a, b = _army("shooty-300", "elite-300"), _army("melee-300", "horde-300")
    state = gff.new_game(a, b, seed=5)
    sides = [get_commander("rules", 5), get_commander("rules", 6)]
    rng = np.random.default_rng(5)
    shoots = lambda unit: any(not w.melee for w in unit.weapons)  # noqa: E731
    compared = moved = deploys = 0
    while not state.done:
        actions = gff.legal_actions(state)
        if state.phase in DEPLOY_PHASES and actions:
            got = gff_choices.deploy(state, actions, shoots)
            assert got is _plain_deploy_choice(state, actions, shoots)
            deploys += 1
        if state.phase == Phase.ACTIVATION:
            standing = [u for u in state.units.values() if u.on_table]
            for us in standing:
                found = gff.shooting_targets(state, us)
                assert found == _plain_shots(state, us.uid)
                compared += len(found)
            there = standing[int(rng.integers(len(standing)))]
            assert there.placement is not None
            keep = there.placement
            there.placement = geo.translated(keep, *rng.uniform(-12.0, 12.0, 2))
            for us in standing:
                if us.side != there.side:
                    assert gff.shooting_targets(state, us) == _plain_shots(state, us.uid)
                    moved += 1
            there.placement = keep
        gff.apply(state, sides[state.active].choose(state, actions))
    assert compared > 100 and moved > 100 and deploys > 10


def test_shooting_targets_fail_when_the_circles_bound_is_loosened(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The comparison above sees an enemy in range skipped on the bounding circles: with the
    bound's margin taken 30" the wrong way, some unit's targets are not the plain ones."""
    a, b = _army("shooty-300", "elite-300"), _army("melee-300", "horde-300")
    state = gff.new_game(a, b, seed=5)
    sides = [get_commander("rules", 5), get_commander("rules", 6)]
    while state.phase != Phase.ACTIVATION:
        gff.apply(state, sides[state.active].choose(state, gff.legal_actions(state)))
    monkeypatch.setattr(geo, "BOUND_MARGIN", -30.0)
    monkeypatch.setattr(gff_shooting, "_TARGETABLE", {})
    standing = [u for u in state.units.values() if u.on_table]
    assert any(gff.shooting_targets(state, us) != _plain_shots(state, us.uid) for us in standing)


def _plain_shoot_actions(state: GameState, us: UnitState) -> list[Action]:
    """The shot listing with every action built afresh (hold fire, each target, each split;
    with bennies each shot again with one)."""
    targets = gff_shooting.shooting_targets(state, us)
    reach = {t: gff_shooting.type_reach(state, us, state.units[t]) for t in targets}
    types = gff_shooting.weapon_types(us.unit)
    shots = [Action(Kind.SHOOT, us.uid, target=t) for t in targets]
    for w in types[1:]:
        for t2 in targets:
            for t1 in targets:
                if reach[t2][w] and t1 != t2 and any(ok for v, ok in reach[t1].items() if v != w):
                    shots.append(Action(Kind.SHOOT, us.uid, target=t1, second=t2, split=(w,)))
    bennies = gff.bennies_available(state, us.side) > 0
    return [Action(Kind.SHOOT, us.uid), *shots, *(replace(a, benny=True) for a in shots if bennies)]


def test_shot_and_consolidation_listings_are_the_plain_ones() -> None:
    """Shots and consolidations are made once and handed out again (``gff_shooting._shot``,
    ``listed``): at every shot and consolidation decision of a 600-point game the listing is
    the one built afresh, field for field; a benny's shot is the plain shot with a benny."""
    a, b = _army("shooty-300", "elite-300"), _army("melee-300", "horde-300")
    state = gff.new_game(a, b, seed=5)
    sides = [get_commander("rules", 5), get_commander("rules", 6)]
    shots = consolidations = 0
    while not state.done:
        actions = gff.legal_actions(state)
        p = state.pending
        if state.phase == Phase.SHOOT and p is not None:
            us = state.units[p.unit]
            assert gff_shooting.shoot_actions(state, us) == _plain_shoot_actions(state, us)
            shots += 1
        if state.phase == Phase.CONSOLIDATE and p is not None:
            us = state.units[p.unit]
            goals = [o.position for o in state.objectives]
            goals += [geo.centroid(e.placement) for e in state.enemies(us.side) if e.placement]
            plain = [Action(Kind.CONSOLIDATE, us.uid)]
            plain += [Action(Kind.CONSOLIDATE, us.uid, to=g) for g in dict.fromkeys(goals)]
            assert gff.consolidate_actions(state, us) == plain
            consolidations += 1
        gff.apply(state, sides[state.active].choose(state, actions))
    assert shots > 10 and consolidations > 0
    kept = gff_shooting._shot("A1", "B2", "B3", ("Rifle",), benny=True)
    assert kept is gff_shooting._shot("A1", "B2", "B3", ("Rifle",), benny=True)
    shot = Action(Kind.SHOOT, "A1", target="B2", second="B3", split=("Rifle",))
    assert kept == replace(shot, benny=True) and kept != shot
