"""``oprlab serve`` through FastAPI's test client: the odds page against hand-computed odds, a
bad list shown as the command line's error line, replays that are the command line's games,
games played by a person through the API (every decision checked by the engine), and the
bounds on what a page may send."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oprlab.cli import main
from oprlab.game.play import play_game
from oprlab.players import get_commander
from oprlab.rng import commander_stream
from oprlab.samples import sample_text
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from oprlab.web import engine
from oprlab.web.app import MAX_BODY_BYTES, create_app

HEADER = "++ Test - Book (v1.0) [GFF {pts}pts] [1 Units] ++\n\n"
#: Two Q4+ shots, no special rules.
SHOOTERS = HEADER.format(pts=40) + 'Test Shooters [2] Q4+ D4+ | 40pts\n2x Rifle (24", A1)\n'
#: Five models at Defense 4+.
LINE = HEADER.format(pts=50) + "Test Line [5] Q4+ D4+ | 50pts\n5x Club (A1)\n"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app())


def _cells(html: str, chart: str) -> list[tuple[int, float, float]]:
    """(k, P(exactly k), P(at least k)) rows of one chart of the odds page."""
    table = html.split(f'id="chart-{chart}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr><td>(\d+)</td><td[^>]*><span[^>]*></span><span[^>]*>([\d.]+)</span></td>"
        r"<td[^>]*><span[^>]*></span><span[^>]*>([\d.]+)</span></td>",
        table,
    )
    return [(int(k), float(p), float(q)) for k, p, q in rows]


def test_odds_page_shows_hand_computed_wounds(client: TestClient) -> None:
    """seed 003 "Shooting": one quality test per attack (Q4+: 1/2), one Defense roll per hit
    (D4+ blocks 1/2): two rifles wound 0, 1, 2 times with 9/16, 6/16, 1/16."""
    r = client.get("/odds", params={"a_text": SHOOTERS, "d_text": LINE})
    assert r.status_code == 200
    wounds = _cells(r.text, "wounds")
    assert [k for k, _, _ in wounds] == [0, 1, 2]
    for (_, p, least), (want_p, want_least) in zip(
        wounds, [(9 / 16, 1.0), (6 / 16, 7 / 16), (1 / 16, 1 / 16)], strict=True
    ):
        assert p == pytest.approx(want_p, abs=5e-5)
        assert least == pytest.approx(want_least, abs=5e-5)
    assert "P(destroyed) = 0.0000" in r.text
    hits = _cells(r.text, "hits")
    assert [p for _, p, _ in hits] == pytest.approx([1 / 4, 1 / 2, 1 / 4], abs=5e-5)


def test_odds_page_compares_every_mechanic_and_the_json_agrees(client: TestClient) -> None:
    """The d6 and every clock variant side by side; the JSON has the same numbers."""
    params = {"a_text": SHOOTERS, "d_text": LINE}
    page = client.get("/odds", params=params).text
    table = page.split('id="compare"', 1)[1].split("</table>", 1)[0]
    for name in engine.odds_mechanics():
        assert f"<td>{name}</td>" in table
    data = client.get("/api/odds", params=params).json()
    assert data["wounds"]["mean"] == pytest.approx(0.5)
    assert [row["mechanic"] for row in data["compare"]] == engine.odds_mechanics()
    assert data["attacker"] == "Test Shooters"


def test_odds_default_page_uses_samples_and_units_by_name(client: TestClient) -> None:
    r = client.get("/odds", params={"attacker": "Mortar Drone", "defender": "Reaver Pack"})
    assert r.status_code == 200
    assert "Mortar Drone attacks Reaver Pack" in r.text
    assert "<option selected>Mortar Drone</option>" in r.text


def test_bad_list_shows_the_command_lines_error_line(client: TestClient, capsys: Any) -> None:
    """The page shows the line `oprlab army validate` ... prints for the same text."""
    r = client.get("/odds", params={"a_text": "junk"})
    assert r.status_code == 400
    shown = re.search(r'id="error">([^<]*)<', r.text)
    assert shown is not None
    assert shown.group(1).startswith("error: attacker list:1: no list header")
    api = client.get("/api/odds", params={"a_text": "junk"})
    assert api.status_code == 400
    assert api.json()["error"].startswith("error: attacker list:1: no list header")


def test_no_path_from_the_page_reaches_the_server(client: TestClient) -> None:
    """A list is a sample's name or text: a path is refused as an unknown sample."""
    for ref in ("/etc/passwd", "../../pyproject.toml", "gff/../gff/shooty-150"):
        r = client.get("/api/odds", params={"a": ref})
        assert r.status_code == 400
        assert "unknown sample" in r.json()["error"]


