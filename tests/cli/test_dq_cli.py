"""``oprlab dq duel`` and ``oprlab dq intents`` (seed 001_7377b7b33dc9f88d): tables, JSON, the
shipped fighters by name, both rules side by side, and bad input as one line with exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import oprlab.cli
from oprlab.cli import app
from oprlab.samples import sample_text

runner = CliRunner(env={"COLUMNS": "200"})


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout


def _json(*args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_run(*args, "--json"))
    return data


def test_duel_json_on_shipped_fighters() -> None:
    data = _json("dq", "duel", "dq/knight", "dq/novice", "--games", "30", "--seed", "5")
    assert data["fighters"] == ["Sir Odo Brannock", "Tam Fletcher, levy spearman"]
    assert data["games"] == 30 and data["seed"] == 5 and data["rules"]["resolution"] == "opposed"
    p = data["p_win"][0]["estimate"] + data["p_win"][1]["estimate"] + data["p_draw"]["estimate"]
    assert p == pytest.approx(1)
    assert sum(data["rounds"]["distribution"].values()) == 30
    assert set(data["endings"]) == {
        "dead",
        "unconscious",
        "knocked out",
        "restrained",
        "withdrew",
        "draw",
    }
    again = _json("dq", "duel", "dq/knight.yaml", "dq/novice", "--games", "30", "--seed", "5")
    assert again == data


def test_duel_table_and_account() -> None:
    out = _run("dq", "duel", "dq/watchman", "dq/cutthroat", "--games", "20", "--account")
    assert "P(wins)" in out and "rounds to the end" in out and "P(knockout)" in out
    assert "decided by one blow" in out and "The first duel (seed" in out
    assert "exact P(a plain strike lands), opposed / current" in out
    assert "unengaged initiative" in out


def test_duel_current_and_options(tmp_path: Path) -> None:
    path = tmp_path / "knight.yaml"
    path.write_text(sample_text("dq/knight"))
    data = _json(
        "dq", "duel", str(path), "dq/brute", "--rules", "current", "--games", "10",
        "--rules-option", "stun=off", "--rules-option", "max_rounds=3", "--habits-b", "evader",
    )  # fmt: skip
    assert data["rules"]["resolution"] == "current" and data["rules"]["stun"] == "off"
    assert data["commanders"] == ["habits", "evader"]
    assert max(int(r) for r in data["rounds"]["distribution"]) <= 3


def test_duel_compare() -> None:
    data = _json("dq", "duel", "dq/master", "dq/novice", "--compare", "--games", "20")
    assert data["opposed"]["rules"]["resolution"] == "opposed"
    assert data["current"]["rules"]["resolution"] == "current"
    names = [d["name"] for d in data["differences"]]
    assert "rounds (mean)" in names and "P(a death)" in names
    out = _run("dq", "duel", "dq/master", "dq/novice", "--compare", "--games", "20")
    assert "opposed - current" in out


def test_intents_json() -> None:
    data = _json("dq", "intents", "--games", "6")
    assert len(data["claims"]) == 12
    assert {c["result"] for c in data["claims"]} <= {"PASS", "FAIL", "NOT SHOWN"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["dq", "duel", "dq/knight", "dq/nobody"], "no such fighter file or sample"),
        (["dq", "duel", "dq/knight", "dq/duel"], "no such fighter"),
        (["dq", "duel", "dq/knight", "dq/novice", "--rules", "chess"], "unknown --rules"),
        (["dq", "duel", "dq/knight", "dq/novice", "--games", "0"], "--games"),
        (["dq", "duel", "dq/knight", "dq/novice", "--rules-option", "stun"], "KEY=VALUE"),
        (["dq", "duel", "dq/knight", "dq/novice", "--rules-option", "x=1"], "unknown dq rule"),
        (["dq", "duel", "dq/knight", "dq/novice", "--habits-a", "wild"], "unknown DQ habits"),
        (["dq", "duel", "dq/knight", "dq/novice", "--compare", "--rules", "current"],
         "--compare plays both"),
        (["dq", "duel", "dq/knight", "dq/novice", "--seed", "-1"], "seed"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code = oprlab.cli.main(args)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert words in err


def test_bad_fighter_file_names_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(sample_text("dq/knight").replace("PS: 18", "PS: 180"))
    assert oprlab.cli.main(["dq", "duel", str(path), "dq/novice"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: characteristics.PS" in err and err.count("\n") == 1
