"""Limited weapons in GFF games (seed 003_8abb008d4113ed75 "SPECIAL RULES REFERENCE", "Limited":
"May only be used once per game"). The armies are invented."""

from __future__ import annotations

import pickle
from dataclasses import replace

from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_limited import limited_names, without_limited
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.mechanics import Check, Test
from oprlab.players.rules_commander import expected_damage
from tests.game import Scripted, army, line
from tests.game.test_gff_rounds import scene

GRENADIERS = """++ Test Grenadiers [GFF 150pts] ++

Grenadiers [2] Q4+ D5+ | 40pts
2x Carbine (18", A1), Flare Bomb (12", A2, Limited), 2x Shiv (A1)

Bombers [2] Q4+ D5+ | 30pts
2x Satchel (12", A1, Limited), 2x Spike (A2, Limited), Fist (A1)
"""


def _blocked(check: Check) -> bool:
    """Every attack die hits and every Defense roll blocks: nobody is hurt."""
    return check.test in (Test.HIT, Test.DEFENSE)


def _again(state: GameState, uid: str) -> None:
    """Let ``uid`` activate once more (a later round, as far as its weapons go)."""
    state.units[uid].activated = False
    state.phase, state.active, state.pending = Phase.ACTIVATION, state.units[uid].side, None


def _shots(state: GameState) -> list[dict[str, object]]:
    return [e for e in state.log.events if e["kind"] == "shoot"]


def _scene(where: dict[str, tuple[float, float]], *, limited: bool = True) -> GameState:
    state = scene(army(GRENADIERS), line(), where, mechanic=Scripted(_blocked))
    state.options = GffOptions(limited=limited)
    return state


def test_a_limited_weapon_fires_in_one_shot_then_is_gone() -> None:
    """The Flare Bomb fires with the Carbines in the first shot (log ``limited``); in the next
    activation only the Carbines fire, and the unit's profile no longer carries the bomb."""
    state = _scene({"A1": (24.0, 8.0), "B2": (24.0, 17.0)})
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert _shots(state)[0]["weapons"] == ["Carbine", "Flare Bomb"]
    assert _shots(state)[0]["dice"] == 4
    spent = [e for e in state.log.events if e["kind"] == "limited"]
    assert spent == [{"kind": "limited", "unit": "A1", "weapons": ["Flare Bomb"]}]
    assert [w.name for w in state.units["A1"].unit.weapons] == ["Carbine", "Shiv"]
    _again(state, "A1")
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert _shots(state)[1]["weapons"] == ["Carbine"]
    assert _shots(state)[1]["dice"] == 2


def test_a_limited_weapon_that_does_not_fire_is_not_spent() -> None:
    """Out of the bomb's 12" the Carbines fire alone and the bomb is kept for later."""
    state = _scene({"A1": (24.0, 8.0), "B2": (24.0, 24.0)})
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert _shots(state)[0]["weapons"] == ["Carbine"]
    assert "Flare Bomb" in limited_names(state.units["A1"].unit)
    assert not [e for e in state.log.events if e["kind"] == "limited"]


def test_legal_actions_drop_what_only_a_spent_weapon_could_do() -> None:
    """The Bombers' only gun is a Limited Satchel: after it fired, the unit has no shooting
    targets (its Hold offers no shot), and charges still come from the Fist."""
    state = _scene({"A2": (24.0, 8.0), "B2": (24.0, 16.0)})
    assert gff.shooting_targets(state, state.units["A2"]) == ["B2"]
    gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.SHOOT, "A2", target="B2"))
    assert gff.shooting_targets(state, state.units["A2"]) == []
    _again(state, "A2")
    gff.apply(state, Action(Kind.HOLD, "A2"))
    assert state.phase != "shoot"  # nothing left to shoot with: the activation is over
    assert gff.charge_targets(state, state.units["A2"]) == ["B2"]


def test_a_limited_melee_weapon_strikes_in_one_charge_only() -> None:
    """The Spikes strike in the first charge (their attack dice are rolled even if they all
    miss); the second charge strikes with the Fist alone."""
    mech = Scripted(lambda c: False)  # every roll fails: nobody is hurt, weapons still strike
    state = scene(army(GRENADIERS), line(), {"A2": (24.0, 8.0), "B2": (24.0, 12.0)}, mechanic=mech)
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    first = {c.owner.pool for c in mech.of(Test.HIT) if c.owner.unit == "A2"}
    assert first == {"Spike", "Fist"}
    assert limited_names(state.units["A2"].unit) == ("Satchel",)
    mech.checks.clear()
    _again(state, "A2")
    gff.apply(state, Action(Kind.CHARGE, "A2", target="B2"))
    assert {c.owner.pool for c in mech.of(Test.HIT) if c.owner.unit == "A2"} == {"Fist"}


def test_spent_weapons_stay_spent_in_clones_and_pickles() -> None:
    """The spent weapon is part of the unit's game state: a clone taken before the shot still
    has it, clones and pickles taken after do not."""
    state = _scene({"A1": (24.0, 8.0), "B2": (24.0, 17.0)})
    before = state.clone()
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert "Flare Bomb" in limited_names(before.units["A1"].unit)
    for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
        assert limited_names(copy.units["A1"].unit) == ()
        _again(copy, "A1")
        gff.apply(copy, Action(Kind.HOLD, "A1"))
        gff.apply(copy, Action(Kind.SHOOT, "A1", target="B2"))
        assert _shots(copy)[-1]["weapons"] == ["Carbine"]


def test_option_off_uses_limited_weapons_every_time() -> None:
    """``GffOptions(limited=False)``: the old reading, the bomb fires in every shot."""
    state = _scene({"A1": (24.0, 8.0), "B2": (24.0, 17.0)}, limited=False)
    for _ in range(2):
        _again(state, "A1")
        gff.apply(state, Action(Kind.HOLD, "A1"))
        gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert [s["weapons"] for s in _shots(state)] == [["Carbine", "Flare Bomb"]] * 2


def test_the_rules_commander_does_not_count_a_spent_weapon() -> None:
    """The commander's expected damage of the Grenadiers drops to the Carbines' once the bomb is
    spent, and the Bombers' shooting estimate drops to nothing."""
    state = _scene({"A1": (24.0, 8.0), "A2": (30.0, 8.0), "B2": (24.0, 17.0)})
    gren, bombers, rifles = state.units["A1"], state.units["A2"], state.units["B2"]

    def shot(us: UnitState) -> float:
        return expected_damage(us, rifles, melee=False, distance=8.0, charging=False)

    full, satchel = shot(gren), shot(bombers)
    carbines = replace(gren, unit=without_limited(gren.unit, ["Flare Bomb"]))
    assert satchel > 0 and shot(carbines) < full
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target="B2"))
    assert (rifles.models, rifles.markers) == (3, 0)  # every hit blocked: the same target
    assert shot(gren) == shot(carbines)
    _again(state, "A2")
    gff.apply(state, Action(Kind.HOLD, "A2"))
    gff.apply(state, Action(Kind.SHOOT, "A2", target="B2"))
    assert shot(bombers) == 0.0
