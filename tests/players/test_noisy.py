"""Noise as a knob (issue 14, item 3): ``rules:0.2`` plays a uniformly random legal action with
probability 0.2 from its own stream, else the base commander's choice; bad specs are one line."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import oprlab.cli
from oprlab.errors import OptionError, UnknownNameError
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.players.noisy import NoisyCommander
from oprlab.rng import commander_stream
from tests.game import line, specials


class First:
    """Always the first listed action: a base whose choice is known."""

    name = "first"

    def choose(self, state: object, actions: Sequence[int]) -> int:
        return actions[0]


def test_noise_replaces_the_choice_with_probability_p() -> None:
    """With p = 0.5 over ten actions a decision differs from the base's with probability
    0.5 * 9/10 = 0.45 (the random pick may be the base's own). Over 4,000 decisions the count
    has sd sqrt(4000 * 0.45 * 0.55) = 31.5, so 1,800 +- 130 (4 sd) holds for any seed; and the
    random picks are uniform: each of the ten is picked 4000 * 0.05 = 200 +- 60 times (4.4 sd)
    besides the base's."""
    noisy = NoisyCommander(First(), 0.5, seed=7)
    picks = [noisy.choose(None, list(range(10))) for _ in range(4000)]
    differ = sum(p != 0 for p in picks)
    assert abs(differ - 1800) <= 130
    for action in range(1, 10):
        assert abs(picks.count(action) - 200) <= 60


def test_no_noise_plays_the_base_game_and_noise_replays() -> None:
    """``rules:0`` is the rules commander's game exactly (the coin never lands); ``rules:0.3``
    replays from its seed and plays another game than ``rules``."""

    def log(names: tuple[str, str]) -> object:
        cs = [get_commander(n, commander_stream(4, i)) for i, n in enumerate(names)]
        _, state = play_game(line(), specials(), cs, seed=4)
        return state.log.events

    assert log(("rules:0", "rules")) == log(("rules", "rules"))
    noisy = log(("rules:0.3", "rules"))
    assert noisy == log(("rules:0.3", "rules"))
    assert noisy != log(("rules", "rules"))


def test_noisy_names_say_the_noise() -> None:
    """The name results record: the base's name and the probability as a plain number."""
    assert get_commander("rules:0.20").name == "rules:0.2"
    assert get_commander("random:1").name == "random:1"


@pytest.mark.parametrize("spec", ["rules:abc", "rules:1.5", "rules:-0.1", "rules:nan", "rules:"])
def test_bad_noise_names_the_value_and_what_is_right(spec: str) -> None:
    """A probability must be a number from 0 to 1; the error quotes the spec."""
    with pytest.raises(OptionError, match="from 0 to 1") as info:
        get_commander(spec)
    assert repr(spec) in str(info.value)


def test_too_many_parts_and_unknown_bases() -> None:
    """``rules:0.1:0.2`` has one part too many; an unknown base lists the names there are."""
    with pytest.raises(OptionError, match="too many parts"):
        get_commander("rules:0.1:0.2")
    with pytest.raises(
        UnknownNameError,
        match="random or rules or rules-aggressive or rules-cautious or rules-v1 or search",
    ):
        get_commander("clever:0.2")


def test_bad_noise_on_the_command_line_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``battle --commander-a rules:2``: one ``error:`` line, exit code 2, before any play."""
    code = oprlab.cli.main(
        ["battle", "gff/shooty-150.txt", "gff/melee-150.txt", "--commander-a", "rules:2"]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("error: ") and "'rules:2'" in err[0] and "from 0 to 1" in err[0]
