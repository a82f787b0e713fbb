"""The pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright): paste
two lists and see the odds; open a replay, step to a later step and see the board and the
highlighted log line change; play a short game to the end against the random commander by
clicking; see the lab's experiments, a running one's progress and a report. Each page is
saved as a screenshot in the test's tmp dir (and in ``$OPRLAB_WEB_SHOTS`` when set: how
docs/web/ is made). Skipped, saying why, where Chromium is not installed."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oprlab.analysis.lab import progress_file
from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import parse_experiment
from oprlab.analysis.lab.progress_file import ProgressFile
from oprlab.analysis.lab.run import run_experiment
from oprlab.analysis.lab.store import LabStore
from oprlab.web.app import create_app
from tests.web.test_api import LINE, SHOOTERS

CHROMIUM = Path(os.environ.get("OPRLAB_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():
    pytest.skip(
        f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)",
        allow_module_level=True,
    )
playwright = pytest.importorskip("playwright.sync_api", reason="browser tests need playwright")


LAB = """
name = "clock or dice at 150 points"
question = "Does the clock move army A's score?"
seed = 5
[[matchups]]
a = "gff/elite-150"
b = "gff/melee-150"
[factors]
mechanic = ["d6", "clock"]
commanders = ["random"]
[stop]
seeds = 2
"""


@pytest.fixture(scope="module")
def lab_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lab file of a finished experiment (2 cells x 2 seeds x 2 seats: 8 quick games)."""
    d = tmp_path_factory.mktemp("experiments")
    exp = parse_experiment(LAB)
    run_experiment(exp, build_cells(exp), d / "lab.duckdb")
    return d


@pytest.fixture(scope="module")
def server(lab_dir: Path) -> Iterator[str]:
    """The app under uvicorn in a thread, on 127.0.0.1 and a free port."""
    import uvicorn

    app = create_app(experiments_dir=lab_dir)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the server did not start")
        time.sleep(0.05)
    port = srv.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    yield pg
    context.close()


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)
    docs = os.environ.get("OPRLAB_WEB_SHOTS")
    if docs:
        page.screenshot(path=str(Path(docs) / f"{name}.png"), full_page=False)
    assert (tmp_path / f"{name}.png").stat().st_size > 1000


def test_paste_two_lists_and_see_the_odds(server: str, page: Any, tmp_path: Path) -> None:
    """seed 003 "Shooting": two Q4+ rifles against Defense 4+ wound twice with 1/16 and at
    least once with 7/16 (hand-computed, as in test_api)."""
    page.goto(server + "/odds")
    page.wait_for_selector("#p-destroyed")  # the samples' odds come first
    page.fill("#a_text", SHOOTERS)
    page.dispatch_event("#a_text", "change")
    page.fill("#d_text", LINE)
    page.dispatch_event("#d_text", "change")
    page.click("#go")
    page.wait_for_selector("text=Test Shooters attacks Test Line")
    wounds = page.inner_text("#chart-wounds")
    assert "0.5625" in wounds and "0.4375" in wounds and "0.0625" in wounds
    assert "a_text=" in page.url  # the query is in the address: shareable
    assert page.locator("#compare tr").count() == 1 + 7
    _shot(page, tmp_path, "odds")
    page.fill("#a_text", "not a list")
    page.click("#go")
    assert page.inner_text("#error").startswith("error: attacker list:1: no list header")


def test_open_a_replay_and_step_through_it(server: str, page: Any, tmp_path: Path) -> None:
    page.goto(server + "/replay")
    page.select_option("#cb", "random")
    page.fill("#seed", "7")
    page.click("#go")
    page.wait_for_selector("#board svg")
    assert page.get_attribute("#log li.current", "data-step") == "0"
    first = page.inner_html("#board")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    # the last key's step reaches the address a frame after the press: wait for it (5 s at most)
    page.wait_for_function("location.hash === '#step=12'", timeout=5000)
    assert page.url.endswith("#step=12")
    assert page.get_attribute("#log li.current", "data-step") == "12"
    assert page.inner_html("#board") != first
    assert page.input_value("#scrubber") == "12"
    _shot(page, tmp_path, "replay")
    # A link to a step opens the viewer at that step.
    page.goto(page.url.replace("#step=12", "#step=20"))
    page.reload()
    page.wait_for_selector("#log li.current")
    assert page.get_attribute("#log li.current", "data-step") == "20"
    page.click("#back")
    assert page.get_attribute("#log li.current", "data-step") == "19"
    # A step with a check shows its outcome on the table, as its account line says.
    frames = page.locator("template.frame")
    checked = next(
        i for i in range(frames.count()) if 'class="check"' in frames.nth(i).inner_html()
    )
    page.goto(page.url.split("#")[0] + f"#step={checked}")
    page.wait_for_selector("#board g.check")
    assert page.locator("#board g.check").first.is_visible()
    label = page.locator("#board g.check text").first.text_content() or ""
    _shot(page, tmp_path, "replay-check")
    if "dice:" in label:  # a shot: its hits, wounds and losses as the account line says
        told = label.split(": ", 1)[1].replace(", 0 saved", "")
        assert told in page.inner_text("#log li.current")


def test_the_dice_offered_follow_the_system(server: str, page: Any) -> None:
    """Keyed dice follow OPR activations: the form offers them for GFF, takes them back (to the
    stream) when WWPD is picked, and a keyed GFF game plays."""
    page.goto(server + "/replay")
    page.select_option("#dice", "keyed")
    page.select_option("#system", "wwpd")
    assert page.input_value("#dice") == "stream"
    assert page.locator("#dice option", has_text="keyed").is_disabled()
    page.select_option("#system", "gff")
    page.select_option("#dice", "keyed")
    page.select_option("#cb", "random")
    page.click("#go")
    page.wait_for_selector("#board svg")
    assert page.get_attribute("#log li.current", "data-step") == "0"


