"""Two rules commanders, seat-swapped pairs on generated tables, with the habits counted.

Issue 14: does the fixed rules commander beat ``rules-v1``, and does it take fewer
dangerous-terrain wounds and fall short on fewer charges? Each seed plays one table
(``mission_table(seed)``) and one of the two 300-point sample matchups (alternating), in GFF and
Riverside, twice (seats swapped). Tasks run interleaved (seed by seed), so stopping early keeps a
balanced prefix; one JSON line per game is appended to ``OUT`` as it ends, and ``--report``
summarises a file: the newer commander's share over the pairs with a normal 95% interval, per
system and matchup, and each commander's dangerous wounds and short charges per game (its own
side)::

    .venv/bin/python -m bench.habit_pairs OUT.jsonl 60 [rules-v1,rules] [--jobs 2] [--from K]
        [--system gff] [--mirror] [--keyed]
    .venv/bin/python -m bench.habit_pairs OUT.jsonl --report [rules]
    .venv/bin/python -m bench.habit_pairs B.jsonl --paired A.jsonl [NEW_IN_B [NEW_IN_A]]
    .venv/bin/python -m bench.habit_pairs OUT.json --diff N [rules,rules-v1] [--from K]
        [--system gff]

``rules-no-FIELD`` names ``rules`` with one habit fix off (a ``Style`` field: ``rules-no-cover``),
``rules-with-FIELD`` with one it lacks on (``rules-with-depth``), and with several joined by
``+`` (``rules-with-deploy_for_markers+shoot_markers``), a number field as ``FIELD=VALUE``
(``rules-with-rush_cost=0``), for ablations; ``--from K`` starts at
the K-th seed (to add games to a file). Each game's line records the markers each side holds
at the end of each round (``held``), and ``--report`` gives their means per commander and army.
``--mirror`` plays the four 300-point lists each against itself in turn (a pair the armies
cannot decide), and ``--report`` counts the pairs a commander won from both seats (``swept``).
``--keyed`` rolls each activation's dice from the seed, the round and the unit
(``play_game``'s keyed dice), so that two games of one seed that part (one commander for
another, one habit more) roll the same dice for the same unit's activation after they part instead
of every later die anew: a design with less noise between paired files (each line records ``"dice":
"keyed"``; files of the two designs do not mix). ``--paired`` compares two files played on the same
seeds: the mean over seeds of the newer commander's pair score in ``B`` less its pair score in ``A``
(the same opponent), with its normal 95% interval, and how many pairs did not move. ``--diff`` plays
the first commander against the second and, at each of its decisions, asks the second what it would
choose in the same position (the game follows the first): how often they differ, by round and the
two kinds of action, written to ``OUT`` as JSON and printed; both score the same state, so where two
commanders part is counted, not guessed from results.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import fields, replace
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from bench.harness import argument
from oprlab.analysis.ladder import sweeps
from oprlab.errors import UserError
from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.players.base import COMMANDERS, REVISIONS
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.style import RULES, Style
from oprlab.rng import commander_stream
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.formats import army_format

MATCHUPS = (
    ("gff/shooty-300.json", "gff/melee-300.json"),
    ("gff/elite-300.json", "gff/horde-300.json"),
    *((f"gff/{n}-300.json",) * 2 for n in ("shooty", "melee", "elite", "horde")),
)
#: the design's matchups: the two lopsided ones (the default), or ``--mirror``'s four lists
#: each against itself, where the armies cannot decide a pair and only the commanders (and the
#: dice) can: 98% of elite/horde pairs and two thirds of shooty/melee pairs split whoever
#: plays (the sixteenth session's count), so they dilute a commander's share toward 1/2
PLAIN, MIRRORED = (0, 1), (2, 3, 4, 5)
SYSTEMS = ("gff", "riverside")
FIRST_SEED = 5000
#: ``--keyed``: each activation rolls dice keyed on the game seed, the round and the unit
#: (set before the workers start, so each inherits it)
KEYED = False
Task = tuple[str, int, str, str, int]


def register(name: str) -> None:
    """Register ``rules-with-A+B`` (or ``rules-no-A+B``, or one field): ``rules`` with boolean
    ``Style`` fields switched, marked as a changed revision of ``rules``. Done by name when
    asked (and again in each worker), not on import: importing this module leaves the
    registry of commanders as it was."""
    for prefix, on in (("rules-with-", True), ("rules-no-", False)):
        if name.startswith(prefix) and name not in COMMANDERS:
            names = name[len(prefix) :].split("+")
            numbers = {f.name for f in fields(Style) if type(getattr(RULES, f.name)) is float}
            values: dict[str, Any] = {}
            for part in names:  # a number field as FIELD=VALUE (rules-with-rush_cost=0)
                key, eq, value = part.partition("=")
                if eq and key in numbers:
                    try:
                        values[key] = float(value)
                    except ValueError:
                        raise UserError("not a number", value=value, where=key) from None
            names = [n for n in names if n.partition("=")[0] not in values]
            known = {f.name for f in fields(Style) if isinstance(getattr(RULES, f.name), bool)}
            if not set(names) <= known:
                raise UserError(
                    "unknown Style field",
                    value=sorted(set(names) - known),
                    expected=f"fields from {sorted(known)} or FIELD=NUMBER for {sorted(numbers)}",
                )
            style = replace(RULES, name=name, **dict.fromkeys(names, on), **values)
            COMMANDERS[name] = partial(RulesCommander, style=style)
            REVISIONS["opr"][name] = f"{REVISIONS['opr']['rules']}+{name}"


def tasks(
    n: int,
    names: tuple[str, str],
    start: int = 0,
    systems: tuple[str, ...] = SYSTEMS,
    design: tuple[int, ...] = PLAIN,
) -> Iterator[Task]:
    """Seed by seed, each system, both seats; the design's matchups take turns by seed."""
    for k in range(start, start + n):
        m = design[k % len(design)]
        for system in systems:
            yield (system, m, names[0], names[1], FIRST_SEED + k)
            yield (system, m, names[1], names[0], FIRST_SEED + k)


