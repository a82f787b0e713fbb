"""The game file (web/gamefile.py): ``oprlab battle --log`` writes the setup and decisions, so
``oprlab serve --open FILE`` plays the same game again in the viewer (every system, with a
terrain file, readings and commander specs); an old ``--log`` file, a newer format and a bad
file are refused with one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oprlab.cli import main
from oprlab.web import engine
from oprlab.web.app import create_app
from oprlab.web.gamefile import GAME_FILE_VERSION, GameSetup, action_from_json, action_to_json


def _battle_log(tmp_path: Path, *args: str) -> dict[str, Any]:
    log = tmp_path / "game.json"
    assert main(["battle", *args, "--log", str(log)]) == 0
    data = json.loads(log.read_text())
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize(
    "args",
    [
        ("gff/shooty-150", "gff/melee-150", "--seed", "3", "--table", "random"),
        (
            "gff/elite-150",
            "gff/horde-150",
            "--system",
            "riverside",
            "--seed",
            "8",
            "--mechanic",
            "clock-random",
            "--rules-option",
            "tie=both",
            "--commander-b",
            "random",
        ),
        ("wwpd/colonial", "wwpd/colonial", "--system", "wwpd", "--seed", "5", "--table", "random"),
    ],
    ids=["gff", "riverside-clock", "wwpd"],
)
def test_a_battle_log_plays_again_event_for_event(
    tmp_path: Path, capsys: Any, args: tuple[str, ...]
) -> None:
    """The file's decisions, played again from its setup (the dice from the seed's stream),
    give the same events and the same result; the commanders keep their names."""
    data = _battle_log(tmp_path, *args)
    capsys.readouterr()
    assert data["oprlab_game"] == GAME_FILE_VERSION
    game = engine.replay_stored(data, "game.json")
    assert game.done
    assert game.state.log.events == data["events"]
    assert game.result().to_json() == data["result"]
    assert len(game.frames) == len(data["actions"]) + 1


def test_a_battle_log_with_a_terrain_file_keeps_the_terrain(tmp_path: Path, capsys: Any) -> None:
    terrain = tmp_path / "table.json"
    assert main(["table", "show", "--seed", "11", "--save", str(terrain)]) == 0
    data = _battle_log(
        tmp_path, "gff/shooty-150", "gff/melee-150", "--seed", "2", "--table", str(terrain)
    )
    capsys.readouterr()
    assert data["setup"]["table"] == "file"
    assert json.loads(data["setup"]["terrain"]) == json.loads(terrain.read_text())
    game = engine.replay_stored(data, "game.json")
    assert game.state.log.events == data["events"]


def test_serve_open_shows_a_battle_log(tmp_path: Path, capsys: Any) -> None:
    from oprlab.cli.serve import read_game

    _battle_log(tmp_path, "gff/shooty-150", "gff/melee-150", "--seed", "1")
    capsys.readouterr()
    client = TestClient(create_app(read_game(tmp_path / "game.json")))
    shown = client.get("/replay/saved/opened")
    assert shown.status_code == 200
    assert "commanders rules and rules" in shown.text


def test_serve_open_refuses_an_old_battle_log_in_one_line(tmp_path: Path, capsys: Any) -> None:
    """A ``--log`` file written before the setup was kept holds no decisions to play again."""
    data = _battle_log(tmp_path, "gff/shooty-150", "gff/melee-150", "--seed", "1")
    old = tmp_path / "old.json"
    old.write_text(json.dumps({k: data[k] for k in ("result", "events", "moves")}))
    capsys.readouterr()
    assert main(["serve", "--open", str(old)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: --open: an old `oprlab battle --log` file")
    assert "\n" not in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"oprlab_game": GAME_FILE_VERSION + 1}, "a game file of another format version"),
        ({"oprlab_game": "1"}, "a game file of another format version"),
        ({"setup": {"list_a": "x"}}, "missing field"),
        ({"setup": {"list_a": "", "list_b": "", "seed": "1"}}, "not an integer"),
        ({"actions": {}}, "not a list"),
        ({"actions": [{"kind": "fly"}]}, "unknown decision"),
        ({"actions": [{"kind": "hold", "unit": "A9"}]}, "not a legal decision here"),
    ],
)
def test_a_bad_game_file_is_one_line(
    tmp_path: Path, capsys: Any, change: dict[str, Any], expected: str
) -> None:
    data = _battle_log(tmp_path, "gff/shooty-150", "gff/melee-150", "--seed", "1")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data | change))
    capsys.readouterr()
    assert main(["serve", "--open", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and expected in err and "\n" not in err


def test_actions_of_each_system_round_trip_through_json() -> None:
    from oprlab.game.actions import Action, Kind
    from oprlab.game.wwpd import Kind as WwpdKind
    from oprlab.game.wwpd import WwpdAction

    shot = Action(Kind.SHOOT, "A1", target="B1", second="B2", split=("Rifle",), benny=True)
    assert action_from_json(action_to_json(shot), "x") == shot
    move = WwpdAction(WwpdKind.MOVE, "A2", to=(3.5, 4.0))
    assert action_to_json(move) == {"kind": "move", "unit": "A2", "to": [3.5, 4.0]}
    assert action_from_json(action_to_json(move), "x", WwpdAction) == move
    assert GameSetup.from_json(GameSetup("a", "b").to_json(), "x") == GameSetup("a", "b")


def test_a_keyed_battle_log_says_so_and_replays(tmp_path: Path, capsys: Any) -> None:
    """``battle --dice keyed --log``: the setup says ``dice: keyed`` and the file plays again
    to the same events (each activation's dice keyed as ``play_game`` keys them); a stream
    game's setup has no ``dice`` (its files read as before); a keyed game is another game."""
    args = ("gff/shooty-150", "gff/melee-150", "--seed", "4")
    keyed = _battle_log(tmp_path, *args, "--dice", "keyed")
    assert keyed["setup"]["dice"] == "keyed"
    assert engine.replay_stored(keyed, "game.json").state.log.events == keyed["events"]
    plain = _battle_log(tmp_path, *args)
    assert "dice" not in plain["setup"] and plain["events"] != keyed["events"]
    capsys.readouterr()
    assert main(["battle", *args, "--dice", "keyed", "--system", "wwpd"]) == 2
    assert "--dice: keyed dice follow OPR activations" in capsys.readouterr().err
