"""The shipped experiment files (examples/experiments) read and cross into their cells."""

from __future__ import annotations

from pathlib import Path

import pytest

from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import load_experiment
from oprlab.analysis.lab.run import first_levels
from oprlab.analysis.lab.summary import contrasts

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "experiments"


@pytest.mark.parametrize(
    ("name", "cells", "effects"),
    [
        ("d6-vs-clock-150.toml", 6, 4),  # 2 matchups x (clock, clock-tokens) vs d6
        ("commander-verdict.toml", 4, 4),  # clock vs d6 per commander, random vs rules per mechanic
        ("clock-sprt.toml", 2, 1),
        ("shooty-melee-width.toml", 2, 1),
        ("unit-values.toml", 1, 0),
        ("perk-price.toml", 2, 1),  # gff+fortifications vs gff: a composed system's cells
        ("first-mover.toml", 4, 4),  # A first vs the roll-off per system; riverside vs gff
        ("wwpd-pinning.toml", 2, 1),  # WWPD: pinning off vs the Leadership reading
        ("strike-back-keyed.toml", 2, 1),  # keyed dice: always striking back vs by choice
    ],
)
def test_example_reads(
    name: str, cells: int, effects: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(EXAMPLES.parents[1])  # pool paths are relative to the checkout
    exp = load_experiment(str(EXAMPLES / name))
    found = build_cells(exp)
    assert len(found) == cells
    assert len(contrasts(found, first_levels(exp))) == effects


def test_every_example_is_listed() -> None:
    assert {p.name for p in EXAMPLES.glob("*.toml")} == {
        "d6-vs-clock-150.toml",
        "commander-verdict.toml",
        "clock-sprt.toml",
        "shooty-melee-width.toml",
        "unit-values.toml",
        "perk-price.toml",
        "first-mover.toml",
        "wwpd-pinning.toml",
        "strike-back-keyed.toml",
    }


def test_the_keyed_example_keys_its_cells() -> None:
    exp = load_experiment(str(EXAMPLES / "strike-back-keyed.toml"))
    assert exp.dice == "keyed" and {c.dice for c in build_cells(exp)} == {"keyed"}
