"""The DragonQuest fighters' habits: each choice of players/dq_habits.py in a scene made for it
(seed 001_7377b7b33dc9f88d, 57.1 charging, 57.3 withdraw/knockout/restrain, Evading)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from oprlab.errors import UnknownNameError
from oprlab.game.dq.engine import advance, next_step
from oprlab.game.dq.rounds import new_fight
from oprlab.game.dq.state import Action, DecisionStep, Duel, Fight, Status
from oprlab.players.dq_habits import DuelHabits, get_duel_habits, strike_odds, withdraw_odds
from oprlab.rules.dq.combat import AttackKind
from oprlab.units.dq_fighter import DqFighter
from tests.game.dq import choose, engaged, fighter, fresh, rolls, waiting

HABITS = DuelHabits()


def _choice(fight: Fight, habits: DuelHabits = HABITS) -> Action:
    step = next_step(fight)
    assert isinstance(step, DecisionStep)
    return habits.choose(fight, step, step.options(fight))


def _opening(a: DqFighter) -> Action:
    fight, _ = advance(new_fight(Duel((a, fighter("B")))))
    fight, _ = rolls(fight, 100)  # A's 10 against B's 10: A first (its PC is higher)
    return _choice(fight)


@pytest.mark.parametrize(
    ("a", "expected"),
    [
        (fighter("A", pc=30, hexes=2), Action("charge", AttackKind.TRAMPLE)),
        (fighter("A", pc=30, pole=True), Action("charge", AttackKind.STRIKE)),
        (fighter("A", pc=30, shield=10), Action("charge", AttackKind.SHIELD_RUSH)),
        (fighter("A", pc=30), Action("close")),
    ],
)
def test_opening(a: DqFighter, expected: Action) -> None:
    """Before the two meet: charge where 57.1 gives +20 (a pole weapon or a shield rush) or the
    fighter tramples; close rather than charge at -15."""
    assert _opening(a) == expected


def test_strikes_by_default_and_parries_when_allowed() -> None:
    fight = engaged(fighter("A", pc=16), fighter("B"))
    assert _choice(fight) == Action("attack", AttackKind.STRIKE)
    evader = fighter("B", pc=17, rank=2)
    scene = choose(engaged(fighter("A"), evader), "evade")
    scene = choose(scene, "attack", AttackKind.STRIKE)
    scene, _ = rolls(scene, 60, 3)
    assert waiting(scene) == "ParryChoice" and _choice(scene) == Action("parry")


def test_withdraws_when_losing() -> None:
    """Endurance down to a third and behind in health: withdraw, if the roll succeeds 3 times
    in 10 (PS 20 against 15: D10 >= 5, 6 in 10); not when it cannot (PS 15 against 20)."""
    strong, weak = fighter("A", pc=16, ps=20), fighter("B", ps=15)
    hurt = (Status(ft=0, en=5), fresh(weak))
    assert withdraw_odds(engaged(strong, weak), 0) == Fraction(6, 10)
    assert _choice(engaged(strong, weak, status=hurt)) == Action("withdraw")
    assert _choice(engaged(fighter("A", pc=16, ps=15), fighter("B", ps=20), status=hurt)) == (
        Action("attack", AttackKind.STRIKE)
    )
    fine = (Status(ft=0, en=6), Status(ft=0, en=5))  # low, but not behind
    assert _choice(engaged(strong, weak, status=fine)) == Action("attack", AttackKind.STRIKE)


def test_capture_aim() -> None:
    """``aim: capture``: restrain when 57.3's chance is at least 50, else knock out."""
    catcher = fighter("A", pc=16, aim="capture")
    assert _choice(engaged(catcher, fighter("B"))) == Action("attack", AttackKind.KNOCKOUT)
    wrestler = fighter("A", pc=16, ps=40, aim="capture")  # 3 x (55 - 30) = 75
    assert _choice(engaged(wrestler, fighter("B"))) == Action("attack", AttackKind.RESTRAIN)


def test_tramples_a_standing_opponent() -> None:
    troll = fighter("A", pc=16, hexes=2)
    assert _choice(engaged(troll, fighter("B"))) == Action("attack", AttackKind.TRAMPLE)
    down = (fresh(troll), Status(ft=15, en=15, prone=True))
    assert _choice(engaged(troll, fighter("B"), status=down)) == Action("attack", AttackKind.STRIKE)


def test_evades_when_a_parry_is_likelier_than_a_blow() -> None:
    """A hopeless attacker (SC 5 against Defence 60) evades: its rank makes a parry of the
    opponent's strike likelier than its own blow landing. The evader habits always evade."""
    hopeless = fighter("A", pc=80, bc=0, md=5, rank=0)  # acts first despite B's AG 60
    guarded = fighter("B", ag=60)
    fight = engaged(hopeless, guarded)
    land, _ = strike_odds(fight, 0)
    _, parry = strike_odds(fight, 1, defender_evading=True)
    assert parry > land
    assert _choice(fight) == Action("evade")
    assert _choice(engaged(fighter("A", pc=16), fighter("B")), DuelHabits("evader")) == Action(
        "evade"
    )


def test_habits_by_name() -> None:
    assert get_duel_habits("evader").name == "evader"
    with pytest.raises(UnknownNameError, match="evader or habits"):
        get_duel_habits("berserk")
