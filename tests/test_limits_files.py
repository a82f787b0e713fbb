"""The limits (documented in docs/limits.md, the same numbers), the output files (checked up
front, written whole or not at all), lazy series seeds, text made safe to show, and odds that
switch to sampling past a size (issue 11)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

import oprlab.limits as limits
from oprlab.analysis.odds import Situation, attack_dice, attack_odds, exact_work
from oprlab.display import one_line, printable, shorten
from oprlab.errors import UserError
from oprlab.files import OutputError, atomic_path, check_output, read_text, write_atomic
from oprlab.limits import LimitError, check_nesting, nesting_depth
from oprlab.rng import MAX_SEED, child_seed, iter_seeds, spawn
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.validate import validate_army

DOCS = Path(__file__).parent.parent / "docs" / "limits.md"


def test_docs_give_every_limit_with_its_value() -> None:
    """Each constant of oprlab.limits has a row in docs/limits.md that shows its value."""
    text = DOCS.read_text(encoding="utf-8")
    for name in limits.__all__:
        value = getattr(limits, name)
        if not isinstance(value, int | float) or name == "DOCS":
            continue
        rows = [ln for ln in text.splitlines() if ln.startswith("| ")]
        row = next((ln for ln in rows if f"`{name}`" in ln.split("|")[1]), None)
        assert row is not None, f"{name} is not in docs/limits.md"
        shown = {f"{value:,}", f"{value:g}", str(value)}
        digits = re.sub(r"[^\d,.]", " ", row)
        assert any(s in digits.split() for s in shown), (name, value, row)


# --- outputs ------------------------------------------------------------------------------------


def test_check_output_refuses_before_any_work(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    cases = {
        tmp_path / "no" / "such" / "f.json": "no such folder",
        tmp_path / "dir": "is a directory",
        tmp_path / ("n" * 300): "file name too long",
        Path("/dev/null"): "not a regular file",
    }
    for path, words in cases.items():
        with pytest.raises(OutputError, match=words):
            check_output(path, "--log")
    assert check_output(tmp_path / "fine.json", "--log") == tmp_path / "fine.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"]  # the probe is gone


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes anywhere")
def test_check_output_refuses_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="cannot write in this folder"):
            check_output(folder / "f.svg", "--svg")
    finally:
        folder.chmod(0o700)


def test_write_atomic_writes_whole_files_with_normal_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    write_atomic(path, "é" * 10)
    assert path.read_text(encoding="utf-8") == "é" * 10
    mask = os.umask(0)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask
    write_atomic(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_an_interrupted_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    path.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_path(path) as temp:
        temp.write_text("half", encoding="utf-8")
        raise RuntimeError("the work failed half way")
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["t.parquet"]


def test_read_text_refuses_big_files_unread(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 101)
    with pytest.raises(LimitError, match="over the size limit"):
        read_text(big, "army file", "a list", limit=100)
    assert read_text(big, "army file", "a list", limit=101) == "x" * 101


# --- JSON nesting -------------------------------------------------------------------------------


def test_nesting_depth_counts_brackets_outside_strings() -> None:
    assert nesting_depth('{"a": [1, "[[[[", {"b": []}]}') == 4
    assert nesting_depth('["\\"[[[", 2]') == 1
    assert nesting_depth("name: x") == 0
    assert nesting_depth("[" * 100_000 + "]" * 100_000) == 100_000
    check_nesting("[" * limits.MAX_JSON_DEPTH + "]" * limits.MAX_JSON_DEPTH, "f.json")
    with pytest.raises(LimitError, match="nested too deeply"):
        check_nesting("[" * (limits.MAX_JSON_DEPTH + 1), "f.json")


# --- seeds --------------------------------------------------------------------------------------


def test_lazy_seeds_are_the_seeds_of_spawn() -> None:
    """A series' seeds are made one at a time, and are exactly SeedSequence.spawn's."""
    children = np.random.SeedSequence(2026).spawn(20)
    expected = [int(c.generate_state(1, np.uint64)[0] % MAX_SEED) for c in children]
    assert list(iter_seeds(2026, 20)) == expected == spawn(2026, 20)
    assert child_seed(2026, 19) == expected[19]
    seeds = iter_seeds(1, 10**12)  # a trillion games: nothing is made before it is asked for
    assert next(seeds) == child_seed(1, 0)


# --- text ---------------------------------------------------------------------------------------


def test_printable_and_one_line_neutralise_control_characters() -> None:
    assert printable("a\x1b[2Jb\x07\tc") == "a\ufffd[2Jb\ufffd c"
    assert printable("plain ✓") == "plain ✓"
    assert one_line("one\n  two\r\nthree\u202e") == "one; two; three"
    assert shorten("x" * 1000, 50).endswith("(1,000 characters)")


def test_error_values_are_cut() -> None:
    text = str(UserError("bad", value="v" * 5_000_000, where="f.txt:1"))
    assert len(text) < 300 and "(5,000,000 characters)" in text


# --- army limits --------------------------------------------------------------------------------


def _army(*units: Unit) -> Army:
    return Army("Limits", "GFF", 0, units)


@pytest.mark.parametrize(
    ("unit", "words"),
    [
        (Unit("U", 101, 4, 4), "size 101 is over the limit of 100 models"),
        (Unit("U", 5, 4, 4, weapons=(Weapon("G", 101, 24),)), "A101 is over the limit of A100"),
        (Unit("U", 5, 4, 4, weapons=(Weapon("G", 1, 24, count=21),)), "4 per model, 20 in all"),
        (Unit("U", 1, 4, 4, rules=(Rule("Tough", 101),)), "the rating 101 is over the limit"),
        (Unit("U", 5, 4, 4, weapons=(Weapon("G", 1, rules=(Rule("Deadly", 21),)),)), "of 20"),
        (Unit("U", 5, 4, 4, weapons=(Weapon("G", 1, rules=(Rule("Blast", 21),)),)), "of 20"),
        (Unit("U", 5, 4, 4, rules=(Rule("AP", 101),)), "the rating 101 is over the limit of 100"),
        (Unit("U", 31, 4, 4, rules=(Rule("Tough", 10),)), "wounds (31 models x Tough(10)): 310"),
        (Unit("U", 20, 4, 4, weapons=(Weapon("G", 13, 24, count=80),)), "attack dice"),
        (Unit("U", 20, 4, 4, rules=(Rule("Impact", 51),)), "attack dice"),
        (
            Unit("U", 10, 4, 4, weapons=(Weapon("G", 4, count=40, rules=(Rule("Deadly", 4),)),)),
            "Deadly wounds (dice x Deadly(X)): 640 is over the limit of 600",
        ),
    ],
)
def test_army_limits_are_errors_naming_the_limit(unit: Unit, words: str) -> None:
    problems = [p for p in validate_army(_army(unit), force_org=False) if p.level == "error"]
    assert len(problems) == 1 and words in problems[0].message, problems
    assert "docs/limits.md" in problems[0].message


def test_army_wide_limits() -> None:
    many = tuple(Unit(f"U{i}", 3, 4, 4, uid=f"u{i}") for i in range(101))
    messages = [p.message for p in validate_army(_army(*many), force_org=False)]
    assert any("units: 101 is over the limit of 100" in m for m in messages)
    assert any("models: 303 is over the limit of 300" in m for m in messages)


# --- odds past a size ---------------------------------------------------------------------------


def test_odds_too_costly_to_compute_exactly_are_sampled_with_a_note() -> None:
    """A unit built in code (beyond the army limits) gets a Monte Carlo answer, not a
    minutes-long exact one; the result says so, with its sample size and intervals."""
    gun = Weapon("Gun", 20, 24, count=10, rules=(Rule("Deadly", 6), Rule("Blast", 3)))
    attacker = Unit("Battery", 10, 4, 4, weapons=(gun,))
    target = Unit("Horde", 100, 5, 5, rules=(Rule("Tough", 2),))
    weapons = attacker.weapons
    assert attack_dice(attacker, weapons, target, Situation()) == 600
    assert exact_work("gff", attacker, weapons, target, Situation()) > limits.EXACT_WORK
    result = attack_odds(attacker, target)
    assert result.auto_sampled and result.samples == 333 and result.seed == 0
    assert result.to_json()["auto_sampled"] is True
    assert {"hits_mean", "p_destroyed"} <= set(result.intervals)
    small = attack_odds(Unit("Few", 1, 4, 4, weapons=(Weapon("Gun", 2, 24),)), target)
    assert not small.auto_sampled and small.samples is None


def test_odds_refuse_more_dice_or_samples_than_the_limits() -> None:
    shooter = Unit("Wall", 100, 4, 4, weapons=(Weapon("Gun", 11, 24, count=100),))
    with pytest.raises(LimitError, match="attack dice of one odds query"):
        attack_odds(shooter, Unit("T", 5, 4, 4))
    two = Unit("Two", 2, 4, 4, weapons=(Weapon("Gun", 1, 24, count=2),))
    with pytest.raises(LimitError, match="--samples"):
        attack_odds(two, Unit("T", 5, 4, 4), samples=limits.MAX_SAMPLES + 1)
