"""Writing a table into a docs file between marker lines (``strength --docs``, ``ladder
--docs``): bad files are one line naming the file, and a good one keeps all but the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from oprlab.cli.docs_table import read_docs, write_docs
from oprlab.errors import OptionError

BEGIN, END = "<!-- t:begin -->", "<!-- t:end -->"


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "cannot read"),  # no such file
        (b"\xff\xfe not UTF-8 " + BEGIN.encode() + b"\n" + END.encode(), "UTF-8"),
        (f"{BEGIN} inline {END}\n".encode(), "no place"),  # markers inside a line
        (f"{END}\n{BEGIN}\n".encode(), "no place"),  # end before begin
    ],
)
def test_a_docs_file_without_a_place_is_refused(
    tmp_path: Path, content: bytes | None, needle: str
) -> None:
    doc = tmp_path / "doc.md"
    if content is not None:
        doc.write_bytes(content)
    with pytest.raises(OptionError) as raised:
        read_docs(doc, BEGIN, END)
    line = str(raised.value)
    assert needle in line and str(doc) in line and "\n" not in line


def test_only_the_first_place_is_filled_and_the_rest_is_kept(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(f"a\n{BEGIN}\nold\n{END}\nb\n{BEGIN}\nold 2\n{END}\n", encoding="utf-8")
    write_docs(doc, BEGIN, END, "| new |")
    text = doc.read_text(encoding="utf-8")
    assert text == f"a\n{BEGIN}\n| new |\n{END}\nb\n{BEGIN}\nold 2\n{END}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["doc.md"]  # no temporary file left
