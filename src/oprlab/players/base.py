"""The commander interface: given the game and the legal actions, choose one.

A commander is named by a spec: ``NAME``, ``NAME:ARG`` for commanders that read an argument
(``search:200``: its node budget), and either followed by ``:P``, noise (``rules:0.2``: a
uniformly random legal action with probability 0.2, :mod:`oprlab.players.noisy`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module

from oprlab.errors import OptionError, UnknownNameError
from oprlab.game.play import Commander
from oprlab.rng import SeedLike

__all__ = ["COMMANDERS", "TUNED", "Commander", "get_commander"]

COMMANDERS: dict[str, Callable[[SeedLike], Commander]] = {}
#: Commanders that read an argument after a colon (``search:200``): factory(seed, argument).
TUNED: dict[str, Callable[[SeedLike, str], Commander]] = {}
#: What a commander spec may be, for error messages.
SPEC_FORMS = "NAME, NAME:P (noise, as in rules:0.2) or search:BUDGET[:P]"


def get_commander(name: str, seed: SeedLike = 0) -> Commander:
    """A commander by spec; ``seed`` (an int, or its stream of a game seed:
    :func:`oprlab.rng.commander_stream`) drives any choices it makes at random."""
    for module in ("random_commander", "rules_commander", "search"):  # each registers itself
        import_module(f"oprlab.players.{module}")
    from oprlab.players.noisy import NoisyCommander, parse_noise

    head, *rest = name.split(":")
    if head in TUNED and rest:
        inner = TUNED[head](seed, rest.pop(0))
    elif head in COMMANDERS:
        inner = COMMANDERS[head](seed)
    else:
        raise UnknownNameError(
            "unknown commander",
            value=name,
            expected=" or ".join(sorted(COMMANDERS)) + f" ({SPEC_FORMS})",
        )
    if not rest:
        return inner
    if len(rest) > 1:
        raise OptionError("commander spec has too many parts", value=name, expected=SPEC_FORMS)
    return NoisyCommander(inner, parse_noise(rest[0], name), seed)
