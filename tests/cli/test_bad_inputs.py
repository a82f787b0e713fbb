"""Bad input, by class: every case ends in exactly one line ``error: ...`` on stderr and exit
code 2, within a time bound, with no traceback and no file written in part (issue 11).

The classes: output files that cannot be written (checked before any work), work over the
documented limits (docs/limits.md), JSON nested too deeply, lists that cannot be played
(validated before a game or an odds query), values too long to echo, and usage mistakes.
Each case drives the real command line (``oprlab.cli.app`` through typer's CliRunner); a few
console cases run ``python -m oprlab`` in a subprocess (encodings, a closed pipe).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner

from oprlab.cli import app
from oprlab.limits import MAX_FILE_BYTES, MAX_LINE_CHARS

#: Seconds one bad input may take (all are refused before any real work; the bound is loose
#: because the test machine is shared).
BOUND = 20

runner = CliRunner(env={"COLUMNS": "80"})

HEADER = "++ Bad Lists [GFF 300pts] ++\n\n"
GOOD_UNIT = 'Rifle Squad [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1), 5x Knife (A1)\n'


def _text(*units: str) -> str:
    return HEADER + "\n".join(units)


def _unit_json(**change: object) -> dict[str, object]:
    unit: dict[str, object] = {
        "name": "Rifle Squad",
        "size": 5,
        "quality": 4,
        "defense": 4,
        "cost": 50,
        "weapons": [{"name": "Rifle", "attacks": 1, "range": 24, "count": 5}],
    }
    return unit | change


def _list_json(*units: dict[str, object]) -> str:
    return json.dumps(
        {"name": "Bad JSON", "gameSystem": "gff", "pointsLimit": 300, "units": list(units)}
    )


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


#: Input files, by name: the bad inputs the cases read.
FILES: dict[str, str] = {
    "good.txt": _text(GOOD_UNIT),
    "huge-unit.txt": _text('Swarm [1000000000] Q4+ D4+ | 50pts\n5x Rifle (24", A1)\n'),
    "a10000.txt": _text('Gunline [5] Q4+ D4+ | 50pts\n5x Rifle (24", A10000)\n'),
    "a1000000.txt": _text('Gunline [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1000000)\n'),
    "deadly.txt": _text('Gunline [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1, Deadly(1000000))\n'),
    "blast.txt": _text('Gunline [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1, Blast(1000))\n'),
    "tough.txt": _text("Big [100] Q4+ D4+ | 50pts | Tough(100)\n100x Claw (A1)\n"),
    "dice.txt": _text('Gunline [20] Q4+ D4+ | 50pts\n80x Rifle (24", A100)\n'),
    "copies.txt": _text("1000000x " + GOOD_UNIT),
    "q7.txt": _text(GOOD_UNIT.replace("Q4+", "Q7+")),
    "q0.txt": _text(GOOD_UNIT.replace("Q4+", "Q0+")),
    "q1.txt": _text(GOOD_UNIT.replace("Q4+", "Q1+")),
    "tough0.txt": _text('Hero [1] Q4+ D4+ | 50pts | Hero, Tough(0)\nPistol (12", A1)\n'),
    "fifty.txt": _text('Rifle Squad [5] Q4+ D4+ | 50pts\n50x Rifle (24", A1)\n'),
    "a0.txt": _text(GOOD_UNIT.replace("A1), 5x Knife", "A0), 5x Knife")),
    "a0.json": _list_json(
        _unit_json(
            weapons=[
                {"name": "Rifle", "attacks": 0, "range": 24, "count": 5},
                {"name": "Knife", "attacks": 1, "count": 5},
            ]
        )
    ),
    "q7.json": _list_json(_unit_json(quality=7)),
    "q0.json": _list_json(_unit_json(quality=0)),
    "q1.json": _list_json(_unit_json(quality=1)),
    "huge-unit.json": _list_json(_unit_json(size=10**9)),
    "fifty.json": _list_json(
        _unit_json(weapons=[{"name": "Rifle", "attacks": 1, "range": 24, "count": 50}])
    ),
    "deep.json": _deep(100_000),
    "deep-units.json": '{"units": ' + _deep(5_000) + "}",
    "long-line.txt": _text("Squad " + "x" * (MAX_LINE_CHARS + 1) + " [5] Q4+ D4+ | 5pts\n"),
    "long-name.json": _list_json(_unit_json(name="N" * 5_000_000, quality=9)),
    "not-utf8.txt": "",  # written as bytes below
    "empty.txt": "",
    "wide-table.json": json.dumps({"width": 10**9, "depth": 48}),
    "many-pieces.json": json.dumps(
        {"pieces": [{"preset": "ruins", "outline": [[1, 1], [2, 1], [2, 2]]}] * 1000}
    ),
    "many-corners.json": json.dumps(
        {"pieces": [{"preset": "ruins", "outline": [[1 + i / 1000, 1] for i in range(1000)]}]}
    ),
    "deep-table.json": '{"pieces": ' + _deep(100_000) + "}",
    "deep-force.yaml": "name: x\nunits: " + _deep(100_000) + "\n",
    "deep-force.json": '{"name": "x", "units": ' + _deep(100_000) + "}",
    "huge-force.yaml": (
        "name: Horde\nunits:\n  - name: Mob\n    models:\n      - name: Grunt\n"
        "        count: 1000000000\n        ranged_skill: 2\n        melee_skill: 2\n"
        "        leadership: 4\n"
    ),
}

#: Bad inputs: (case id, arguments, a fragment of the one error line). ``{in}`` is the folder
#: of FILES, ``{out}`` a fresh empty folder for the case's outputs.
CASES: list[tuple[str, list[str], str]] = [
    # -- outputs, checked before any work (defect 2)
    (
        "log-missing-folder",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--log", "{out}/no/such/log.json"],
        "--log: no such folder",
    ),
    (
        "log-is-directory",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--log", "{out}"],
        "--log: is a directory",
    ),
    (
        "log-name-too-long",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--log", "{out}/" + "l" * 300 + ".json"],
        "file name too long",
    ),
    (
        "log-device",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--log", "/dev/full"],
        "--log: not a regular file",
    ),
    (
        "svg-missing-folder",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--svg", "{out}/no/b.svg"],
        "--svg: no such folder",
    ),
    (
        "svg-is-directory",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--svg", "{out}"],
        "--svg: is a directory",
    ),
    (
        "svg-rounds-directory",
        [
            "battle",
            "{in}/good.txt",
            "{in}/good.txt",
            "--svg",
            "{out}/round-dir/b.svg",
            "--svg-rounds",
        ],
        "--svg-rounds",
    ),
    (
        "out-is-directory",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--games", "2", "--out", "{out}"],
        "--out: is a directory",
    ),
    (
        "out-missing-folder",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--out", "{out}/no/r.duckdb"],
        "--out: no such folder",
    ),
    (
        "table-svg-missing-folder",
        ["table", "show", "--seed", "1", "--svg", "{out}/no/t.svg"],
        "--svg: no such folder",
    ),
    (
        "table-save-directory",
        ["table", "show", "--seed", "1", "--save", "{out}"],
        "--save: is a directory",
    ),
    (
        "parquet-missing-folder",
        ["results", "export", "{in}/results.duckdb", "--parquet", "{out}/no/g.parquet"],
        "--parquet: no such folder",
    ),
    (
        "parquet-is-directory",
        ["results", "export", "{in}/results.duckdb", "--parquet", "{out}"],
        "--parquet: is a directory",
    ),
    (
        "plot-missing-folder",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--plot", "{out}/no/p.png"],
        "--plot: no such folder",
    ),
    (
        "plot-is-directory",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--plot", "{out}/dir.png"],
        "--plot: is a directory",
    ),
    (
        "wwpd-log-missing-folder",
        [
            "battle",
            "wwpd/colonial",
            "wwpd/colonial",
            "--system",
            "wwpd",
            "--log",
            "{out}/no/w.json",
        ],
        "--log: no such folder",
    ),
    # -- limits on the work (defect 3)
    (
        "unit-of-a-billion",
        ["battle", "{in}/huge-unit.txt", "{in}/good.txt"],
        "size 1000000000 is over the limit of 100",
    ),
    (
        "json-unit-of-a-billion",
        ["battle", "{in}/huge-unit.json", "{in}/good.txt"],
        "size 1000000000 is over the limit of 100",
    ),
    (
        "odds-a10000",
        ["odds", "{in}/a10000.txt", "{in}/good.txt"],
        "attacks A10000 is over the limit of A100",
    ),
    (
        "odds-a1000000",
        ["odds", "{in}/a1000000.txt", "{in}/good.txt"],
        "attacks A1000000 is over the limit",
    ),
    (
        "odds-deadly-million",
        ["odds", "{in}/deadly.txt", "{in}/good.txt"],
        "the rating 1000000 is over the limit of 20",
    ),
    (
        "odds-blast-1000",
        ["odds", "{in}/blast.txt", "{in}/good.txt"],
        "the rating 1000 is over the limit of 20",
    ),
    (
        "odds-too-many-wounds",
        ["odds", "{in}/good.txt", "{in}/tough.txt"],
        "wounds (100 models x Tough(100)): 10000 is over the limit of 300",
    ),
    (
        "odds-too-many-dice",
        ["odds", "{in}/dice.txt", "{in}/good.txt"],
        "attack dice (count x attacks x Blast, plus Impact): 8000 is over the limit of 1000",
    ),
    ("efficiency-a10000", ["efficiency", "{in}/a10000.txt"], "is over the limit of A100"),
    (
        "compare-a10000",
        ["compare-mechanics", "{in}/a10000.txt", "{in}/good.txt"],
        "is over the limit of A100",
    ),
    ("million-copies", ["army", "show", "{in}/copies.txt"], "units in the list is over the limit"),
    (
        "games-ten-million",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--games", "10000000"],
        "--games is over the limit (got 10000000); expected at most 1,000,000",
    ),
    (
        "jobs-negative",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--games", "2", "--jobs", "-1"],
        "--jobs out of range",
    ),
    (
        "samples-billion",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--samples", "1000000000"],
        "--samples is over the limit",
    ),
    (
        "table-billion-inches",
        ["table", "show", "{in}/wide-table.json"],
        "table width in inches is over the limit",
    ),
    (
        "battle-table-billion-inches",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--table", "{in}/wide-table.json"],
        "over the limit",
    ),
    (
        "table-1000-pieces",
        ["table", "show", "{in}/many-pieces.json"],
        "terrain pieces is over the limit",
    ),
    (
        "table-1000-corners",
        ["table", "show", "{in}/many-corners.json"],
        "outline corners is over the limit",
    ),
    ("file-over-size", ["army", "show", "{in}/big.txt"], "army file is over the size limit"),
    ("dev-zero", ["army", "show", "/dev/zero"], "over the size limit"),
    (
        "line-over-limit",
        ["army", "show", "{in}/long-line.txt"],
        "characters on one line is over the limit",
    ),
    (
        "wwpd-billion-models",
        ["battle", "{in}/huge-force.yaml", "wwpd/colonial", "--system", "wwpd"],
        "count",
    ),
    ("pieces-option", ["table", "show", "--pieces", "1000"], "--pieces"),
    # -- JSON nested too deeply (defect 4)
    ("deep-army-json", ["army", "show", "{in}/deep.json"], "nested too deeply"),
    ("deep-army-json-validate", ["army", "validate", "{in}/deep-units.json"], "nested too deeply"),
    ("deep-army-odds", ["odds", "{in}/deep.json", "{in}/good.txt"], "nested too deeply"),
    ("deep-table-json", ["table", "show", "{in}/deep-table.json"], "nested too deeply"),
    (
        "deep-battle-table",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--table", "{in}/deep-table.json"],
        "nested too deeply",
    ),
    (
        "deep-wwpd-yaml",
        ["battle", "{in}/deep-force.yaml", "wwpd/colonial", "--system", "wwpd"],
        "nested too deeply",
    ),
    (
        "deep-wwpd-json",
        ["battle", "{in}/deep-force.json", "wwpd/colonial", "--system", "wwpd"],
        "nested too deeply",
    ),
    # -- battle validates its armies first (defect 5)
    (
        "battle-q7",
        ["battle", "{in}/q7.txt", "{in}/good.txt"],
        "quality 7 is out of range; expected 2 to 6",
    ),
    (
        "battle-tough0",
        ["battle", "{in}/tough0.txt", "{in}/good.txt"],
        "the rating of Tough must be at least 1",
    ),
    ("battle-both-bad", ["battle", "{in}/q7.txt", "{in}/q0.json"], "army B units[0]"),
    (
        "battle-dq-mechanic",
        [
            "battle",
            "{in}/good.txt",
            "{in}/good.txt",
            "--mechanic",
            "dq",
            "--games",
            "2",
            "--out",
            "{out}/r.duckdb",
        ],
        "dq is not a mechanic for gff games",
    ),
    (
        "battle-wwpd-mechanic",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--system", "riverside", "--mechanic", "wwpd"],
        "wwpd is not a mechanic for riverside games",
    ),
    (
        "battle-series-q7",
        ["battle", "{in}/q7.txt", "{in}/good.txt", "--games", "3", "--out", "{out}/r.duckdb"],
        "quality 7",
    ),
    ("battle-empty-list", ["battle", "{in}/empty.txt", "{in}/good.txt"], "the text is empty"),
    # -- one validation for text and JSON (defect 6)
    ("battle-q0-text", ["battle", "{in}/q0.txt", "{in}/good.txt"], "quality 0 is out of range"),
    ("battle-q0-json", ["battle", "{in}/q0.json", "{in}/good.txt"], "quality 0 is out of range"),
    ("battle-q1-text", ["battle", "{in}/q1.txt", "{in}/good.txt"], "quality 1 is out of range"),
    ("battle-q1-json", ["battle", "{in}/q1.json", "{in}/good.txt"], "quality 1 is out of range"),
    ("battle-q7-json", ["battle", "{in}/q7.json", "{in}/good.txt"], "quality 7 is out of range"),
    (
        "fifty-weapons-text",
        ["battle", "{in}/fifty.txt", "{in}/good.txt"],
        "50 of this weapon on 5 model(s) is over the limit of 4 per model",
    ),
    (
        "fifty-weapons-json",
        ["battle", "{in}/fifty.json", "{in}/good.txt"],
        "50 of this weapon on 5 model(s) is over the limit of 4 per model",
    ),
    ("odds-q7", ["odds", "{in}/q7.txt", "{in}/good.txt"], "quality 7 is out of range"),
    # -- long values are cut (defect 7)
    ("five-mb-name", ["battle", "{in}/long-name.json", "{in}/good.txt"], "quality 9"),
    ("megabyte-argument", ["odds", "x" * 1_000_000, "{in}/good.txt"], "(1,000,000 characters)"),
    # -- files that cannot be read
    ("missing-army", ["army", "show", "{in}/nope.txt"], "army file not found"),
    ("army-is-directory", ["army", "validate", "{in}"], "is a directory"),
    ("army-not-utf8", ["army", "show", "{in}/not-utf8.txt"], "not UTF-8 text"),
    ("missing-terrain", ["table", "show", "{in}/nope.json"], "terrain file not found"),
    ("missing-results", ["results", "summary", "{in}/nope.duckdb"], "no results file here"),
    (
        "missing-force",
        ["battle", "{in}/nope.yaml", "wwpd/colonial", "--system", "wwpd"],
        "WWPD force file not found",
    ),
    ("unknown-sample", ["battle", "gff/no-such-sample", "{in}/good.txt"], "army file not found"),
    # -- usage mistakes, the same style (defect 10)
    ("missing-argument", ["battle"], "Missing argument"),
    (
        "not-an-integer",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--games", "many"],
        "Invalid value for '--games'",
    ),
    ("unknown-option", ["odds", "--bogus"], "No such option: --bogus"),
    ("unknown-command", ["fight"], "No such command 'fight'"),
    (
        "unknown-system",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--system", "chess"],
        "unknown rule system",
    ),
    (
        "unknown-mechanic",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--mechanic", "tarot"],
        "tarot",
    ),
    (
        "unknown-commander",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--commander-a", "clever"],
        "unknown commander",
    ),
    ("bad-seed", ["battle", "{in}/good.txt", "{in}/good.txt", "--seed", "-1"], "seed out of range"),
    (
        "huge-seed",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--seed", str(2**70)],
        "seed out of range",
    ),
    (
        "bad-rules-option",
        ["battle", "{in}/good.txt", "{in}/good.txt", "--rules-option", "x"],
        "KEY=VALUE",
    ),
    (
        "negative-range",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--range", "-1"],
        "--range out of range",
    ),
    (
        "clock-start-9",
        ["odds", "{in}/good.txt", "{in}/good.txt", "--mechanic", "clock", "--clock-start", "9"],
        "--clock-start out of range",
    ),
    ("check-wwpd-fatigued", ["check", "wwpd", "--target", "4", "--fatigued"], "--fatigued"),
    (
        "check-wound-effect-fatigued",
        ["check", "d6", "--target", "4", "--test", "wound_effect", "--fatigued"],
        "expected no replacement effect and no Fatigue",
    ),
    (
        "check-dq-huge-defence",
        ["check", "dq", "--chance", "45", "--defence", "10" * 8],
        "--defence out of range",
    ),
    (
        "missing-unit-name",
        ["odds", "{in}/good.txt:Nobody", "{in}/good.txt"],
        "no unit of that name",
    ),
]


def _write_files(folder: Path) -> None:
    for name, text in FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "not-utf8.txt").write_bytes(b"++ L [GFF 5pts] ++\n\xff\xfe")
    (folder / "big.txt").write_bytes(b"x" * (MAX_FILE_BYTES + 1))
    from oprlab.analysis.results import ResultStore

    with ResultStore(folder / "results.duckdb"):
        pass


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad-inputs")
    _write_files(folder)
    return folder


@contextmanager
def time_bound(seconds: int) -> Iterator[None]:
    """Fail a case that runs longer than ``seconds`` (a hang is a failure, not a stuck run)."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>"
        for p in sorted(folder.rglob("*"))
    }


