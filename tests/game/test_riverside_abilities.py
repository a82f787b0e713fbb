"""Riverside Special Abilities and the roll-off choice in play (seed 002_fdb385c07cc953af, with
seed 003_8abb008d4113ed75 "Caster(X)" and seed 000_e2a2d86473ae65c4 "Caster(X)" for the clock).

The armies are invented for these tests.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from oprlab.errors import UserError
from oprlab.game import geometry as geo
from oprlab.game import riverside as rv
from oprlab.game import riverside_abilities as ab
from oprlab.game.actions import Action, Kind
from oprlab.game.riverside_options import WinnerTakes
from oprlab.game.state import GameState
from oprlab.mechanics import Test, get_mechanic
from oprlab.mechanics.clock import increment
from oprlab.players import get_commander
from tests.game.test_riverside_game import LINE_TEXT, Scripted, army, put, scene, setup

#: A caster and a plain squad on each side (the caster's tokens: Caster(2)).
CASTERS_TEXT = """++ Reed Circle [GFF 110pts] ++

Reed Seer [1] Q4+ D4+ | 40pts | Caster(2)
Staff (A1)

Reed Guard [6] Q4+ D4+ | 70pts
6x Spear (A1)
"""

#: A unit with Teleport and melee weapons only.
MIST_TEXT = """++ Mist Walkers [GFF 45pts] ++

Mist Walkers [3] Q4+ D5+ | 45pts | Teleport
3x Hook (A1)
"""

BOLT = ab.SPELLS[0]


def _casting_scene(mech: Scripted | str = "d6") -> GameState:
    state = scene(army(CASTERS_TEXT), army(CASTERS_TEXT), mechanic=mech)
    put(state, "A1", (24.0, 10.0))
    put(state, "A2", (10.0, 10.0), ready=False)
    put(state, "B2", (24.0, 24.0), ready=False)
    state.units["A1"].spell_tokens = 3
    return state


# --- Caster(X): tokens --------------------------------------------------------------------


def test_casters_receive_tokens_in_the_beginning_phase_at_most_six() -> None:
    """seed 002 "Beginning Phase": "Casters receive spell tokens"; seed 003 "Caster(X)": X at
    the start of each round, never more than 6 held."""
    state = rv.new_game(army(CASTERS_TEXT), army(CASTERS_TEXT), seed=0)
    while state.round < 4 and not state.done:
        rv.apply(state, next((a for a in rv.legal_actions(state) if a.kind is Kind.IDLE),
                             rv.legal_actions(state)[0]))  # fmt: skip
    gained = [e for e in state.log.of_kind("tokens") if e["unit"] == "A1"]
    assert [e["tokens"] for e in gained] == [2, 4, 6, 6]
    assert [e["gained"] for e in gained] == [2, 2, 2, 0]
    assert not any(e["unit"] in ("A2", "B2") for e in state.log.of_kind("tokens"))


# --- Caster(X): when --------------------------------------------------------------------


def test_casting_comes_before_the_action_and_idle_may_use_none() -> None:
    """seed 002 "Special Abilities": "before or after moving ... but before a Ranged or Melee
    Attack"; "Idle Action": "may not use any Special Abilities"."""
    state = _casting_scene()
    acts = rv.legal_actions(state)
    casts = [a for a in acts if a.kind is Kind.CAST]
    assert {a.target for a in casts} == {"B2"} and {a.value for a in casts} == {1, 2, 3}
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    assert state.phase == "act" and state.active == 0
    after = rv.legal_actions(state)
    assert {a.unit for a in after} == {"A1"}
    assert Kind.IDLE not in {a.kind for a in after}
    assert not any(a.kind is Kind.CAST for a in after)  # "only one try per spell"
    with pytest.raises(UserError, match="Idle"):
        rv.apply(state, Action(Kind.IDLE, "A1"))
    with pytest.raises(UserError, match="one try"):
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    rv.apply(state, Action(Kind.HOLD, "A1"))
    (act,) = state.log.of_kind("activate")
    assert act["unit"] == "A1" and act["action"] == "hold" and state.activations == 1


def test_casting_after_moving_before_the_attack_and_not_after_it() -> None:
    """seed 002 "Special Abilities": after an Advance the spell may still come before the
    Ranged Attack, after a Rush (no attack) too; once the attack is made the activation is
    over."""
    state = _casting_scene()
    rv.apply(state, Action(Kind.ADVANCE, "A1", to=(24.0, 14.0)))
    assert state.phase == "shoot"
    kinds = {a.kind for a in rv.legal_actions(state)}
    assert {Kind.SHOOT, Kind.CAST} <= kinds
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    assert state.phase == "shoot"  # the Ranged Attack is still to come
    rv.apply(state, Action(Kind.SHOOT, "A1"))
    assert state.pending is None and state.activations == 1 and state.round == 2

    state = _casting_scene()
    rv.apply(state, Action(Kind.RUSH, "A1", to=(24.0, 14.0)))
    assert state.phase == "special"
    acts = rv.legal_actions(state)
    assert Action(Kind.SHOOT, "A1") in acts and any(a.kind is Kind.CAST for a in acts)
    with pytest.raises(UserError, match="Rush"):
        rv.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    rv.apply(state, Action(Kind.SHOOT, "A1"))  # nothing more: the activation ends
    assert state.pending is None and not state.log.of_kind("cast")


