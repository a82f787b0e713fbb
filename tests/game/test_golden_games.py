"""Every golden game replays its pinned log (tests/data/golden_games.toml, tests/game/golden)."""

from __future__ import annotations

import pytest

from oprlab.game.systems import SYSTEMS, VERSIONS
from tests.game.golden import Golden, load_pins, log_hash

PINS = load_pins()


@pytest.mark.parametrize("golden", PINS, ids=lambda g: g.name)
def test_golden_game_replays_its_pinned_log(golden: Golden) -> None:
    """The game's log, event for event, is the pinned one (its sha256)."""
    assert log_hash(golden) == golden.sha256


def test_the_pins_cover_every_system_and_each_of_its_mechanics_on_terrain() -> None:
    """Each system that plays full games is pinned with each mechanic it offers, on terrain."""
    on_terrain = {(g.system, g.mechanic) for g in PINS if g.terrain}
    for name, system in SYSTEMS.items():
        for mechanic in system.mechanics:
            assert (name, mechanic) in on_terrain, (name, mechanic)
        assert name in VERSIONS
