"""A commander that picks uniformly among the legal actions (the baseline to beat)."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.actions import Action
from oprlab.game.state import GameState
from oprlab.players.base import COMMANDERS
from oprlab.rng import SeedLike, own_generator


class RandomCommander:
    """Uniform over legal actions, from its own seeded generator (so games replay)."""

    name = "random"

    def __init__(self, seed: SeedLike = 0) -> None:
        self.rng = own_generator(seed)

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        return actions[int(self.rng.integers(len(actions)))]


COMMANDERS["random"] = RandomCommander
