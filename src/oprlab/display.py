"""Text from users made safe to show: long values cut, control characters neutralised.

Names and values come from files a user hands in; an error line or a table must neither echo a
5 MB line back nor pass a terminal escape code (``ESC [2J``) through to the terminal. Every
reader of names cleans them with :func:`printable`, and every error line cuts its values with
:func:`shorten`. May import nothing of oprlab.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["MAX_SHOWN", "name_label", "one_line", "printable", "shorten"]

#: Characters of one value shown in an error line (the rest is cut, with the length said):
#: room for a long file path, not for a 5 MB line.
MAX_SHOWN = 200

#: C0 and C1 control characters and DEL: what a terminal may read as a command.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
#: Control characters, blank lines and line breaks of a one-line message.
_BREAK = re.compile(r"\s*[\r\n]+\s*")


def printable(text: str) -> str:
    """``text`` with every control character (escape codes, bells, NULs, line breaks) shown as
    U+FFFD, so printing it cannot drive the terminal; tabs become spaces."""
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: " " if m.group() == "\t" else "\ufffd", text)


def shorten(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to about ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    head = max(8, limit - 24)
    return f"{text[:head]}... ({len(text):,} characters)"


def one_line(text: str) -> str:
    """A message on one line: line breaks become ``"; "``, control characters are neutralised
    and invisible format characters (bidi overrides) dropped."""
    flat = _BREAK.sub("; ", text.strip())
    flat = "".join(ch for ch in flat if unicodedata.category(ch) != "Cf")
    return printable(flat)


def name_label(name: str) -> str:
    """A name quoted for a place in a message (``'Grunt Squad'``), cut when long."""
    return repr(shorten(name, MAX_SHOWN // 4))
