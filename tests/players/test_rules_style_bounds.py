"""The rules commander's weights that its bounds rely on (players/rules/style.py): a weight of
the wrong sign would let a bound prune the best action, so a Style refuses it by name."""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest

from oprlab.players.rules.style import RULES, STYLES, Style


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("danger", -0.1),
        ("danger", 1.5),
        ("rush_cost", -1.0),
        ("strike_back", -0.2),
        ("danger", float("nan")),
    ],
)
def test_a_weight_the_bounds_cannot_carry_is_refused(field: str, value: float) -> None:
    with pytest.raises(ValueError, match=field):
        Style(**{**asdict(RULES), field: value})


def test_the_named_styles_and_the_edges_stand() -> None:
    assert set(STYLES) >= {"rules", "rules-v1", "rules-aggressive", "rules-cautious"}
    for danger in (0.0, 1.0):
        assert replace(RULES, danger=danger).danger == danger
    assert replace(RULES, rush_cost=0.0, strike_back=0.0).rush_cost == 0.0
