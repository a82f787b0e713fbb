"""Search variants against the rules commander on the same seat-swapped seeds (issue 14).

Each seed (``iter_seeds(14, N)``, the seeds of ``oprlab ladder --seed 14``) plays shooty-300
against melee-300 on an open table in each system, twice per variant (search on side A, then on
side B), and once rules against rules (the cost's yardstick). Tasks run seed by seed, so a
stopped run keeps a balanced prefix; one JSON line per game is appended to ``OUT`` (games already
there are not played again, so a run resumes); ``--report``
prints each variant's share of the points against rules over the pairs (normal 95% interval;
``swept W/L``: the pairs it won and lost from both seats, see docs/commanders.md),
the paired difference from the first variant (or ``--against``'s) on the seeds both finished,
and the cost; ``--only`` keeps the rows of the variants named::

    .venv/bin/python -m bench.search_pairs OUT.jsonl N search,search:48 [--jobs 2] [--from K]
    .venv/bin/python -m bench.search_pairs OUT.jsonl --report [--md] [--against NAME] [--only A,B]
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from collections.abc import Iterator
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench.harness import append_rows, argument, flag, rows_done
from oprlab.analysis.ladder import LadderSpec, Matchup, Task, play_task, sweeps
from oprlab.errors import UserError
from oprlab.players import get_commander
from oprlab.players.base import COMMANDERS, REVISIONS
from oprlab.players.search import R3_BUDGET, SearchCommander
from oprlab.rng import child_seed
from oprlab.samples import sample_path
from oprlab.units.formats import army_format

SYSTEMS = ("gff", "riverside")
SERIES = 14
BASE = "rules"
Z95 = 1.959963984540054


def spec() -> LadderSpec:
    reader = army_format("army-forge")
    a, b = (reader.load(sample_path(n)) for n in ("gff/shooty-300.json", "gff/melee-300.json"))
    return LadderSpec(commanders=(BASE,), matchups=(Matchup(a, b),), systems=SYSTEMS)


def tasks(n: int, names: list[str], start: int = 0) -> Iterator[Task]:
    for k in range(start, start + n):
        seed = child_seed(SERIES, k)
        for system in SYSTEMS:
            yield (system, 0, BASE, BASE, seed)
            for name in names:
                yield (system, 0, name, BASE, seed)
                yield (system, 0, BASE, name, seed)


_SPEC: LadderSpec | None = None


def register(name: str) -> None:
    """``sx-k2-s3-h4-r1-o4-d1-t1-y2-w50-sure``: a search variant (candidates, samples, horizon,
    budget, dice reseeded after the candidate's own activation, extra samples of that
    activation, successive halving, strata of the activation's outcomes, the enemy's replies
    searched, the worst reply's weight in percent, the sure rule; ``v1``: the learned value;
    ``e1``: the endgame value, a finished game worth its result; ``g1``: playouts past the
    round's end, to the horizon or the game's end; ``p1``: the candidates are the picks of the
    rules commander and of :data:`~oprlab.players.search.PORTFOLIO`'s scripts; ``p2``: those
    picks added to the rules scorer's ``k`` candidates; ``p3``: the picks of
    :data:`~oprlab.players.search.WIDE`'s scripts; ``l3``: from round 3 on, each candidate
    played to the game's end ``n`` times (``n4``; default 2) and valued by the result; ``u1``:
    each activation of a continuation rolls dice keyed on the sample, round and unit).
    Without ``b`` the budget is :data:`R3_BUDGET` (24), the one every variant in
    docs/commanders.md was measured at before ``search`` r4 made 48 the default, so their
    commands still play the same games."""
    if not name.startswith("sx-") or name in COMMANDERS:
        return
    kw: dict[str, Any] = {"budget": R3_BUDGET, "base": R3_BUDGET}
    for part in name.split("-")[1:]:
        if part == "sure":
            kw["sure"] = True
        elif part[0] == "w":
            kw["worst"] = int(part[1:]) / 100
        else:
            kw[
                {
                    "k": "k",
                    "s": "samples",
                    "h": "horizon",
                    "b": "budget",
                    "r": "reseed",
                    "o": "own",
                    "d": "halve",
                    "t": "strata",
                    "y": "replies",
                    "v": "learned",
                    "e": "endgame",
                    "g": "through",
                    "p": "portfolio",
                    "l": "late",
                    "n": "late_samples",
                    "u": "keyed",
                }[part[0]]
            ] = int(part[1:])
    COMMANDERS[name] = partial(SearchCommander, **kw)
    REVISIONS["opr"][name] = "bench"


def play(task: Task) -> dict[str, Any]:
    global _SPEC
    if _SPEC is None:
        _SPEC = spec()
    for name in task[2:4]:
        register(name)
    g = play_task(_SPEC, task)
    return {
        "system": g.system,
        "seed": g.seed,
        "a": g.commander_a,
        "b": g.commander_b,
        "winner": g.winner,
        "seconds": g.seconds,
        "think_a": g.think_a,
        "think_b": g.think_b,
    }


def _interval(xs: list[float]) -> tuple[float, float, float]:
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    h = Z95 * sd / math.sqrt(len(xs))
    return m, max(0.0, m - h), min(1.0, m + h)


def report(
    path: str, md: bool = False, against: str = "", names_only: tuple[str, ...] = ()
) -> None:
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    games: dict[tuple[str, str, int, int], dict[str, Any]] = {}
    base: dict[tuple[str, int], float] = {}
    names: list[str] = []
    for r in rows:
        if r["a"] == BASE and r["b"] == BASE:
            base[(r["system"], r["seed"])] = r["seconds"]
            continue
        name = r["a"] if r["a"] != BASE else r["b"]
        seat = 0 if r["a"] == name else 1
        if name not in names:
            names.append(name)
        games[(r["system"], name, r["seed"], seat)] = r
    for system in SYSTEMS:
        pairs_of: dict[str, dict[int, float]] = defaultdict(dict)
        cost: dict[str, list[float]] = defaultdict(list)
        for name in names:
            for (s, n, seed, seat), r in sorted(games.items()):
                if s != system or n != name or seat != 0 or (s, n, seed, 1) not in games:
                    continue
                other = games[(s, n, seed, 1)]
                score = (share(r["winner"], 0) + share(other["winner"], 1)) / 2
                pairs_of[name][seed] = score
                if (s, seed) in base:
                    cost[name].append((r["seconds"] + other["seconds"]) / 2 / base[(s, seed)])
        first = against or (names[0] if names else "")
        for name in names:
            if names_only and name not in names_only:
                continue
            pairs = pairs_of[name]
            if not pairs:
                continue
            m, lo, hi = _interval(list(pairs.values()))
            ratio = sum(cost[name]) / len(cost[name]) if cost[name] else float("nan")
            cpu = [r["seconds"] for (s, n, _, _), r in games.items() if s == system and n == name]
            diff = ""
            both = sorted(set(pairs) & set(pairs_of[first]))
            if name != first and len(both) > 1:
                d = [pairs[s] - pairs_of[first][s] for s in both]
                dm = sum(d) / len(d)
                sd = math.sqrt(sum((x - dm) ** 2 for x in d) / (len(d) - 1))
                diff = f"{dm:+.3f} ± {Z95 * sd / math.sqrt(len(d)):.3f} ({len(d)})"
            if md:
                print(
                    f"| {system} | `{name}` | {len(pairs)} | {m:.3f} | [{lo:.3f}, {hi:.3f}] "
                    f"| {sum(cpu) / len(cpu):.1f} s | {ratio:.1f}x | {diff} |"
                )
            else:
                line = f"{system:9} {name:24} pairs {len(pairs):3}  {m:.3f} [{lo:.3f}, {hi:.3f}]"
                won, lost = sweeps(pairs.values())
                line += f"  swept {won}/{lost}  cost {ratio:4.1f}x"
                print(line + (f"  vs {first}: {diff}" if diff else ""))


def share(winner: int | None, seat: int) -> float:
    """A game's points for the side in ``seat``: a win 1, a draw 1/2, a loss 0."""
    return 0.5 if winner is None else float(winner == seat)


