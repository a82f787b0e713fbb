"""Rounds of a GFF game (seed 003_8abb008d4113ed75 "Playing the Game", "Activation",
"Movement", "Shooting", "Melee", "Wound Effects", "Morale", "Mission" 4-8, and the special rules
Fast, Slow, Immobile, Hero, Fearless, Ambush), on small scenes set up by hand.

Scenes use a scripted mechanic (every check succeeds or fails by the test's rule) so each
clause is checked without luck.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from oprlab.errors import UserError
from oprlab.game import geometry as geo
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState, Objective, Phase
from oprlab.mechanics import Check, Mechanic, Test, get_mechanic
from oprlab.mechanics.clock_state import ClockState
from oprlab.players import get_commander
from oprlab.rules.gff.melee import carried
from oprlab.rules.gff.resolve import Roller
from oprlab.table.model import Table, TerrainPiece
from oprlab.table.model import TerrainType as TT
from oprlab.units.model import Army, Weapon
from tests.game import Scripted, army, clear_table, line, put, specials, strike_back

#: A Hero and three units of militia: the army for morale scenes (4 units: 2 is half).
MORALE_TEXT = """++ Test Watch [GFF 150pts] ++

Warden [1] Q3+ D4+ | 40pts | Hero, Tough(3)
Mace (A2)

Militia [2] Q5+ D5+ | 20pts
2x Club (A1)

Zealots [2] Q5+ D5+ | 20pts | Fearless
2x Club (A1)

