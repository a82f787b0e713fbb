"""Series of games: many seeds in parallel (joblib), summarised with 95% intervals.

Each game's seed is derived from the series seed (``SeedSequence.spawn``), so a series replays
exactly and any one game can be replayed alone. An interrupted series keeps every finished game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from joblib import Parallel, delayed

from oprlab import __version__
from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.game.play import GameResult, play_game
from oprlab.players import get_commander
from oprlab.rng import spawn
from oprlab.table.model import Table
from oprlab.units.model import Army


@dataclass(frozen=True)
class SeriesSpec:
    """What a series plays: two armies, commanders, a mechanic, a table, a seed."""

    army_a: Army
    army_b: Army
    commanders: tuple[str, str] = ("rules", "rules")
    mechanic: str = "d6"
    table: Table | None = None
    seed: int = 0
    system: str = "gff"


def play_one(spec: SeriesSpec, game_seed: int) -> GameResult:
    """One game of a series (a top-level function, so worker processes can run it)."""
    commanders = [get_commander(name, game_seed + i) for i, name in enumerate(spec.commanders)]
    result, _ = play_game(
        spec.army_a,
        spec.army_b,
        commanders,
        seed=game_seed,
        mechanic=spec.mechanic,
        table=spec.table,
        log=False,
        system=spec.system,
    )
    return result


@dataclass
class SeriesResult:
    """The finished games of a series and their summary."""

    spec: SeriesSpec
    games: list[GameResult] = field(default_factory=list)
    interrupted: bool = False

    def summary(self) -> dict[str, Any]:
        n = len(self.games)
        out: dict[str, Any] = {
            "games": n,
            "seed": self.spec.seed,
            "system": self.spec.system,
            "mechanic": self.spec.mechanic,
            "commanders": list(self.spec.commanders),
            "armies": [self.spec.army_a.name, self.spec.army_b.name],
            "interrupted": self.interrupted,
            "oprlab": __version__,
        }
        if not n:
            return out
        wins_a = sum(g.winner == 0 for g in self.games)
        wins_b = sum(g.winner == 1 for g in self.games)
        draws = n - wins_a - wins_b

        def iv(x: Interval) -> dict[str, float]:
            return {"estimate": x.estimate, "low": x.low, "high": x.high}

        def mean(f: Callable[[GameResult], float]) -> dict[str, float]:
            vals = [float(f(g)) for g in self.games]
            return iv(mean_interval(sum(vals), sum(v * v for v in vals), n, floor=0.0))

        out |= {
            "win_a": iv(wilson(wins_a, n)),
            "win_b": iv(wilson(wins_b, n)),
            "draw": iv(wilson(draws, n)),
            "objectives_a": mean(lambda g: g.objectives[0]),
            "objectives_b": mean(lambda g: g.objectives[1]),
            "models_lost_a": mean(lambda g: g.models_lost[0]),
            "models_lost_b": mean(lambda g: g.models_lost[1]),
            "decisions": mean(lambda g: g.decisions),
        }
        return out


def play_series(
    spec: SeriesSpec,
    games: int,
    *,
    n_jobs: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
) -> SeriesResult:
    """Play ``games`` games; Ctrl-C stops early and keeps the games already finished."""
    seeds = spawn(spec.seed, games)
    result = SeriesResult(spec)
    try:
        if n_jobs == 1:
            for s in seeds:
                game = play_one(spec, s)
                result.games.append(game)
                if on_game:
                    on_game(game)
        else:
            runner = Parallel(n_jobs=n_jobs, return_as="generator")
            for game in runner(delayed(play_one)(spec, s) for s in seeds):
                result.games.append(game)
                if on_game:
                    on_game(game)
    except KeyboardInterrupt:
        result.interrupted = True
    return result


__all__: Sequence[str] = ["SeriesResult", "SeriesSpec", "play_one", "play_series"]