USAGE = (
    "python -m bench.search_pairs OUT.jsonl N NAME,NAME [--jobs J] [--from K]"
    " | OUT.jsonl --report [--md] [--against NAME] [--only A,B]"
)


def main(argv: list[str]) -> None:
    out = argument(argv, 0, "OUT", USAGE)
    if argv[1:2] == ["--report"]:
        against = flag(argv, "--against", "", USAGE)
        only = flag(argv, "--only", "", USAGE).split(",") if "--only" in argv else []
        report(out, md="--md" in argv, against=against, names_only=tuple(only))
        return
    n = int(argument(argv, 1, "N (seeds)", USAGE, number=True))
    names = argument(argv, 2, "the variants", USAGE).split(",")
    jobs = int(flag(argv, "--jobs", "1", USAGE, number=True))
    start = int(flag(argv, "--from", "0", USAGE, number=True))
    for name in names:  # a bad name is one line before any file is opened or game played
        try:
            register(name)
            get_commander(name, 0)
        except (KeyError, ValueError, UserError) as exc:
            print(f"error: variant {name!r}: {exc}\nusage: {USAGE}", file=sys.stderr)
            sys.exit(2)
    done = rows_done(out, lambda r: (r["system"], r["a"], r["b"], r["seed"]))  # resume
    todo = [t for t in tasks(n, names, start) if (t[0], t[2], t[3], t[4]) not in done]
    with Pool(jobs) as pool:
        append_rows(out, pool.imap(play, todo))


if __name__ == "__main__":
    main(sys.argv[1:])
