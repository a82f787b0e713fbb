"""``roll_off_winner``: an experimenter's option that fixes who wins the roll-off deciding who
goes first (the balance lab's ``first`` factor), in every system that has one."""

from __future__ import annotations

from typing import Any

import pytest

from oprlab.errors import UserError
from oprlab.game.options import parse_options
from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.rng import commander_stream
from tests.game.golden import _army

#: system, its armies, the log event of the roll-off and the key naming its winner.
CASES = [
    ("gff", ("gff/shooty-150.txt", "gff/melee-150.txt"), "deployment", "first"),
    ("riverside", ("gff/shooty-150.txt", "gff/melee-150.txt"), "roll_off", "winner"),
    ("wwpd", ("wwpd/colonial.yaml", "wwpd/colonial.yaml"), "setup", "first"),
]


def _game(system: str, armies: tuple[str, str], seed: int, winner: str) -> list[Any]:
    commanders = [get_commander("random", commander_stream(seed, i)) for i in (0, 1)]
    short = {"rounds": 1} if system == "wwpd" else {}  # WWPD's slow turns: one round will do
    options = find_system(system).readings(roll_off_winner=winner, **short)
    _, state = play_game(
        _army(system, armies[0]),
        _army(system, armies[1]),
        commanders,
        seed=seed,
        system=system,
        options=options,
    )
    return list(state.log.events)


def _winner(events: list[Any], event: str, key: str) -> int:
    return int(next(e[key] for e in events if e["kind"] == event))


@pytest.mark.parametrize(("system", "armies", "event", "key"), CASES)
def test_a_fixed_roll_off_winner_wins_and_the_dice_stay_the_same(
    system: str, armies: tuple[str, str], event: str, key: str
) -> None:
    """seed 003 "Deployment" 1 (GFF), seed 002 "Choosing Deployment Zone and Activation
    Order" (Riverside), seed 004's roll-off (WWPD): the roll-off is still rolled, so fixing
    its winner to the side the dice gave replays the game exactly, and fixing the other side
    makes that side the winner."""
    seed = 3
    dice = _game(system, armies, seed, "rolloff")
    won = _winner(dice, event, key)
    assert _game(system, armies, seed, "AB"[won]) == dice
    other = _game(system, armies, seed, "AB"[1 - won])
    assert _winner(other, event, key) == 1 - won


def test_the_option_is_settable_on_the_command_line_and_checked() -> None:
    for system in ("gff", "riverside", "wwpd"):
        got = parse_options(system, ["roll_off_winner=B"])
        assert got.roll_off_winner == "B"
        with pytest.raises(UserError, match="rolloff or A or B"):
            parse_options(system, ["roll_off_winner=C"])
    with pytest.raises(UserError, match="roll_off_winner"):
        find_system("gff").readings(roll_off_winner="first")
