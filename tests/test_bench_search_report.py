"""``bench.search_pairs --report``: the share over pairs and the pairs swept (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bench.search_pairs import report


def test_the_report_counts_the_pairs_a_variant_swept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three GFF seeds: the variant wins seed 1 from both seats, side A wins both games of
    seed 2, rules wins seed 3 from both seats: share 1/2, swept 1/1, cost 2x rules."""
    rows = []
    for seed, (first, second) in ((1, (0, 1)), (2, (0, 0)), (3, (1, 0))):
        rows.append({"system": "gff", "seed": seed, "a": "rules", "b": "rules", "winner": 0})
        rows.append({"system": "gff", "seed": seed, "a": "sx", "b": "rules", "winner": first})
        rows.append({"system": "gff", "seed": seed, "a": "rules", "b": "sx", "winner": second})
    for r in rows:
        r["seconds"] = 1.0 if r["a"] == r["b"] else 2.0
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    report(str(path))
    (line,) = capsys.readouterr().out.splitlines()
    assert line.split()[:4] == ["gff", "sx", "pairs", "3"]
    assert " 0.500 [" in line and "swept 1/1" in line and "cost  2.0x" in line
