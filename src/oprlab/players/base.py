"""The commander interface: given the game and the legal actions, choose one."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from oprlab.errors import UnknownNameError
from oprlab.game.play import Commander

__all__ = ["COMMANDERS", "Commander", "get_commander"]

COMMANDERS: dict[str, Callable[[int], Commander]] = {}


def get_commander(name: str, seed: int = 0) -> Commander:
    """A commander by name; ``seed`` drives any choices it makes at random."""
    for module in ("random_commander", "rules_commander"):  # each registers itself
        import_module(f"oprlab.players.{module}")

    try:
        return COMMANDERS[name](seed)
    except KeyError:
        raise UnknownNameError(
            "unknown commander", value=name, expected=" or ".join(sorted(COMMANDERS))
        ) from None
