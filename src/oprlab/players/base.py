"""The commander interface: given the game and the legal actions, choose one.

Commanders come in families, one per kind of procedure (``opr`` for GFF and Riverside, ``wwpd``
for WWPD's I-go-U-go turns); a rule system names its family (``commander_family``), so
:func:`get_commander` finds the right commander without knowing any system by name.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from oprlab.errors import UnknownNameError
from oprlab.game.play import Commander
from oprlab.rng import SeedLike

__all__ = ["COMMANDERS", "FAMILIES", "Commander", "get_commander"]

Factory = Callable[[SeedLike], Commander]

#: The OPR family's commanders by name (each module of :data:`_MODULES` ``["opr"]`` registers
#: itself here on import).
COMMANDERS: dict[str, Factory] = {}

#: Commanders by family, then name.
FAMILIES: dict[str, dict[str, Factory]] = {"opr": COMMANDERS, "wwpd": {}}

#: The modules that register each family's commanders (imported when first asked for).
_MODULES: dict[str, tuple[str, ...]] = {
    "opr": ("random_commander", "rules_commander"),
    "wwpd": ("wwpd_commanders",),
}


def get_commander(name: str, seed: SeedLike = 0, *, system: Any = None) -> Commander:
    """A commander by name for ``system`` (a name or a rule system; ``None``: an OPR system);
    ``seed`` (an int, or its stream of a game seed: :func:`oprlab.rng.commander_stream`) drives
    any choices it makes at random.

    Raises:
        OptionError: ``system`` names no system with a full-game procedure.
        UnknownNameError: no commander of that name plays the system.
    """
    family = "opr" if system is None else _system(system).commander_family
    for module in _MODULES[family]:  # each registers itself
        import_module(f"oprlab.players.{module}")
    known = FAMILIES[family]
    try:
        return known[name](seed)
    except KeyError:
        raise UnknownNameError(
            "unknown commander", value=name, expected=" or ".join(sorted(known))
        ) from None


def _system(system: Any) -> Any:
    if isinstance(system, str):
        from oprlab.game.systems import find_system

        return find_system(system)
    return system
