"""``bench.habit_pairs``' designs: the lopsided matchups and the mirrors (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.habit_pairs import (
    MATCHUPS,
    MIRRORED,
    PLAIN,
    dice_of,
    paired,
    report,
    tasks,
)


def test_the_mirror_design_plays_each_list_against_itself_in_turn() -> None:
    """``--mirror``: seeds take the four lists in turn, each against itself, both seats; the
    default keeps the two lopsided matchups (the games every earlier file holds)."""
    mirrored = list(tasks(8, ("rules-v1", "rules"), systems=("gff",), design=MIRRORED))
    assert [t[1] for t in mirrored[::2]] == [2, 3, 4, 5, 2, 3, 4, 5]
    assert all(MATCHUPS[m][0] == MATCHUPS[m][1] for m in MIRRORED)
    assert len({MATCHUPS[m][0] for m in MIRRORED}) == 4
    plain = list(tasks(4, ("rules-v1", "rules"), systems=("gff",)))
    assert [t[1] for t in plain[::2]] == [0, 1, 0, 1] and PLAIN == (0, 1)
    assert all(MATCHUPS[m][0] != MATCHUPS[m][1] for m in PLAIN)


def test_the_report_counts_the_pairs_a_commander_swept(tmp_path: Path) -> None:
    """Three pairs: ``rules`` wins seed 1 from both seats, side A wins both games of seed 2
    (split), ``rules-v1`` wins seed 3 from both seats: share 1/2, swept 1 / 1."""
    rows = []
    for seed, (first, second) in ((1, (1, 0)), (2, (0, 0)), (3, (0, 1))):
        for a, b, w in (("rules-v1", "rules", first), ("rules", "rules-v1", second)):
            rows.append(
                {"system": "gff", "matchup": 2, "a": a, "b": b, "seed": seed, "winner": w}
                | {"danger": [0, 0], "short": [0, 0]}
            )
    path = tmp_path / "games.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    lines = report(str(path), "rules")
    assert lines[0] == "all: rules 0.500 [-0.066, 1.066], 3 pairs; swept 1 / 1 (0.500)"


def test_files_of_the_two_dice_designs_do_not_mix(tmp_path: Path) -> None:
    """A file says its design; a mixed file and a pairing across designs are refused in one
    line each."""
    row = {"system": "gff", "matchup": 2, "a": "rules-v1", "b": "rules", "seed": 1, "winner": 0}
    plain, keyed, mixed = (tmp_path / f"{n}.jsonl" for n in ("plain", "keyed", "mixed"))
    plain.write_text(json.dumps(row) + "\n", encoding="utf-8")
    keyed.write_text(json.dumps(row | {"dice": "keyed"}) + "\n", encoding="utf-8")
    mixed.write_text(plain.read_text() + keyed.read_text(), encoding="utf-8")
    assert (dice_of(str(plain)), dice_of(str(keyed))) == ("stream", "keyed")
    assert dice_of(str(tmp_path / "none.jsonl")) is None
    with pytest.raises(SystemExit, match="both dice designs"):
        dice_of(str(mixed))
    with pytest.raises(SystemExit, match="must share the design"):
        paired(str(keyed), str(plain), "rules", "rules")
