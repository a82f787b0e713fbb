"""Dangerous terrain for units that activate in it (seed 003_8abb008d4113ed75 "Dangerous
Terrain": "Models moving across dangerous terrain, or that activate in it, must roll")."""

from __future__ import annotations

from dataclasses import replace

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import Check, Test
from oprlab.table.model import Table, TerrainPiece, TerrainType
from oprlab.units.model import Rule
from tests.game import Scripted, line, put, specials, strike_back
from tests.game.test_gff_rounds import scene

#: A bog 4" deep across the middle of side A's half.
BOG = TerrainPiece(
    "Bog", ((14, 10), (34, 10), (34, 14), (14, 14)), frozenset({TerrainType.DANGEROUS})
)


def _ones(c: Check) -> bool:
    """Every dangerous-terrain die is a 1; every other check succeeds (Shaken, not out)."""
    return c.test is not Test.GENERIC


def _in_bog(
    where: dict[str, tuple[float, float]], options: GffOptions | None = None
) -> tuple[GameState, Scripted]:
    mech = Scripted(_ones)
    state = scene(line(), line(), where, mechanic=mech)
    state.table = Table(pieces=(BOG,))
    if options is not None:
        state.options = options
    return state, mech


def test_a_unit_that_activates_in_dangerous_terrain_rolls_even_if_it_holds() -> None:
    """seed 003 "Dangerous Terrain": each model standing in it at the start of the activation
    rolls one die; each 1 is a wound (three Rifle models: three dice, three wounds)."""
    state, mech = _in_bog({"A2": (24.0, 12.0), "B2": (5.0, 44.0)})
    gff.apply(state, Action(Kind.HOLD, "A2"))
    (roll,) = state.log.of_kind("dangerous")
    assert roll["dice"] == 3 and roll["wounds"] == 3 and roll["cause"] == "activation"
    assert len(mech.of(Test.GENERIC)) == 3
    us = state.units["A2"]  # 2 wounds kill 2 models; the last takes 1, rolls and is Shaken
    assert us.models == 1 and us.markers == 1 and us.shaken


def test_tough_models_roll_as_many_dice_as_their_tough_value() -> None:
    """seed 003 "Dangerous Terrain": "(or as many as their tough value)": the Captain has
    Tough(3): three dice for its one model."""
    state, _ = _in_bog({"A1": (24.0, 12.0), "B2": (5.0, 44.0)})
    gff.apply(state, Action(Kind.HOLD, "A1"))
    (roll,) = state.log.of_kind("dangerous")
    assert roll["dice"] == 3 and roll["wounds"] == 3


def test_a_unit_outside_dangerous_terrain_rolls_nothing_when_it_holds() -> None:
    """Only models in it: a unit clear of the bog that holds rolls no dangerous dice."""
    state, mech = _in_bog({"A2": (24.0, 4.0), "B2": (5.0, 44.0)})
    gff.apply(state, Action(Kind.HOLD, "A2"))
    assert state.log.of_kind("dangerous") == [] and mech.of(Test.GENERIC) == []


def test_activating_in_it_then_moving_across_it_rolls_once_by_default() -> None:
    """The reading (docs/rules/gff.md): one roll per model per activation; option
    ``dangerous="twice"`` rolls again for the move across."""
    for option, rolls in (("once", 1), ("twice", 2)):
        mech = Scripted(lambda c: True)  # no wounds: the unit lives to move
        state = scene(line(), line(), {"A2": (24.0, 12.0), "B2": (5.0, 44.0)}, mechanic=mech)
        state.table = Table(pieces=(BOG,))
        state.options = GffOptions(dangerous=option)
        gff.apply(state, Action(Kind.ADVANCE, "A2", to=(24.0, 18.0)))
        events = state.log.of_kind("dangerous")
        assert len(events) == rolls
        assert events[0]["cause"] == "activation"
        assert len(mech.of(Test.GENERIC)) == 3 * rolls


def test_a_unit_lost_as_it_activates_does_nothing_more() -> None:
    """A unit destroyed by its activation's dangerous roll takes no action; play passes on."""
    state, mech = _in_bog({"A2": (24.0, 12.0), "B2": (24.0, 30.0)})
    mech.succeeds = lambda c: c.test not in (Test.GENERIC, Test.WOUND_EFFECT)  # Knocked Out
    gff.apply(state, Action(Kind.ADVANCE, "A2", to=(24.0, 20.0)))
    assert not state.units["A2"].alive
    assert state.log.of_kind("move") == [] and state.phase == "activation"
    assert state.active == 1


