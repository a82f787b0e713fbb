"""The one error family of oprlab.

Every error a user can cause subclasses :class:`UserError` (and so :class:`ValueError`) and says
what was wrong, where, and what would be right, so the command line can print one clear line
instead of a traceback.
"""

from __future__ import annotations

from typing import Any


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
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.value is not None:
            text += f" (got {self.value!r})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


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