def _army(system: str, name: str) -> Any:
    return army_format(find_system(system).army_format).load(sample_path(name))


def _game(system: str, m: int, cmds: list[Any], seed: int) -> Any:
    """The design's game: matchup ``m`` on the seed's mission table."""
    return play_game(
        _army(system, MATCHUPS[m][0]),
        _army(system, MATCHUPS[m][1]),
        cmds,
        seed=seed,
        table=mission_table(seed),
        system=system,
        dice="keyed" if KEYED else "stream",
    )


def play(task: Task) -> dict[str, Any]:
    """One game: who won, the markers, each side's dangerous wounds and short charges."""
    system, m, a, b, seed = task
    register(a)
    register(b)
    cmds = [
        get_commander(n, commander_stream(seed, i), system=system) for i, n in enumerate((a, b))
    ]
    start = time.process_time()
    result, state = _game(system, m, cmds, seed)
    danger, short = [0, 0], [0, 0]
    held = _held(state.log.events, state.rounds)
    for e in state.log.events:
        if e["kind"] == "dangerous":
            danger[state.units[e["unit"]].side] += int(e.get("wounds", 0))
        elif e["kind"] == "charge_failed":
            short[state.units[e["unit"]].side] += 1
    return {
        "system": system,
        "matchup": m,
        "a": a,
        "b": b,
        "seed": seed,
        "winner": result.winner,
        "objectives": list(result.objectives),
        "danger": danger,
        "short": short,
        "held": held,
        "cpu": round(time.process_time() - start, 2),
        **({"dice": "keyed"} if KEYED else {}),
    }


def _held(events: list[dict[str, Any]], rounds: int) -> list[list[int]]:
    """Markers each side holds at the end of each round (the log's ``control`` changes)."""
    owner: dict[int, int | None] = {}
    held = []
    for r in range(1, rounds + 1):
        for e in events:
            if e["kind"] == "control" and e.get("round") == r:
                owner[e["objective"]] = e["controller"]
        held.append([sum(o == side for o in owner.values()) for side in (0, 1)])
    return held


def _score(game: dict[str, Any], who: str) -> float:
    if game["winner"] is None:
        return 0.5
    return float(game["winner"] == (0 if game["a"] == who else 1))