def test_bounded_input(client: TestClient) -> None:
    too_long = "x" * (engine.MAX_LIST_CHARS + 1)
    r = client.get("/api/odds", params={"a_text": too_long})
    assert r.status_code == 400 and "list too long" in r.json()["error"]
    r = client.post(
        "/api/games", content=b"{}", headers={"content-length": str(MAX_BODY_BYTES + 1)}
    )
    assert r.status_code == 413


def _setup(seed: int, table: str = "random") -> dict[str, Any]:
    return {
        "a": "gff/shooty-150",
        "b": "gff/melee-150",
        "seed": seed,
        "table": table,
        "ca": "rules",
        "cb": "random",
    }


def test_replay_is_the_command_lines_game(client: TestClient) -> None:
    """The same seed, lists, table and commanders play the game `oprlab battle` plays: the
    events the viewer keeps are the library's, step by step (one frame per decision)."""
    r = client.get("/replay/game", params=_setup(5))
    assert r.status_code == 200
    key = re.search(r'href="/api/games/([^"]+)"', r.text)
    assert key is not None
    stored = client.get(f"/api/games/{key.group(1)}").json()
    a, b = load_army("gff/shooty-150"), load_army("gff/melee-150")
    commanders = [
        get_commander("rules", commander_stream(5, 0)),
        get_commander("random", commander_stream(5, 1)),
    ]
    result, state = play_game(a, b, commanders, seed=5, table=generate_table(5))
    assert stored["events"] == state.log.events
    assert stored["result"]["winner"] == result.winner
    assert len(stored["actions"]) == result.decisions
    assert r.text.count('<template class="frame"') == result.decisions + 1
    shots = [e for e in stored["actions"] if e["kind"] == "shoot" and e.get("target")]
    assert shots and r.text.count('<line class="sight"') >= len(shots) > 0
    assert stored["setup"]["list_a"] == sample_text("gff/shooty-150.txt")


def test_a_stored_game_opens_as_the_same_game(client: TestClient) -> None:
    key = re.search(
        r'href="/api/games/([^"]+)"', client.get("/replay/game", params=_setup(3, "open")).text
    )
    assert key is not None
    stored = client.get(f"/api/games/{key.group(1)}").json()
    opened = client.post("/api/games", json=stored)
    assert opened.status_code == 200
    again = client.get(f"/api/games/{opened.json()['id']}").json()
    assert again["events"] == stored["events"]
    assert again["actions"] == stored["actions"]
    tampered = stored | {"actions": [{"kind": "advance", "unit": "nobody", "to": [1, 1]}]}
    bad = client.post("/api/games", json=tampered)
    assert bad.status_code == 400 and "not a legal decision" in bad.json()["error"]


def _new_game(client: TestClient, seed: int) -> str:
    r = client.get(
        "/play/new", params={"seed": seed, "table": "open", "vs": "random"}, follow_redirects=False
    )
    assert r.status_code == 303
    return str(r.headers["location"].rsplit("/", 1)[1])


