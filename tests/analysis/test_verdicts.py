"""Verdicts that say whether they depend on the player (issue 14, item 5): each commander's
verdict with a Wilson interval, its paired difference from the first, holds / depends / flips."""

from __future__ import annotations

import json
import math

import pytest

import oprlab.cli
from oprlab.analysis.ladder import LadderGame
from oprlab.analysis.verdicts import Z95, judge, robustness, robustness_of, share_interval


def _games(commander: str, winners: list[int | None]) -> list[LadderGame]:
    return [
        LadderGame("gff", 0, seed, commander, commander, w, 0, 0, 0, 0, 1, 0.0, 0.0, 0.0)
        for seed, w in enumerate(winners)
    ]


def test_wilson_share_when_every_game_went_one_way() -> None:
    """20 wins of 20: Wilson's low end is n / (n + z^2) = 20 / 23.84 = 0.839, the high end 1."""
    low, high = share_interval(20.0, 20)
    assert low == pytest.approx(20 / (20 + Z95**2)) and high == 1.0
    assert judge(low, high) == "A" and judge(0.1, 0.4) == "B" and judge(0.4, 0.6) == "none"


def test_opposite_verdicts_flip_and_a_missing_one_depends() -> None:
    """x: A wins all 20; y: B wins all 20 -> flips, y's share 1 below x's exactly (every paired
    difference is -1); z: 10 wins each way -> no verdict -> depends."""
    x, y = _games("x", [0] * 20), _games("y", [1] * 20)
    z = _games("z", [0, 1] * 10)
    rows, overall = robustness(x + y, ["x", "y"])
    assert overall == "flips"
    assert [v.verdict for v in rows] == ["A", "B"]
    assert rows[1].diff == -1.0 and rows[1].diff_low == rows[1].diff_high == -1.0
    rows, overall = robustness(x + z, ["x", "z"])
    assert overall == "depends" and rows[1].score == 0.5
    rows, overall = robustness(x + x[:10], ["x"])
    assert overall == "holds"


def test_draws_count_half() -> None:
    """Four draws and no wins: a share of 1/2 exactly, no verdict."""
    (row,), overall = robustness(_games("d", [None] * 4), ["d"])
    assert row.score == 0.5 and row.verdict == "none" and overall == "holds"
    assert not math.isnan(row.low)


def test_verdict_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """Two commanders, one seed each, JSON out: a verdict per commander and the summary."""
    args = ["--commanders", "random,rules", "--games", "1", "--seed", "5", "--json"]
    code = oprlab.cli.main(["verdict", "gff/shooty-150.json", "gff/melee-150.json", *args])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert [v["commander"] for v in report["verdicts"]] == ["random", "rules"]
    assert report["across_commanders"] in ("holds", "depends", "flips")


def test_robustness_from_series_scores() -> None:
    """Scores per commander and seed, as ``battle --across`` collects them: x takes 3/4 of
    seeds 1-4, y 1/4 of the same seeds; every paired difference is -1 or 0: the mean -1/2."""
    by = {"x": {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.0}, "y": {1: 0.0, 2: 0.0, 3: 1.0, 4: 0.0}}
    rows, overall = robustness_of(by, ["x", "y"])
    assert [r.score for r in rows] == [0.75, 0.25] and rows[1].diff == -0.5
    assert overall == "holds"  # 4 games: neither interval leaves 1/2


def test_battle_across_commanders(capsys: pytest.CaptureFixture[str]) -> None:
    """``battle --games 2 --across``: each commander plays both sides of the same two seeds
    (noise 1 is a uniformly random player, so the games are quick)."""
    args = ["--games", "2", "--across", "random,rules:1", "--seed", "5", "--jobs", "1"]
    code = oprlab.cli.main(["battle", "gff/shooty-150", "gff/melee-150", *args, "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert [v["commander"] for v in report["verdicts"]] == ["random", "rules:1"]
    assert [v["games"] for v in report["verdicts"]] == [2, 2]
    assert report["across_commanders"] in ("holds", "depends", "flips")


@pytest.mark.parametrize(
    "args",
    [
        ["--games", "2", "--across", "rules"],
        ["--games", "2", "--across", "rules,rules"],
        ["--games", "1", "--across", "rules,random"],
        ["--games", "2", "--across", "rules,bogus"],
    ],
)
def test_battle_across_bad_options_are_one_line(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert oprlab.cli.main(["battle", "gff/shooty-150", "gff/melee-150", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err


def test_same_verdict_but_a_commander_that_moves_the_share_depends() -> None:
    """Both commanders say ``none`` on 6 games, but on the same seeds one scores A 1/6 and the
    other 5/6: every paired difference is 0 or +1 (mean 2/3), so its interval excludes 0 and the
    answer depends on who plays, though neither verdict differs."""
    x = {s: (1.0 if s == 0 else 0.0) for s in range(6)}
    y = {s: (0.0 if s == 5 else 1.0) for s in range(6)}
    rows, overall = robustness_of({"x": x, "y": y}, ["x", "y"])
    assert [r.verdict for r in rows] == ["none", "none"]
    assert rows[1].diff == pytest.approx(4 / 6)
    assert rows[1].diff_low > 0
    assert overall == "depends"


def test_verdict_with_keyed_dice_records_the_design(capsys: pytest.CaptureFixture[str]) -> None:
    """``--dice keyed`` plays the verdict's games keyed and its record says so; the stream's
    record has no dice key (its ladders keep their ids); an unknown design is one line naming
    ``--dice`` before any game."""
    base = ["gff/shooty-150.json", "gff/melee-150.json", "--commanders", "rules,rules-v1"]
    base += ["--games", "2", "--seed", "5", "--json"]
    reports = {}
    for dice in ("stream", "keyed"):
        assert oprlab.cli.main(["verdict", *base, "--dice", dice]) == 0
        reports[dice] = json.loads(capsys.readouterr().out)
    assert "dice" not in reports["stream"]["record"]
    assert reports["keyed"]["record"]["dice"] == "keyed"
    assert oprlab.cli.main(["verdict", *base, "--dice", "loaded"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "error: --dice: unknown dice design (got 'loaded'); expected stream or keyed"
