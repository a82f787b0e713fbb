"""The README's Python example runs as written (a doctest, as python-chess does): the library
face (``import oprlab``) loads bundled samples and plays a seeded game to a stable line."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs() -> None:
    found = doctest.testfile(str(README), module_relative=False, verbose=False)
    assert found.attempted >= 5 and found.failed == 0, found
