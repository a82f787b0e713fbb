"""The ``first`` factor: who wins the roll-off that decides who goes first, fixed to an army
of the matchup (whichever side it plays) or left to the dice, and its effect as a paired
difference (issue 15 item 2: "who goes first ... can be fixed or made a factor")."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from oprlab.analysis.lab.design import build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import build_report
from oprlab.analysis.lab.run import run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.errors import ParseError

TEXT = """
name = "who goes first"
seed = 11
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[factors]
commanders = ["random"]
first = ["rolloff", "A", "B"]
[stop]
seeds = 2
"""


def test_a_fixed_first_army_goes_first_in_both_seats(tmp_path: Path) -> None:
    """seed 003 "Deployment" 1 and "Playing the Game": the deployment roll-off winner plays
    first. ``first = "A"`` makes army A of the matchup win it in both seats (side A in seat 0,
    side B in seat 1); ``"B"`` army B; ``"rolloff"`` leaves it to the dice, which the two seats
    share, so each army goes first once per seed. The report pairs each fixed level with the
    roll-off on the same seeds."""
    exp = parse_experiment(TEXT)
    cells = build_cells(exp)
    assert [c.levels["first"] for c in cells] == ["rolloff", "A", "B"]
    out = tmp_path / "first.duckdb"
    assert run_experiment(exp, cells, out).played == 12
    with LabStore(out, read_only=True) as store:
        games = store.games(experiment_hash(exp, cells))
    level = {c.key: c.levels["first"] for c in cells}
    firsts: dict[tuple[str, int], set[int]] = defaultdict(set)
    for g in games:
        firsts[(level[g.cell], g.seed_index)].add(g.first)
    assert firsts[("A", 0)] == firsts[("A", 1)] == {0}
    assert firsts[("B", 0)] == firsts[("B", 1)] == {1}
    assert firsts[("rolloff", 0)] == firsts[("rolloff", 1)] == {0, 1}
    report = json.loads(json.dumps(build_report(exp, cells, games, text=TEXT)))
    names = [e["name"] for e in report["effects"]]
    assert names == ["first: A vs rolloff", "first: B vs rolloff"]
    assert all(e["seeds"] == 2 for e in report["effects"])


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ("first = ['rolloff', 'C']", "factors.first[1]", "rolloff (the dice), A or B"),
        ("readings = [{roll_off_winner = 'A'}]", "factors.readings[0]", "first = ["),
    ],
)
def test_bad_first_levels_name_the_key(body: str, where: str, words: str) -> None:
    text = TEXT.replace('first = ["rolloff", "A", "B"]', body)
    with pytest.raises(ParseError) as info:
        parse_experiment(text, "e.toml")
    said = str(info.value)
    assert said.startswith(f"e.toml: {where}") and words in said and "\n" not in said
