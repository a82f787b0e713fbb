"""The lab's commanders contrasts say whether army A's verdict holds across the commanders
(issue 14, item 5): each cell's verdict from its 95% interval, then holds / depends / flips."""

from __future__ import annotations

from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import _across, _every_commander
from oprlab.analysis.lab.summary import across_commanders, across_every_commander
from oprlab.analysis.lab.tally import CellTally, Tally, hist


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


def test_every_commander_at_once_finds_a_flip_the_contrasts_miss() -> None:
    """Three commanders levels and two mechanics: under the first level army A has no verdict,
    under the second it wins (``A``), under the third it loses (``B``). Each contrast against
    the first says only "depends"; all levels at once say the verdict flips, per mechanic."""
    exp = parse_experiment(
        'name = "t"\n[[matchups]]\na = "gff/shooty-150"\nb = "gff/melee-150"\n'
        '[factors]\nmechanic = ["d6", "clock"]\ncommanders = ["rules", "random", "rules-v1"]\n'
    )
    cells = build_cells(exp)
    scores = {"rules": [1.0, 0.0, 1.0, 0.0], "random": [1.0] * 10, "rules-v1": [0.0] * 10}
    # only the cells' seed scores are read
    per_cell = {c.key: hist(scores[c.commanders[0]]) for c in cells}
    tally = Tally(
        cells={k: CellTally(games=0, measures={}, seed_scores=h) for k, h in per_cell.items()},
        pairs={},
        played=10,
    )
    groups = across_every_commander(cells, tally)
    assert len(groups) == 2
    for g, mechanic in zip(groups, ["d6", "clock"], strict=True):
        assert g["levels"] == {"mechanic": mechanic}
        assert [v["verdict"] for v in g["verdicts"]] == ["none", "A", "B"]
        assert g["verdict"] == "flips"
    first = across_commanders(dict(enumerate(scores["random"])), dict(enumerate(scores["rules"])))
    assert first["verdict"] == "depends"  # what the contrast against the first level says
    html = "".join(_every_commander(groups))
    assert "FLIPS" in html and "random: A; rules-v1: B" in html
    assert _every_commander([]) == []