def report(path: str, new: str) -> list[str]:
    """The summary lines of a file of games."""
    games = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    names = {g[seat] for g in games for seat in ("a", "b")}
    if games and new not in names:
        raise SystemExit(f"error: {path}: no game by {new!r}; its commanders: {sorted(names)}")
    pairs: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        pairs[(g["system"], g["seed"])].append(g)
    out = []

    def share(label: str, keep: list[tuple[str, int]]) -> None:
        vals = [sum(_score(g, new) for g in pairs[k]) / 2 for k in keep if len(pairs[k]) == 2]
        n = len(vals)
        if n < 2:
            return
        mean = sum(vals) / n
        half = 1.96 * math.sqrt(sum((v - mean) ** 2 for v in vals) / (n - 1) / n)
        won, lost = sweeps(vals)
        out.append(
            f"{label}: {new} {mean:.3f} [{mean - half:.3f}, {mean + half:.3f}], {n} pairs; "
            f"swept {won} / {lost}" + (f" ({won / (won + lost):.3f})" if won + lost else "")
        )

    share("all", list(pairs))
    for s in SYSTEMS:
        share(s, [k for k in pairs if k[0] == s])
        for m in range(len(MATCHUPS)):
            share(
                f"{s} {'/'.join(MATCHUPS[m])}",
                [k for k in pairs if k[0] == s and pairs[k][0]["matchup"] == m],
            )
    for s in SYSTEMS:
        played = [g for g in games if g["system"] == s]
        for who in sorted({g["a"] for g in played}):
            side = [0 if g["a"] == who else 1 for g in played]
            d = sum(g["danger"][i] for g, i in zip(played, side, strict=True))
            c = sum(g["short"][i] for g, i in zip(played, side, strict=True))
            n = max(1, len(played))
            out.append(
                f"{s} {who}: dangerous wounds {d / n:.2f}/game, charges short {c / n:.2f}/game "
                f"({len(played)} games, {len({g['seed'] for g in played})} tables)"
            )
        for who in sorted({g["a"] for g in played}):
            for m, pair in enumerate(MATCHUPS):
                for seat, army in enumerate(pair):
                    mine = [
                        g["held"]
                        for g in played
                        if "held" in g and g["matchup"] == m and (g["a"] == who) == (seat == 0)
                    ]
                    if mine:
                        rows = " / ".join(
                            f"{sum(h[r][seat] for h in mine) / len(mine):.2f}"
                            for r in range(len(mine[0]))
                        )
                        out.append(f"{s} {who} as {army}: markers held by round {rows}")
    return out


