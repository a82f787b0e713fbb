"""The experiment file: what it accepts, and one clear line naming the key for what it does not."""

from __future__ import annotations

import pytest

from oprlab.analysis.lab.design import build_cells
from oprlab.analysis.lab.model import MAX_CELLS, parse_experiment
from oprlab.errors import ParseError

HEAD = 'name = "t"\n[[matchups]]\na = "gff/shooty-150"\nb = "gff/melee-150"\n'


def test_defaults_and_crossing() -> None:
    """Factors cross over matchups: 2 mechanics x 2 commanders x 2 matchups = 8 cells, in file
    order, each with the levels it plays; the first level of each factor is the baseline."""
    exp = parse_experiment(
        HEAD
        + '[[matchups]]\na = "gff/horde-150"\nb = "gff/elite-150"\n'
        + '[factors]\nmechanic = ["d6", "clock"]\ncommanders = ["rules", ["rules", "random"]]\n'
    )
    assert exp.stop.rule == "fixed" and exp.stop.seeds == 50
    cells = build_cells(exp)
    assert len(cells) == 8
    assert [c.mechanic for c in cells[:4]] == ["d6", "d6", "clock", "clock"]
    assert cells[1].commanders == ("rules", "random")
    assert len({c.key for c in cells}) == 8


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ("[factors]\nmechanik = ['d6']\n", "factors.mechanik", "unknown key"),
        ("[factors]\nmechanic = ['d6', 'clok']\n", "factors.mechanic[1]", "clock-tokens"),
        ("[factors]\nmechanic = []\n", "factors.mechanic", "at least one level"),
        ("[factors]\nmechanic = ['d6', 'd6']\n", "factors.mechanic", "given twice"),
        ("[factors]\nsystem = ['dq']\n", "factors.system[0]", "no full-game procedure"),
        ("[factors]\nreadings = [{edgs = 'all'}]\n", "factors.readings[0]", "edges"),
        ("[factors]\nreadings = [{edges = 'up'}]\n", "factors.readings[0]", "north-south"),
        ("[factors]\ncommanders = ['genius']\n", "factors.commanders[0]", "random"),
        ("[factors]\ntable = ['round']\n", "factors.table", "file:PATH"),
        ("[stop]\nseeds = 1\n", "stop.seeds", "2 to"),
        ("[stop]\nrule = 'forever'\n", "stop.rule", "fixed, width, sprt or handicap"),
        ("[stop]\nwidth = 1.5\n", "stop.width", "0 to 1"),
        ("[stop]\nalpha = 'x'\n", "stop.alpha", "0 to 0.5"),
    ],
)
def test_bad_values_name_the_key(body: str, where: str, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_experiment(HEAD + body, "e.toml")
    text = str(info.value)
    assert text.startswith(f"e.toml: {where}") and words in text and "\n" not in text


def test_missing_and_broken() -> None:
    with pytest.raises(ParseError, match=r"e.toml: matchups\[0\].b: missing key"):
        parse_experiment('name = "t"\n[[matchups]]\na = "x"\n', "e.toml")
    with pytest.raises(ParseError, match=r"e\.toml: matchups: missing key"):
        parse_experiment('name = "t"\n', "e.toml")
    with pytest.raises(ParseError, match="not TOML"):
        parse_experiment("name = ", "e.toml")


def test_cells_are_bounded() -> None:
    """Too many cells (5 x 16 = 80 > 64) is refused before any army is read."""
    assert MAX_CELLS < 80
    mechanics = ", ".join(
        repr(m) for m in ("d6", "clock", "clock-tokens", "clock-unit", "clock-global")
    )
    tables = ", ".join(f"'file:t{i}.json'" for i in range(16))
    with pytest.raises(ParseError, match=r"e\.toml: cells .* over the limit"):
        parse_experiment(
            HEAD + f"[factors]\nmechanic = [{mechanics}]\ntable = [{tables}]\n", "e.toml"
        )
