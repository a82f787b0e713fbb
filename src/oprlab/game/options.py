"""A game's rule options from ``KEY=VALUE`` text (the command line), per rule system.

Each rule system fixes its readings of the text in a frozen dataclass, its ``readings``
(:class:`~oprlab.game.gff_setup.GffOptions`, :class:`~oprlab.game.riverside.RiversideOptions`,
:class:`~oprlab.game.wwpd.GameOptions`); this module turns ``edges=north-south`` into one of
them, checking names and value types here and leaving each value's meaning to the dataclass's
own validation. Nested readings (Riverside's attack ``readings``, WWPD's ``attack``) are not
settable this way. It knows no system by name: it asks :func:`~oprlab.game.systems.find_system`.
May import ``oprlab.game.system``/``systems`` and below.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from typing import Any

from oprlab.errors import OptionError
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def settable(system: str | RuleSystem) -> dict[str, Any]:
    """The options of ``system`` settable as ``KEY=VALUE``, with their default values."""
    cls = _rules(system).readings
    hints = typing.get_type_hints(cls)
    return {
        f.name: f.default
        for f in dataclasses.fields(cls)
        if _scalar(hints[f.name]) is not None and f.default is not dataclasses.MISSING
    }


def parse_options(system: str | RuleSystem, pairs: Sequence[str]) -> Any:
    """The options of ``system`` with ``pairs`` (``KEY=VALUE``) applied; ``None`` if no pairs.

    Raises:
        OptionError: an unknown system or key, a pair without ``=``, a key given twice, or a
            value of the wrong type or outside what the option allows.
    """
    if not pairs:
        return None
    rules = _rules(system)
    cls = rules.readings
    hints = typing.get_type_hints(cls)
    known = settable(rules)
    values: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise OptionError("a rule option is KEY=VALUE", value=pair, expected="e.g. edges=all")
        if key not in known:
            raise OptionError(
                f"unknown {rules.name} rule option",
                value=key,
                expected=", ".join(f"{k} (default {v})" for k, v in known.items()),
            )
        if key in values:
            raise OptionError("rule option given twice", value=key, expected="each key once")
        values[key] = _convert(key, text.strip(), hints[key])
    return cls(**values)


def _rules(system: str | RuleSystem) -> RuleSystem:
    return find_system(system) if isinstance(system, str) else system


def _scalar(hint: Any) -> type | None:
    """The plain type behind ``hint`` (Literal choices count as their values' type)."""
    if typing.get_origin(hint) is typing.Literal:
        return type(typing.get_args(hint)[0])
    return hint if hint in (str, int, float, bool) else None


def _convert(key: str, text: str, hint: Any) -> Any:
    kind = _scalar(hint)
    choices = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
    if choices and text not in choices:
        raise OptionError(
            "value not allowed", value=text, expected=" or ".join(map(str, choices)), where=key
        )
    if kind is bool:
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise OptionError("not a yes/no value", value=text, expected="true or false", where=key)
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            raise OptionError(
                f"not a number ({kind.__name__})", value=text, expected="a number", where=key
            ) from None
    return text
