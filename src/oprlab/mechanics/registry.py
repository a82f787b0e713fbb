"""Mechanics found by name, the way python-chess finds variants."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from oprlab.errors import UnknownNameError
from oprlab.mechanics.base import Mechanic

Factory = Callable[..., Mechanic]

_REGISTRY: dict[str, tuple[Factory, str]] = {}


def register(name: str, factory: Factory, summary: str) -> None:
    """Make ``factory`` available as ``name`` (a mechanic or a named variant of one)."""
    _REGISTRY[name] = (factory, summary)


def mechanic_names() -> list[str]:
    """Every registered name, sorted."""
    _load_builtins()
    return sorted(_REGISTRY)


def describe() -> list[tuple[str, str]]:
    """``(name, summary)`` for every registered name, sorted."""
    _load_builtins()
    return [(n, _REGISTRY[n][1]) for n in sorted(_REGISTRY)]


def get_mechanic(name: str, **options: Any) -> Mechanic:
    """Build the mechanic called ``name`` with ``options``; unknown names raise a clear error."""
    _load_builtins()
    try:
        factory, _ = _REGISTRY[name]
    except KeyError:
        raise UnknownNameError(
            "unknown mechanic", value=name, expected="one of " + ", ".join(sorted(_REGISTRY))
        ) from None
    return factory(**options)


def _load_builtins() -> None:
    # Imported here so that each mechanic module registers itself exactly once, on first use.
    from oprlab.mechanics import builtins  # noqa: F401
