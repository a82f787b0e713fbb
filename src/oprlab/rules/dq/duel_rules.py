"""The rules a DragonQuest duel is played by: the resolution and every reading we chose.

``DuelRules`` is frozen and recorded with each result, so a duel can be replayed by its seed and
rules. ``parse_duel_rules`` reads ``KEY=VALUE`` pairs (``--rules-option``) with one clear error
per bad pair. Each reading is explained next to its clause in ``docs/rules/dq.md``.

May import ``oprlab.errors``, ``oprlab.mechanics`` and ``oprlab.rules.dq``.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from oprlab.errors import OptionError, check_range
from oprlab.mechanics.dq import Rounding
from oprlab.rules.dq.combat import RepulseReading
from oprlab.rules.dq.resolution import Ladder, Resolution
from oprlab.rules.dq.standins import GrievousReading, StunReading

__all__ = ["MAX_ROUNDS", "RESOLUTIONS", "DuelRules", "parse_duel_rules"]

#: The two resolutions a duel can be played by.
RESOLUTIONS: tuple[Resolution, ...] = ("opposed", "current")
#: A duel still running after this many rounds is a draw (default ``max_rounds``).
MAX_ROUNDS = 100
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class DuelRules:
    """How a duel is played.

    Attributes:
        resolution: ``opposed`` (the playtest) or ``current`` (subtraction).
        ladder: the playtest's quality ladder (``full``), or without Better (``no_better``) or
            without Excellent/Fantastic (``no_high``), to measure one change alone (opposed only).
        table_01_row: a natural 01 is graded by the printed 57.4 roll-1 row, not by the text.
        defence_perception: the front Defence adds PC (57.3) besides AG and shield.
        stun: what stuns (``endurance``: a strike that costs Endurance; ``off``).
        grievous: what a possible specific grievous does (``d10`` stand-in; ``off``).
        repulse: 57.3 repulse as printed (D10 >= Rank) or ``rank-or-less`` (D10 <= Rank).
        current_rounding: how the current rules round their 15% and 5%.
        max_rounds: rounds before the duel is called a draw.
    """

    resolution: Resolution = "opposed"
    ladder: Ladder = "full"
    table_01_row: bool = False
    defence_perception: bool = False
    stun: StunReading = "endurance"
    grievous: GrievousReading = "d10"
    repulse: RepulseReading = "as-printed"
    current_rounding: Rounding = "up"
    max_rounds: int = MAX_ROUNDS

    def __post_init__(self) -> None:
        hints = typing.get_type_hints(DuelRules)
        for f in dataclasses.fields(self):
            choices = _choices(hints[f.name])
            value = getattr(self, f.name)
            if choices and value not in choices:
                raise OptionError(
                    "value not allowed", value=value, expected=" or ".join(choices), where=f.name
                )
        check_range("max_rounds", self.max_rounds, 1, 10_000)
        if self.resolution == "current" and self.ladder != "full":
            raise OptionError(
                "a quality ladder is the playtest's",
                value=self.ladder,
                expected="ladder=full with the current rules",
                where="ladder",
            )

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _choices(hint: Any) -> tuple[str, ...]:
    return typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()


def parse_duel_rules(pairs: Sequence[str], **given: Any) -> DuelRules:
    """``DuelRules`` from ``KEY=VALUE`` pairs, on top of ``given`` (``resolution=...``).

    Raises:
        OptionError: a pair without ``=``, an unknown key, a key given twice, or a bad value.
    """
    hints = typing.get_type_hints(DuelRules)
    known = {f.name: f.default for f in dataclasses.fields(DuelRules)}
    values: dict[str, Any] = dict(given)
    seen: set[str] = set()
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip().replace("-", "_")
        text = text.strip()
        if not sep or not key:
            raise OptionError("a rule option is KEY=VALUE", value=pair, expected="e.g. stun=off")
        if key not in known or key == "resolution":
            raise OptionError(
                "unknown dq rule option",
                value=key,
                expected=", ".join(f"{k} (default {v})" for k, v in known.items()),
            )
        if key in seen:
            raise OptionError("rule option given twice", value=key, expected="each key once")
        seen.add(key)
        values[key] = _convert(key, text, hints[key])
    return DuelRules(**values)


def _convert(key: str, text: str, hint: Any) -> Any:
    choices = _choices(hint)
    if choices:
        if text not in choices:
            raise OptionError(
                "value not allowed", value=text, expected=" or ".join(choices), where=key
            )
        return text
    if hint is bool:
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise OptionError("not a yes/no value", value=text, expected="true or false", where=key)
    try:
        return int(text)
    except ValueError:
        raise OptionError(
            "not a whole number", value=text, expected="e.g. 100", where=key
        ) from None
