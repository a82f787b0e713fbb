"""bench.value_fit: the rows the search's learned value is fitted on, and the fit's report."""

from __future__ import annotations

import pytest
from bench import value_fit

from oprlab.players.search_value import FEATURES


def test_rows_are_each_decisions_features_and_its_sides_share() -> None:
    """Every decision after deployment gives the side to act's features and its share of the
    result; the two sides' shares of one game add to one."""
    rows, shares = value_fit.game_rows(("gff", 5))
    assert rows and len(rows) == len(shares)
    assert all(r >= 1 and len(x) == len(FEATURES) for r, _, x, _ in rows)
    by_side = {side: y for (_, side, _, _), y in zip(rows, shares, strict=True)}
    assert set(by_side) == {0, 1} and by_side[0] + by_side[1] == 1.0


def test_a_fit_reports_held_out_losses_and_weights(capsys: pytest.CaptureFixture[str]) -> None:
    value_fit.main(["10"])
    out = capsys.readouterr().out
    assert "10 games" in out and "held out, log loss / Brier" in out
    assert out.count("        (") == 4  # a row of weights per round
