"""docs/benchmarks.md is written by ``make bench`` from each suite's ``NOTES`` (its prose, kept in
``bench/notes/``) and its tables, so prose added to the doc alone is lost at the next run, and
prose added to a note alone is missing from the doc until then: each suite's prose must stand in
the doc as written."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import pytest
from bench.__main__ import DOC, SUITES


@pytest.mark.parametrize("suite", SUITES)
def test_each_suites_prose_stands_in_the_doc(suite: str) -> None:
    notes = str(import_module(suite).NOTES).strip()
    assert notes, suite
    doc = Path(DOC).read_text(encoding="utf-8")
    assert notes in doc, f"{suite}'s NOTES differ from {DOC.name}: run make bench"