# --- Caster(X): the roll ------------------------------------------------------------------


def _brute_force(boost: int, resist: int) -> Fraction:
    """Seed 002 "Rolling Dice": success when the die >= 4 - modifiers, a 1 always fails and a
    6 always succeeds."""
    need = 4 - (boost - resist)
    return Fraction(sum(1 for f in range(1, 7) if f == 6 or (f != 1 and f >= need)), 6)


@pytest.mark.parametrize(("boost", "resist"), [(0, 0), (1, 0), (2, 0), (5, 0), (0, 1), (0, 2),
                                               (0, 5), (2, 1), (3, 3)])  # fmt: skip
def test_casting_roll_four_plus_boosts_and_resists_on_the_d6(boost: int, resist: int) -> None:
    """seed 003 "Caster(X)": "on 4+", +1/-1 per token; seed 002 "Rolling Dice": modifiers lower
    the difficulty, 1 always fails, 6 always succeeds (brute force over the faces)."""
    state = _casting_scene()
    check = ab.casting_check(state.units["A1"], boost, resist)
    assert check.test is Test.CASTING and check.target == 4
    got = get_mechanic("d6").outcomes(check).probability(lambda o: o.success)
    assert got == _brute_force(boost, resist)


def test_casting_roll_on_the_clock_adds_three_less_boosts() -> None:
    """seed 000 "Caster(X)": "add 3 to the clock", extra tokens subtract (to a minimum of 0);
    resisting tokens are penalties and add (up to 5, the clock's clamp)."""
    state = _casting_scene()
    us = state.units["A1"]
    assert [increment(ab.casting_check(us, b, 0)) for b in range(5)] == [3, 2, 1, 0, 0]
    assert [increment(ab.casting_check(us, 0, r)) for r in range(4)] == [3, 4, 5, 5]


def test_friendly_casters_boost_enemy_casters_resist_before_the_roll() -> None:
    """seed 003 "Caster(X)": models within 18" in LoS of the caster's unit may spend tokens
    "at the same time before rolling" for +1/-1 each: the enemy's choice is a ``RESIST``
    decision made before the roll; tokens are taken from the nearest Casters first."""
    mech = Scripted(lambda c: c.test is Test.CASTING and c.modifier >= 0)
    state = scene(army(CASTERS_TEXT + "\nReed Seer [1] Q4+ D4+ | 40pts | Caster(2)\nStaff (A1)\n"),
                  army(CASTERS_TEXT), mechanic=mech)  # fmt: skip
    caster = put(state, "A1", (24.0, 10.0))
    helper = put(state, "A3", (30.0, 10.0), ready=False)
    put(state, "B2", (24.0, 24.0), ready=False)
    foe = put(state, "B1", (18.0, 24.0), ready=False)
    caster.spell_tokens, helper.spell_tokens, foe.spell_tokens = 2, 2, 3
    acts = rv.legal_actions(state)
    assert {a.boost for a in acts if a.kind is Kind.CAST and a.unit == "A1"} == {0, 1, 2}
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1, boost=1))
    assert caster.spell_tokens == 1 and helper.spell_tokens == 1
    assert state.phase == "resist" and state.active == 1 and not mech.of(Test.CASTING)
    resist = rv.legal_actions(state)
    assert [a.value for a in resist] == [0, 1, 2, 3]
    assert all(a.kind is Kind.RESIST and a.target == "A1" for a in resist)
    with pytest.raises(UserError, match="resist"):
        rv.apply(state, Action(Kind.RESIST, target="A1", value=4))
    rv.apply(state, Action(Kind.RESIST, target="A1", value=2))
    (roll,) = mech.of(Test.CASTING)
    assert roll.modifier == 1 - 2 and foe.spell_tokens == 1
    (cast,) = state.log.of_kind("cast")
    assert cast["success"] is False and cast["resisters"] == {"B1": 2}
    assert cast["helpers"] == {"A3": 1}
    assert state.phase == "act" and state.active == 0 and state.pending is not None


