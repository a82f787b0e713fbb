"""House rules as files: a :class:`HouseRule` changes a procedure hook or a dice clause of a
rule system, and ``find_system("gff+fortifications")`` plays the system with it.

A house rule names itself (``name``, ``version``, ``applies_to``, ``doc``) and carries up to
four mixins, each a class whose methods override the same-named methods of one part of the
system and reach the original through ``super()``:

- ``rules``: over the game procedure (:class:`~oprlab.game.opr.hooks.OprRules`: the hooks of
  seeds 002 and 003, and the block of hooks for house rules at its end);
- ``dice``: over the attack's dice clauses (``rules.gff.attack.GffHooks``), which the game and
  the odds adapter share, so full games, exact odds and sampling all roll them;
- ``attack`` and ``exchange``: over the system's odds adapters (``rules/<system>/odds.py``).

:func:`oprlab.game.systems.find_system` composes them (``type(...)`` of the mixins over the
system's classes) and records every house rule and its version in the system's name and
version, so stored results and replays say what was played. The shipped rules live here, one
file each; anyone else's join through the entry point group ``oprlab.house_rules`` (a
``HouseRule`` subclass), with no edit to this package (docs/contributing.md).

May import ``oprlab.errors`` here; the rule files import the game and rules layers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, ClassVar

from oprlab.errors import OptionError, UnknownNameError

if TYPE_CHECKING:  # importlib.metadata is loaded when an installed rule is looked for
    from importlib import metadata

__all__ = ["ENTRY_POINTS", "HouseRule", "find_house_rule", "house_rule_names"]

#: The entry point group a third party registers its house rules under.
ENTRY_POINTS = "oprlab.house_rules"


class HouseRule:
    """A house rule: what it is called, its version, the systems it applies to, and the
    mixins that change them (any may be ``None``: that part is played as written).

    The version is part of the composed system's version: bump it whenever a change of the
    rule changes games, so stored results say which reading played them.
    """

    name: ClassVar[str]
    version: ClassVar[str]
    applies_to: ClassVar[tuple[str, ...]]
    #: One line on what the rule does (``docs/rules/house.md`` has the reading in full).
    doc: ClassVar[str]
    rules: ClassVar[type | None] = None
    dice: ClassVar[type | None] = None
    attack: ClassVar[type | None] = None
    exchange: ClassVar[type | None] = None


#: The shipped house rules, by name: where each lives (imported only when asked for).
BUILTIN: dict[str, str] = {
    "dopr": "oprlab.game.house.dopr:Dopr",
    "fortifications": "oprlab.game.house.fortifications:Fortifications",
    "heavy_cover": "oprlab.game.house.heavy_cover:HeavyCover",
    "safe_house": "oprlab.game.house.safe_house:SafeHouse",
    "smuggling_route": "oprlab.game.house.smuggling_route:SmugglingRoute",
}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    """Third parties' house rules (``[project.entry-points."oprlab.house_rules"]``)."""
    from importlib import metadata

    return {ep.name.lower(): ep for ep in metadata.entry_points(group=ENTRY_POINTS)}


def house_rule_names() -> list[str]:
    """Every house rule :func:`find_house_rule` knows (shipped and installed), sorted."""
    return sorted({*BUILTIN, *_entry_points()})


def find_house_rule(name: str) -> type[HouseRule]:
    """The house rule called ``name``; an unknown one gets one line naming those that exist.

    Raises:
        UnknownNameError: no shipped or installed house rule has that name.
        OptionError: an installed entry point that is not a house rule.
    """
    key = name.strip().lower()
    if key in BUILTIN:
        module, _, attr = BUILTIN[key].partition(":")
        found = getattr(import_module(module), attr)
    else:
        ep = _entry_points().get(key)
        if ep is None:
            raise UnknownNameError(
                "unknown house rule",
                value=name,
                expected="one of " + ", ".join(house_rule_names()),
            )
        found = ep.load()
    if not (isinstance(found, type) and issubclass(found, HouseRule)):
        raise OptionError(
            f"the {ENTRY_POINTS} entry point is not a house rule",
            value=name,
            expected="a subclass of oprlab.game.house.HouseRule",
        )
    if found.name != key:
        raise OptionError(
            "a house rule registered under another name than its own",
            value=name,
            expected=f"the entry point named {found.name!r}",
        )
    return found
