"""The experiment's ``dice`` key: keyed dice in every cell (``play_game``'s design), recorded in
what decides the games, refused where the decisions are not OPR activations; an experiment
without the key keeps the hashes its games were stored by."""

from __future__ import annotations

from pathlib import Path

import pytest

from oprlab.analysis.lab.design import build_cells, experiment_hash
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.report import KEYED_NOTE, build_report
from oprlab.analysis.lab.run import run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.errors import ParseError

TEXT = """
name = "strike back"
seed = 5
{dice}
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[factors]
readings = [{{}}, {{strike_back = "always"}}]
[stop]
seeds = 2
"""


def test_stream_is_the_default_and_keeps_the_stored_hashes() -> None:
    plain, stream, keyed = (
        parse_experiment(TEXT.format(dice=d)) for d in ("", 'dice = "stream"', 'dice = "keyed"')
    )
    assert plain.dice == "stream" and "dice" not in plain.decided()
    assert plain.decided() == stream.decided() and keyed.decided()["dice"] == "keyed"
    cells = [build_cells(e) for e in (plain, stream, keyed)]
    assert [c.key for c in cells[0]] == [c.key for c in cells[1]]
    assert not {c.key for c in cells[0]} & {c.key for c in cells[2]}
    assert experiment_hash(plain, cells[0]) != experiment_hash(keyed, cells[2])
    assert {c.dice for c in cells[2]} == {"keyed"}


def test_a_keyed_experiment_plays_keyed_games_and_says_so(tmp_path: Path) -> None:
    """The same seeds, other games (the dice differ from the first activation on); the report's
    design says the dice are keyed."""
    scores = {}
    for dice in ("stream", "keyed"):
        exp = parse_experiment(TEXT.format(dice=f'dice = "{dice}"'))
        cells = build_cells(exp)
        out = tmp_path / f"{dice}.duckdb"
        assert run_experiment(exp, cells, out).played == 8
        with LabStore(out, read_only=True) as store:
            games = store.games(experiment_hash(exp, cells))
        scores[dice] = sorted((g.seed_index, g.seat, g.decisions, g.winner) for g in games)
        design = build_report(exp, cells, games)["design"]
        assert design.endswith(KEYED_NOTE) == (dice == "keyed")
    assert scores["stream"] != scores["keyed"]


WWPD = """
name = "wwpd keyed"
dice = "keyed"
[[matchups]]
a = "wwpd/colonial"
b = "wwpd/colonial"
[factors]
system = ["wwpd"]
mechanic = ["wwpd"]
"""


def test_keyed_dice_in_wwpd_or_an_unknown_design_name_the_key() -> None:
    with pytest.raises(
        ParseError, match=r"w.toml: dice: keyed dice follow OPR activations \(got 'wwpd'\)"
    ):
        parse_experiment(WWPD, "w.toml")
    with pytest.raises(ParseError, match=r"dice.*'loaded'"):
        parse_experiment(TEXT.format(dice='dice = "loaded"'))
