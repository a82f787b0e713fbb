"""The one error family of oprlab.

Every error a user can cause subclasses :class:`UserError` (and so :class:`ValueError`) and says
what was wrong, where, and what would be right, so the command line can print one clear line
instead of a traceback.
"""

from __future__ import annotations

from typing import Any

from oprlab.display import MAX_SHOWN, shorten


class OprlabError(Exception):
    """Base of every error raised on purpose by oprlab."""


class UserError(OprlabError, ValueError):
    """Bad input from a user: a value, an option, a file.

    Args:
        message: what was wrong, in words a player understands.
        value: the offending value, shown with ``repr``.
        expected: what would have been right.
        where: the place: an option name, ``file:line``, or a JSON path.
    """

    def __init__(
        self,
        message: str,
        *,
        value: Any = None,
        expected: str | None = None,
        where: str | None = None,
    ) -> None:
        self.message = message
        self.value = value
        self.expected = expected
        self.where = where
        super().__init__(self._render())

    def _render(self) -> str:
        """One line; a long value or place is cut (a 5 MB line is never echoed back)."""
        where = shorten(self.where) if self.where else None
        text = f"{where}: {self.message}" if where else self.message
        if self.value is not None:
            text += f" (got {_repr(self.value)})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


def _repr(value: Any) -> str:
    """``repr`` of a value, cut to about :data:`MAX_SHOWN` characters, saying how long it was
    (and never built in full for a long string or list)."""
    if isinstance(value, str | bytes) and len(value) > MAX_SHOWN:
        head = repr(value[: MAX_SHOWN - 24])
        return f"{head[:-1]}...{head[-1]} ({len(value):,} characters)"
    if isinstance(value, list | tuple) and len(value) > 8:
        return shorten(repr(value[:8])[:-1] + ", ...]") + f" ({len(value):,} items)"
    return shorten(repr(value))


class OptionError(UserError):
    """An option or argument out of range, or options that contradict each other."""


class UnknownNameError(UserError):
    """A name (mechanic, rule system, variant) that no registry knows."""


class ParseError(UserError):
    """A file or text that cannot be read: names the file, the line or JSON path."""


def check_range(name: str, value: int, low: int, high: int) -> int:
    """Return ``value`` if ``low <= value <= high``, else raise an :class:`OptionError`."""
    if not low <= value <= high:
        raise OptionError(
            f"{name} out of range", value=value, expected=f"an integer from {low} to {high}"
        )
    return value
