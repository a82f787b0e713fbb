"""A ladder of commanders (issue 14, item 4): a round robin on matchups and systems, seats
swapped and seeds paired, rated by Bradley-Terry on the Elo scale with bootstrap intervals.

Each pairing of two commanders plays, for each system, matchup and seed, two games with the
same game seed: one with each commander on side A. The seed fixes the dice, the table and the
commander streams (:mod:`oprlab.rng`), so the pair differs only in who commands which side
(common random numbers). A game scores 1 for a win, 1/2 for a draw.

Ratings: the Bradley-Terry model P(i beats j) = p_i / (p_i + p_j), fitted by Hunter's MM
iteration to the scores (draws as half wins), with one virtual drawn game between every two
commanders (a prior that keeps a commander that never wins at a finite rating). The Elo scale
is 400 log10(p_i / p_anchor): 0 for the anchor, +191 for 3-to-1 odds. The 95% intervals are
percentiles of ratings refitted to resamples of the seat-swapped pairs, drawn within each
(system, matchup, pairing) so every pairing keeps its number of games.

May import: game, players, rng, units, stats; joblib; duckdb (the ``--out`` file).
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

import duckdb
import numpy as np
from joblib import Parallel, delayed

from oprlab.analysis.stats import wilson
from oprlab.game.play import ENGINE_VERSIONS, play_game
from oprlab.players import Commander, get_commander
from oprlab.rng import commander_stream, iter_seeds
from oprlab.table.model import Table
from oprlab.units.model import Army
from oprlab.version import __version__

__all__ = [
    "LadderGame",
    "LadderSpec",
    "Matchup",
    "Rating",
    "bradley_terry",
    "ladder_id",
    "markdown",
    "pair_scores",
    "play_ladder",
    "play_task",
    "play_tasks",
    "ratings",
    "store_ladder",
]

#: Virtual drawn games between every two commanders (the prior of the fit).
PRIOR_GAMES = 1.0
#: Bootstrap resamples for the intervals.
RESAMPLES = 1000


@dataclass(frozen=True)
class Matchup:
    """Two armies, A first; each pairing of commanders plays it from both seats."""

    army_a: Army
    army_b: Army

    @property
    def name(self) -> str:
        return f"{self.army_a.name} v {self.army_b.name}"


@dataclass(frozen=True)
class LadderSpec:
    """What a ladder plays: ``games`` seeds for each system, matchup and pairing of
    ``commanders``, each seed twice (seats swapped)."""

    commanders: tuple[str, ...]
    matchups: tuple[Matchup, ...]
    systems: tuple[str, ...] = ("gff",)
    games: int = 10
    seed: int = 0
    mechanic: str = "d6"
    table: Table | None = None
    dice: str = "stream"  # play_game's dice design

    def record(self) -> dict[str, Any]:
        """Everything that fixes the games, in plain values (what :func:`ladder_id` hashes);
        the dice design only when keyed, so the stream's ladders keep their ids."""
        return {
            **({"dice": self.dice} if self.dice != "stream" else {}),
            "commanders": list(self.commanders),
            "matchups": [
                [_army_hash(m.army_a), _army_hash(m.army_b), m.name] for m in self.matchups
            ],
            "systems": {s: ENGINE_VERSIONS.get(s.split("+")[0], "") for s in self.systems},
            "games": self.games,
            "seed": self.seed,
            "mechanic": self.mechanic,
            "table": None if self.table is None else _hash(self.table),
            "oprlab": __version__,
        }