def test_a_person_plays_a_game_to_the_end(client: TestClient) -> None:
    """The person always takes the first listed action; the computer answers; the game ends
    with a result and is then a replay like any other."""
    key = _new_game(client, 4)
    view = client.get(f"/api/play/{key}").json()
    moves = 0
    while not view["done"]:
        assert view["your_turn"] and view["actions"]
        r = client.post(
            f"/api/play/{key}", json={"step": view["step"], "action": view["actions"][0]["action"]}
        )
        assert r.status_code == 200, r.text
        view = r.json()
        moves += 1
    assert moves > 4 and view["result"]
    assert client.get(f"/replay/saved/{key}").status_code == 200
    stored = client.get(f"/api/games/{key}").json()
    assert stored["result"]["commanders"] == ["person", "random"]


def test_the_engine_refuses_what_the_page_should_not_send(client: TestClient) -> None:
    """An action no rule allows, a stale step, an unknown field: 400, the game unchanged."""
    key = _new_game(client, 6)
    view = client.get(f"/api/play/{key}").json()
    step = view["step"]
    cases = [
        {"step": step, "action": {"kind": "charge", "unit": "A1", "target": "B1"}},
        {"step": step - 1, "action": view["actions"][0]["action"]},
        {"step": step, "action": {"kind": "place_objective", "to": [-5, 999]}},
        {"step": step, "action": {"kind": "advance", "cheat": 1}},
        {"step": step, "action": {"kind": "advance", "to": "here"}},
    ]
    for body in cases:
        r = client.post(f"/api/play/{key}", json=body)
        assert r.status_code == 400, body
        assert r.json()["error"].startswith("error: ")
    assert client.get(f"/api/play/{key}").json()["step"] == step


def test_unknown_game_is_a_clear_404_page(client: TestClient) -> None:
    r = client.get("/play/nope")
    assert r.status_code == 404 and "no game with that id" in r.text
    assert client.get("/api/play/nope").status_code == 400


def test_serve_binds_this_machine_by_default() -> None:
    from oprlab.cli.serve import HOST

    assert HOST == "127.0.0.1"


def test_rule_options_from_the_form_reach_the_game(client: TestClient) -> None:
    """The form's empty option boxes are ignored; a reading is played and stored; a bad one
    is the command line's error line in the form."""
    params = _setup(3, "open") | {"option": ["", "edges=north-south"]}
    r = client.get("/replay/game", params=params)
    assert r.status_code == 200
    key = re.search(r'href="/api/games/([^"]+)"', r.text)
    assert key is not None
    stored = client.get(f"/api/games/{key.group(1)}").json()
    assert stored["setup"]["rule_options"] == ["edges=north-south"]
    assert stored["result"]["rule_options"]["edges"] == "north-south"
    bad = client.get("/replay/game", params=_setup(3, "open") | {"option": "edges=sideways"})
    assert bad.status_code == 400
    assert 'id="error">error: ' in bad.text


def test_keyed_dice_from_the_form_play_the_command_lines_keyed_game(client: TestClient) -> None:
    """The form's dice choice reaches the game: a keyed game is `play_game(..., dice="keyed")`'s
    game and its setup says so; the form offers keyed dice only where they apply, and a WWPD
    game asked to roll keyed is the command line's error line."""
    r = client.get("/replay/game", params=_setup(5) | {"dice": "keyed"})
    assert r.status_code == 200
    key = re.search(r'href="/api/games/([^"]+)"', r.text)
    assert key is not None
    stored = client.get(f"/api/games/{key.group(1)}").json()
    assert stored["setup"]["dice"] == "keyed"
    a, b = load_army("gff/shooty-150"), load_army("gff/melee-150")
    commanders = [
        get_commander("rules", commander_stream(5, 0)),
        get_commander("random", commander_stream(5, 1)),
    ]
    _, keyed = play_game(a, b, commanders, seed=5, table=generate_table(5), dice="keyed")
    assert stored["events"] == keyed.log.events
    stream = client.get("/api/games/" + _stored_key(client, _setup(5))).json()
    assert "dice" not in stream["setup"] and stream["events"] != keyed.log.events
    form = client.get("/replay").text
    keyed_option = re.search(r'<option data-systems="([^"]*)"[^>]*>keyed</option>', form)
    assert keyed_option is not None
    assert "gff" in keyed_option.group(1).split() and "wwpd" not in keyed_option.group(1).split()
    bad = client.get(
        "/replay/game",
        params=_setup(5)
        | {"a": "wwpd/colonial", "b": "wwpd/colonial", "system": "wwpd", "mechanic": "wwpd"}
        | {"dice": "keyed"},
    )
    assert bad.status_code == 400 and "keyed dice follow OPR activations" in bad.text