def test_no_resist_decision_without_enemy_casters_in_reach() -> None:
    """seed 003 "Caster(X)": only Casters within 18" (in LoS) may spend tokens on the roll."""
    mech = Scripted(lambda c: True)
    state = _casting_scene(mech)
    foe = put(state, "B1", (44.0, 40.0), ready=False)  # far over 18"
    foe.spell_tokens = 6
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    assert state.phase == "act" and len(mech.of(Test.CASTING)) == 1


# --- Caster(X): the spell's wounds and the Morale Test --------------------------------------


def test_spell_wounds_and_the_morale_test_they_may_call_for() -> None:
    """seed 002 "Morale Tests": "Whenever a unit takes a wound from a spell ... a Morale Test
    may be necessary": at half strength or less it tests, and a failure makes it Shaken (no
    Rout outside melee). The stand-in spell: 2 hits per token at AP(1)."""
    mech = Scripted(lambda c: c.test is Test.CASTING)  # Defense and morale fail
    state = _casting_scene(mech)
    target = state.units["B2"]
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=2))
    (spell,) = state.log.of_kind("spell")
    assert spell["hits"] == 4 and spell["wounds"] == 4 and spell["casualties"] == 4
    assert all(c.modifier == -1 for c in mech.of(Test.DEFENSE))  # AP(1), no Cover
    assert target.models == 2 and target.shaken and not target.routed
    (morale,) = state.log.of_kind("morale")
    assert morale["unit"] == "B2" and morale["passed"] is False


def test_a_spell_above_half_strength_calls_for_no_morale_test() -> None:
    """seed 002 "Morale Tests": above half strength no test follows the spell's wounds."""
    mech = Scripted(lambda c: c.test is Test.CASTING)
    state = _casting_scene(mech)
    rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    assert state.units["B2"].models == 4 and not state.log.of_kind("morale")
    assert not mech.of(Test.MORALE)


def test_cast_refusals() -> None:
    """Bad casts are clear user errors: unknown spell, tokens, target out of range."""
    state = _casting_scene()
    with pytest.raises(UserError, match="unknown spell"):
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell="Nope", value=1))
    with pytest.raises(UserError, match="tokens"):
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=3, boost=1))
    b2 = state.units["B2"]
    assert b2.placement is not None
    b2.placement = geo.translated(b2.placement, 0.0, 20.0)
    with pytest.raises(UserError, match="line of sight"):
        rv.apply(state, Action(Kind.CAST, "A1", target="B2", spell=BOLT.name, value=1))
    with pytest.raises(UserError, match="Teleport"):
        rv.apply(state, Action(Kind.TELEPORT, "A1", to=(24.0, 14.0)))


# --- Teleport ------------------------------------------------------------------------------


def test_teleport_within_six_inches_brings_a_charge_into_reach() -> None:
    """seed 002 "Teleport": "Once per activation, before attack, place this unit anywhere
    within 6""; a unit over 12" away may then charge."""
    state = scene(army(MIST_TEXT), army(LINE_TEXT))
    us = put(state, "A1", (24.0, 6.0))
    put(state, "B1", (24.0, 25.0), ready=False)
    assert not rv.charge_targets(state, us)
    tps = [a for a in rv.legal_actions(state) if a.kind is Kind.TELEPORT]
    b1 = state.units["B1"].placement
    assert b1 is not None and us.placement is not None
    goal = geo.centroid(b1)
    assert Action(Kind.TELEPORT, "A1", to=goal) in tps
    before = geo.centroid(us.placement)
    rv.apply(state, Action(Kind.TELEPORT, "A1", to=goal))
    after = geo.centroid(us.placement)
    assert 5.9 <= math.dist(before, after) <= 6.0 + 1e-6
    assert state.phase == "act"
    acts = rv.legal_actions(state)
    assert Action(Kind.CHARGE, "A1", target="B1") in acts
    assert not any(a.kind is Kind.TELEPORT for a in acts)  # once per activation
    with pytest.raises(UserError, match="once per activation"):
        rv.apply(state, Action(Kind.TELEPORT, "A1", to=goal))
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    assert state.log.of_kind("charge") and state.activations == 1


def test_teleport_during_the_movement_after_a_rush_keeps_spacing() -> None:
    """seed 002 "Teleport": "may be used during the unit's movement" (read: before or after
    the move); the placed unit keeps 1" from other units (seed 002 "1\\" Spacing")."""
    state = scene(army(MIST_TEXT), army(LINE_TEXT))
    us = put(state, "A1", (24.0, 6.0))
    enemy = put(state, "B1", (24.0, 26.0), ready=False)
    rv.apply(state, Action(Kind.RUSH, "A1", to=(24.0, 14.0)))
    assert state.phase == "special"
    rv.apply(state, Action(Kind.TELEPORT, "A1", to=(24.0, 26.0)))
    assert state.pending is None and state.phase == "activation"  # nothing left: it ends
    assert us.placement is not None and enemy.placement is not None
    assert geo.gap(us.placement, enemy.placement) >= geo.SPACING - 1e-6
    (tp,) = state.log.of_kind("teleport")
    assert 0.0 < tp["distance"] <= 6.0 + 1e-6


