"""The fast start of `oprlab check` and `oprlab odds` (issue 13: under 0.4 s wall, without
typer) prints exactly what the typer commands print, with the same exit code, on good and bad
input; what it does not read is left to typer."""

from __future__ import annotations

import pytest

import oprlab.cli
from oprlab.__main__ import main
from oprlab.commands.fast import parse

A, B = "gff/shooty-150", "gff/melee-150"

#: Read by the fast start: good input, and input the work itself refuses.
FAST = [
    ["check", "d6", "--target", "4"],
    ["check", "d6", "--target", "4", "--json"],
    ["check", "d6", "--target=4", "--modifier", "-1", "--json"],
    ["check", "--json", "d6", "--target", "5", "--fatigued", "--critical-from", "5"],
    ["check", "d6", "--target", "4", "--replacement", "2", "--replacement", "3", "--json"],
    ["check", "clock", "--target", "4", "--clock", "3"],
    ["check", "clock", "--target", "4", "--clock", "3", "--json"],
    ["check", "wwpd", "--target", "4", "--armoured-vehicle", "--json"],
    ["check", "dq", "--chance", "45", "--defence", "30"],
    ["check", "dq", "--chance", "45", "--table-01-row", "--json"],
    ["check", "d6"],
    ["check", "d6", "--target", "4", "--chance", "40"],
    ["check", "d6", "--target", "4", "--clock", "0"],
    ["check", "d6", "--target", "4", "--critical-from", "9"],
    ["check", "dq"],
    ["check", "dq", "--chance", "500"],
    ["check", "wwpd", "--target", "4", "--fatigued"],
    ["check", "nosuch", "--target", "4"],
    ["odds", A, B, "--json"],
    ["odds", A, B],
    ["odds", A, B, "--melee", "--charging", "--json"],
    ["odds", A, B, "--range=30", "--cover", "--moved", "--json"],
    ["odds", A, B, "--samples", "200", "--seed", "3", "--json"],
    ["odds", A, B, "--mechanic", "clock", "--clock-start", "3", "--json"],
    ["odds", A, B, "--system", "riverside", "--json"],
    ["odds", A, B, "--cover", "--melee"],
    ["odds", A, B, "--charging"],
    ["odds", A, "no/such-list"],
    ["odds", A, B, "--system", "nope"],
    ["odds", A, B, "--seed", "3"],
    ["odds", A, B, "--samples", "0"],
    ["odds", A, B, "--mechanic", "clock", "--clock-start", "9"],
    ["odds", A, B, "--mechanic", "wwpd"],
]
#: Left to typer: help, usage mistakes, values typer reads its own way.
TYPER = [
    ["check", "--help"],
    ["check"],
    ["check", "d6", "--target"],
    ["check", "d6", "--target", "x"],
    ["check", "d6", "--target", "4.0"],
    ["check", "d6", "--target", "04"],
    ["check", "d6", "e4", "--target", "4"],
    ["check", "d6", "--target", "4", "--target", "5"],
    ["check", "d6", "--target", "4", "--no-fatigued"],
    ["check", "d6", "--target", "4", "--test", "defense"],
    ["check", "d6", "--target", "4", "--json=1"],
    ["check", "d6", "--target", "4", "--unknown"],
    ["check", "d6", "--", "--target", "4"],
    ["odds", A],
    ["odds", A, B, "--range", "-1"],
    ["odds", A, B, "--range", "1e1"],
    ["odds", A, B, "--system", "-x"],
    ["odds", A, B, "--plot", "x.txt"],  # refused before anything is written
    ["odds", A, B, "--json", "--json"],
    ["--version"],
    ["mechanics"],
]


def _typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = oprlab.cli.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def _fast(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("argv", FAST, ids=" ".join)
def test_the_fast_start_prints_what_typer_prints(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse(argv) is not None
    typer_run = _typer(argv, capsys)
    assert _fast(argv, capsys) == typer_run
    assert typer_run[1] or typer_run[2].startswith("error: ")


@pytest.mark.parametrize("argv", TYPER, ids=" ".join)
def test_what_the_fast_start_does_not_read_goes_to_typer(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse(argv) is None
    assert _fast(argv, capsys) == _typer(argv, capsys)
