"""The commander interface: given the game and the legal actions, choose one."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from oprlab.errors import UnknownNameError
from oprlab.game.play import Commander
from oprlab.rng import SeedLike

__all__ = ["COMMANDERS", "Commander", "get_commander"]

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
