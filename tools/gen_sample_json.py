"""Regenerate the JSON sample armies from the text samples.

The "Share as Text" files under ``src/oprlab/samples/gff/`` are the source; each ``NAME.txt``
gets a ``NAME.json`` beside it in the current Army Forge JSON shape (``format_army_json``), so
the two always describe the same army. Run after editing a text sample::

    .venv/bin/python tools/gen_sample_json.py          # rewrite the JSON files
    .venv/bin/python tools/gen_sample_json.py --check  # exit 1 if any JSON file is stale
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from oprlab.units.forge_json import format_army_json
from oprlab.units.text import parse_army_text

SAMPLES = Path(__file__).resolve().parent.parent / "src" / "oprlab" / "samples"


def expected_json(text_file: Path) -> str:
    """The JSON that ``text_file`` should have beside it."""
    army = parse_army_text(text_file.read_text(encoding="utf-8"), text_file.name)
    out = format_army_json(army)
    return out if out.endswith("\n") else out + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report stale JSON files")
    parser.add_argument("--samples", type=Path, default=SAMPLES, help="samples directory")
    args = parser.parse_args(argv)
    stale = []
    for text_file in sorted((args.samples / "gff").glob("*.txt")):
        json_file = text_file.with_suffix(".json")
        want = expected_json(text_file)
        have = json_file.read_text(encoding="utf-8") if json_file.exists() else None
        if have == want:
            continue
        stale.append(json_file)
        if not args.check:
            json_file.write_text(want, encoding="utf-8")
            print(f"wrote {json_file}")
    if args.check and stale:
        for f in stale:
            print(f"stale: {f}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
