"""A Markdown table written into a docs file between two marker lines (``oprlab strength
--docs``, ``oprlab ladder --docs``): the file is checked before any game is played, read
again after (the games take a while and the file may have been edited meanwhile), and
replaced whole or not at all."""

from __future__ import annotations

import re
from pathlib import Path

from oprlab.errors import OptionError
from oprlab.files import write_atomic


def _place(begin: str, end: str) -> re.Pattern[str]:
    """The markers as whole lines (a mention of them inside a sentence is not the place)."""
    return re.compile("^" + re.escape(begin) + r"$.*?^" + re.escape(end) + "$", re.S | re.M)


def read_docs(path: Path, begin: str, end: str) -> str:
    """The docs file's text, refused (before any game) when it has no place for the table."""
    try:
        old = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(
            "cannot read the docs file",
            value=str(path),
            expected=f"a readable UTF-8 text file ({exc})",
            where="--docs",
        ) from exc
    if not _place(begin, end).search(old):
        raise OptionError(
            "the docs file has no place for the table",
            value=str(path),
            expected=f"a file with a line {begin} and, after it, a line {end}",
            where="--docs",
        )
    return old


def write_docs(path: Path, begin: str, end: str, table: str) -> None:
    """Put ``table`` between the markers of the file as it is now, the rest kept."""
    old = read_docs(path, begin, end)
    new = _place(begin, end).sub(lambda _: f"{begin}\n{table}\n{end}", old, count=1)
    write_atomic(path, new, option="--docs")