def dice_of(path: str) -> str | None:
    """The dice design of a file's games (``"keyed"`` or ``"stream"``; ``None``: no file or no
    game yet); a file that mixes them is refused."""
    if not Path(path).exists():
        return None
    found = {
        json.loads(line).get("dice", "stream")
        for line in Path(path).read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    if len(found) > 1:
        raise SystemExit(f"error: {path}: games of both dice designs ({sorted(found)})")
    return found.pop() if found else None


def _pair_scores(path: str, who: str) -> dict[tuple[str, int], float]:
    """Each seed's pair score (both seats played) for ``who``, by system and seed."""
    games: dict[tuple[str, int], list[float]] = defaultdict(list)
    names: set[str] = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        g = json.loads(line)
        names.update((g["a"], g["b"]))
        games[(g["system"], g["seed"])].append(_score(g, who))
    if who not in names:
        raise SystemExit(f"error: {path}: no game by {who!r}; its commanders: {sorted(names)}")
    return {k: sum(v) / 2 for k, v in games.items() if len(v) == 2}


def paired(path_b: str, path_a: str, who_b: str, who_a: str) -> list[str]:
    """The paired difference of two files' pair scores on the seeds both played, per system
    and matchup: the seeds' own noise cancels, so two variants separate on fewer pairs."""
    if dice_of(path_b) != dice_of(path_a):
        raise SystemExit(
            f"error: {path_b} rolls {dice_of(path_b)} dice and {path_a} {dice_of(path_a)}:"
            " paired files must share the design (both --keyed or neither)"
        )
    b, a = _pair_scores(path_b, who_b), _pair_scores(path_a, who_a)
    out = []
    for system in (None, *SYSTEMS):
        label = system or "all"
        diffs = [b[k] - a[k] for k in sorted(b) if k in a and system in (None, k[0])]
        n = len(diffs)
        if n < 2:
            continue
        mean = sum(diffs) / n
        half = 1.96 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        out.append(
            f"{label}: {who_b} less {who_a} {mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"
            f" over {n} pairs, {sum(d == 0 for d in diffs)} the same"
        )
    return out


class Shadow:
    """Plays ``inner``'s choices and counts, by round and kind, where ``other`` would choose
    otherwise in the same position (``other`` must not change the state: the rules
    commanders only read it)."""

    def __init__(self, inner: Any, other: Any) -> None:
        self.inner, self.other, self.name = inner, other, inner.name
        self.decisions: Counter[tuple[int, str]] = Counter()
        self.differ: Counter[tuple[int, str, str]] = Counter()

    def choose(self, state: Any, actions: Any) -> Any:
        mine = self.inner.choose(state, actions)
        theirs = self.other.choose(state, actions)
        self.decisions[(state.round, mine.kind.value)] += 1
        if theirs != mine:
            self.differ[(state.round, mine.kind.value, theirs.kind.value)] += 1
        return mine


def shadow_play(task: tuple[str, int, str, str, int, int]) -> dict[str, Any]:
    """One game: ``first`` in ``seat`` against ``second``, shadowed by ``second``; the counts."""
    system, m, first, second, seed, seat = task
    register(first)
    register(second)
    names = (first, second) if seat == 0 else (second, first)
    cmds = [get_commander(n, commander_stream(seed, i), system=system) for i, n in enumerate(names)]
    spy = Shadow(cmds[seat], get_commander(second, commander_stream(seed, seat), system=system))
    cmds[seat] = spy
    _game(system, m, cmds, seed)
    return {"decisions": list(spy.decisions.items()), "differ": list(spy.differ.items())}


def differences(games: list[dict[str, Any]]) -> list[str]:
    """The summed counts: each (round, chosen kind, the other's kind) with how many of the
    first commander's decisions of that round and kind it is."""
    decisions: Counter[tuple[int, str]] = Counter()
    differ: Counter[tuple[int, str, str]] = Counter()
    for g in games:
        decisions.update({tuple(k): v for k, v in g["decisions"]})
        differ.update({tuple(k): v for k, v in g["differ"]})
    return [
        f"round {r}: {mine} where the other chose {theirs}: {count} of {decisions[(r, mine)]}"
        for (r, mine, theirs), count in sorted(differ.items())
    ]


USAGE = (
    "python -m bench.habit_pairs OUT.jsonl N [OLD,NEW] [--jobs J] [--from K] [--system S]"
    " [--mirror] [--keyed]"
    " | OUT.jsonl --report [NAME] | B.jsonl --paired A.jsonl [NEW_IN_B [NEW_IN_A]]"
    " | OUT.json --diff N [FIRST,SECOND] [--from K] [--system S]"
)


def main(argv: list[str]) -> None:
    path = argument(argv, 0, "OUT", USAGE)
    if "--paired" in argv:
        rest = [a for a in argv[1:] if a != "--paired"]
        if not rest:
            raise SystemExit("error: --paired needs the other file: B.jsonl --paired A.jsonl")
        names = [*rest[1:3], "rules", "rules"]
        print("\n".join(paired(path, rest[0], names[0], names[1] if len(rest) > 2 else names[0])))
        return
    if "--report" in argv:
        rest = [a for a in argv[1:] if a != "--report"]
        print("\n".join(report(path, rest[0] if rest else "rules")))
        return
    design = MIRRORED if "--mirror" in argv else PLAIN
    global KEYED
    KEYED = "--keyed" in argv
    if dice_of(path) not in (None, "keyed" if KEYED else "stream"):
        raise SystemExit(
            f"error: {path} holds games of the {dice_of(path)} dice design: add to it "
            + ("without" if KEYED else "with")
            + " --keyed, or write another file"
        )
    opts = {
        k: int(argument(argv, argv.index(k) + 1, k, USAGE, number=True))
        for k in ("--jobs", "--from")
        if k in argv
    }
    systems = (
        (argument(argv, argv.index("--system") + 1, "--system", USAGE),)
        if "--system" in argv
        else SYSTEMS
    )
    if any(s not in SYSTEMS for s in systems):
        raise SystemExit(f"error: --system {systems[0]!r}: expected one of {', '.join(SYSTEMS)}")
    skip = {argv.index(k) + 1 for k in (*opts, "--system") if k in argv}
    plain = [a for i, a in enumerate(argv) if i and i not in skip and not a.startswith("--")]
    n = int(argument(plain, 0, "N (seeds)", USAGE, number=True))
    shadow = "--diff" in argv
    default = "rules,rules-v1" if shadow else "rules-v1,rules"
    first, second = (plain[1] if len(plain) > 1 else default).split(",")
    for name in (first, second):  # a bad name is one line before any file is opened
        try:
            register(name)
            get_commander(name, 0)
        except UserError as exc:
            print(f"error: commander {name!r}: {exc}\nusage: {USAGE}", file=sys.stderr)
            sys.exit(2)
    if shadow:
        start = opts.get("--from", 0)
        jobs = [
            (system, k % 2, first, second, FIRST_SEED + k, seat)
            for k in range(start, start + n)
            for system in systems
            for seat in (0, 1)
        ]
        with Pool(opts.get("--jobs", 2)) as pool:
            games = pool.map(shadow_play, jobs)
        Path(path).write_text(json.dumps(games), encoding="utf-8")
        print("\n".join(differences(games)))
        return
    todo = list(tasks(n, (first, second), opts.get("--from", 0), systems, design))
    with Pool(opts.get("--jobs", 2)) as pool, open(path, "a", encoding="utf-8") as f:
        for game in pool.imap_unordered(play, todo):
            f.write(json.dumps(game) + "\n")
            f.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
