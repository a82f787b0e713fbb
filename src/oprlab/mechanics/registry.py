"""Mechanics found by name, the way python-chess finds variants.

The built-in mechanics are one static table, read from each mechanic module's ``MECHANICS``
on first use (no module registers itself, so nothing imports back up into the registry);
:func:`register` adds a third party's mechanic beside them.
"""

from __future__ import annotations

from importlib import import_module
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
    found = _REGISTRY.get(name) or _builtin(name)
    if found is None:
        table = _table()
        if name not in table:
            raise UnknownNameError(
                "unknown mechanic", value=name, expected="one of " + ", ".join(sorted(table))
            )
        found = table[name]
    factory, _ = found
    return factory(**options)


#: The module of each built-in mechanic, by the name's first word (``clock-unit``: clock), so
#: asking for one (``oprlab check d6``) loads it alone; a test keeps this equal to the modules.
BUILTIN_MODULES = {"d6": "d6", "clock": "clock", "wwpd": "wwpd", "dq": "dq"}


def _builtin(name: str) -> tuple[Factory, str] | None:
    """A built-in mechanic from its own module, before the whole table is filled."""
    module = BUILTIN_MODULES.get(name.split("-")[0])
    if module is None:
        return None
    found: tuple[Factory, str] | None = import_module(f"oprlab.mechanics.{module}").MECHANICS.get(
        name
    )
    return found


def _table() -> dict[str, tuple[Factory, str]]:
    """The registry, filled with the built-ins on first use (imported here, not at start-up)."""
    if not _REGISTRY:
        from oprlab.mechanics import clock, d6, dq, wwpd

        for module in (d6, clock, wwpd, dq):
            _REGISTRY.update(module.MECHANICS)
    return _REGISTRY
