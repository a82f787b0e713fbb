"""Army files from disk: pick the right Army Forge parser, and resolve unit references.

One of the few modules of the core allowed to do I/O (reading a file the user named). It may
import ``oprlab.errors`` and the other ``oprlab.units`` modules.

A *unit reference* is what a command line accepts where it wants "some units". Resolution order
(the first that applies wins):

1. text with a line break: the text of one unit (``parse_unit_text``), e.g. a unit line and its
   weapon line pasted from "Share as Text";
2. the path of an existing file: the whole army in it;
3. ``FILE:Unit Name`` where ``FILE`` exists (the last ``:`` whose left part is a file wins, so
   paths containing ``:`` work): the first unit of that name (case-insensitive) and the heroes
   joined to it;
4. a single line that looks like a unit line (``Name [n] Qq+ Dd+ ...``): the text of one unit;
5. anything else is a :class:`ParseError` naming the file that was not found (the part before
   the last ``:`` if there is one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from oprlab.errors import ParseError
from oprlab.files import read_text
from oprlab.limits import check_nesting
from oprlab.units.model import Army, Unit
from oprlab.units.text import parse_army_text, parse_unit_text

__all__ = [
    "load_army",
    "load_unit_ref",
    "looks_like_json",
    "parse_army",
    "read_army_file",
    "resolve_army",
    "units_named",
]

_BLANK = " \t\r\n\ufeff"
#: The core of an Army Forge unit line: ``[5] Q4+ D4+``.
_UNIT_LINE = re.compile(r"\[\s*\d+\s*\]\s*Q\s*\d\+?\s+D\s*\d\+?")


def read_army_file(path: str | Path) -> str:
    """The text of ``path`` (UTF-8, a leading BOM dropped), or a :class:`ParseError` naming it;
    files over :data:`~oprlab.limits.MAX_FILE_BYTES` are refused unread."""
    return read_text(path, "army file", "an Army Forge text or JSON file")


def resolve_army(ref: str | Path) -> Path:
    """The file an army reference names: a path, or else a bundled sample's name
    (``gff/shooty-300``, with or without its extension), so samples work wherever a list is
    read. A reference that is neither stays as given (reading it says it is not found)."""
    path = Path(ref)
    text = str(ref)
    try:
        if path.exists() or "/" not in text.replace("\\", "/"):
            return path
    except (OSError, ValueError):  # names too long, NUL bytes: not a file, not a sample
        return path
    from oprlab.samples import sample_names, sample_path  # data only; imported when needed

    key = text.replace("\\", "/")
    known = sample_names()
    if key in known:
        return sample_path(key)
    for ext in (".txt", ".json", ".yaml"):  # a stem names its text list first
        if key + ext in known:
            return sample_path(key + ext)
    return path


def looks_like_json(text: str) -> bool:
    """Whether ``text`` is JSON by its first character (``{`` or ``[``, after blanks and a BOM)."""
    head = text.lstrip(_BLANK)
    return head[:1] in ("{", "[")


def _parse_json(text: str, source: str) -> Any:
    check_nesting(text, source)
    try:
        return json.loads(text.lstrip(_BLANK))
    except RecursionError:  # a guard only: check_nesting refuses such documents first
        raise ParseError("JSON nested too deeply", where=source) from None
    except json.JSONDecodeError as exc:
        raise ParseError(
            f"invalid JSON: {exc.msg}",
            where=f"{source}:{exc.lineno}:{exc.colno}",
            expected="an Army Forge JSON export",
        ) from None


def parse_army(text: str, source: str) -> Army:
    """Parse army ``text`` (JSON or "Share as Text", chosen by its first character)."""
    if looks_like_json(text):
        # pydantic's models of Army Forge JSON: built when a JSON list is read (a third of
        # `oprlab odds`'s own start-up otherwise)
        from oprlab.units.forge_json import parse_army_json

        return parse_army_json(_parse_json(text, source), source)
    return parse_army_text(text, source)


def load_army(path: str | Path) -> Army:
    """Read the army list in ``path`` (a file, or a sample's name): Army Forge JSON if it
    starts with ``{``/``[``, else text."""
    found = resolve_army(path)
    return parse_army(read_army_file(found), str(path))


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file or a bundled sample."""
    try:
        return resolve_army(text).is_file()
    except (OSError, ValueError):  # names too long, NUL bytes
        return False


def _split_ref(ref: str) -> tuple[str, str] | None:
    """``(file, unit name)`` for ``FILE:Unit Name`` where ``FILE`` exists, else ``None``."""
    i = len(ref)
    while (i := ref.rfind(":", 0, i)) > 0:
        if _is_file(ref[:i]):
            return ref[:i], ref[i + 1 :].strip()
    return None


def units_named(army: Army, name: str, source: str) -> tuple[Unit, ...]:
    """The first unit of ``army`` called ``name`` and the heroes joined to it.

    ``{k}x`` units are identical copies, so the first one stands for them. A hero named directly
    comes alone.
    """
    key = name.strip().casefold()
    for unit in army.units:
        if unit.name.casefold() == key:
            if unit.joined_to is not None:
                return (unit,)
            tags = {t for t in (unit.uid, unit.name) if t}
            heroes = tuple(u for u in army.units if u is not unit and u.joined_to in tags)
            return (unit, *heroes)
    names = list(dict.fromkeys(u.name for u in army.units))
    raise ParseError(
        "no unit of that name",
        value=name,
        where=source,
        expected="one of " + ", ".join(repr(n) for n in names) if names else "a list with units",
    )


def load_unit_ref(ref: str) -> tuple[Unit, ...]:
    """Units from a reference: unit text, ``FILE``, or ``FILE:Unit Name`` (see the module doc)."""
    text = ref.strip(_BLANK)
    if not text:
        raise ParseError("empty unit reference", expected="FILE, FILE:Unit Name or a unit's text")
    if "\n" in text:
        return parse_unit_text(text, "<unit text>")
    if _is_file(text):
        return load_army(text).units
    split = _split_ref(text)
    if split is not None:
        path, name = split
        if not name:
            raise ParseError("missing unit name after ':'", value=ref, expected="FILE:Unit Name")
        return units_named(load_army(path), name, path)
    if _UNIT_LINE.search(text):
        return parse_unit_text(text, "<unit text>")
    missing = text.rsplit(":", 1)[0] if ":" in text else text
    raise ParseError(
        "army file not found",
        value=missing,
        expected="FILE, FILE:Unit Name with an existing FILE, or a unit's text "
        "(unit line and weapon line)",
    )