def test_play_a_short_game_to_the_end_by_clicking(server: str, page: Any, tmp_path: Path) -> None:
    """Each of the person's decisions: click a unit (or the table), then its first action; a
    unit that may move shows its reach when clicked."""
    page.goto(server + "/play")
    page.select_option("#vs", "random")
    page.select_option("#table", "open")
    page.fill("#seed", "4")
    page.click("#go")
    page.wait_for_selector('#play[data-busy="0"]')
    clicks = 0
    shot = free = reached = False
    while not page.locator("#game-over").count():
        assert clicks < 300, "the game did not end"
        page.locator("#choose-unit button").first.click()
        reached = reached or _reach_drawn(page)
        if not shot and "Round 1" in page.inner_text("#status"):
            _shot(page, tmp_path, "play")
            shot = True
        if not free and page.locator("#free-kind").count():
            free = _click_beside_a_goal(page)  # a free click on the table, checked by the engine
        else:
            page.locator("#choose-action button").first.click()
        page.wait_for_selector('#play[data-busy="0"]')
        assert not page.locator("#error").count(), page.inner_text("#error")
        clicks += 1
    assert reached, "no unit's reach was drawn when it was clicked"
    assert "Game over:" in page.inner_text("#game-over")
    _shot(page, tmp_path, "play-over")
    page.click("#to-replay")
    page.wait_for_selector("#board svg")
    assert page.locator("template.frame").count() == clicks + 1 + _computer_steps(page)


def test_experiments_list_progress_and_report(
    server: str, page: Any, lab_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lab's experiments with their status; a running one's progress, updated by the
    page's poll; an experiment's report in the page."""
    monkeypatch.setattr(progress_file, "EVERY", 0.0)
    running = lab_dir / "running.duckdb"
    with (
        LabStore(running),  # a run's writer: DuckDB lets no one else open the file
        ProgressFile(running, "0123456789abcdef", "a longer run", most=400) as progress,
    ):
        progress.update(40, 200)
        page.goto(server + "/experiments")
        row = page.locator("tr.lab-row", has_text="a longer run")
        assert "running" in row.inner_text() and "40 of 200 planned so far" in row.inner_text()
        progress.update(120, 200)
        page.wait_for_function(
            "document.querySelector('tr.lab-row[data-state=running] .done').textContent === '120'"
        )
        assert "games/s" in row.inner_text()
        done = page.locator("tr.lab-row", has_text="clock or dice")
        assert "8 of 8" in done.inner_text() and "finished" in done.inner_text()
        _shot(page, tmp_path, "experiments")
    running.unlink()
    for left in lab_dir.glob("running.duckdb*"):
        left.unlink()
    page.goto(server + "/experiments")  # the run is gone: the list is the lab file's only
    page.click("text=clock or dice at 150 points")
    report = page.frame_locator("#report")
    report.locator("h1").wait_for(timeout=120_000)
    assert report.locator("h1").inner_text() == "clock or dice at 150 points"
    assert report.locator("img").count() >= 1  # the report's plots
    page.wait_for_timeout(500)
    _shot(page, tmp_path, "experiment-report")


def test_reach_on_a_table_with_terrain(server: str, page: Any, tmp_path: Path) -> None:
    """On a generated table a clicked unit's reach leaves out what difficult terrain takes
    (6\" at most through it) and impassable terrain (tests/web/test_play_hints.py checks the
    areas); here: drawn in the page, with its legend."""
    page.goto(server + "/play")
    page.select_option("#vs", "random")
    page.select_option("#table", "random")
    page.fill("#seed", "3")
    page.click("#go")
    page.wait_for_selector('#play[data-busy="0"]')
    for _ in range(40):
        if "Round 1" in page.inner_text("#status"):
            break
        page.locator("#choose-unit button").first.click()
        page.locator("#choose-action button").first.click()
        page.wait_for_selector('#play[data-busy="0"]')
    page.locator("#choose-unit button", has_text="A2").click()
    assert page.locator("#board path.reach-rush").count() == 1
    assert page.locator("#reach-legend").is_visible()
    _shot(page, tmp_path, "play-terrain")


def _reach_drawn(page: Any) -> bool:
    """A clicked unit that may advance shows its advance reach (and the legend) on the table."""
    labels = page.locator("#choose-action button").all_inner_texts()
    if not any(label.startswith("advance ") for label in labels):
        return False
    assert page.locator("#board path.reach-advance").count() == 1
    assert page.locator("#reach-legend").is_visible()
    return True


def _click_beside_a_goal(page: Any) -> bool:
    """Click the table right of the first drawn goal (about 1" from its centre, off the
    dot), and see the unit go there rather than to the goal."""
    goal = page.locator("#board circle.goal").first
    offered = goal.locator("title").text_content() or ""
    box = goal.bounding_box()
    step = int(page.get_attribute("#play", "data-step"))
    page.mouse.click(box["x"] + box["width"] * 1.5, box["y"] + box["height"] / 2)
    page.wait_for_function(f"document.querySelector('#play').dataset.step !== '{step}'")
    taken = page.locator("#log li").nth(step + 1).locator("b").inner_text()
    assert taken.split(" to (")[0].endswith(offered.split(" to (")[0])
    assert not taken.endswith(offered), (taken, offered)
    return True


def _computer_steps(page: Any) -> int:
    """The replay's frames less the person's: the titles that start with the other side."""
    titles = page.locator("#log a.step-title").all_inner_texts()
    return sum(t.startswith("B:") for t in titles)
