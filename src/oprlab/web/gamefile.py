"""The game file: one JSON format for a game saved from the pages and ``oprlab battle --log``.

A game is fixed by its setup (both lists' text, the system, mechanic, table, seed, readings)
and its decisions: the dice come from the seed's own stream, so playing the decisions again
from the setup replays the game exactly. The file also holds what ``--log`` always wrote (the
result, the events, the moves) for readers that only want those. ``oprlab_game`` is the
format's version; a file without it (an older ``--log``) or from a newer oprlab is refused
with one line. Imports nothing heavy: the command line writes it without the web app.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Any

from oprlab.errors import OptionError
from oprlab.game.actions import Action
from oprlab.version import __version__

__all__ = [
    "GAME_FILE_VERSION",
    "GameSetup",
    "action_from_json",
    "action_to_json",
    "game_file",
    "read_game_file",
]

#: The game file's format version (``"oprlab_game"``); bumped when a reader must change.
GAME_FILE_VERSION = 1
#: Longest name, commander spec or option a file or page may give in a setup.
_MAX_NAME = 200


@dataclass(frozen=True)
class GameSetup:
    """Everything that fixes a game: the two lists (their text), the rules and the seed.

    ``table``: ``open``, ``random`` (generated from the seed) or ``file`` (``terrain`` holds
    the terrain file's JSON text, as ``battle --table FILE`` read it). ``dice``: ``stream``
    or ``keyed`` (``battle --dice``: each activation's dice keyed on the seed, round and unit),
    written only when keyed.
    """

    list_a: str
    list_b: str
    name_a: str = "army A"
    name_b: str = "army B"
    system: str = "gff"
    mechanic: str = "d6"
    table: str = "open"
    seed: int = 1
    commander_a: str = "rules"
    commander_b: str = "rules"
    rule_options: tuple[str, ...] = ()
    terrain: str = ""
    dice: str = "stream"

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["rule_options"] = list(self.rule_options)
        if not self.terrain:
            del out["terrain"]
        if self.dice == "stream":  # files of the stream read as they always did
            del out["dice"]
        return out

    @staticmethod
    def from_json(data: Any, where: str) -> GameSetup:
        if not isinstance(data, dict):
            raise OptionError("not a game setup", where=where, expected="a JSON object")
        kinds = {f.name: f.type for f in dataclasses.fields(GameSetup)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in kinds:
                raise OptionError(
                    "unknown setup field", value=key, where=where, expected=", ".join(kinds)
                )
            want = {"int": int, "str": str}.get(str(kinds[key]), list)
            if want is int and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError("not an integer", value=value, where=f"{where}.{key}")
            if want is str and not isinstance(value, str):
                raise OptionError("not a string", value=value, where=f"{where}.{key}")
            short = key not in ("list_a", "list_b", "terrain")
            if want is str and short and len(value) > _MAX_NAME:
                raise OptionError(
                    "too long", value=f"{len(value)} characters", where=f"{where}.{key}"
                )
            if want is list:
                ok = isinstance(value, list) and len(value) <= 64
                if not ok or not all(isinstance(v, str) and len(v) <= _MAX_NAME for v in value):
                    raise OptionError("not a list of strings", value=value, where=f"{where}.{key}")
                value = tuple(value)
            values[key] = value
        for key in ("list_a", "list_b"):
            if key not in values:
                raise OptionError("missing field", value=key, where=where, expected="both lists")
        return GameSetup(**values)


def game_file(
    setup: GameSetup,
    actions: list[Any],
    *,
    result: dict[str, Any] | None,
    events: list[dict[str, Any]],
    moves: Any,
) -> dict[str, Any]:
    """A game as a file: its setup and decisions (enough to replay it exactly), and what
    ``oprlab battle --log`` always wrote (the result, the events, the moves)."""
    return {
        "oprlab_game": GAME_FILE_VERSION,
        "oprlab": __version__,
        "setup": setup.to_json(),
        "actions": [action_to_json(a) for a in actions],
        "result": result,
        "events": events,
        "moves": moves,
    }


def read_game_file(data: Any, where: str) -> tuple[GameSetup, list[Any]]:
    """A game file's setup and its decisions (still JSON: each is read and checked legal as
    the game is played again); an old ``--log``, a newer format or another file is one line."""
    if not isinstance(data, dict):
        raise OptionError("not a game file", where=where, expected="a JSON object")
    version = data.get("oprlab_game")
    if version is None and "events" in data and "setup" not in data:
        raise OptionError(
            "an old `oprlab battle --log` file: it holds the result, the events and the moves "
            "but not the setup and the decisions, so it cannot be played again",
            where=where,
            expected="a file written by this version's `battle --log` or saved from the viewer",
        )
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version > GAME_FILE_VERSION
    ):
        raise OptionError(
            "a game file of another format version",
            value=version,
            where=f"{where}: oprlab_game",
            expected=f"{GAME_FILE_VERSION} (a newer oprlab wrote it? upgrade this one)",
        )
    if "setup" not in data or "actions" not in data:
        raise OptionError(
            "not a game file",
            where=where,
            expected="a file saved from oprlab serve or written by `oprlab battle --log` "
            "(with 'setup' and 'actions')",
        )
    setup = GameSetup.from_json(data["setup"], f"{where}: setup")
    actions = data["actions"]
    if not isinstance(actions, list):
        raise OptionError("not a list", where=f"{where}: actions", expected="a list of decisions")
    return setup, actions


# --- actions as JSON ---------------------------------------------------------------------------

_TEXT_FIELDS = ("unit", "target", "second", "spell", "choice")
_INT_FIELDS = ("value", "boost", "formation")


def action_to_json(a: Any) -> dict[str, Any]:
    """An action (any system's: a frozen dataclass with a ``kind``) as plain JSON: the page
    posts it back; game files keep it. Fields at their empty value are left out."""
    out: dict[str, Any] = {"kind": a.kind.value}
    for f in dataclasses.fields(a):
        value = getattr(a, f.name)
        if f.name == "kind" or not value:
            continue
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def action_from_json(data: Any, where: str, cls: type[Any] = Action) -> Any:
    """An action of the class ``cls`` (the system's: :class:`~oprlab.game.actions.Action`,
    WWPD's own) from the page or a file, its shape checked (legality is the engine's)."""
    if not isinstance(data, dict):
        raise OptionError("not an action", where=where, expected="a JSON object")
    kind_type = typing.get_type_hints(cls)["kind"]
    kinds = [k.value for k in kind_type]
    if data.get("kind") not in kinds:
        raise OptionError(
            "unknown decision", value=data.get("kind"), where=where, expected=", ".join(kinds)
        )
    known = [f.name for f in dataclasses.fields(cls)]
    values: dict[str, Any] = {"kind": kind_type(data["kind"])}
    for key, value in data.items():
        if key not in known:
            raise OptionError("unknown field", value=key, where=where, expected=", ".join(known))
        if key in _TEXT_FIELDS:
            if not isinstance(value, str) or len(value) > _MAX_NAME:
                raise OptionError("not a short string", value=value, where=f"{where}.{key}")
            values[key] = value
        elif key in _INT_FIELDS:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**6:
                raise OptionError("not a small integer", value=value, where=f"{where}.{key}")
            values[key] = value
        elif key == "to":
            values["to"] = _point(value, f"{where}.to")
        elif key == "split":
            ok = isinstance(value, list) and len(value) <= 16
            if not ok or not all(isinstance(v, str) and len(v) <= _MAX_NAME for v in value):
                raise OptionError("not a list of weapon names", value=value, where=f"{where}.split")
            values["split"] = tuple(value)
        elif key == "benny":
            if not isinstance(value, bool):
                raise OptionError("not true or false", value=value, where=f"{where}.benny")
            values["benny"] = value
    if "unit" in known and "unit" not in values:
        values["unit"] = ""
    return cls(**values)


def _point(value: Any, where: str) -> tuple[float, float]:
    items = value if isinstance(value, list) and len(value) == 2 else []
    nums = [v for v in items if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(nums) != 2 or not all(-1000.0 <= float(v) <= 1000.0 for v in nums):
        raise OptionError("not a point", value=value, where=where, expected="[x, y] in inches")
    return float(nums[0]), float(nums[1])