Waverers [2] Q5+ D5+ | 20pts | 1x Fearless
2x Club (A1)
"""


def scene(
    a: Army,
    b: Army,
    where: dict[str, tuple[float, float]],
    *,
    mechanic: str | Mechanic = "d6",
    objectives: tuple[tuple[float, float], ...] = (),
    active: int = 0,
    round_: int = 1,
) -> GameState:
    """A game in round ``round_`` with only the units in ``where`` on the table.

    The other units are left off the table but alive (they count as starting units and as
    alive for morale, and never activate).
    """
    state = gff.new_game(a, b, seed=0, mechanic=mechanic)
    clear_table(state)
    for uid, centre in where.items():
        put(state, uid, centre)
    state.objectives = [Objective(p) for p in objectives]
    state.phase = Phase.ACTIVATION
    state.round = round_
    state.active = active
    return state


def always(ok: bool) -> Callable[[Check], bool]:
    return lambda check: ok


def by_side(side: int) -> Callable[[Check], bool]:
    """Only ``side`` hits, nobody blocks, wound effects knock out: ``side`` wins every fight."""

    def rule(check: Check) -> bool:
        if check.test is Test.HIT:
            return check.owner.army == f"side{side}"
        return check.test is not Test.DEFENSE and check.test is not Test.WOUND_EFFECT

    return rule


# --- Playing the Game -----------------------------------------------------------------------


def _activation_order(state: GameState) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for e in state.log.of_kind("activate"):
        out.setdefault(int(e["round"]), []).append(int(e["side"]))
    return out


def test_who_finished_activating_first_goes_first_next_round() -> None:
    """seed 003 "Playing the Game": alternate activations, starting with the deployment
    roll-off winner; each new round the player that finished activating first goes first."""
    checked = 0
    for seed in range(5):
        _, state = play_game(
            line(), specials(), [get_commander("rules"), get_commander("rules")], seed=seed
        )
        (deployment,) = state.log.of_kind("deployment")
        rounds = {int(e["round"]): int(e["first"]) for e in state.log.of_kind("round")}
        assert rounds[1] == deployment["first"]
        order = _activation_order(state)
        for r in range(2, 5):
            sides = order.get(r - 1, [])
            last = [
                max((i for i, s in enumerate(sides) if s == side), default=-1) for side in (0, 1)
            ]
            if last[0] != last[1]:
                assert rounds[r] == (0 if last[0] < last[1] else 1)
                checked += 1
        for sides in order.values():  # alternate while both sides have units to activate
            switch = next((i for i in range(1, len(sides)) if sides[i] == sides[i - 1]), len(sides))
            assert all(sides[i] != sides[i + 1] for i in range(switch - 1))
            assert len(set(sides[switch - 1 :])) <= 1
    assert checked >= 10


# --- Activation -----------------------------------------------------------------------------


def test_shaken_unit_may_only_stay_idle_and_idling_ends_shaken() -> None:
    """seed 003 "Wound Effects": Shaken units must stay idle; one full activation idle ends it."""
    state = scene(line(), line(), {"A2": (24.0, 8.0), "B2": (24.0, 40.0)})
    a2 = state.units["A2"]
    a2.shaken = True
    assert gff.legal_actions(state) == [Action(Kind.IDLE, "A2")]
    assert not gff.is_legal(state, Action(Kind.HOLD, "A2"))
    assert not gff.is_legal(state, Action(Kind.ADVANCE, "A2", to=(24.0, 20.0)))
    with pytest.raises(UserError, match="Shaken"):
        gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.IDLE, "A2"))
    assert not a2.shaken and a2.activated
    assert state.log.of_kind("rally")[-1]["unit"] == "A2"
    # A unit that is not Shaken does not idle: it Holds.
    assert state.active == 1
    assert not gff.is_legal(state, Action(Kind.IDLE, "B2"))
    assert Action(Kind.HOLD, "B2") in gff.legal_actions(state)


def test_immobile_unit_may_only_hold() -> None:
    """seed 003 Immobile: may only use Hold actions."""
    state = scene(specials(), line(), {"A3": (24.0, 8.0), "B2": (24.0, 30.0)})
    assert {a.kind for a in gff.legal_actions(state)} == {Kind.HOLD}
    assert not gff.is_legal(state, Action(Kind.ADVANCE, "A3", to=(24.0, 14.0)))
    assert not gff.is_legal(state, Action(Kind.RUSH, "A3", to=(24.0, 14.0)))
    assert not gff.is_legal(state, Action(Kind.CHARGE, "A3", target="B2"))


@pytest.mark.parametrize(
    ("uid", "advance", "rush"),
    [("A4", 8.0, 16.0), ("A5", 4.0, 8.0), ("A1", 6.0, 12.0)],
)
def test_fast_and_slow_move_allowances(uid: str, advance: float, rush: float) -> None:
    """seed 003 "Activation" (Advance 6", Rush/Charge 12"), Fast (+2"/+4"), Slow (-2"/-4")."""
    unit = specials().units[int(uid[1]) - 1]
    assert gff.move_allowance(unit, Kind.ADVANCE) == advance
    assert gff.move_allowance(unit, Kind.RUSH) == rush
    assert gff.move_allowance(unit, Kind.CHARGE) == rush
    assert gff.move_allowance(unit, Kind.HOLD) == 0.0
    for kind, inches in ((Kind.ADVANCE, advance), (Kind.RUSH, rush)):
        state = scene(specials(), line(), {uid: (24.0, 5.0), "B2": (5.0, 45.0)})
        gff.apply(state, Action(kind, uid, to=(24.0, 47.0)))
        assert state.log.of_kind("move")[-1]["distance"] == pytest.approx(inches, abs=1e-6)


def test_charge_reach_is_the_charge_move() -> None:
    """seed 003 "Movement": may only charge if a charging model is within charge distance
    (12"; Fast 16")."""
    where = {"A4": (10.0, 5.0), "A5": (38.0, 5.0), "B2": (10.0, 21.5), "B3": (38.0, 17.5)}
    state = scene(specials(), line(), where)
    for uid, reach in (("A4", 16.0), ("A5", 8.0)):
        us = state.units[uid]
        assert us.placement is not None
        for target in ("B2", "B3"):
            t = state.units[target].placement
            assert t is not None
            ok = geo.gap(us.placement, t) <= reach
            assert (target in gff.charge_targets(state, us)) == ok
            assert gff.is_legal(state, Action(Kind.CHARGE, uid, target=target)) == ok
    assert gff.charge_targets(state, state.units["A4"]) == ["B2"]  # 16" reaches 15"


def test_units_keep_one_inch_from_other_units_when_moving() -> None:
    """seed 003 "Movement": units may only be within 1" of other units when charging."""
    state = scene(line(), line(), {"A2": (24.0, 10.0), "B2": (24.0, 22.0)})
    gff.apply(state, Action(Kind.RUSH, "A2", to=(24.0, 22.0)))
    a2, b2 = state.units["A2"].placement, state.units["B2"].placement
    assert a2 is not None and b2 is not None
    assert geo.gap(a2, b2) >= 1.0 - 1e-6


# --- Shooting -------------------------------------------------------------------------------


