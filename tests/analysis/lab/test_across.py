"""The lab's commanders contrasts say whether army A's verdict holds across the commanders
(issue 14, item 5): each cell's verdict from its 95% interval, then holds / depends / flips."""

from __future__ import annotations

from oprlab.analysis.lab.report import _across
from oprlab.analysis.lab.summary import across_commanders


def test_a_verdict_under_each_commander_and_a_flip() -> None:
    """Variant: A takes every one of 10 seeds (interval [1, 1], above 1/2: ``A``). Baseline: A
    takes none (``B``): opposite verdicts flip. Against a baseline of 1, 0, 1, 0 (mean 1/2, no
    verdict) the verdict depends on the commander; two of them with no verdict hold."""
    won = {i: 1.0 for i in range(10)}
    lost = {i: 0.0 for i in range(10)}
    even = {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}
    assert across_commanders(won, lost) == {"variant": "A", "baseline": "B", "verdict": "flips"}
    assert across_commanders(won, even)["verdict"] == "depends"
    assert across_commanders(even, even)["verdict"] == "holds"
    assert across_commanders({0: 1.0}, even)["variant"] == "none"  # one seed: no interval


def test_the_report_names_a_flip_in_capitals() -> None:
    assert _across(None) == "-"
    assert _across({"variant": "A", "baseline": "B", "verdict": "flips"}) == "A / B: FLIPS"
    text = _across({"variant": "A", "baseline": "none", "verdict": "depends"})
    assert text == "A / none: depends on the commander"
