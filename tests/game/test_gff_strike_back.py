"""The strike back as the charged side's decision (issue 10; seed 003_8abb008d4113ed75
"Melee": "Defenders may choose to strike back, but don't have to"; "Fatigue": "After charging
or striking back, units only hit on unmodified results of 6 in melee until the end of that
round"; "Counter": "Strikes first with this weapon when charged"). The armies are invented."""

from __future__ import annotations

import pytest

from oprlab.errors import UserError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_melee import StrikeBackDeciding
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import Test
from oprlab.players.gff_choices import strike_back as rules_strike_back
from oprlab.rules.gff import melee
from tests.game import Scripted, army
from tests.game.test_gff_rounds import scene

BRAWL = """++ Test Brawl [GFF 150pts] ++

Raiders [3] Q4+ D4+ | 30pts
3x Blade (A1)

Pike Wall [3] Q4+ D5+ | 30pts
3x Pike (A1, Counter), 3x Knife (A1)

Beast [1] Q4+ D4+ | 60pts | Tough(6), Impact(6)
Horns (A1)

Guards [3] Q4+ D4+ | 30pts
3x Knife (A1)
"""


def _charge(
    charger: str, charged: str, options: GffOptions | None = None
) -> tuple[GameState, Scripted]:
    """``charger`` (side A) charges ``charged`` (side B) 5" away; no die ever succeeds, so
    nobody is hurt and the exchange only shows who strikes."""
    mech = Scripted(lambda c: c.test is Test.DEFENSE)
    where = {charger: (24.0, 20.0), charged: (24.0, 25.0)}
    state = scene(army(BRAWL), army(BRAWL), where, mechanic=mech)
    if options is not None:
        state.options = options
    gff.apply(state, Action(Kind.CHARGE, charger, target=charged))
    return state, mech


def test_the_charged_side_decides_after_the_strikes() -> None:
    """Without Counter, the decision comes once the charger has struck: side B is asked, with
    striking back (1) or not (0) listed."""
    state, mech = _charge("A1", "B4")
    assert state.phase == "strike_back" and state.active == 1
    assert gff.legal_actions(state) == [
        Action(Kind.STRIKE_BACK, "B4", value=0),
        Action(Kind.STRIKE_BACK, "B4", value=1),
    ]
    assert len(mech.of(Test.HIT)) == 3  # the Raiders' three Blades already rolled
    assert isinstance(state.strike_back, StrikeBackDeciding)


@pytest.mark.parametrize("yes", [True, False])
def test_striking_back_fatigues_and_not_striking_back_does_not(yes: bool) -> None:
    """seed 003 "Fatigue": "After ... striking back": a unit that strikes back is Fatigued; one
    that does not strike back rolls no dice and stays fresh."""
    state, mech = _charge("A1", "B4")
    gff.apply(state, Action(Kind.STRIKE_BACK, "B4", value=int(yes)))
    (fight,) = state.log.of_kind("melee")
    (choice,) = state.log.of_kind("strike_back")
    assert choice == {"kind": "strike_back", "unit": "B4", "target": "A1", "chosen": yes}
    assert fight["struck_back"] is yes
    assert len(mech.of(Test.HIT)) == 3 + (3 if yes else 0)
    assert state.units["B4"].fatigued is yes and state.units["A1"].fatigued
    assert state.phase == "activation"


def test_counter_models_decide_before_they_strike_first() -> None:
    """seed 003 "Counter": Counter weapons strike first when charged, and only if the unit
    strikes back: the decision comes before the charger's strikes; not striking back, the
    Pikes do not strike and neither do the Knives."""
    state, mech = _charge("A1", "B2")
    assert state.phase == "strike_back" and mech.of(Test.HIT) == []
    gff.apply(state, Action(Kind.STRIKE_BACK, "B2", value=0))
    assert len(mech.of(Test.HIT)) == 3 and not state.log.of_kind("melee")[0]["struck_back"]


def test_always_strike_back_is_a_reading_option() -> None:
    """``GffOptions(strike_back="always")``: no decision, the charged unit always strikes back
    (the reading games played before)."""
    state, mech = _charge("A1", "B4", GffOptions(strike_back="always"))
    assert state.phase == "activation" and not state.log.of_kind("strike_back")
    assert state.log.of_kind("melee")[0]["struck_back"] and len(mech.of(Test.HIT)) == 6
    with pytest.raises(ValueError, match="strike back"):
        GffOptions(strike_back="sometimes")


def test_a_bad_strike_back_is_refused() -> None:
    """Only the charged unit decides, with 0 or 1, and only while asked."""
    state, _ = _charge("A1", "B4")
    for bad in (
        Action(Kind.STRIKE_BACK, "B4", value=2),
        Action(Kind.STRIKE_BACK, "B1", value=1),
        Action(Kind.HOLD, "B4"),
    ):
        assert not gff.is_legal(state, bad)
    with pytest.raises(UserError):
        gff.apply(state, Action(Kind.STRIKE_BACK, "B4", value=2))


def test_the_rules_commander_weighs_the_strike_back_against_fatigue() -> None:
    """The rules commander's habit (docs/rules/gff.md): the Beast's strike back is one Horns
    die (expected 1/2 hit at Q4+); charging later this round, rested, it would roll Impact(6)
    too (6 dice at 2+), fatigued only its 6s: Fatigue costs far more than the strike back
    gains, so it holds back while it has yet to activate; once it has, Fatigue costs nothing
    and it strikes back."""
    state, _ = _charge("A1", "B3")
    actions = gff.legal_actions(state)
    waiting = state.strike_back
    assert isinstance(waiting, StrikeBackDeciding) and waiting.blow.step is melee.Step.STRIKE_BACK
    assert rules_strike_back(state, actions).value == 0
    state.units["B3"].activated = True
    assert rules_strike_back(state, actions).value == 1
