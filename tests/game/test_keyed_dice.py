"""``play_game``'s keyed dice (an experimenter's design, not a rule): each activation rolls from
its own stream, keyed on the seed, the round and the unit, so two games of one seed that part
still roll the same dice for the same unit's activation; the default stream is every stored
game's procedure (the goldens pin it)."""

from __future__ import annotations

from typing import Any

import pytest

from oprlab.errors import OptionError
from oprlab.game.actions import ACTIVATIONS
from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.rng import activation_dice, commander_stream
from tests.game import line, specials


class Watched:
    """A rule system that notes the dice's state as each activation is applied."""

    def __init__(self, system: str) -> None:
        self.inner = find_system(system)
        self.seen: list[tuple[int, str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def apply(self, state: Any, action: Any) -> None:
        if action.kind in ACTIVATIONS:
            self.seen.append((state.round, action.unit, state.rng.bit_generator.state))
        self.inner.apply(state, action)


def _game(system: str, dice: str, b: str = "rules", seed: int = 7) -> tuple[Watched, Any]:
    rules = Watched(system)
    cmds = [get_commander(n, commander_stream(seed, i)) for i, n in enumerate(("rules", b))]
    _, state = play_game(line(), specials(), cmds, seed=seed, system=rules, dice=dice)
    return rules, state


@pytest.mark.parametrize("system", ["gff", "riverside"])
def test_each_activation_rolls_the_dice_of_its_seed_round_and_unit(system: str) -> None:
    rules, _ = _game(system, "keyed")
    assert len(rules.seen) > 10
    for round_, unit, dice in rules.seen:
        assert dice == activation_dice(7, round_, unit).bit_generator.state


def test_two_games_that_part_roll_alike_for_the_same_units_activation() -> None:
    """Side B's commander changed (rules-v1 for rules): the games part, and every activation
    both games hold (a unit in a round) rolled the same dice in each; on the stream, later
    activations roll differently."""
    keyed = [_game("gff", "keyed", b)[0].seen for b in ("rules", "rules-v1")]
    stream = [_game("gff", "stream", b)[0].seen for b in ("rules", "rules-v1")]
    for a, b in (keyed, stream):
        assert [x[:2] for x in a] != [x[:2] for x in b]  # the games parted
    both = [{(r, u): d for r, u, d in seen} for seen in keyed]
    common = both[0].keys() & both[1].keys()
    assert len(common) > 10 and all(both[0][k] == both[1][k] for k in common)
    streamed = [{(r, u): d for r, u, d in seen} for seen in stream]
    shared = streamed[0].keys() & streamed[1].keys()
    assert any(streamed[0][k] != streamed[1][k] for k in shared)


def test_keyed_games_replay_and_differ_from_the_stream() -> None:
    first, again, plain = (_game("gff", d)[1].log.events for d in ("keyed", "keyed", "stream"))
    assert first == again and first != plain


def test_a_dice_design_outside_the_list_or_system_is_one_line() -> None:
    cmds = [get_commander("rules"), get_commander("rules")]
    with pytest.raises(OptionError, match=r"unknown dice design.*'loaded'.*stream or keyed"):
        play_game(line(), specials(), cmds, seed=1, dice="loaded")
    with pytest.raises(OptionError, match=r"keyed dice follow OPR activations.*gff or riverside"):
        play_game(line(), specials(), cmds, seed=1, system="wwpd", dice="keyed")
