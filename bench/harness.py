"""A tiny benchmark harness: time a callable until enough time has passed, report the rate.

Times are CPU seconds of this process (``time.process_time``), not wall-clock: the machines the
lab runs on are shared, and a busy neighbour stretches wall time many times over while the CPU
time a call costs moves far less."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

#: Each suite's prose for docs/benchmarks.md, one Markdown file a suite: it is most of what the
#: doc says, kept out of the suites' code so that a paragraph is edited as text, once.
NOTES_DIR = Path(__file__).parent / "notes"


def prose(name: str) -> str:
    """A suite's prose (``bench/notes/NAME.md``), led by a blank line as the doc sets it."""
    return "\n" + (NOTES_DIR / f"{name}.md").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Result:
    """One benchmark's measurement."""

    name: str
    work: int  # units of work done in total
    unit: str  # what one unit of work is
    seconds: float

    @property
    def rate(self) -> float:
        return self.work / self.seconds if self.seconds else float("inf")

    @property
    def per_call_us(self) -> float:
        return 1e6 * self.seconds / self.work if self.work else 0.0


def measure(
    name: str, fn: Callable[[], object], *, unit: str, work_per_call: int = 1, budget: float = 0.5
) -> Result:
    """Call ``fn`` repeatedly for about ``budget`` CPU seconds (at least 3 calls) after a
    warm-up."""
    fn()
    calls = 0
    start = time.process_time()
    elapsed = 0.0
    while calls < 3 or elapsed < budget:
        fn()
        calls += 1
        elapsed = time.process_time() - start
    return Result(name, calls * work_per_call, unit, elapsed)


def argument(argv: list[str], index: int, what: str, usage: str, *, number: bool = False) -> str:
    """``argv[index]`` (a whole number when ``number``), or one line naming what is missing or
    wrong and the usage, exit code 2: the experiment scripts' arguments, without a traceback."""
    value = argv[index] if 0 <= index < len(argv) else None
    if value is None or (number and not value.isdigit()):
        got = "nothing" if value is None else repr(value)
        refuse(what, "a whole number" if number else "a value", got, usage)
    return value


def flag(argv: list[str], name: str, default: str, usage: str, *, number: bool = False) -> str:
    """The value after the option ``name`` (a whole number when ``number``), or ``default``
    when it is absent; an option given last with no value is refused (:func:`argument`)."""
    if name not in argv:
        return default
    return argument(argv, argv.index(name) + 1, name, usage, number=number)


def refuse(what: str, expected: str, got: str, usage: str) -> NoReturn:
    """One line naming what is wrong, what would be right and the usage; exit code 2."""
    print(f"error: {what}: expected {expected}, got {got}\nusage: {usage}", file=sys.stderr)
    sys.exit(2)


def positional(argv: list[str], flags: Sequence[str], most: int, usage: str) -> list[str]:
    """The arguments that are not flags; a flag not in ``flags`` or more than ``most`` of them
    is refused (:func:`refuse`), so a mistyped option is not silently ignored."""
    for a in argv:
        if a.startswith("--") and a not in flags:
            refuse("option", " or ".join(flags) or "no option", repr(a), usage)
    rest = [a for a in argv if not a.startswith("--")]
    if len(rest) > most:
        refuse("arguments", f"at most {most}", repr(" ".join(rest)), usage)
    return rest


def rows_done(out: str, key: Callable[[dict[str, Any]], tuple[Any, ...]]) -> set[tuple[Any, ...]]:
    """The keys of the rows already in the JSON-lines file ``out`` (none if it is absent): the
    experiment scripts append a row per game or decision, so a stopped run resumes."""
    if not Path(out).exists():
        return set()
    lines = Path(out).read_text(encoding="utf-8").splitlines()
    return {key(json.loads(line)) for line in lines}


def append_rows(out: str, rows: Iterable[dict[str, Any]]) -> None:
    """Each row as one JSON line at the end of ``out``, flushed as it comes (a stopped run
    keeps every row finished)."""
    with open(out, "a", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
            f.flush()
