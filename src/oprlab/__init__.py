"""oprlab: a rules laboratory for One Page Rules style wargames.

The library face: ``load_army`` (a file or a sample's name), ``find_system``, ``play_game``,
``attack_odds``, ``get_mechanic`` and ``get_commander``. Each is imported the first time it is
asked for (a module ``__getattr__``), so ``import oprlab`` and the command line start fast.

Layers (imports point down only; the core does no I/O):
``prob`` -> ``mechanics`` -> ``units`` -> ``rules`` -> ``table`` -> ``game`` -> ``players``
-> ``analysis`` -> edges (``cli``, ``web``, file formats).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from oprlab.version import __version__

if TYPE_CHECKING:
    from oprlab.analysis.odds import attack_odds
    from oprlab.game.play import play_game
    from oprlab.game.systems import find_system
    from oprlab.mechanics import get_mechanic
    from oprlab.players import get_commander
    from oprlab.units.load import load_army

#: Each name of the face and the module it lives in.
_FACE = {
    "load_army": "oprlab.units.load",
    "find_system": "oprlab.game.systems",
    "play_game": "oprlab.game.play",
    "attack_odds": "oprlab.analysis.odds",
    "get_mechanic": "oprlab.mechanics",
    "get_commander": "oprlab.players",
}

__all__ = [
    "__version__",
    "attack_odds",
    "find_system",
    "get_commander",
    "get_mechanic",
    "load_army",
    "play_game",
]


def __getattr__(name: str) -> Any:
    if name in _FACE:
        found = getattr(import_module(_FACE[name]), name)
        globals()[name] = found  # asked once: later lookups do not come here
        return found
    raise AttributeError(f"module 'oprlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACE))