def _gun_post_scene(mechanic: str | Mechanic = "d6") -> GameState:
    # Gun Post (Heavy Gun 30", Flamer 12") with one squad near and one far.
    state = scene(
        specials(),
        line(),
        {"A3": (24.0, 8.0), "B2": (24.0, 17.0), "B3": (40.0, 30.0)},
        mechanic=mechanic,
    )
    gff.apply(state, Action(Kind.HOLD, "A3"))
    assert state.phase == "shoot"
    return state


def test_hold_then_shoot_one_target_with_every_weapon_in_range() -> None:
    """seed 003 "Shooting": models in range fire all ranged weapons; Hold "can shoot"."""
    state = _gun_post_scene()
    gff.apply(state, Action(Kind.SHOOT, "A3", target="B2"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["target"] == "B2" and shot["weapons"] == ["Heavy Gun", "Flamer"]
    assert shot["dice"] == 6
    assert state.phase == "activation" and state.units["A3"].activated


def test_two_targets_with_different_weapon_types() -> None:
    """seed 003 "Shooting": may fire at up to two different targets with different weapon
    types: the Heavy Gun at the far squad, the Flamer at the near one."""
    state = _gun_post_scene()
    split = Action(Kind.SHOOT, "A3", target="B3", second="B2", split=("Flamer",))
    assert split in gff.legal_actions(state)
    # The Flamer (12") cannot reach the far squad; two targets need two weapon types.
    assert not gff.is_legal(state, Action(Kind.SHOOT, "A3", target="B2", second="B3", split=()))
    assert not gff.is_legal(
        state, Action(Kind.SHOOT, "A3", target="B2", second="B3", split=("Flamer",))
    )
    assert not gff.is_legal(
        state, Action(Kind.SHOOT, "A3", target="B2", second="B2", split=("Flamer",))
    )
    gff.apply(state, split)
    shots = state.log.of_kind("shoot")
    assert [(s["target"], s["weapons"]) for s in shots] == [
        ("B3", ["Heavy Gun"]),
        ("B2", ["Flamer"]),
    ]


def test_hold_fire_is_a_choice() -> None:
    """seed 003 "Activation": Hold "can shoot" (may, not must)."""
    state = _gun_post_scene()
    gff.apply(state, Action(Kind.SHOOT, "A3"))
    assert not state.log.of_kind("shoot") and state.log.of_kind("hold_fire")


def test_advance_then_shoot_and_rush_never_shoots() -> None:
    """seed 003 "Activation": Advance can shoot after the move; Rush can't shoot."""
    where = {"A2": (24.0, 5.0), "B2": (24.0, 30.0)}
    state = scene(line(), line(), where)
    gff.apply(state, Action(Kind.ADVANCE, "A2", to=(24.0, 20.0)))
    assert state.phase == "shoot" and state.pending is not None and state.pending.moved
    state = scene(line(), line(), where)
    gff.apply(state, Action(Kind.RUSH, "A2", to=(24.0, 20.0)))
    assert state.phase == "activation" and state.active == 1


def test_casualties_keep_objective_holders_and_cohesion() -> None:
    """seed 003 "Shooting"/"Groups & Wounds" leave the choice of casualties to the defender;
    the habit (docs/rules/gff.md): nearest the attacker first, models on a marker last, never
    breaking cohesion (seed 003 "Movement": within 1" of another member)."""
    state = scene(line(), line(), {"A2": (4.0, 30.0), "B2": (24.0, 30.0)})
    a2, b2 = state.units["A2"], state.units["B2"]
    assert b2.placement is not None
    xs = b2.placement.centres[:, 0]
    left, middle, right = (int(i) for i in xs.argsort())
    assert gff.casualty_order(state, b2, a2, 2) == [left, middle]  # the front falls first
    # A marker by the front model keeps it; taking the middle would strand it, so the back goes.
    state.objectives = [Objective((float(xs[left]) - 2.5, 30.0))]  # only the front within 3"
    assert gff.casualty_order(state, b2, a2, 2) == [right, middle]


def test_bennies_buy_one_extra_attack() -> None:
    """seed 000 "Bennies" (variation 5): a benny grants a single extra attack; the commander
    chooses to spend it (a SHOOT with ``benny``); without bennies there is none to spend."""
    state = _gun_post_scene(get_mechanic("clock-bennies"))
    before = gff.bennies_available(state, 0)
    assert before == 4
    with_benny = Action(Kind.SHOOT, "A3", target="B2", benny=True)
    assert with_benny in gff.legal_actions(state)
    gff.apply(state, with_benny)
    assert gff.bennies_available(state, 0) == before - 1
    assert state.phase == "defend"  # side B may now spend its own bennies: it spends none
    gff.apply(state, Action(Kind.DEFEND, "B2", target="A3", value=0))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 7  # 3 + 3 dice and the benny's one
    assert state.log.of_kind("benny")[0]["use"] == "extra_attack"
    d6 = _gun_post_scene()
    assert not any(a.benny for a in gff.legal_actions(d6))
    assert not gff.is_legal(d6, with_benny)


# --- Melee ----------------------------------------------------------------------------------


def test_winner_of_a_melee_may_move_three_inches() -> None:
    """seed 003 "After Combat": if one unit is destroyed, the other may move by up to 3"."""
    mech = Scripted(by_side(0))
    state = scene(
        specials(),
        line(),
        {"A4": (24.0, 10.0), "B2": (24.0, 20.0), "B3": (40.0, 40.0)},
        mechanic=mech,
        objectives=((30.0, 24.0),),
    )
    gff.apply(state, Action(Kind.CHARGE, "A4", target="B2"))
    assert not state.units["B2"].alive
    assert state.phase == "consolidate" and state.active == 0
    actions = gff.legal_actions(state)
    assert {a.kind for a in actions} == {Kind.CONSOLIDATE}
    assert Action(Kind.CONSOLIDATE, "A4") in actions  # "may": staying is allowed
    a4 = state.units["A4"]
    assert a4.placement is not None
    before = geo.centroid(a4.placement)
    gff.apply(state, Action(Kind.CONSOLIDATE, "A4", to=(30.0, 24.0)))
    assert a4.placement is not None
    moved = (
        (geo.centroid(a4.placement)[0] - before[0]) ** 2
        + (geo.centroid(a4.placement)[1] - before[1]) ** 2
    ) ** 0.5
    assert 0.0 < moved <= 3.0 + 1e-6
    assert state.phase == "activation" and state.active == 1


def test_a_defender_that_destroys_the_charger_consolidates_on_its_own_decision() -> None:
    """seed 003 "After Combat": "the other" may move: the charged unit too, if it survives."""
    mech = Scripted(by_side(1))
    state = scene(
        specials(),
        line(),
        {"A4": (24.0, 10.0), "A5": (5.0, 5.0), "B2": (24.0, 20.0)},
        mechanic=mech,
    )
    gff.apply(state, Action(Kind.CHARGE, "A4", target="B2"))
    strike_back(state)
    assert not state.units["A4"].alive and state.units["B2"].alive
    assert state.phase == "consolidate" and state.active == 1
    assert state.pending is not None and state.pending.unit == "B2"
    gff.apply(state, Action(Kind.CONSOLIDATE, "B2"))
    assert state.phase == "activation" and state.active == 1  # B's turn after A's activation


def test_charger_separates_by_one_inch_when_both_survive() -> None:
    """seed 003 "After Combat": otherwise, chargers must move back and separate by 1"."""
    state = scene(
        specials(),
        line(),
        {"A4": (24.0, 10.0), "B2": (24.0, 20.0)},
        mechanic=Scripted(always(False)),
    )
    gff.apply(state, Action(Kind.CHARGE, "A4", target="B2"))
    strike_back(state)
    (melee,) = state.log.of_kind("melee")
    assert melee["casualties_dealt"] == 0 == melee["casualties_taken"]
    a4, b2 = state.units["A4"].placement, state.units["B2"].placement
    assert a4 is not None and b2 is not None
    assert geo.gap(a4, b2) >= 1.0 - 1e-6
    assert state.log.of_kind("separate")[0]["gap"] >= 1.0 - 1e-6
    assert state.units["A4"].fatigued  # seed 003 "Fatigue": after charging


# --- Morale ---------------------------------------------------------------------------------


def _morale_scene(policy: Callable[[Check], bool], alive: int) -> tuple[GameState, Scripted]:
    mech = Scripted(policy)
    where = {"A1": (10.0, 10.0), "A2": (16.0, 10.0), "A3": (24.0, 10.0), "A4": (40.0, 30.0)}
    state = scene(army(MORALE_TEXT), line(), where, mechanic=mech)
    for uid in list(where)[alive:]:
        state.units[uid].models = 0
    return state, mech


def _morale(state: GameState, mech: Scripted) -> None:
    gff.morale(state, 0, Roller(mech, None, None))


def test_morale_only_at_half_or_less_of_starting_units() -> None:
    """seed 003 "Morale": if an army is down to half or less of its starting units, all of its
    units test: 3 of 4 left, no test; 2 of 4, every unit tests."""
    state, mech = _morale_scene(always(False), alive=3)
    _morale(state, mech)
    assert not mech.of(Test.MORALE) and not state.log.of_kind("morale")
    state, mech = _morale_scene(always(False), alive=2)
    _morale(state, mech)
    assert [e["unit"] for e in state.log.of_kind("morale")] == ["A1", "A2"]


def test_failed_morale_shakes_and_a_shaken_unit_routs() -> None:
    """seed 003 "Morale": failed -> Shaken; already Shaken -> routs (removed as destroyed); a
    Shaken unit always fails morale tests ("Wound Effects"), so it rolls no test."""
    state, mech = _morale_scene(always(False), alive=2)
    state.units["A2"].shaken = True
    _morale(state, mech)
    assert state.units["A1"].shaken and not state.units["A1"].routed
    assert state.units["A2"].routed and not state.units["A2"].alive
    assert [c.owner.unit for c in mech.of(Test.MORALE)] == ["A1"]
    assert [e["unit"] for e in state.log.of_kind("routed")] == ["A2"]
    state.active, state.units["A1"].activated = 0, False
    assert all(a.unit != "A2" for a in gff.legal_actions(state))  # routed units never act


def test_passed_morale_changes_nothing() -> None:
    """seed 003 "Morale": only a failed test has an effect."""
    state, mech = _morale_scene(always(True), alive=2)
    _morale(state, mech)
    assert not state.units["A1"].shaken and not state.units["A2"].shaken


def test_hero_within_twelve_inches_lends_its_quality() -> None:
    """seed 003 Hero: friendly units within 12" may take morale tests using the hero's
    Quality, as long as the hero isn't Shaken."""
    state, mech = _morale_scene(always(True), alive=4)
    for uid in ("A3", "A4"):
        state.units[uid].models = 0
    _morale(state, mech)
    assert [c.target for c in mech.of(Test.MORALE)] == [3, 3]  # Warden Q3, Militia near
    state, mech = _morale_scene(always(True), alive=4)
    for uid in ("A2", "A3"):
        state.units[uid].models = 0
    _morale(state, mech)
    assert [(c.owner.unit, c.target) for c in mech.of(Test.MORALE)] == [("A1", 3), ("A4", 5)]
    state, mech = _morale_scene(always(True), alive=2)
    state.units["A1"].shaken = True
    _morale(state, mech)
    assert [(c.owner.unit, c.target) for c in mech.of(Test.MORALE)] == [("A2", 5)]


def test_fearless_passes_a_failed_test_on_four_plus() -> None:
    """seed 003 Fearless: when a unit where all models have this rule fails a morale test,
    roll one die; on a 4+ it counts as passed. One Fearless model in two is not enough."""

    def fail_morale(check: Check) -> bool:
        return check.test is not Test.MORALE

    state, mech = _morale_scene(fail_morale, alive=4)
    for uid in ("A1", "A2"):
        state.units[uid].models = 0
    _morale(state, mech)
    (fearless,) = mech.of(Test.GENERIC)
    assert fearless.target == 4 and fearless.owner.unit == "A3"
    assert not state.units["A3"].shaken  # Zealots: passed on the Fearless roll
    assert state.units["A4"].shaken  # Waverers: 1x Fearless in a unit of 2
    # A Shaken Fearless unit fails automatically, then still rolls its 4+.
    state, mech = _morale_scene(fail_morale, alive=4)
    for uid in ("A1", "A2"):
        state.units[uid].models = 0
    state.units["A3"].shaken = True
    _morale(state, mech)
    assert not state.units["A3"].routed and state.units["A3"].shaken


# --- Objectives and the winner ---------------------------------------------------------------


def test_objectives_seized_kept_and_contested() -> None:
    """seed 003 "Mission" 4-6: within 3" while enemies aren't -> seized; stays after leaving;
    both sides -> neutral. Shaken units can't contest or seize ("Wound Effects")."""
    marker = (24.0, 24.0)
    state = scene(line(), line(), {"A2": (24.0, 21.0)}, objectives=(marker,))
    gff.update_objectives(state)
    assert state.objectives[0].controller == 0
    put(state, "A2", (24.0, 5.0))
    gff.update_objectives(state)
    assert state.objectives[0].controller == 0  # "Markers stay under player's control"
    put(state, "B2", (24.0, 27.0))
    gff.update_objectives(state)
    assert state.objectives[0].controller == 1
    put(state, "A2", (24.0, 21.0))
    gff.update_objectives(state)
    assert state.objectives[0].controller is None  # contested: neutral again
    state.units["A2"].shaken = True
    gff.update_objectives(state)
    assert state.objectives[0].controller == 1  # a Shaken unit doesn't contest
    assert [e["controller"] for e in state.log.of_kind("control")] == [0, 1, None, 1]


def test_ambush_arrivals_cannot_seize_or_contest_that_round() -> None:
    """seed 003 Ambush: units that deploy via Ambush can't seize or contest objectives on the
    round they deploy."""
    marker = (24.0, 24.0)
    state = scene(
        specials(), line(), {"A2": (24.0, 21.0), "B2": (24.0, 27.0)}, objectives=(marker,), round_=2
    )
    state.units["A2"].arrived = 2
    gff.update_objectives(state)
    assert state.objectives[0].controller == 1  # A2 does not contest
    state.round = 3
    gff.update_objectives(state)
    assert state.objectives[0].controller is None


def _last_activation_scene(
    holders: dict[str, tuple[float, float]], markers: tuple[tuple[float, float], ...]
) -> GameState:
    state = scene(
        line(), line(), holders, objectives=markers, round_=4, mechanic=Scripted(always(True))
    )
    for us in state.units.values():
        us.activated = us.uid != "A2"
    state.active = 0
    gff.apply(state, Action(Kind.HOLD, "A2"))
    return state


def test_game_ends_after_four_rounds_and_most_markers_wins() -> None:
    """seed 003 "Mission" 7-8: the game ends after 4 rounds; most markers wins (equal: draw)."""
    state = _last_activation_scene(
        {"A2": (10.0, 24.0), "B2": (40.0, 40.0)}, ((10.0, 24.0), (40.0, 20.0))
    )
    assert state.done and state.phase == "over" and state.round == 4
    assert gff.score(state) == (1, 0) and state.winner == 0
    assert gff.legal_actions(state) == []
    state = _last_activation_scene(
        {"A2": (10.0, 24.0), "B2": (40.0, 24.0)}, ((10.0, 24.0), (40.0, 24.0))
    )
    assert gff.score(state) == (1, 1) and state.winner is None
    (end,) = state.log.of_kind("end")
    assert end == {"kind": "end", "objectives": [1, 1], "winner": None}


# --- the table: sight, cover, dangerous terrain, markers that come with it ------------------

WALL = TerrainPiece(
    "Wall", ((14, 18), (34, 18), (34, 20), (14, 20)), frozenset({TT.BLOCKING, TT.IMPASSABLE}), 4.0
)
WOOD = TerrainPiece("Wood", ((14, 26), (34, 26), (34, 34), (14, 34)), frozenset({TT.COVER}))
BOG = TerrainPiece("Bog", ((14, 10), (34, 10), (34, 14), (14, 14)), frozenset({TT.DANGEROUS}))

#: A mortar team: Indirect fire over the wall.
MORTAR_TEXT = """++ Test Mortars [GFF 100pts] ++

Mortar Team [2] Q4+ D5+ | 40pts
2x Mortar (30", A1, Indirect), 2x Knife (A1)
"""


def _on_table(
    a: Army,
    b: Army,
    where: dict[str, tuple[float, float]],
    table: Table,
    mechanic: str | Mechanic = "d6",
) -> GameState:
    state = scene(a, b, where, mechanic=mechanic)
    state.table = table
    return state


def test_shooting_needs_line_of_sight_but_indirect_does_not() -> None:
    """seed 003 "Shooting": models in range and line of sight may fire; Indirect may target
    enemies that are not in line of sight."""
    table = Table(pieces=(WALL,))
    state = _on_table(line(), line(), {"A2": (24.0, 8.0), "B2": (24.0, 24.0)}, table)
    assert gff.shooting_targets(state, state.units["A2"]) == []
    gff.apply(state, Action(Kind.HOLD, "A2"))
    assert state.phase == "activation"  # nothing to shoot at: the activation ends
    state = _on_table(army(MORTAR_TEXT), line(), {"A1": (24.0, 8.0), "B2": (24.0, 24.0)}, table)
    assert gff.shooting_targets(state, state.units["A1"]) == ["B2"]
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 2


def test_cover_terrain_gives_cover_against_shooting() -> None:
    """seed 003 "Cover Terrain": units mostly inside cover terrain get +1 to Defense rolls when
    blocking hits from shooting (the shot records that the target had cover)."""
    mech = Scripted(always(True))
    table = Table(pieces=(WOOD,))
    state = _on_table(line(), line(), {"A2": (24.0, 8.0), "B2": (24.0, 30.0)}, table, mech)
    gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.SHOOT, "A2", target="B2"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["cover"] is True
    defense = mech.of(Test.DEFENSE)
    assert defense and all(c.modifier == 1 for c in defense)
    state = _on_table(line(), line(), {"A2": (24.0, 8.0), "B2": (40.0, 22.0)}, table)
    gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.SHOOT, "A2", target="B2"))
    assert state.log.of_kind("shoot")[0]["cover"] is False


