"""Whole GFF games with the edge choice, enemy Casters' tokens and benny defence (seed
003_8abb008d4113ed75 "Deployment" 1-2, "Caster(X)"; seed 000_e2a2d86473ae65c4 "Bennies"): the
random and rules commanders both take every new decision, games end and replay exactly."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players import get_commander
from oprlab.players.base import Commander
from tests.game.test_gff_casting import coven

NEW = {Kind.CHOOSE_ZONE, Kind.RESIST, Kind.DEFEND}


class Spy:
    """Counts the kinds of decisions a commander makes."""

    def __init__(self, inner: Commander, kinds: Counter[Kind]) -> None:
        self.inner, self.kinds, self.name = inner, kinds, inner.name

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        a: Action = self.inner.choose(state, actions)
        assert a in actions
        self.kinds[a.kind] += 1
        return a


@pytest.mark.parametrize("names", [("rules", "rules"), ("random", "random"), ("rules", "random")])
def test_commanders_take_the_new_decisions_and_games_replay(names: tuple[str, str]) -> None:
    """Two Caster armies under clock-bennies: every new kind of decision comes up over a few
    seeds; each game lasts 4 rounds and the same seed gives the same log."""
    kinds: Counter[Kind] = Counter()
    for seed in range(3):
        logs = []
        for _ in range(2):
            spies = [Spy(get_commander(n, seed + i), kinds) for i, n in enumerate(names)]
            result, state = play_game(coven(), coven(), spies, seed=seed, mechanic="clock-bennies")
            assert result.rounds == 4 and state.done
            logs.append(state.log.events)
        assert logs[0] == logs[1]
    wanted = NEW if "rules" in names else {Kind.CHOOSE_ZONE, Kind.RESIST}
    assert wanted <= set(kinds)
