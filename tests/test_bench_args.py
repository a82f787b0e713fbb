"""The experiment scripts' bad arguments: one line naming what is wrong and the usage, exit
code 2, and no output file made (the guide: bad input gets one clear line, never a
traceback; outputs are checked before work starts)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("script", "args", "names"),
    [
        ("search_pairs", [], "OUT"),
        ("search_pairs", ["abc"], "N (seeds)"),
        ("search_pairs", ["3", "search", "--jobs", "q"], "--jobs"),
        ("search_pairs", ["3", "search,nobody"], "'nobody'"),
        ("search_pairs", ["--report", "--against"], "--against"),
        ("habit_pairs", [], "OUT"),
        ("habit_pairs", ["x"], "N (seeds)"),
        ("habit_pairs", ["3", "rules-v1,rules", "--from"], "--from"),
        ("habit_pairs", ["3", "rules,nobody"], "'nobody'"),
        ("habit_pairs", ["3", "rules,rules-with-rush_cost=x"], "'x'"),
        ("habit_pairs", ["3", "rules,rules-with-nothing"], "'nothing'"),
        ("decision_truth", [], "OUT"),
        ("decision_truth", ["x"], "GAMES"),
        ("decision_truth", ["3", "--per", "q"], "--per"),
        ("decision_truth", ["3", "--system", "wwpd"], "--system"),
        ("decision_truth", ["3", "--bogus"], "--bogus"),
        ("decision_truth", ["--judge", "search,nobody"], "'nobody'"),
        ("decision_truth", ["--judge", "rules"], "'rules'"),
        ("decision_truth", ["--judge", "search", "--margins", "a"], "--margins"),
        ("decision_truth", ["3", "--player", "nobody"], "--player"),
        ("decision_truth", ["3", "--phase", "shoot"], "--phase"),
    ],
)
def test_bad_arguments_are_one_line(
    tmp_path: Path, script: str, args: list[str], names: str
) -> None:
    out = tmp_path / "out.jsonl"
    _refused(script, [str(out), *args] if names != "OUT" else [], names)
    assert not out.exists()


def _refused(script: str, argv: list[str], names: str) -> None:
    """The script exits 2 with one error line naming ``names`` and its usage, no traceback."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{script}", *argv],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    first, usage = done.stderr.strip().splitlines()
    assert first.startswith("error: ") and names in first
    assert usage.startswith(f"usage: python -m bench.{script}")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("script", "args", "names"),
    [
        ("bench_lab_report", ["lots"], "GAMES"),
        ("bench_lab_report", ["10", "20"], "at most 1"),
        ("lab_memory", ["ten"], "SEEDS"),
        ("lab_memory", ["10", "--dusk"], "'--dusk'"),
        ("clone_cost", ["--game"], "'--game'"),
        ("clone_cost", ["3"], "at most 0"),
        ("instructions", ["gff900"], "'gff900'"),
        ("instructions", ["gff300", "--seeds", "3-1"], "'3-1'"),
        ("instructions", ["gff300", "--seeds"], "--seeds"),
        ("instructions", ["--repeat", "0"], "'0'"),
        ("instructions", ["--fast"], "'--fast'"),
        ("value_fit", ["many"], "GAMES"),
        ("value_fit", ["5"], "10 or more"),
        ("value_fit", ["20", "--system", "wwpd"], "--system"),
        ("value_fit", ["20", "--jobs", "x"], "--jobs"),
        ("value_fit", ["20", "--system"], "--system"),
    ],
)
def test_other_scripts_refuse_bad_arguments_in_one_line(
    script: str, args: list[str], names: str
) -> None:
    """A mistyped number or option is named before any work (it was a traceback, or a flag
    silently ignored)."""
    _refused(script, args, names)
