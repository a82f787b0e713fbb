"""The commander ladder (issue 14, item 4): Bradley-Terry on the Elo scale, seat-swapped paired
games, bootstrap intervals, the DuckDB file and the command's bad input."""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
import numpy as np
import pytest

import oprlab.cli
from oprlab.analysis.ladder import (
    LadderGame,
    LadderSpec,
    Matchup,
    bradley_terry,
    pair_scores,
    ratings,
    swept_cells,
    tasks,
)
from tests.game import line, specials


def test_two_commanders_rate_by_their_odds_with_the_prior() -> None:
    """Bradley-Terry: P(i beats j) = p_i / (p_i + p_j). With 3 points of 4 and one virtual
    drawn game, i has 3.5 of 5, so p_i / p_j = 3.5 / 1.5 and the Elo gap is
    400 log10(7/3) = 147.2."""
    scores = np.array([[0.0, 3.0], [1.0, 0.0]])
    played = np.array([[0.0, 4.0], [4.0, 0.0]])
    fit = bradley_terry(scores, played)
    assert 400 / math.log(10) * (fit[0] - fit[1]) == pytest.approx(400 * math.log10(7 / 3))


def test_exact_scores_give_back_the_strengths() -> None:
    """With no prior and scores equal to their expectation under strengths 1, 2, 4 (each pair
    plays 30 games: i takes 30 p_i / (p_i + p_j)), the fit returns those strengths' logs."""
    p = np.array([1.0, 2.0, 4.0])
    played = 30.0 * (1 - np.eye(3))
    scores = played * p[:, None] / (p[:, None] + p[None, :])
    fit = bradley_terry(scores, played, prior=0.0)
    assert fit - fit[0] == pytest.approx(np.log(p))


def _game(a: str, b: str, winner: int | None, seed: int) -> LadderGame:
    return LadderGame("gff", 0, seed, a, b, winner, 0, 0, 0, 0, 10, 0.1, 0.2, 0.5)


def test_ratings_anchor_intervals_and_pairs() -> None:
    """``strong`` wins 7 of 8 games against ``weak`` (3 pairs won, 1 split). With the prior's
    0.5 of 1 virtual game it has 7.5 of 9 points, so the gap is 400 log10(7.5 / 1.5) = 279.6
    Elo; the anchor (the first name) is 0; the interval holds the estimate."""
    games = []
    for seed in range(4):
        games.append(_game("strong", "weak", 0, seed))
        games.append(_game("weak", "strong", 1 if seed else 0, seed))
    rated = ratings(games, ["weak", "strong"], resamples=200)
    assert [r.commander for r in rated] == ["strong", "weak"]
    strong, weak = rated
    assert weak.elo == 0.0 and strong.elo == pytest.approx(400 * math.log10(7.5 / 1.5))
    assert strong.low <= strong.elo <= strong.high
    assert strong.games == 8 and strong.score == pytest.approx(7 / 8)
    assert strong.think == pytest.approx((4 * 0.1 + 4 * 0.2) / 8)
    (pair,) = pair_scores(games, ["weak", "strong"])
    assert pair["first"] == "weak" and pair["score"] == pytest.approx(1 / 8)
    assert pair["pairs"] == 4 and pair["wins"]["won"] == 1


def test_sweeps_count_the_pairs_the_commanders_decided() -> None:
    """Five seat-swapped pairs: ``strong`` wins seeds 0 and 1 from both seats, ``weak`` seed 2;
    on seeds 3 and 4 side A wins both games (the armies decide). The share is 1/2 + (2 - 1) /
    (2 x 5) = 0.6 over all pairs, ``strong`` took 2 of the 3 sweeps, 3 of 5 pairs decided."""
    games = []
    for seed, (first, second) in enumerate([(0, 1), (0, 1), (1, 0), (0, 0), (0, 0)]):
        games.append(_game("strong", "weak", first, seed))
        games.append(_game("weak", "strong", second, seed))
    (pair,) = pair_scores(games, ["strong", "weak"])
    assert pair["score"] == pytest.approx(0.6)
    swept = pair["swept"]
    assert (swept["first"], swept["second"], swept["decided"]) == (2, 1, pytest.approx(0.6))
    assert swept["share"][0] == pytest.approx(2 / 3)
    assert swept["share"][1] < 2 / 3 < swept["share"][2]
    assert swept_cells(pair).startswith("2 / 1 | 0.667 [")
    (split,) = pair_scores(games[6:], ["strong", "weak"])
    assert split["swept"]["share"] is None and swept_cells(split) == "0 / 0 | -"