def test_flying_units_roll_when_they_activate_in_it() -> None:
    """seed 003 Flying ignores terrain effects "whilst moving": activating in it still rolls."""
    where = {"A4": (24.0, 12.0), "B2": (5.0, 44.0)}
    state = scene(specials(), line(), where, mechanic=Scripted(lambda c: True))
    state.table = Table(pieces=(BOG,))
    us = state.units["A4"]
    us.unit = replace(us.unit, rules=(*us.unit.rules, Rule("Flying")))
    gff.apply(state, Action(Kind.HOLD, "A4"))
    (roll,) = state.log.of_kind("dangerous")
    assert roll["cause"] == "activation" and roll["dice"] == 2


def _charge_across(option: str = "once", *, on: bool = True) -> tuple[GameState, Scripted]:
    """A Rifle Squad south of the bog charges a squad north of it (no wounds are rolled as
    every check succeeds: the unit lives to fight)."""
    mech = Scripted(lambda c: True)
    state = scene(line(), line(), {"A2": (24.0, 7.0), "B2": (24.0, 17.0)}, mechanic=mech)
    state.table = Table(pieces=(BOG,))
    state.options = GffOptions(dangerous=option, charge_dangerous=on)
    return state, mech


def test_a_charge_across_dangerous_terrain_rolls_before_the_strikes() -> None:
    """seed 003 "Dangerous Terrain": "Models moving across dangerous terrain ... must roll",
    a charge too: each model that crossed the bog rolls one die (three Rifle models), logged
    with ``cause="charge"`` before the melee."""
    state, mech = _charge_across()
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    strike_back(state)
    kinds = [e["kind"] for e in state.log.events]
    (roll,) = state.log.of_kind("dangerous")
    assert roll["cause"] == "charge" and roll["dice"] == 3
    assert kinds.index("dangerous") < kinds.index("melee")
    assert len(mech.of(Test.GENERIC)) == 3


def test_the_charge_roll_is_an_option_and_counts_once_per_activation() -> None:
    """``charge_dangerous=False`` keeps the old engine (no roll); a unit that activated in the
    bog rolled then and does not roll again for charging across it (``dangerous="once"``)."""
    state, _ = _charge_across(on=False)
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    strike_back(state)
    assert state.log.of_kind("dangerous") == [] and state.log.of_kind("melee")
    for option, rolls in (("once", 1), ("twice", 2)):
        state, _ = _charge_across(option)
        state.units["A2"].placement = None
        put(state, "A2", (24.0, 11.0))  # in the bog as it activates
        gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
        strike_back(state)
        assert [e["cause"] for e in state.log.of_kind("dangerous")][:rolls] == [
            "activation",
            "charge",
        ][:rolls]
        assert len(state.log.of_kind("dangerous")) == rolls


def test_a_charger_knocked_out_on_the_way_does_not_fight() -> None:
    """Every dangerous die a 1 and every wound effect Knocked Out: the charger is destroyed in
    the bog; no melee, play passes on."""
    state, mech = _charge_across()
    mech.succeeds = lambda c: c.test not in (Test.GENERIC, Test.WOUND_EFFECT)
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    strike_back(state)
    assert not state.units["A2"].alive and state.log.of_kind("melee") == []
    assert state.phase == "activation" and state.active == 1


def test_a_charger_shaken_on_the_way_still_fights_as_fatigued() -> None:
    """Dangerous dice all 1s, wound effects Shaken: the last model is Shaken but the charge
    goes on (the action was chosen; the exchange takes a Shaken charger, striking as
    fatigued)."""
    state, mech = _charge_across()
    mech.succeeds = lambda c: c.test is not Test.GENERIC
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    strike_back(state)
    kinds = [e["kind"] for e in state.log.events]
    assert kinds.index("dangerous") < kinds.index("shaken") < kinds.index("melee")
    assert state.log.of_kind("melee")
    strikes = [c for c in mech.of(Test.HIT) if c.owner.unit == "A2"]
    assert len(strikes) == 1 and strikes[0].unmodified_six_only  # one model left, fatigued
