"""Every rule system find_system knows is in the pages (house rules included: the list comes
from game.systems, not a fixed one), and WWPD games are watched and played like the others
(seed 004 forces, its own dice), through the same play path as ``oprlab battle``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oprlab.cli import main
from oprlab.game.systems import find_system, system_names
from oprlab.web.app import create_app

WWPD = {
    "a": "wwpd/colonial",
    "b": "wwpd/colonial",
    "system": "wwpd",
    "mechanic": "wwpd",
    "table": "random",
    "seed": 5,
    "ca": "rules",
    "cb": "rules",
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


@pytest.mark.parametrize("page", ["/replay", "/play"])
def test_the_forms_offer_every_system_and_its_own_mechanics(client: TestClient, page: str) -> None:
    html = client.get(page).text
    picker = html.split('id="system"', 1)[1].split("</select>", 1)[0]
    assert re.findall(r">([\w+-]+)</option>", picker) == system_names()
    for name in system_names():
        assert f'data-format="{find_system(name).army_format}"' in picker
    mechanic = html.split('id="mechanic"', 1)[1].split("</select>", 1)[0]
    assert 'data-systems="wwpd">wwpd</option>' in mechanic
    assert 'value="wwpd/colonial" data-format="wwpd"' in html


def test_a_wwpd_replay_is_the_command_lines_game(
    client: TestClient, tmp_path: Path, capsys: Any
) -> None:
    """The page's WWPD game and `oprlab battle --system wwpd` with the same choices have the
    same events; the account is WWPD's (seed 004: dice, hits, wounds, saves)."""
    r = client.get("/replay/game", params=WWPD)
    assert r.status_code == 200, r.text[:300]
    assert "dice:" in r.text and "saved" in r.text
    key = re.search(r'href="/api/games/([^"]+)"', r.text)
    assert key is not None
    stored = client.get(f"/api/games/{key.group(1)}").json()
    log = tmp_path / "game.json"
    args = ["battle", "wwpd/colonial", "wwpd/colonial", "--system", "wwpd", "--seed", "5"]
    assert main([*args, "--table", "random", "--log", str(log)]) == 0
    capsys.readouterr()
    cli = json.loads(log.read_text())
    assert stored["events"] == cli["events"]
    assert stored["actions"] == cli["actions"]


def test_a_person_plays_a_wwpd_game_to_the_end(client: TestClient) -> None:
    """Each decision posted as the page would (the first offered); the server checks it."""
    params = WWPD | {"side": "A", "vs": "random", "table": "open", "seed": 2}
    r = client.get("/play/new", params=params, follow_redirects=False)
    assert r.status_code == 303, r.text[:300]
    key = r.headers["location"].rsplit("/", 1)[1]
    view = client.get(f"/api/play/{key}").json()
    for _ in range(400):
        if view["done"]:
            break
        assert view["your_turn"] and view["actions"]
        move = {"step": view["step"], "action": view["actions"][0]["action"]}
        r = client.post(f"/api/play/{key}", json=move)
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["done"] and view["result"]
    bad = client.post(f"/api/play/{key}", json={"step": 0, "action": {"kind": "cower"}})
    assert bad.status_code == 400


def test_a_list_of_another_format_is_one_line(client: TestClient) -> None:
    r = client.get("/replay/game", params=WWPD | {"a": "gff/shooty-150"})
    assert r.status_code == 400
    assert "not a sample for these rules" in r.text
    r = client.get("/replay/game", params=WWPD | {"mechanic": "d6"})
    assert r.status_code == 400
    assert "not a mechanic for wwpd games" in r.text