def test_every_pairing_plays_each_seed_from_both_seats() -> None:
    """Three commanders, two systems, two seeds: 3 pairings x 2 x 2 x 2 seats = 24 games; each
    (pairing, system, seed) twice, with the seats swapped."""
    spec = LadderSpec(("a", "b", "c"), (Matchup(line(), specials()),), ("gff", "riverside"), 2)
    games = list(tasks(spec))
    assert len(games) == 24
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first[0:2] == second[0:2] and first[4] == second[4]
        assert (first[2], first[3]) == (second[3], second[2])


def test_a_small_ladder_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """random against rules, one seed both ways: two games stored with the ratings; JSON out."""
    out = tmp_path / "ladder.duckdb"
    args = ["--commanders", "random,rules", "--games", "1", "--seed", "3", "--resamples", "50"]
    code = oprlab.cli.main(["ladder", *args, "--out", str(out), "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and [r["commander"] for r in report["ratings"]][1] == "random"
    con = duckdb.connect(str(out), read_only=True)
    assert con.execute("SELECT count(*) FROM ladder_games").fetchone() == (2,)
    assert con.execute("SELECT count(*) FROM ladder_ratings").fetchone() == (2,)
    con.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--commanders", "rules"], "two or more different commanders"),
        (["--commanders", "rules,rules:7"], "from 0 to 1"),
        (["--commanders", "rules,clever"], "unknown commander"),
        (["--system", "wwpd"], "Army Forge lists"),
        (["--anchor", "search:9"], "anchor is not in the ladder"),
        (["gff/shooty-150.json"], "pairs of armies"),
        (["--table", "moon"], "open or random"),
    ],
)
def test_bad_ladder_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad input: one ``error:`` line, exit code 2, before any game."""
    code = oprlab.cli.main(["ladder", *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert err[0].startswith("error: ") and message in err[0]


def test_the_printed_ladder_names_every_commander_and_pairing() -> None:
    """The rich tables: each commander's Elo and interval, each pairing's share."""
    from rich.console import Console

    from oprlab.cli.ladder import _print

    games = [_game("strong", "weak", 0, s) for s in range(3)]
    games += [_game("weak", "strong", None, s) for s in range(3)]
    names = ["weak", "strong"]
    console = Console(record=True, width=120)
    _print(console, ratings(games, names, resamples=20), pair_scores(games, names), "id", 6, 6)
    text = console.export_text()
    assert "Ladder id: 6 games" in text and "strong" in text and "+0" in text
    assert "0.250" in text  # weak's share: 3 draws of 6 games


def test_the_ladder_writes_its_tables_into_the_docs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--docs``: the ratings and the pairings replace what stood between the marker lines,
    the text around them stays; the figures are the JSON report's."""
    from oprlab.cli.ladder import BEGIN, END

    doc = tmp_path / "commanders.md"
    doc.write_text(f"before\n{BEGIN}\nold tables\n{END}\nafter\n", encoding="utf-8")
    args = ["--commanders", "random,rules", "--games", "1", "--seed", "3", "--resamples", "50"]
    assert oprlab.cli.main(["ladder", *args, "--docs", str(doc), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(f"before\n{BEGIN}\n| commander | Elo |") and "old tables" not in text
    assert text.endswith(f"{END}\nafter\n")
    rules = next(r for r in report["ratings"] if r["commander"] == "rules")
    assert f"| `rules` | {rules['elo']:+.0f} | [{rules['low']:+.0f}, " in text
    (pair,) = report["pairs"]
    assert f"| `{pair['first']}` | `{pair['second']}` | {pair['score']:.3f} |" in text


def test_ladder_docs_without_markers_is_one_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from oprlab.cli.ladder import BEGIN

    doc = tmp_path / "commanders.md"
    doc.write_text("no markers\n", encoding="utf-8")
    assert oprlab.cli.main(["ladder", "--games", "1", "--docs", str(doc)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and BEGIN in err[0] and "--docs" in err[0]
    assert doc.read_text(encoding="utf-8") == "no markers\n"
