"""A DragonQuest duel round by round (seed 001_7377b7b33dc9f88d, 57.3): initiative, the opening
charge and repulse, staying conscious, stun recovery, withdrawal, the round limit; every die
chosen by the test."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from oprlab.game.dq.engine import (
    IllegalChoiceError,
    advance,
    apply_choice,
    chance_outcomes,
    next_step,
    play,
)
from oprlab.game.dq.rounds import UnengagedInitiative, new_fight
from oprlab.game.dq.state import (
    Action,
    ChanceStep,
    DecisionStep,
    Duel,
    Fight,
    Out,
    Status,
    StrikeRecord,
)
from oprlab.players.dq_habits import DuelHabits, RandomHabits
from oprlab.rng import make_rng
from oprlab.rules.dq.combat import AttackKind
from oprlab.rules.dq.duel_rules import DuelRules
from tests.game.dq import choose, engaged, fighter, fresh, roll, rolls, waiting

A = fighter("A", pc=15)  # SC 50 + 15 = 65, Defence 15, engaged initiative 30
B = fighter("B", pc=12, ms=2, rank=3)  # unengaged D10 + 16; engaged 12 + 15 + 3 = 30


def _side(fight: Fight) -> int:
    """The side whose decision the duel waits for."""
    step = next_step(fight)
    assert isinstance(step, DecisionStep)
    return step.side


def test_unengaged_initiative_and_ties() -> None:
    """seed 001 57.3 "Unengaged Initiative: D10 + (PC + 2 x Military Scientist)": A rolls
    D10 + 15, B D10 + 16. Two D10s (one face of 100: A's tens, B's units); equal totals are
    rolled again. A first needs A's D10 two above B's: 36 pairs of the 91 that are not tied."""
    fight, _ = advance(new_fight(Duel((A, B))))
    step = next_step(fight)
    assert isinstance(step, UnengagedInitiative)
    assert step.read(fight, 1) == 1  # 1 + 15 against 1 + 16: B first
    assert step.read(fight, 91) == 0  # 10 + 15 against 1 + 16: A first
    assert step.rerolled(step.read(fight, 11))  # 2 + 15 = 1 + 16
    law = {o: p for o, p, _ in chance_outcomes(fight, step)}
    assert law == {0: Fraction(36, 91), 1: Fraction(55, 91)}
    after, events = roll(fight, 91)
    assert "A 25 (D10 10), B 17 (D10 1)" in events[0].text
    assert waiting(after) == "Choose" and _side(after) == 0


def test_opening_charge_repulse_and_close() -> None:
    """Unengaged, a fighter charges (a strike, a shield rush with a shield, a trample when
    multi-hex) or closes. 57.3 "Repulse a charge attack: D10 >= prepared weapon Rank": B's
    Rank 3 repulses on 3 or more; on a 2 the charge lands, A's pole weapon at +20 (57.1)."""
    spear = fighter("A", pc=15, pole=True)
    fight, _ = advance(new_fight(Duel((spear, B))))
    fight, _ = roll(fight, 91)
    step = next_step(fight)
    assert step is not None and not isinstance(step, ChanceStep)
    assert step.options(fight) == (Action("charge", AttackKind.STRIKE), Action("close"))
    charged = choose(fight, "charge", AttackKind.STRIKE)
    assert charged.engaged and waiting(charged) == "Repulse"
    repulsed, events = roll(charged, 3)
    assert "repulses the charge" in events[0].text
    assert waiting(repulsed) == "Choose" and _side(repulsed) == 1
    landed, _ = roll(charged, 2)
    assert waiting(landed) == "AttackRoll"
    _, events = rolls(landed, 90, 90)
    strike = next(e for e in events if isinstance(e, StrikeRecord))
    assert strike.strike_chance == 50 + 15 + 20
    closed = choose(fight, "close")
    assert closed.engaged and _side(closed) == 1


def test_engaged_initiative_orders_the_round() -> None:
    """seed 001 57.3 "Engaged Initiative: PC + modified AG + weapon Rank + warrior Rank": the
    higher acts first; equal values (30 and 30 here) are rolled off on D10, again while tied."""
    first = engaged(fighter("A", pc=16), B)
    assert _side(first) == 0
    tied = engaged(A, B)
    assert waiting(tied) == "InitiativeRollOff"
    assert _side(roll(tied, 13)[0]) == 1  # A's 2, B's 3
    assert _side(roll(tied, 21)[0]) == 0  # A's 3, B's 1


def test_engaged_options_and_an_illegal_choice() -> None:
    """The choices of an engaged fighter in a fixed order: attacks that apply, evade, withdraw,
    offensive withdrawal, pass; a choice not offered is refused with the options named."""
    fight = engaged(fighter("A", pc=16), B)
    step = next_step(fight)
    assert step is not None and not isinstance(step, ChanceStep)
    assert [str(o) for o in step.options(fight)] == [
        "attack (strike)",
        "attack (disarm)",
        "attack (trip)",
        "attack (knockout)",
        "attack (restrain)",
        "evade",
        "withdraw",
        "offensive withdrawal (strike)",
        "pass",
    ]
    with pytest.raises(IllegalChoiceError, match=r"shield rush.*the options are"):
        apply_choice(fight, Action("attack", AttackKind.SHIELD_RUSH))


