"""One seed, independent streams (issue 10, defect 6; DESIGN "What we take" 2).

A game seed splits with ``SeedSequence.spawn`` into the dice, the generated table and each
commander's choices (``oprlab.rng.STREAMS``). The terrain generator's draws used to be the
game's first dice; now changing the table or a commander leaves the dice of an otherwise
identical game as they were (common random numbers), and one seed is still one game.
"""

from __future__ import annotations

import numpy as np
import pytest

from oprlab.analysis.series import SeriesSpec, play_one
from oprlab.errors import OptionError
from oprlab.game import gff, riverside
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players import get_commander
from oprlab.players.random_commander import RandomCommander
from oprlab.rng import STREAMS, commander_stream, generator, stream
from oprlab.table.terrain import generate_table
from tests.game import line, specials


def test_streams_are_reproducible_and_distinct() -> None:
    firsts = {name: tuple(generator(7, name).integers(0, 2**62, 4)) for name in STREAMS}
    assert len(set(firsts.values())) == len(STREAMS)  # four different streams
    assert tuple(generator(7, "dice").integers(0, 2**62, 4)) == firsts["dice"]
    assert stream(7, "commander_b").spawn_key == commander_stream(7, 1).spawn_key
    with pytest.raises(OptionError):
        stream(7, "weather")
    with pytest.raises(OptionError):
        commander_stream(7, 2)


def _start(state: GameState) -> object:
    return state.rng.bit_generator.state


def test_the_table_and_the_dice_are_different_streams() -> None:
    """The defect: ``--table random`` drew the terrain from the game's first dice. Now the
    dice a game starts from are the seed's dice stream, whatever the table."""
    dice = generator(11, "dice")
    roll_off, d3 = int(dice.integers(2)), int(dice.integers(1, 4)) + 2
    open_game = gff.new_game(line(), specials(), seed=11)
    on_terrain = gff.new_game(line(), specials(), seed=11, table=generate_table(11))
    (setup,) = [e for e in open_game.log.events if e["kind"] == "setup"]
    assert (setup["first"], setup["objectives"]) == (roll_off, d3)  # Mission 1-2 from the dice
    assert _start(open_game) == _start(on_terrain) == dice.bit_generator.state
    assert generator(11, "table").random() != generator(11, "dice").random()
    river = riverside.new_game(line(), line(), seed=11)
    assert _start(river) == _start(open_game)  # the same two draws: roll-off, D3


def _first_dice(commanders: tuple[str, str], seed: int, table: bool) -> list[object]:
    """The game's first dice as its log shows them: the objectives roll-off and D3 (``setup``)
    and the deployment roll-off (``deployment``)."""
    spec = [get_commander(c, commander_stream(seed, i)) for i, c in enumerate(commanders)]
    board = generate_table(seed) if table else None
    _, state = play_game(line(), line(), spec, seed=seed, table=board)
    return [e for e in state.log.events if e["kind"] in ("setup", "deployment")]


def test_a_changed_commander_or_table_keeps_the_dice() -> None:
    """Paired games: the same seed with another commander, or on another table, rolls the
    same first dice; and choosing never draws from the game's dice (a commander has its own
    stream), so what differs later is what the players did, not the dice they were given."""
    base = _first_dice(("rules", "rules"), 5, table=False)
    assert _first_dice(("random", "rules"), 5, table=False) == base
    assert _first_dice(("rules", "random"), 5, table=True) == base
    state = gff.new_game(line(), line(), seed=5)
    before = _start(state)
    for name in ("random", "rules"):
        get_commander(name, commander_stream(5, 0)).choose(state, gff.legal_actions(state))
    assert _start(state) == before


def test_a_commanders_own_stream_does_not_depend_on_the_other() -> None:
    """A random commander's choices come from its own stream: A's draws are the same whoever
    B is (and a series seeds them the same way as a single game)."""
    a1 = np.random.default_rng(commander_stream(9, 0)).integers(0, 100, 8)
    picker = get_commander("random", commander_stream(9, 0))
    assert isinstance(picker, RandomCommander)
    a2 = picker.rng.integers(0, 100, 8)
    assert list(a1) == list(a2)


def test_one_seed_is_still_one_game() -> None:
    """The same seed replays the same game, event for event (a series game too)."""
    spec = SeriesSpec(line(), specials(), ("random", "rules"), seed=0)
    assert play_one(spec, 21) == play_one(spec, 21)
    one = play_game(
        line(), line(), [get_commander("random", 1), get_commander("random", 2)], seed=21
    )
    two = play_game(
        line(), line(), [get_commander("random", 1), get_commander("random", 2)], seed=21
    )
    assert one[1].log.events == two[1].log.events
