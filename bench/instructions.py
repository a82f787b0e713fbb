"""Instructions a batch of seeded games costs, the figure that compares two checkouts of the
engine on a shared machine (CPU times move by a third from hour to hour at the same load; the
instructions of the same games move by well under 1%).

Each kind is one process that imports oprlab, plays a warm-up game (seed 0) and then the seeded
games, counted by ``perf stat -e instructions:u`` (or, on a machine whose perf has no hardware
counters, valgrind's callgrind: exact and the same every run, about 40 times slower), less the
same process with the warm-up game only: what the seeded games cost with caches warm, as in a
batch. Both processes run with one hash seed (:data:`HASH_SEED`) and, where ``setarch`` is
found, without address randomisation, so a count repeats. A digest of the games' logs is
printed too, so two checkouts that should play the same games can be seen to::

    PYTHONPATH=. .venv/bin/python -m bench.instructions [KIND ...] [--seeds A-B] [--repeat N]

KIND is one of gff300 (seeds 1-10), gff600 (1-3), riverside (1-3), wwpd (1-3), gffterrain
(1-2); all five by default. Rules commanders, d6, open table except gffterrain: gff300's lists on
each seed's generated table (``mission_table(seed)``), the lab's usual game. Linux with
``perf`` or ``valgrind`` only.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench.harness import positional, refuse

USAGE = "python -m bench.instructions [gff300|gff600|riverside|wwpd|gffterrain ...] [--repeat N]"
#: The children's ``PYTHONHASHSEED``. With it free and the addresses randomised (ASLR), the
#: same tree's count moved by tens of millions between runs (the order of sets and dicts of
#: strings, and of dicts keyed on object ids, moves with them), more than a small step saves;
#: under ``setarch -R`` with this seed two callgrind runs of a Riverside game differ by 80,000
#: of 4.27 G (without: 14 M). The games do not depend on either (the digests).
HASH_SEED = "0"
#: kind -> (system, seeds played after the warm-up game)
KINDS: dict[str, tuple[str, range]] = {
    "gff300": ("gff", range(1, 11)),
    "gff600": ("gff", range(1, 4)),
    "riverside": ("riverside", range(1, 4)),
    "wwpd": ("wwpd", range(1, 4)),
    "gffterrain": ("gff", range(1, 3)),
}


def _armies(kind: str) -> tuple[object, object]:
    from bench.bench_games import _army, _merge

    if kind == "gff600":
        return (
            _merge("600 A", "gff/shooty-300.txt", "gff/elite-300.txt"),
            _merge("600 B", "gff/melee-300.txt", "gff/horde-300.txt"),
        )
    if kind == "wwpd":
        return _army("wwpd", "wwpd/colonial.yaml"), _army("wwpd", "wwpd/colonial.yaml")
    system = KINDS[kind][0]
    return _army(system, "gff/shooty-300.txt"), _army(system, "gff/melee-300.txt")


def play(kind: str, seeds: range) -> str:
    """Play the warm-up game and ``seeds``; a digest of every game's log."""
    from oprlab.game.play import play_game
    from oprlab.players import get_commander
    from oprlab.table.deploy import mission_table

    system = KINDS[kind][0]
    a, b = _armies(kind)
    digest = hashlib.sha256()
    for seed in (0, *seeds):
        sides = (
            [get_commander("rules", seed, system=system)] * 2
            if seed == 0
            else [
                get_commander("rules", seed, system=system),
                get_commander("rules", seed + 1, system=system),
            ]
        )
        table = mission_table(seed) if kind == "gffterrain" else None
        _, state = play_game(a, b, sides, seed=seed, system=system, table=table)
        if seed:  # the golden games' hash: the log's events
            digest.update(json.dumps(state.log.events).encode())
    return digest.hexdigest()[:16]