def test_moving_across_dangerous_terrain_rolls_for_wounds() -> None:
    """seed 003 "Dangerous Terrain": models moving across it roll one die each (as many as
    their Tough value); each 1 is a wound."""
    # Every dangerous-terrain die is a 1, and the wound effect knocks the last model out.
    mech = Scripted(lambda c: c.test not in (Test.GENERIC, Test.WOUND_EFFECT))
    table = Table(pieces=(BOG,))
    state = _on_table(line(), line(), {"A2": (24.0, 6.0), "B2": (5.0, 44.0)}, table, mech)
    gff.apply(state, Action(Kind.RUSH, "A2", to=(24.0, 17.0)))
    (roll,) = state.log.of_kind("dangerous")
    assert roll["dice"] == 3 and roll["wounds"] == 3
    assert not state.units["A2"].alive  # 2 wounds kill 2 models, the last is Knocked Out


def test_a_table_with_markers_skips_placing_them() -> None:
    """A table that comes with its objective markers (``table.deploy.mission_table``) is played
    with them: no markers are placed, deployment starts at once with the roll-off winner's edge
    (seed 003 "Deployment" 1); markers in the west and east bands leave south or north."""
    markers = ((10.0, 20.0), (38.0, 28.0), (24.0, 24.0))
    state = gff.new_game(line(), line(), seed=0, table=Table(objectives=markers))
    assert state.phase == "zone"
    assert [a.choice for a in gff.legal_actions(state)] == ["north", "south"]
    assert [o.position for o in state.objectives] == list(markers)
    assert [e["side"] for e in state.log.of_kind("objective")] == [None, None, None]