@pytest.mark.parametrize(("case", "args", "fragment"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2_in_bounded_time_and_writes_nothing(
    case: str, args: list[str], fragment: str, inputs: Path, tmp_path: Path
) -> None:
    (tmp_path / "dir.png").mkdir()
    (tmp_path / "round-dir").mkdir()
    (tmp_path / "round-dir" / "b-round1.svg").mkdir()  # where --svg-rounds would draw
    before = _files(tmp_path)
    argv = [a.replace("{in}", str(inputs)).replace("{out}", str(tmp_path)) for a in args]
    start = time.monotonic()
    with time_bound(BOUND):
        result = runner.invoke(app, argv)
    took = time.monotonic() - start
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), f"{case}: {result.exception!r}"
    lines = result.stderr.splitlines()
    assert result.exit_code == 2, (case, result.exit_code, result.stderr[-500:])
    assert len(lines) == 1, (case, lines[:5])
    assert lines[0].startswith("error: ") and fragment in lines[0], (case, lines[0][:500])
    assert "Traceback" not in result.output
    assert len(lines[0]) <= 2_100, (case, len(lines[0]))
    assert _files(tmp_path) == before, f"{case} wrote {set(_files(tmp_path)) - set(before)}"
    assert took < BOUND


def test_every_case_has_its_own_name() -> None:
    assert len(CASES) == len({c[0] for c in CASES})


def test_text_and_json_lists_get_the_same_judgement(inputs: Path) -> None:
    """Q0, Q1, Q7, 50 weapons on 5 models and A0: the same problems, word for word, whether
    the list is text or JSON (one validation, oprlab.units.validate)."""
    for stem in ("q0", "q1", "q7", "fifty", "a0"):
        found = []
        for ext in ("txt", "json"):
            result = runner.invoke(
                app, ["army", "validate", str(inputs / f"{stem}.{ext}"), "--json"]
            )
            assert result.exit_code == 1, (stem, ext, result.output)
            problems = json.loads(result.stdout)["problems"]
            found.append([(p["message"], p["level"]) for p in problems])
        assert found[0] == found[1] and found[0], stem


def test_a0_is_a_warning_shown_once_and_the_game_plays(inputs: Path) -> None:
    """A warning does not stop a game; it is printed once, before the game, on stderr."""
    result = runner.invoke(app, ["battle", str(inputs / "a0.json"), "gff/melee-150", "--seed", "1",
                                 "--json"])  # fmt: skip
    assert result.exit_code == 0, result.output
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("warning: ")]
    assert len(warnings) == 1 and "A0" in warnings[0]
    json.loads(result.stdout)


