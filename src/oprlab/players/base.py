"""The commander interface: given the game and the legal actions, choose one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Protocol

from oprlab.errors import UnknownNameError
from oprlab.game.actions import Action
from oprlab.game.state import GameState
from oprlab.rng import SeedLike


class Commander(Protocol):
    """A player: chooses one of ``actions`` (never empty) for the side to act."""

    name: str

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action: ...


COMMANDERS: dict[str, Callable[[SeedLike], Commander]] = {}


def get_commander(name: str, seed: SeedLike = 0) -> Commander:
    """A commander by name; ``seed`` (an int, or its stream of a game seed:
    :func:`oprlab.rng.commander_stream`) drives any choices it makes at random."""
    for module in ("random_commander", "rules_commander"):  # each registers itself
        import_module(f"oprlab.players.{module}")

    try:
        return COMMANDERS[name](seed)
    except KeyError:
        raise UnknownNameError(
            "unknown commander", value=name, expected=" or ".join(sorted(COMMANDERS))
        ) from None