def test_a_benny_adds_one_melee_attack_die() -> None:
    """seed 000 "Bennies": a single extra attack, also when charging: the Runners' 2x Claw (A2)
    roll 4 dice, 5 with a benny; the benny is spent."""
    for benny in (False, True):
        mech = Scripted(always(False))
        state = scene(specials(), line(), {"A4": (24.0, 10.0), "B2": (24.0, 20.0)}, mechanic=mech)
        state.mech_state = ClockState(bennies={"side0": 1, "side1": 1})
        charge = Action(Kind.CHARGE, "A4", target="B2", benny=benny)
        assert charge in gff.legal_actions(state)
        gff.apply(state, charge)
        dice = [c for c in mech.of(Test.HIT) if c.owner.army == "side0"]
        assert len(dice) == 4 + benny
        assert gff.bennies_available(state, 0) == 1 - benny


def test_extra_attack_line_is_exactly_one_weapon_at_any_strength() -> None:
    """The benny's extra weapon line comes out at one die however many models are left
    (melee.carried scales weapon lines to the models left)."""
    for size in range(1, 11):
        unit = replace(line().units[1], size=size, weapons=(Weapon("Knife", 1, None, size),))
        for models in range(1, size + 1):
            extra = gff.with_extra_attack(unit, models)
            dice = sum(carried(w.count, models, size) * w.attacks for w in extra.weapons)
            assert dice == carried(size, models, size) + 1, (size, models)
