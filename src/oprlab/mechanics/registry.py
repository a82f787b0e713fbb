"""Mechanics found by name, the way python-chess finds variants.

The built-in mechanics are one static table, read from each mechanic module's ``MECHANICS``
on first use (no module registers itself, so nothing imports back up into the registry);
:func:`register` adds a third party's mechanic beside them.
"""

from __future__ import annotations

from typing import Any

from oprlab.errors import UnknownNameError
from oprlab.mechanics.base import Factory, Mechanic

__all__ = ["Factory", "describe", "get_mechanic", "mechanic_names", "register"]

_REGISTRY: dict[str, tuple[Factory, str]] = {}


def register(name: str, factory: Factory, summary: str) -> None:
    """Make ``factory`` available as ``name`` (a mechanic or a named variant of one)."""
    _table()[name] = (factory, summary)


def mechanic_names() -> list[str]:
    """Every registered name, sorted."""
    return sorted(_table())


def describe() -> list[tuple[str, str]]:
    """``(name, summary)`` for every registered name, sorted."""
    table = _table()
    return [(n, table[n][1]) for n in sorted(table)]


def get_mechanic(name: str, **options: Any) -> Mechanic:
    """Build the mechanic called ``name`` with ``options``; unknown names raise a clear error."""
    table = _table()
    try:
        factory, _ = table[name]
    except KeyError:
        raise UnknownNameError(
            "unknown mechanic", value=name, expected="one of " + ", ".join(sorted(table))
        ) from None
    return factory(**options)


def _table() -> dict[str, tuple[Factory, str]]:
    """The registry, filled with the built-ins on first use (imported here, not at start-up)."""
    if not _REGISTRY:
        from oprlab.mechanics import clock, d6, dq, wwpd

        for module in (d6, clock, wwpd, dq):
            _REGISTRY.update(module.MECHANICS)
    return _REGISTRY