def _stored_key(client: TestClient, params: dict[str, Any]) -> str:
    key = re.search(r'href="/api/games/([^"]+)"', client.get("/replay/game", params=params).text)
    assert key is not None
    return key.group(1)


def test_two_people_take_turns_at_one_screen(client: TestClient) -> None:
    """Hot-seat: both sides are people; each decision waits for the page, whichever side."""
    r = client.get(
        "/play/new", params={"seed": 8, "table": "open", "side": "both"}, follow_redirects=False
    )
    key = r.headers["location"].rsplit("/", 1)[1]
    view = client.get(f"/api/play/{key}").json()
    assert view["person"] == "A and B"
    sides = set()
    for _ in range(6):
        assert view["your_turn"]
        sides.add(view["active"])
        view = client.post(
            f"/api/play/{key}", json={"step": view["step"], "action": view["actions"][0]["action"]}
        ).json()
    assert sides == {"A", "B"}


def test_a_point_no_list_names_is_the_engines_to_judge(client: TestClient) -> None:
    """A click on the table sends a move to any point: the engine (is_legal: "any point")
    takes a deployment a little off a listed spot, and refuses one off the table."""
    key = _new_game(client, 9)
    view = client.get(f"/api/play/{key}").json()
    while not any(a["action"]["kind"] == "deploy" for a in view["actions"]):
        view = client.post(
            f"/api/play/{key}", json={"step": view["step"], "action": view["actions"][0]["action"]}
        ).json()
    listed = next(a["action"] for a in view["actions"] if a["action"]["kind"] == "deploy")
    off = {"kind": "deploy", "unit": listed["unit"], "to": [listed["to"][0], -30.0]}
    assert (
        client.post(f"/api/play/{key}", json={"step": view["step"], "action": off}).status_code
        == 400
    )
    x, y = listed["to"]
    near = {"kind": "deploy", "unit": listed["unit"], "to": [x + 0.3, y]}
    r = client.post(f"/api/play/{key}", json={"step": view["step"], "action": near})
    assert r.status_code == 200, r.text
    assert r.json()["log"][view["step"] + 1]["title"].endswith(f"to ({x + 0.3:.1f}, {y:.1f})")


def test_serve_open_shows_a_saved_game(client: TestClient, tmp_path: Any) -> None:
    """`oprlab serve --open FILE` reads a saved game and shows it at /replay/saved/opened."""
    from oprlab.cli.serve import read_game

    page = client.get("/replay/game", params=_setup(3, "open")).text
    key = re.search(r'href="/api/games/([^"]+)"', page)
    assert key is not None
    saved = tmp_path / "game.json"
    saved.write_bytes(client.get(f"/api/games/{key.group(1)}").content)
    opened = TestClient(create_app(read_game(saved)))
    assert 'href="/replay/saved/opened"' in opened.get("/").text
    shown = opened.get("/replay/saved/opened")
    assert shown.status_code == 200
    assert shown.text.count('<template class="frame"') == page.count('<template class="frame"')


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--port", "70000"], "error: --port out of range (got 70000)"),
        (["--open", "no-such-file.json"], "error: "),
        (["--results", "no-such.duckdb"], "error: no results file here"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(args: list[str], expected: str, capsys: Any) -> None:
    assert main(["serve", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(expected) and "\n" not in err