def counter() -> str:
    """``perf`` where it counts this machine's instructions, else ``valgrind``, else ``""``."""
    if shutil.which("perf"):
        done = subprocess.run(
            ["perf", "stat", "-x,", "-e", "instructions:u", "true"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode == 0 and done.stderr.split(",")[0].strip().isdigit():
            return "perf"
    return "valgrind" if shutil.which("valgrind") else ""


def _count(tool: str, kind: str, seeds: range | None) -> tuple[int, str]:
    """Instructions of one process playing ``kind`` (its warm-up game only when ``seeds`` is
    None) and the games' digest."""
    root = Path(__file__).resolve().parent.parent
    args = [sys.executable, "-m", "bench.instructions", "--play", kind]
    args += ["--seeds", "none" if seeds is None else f"{seeds[0]}-{seeds[-1]}"]
    if tool == "perf":
        wrap = ["perf", "stat", "-x,", "-e", "instructions:u"]
    else:
        wrap = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    # one hash seed and (where setarch is) one memory layout for every count: str hashes and
    # object ids order sets and dicts, and so the work done
    env = {**os.environ, "PYTHONHASHSEED": HASH_SEED}
    fixed = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
    done = subprocess.run(
        [*fixed, *wrap, *args], capture_output=True, text=True, cwd=root, check=True, env=env
    )
    for line in done.stderr.splitlines():
        if tool == "perf" and "instructions" in line:
            return int(line.split(",")[0]), done.stdout.strip()
        if tool == "valgrind" and "Collected :" in line:
            return int(line.split(":")[-1]), done.stdout.strip()
    raise RuntimeError(f"{tool} printed no instruction count: {done.stderr.strip()[-300:]}")


def _seeds(text: str) -> range | None:
    """``A-B`` as the seeds A to B, ``none`` as None (the warm-up game alone); else refused."""
    if text == "none":
        return None
    first, _, last = text.partition("-")
    if not (first.isdigit() and last.isdigit() and 1 <= int(first) <= int(last)):
        refuse("--seeds", "A-B with 1 <= A <= B (or none)", repr(text), USAGE)
    return range(int(first), int(last) + 1)


def _option(argv: list[str], flag: str) -> tuple[str | None, list[str]]:
    """The value after ``flag`` (refused when missing) and the arguments without the two."""
    if flag not in argv:
        return None, argv
    i = argv.index(flag)
    if i + 1 >= len(argv):
        refuse(flag, "a value after it", "nothing", USAGE)
    return argv[i + 1], argv[:i] + argv[i + 2 :]


def main(argv: list[str]) -> None:
    kind_played, argv = _option(argv, "--play")
    seeds_text, argv = _option(argv, "--seeds")
    repeat_text, argv = _option(argv, "--repeat")
    chosen = None if seeds_text is None else _seeds(seeds_text)
    if kind_played is not None:  # the child process
        if kind_played not in KINDS:
            refuse("--play", " or ".join(KINDS), repr(kind_played), USAGE)
        played = KINDS[kind_played][1] if seeds_text is None else (chosen or range(0))
        print(play(kind_played, played))
        return
    if repeat_text is not None and (not repeat_text.isdigit() or int(repeat_text) < 1):
        refuse("--repeat", "a whole number of at least 1", repr(repeat_text), USAGE)
    repeat = int(repeat_text or 1)
    kinds = positional(argv, [], len(KINDS), USAGE) or list(KINDS)
    for kind in kinds:
        if kind not in KINDS:
            refuse("kind", " or ".join(KINDS), repr(kind), USAGE)
    tool = counter()
    if not tool:
        refuse("counter", "perf with hardware counters, or valgrind, on PATH", "neither", USAGE)
    for kind in kinds:
        seeds = chosen or KINDS[kind][1]
        counts = []
        digest = ""
        for _ in range(1 if tool == "valgrind" else repeat):  # callgrind's count is exact
            whole, digest = _count(tool, kind, seeds)
            warm, _ = _count(tool, kind, None)
            counts.append(whole - warm)
        print(
            f"{kind}: {statistics.median(counts) / 1e9:.3f} G instructions ({tool}) for seeds "
            f"{seeds[0]}-{seeds[-1]} (games {digest})",
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