def _hash(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def _army_hash(army: Army) -> str:
    return _hash(army)


def ladder_id(spec: LadderSpec) -> str:
    """A short hash of what the ladder plays: its games replay from it."""
    text = json.dumps(spec.record(), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class LadderGame:
    """One game of a ladder; ``think_a``/``think_b``: CPU seconds each commander spent choosing,
    ``seconds``: CPU seconds of the whole game."""

    system: str
    matchup: int
    seed: int
    commander_a: str
    commander_b: str
    winner: int | None
    objectives_a: int
    objectives_b: int
    models_lost_a: int
    models_lost_b: int
    decisions: int
    think_a: float
    think_b: float
    seconds: float

    @property
    def score_a(self) -> float:
        return 0.5 if self.winner is None else float(self.winner == 0)


class _Timed:
    """A commander with a stopwatch on its choices (CPU time of this process)."""

    def __init__(self, inner: Commander) -> None:
        self.inner = inner
        self.name = inner.name
        self.seconds = 0.0

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        start = time.process_time()
        try:
            return self.inner.choose(state, actions)
        finally:
            self.seconds += time.process_time() - start


Task = tuple[str, int, str, str, int]  # system, matchup, commander A, commander B, seed


def tasks(spec: LadderSpec) -> Iterator[Task]:
    """Every game of the ladder, each seat-swapped pair together."""
    for system in spec.systems:
        for m in range(len(spec.matchups)):
            for first, second in combinations(spec.commanders, 2):
                for seed in iter_seeds(spec.seed, spec.games):
                    yield (system, m, first, second, seed)
                    yield (system, m, second, first, seed)


def play_task(spec: LadderSpec, task: Task) -> LadderGame:
    """One game (a top-level function, so worker processes can run it)."""
    system, m, name_a, name_b, seed = task
    matchup = spec.matchups[m]
    timed = [
        _Timed(get_commander(n, commander_stream(seed, i))) for i, n in enumerate((name_a, name_b))
    ]
    start = time.process_time()
    result, _ = play_game(
        matchup.army_a,
        matchup.army_b,
        timed,
        seed=seed,
        mechanic=spec.mechanic,
        table=spec.table,
        log=False,
        system=system,
        dice=spec.dice,
    )
    return LadderGame(
        system=system,
        matchup=m,
        seed=seed,
        commander_a=name_a,
        commander_b=name_b,
        winner=result.winner,
        objectives_a=result.objectives[0],
        objectives_b=result.objectives[1],
        models_lost_a=result.models_lost[0],
        models_lost_b=result.models_lost[1],
        decisions=result.decisions,
        think_a=timed[0].seconds,
        think_b=timed[1].seconds,
        seconds=time.process_time() - start,
    )


def play_ladder(
    spec: LadderSpec,
    *,
    n_jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
) -> list[LadderGame]:
    """Play every game of the ladder (joblib over games); ``on_game`` sees each as it ends.
    Ctrl-C stops early and keeps the games already finished."""
    return play_tasks(spec, list(tasks(spec)), n_jobs=n_jobs, on_game=on_game)


def play_tasks(
    spec: LadderSpec,
    todo: Sequence[Task],
    *,
    n_jobs: int = 1,
    on_game: Callable[[LadderGame], None] | None = None,
) -> list[LadderGame]:
    """Play ``todo`` under ``spec`` (joblib over games, in order in one process); the ladder,
    verdicts and the strength curve all play their games here. Ctrl-C keeps what finished."""
    games: list[LadderGame] = []
    if n_jobs == 1:
        finished: Iterator[LadderGame] = (play_task(spec, t) for t in todo)
    else:
        runner = Parallel(n_jobs=n_jobs, return_as="generator")
        finished = runner(delayed(play_task)(spec, t) for t in todo)
    try:
        for game in finished:
            games.append(game)
            if on_game is not None:
                on_game(game)
    except KeyboardInterrupt:
        pass
    return games


def bradley_terry(
    scores: np.ndarray, played: np.ndarray, *, prior: float = PRIOR_GAMES
) -> np.ndarray:
    """Log-strengths (natural log, mean 0) from ``scores[i, j]`` (points i took off j) and
    ``played[i, j]`` (games between them), with ``prior`` virtual drawn games per pair."""
    k = len(scores)
    off = 1.0 - np.eye(k)
    w = scores + 0.5 * prior * off
    n = played + prior * off
    p = np.ones(k)
    for _ in range(10_000):  # Hunter (2004), MM: converges monotonically
        new = w.sum(axis=1) / (n / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        if np.max(np.abs(new - p)) < 1e-12:
            p = new
            break
        p = new
    logs: np.ndarray = np.log(p)
    return logs


@dataclass(frozen=True)
class Rating:
    """A commander's rating: Elo relative to the anchor with its 95% interval, its games, the
    share of points it took, and its mean CPU seconds choosing per game."""

    commander: str
    elo: float
    low: float
    high: float
    games: int
    score: float
    think: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


ELO = 400.0 / np.log(10.0)


def _matrices(
    names: Sequence[str], pairs: Sequence[tuple[int, int, float, int]]
) -> tuple[np.ndarray, np.ndarray]:
    k = len(names)
    scores, played = np.zeros((k, k)), np.zeros((k, k))
    for i, j, s, n in pairs:
        scores[i, j] += s
        scores[j, i] += n - s
        played[i, j] += n
        played[j, i] += n
    return scores, played


def _units(
    games: Sequence[LadderGame], index: dict[str, int]
) -> dict[tuple[str, int, int, int], list[tuple[float, int]]]:
    """The resampling units: per stratum (system, matchup, pairing i < j), each seed's points
    for i and games."""
    by_seed: dict[tuple[str, int, int, int, int], list[float]] = {}
    for g in games:
        a, b = index[g.commander_a], index[g.commander_b]
        i, j = min(a, b), max(a, b)
        points_i = g.score_a if a == i else 1.0 - g.score_a
        key = (g.system, g.matchup, i, j, g.seed)
        by_seed.setdefault(key, []).append(points_i)
    strata: dict[tuple[str, int, int, int], list[tuple[float, int]]] = {}
    for (system, m, i, j, _), points in by_seed.items():
        strata.setdefault((system, m, i, j), []).append((sum(points), len(points)))
    return strata


def ratings(
    games: Sequence[LadderGame],
    names: Sequence[str],
    *,
    anchor: str | None = None,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> list[Rating]:
    """Bradley-Terry ratings on the Elo scale (``anchor`` at 0; the first name if ``None``)
    with bootstrap 95% intervals, best first."""
    index = {n: i for i, n in enumerate(names)}
    home = index[anchor if anchor is not None else names[0]]
    strata = _units(games, index)
    whole = [
        (i, j, sum(s for s, _ in u), sum(n for _, n in u)) for (_, _, i, j), u in strata.items()
    ]
    fit = bradley_terry(*_matrices(names, whole))
    elo = ELO * (fit - fit[home])
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, len(names)))
    arrays = [(i, j, np.array(u, dtype=float)) for (_, _, i, j), u in strata.items()]
    for r in range(resamples):
        pairs = []
        for i, j, units in arrays:
            pick = units[rng.integers(len(units), size=len(units))]
            pairs.append((i, j, float(pick[:, 0].sum()), int(pick[:, 1].sum())))
        b = bradley_terry(*_matrices(names, pairs))
        draws[r] = ELO * (b - b[home])
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if resamples else (elo, elo)
    out = []
    for name, i in index.items():
        mine = [g for g in games if i in (index[g.commander_a], index[g.commander_b])]
        points = sum(g.score_a if g.commander_a == name else 1.0 - g.score_a for g in mine)
        think = sum(g.think_a if g.commander_a == name else g.think_b for g in mine)
        n = len(mine)
        out.append(
            Rating(
                name,
                float(elo[i]),
                float(low[i]),
                float(high[i]),
                n,
                points / n if n else float("nan"),
                think / n if n else float("nan"),
            )
        )
    return sorted(out, key=lambda r: -r.elo)


def pair_scores(games: Sequence[LadderGame], names: Sequence[str]) -> list[dict[str, Any]]:
    """For each pairing, the share of points the first took, with a 95% interval over its
    seat-swapped pairs (each pair's mean is one sample: the pairs are independent, the two
    games of a pair are not), and how many games."""
    index = {n: i for i, n in enumerate(names)}
    per_pair: dict[tuple[int, int], list[float]] = {}
    for (_, _, i, j), units in _units(games, index).items():
        per_pair.setdefault((i, j), []).extend(s / n for s, n in units)
    out = []
    for (i, j), means in sorted(per_pair.items()):
        x = np.array(means)
        m = float(x.mean())
        half = 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("nan")
        out.append(
            {
                "first": names[i],
                "second": names[j],
                "score": m,
                "low": max(0.0, m - half),
                "high": min(1.0, m + half),
                "pairs": len(x),
                "wins": _wins(games, names[i], names[j]),
                "swept": _swept(x),
            }
        )
    return out


def sweeps(means: Iterable[float]) -> tuple[int, int]:
    """How many seat-swapped pairs (each given as the first's mean score over its two games)
    the first won from both seats and how many it lost from both: a mean of exactly 1 or 0."""
    listed = list(means)
    return listed.count(1.0), listed.count(0.0)


def _swept(means: np.ndarray) -> dict[str, Any]:
    """The pairs a commander won from both seats: the ones the commanders decided. In the rest
    the same side won both games (the armies, the seats or the dice decided) and each scores
    1/2 whoever plays (a draw 1/4 or 3/4), so the share over all pairs is about 1/2 + (first
    - second) / (2 pairs): with lopsided armies most pairs split and no commander's share can
    go far from 1/2. ``share``: the first's share of the sweeps (Wilson 95% interval), the
    strength the split pairs dilute; ``decided``: the sweeps' fraction of the pairs."""
    first, second = sweeps(means.tolist())
    iv = wilson(first, first + second) if first + second else None
    return {
        "first": first,
        "second": second,
        "decided": (first + second) / len(means) if len(means) else float("nan"),
        "share": None if iv is None else [iv.estimate, iv.low, iv.high],
    }


def markdown(rated: Sequence[Rating], pairs: Sequence[dict[str, Any]]) -> str:
    """The ratings and the pairings as two Markdown tables (what ``oprlab ladder --docs``
    writes), in the order and with the figures the printed tables show."""
    lines = [
        "| commander | Elo | 95% interval | games | score | think s/game |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for r in rated:
        lines.append(
            f"| `{r.commander}` | {r.elo:+.0f} | [{r.low:+.0f}, {r.high:+.0f}] | {r.games} | "
            f"{r.score:.3f} | {r.think:.2f} |"
        )
    lines += [
        "",
        "| first | second | first's share | 95% interval | pairs | swept by first / second "
        "| first's share of the sweeps |",
        "|---|---|---:|---|---:|---:|---|",
    ]
    for p in pairs:
        lines.append(
            f"| `{p['first']}` | `{p['second']}` | {p['score']:.3f} | "
            f"[{p['low']:.3f}, {p['high']:.3f}] | {p['pairs']} | {swept_cells(p)} |"
        )
    return "\n".join(lines)


def swept_cells(pair: dict[str, Any]) -> str:
    """The sweeps' two cells (``3 / 1 | 0.750 [0.301, 0.954]``), as the tables print them."""
    swept = pair["swept"]
    share = swept["share"]
    shown = "-" if share is None else f"{share[0]:.3f} [{share[1]:.3f}, {share[2]:.3f}]"
    return f"{swept['first']} / {swept['second']} | {shown}"


def _wins(games: Sequence[LadderGame], first: str, second: str) -> dict[str, Any]:
    """Wins of ``first`` over ``second`` (draws apart), with a Wilson interval."""
    mine = [g for g in games if {g.commander_a, g.commander_b} == {first, second}]
    won = sum(
        g.winner is not None and (g.commander_a, g.commander_b)[g.winner] == first for g in mine
    )
    draws = sum(g.winner is None for g in mine)
    iv = wilson(won, len(mine)) if mine else None
    return {
        "games": len(mine),
        "won": won,
        "draws": draws,
        "win_rate": None if iv is None else [iv.estimate, iv.low, iv.high],
    }


GAME_COLUMNS = (
    ("ladder_id", "VARCHAR NOT NULL"),
    ("system", "VARCHAR NOT NULL"),
    ("matchup", "VARCHAR NOT NULL"),
    ("seed", "BIGINT NOT NULL"),
    ("commander_a", "VARCHAR NOT NULL"),
    ("commander_b", "VARCHAR NOT NULL"),
    ("winner", "TINYINT"),
    ("objectives_a", "INTEGER NOT NULL"),
    ("objectives_b", "INTEGER NOT NULL"),
    ("models_lost_a", "INTEGER NOT NULL"),
    ("models_lost_b", "INTEGER NOT NULL"),
    ("decisions", "INTEGER NOT NULL"),
    ("think_a", "DOUBLE NOT NULL"),
    ("think_b", "DOUBLE NOT NULL"),
    ("seconds", "DOUBLE NOT NULL"),
)
RATING_COLUMNS = (
    ("ladder_id", "VARCHAR NOT NULL"),
    ("commander", "VARCHAR NOT NULL"),
    ("elo", "DOUBLE NOT NULL"),
    ("low", "DOUBLE NOT NULL"),
    ("high", "DOUBLE NOT NULL"),
    ("games", "INTEGER NOT NULL"),
    ("score", "DOUBLE NOT NULL"),
    ("think", "DOUBLE NOT NULL"),
)


def store_ladder(
    path: str | os.PathLike[str],
    spec: LadderSpec,
    games: Sequence[LadderGame],
    rated: Sequence[Rating],
) -> str:
    """Write the ladder (its record, every game, the ratings) to a DuckDB file; a ladder
    already stored under the same id is replaced. Returns the id."""
    lid = ladder_id(spec)
    con = duckdb.connect(str(path))
    try:
        con.execute(
            "CREATE TABLE IF NOT EXISTS ladders (ladder_id VARCHAR PRIMARY KEY, record VARCHAR)"
        )
        for table, columns in (("ladder_games", GAME_COLUMNS), ("ladder_ratings", RATING_COLUMNS)):
            cols = ", ".join(f"{n} {t}" for n, t in columns)
            con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({cols})")
        con.execute("BEGIN")
        for table in ("ladders", "ladder_games", "ladder_ratings"):
            con.execute(f"DELETE FROM {table} WHERE ladder_id = ?", [lid])
        con.execute("INSERT INTO ladders VALUES (?, ?)", [lid, json.dumps(spec.record())])
        names = [m.name for m in spec.matchups]
        con.executemany(
            f"INSERT INTO ladder_games VALUES ({', '.join('?' * len(GAME_COLUMNS))})",
            [
                [lid, g.system, names[g.matchup], *(asdict(g)[n] for n, _ in GAME_COLUMNS[3:])]
                for g in games
            ],
        )
        con.executemany(
            f"INSERT INTO ladder_ratings VALUES ({', '.join('?' * len(RATING_COLUMNS))})",
            [[lid, *asdict(r).values()] for r in rated],
        )
        con.execute("COMMIT")
    finally:
        con.close()
    return lid
