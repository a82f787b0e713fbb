"""The search commander's strength-for-time curve (issue 14, item 2): search's share against
the rules commander over seat-swapped pairs, and its cost over rules-against-rules games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import oprlab.cli
from oprlab.analysis.ladder import LadderGame
from oprlab.analysis.strength import BASE, curve, markdown, strength_tasks
from oprlab.cli.strength import BEGIN, END


def _game(a: str, b: str, seed: int, winner: int | None, seconds: float) -> LadderGame:
    return LadderGame("gff", 0, seed, a, b, winner, 0, 0, 0, 0, 1, 0.0, 0.0, seconds)


def test_tasks_pair_the_seats_and_play_the_yardstick_once_per_seed() -> None:
    """Per seed: rules against itself, then each budget from side A and from side B."""
    tasks = strength_tasks(["gff"], [8, 24], 2, 14)
    assert len(tasks) == 2 * (1 + 2 * 2)
    assert tasks[0][2:4] == (BASE, BASE)
    assert tasks[1][2:4] == ("search:8", BASE) and tasks[2][2:4] == (BASE, "search:8")


def test_curve_scores_pairs_and_costs_against_the_yardstick() -> None:
    """Seed 0: search wins from side A (1) and draws from side B (1/2): a pair of 3/4. Seed 1:
    search loses from A (0), wins from B (1): 1/2. Mean 5/8; the interval over the pairs is
    5/8 +- 1.96 * sd(3/4, 1/2) / sqrt(2) = 5/8 +- 1.96 * 0.1768 / 1.414. Cost: search's games
    took 3 + 5 + 4 + 4 = 16 s against 2 x (1 + 1) = 4 s of rules games: 4x, 4 s a game. A seed
    with one seat missing counts for nothing."""
    games = [
        _game(BASE, BASE, 0, 0, 1.0),
        _game(BASE, BASE, 1, 1, 1.0),
        _game("search:8", BASE, 0, 0, 3.0),
        _game(BASE, "search:8", 0, None, 5.0),
        _game("search:8", BASE, 1, 1, 4.0),
        _game(BASE, "search:8", 1, 1, 4.0),
        _game("search:8", BASE, 2, 0, 9.0),
        _game(BASE, BASE, 2, 0, 1.0),
    ]
    (row,) = curve(games, [8])
    assert row.games == 4 and row.score == pytest.approx(5 / 8)
    half = 1.959963984540054 * (0.125 * 2**0.5) / 2**0.5
    assert row.low == pytest.approx(5 / 8 - half) and row.high == pytest.approx(5 / 8 + half)
    assert row.cost == pytest.approx(4.0) and row.seconds == pytest.approx(4.0)
    assert "| gff | `search:8` | 4 | 0.625 |" in markdown([row])


def test_curve_counts_the_pairs_search_swept() -> None:
    """Seed 0: search wins from both seats; seed 1: rules does; seed 2: side A wins both games
    (split); seed 3: a draw and a win (3/4, not a sweep). Swept 1 / 1."""
    games = [_game(BASE, BASE, seed, 0, 1.0) for seed in range(4)]
    for seed, (first, second) in enumerate([(0, 1), (1, 0), (0, 0), (None, 1)]):
        games += [
            _game("search:8", BASE, seed, first, 2.0),
            _game(BASE, "search:8", seed, second, 2.0),
        ]
    (row,) = curve(games, [8])
    assert row.swept == (1, 1) and row.score == pytest.approx((1 + 0 + 0.5 + 0.75) / 4)
    assert markdown([row]).endswith("| 2.0x | 1 / 1 |")


def test_strength_writes_its_table_into_the_docs(tmp_path: Path) -> None:
    """One seed at budget 1 (150 points, quick): the table replaces what stood between the
    marker lines, the text around them (a sentence naming the markers too) stays."""
    doc = tmp_path / "doc.md"
    prose = f"the table goes between `{BEGIN}` and `{END}`:\n"  # a mention, not the place
    doc.write_text(f"{prose}{BEGIN}\nold table\n{END}\nafter\n", encoding="utf-8")
    args = ["gff/shooty-150.json", "gff/melee-150.json", "--budgets", "1", "--games", "1"]
    code = oprlab.cli.main(["strength", *args, "--seed", "3", "--docs", str(doc), "--json"])
    assert code == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(f"{prose}{BEGIN}\n| system |") and text.endswith(f"{END}\nafter\n")
    assert "old table" not in text and "`search:1` | 2 |" in text


def test_another_form_writes_its_own_table(tmp_path: Path) -> None:
    """``--form search-portfolio``: that form at each budget, its table between its own marker
    lines; ``search``'s table is left as it was."""
    doc = tmp_path / "doc.md"
    begin, end = (
        "<!-- strength:search-portfolio:begin -->",
        "<!-- strength:search-portfolio:end -->",
    )
    doc.write_text(f"{BEGIN}\nsearch's\n{END}\n{begin}\nold\n{end}\n", encoding="utf-8")
    args = ["gff/shooty-150.json", "gff/melee-150.json", "--budgets", "2", "--games", "1"]
    form = ["--form", "search-portfolio", "--seed", "3", "--docs", str(doc), "--json"]
    assert oprlab.cli.main(["strength", *args, *form]) == 0
    text = doc.read_text(encoding="utf-8")
    assert f"{BEGIN}\nsearch's\n{END}\n{begin}\n| system |" in text and "old" not in text
    assert "`search-portfolio:2` | 2 |" in text
    tasks = strength_tasks(["gff"], [2], 1, 3, "search-portfolio")
    assert {t[2] for t in tasks} | {t[3] for t in tasks} == {BASE, "search-portfolio:2"}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--form", "rules"], "--form"),
        (["--budgets", "0"], "--budgets"),
        (["--budgets", "8,x"], "8,x"),
        (["--system", "wwpd"], "--system"),
    ],
)
def test_bad_options_are_one_line(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert oprlab.cli.main(["strength", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and needle in err and "\n" not in err


def test_docs_without_markers_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("no markers\n", encoding="utf-8")
    args = ["gff/shooty-150.json", "gff/melee-150.json", "--budgets", "1", "--games", "1"]
    assert oprlab.cli.main(["strength", *args, "--docs", str(doc)]) == 2
    assert BEGIN in capsys.readouterr().err
    assert json.dumps(doc.read_text(encoding="utf-8")) == json.dumps("no markers\n")