def test_stay_conscious_at_en_3_or_less() -> None:
    """seed 001 57.3 "Stay conscious: If EN <= 3, roll under (EN*WP)", at the start of each of
    its actions: EN 3, WP 15: 45 or less stays up, 46 faints and the duel is over."""
    fast = fighter("A", pc=16)
    status = (fresh(fast), Status(ft=15, en=3))
    fight = engaged(fast, B, status=status)
    fight = choose(fight, "pass")
    assert waiting(fight) == "StayConscious"
    up, _ = roll(fight, 45)
    assert waiting(up) == "Choose"
    down, events = roll(fight, 46)
    assert down.status[1].out == Out.UNCONSCIOUS and down.over and down.winner == 0
    assert "faints" in events[-1].text


def test_stun_recovery_takes_the_action() -> None:
    """seed 001 57.3 "Stun recovery: (2 x WP) + current Fatigue": WP 15 and FT 5 left: 35. The
    roll is the stunned fighter's action, pass or fail."""
    fast = fighter("A", pc=16)
    fight = engaged(fast, B, status=(fresh(fast), Status(ft=5, en=15, stunned=True)))
    fight = choose(fight, "pass")
    assert waiting(fight) == "StunRecovery"
    recovered, _ = roll(fight, 35)
    assert not recovered.status[1].stunned and recovered.round == 3
    still, _ = roll(fight, 36)
    assert still.status[1].stunned and still.round == 3


def test_withdraw_leaves_at_the_end_of_the_round() -> None:
    """seed 001 57.3 "Withdraw: (D10 + friendly PS - hostile PS) >= 10": PS 20 against 15
    needs 5. The withdrawing fighter is in a defensive withdrawal (+20, 57.2) until its next
    action; it leaves when the round ends, and the other wins."""
    strong = fighter("B", ps=20, pc=20)
    fight = engaged(A, strong)
    fight = choose(fight, "withdraw")
    assert waiting(fight) == "WithdrawRoll"
    stays, _ = roll(fight, 4)
    assert not stays.status[1].leaving
    fight, _ = roll(fight, 5)
    assert fight.status[1].leaving and fight.status[1].withdrawing
    fight = choose(fight, "attack", AttackKind.STRIKE)
    fight, events = rolls(fight, 90, 90)
    assert next(e for e in events if isinstance(e, StrikeRecord)).defence == 15 + 20
    assert fight.over and fight.status[1].out == Out.WITHDREW and fight.winner == 0


def test_offensive_withdrawal_strikes_at_minus_20_then_rolls() -> None:
    """seed 001 57.1 "-20 attack is an offensive withdrawal", then the 57.3 withdraw roll."""
    fight = engaged(fighter("A", pc=16, ps=20), B)
    fight = choose(fight, "offensive withdrawal", AttackKind.STRIKE)
    fight, events = rolls(fight, 90, 90)
    assert next(e for e in events if isinstance(e, StrikeRecord)).strike_chance == 65 - 20
    assert waiting(fight) == "WithdrawRoll"


def test_both_withdraw_is_a_draw_and_the_round_limit_too() -> None:
    """Both breaking away leaves nobody holding the field: a draw. A duel still on after
    ``max_rounds`` rounds is a draw as well."""
    a, b = fighter("A", ps=20, pc=16), fighter("B", ps=20)
    fight = engaged(a, b)
    fight, _ = roll(choose(fight, "withdraw"), 10)
    fight, _ = roll(choose(fight, "withdraw"), 10)
    assert fight.draw and fight.over and fight.winner is None
    limited = engaged(a, b, DuelRules(max_rounds=2))
    limited = choose(choose(limited, "pass"), "pass")
    assert limited.draw and limited.round == 3


def test_a_duel_replays_from_its_seed_and_pickles() -> None:
    """One seed, one duel: the same account twice; a fight in progress pickles."""
    duel = Duel((fighter("A", pole=True, modifier=3), fighter("B", shield=10, rank=2)))
    habits = [DuelHabits(), DuelHabits()]
    one = play(duel, habits, make_rng(5).rng)
    two = play(duel, habits, make_rng(5).rng)
    assert [e.text for e in one[1]] == [e.text for e in two[1]]
    assert one[0].over
    halfway, _ = play(duel, habits, make_rng(5).rng, rounds=2)
    copy = pickle.loads(pickle.dumps(halfway))
    assert copy.status == halfway.status and copy.steps == halfway.steps


def test_every_die_is_a_law_and_random_choices_never_break_a_duel() -> None:
    """Whatever a fighter chooses among the options (a random fighter tries them all), every die
    of the duel lists outcomes whose probabilities sum to 1, and the duel ends."""
    pairs = [
        (fighter("A", shield=10, hexes=2, entangling=True, ps=25), fighter("B", rank=4)),
        (fighter("A", pole=True, assassin=9), fighter("B", two_handed=True, armour=(3, 2, 1))),
    ]
    for i, (a, b) in enumerate(pairs):
        for resolution in ("opposed", "current"):
            duel = Duel((a, b), DuelRules(resolution=resolution, max_rounds=25))
            for seed in range(6):
                rng = make_rng(100 * i + seed).rng
                commanders = [
                    RandomHabits(make_rng(seed).rng),
                    RandomHabits(make_rng(seed + 50).rng),
                ]
                fight, _ = advance(new_fight(duel))
                while (step := next_step(fight)) is not None:
                    if isinstance(step, ChanceStep):
                        law = chance_outcomes(fight, step)
                        assert sum(p for _, p, _ in law) == 1
                        outcome, _, face = law[int(rng.integers(len(law)))]
                        assert step.read(fight, face) == outcome
                        fight = step.apply(fight.evolve(steps=fight.steps[1:]), outcome, face)[0]
                        fight, _ = advance(fight)
                    else:
                        options = step.options(fight)
                        action = commanders[step.side].choose(fight, step, options)
                        fight, _ = apply_choice(fight, action)
                assert fight.over
