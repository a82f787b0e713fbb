"""The registry finds a built-in mechanic from its own module (issue 13: `oprlab check d6`
starts without the clock, WWPD and DQ modules) and gives the same factory the full table does."""

from __future__ import annotations

import pytest

from oprlab.errors import UnknownNameError
from oprlab.mechanics import registry


def test_every_builtin_is_found_in_its_own_module() -> None:
    table = registry._table()
    builtins = {n for n in table if n.split("-")[0] in registry.BUILTIN_MODULES}
    assert {n.split("-")[0] for n in builtins} == set(registry.BUILTIN_MODULES)
    for name in builtins:
        assert registry._builtin(name) == table[name], name


def test_unknown_names_still_list_the_table() -> None:
    for name in ("d7", "clock-nope", "dq-x"):
        with pytest.raises(UnknownNameError, match=r"one of .*d6"):
            registry.get_mechanic(name)
