"""The commander interface: given the game and the legal actions, choose one.

Commanders come in families, one per kind of procedure (``opr`` for GFF and Riverside, ``wwpd``
for WWPD's I-go-U-go turns); a rule system names its family (``commander_family``), so
:func:`get_commander` finds the right commander without knowing any system by name.

A commander is named by a spec: ``NAME``, ``NAME:ARG`` for commanders that read an argument
(``search:200``: its node budget), and either followed by ``:P``, noise (``rules:0.2``: a
uniformly random legal action with probability 0.2, :mod:`oprlab.players.noisy`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from oprlab.errors import OptionError, UnknownNameError
from oprlab.game.play import Commander
from oprlab.rng import SeedLike

__all__ = [
    "COMMANDERS",
    "FAMILIES",
    "REVISIONS",
    "TUNED",
    "Commander",
    "commander_revision",
    "get_commander",
]

Factory = Callable[[SeedLike], Commander]

#: The OPR family's commanders by name (each module of :data:`_MODULES` ``["opr"]`` registers
#: itself here on import).
COMMANDERS: dict[str, Factory] = {}
#: OPR commanders that read an argument after a colon (``search:200``): factory(seed, argument).
TUNED: dict[str, Callable[[SeedLike, str], Commander]] = {}

#: Commanders by family, then name; and those that read an argument.
FAMILIES: dict[str, dict[str, Factory]] = {"opr": COMMANDERS, "wwpd": {}}
_TUNED: dict[str, dict[str, Callable[[SeedLike, str], Commander]]] = {"opr": TUNED, "wwpd": {}}

#: Each commander's revision, by family and name: bumped whenever a change alters how it plays
#: (the same seed then plays another game), so a stored result says which play made it. A
#: noisy spec (``rules:0.2``) and a budget (``search:200``) inherit their commander's.
#: ``rules`` r2: issue 14's habit fixes (``rules-v1`` r1 plays the games r1 played; its
#: tempers are ``rules`` with other weights); ``search`` r2: its candidates and playouts are
#: the rules commander's, so its play moved with ``rules`` r2; ``search-sure`` r1: new (issue 14);
#: ``search`` r3: the dice split after the candidate's own activation, with four extra samples
#: of it (``search-v2`` r2 plays the games ``search`` r2 played); ``search-reply`` r1: new
#: (issue 14: ``search`` with a ply of the enemy's replies); ``search`` r4: budget 48 instead of
#: 24 (``search-v3`` r3 plays the games ``search`` r3 played); ``search-portfolio`` r1: new
#: (issue 14: the picks of other scripts as the candidates).
REVISIONS: dict[str, dict[str, str]] = {
    "opr": {
        "random": "r1",
        "rules": "r2",
        "rules-v1": "r1",
        "rules-aggressive": "r2",
        "rules-cautious": "r2",
        "search": "r4",
        "search-v3": "r3",
        "search-v2": "r2",
        "search-end": "r2",
        "search-sure": "r1",
        "search-reply": "r1",
        "search-portfolio": "r1",
    },
    "wwpd": {"random": "r1", "rules": "r2", "rules-v1": "r1"},
}

#: The modules that register each family's commanders (imported when first asked for).
_MODULES: dict[str, tuple[str, ...]] = {
    "opr": ("random_commander", "rules.commander", "search"),
    "wwpd": ("wwpd_commanders",),
}

#: What a commander spec may be, for error messages.
SPEC_FORMS = "NAME, NAME:P (noise, as in rules:0.2) or search:BUDGET[:P]"


def get_commander(name: str, seed: SeedLike = 0, *, system: Any = None) -> Commander:
    """A commander by spec for ``system`` (a name or a rule system; ``None``: an OPR system);
    ``seed`` (an int, or its stream of a game seed: :func:`oprlab.rng.commander_stream`) drives
    any choices it makes at random.

    Raises:
        OptionError: ``system`` names no system with a full-game procedure, or a bad spec.
        UnknownNameError: no commander of that name plays the system.
    """
    family = "opr" if system is None else _system(system).commander_family
    for module in _MODULES[family]:  # each registers itself
        import_module(f"oprlab.players.{module}")
    from oprlab.players.noisy import NoisyCommander, parse_noise

    known, tuned = FAMILIES[family], _TUNED[family]
    head, *rest = name.split(":")
    if head in tuned and rest:
        inner = tuned[head](seed, rest.pop(0))
    elif head in known:
        inner = known[head](seed)
    else:
        raise UnknownNameError(
            "unknown commander",
            value=name,
            expected=" or ".join(sorted(known)) + f" ({SPEC_FORMS})",
        )
    if len(rest) > 1:
        raise OptionError("commander spec has too many parts", value=name, expected=SPEC_FORMS)
    chosen = NoisyCommander(inner, parse_noise(rest[0], name), seed) if rest else inner
    chosen.revision = REVISIONS[family][head]  # type: ignore[attr-defined]
    return chosen


def commander_revision(name: str, *, system: Any = None) -> str:
    """The revision of the commander a spec names (:data:`REVISIONS`), for ``system`` as in
    :func:`get_commander` (which checks the spec: an unknown name is its one-line error)."""
    commander = get_commander(name, 0, system=system)
    return str(commander.revision)  # type: ignore[attr-defined]


def _system(system: Any) -> Any:
    if isinstance(system, str):
        from oprlab.game.systems import find_system

        return find_system(system)
    return system
