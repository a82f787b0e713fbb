"""Generated army files (text and JSON) and terrain files against the command line (issue 11):
no traceback, no hang (every call under a time bound), and ``army validate`` and ``battle``
agree on what is playable.

The lists are built from parts that straddle every limit (sizes 0 to 10^9, Q0 to Q9, A0 to
A10^6, Tough, Deadly and Blast from 0 past their limits, unknown rules, control characters in
names) and are sometimes cut or spliced into garbage. ``battle`` is run up to the start of the
game: the game itself is replaced by a stand-in that runs the procedure's start-of-game checks
(``new_game``) and stops, so that a hundred lists cost seconds, not a hundred games.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import oprlab.cli.battle as battle_cli
from oprlab.cli import app
from oprlab.game.systems import find_system

#: Seconds any one command may take.
BOUND = 20
runner = CliRunner(env={"COLUMNS": "80"})
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    # a loaded machine makes generation look slow; the work is bounded by the examples' count
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

_NAMES = st.sampled_from(
    ["Rifle Squad", "Ünïcødé ✓", "Esc\x1b[2J", "a" * 300, "Bell\x07", "x", "Mixed (Name)"]
)
_SIZES = st.sampled_from([0, 1, 3, 5, 20, 100, 101, 10**9])
_STATS = st.integers(0, 9)
_ATTACKS = st.sampled_from([0, 1, 2, 4, 100, 101, 10**6])
_COUNTS = st.sampled_from([1, 2, 5, 20, 50, 401])
_RATED = st.sampled_from(["Tough", "Deadly", "Blast", "AP", "Impact", "Regeneration", "Foo"])
_RATINGS = st.sampled_from([None, 0, 1, 3, 6, 20, 21, 100, 301, 10**6])


@st.composite
def _rules(draw: st.DrawFn) -> list[tuple[str, int | None]]:
    rules = draw(st.lists(st.tuples(_RATED, _RATINGS), max_size=3))
    if draw(st.booleans()):
        rules.append(("Hero", None))
    return rules


@st.composite
def _units(draw: st.DrawFn) -> list[dict[str, Any]]:
    units = []
    for _ in range(draw(st.integers(0, 3))):
        weapons = [
            {
                "name": draw(st.sampled_from(["Rifle", "Claw", "Gun ✓"])),
                "attacks": draw(_ATTACKS),
                "range": draw(st.sampled_from([None, 12, 24])),
                "count": draw(_COUNTS),
                "rules": draw(st.lists(st.tuples(_RATED, _RATINGS), max_size=2)),
            }
            for _ in range(draw(st.integers(0, 2)))
        ]
        units.append(
            {
                "name": draw(_NAMES),
                "size": draw(_SIZES),
                "quality": draw(_STATS),
                "defense": draw(_STATS),
                "cost": draw(st.sampled_from([0, 10, 50, -5])),
                "rules": draw(_rules()),
                "weapons": weapons,
            }
        )
    return units


def _label(name: str, rating: int | None) -> str:
    return name if rating is None else f"{name}({rating})"


def _as_text(units: list[dict[str, Any]]) -> str:
    lines = ["++ Generated [GFF 300pts] ++", ""]
    for u in units:
        rules = ", ".join(_label(*r) for r in u["rules"])
        lines.append(
            f"{u['name']} [{u['size']}] Q{u['quality']}+ D{u['defense']}+ | {u['cost']}pts"
            + (f" | {rules}" if rules else "")
        )
        weapons = []
        for w in u["weapons"]:
            parts = ([f'{w["range"]}"'] if w["range"] else []) + [f"A{w['attacks']}"]
            parts += [_label(*r) for r in w["rules"]]
            weapons.append(f"{w['count']}x {w['name']} ({', '.join(parts)})")
        if weapons:
            lines.append(", ".join(weapons))
        lines.append("")
    return "\n".join(lines)


def _as_json(units: list[dict[str, Any]]) -> str:
    def rules(rs: list[tuple[str, int | None]]) -> list[dict[str, Any]]:
        return [{"name": n, "rating": r} for n, r in rs]

    return json.dumps(
        {
            "name": "Generated",
            "gameSystem": "gff",
            "pointsLimit": 300,
            "units": [
                {
                    **{k: u[k] for k in ("name", "size", "quality", "defense", "cost")},
                    "rules": rules(u["rules"]),
                    "weapons": [
                        {
                            **{k: w[k] for k in ("name", "attacks", "count")},
                            "range": w["range"] or 0,
                            "specialRules": rules(w["rules"]),
                        }
                        for w in u["weapons"]
                    ],
                }
                for u in units
            ],
        }
    )


@st.composite
def army_files(draw: st.DrawFn) -> tuple[str, str]:
    """(file name, content): a generated list as text or JSON, sometimes damaged."""
    units = draw(_units())
    as_json = draw(st.booleans())
    text = _as_json(units) if as_json else _as_text(units)
    damage = draw(st.sampled_from(["none", "none", "none", "cut", "splice"]))
    if damage == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "splice":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=20)) + text[at:]
    return ("army.json" if as_json else "army.txt"), text


_NUMBERS = st.sampled_from([-1, 0, 0.5, 6, 12, 48, 72, 73, 10**9, "x", None])


@st.composite
def terrain_files(draw: st.DrawFn) -> str:
    """A terrain file: sizes, pieces and markers that straddle the limits and the format."""
    data: dict[str, Any] = {}
    for key in ("width", "depth", "deployment_depth"):
        if draw(st.booleans()):
            data[key] = draw(_NUMBERS)
    pieces = []
    for _ in range(draw(st.sampled_from([0, 1, 3, 201]))):
        x, y = draw(st.integers(-5, 70)), draw(st.integers(-5, 70))
        corners = draw(st.sampled_from([3, 4, 201]))
        pieces.append(
            {
                "preset": draw(st.sampled_from(["ruins", "forest", "lake", "swamp"])),
                "outline": [
                    [x + (i % 2) * 3, y + (i // 2) % 2 * 3 + i * 0.001] for i in range(corners)
                ],
            }
        )
    if pieces:
        data["pieces"] = pieces
    if draw(st.booleans()):
        data["objectives"] = [[24, 24]] * draw(st.sampled_from([1, 3, 21]))
    text = json.dumps(data)
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


@contextmanager
def time_bound(seconds: int) -> Iterator[None]:
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class Started(Exception):
    """Raised by the stand-in game once the game has passed its start-of-game checks."""


def _start_only(army_a: Any, army_b: Any, commanders: Any, **kw: Any) -> Any:
    rules = kw["system"]
    (find_system(rules) if isinstance(rules, str) else rules).new_game(
        army_a, army_b, seed=kw["seed"], mechanic=kw["mechanic"], table=kw["table"],
        log=False, readings=kw["options"],
    )  # fmt: skip
    raise Started


def _invoke(args: list[str]) -> Any:
    with time_bound(BOUND):
        result = runner.invoke(app, args)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit | Started), (args[:2], repr(exc))
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), lines[:3]
    return result


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path


@SETTINGS
@given(army_files())
def test_validate_and_battle_agree_on_generated_lists(folder: Path, file: tuple[str, str]) -> None:
    name, text = file
    path = folder / name
    path.write_text(text, encoding="utf-8")
    checked = _invoke(["army", "validate", str(path), "--no-force-org", "--json"])
    shown = _invoke(["army", "show", str(path)])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(battle_cli, "play_game", _start_only)
        played = _invoke(["battle", str(path), "gff/melee-150", "--seed", "1"])
    if checked.exit_code == 2:  # the file cannot be read: every command says so, alike
        assert shown.exit_code == 2 and played.exit_code == 2
        assert played.stderr == checked.stderr
        return
    assert shown.exit_code == 0
    problems = json.loads(checked.stdout)["problems"]
    playable = not any(p["level"] == "error" for p in problems)
    if playable:
        # The list passed validation: battle plays it, or refuses only for the table (a unit
        # wider than its deployment zone), which a list alone cannot know.
        refused = played.exit_code == 2
        assert isinstance(played.exception, Started) or (
            refused and "cannot deploy" in played.stderr
        ), played.stderr
    else:
        assert played.exit_code == 2 and "battle cannot use this list" in played.stderr


@SETTINGS
@given(terrain_files())
def test_terrain_files_are_read_alike_by_table_show_and_battle(folder: Path, text: str) -> None:
    path = folder / "table.json"
    path.write_text(text, encoding="utf-8")
    shown = _invoke(["table", "show", str(path)])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(battle_cli, "play_game", _start_only)
        played = _invoke(["battle", "gff/shooty-150", "gff/melee-150", "--table", str(path)])
    if shown.exit_code == 0:
        assert isinstance(played.exception, Started) or "cannot deploy" in played.stderr
    else:
        assert shown.exit_code == 2 and played.exit_code == 2