def test_mechanic_mismatch_leaves_no_results_file(inputs: Path, tmp_path: Path) -> None:
    """--mechanic dq with a gff game is refused before --out is created (no empty series)."""
    out = tmp_path / "r.duckdb"
    argv = ["battle", "gff/shooty-150", "gff/melee-150", "--mechanic", "dq", "--out", str(out)]
    result = runner.invoke(app, argv)
    assert result.exit_code == 2 and not out.exists()


def _oprlab(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    full = {**os.environ, "COLUMNS": "80", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "oprlab", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=full,
    )


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_console_that_is_not_utf8_gets_no_unicode_error(tmp_path: Path, encoding: str) -> None:
    """Unicode names on an ASCII (or Latin-1) console: shown with '?', never a traceback."""
    path = tmp_path / "unicode.txt"
    path.write_text(
        "++ Ünïcødé ✓ Légion [GFF 300pts] ++\n\nСтрелки ✓ [5] Q4+ D4+ | 50pts\n"
        '5x Винтовка ☢ (24", A1)\n',
        encoding="utf-8",
    )
    proc = _oprlab("army", "show", str(path), env={"PYTHONIOENCODING": encoding})
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode(encoding, "replace")
    assert b"Traceback" not in err and b"UnicodeEncodeError" not in err
    assert b"?" in out


def test_terminal_escape_codes_in_names_are_neutralised(tmp_path: Path) -> None:
    """ESC, BEL and other control characters in a list's names never reach the terminal."""
    path = tmp_path / "escapes.json"
    nasty = "Squad\x1b[2J\x1b]0;pwned\x07\x9b31m"
    path.write_text(_list_json(_unit_json(name=nasty, quality=9)), encoding="utf-8")
    for args in (
        ["army", "show", str(path)],
        ["army", "validate", str(path)],
        ["battle", str(path), "gff/melee-150"],
    ):
        result = runner.invoke(app, args)
        for stream in (result.stdout, result.stderr):
            assert not any(ch in stream for ch in "\x1b\x07\x9b"), (args, stream[:300])
        assert "Squad" in result.stdout + result.stderr


def test_a_closed_pipe_loses_no_file_and_ends_quietly(tmp_path: Path) -> None:
    """`oprlab table show --svg F | head -1`: the file is whole, nothing on stderr."""
    svg = tmp_path / "t.svg"
    proc = _oprlab("table", "show", "--seed", "4", "--svg", str(svg), "--save",
                   str(tmp_path / "t.json"))  # fmt: skip
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader goes away after one line, as `head -1` does
    _, err = proc.communicate(timeout=120)
    assert b"Traceback" not in err and err.strip() == b"", err[-500:]
    assert svg.read_text(encoding="utf-8").rstrip().endswith("</svg>")
    json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert not list(tmp_path.glob(".oprlab-*"))


def test_sample_names_work_wherever_an_army_is_read() -> None:
    """gff/shooty-300 (with or without its extension) names the bundled sample everywhere."""
    for args in (
        ["army", "show", "gff/shooty-300"],
        ["army", "validate", "gff/shooty-300.json", "--no-force-org"],
        ["odds", "gff/shooty-300:Lantern Wardens", "gff/melee-300"],
        ["efficiency", "gff/shooty-150", "--target", "Elite"],
        ["compare-mechanics", "gff/shooty-300:Lantern Wardens", "gff/melee-300"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output[-500:])


def test_help_shows_value_types_not_bool() -> None:
    for args in (["--help"], ["battle", "--help"], ["odds", "--help"], ["table", "show", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "<bool>" not in result.stdout
    assert "--games <int>" in runner.invoke(app, ["battle", "--help"]).stdout


def test_table_show_json_prints_json() -> None:
    result = runner.invoke(app, ["table", "show", "--seed", "2", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["width"] == 48