def test_idle_units_never_teleport_and_the_attack_ends_the_chance() -> None:
    """seed 002 "Idle Action" (no Special Abilities) and "Teleport" ("before attack")."""
    state = scene(army(MIST_TEXT), army(LINE_TEXT))
    put(state, "A1", (24.0, 6.0))
    put(state, "B1", (24.0, 30.0), ready=False)
    rv.apply(state, Action(Kind.IDLE, "A1"))
    assert not state.log.of_kind("teleport") and state.pending is None
    with pytest.raises(UserError):
        rv.apply(state, Action(Kind.TELEPORT, "A1", to=(24.0, 12.0)))


# --- the roll-off decision ---------------------------------------------------------------


def _to_zones(seed: int, takes: WinnerTakes = "choose") -> GameState:
    opts = rv.RiversideOptions(winner_takes=takes)
    state = rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=seed, options=opts)
    while state.phase == "objectives":
        rv.apply(state, rv.legal_actions(state)[0])
    return state


def test_roll_off_winner_decides_then_the_loser_picks_the_other() -> None:
    """seed 002 "Choosing Deployment Zone and Activation Order": the winner chooses the zone
    or who activates first, the loser chooses the other (three ``CHOOSE_ZONE`` decisions)."""
    state = _to_zones(0)
    assert state.phase == "zones"
    winner = state.active
    assert [a.choice for a in rv.legal_actions(state)] == ["first", "zone"]
    rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="zone"))
    assert state.active == winner
    assert [a.choice for a in rv.legal_actions(state)] == ["high", "low"]
    rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="high"))
    assert state.active == 1 - winner
    assert [a.choice for a in rv.legal_actions(state)] == ["follow", "lead"]
    rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="follow"))  # the winner goes first
    assert rv.edge(state, winner) == 1 and rv.edge(state, 1 - winner) == 0
    assert state.first == winner and state.round == 1 and state.phase == "deploy"


def test_forced_winner_pick_and_bad_choices() -> None:
    """``winner_takes`` forces the winner's pick; other choices are refused clearly."""
    state = _to_zones(1, "zone")
    assert [a.choice for a in rv.legal_actions(state)] == ["zone"]
    with pytest.raises(UserError, match="choose one of zone"):
        rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="first"))
    with pytest.raises(UserError):
        rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="zone", unit="A1"))
    with pytest.raises(UserError, match="no deployment zone"):
        setup(state)
        rv.apply(state, Action(Kind.CHOOSE_ZONE, choice="zone"))


@pytest.mark.parametrize(("commander", "order"), [("rules", "follow"), ("rules-v1", "lead")])
def test_rules_commander_takes_the_order_and_the_loser_the_nearer_zone(
    commander: str, order: str
) -> None:
    """The rules commander's habit (docs/rules/riverside.md, docs/commanders.md): the winner
    takes who activates first and follows (rules-v1: leads); the loser takes the zone nearer
    the markers."""
    for seed in range(4):
        state = _to_zones(seed)
        cs = [get_commander(commander), get_commander(commander)]
        winner = state.active
        while state.phase == "zones":
            rv.apply(state, cs[state.active].choose(state, rv.legal_actions(state)))
        assert [e["choice"] for e in state.log.of_kind("choose_zone")][:2] == ["first", order]
        assert state.first == (winner if order == "lead" else 1 - winner)
        assert rv.edge(state, 1 - winner) == rv.preferred_edge(state)


@pytest.mark.parametrize("commander", ["random", "rules"])
def test_commanders_play_every_new_decision(commander: str) -> None:
    """Whole games with Casters and Teleport: every decision comes from the legal list, casts,
    resists, teleports and roll-off choices all happen, and games replay from their seed."""
    a = army(CASTERS_TEXT + "\n" + MIST_TEXT.split("\n", 2)[2])
    seen: set[Kind] = set()

    def run(seed: int) -> list[dict[str, object]]:
        state = rv.new_game(a, a, seed=seed)
        cs = [get_commander(commander, seed), get_commander(commander, seed + 1)]
        while not state.done:
            acts = rv.legal_actions(state)
            pick = cs[state.active].choose(state, acts)
            assert pick in acts
            seen.add(pick.kind)
            rv.apply(state, pick)
        return state.log.events

    logs = [run(seed) for seed in range(3)]
    assert run(0) == logs[0]
    assert {Kind.CHOOSE_ZONE, Kind.CAST, Kind.TELEPORT} <= seen
    if commander == "random":
        assert Kind.RESIST in seen
