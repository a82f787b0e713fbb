"""WWPD experiments: the lab plays WWPD forces with WWPD's own dice, scoring and commanders
(seed 004), in the same paired design; forces have no points, so no points are recorded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oprlab.analysis.lab.design import build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import build_report, report_html
from oprlab.analysis.lab.run import run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.errors import ParseError

TEXT = """
name = "wwpd tiny"
seed = 3
[[matchups]]
a = "wwpd/colonial"
b = "wwpd/colonial"
[factors]
system = ["wwpd"]
mechanic = ["wwpd"]
readings = [{rounds = 1}]
commanders = ["random"]
first = ["rolloff", "B"]
[stop]
seeds = 2
"""


def test_a_wwpd_experiment_runs_and_reports(tmp_path: Path) -> None:
    """seed 004's game (one round, to be quick): both seats of each seed, the roll-off winner
    plays first ("B": army B in both seats), WWPD's random commander (revision r1), no points
    (forces have none) and no per-unit rows; the report and its page are written."""
    exp = parse_experiment(TEXT)
    cells = build_cells(exp)
    out = tmp_path / "wwpd.duckdb"
    assert run_experiment(exp, cells, out).played == 8
    with LabStore(out, read_only=True) as store:
        games = store.games(experiment_hash(exp, cells))
        assert store.count_units(experiment_hash(exp, cells)) == 0
    assert len(games) == 8 and all(g.rounds == 1 for g in games)
    assert all(g.points_lost == (0.0, 0.0) and g.revisions == ("r1", "r1") for g in games)
    fixed = [g for g in games if g.cell == cells[1].key]
    assert {g.first for g in fixed} == {1}
    report = json.loads(json.dumps(build_report(exp, cells, games, text=TEXT)))
    assert [e["name"] for e in report["effects"]] == ["first: B vs rolloff"]
    assert report["units"] == [] and "<html>" in report_html(report)


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ('system = ["wwpd"]', "factors.mechanic[0]", "not a mechanic of wwpd"),
        ('system = ["wwpd"]\nmechanic = ["wwpd"]', "matchups[0].a", "WWPD forces have none"),
        ('system = ["gff", "wwpd"]', "factors.system[1]", "the same armies"),
        ('system = ["wwpd"]\nmechanic = ["wwpd"]\ncommanders = ["search"]', "factors.commanders[0]",
         "unknown commander for wwpd"),
    ],
)  # fmt: skip
def test_bad_wwpd_levels_name_the_key(body: str, where: str, words: str) -> None:
    side_a = 'a = "pool:p.toml"\npoints = 150' if "matchups" in where else 'a = "wwpd/colonial"'
    text = f'name = "x"\n[[matchups]]\n{side_a}\nb = "wwpd/colonial"\n[factors]\n{body}\n'
    with pytest.raises(ParseError) as info:
        parse_experiment(text, "e.toml")
    said = str(info.value)
    assert said.startswith(f"e.toml: {where}") and words in said and "\n" not in said
