"""``oprlab battle``: one game told round by round, its JSON and event log, a series with
intervals, and bad input as one line with exit code 2."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

import oprlab.cli
from oprlab.cli.battle import register
from oprlab.game.options import settable
from tests.game import LINE_TEXT

runner = CliRunner(env={"COLUMNS": "200"})

AOF_TEXT = "++ Old Host [AOF 150pts] ++\n\nSpearmen [5] Q4+ D4+ | 50pts\n5x Spear (A1)\n"
EMPTY_TEXT = "++ Nobody Home [GFF 150pts] ++\n"


def _app() -> typer.Typer:
    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)

    @app.callback()
    def _root() -> None:
        """Test root."""

    register(app)
    return app


@pytest.fixture
def armies(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in (("line", LINE_TEXT), ("aof", AOF_TEXT), ("empty", EMPTY_TEXT)):
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


def _run(*args: str) -> str:
    result = runner.invoke(_app(), ["battle", *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result.stdout


def test_one_game_prints_an_account_with_rounds_and_a_result(armies: dict[str, str]) -> None:
    """One game: the armies and seed, each round with who goes first, activations, the end."""
    out = _run(armies["line"], "gff/melee-150", "--seed", "3")
    assert "Test Line (A) vs Briar Host (B), seed 3, mechanic d6, open table" in out
    for r in range(1, 5):
        assert f"Round {r}: " in out
    assert "goes first" in out and "A2 Rifle Squad:" in out
    last = [line for line in out.splitlines() if line.strip()][-1]
    assert ("wins" in last or "draw" in last) and "objectives" in last and "units left" in last


def test_one_game_json(armies: dict[str, str]) -> None:
    """--json: the GameResult, replayable from its seed."""
    data = json.loads(_run(armies["line"], armies["line"], "--seed", "4", "--json"))
    assert set(data) == {
        "seed", "system", "mechanic", "winner", "objectives", "units_left", "models_lost",
        "rounds", "decisions", "commanders", "commander_revisions", "rules_version",
        "rule_options", "not_deployed", "oprlab",
    }  # fmt: skip
    assert data["seed"] == 4 and data["rounds"] == 4 and data["commanders"] == ["rules", "rules"]
    again = json.loads(_run(armies["line"], armies["line"], "--seed", "4", "--json"))
    assert again == data


def test_options_reach_the_game(armies: dict[str, str]) -> None:
    """--mechanic and --commander-a/-b are used (and recorded)."""
    data = json.loads(
        _run(
            armies["line"],
            armies["line"],
            "--seed",
            "1",
            "--json",
            "--mechanic",
            "clock",
            "--commander-b",
            "random",
        )
    )
    assert data["mechanic"] == "clock" and data["commanders"] == ["rules", "random"]
    assert data["commander_revisions"] == ["r2", "r1"]  # players.base.REVISIONS


def test_random_table_has_terrain(armies: dict[str, str]) -> None:
    """--table random: a table generated from the seed (terrain from oprlab.table)."""
    out = _run(armies["line"], armies["line"], "--seed", "8", "--table", "random")
    assert "seed 8, mechanic d6, 20 terrain pieces" in out
    assert "Round 4" in out


def test_log_writes_the_events(armies: dict[str, str], tmp_path: Path) -> None:
    """--log FILE: the result, every event of the game, and the moves (where each unit's
    centre stood before and after each decision that moved it) as JSON, beside the setup and
    the decisions that play it again (tests/web/test_gamefile.py)."""
    path = tmp_path / "game.json"
    _run(armies["line"], "gff/shooty-150", "--seed", "2", "--log", str(path))
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert set(data) == {"oprlab_game", "oprlab", "setup", "actions", "result", "events", "moves"}
    assert data["moves"] and set(data["moves"][0]) == {
        "round",
        "unit",
        "side",
        "kind",
        "from",
        "to",
    }
    moved = {e["unit"] for e in data["events"] if e["kind"] in ("move", "charge")}
    assert moved <= {m["unit"] for m in data["moves"]}
    kinds = [e["kind"] for e in data["events"]]
    assert kinds[0] == "setup" and kinds[-1] == "end"
    assert {"objective", "deploy", "round", "activate"} <= set(kinds)
    assert data["result"]["seed"] == 2
    assert data["result"]["commander_revisions"] == ["r2", "r2"]  # the saved log records them


def test_series_prints_rates_with_intervals(armies: dict[str, str]) -> None:
    """--games N: win and draw rates with 95% intervals over N games (DESIGN: a Monte Carlo
    result is shown with its sample size and an interval)."""
    out = _run(armies["line"], armies["line"], "--seed", "5", "--games", "3", "--jobs", "1")
    assert "3 games" in out and "95% interval" in out
    for label in ("A wins", "B wins", "draws", "objectives held by A"):
        assert label in out
    data = json.loads(
        _run(armies["line"], armies["line"], "--seed", "5", "--games", "3", "--jobs", "1", "--json")
    )
    assert data["games"] == 3 and not data["interrupted"]
    rates = [data[k]["estimate"] for k in ("win_a", "win_b", "draw")]
    assert sum(rates) == pytest.approx(1.0)
    for k in ("win_a", "win_b", "draw"):
        # (stats.wilson can put the low end 1e-16 above an estimate of 0: rounding)
        assert data[k]["low"] - 1e-12 <= data[k]["estimate"] <= data[k]["high"] + 1e-12


def _main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str]:
    """Through the real CLI root: a UserError is one line on stderr and exit code 2."""
    monkeypatch.setattr(oprlab.cli, "app", _app())
    code = oprlab.cli.main(["battle", *args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing-army.txt", "LINE"), "army file not found"),
        (("LINE", "LINE", "--system", "chess"), "unknown rule system"),
        (("LINE", "LINE", "--games", "0"), "games out of range"),
        (("LINE", "LINE", "--games", "2", "--log", "x.json"), "--log writes one game"),
        (("EMPTY", "LINE"), "the list has no units"),
        (("LINE", "AOF"), "army 2 is for another game system"),
        (("LINE", "LINE", "--mechanic", "tarot"), "tarot"),
        (("LINE", "LINE", "--commander-a", "clever"), "unknown commander"),
        (("LINE", "LINE", "--table", "no-such-terrain.json"), "cannot read the terrain file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: tuple[str, ...],
    message: str,
    armies: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Bad input never shows a traceback: one line naming the problem, exit code 2."""
    names = {"LINE": armies["line"], "EMPTY": armies["empty"], "AOF": armies["aof"]}
    code, err = _main(monkeypatch, capsys, *(names.get(a, a) for a in args))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_riverside_and_wwpd_games_play_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """seed 002 (Riverside) and seed 004 (WWPD): both play whole games through `battle`."""
    from oprlab.cli import main

    assert (
        main(
            [
                "battle",
                "gff/shooty-150",
                "gff/melee-150",
                "--system",
                "riverside",
                "--seed",
                "4",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["system"] == "riverside" and out["rounds"] == 4
    assert (
        main(
            [
                "battle",
                "wwpd/colonial",
                "wwpd/colonial",
                "--system",
                "wwpd",
                "--seed",
                "4",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["system"] == "wwpd" and set(out["objectives"]) <= set(range(6))
    assert (
        main(
            ["battle", "wwpd/colonial", "wwpd/colonial", "--system", "wwpd", "--mechanic", "clock"]
        )
        == 2
    )


def test_svg_draws_the_final_table(tmp_path: Path) -> None:
    """Issue: `--svg FILE` writes the final table: terrain, markers and the units left."""
    from oprlab.cli import main

    out = tmp_path / "end.svg"
    assert (
        main(
            [
                "battle",
                "gff/shooty-150",
                "gff/melee-150",
                "--seed",
                "5",
                "--table",
                "random",
                "--svg",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<svg") or text.startswith("<?xml")
    # a unit left on the table is labelled by its uid (which survive depends on the commander)
    assert "objective 1" in text and re.search(r"\b[AB]\d+ ", text)
    assert (
        main(["battle", "gff/shooty-150", "gff/melee-150", "--games", "2", "--svg", str(out)]) == 2
    )


def test_svg_rounds_draws_the_table_at_the_end_of_every_round(tmp_path: Path) -> None:
    """Issue: `--svg FILE` the final table "or one per round": FILE-round1.svg .. -round4.svg."""
    from oprlab.cli import main

    out = tmp_path / "game.svg"
    args = ["battle", "gff/shooty-150", "gff/melee-150", "--seed", "3", "--svg", str(out)]
    assert main([*args, "--svg-rounds", "--json"]) == 0
    rounds = sorted(p.name for p in tmp_path.glob("game-round*.svg"))
    assert rounds == [f"game-round{n}.svg" for n in range(1, 5)]
    drawn = [(tmp_path / name).read_text(encoding="utf-8") for name in rounds]
    assert all("objective 1" in d for d in drawn)
    assert drawn[-1] == out.read_text(encoding="utf-8")  # round 4's end is the game's end
    assert len(set(drawn)) > 1  # the table changes as the game goes on
    assert main(["battle", "gff/shooty-150", "gff/melee-150", "--svg-rounds"]) == 2


def test_rules_options_reach_the_game_and_its_result(armies: dict[str, str]) -> None:
    """`--rules-option KEY=VALUE` sets a reading (docs/rules/gff.md); the result records it."""
    data = json.loads(
        _run(armies["line"], armies["line"], "--seed", "4", "--json",
             "--rules-option", "edges=north-south", "--rules-option", "dangerous=twice")
    )  # fmt: skip
    assert data["rule_options"] == {
        **settable("gff"),
        "edges": "north-south",
        "dangerous": "twice",
    }
    assert data["rules_version"].startswith("003_")


def test_bad_rules_option_is_one_line(
    armies: dict[str, str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _main(monkeypatch, capsys, armies["line"], armies["line"], "--rules-option", "x")
    assert code == 2 and err.count("\n") == 1 and "KEY=VALUE" in err


def test_account_names_who_casts_and_who_spends_bennies() -> None:
    """The account says which unit casts (seed 003 Caster(X)) and which side spends a benny on
    what (seed 000 "Variants" 5), with army-scope clocks named by army. The scene is the one
    rules-v1 plays on this seed (the commander is not what the test is about)."""
    out = _run(
        "gff/shooty-300", "gff/melee-300", "--seed", "3", "--mechanic", "clock-bennies",
        "--table", "random", "--commander-a", "rules-v1", "--commander-b", "rules-v1",
    )  # fmt: skip
    assert "A1 Beacon Adept casts Bolt (2) at B5 Bramble Beast: works" in out
    assert "A spends a benny to set B's clock to 5" in out
    assert "A spends a benny to defend A2 Lantern Wardens against 1 hit(s)" in out


def test_wwpd_battle_prints_an_account_and_draws_pictures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 11: `battle --system wwpd` prints a battle account like the OPR systems (rounds,
    turns, moves, shots with their saves, the result), and `--svg` / `--svg-rounds` draw it."""
    from oprlab.cli import main

    out = tmp_path / "w.svg"
    args = ["battle", "wwpd/colonial", "wwpd/colonial", "--system", "wwpd", "--seed", "3"]
    assert main([*args, "--svg", str(out), "--svg-rounds"]) == 0
    text = capsys.readouterr().out
    assert "Verdant Reach Colonial Guard (A) vs" in text
    for n in range(1, 5):
        assert f"Round {n}:" in text
    assert re.search(r"Turn 1: [AB]", text)
    assert " moves " in text and " shoots " in text and "saved" in text
    assert re.search(r"force [AB] wins|draw", text)
    assert len(text.splitlines()) > 20
    assert sorted(p.name for p in tmp_path.glob("w-round*.svg")) == [
        f"w-round{n}.svg" for n in range(1, 5)
    ]
    assert "end of round 4 of 4" in out.read_text(encoding="utf-8")
