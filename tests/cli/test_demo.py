"""``oprlab demo`` runs end to end on the bundled samples (it is what ``make demo`` runs)."""

import pytest

from oprlab.cli import demo, main


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "d6 exact" in out and "clock from 1" in out and "n=4,000" in out
    assert "Whole games" in out and f"n={demo.GAMES} games per row" in out
