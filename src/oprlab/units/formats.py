"""Army file formats by name: how a rule system's armies are read and checked before play.

A rule system names its format (``army_format``: ``"army-forge"`` for Army Forge text or JSON,
``"wwpd"`` for a WWPD force file); the command line and the library face read armies through
:func:`army_format`, so no layer above asks which system it is. Each format reads a file path
or a bundled sample's name (:func:`~oprlab.units.load.resolve_army`) and lists the problems that
keep a list from being played (``[]``: none beyond what reading it already refused).

May import the other ``oprlab.units`` modules, ``oprlab.files`` and below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oprlab.errors import OptionError
from oprlab.files import read_text

__all__ = ["ARMY_FORMATS", "ArmyFormat", "army_format"]


@dataclass(frozen=True)
class ArmyFormat:
    """One way armies are written: a reader and a pre-game check.

    Attributes:
        name: how a rule system names it.
        what: the files it reads, for messages.
        load: reads a file path or a sample's name into the army value the system plays.
        problems: every problem of a read army that a game checks first (Army Forge lists:
            :func:`~oprlab.units.validate.playable_problems`).
    """

    name: str
    what: str
    load: Callable[[str | Path], Any]
    problems: Callable[[Any], list[Any]]


def _load_forge(ref: str | Path) -> Any:
    from oprlab.units.load import load_army

    return load_army(ref)


def _forge_problems(army: Any) -> list[Any]:
    from oprlab.units.validate import playable_problems

    return playable_problems(army)


def _load_wwpd(ref: str | Path) -> Any:
    from oprlab.units.load import resolve_army
    from oprlab.units.profiles import load_wwpd

    path = resolve_army(ref)
    return load_wwpd(read_text(path, "WWPD force file", "a WWPD YAML file"), str(path))


def _none(army: Any) -> list[Any]:
    return []  # a WWPD force file is checked whole as it is read (units.profiles)


#: The army formats, by the name a rule system gives.
ARMY_FORMATS: dict[str, ArmyFormat] = {
    "army-forge": ArmyFormat(
        "army-forge", "an Army Forge list (text or JSON)", _load_forge, _forge_problems
    ),
    "wwpd": ArmyFormat("wwpd", "a WWPD force file (YAML or JSON)", _load_wwpd, _none),
}


def army_format(name: str) -> ArmyFormat:
    """The army format called ``name``.

    Raises:
        OptionError: no format of that name.
    """
    try:
        return ARMY_FORMATS[name]
    except KeyError:
        raise OptionError(
            "unknown army format", value=name, expected=" or ".join(sorted(ARMY_FORMATS))
        ) from None
