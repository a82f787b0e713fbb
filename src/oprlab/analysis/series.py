"""Series of games: many seeds in parallel (joblib, or a Dask cluster), summarised with 95%
intervals.

Each game's seed is derived from the series seed (``SeedSequence.spawn``), so a series replays
exactly, any one game can be replayed alone, and the first ``k`` seeds of a series of ``n`` are
the seeds of a series of ``k``: a resumed series plays the same games it would have played in
one go. An interrupted series keeps every finished game.

May import: game, players, table, units, rng, stats; ``distributed`` only when a cluster is
asked for. Writing results to a file is :mod:`oprlab.analysis.results`'s job.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from joblib import Parallel, delayed, parallel_config

from oprlab.analysis.stats import Interval, mean_interval, wilson
from oprlab.errors import OptionError
from oprlab.game.play import GameResult, play_game
from oprlab.players import get_commander
from oprlab.players.base import commander_revision
from oprlab.rng import commander_stream, iter_seeds
from oprlab.table.model import Table
from oprlab.version import __version__

if TYPE_CHECKING:
    from distributed import Client

#: ``--cluster local``: an in-process Dask cluster (threads), to try the cluster path anywhere.
LOCAL_CLUSTER = "local"
#: Seconds to wait for a Dask scheduler (and for its first worker) before giving up.
CONNECT_TIMEOUT = 5.0


@dataclass(frozen=True)
class SeriesSpec:
    """What a series plays: two armies, commanders, a mechanic, a table, a seed, a system.

    The armies are whatever the system reads (its ``army_format``: Army Forge lists, WWPD
    forces); nothing here depends on which.
    """

    army_a: Any
    army_b: Any
    commanders: tuple[str, str] = ("rules", "rules")
    mechanic: str = "d6"
    table: Table | None = None
    seed: int = 0
    system: str = "gff"
    options: Any = None  # the system's rule options (oprlab.game.options); None: defaults
    dice: str = "stream"  # play_game's dice design


def play_one(spec: SeriesSpec, game_seed: int) -> GameResult:
    """One game of a series (a top-level function, so worker processes can run it)."""
    commanders = [
        get_commander(name, commander_stream(game_seed, i), system=spec.system)
        for i, name in enumerate(spec.commanders)
    ]
    result, _ = play_game(
        spec.army_a,
        spec.army_b,
        commanders,
        seed=game_seed,
        mechanic=spec.mechanic,
        table=spec.table,
        log=False,
        system=spec.system,
        options=spec.options,
        dice=spec.dice,
    )
    return result


def spec_revisions(spec: SeriesSpec) -> list[str]:
    """The revisions of a series' two commanders (``players.base.REVISIONS``), as recorded
    with its results and printed with its summary."""
    return [commander_revision(name, system=spec.system) for name in spec.commanders]


def summarize_games(
    games: Sequence[GameResult],
    *,
    seed: int,
    system: str,
    mechanic: str,
    commanders: Sequence[str],
    armies: Sequence[str],
    interrupted: bool,
    commander_revisions: Sequence[str] = ("", ""),
) -> dict[str, Any]:
    """Rates and means with 95% intervals over ``games``.

    One function for the games in memory and the games read back from a results file, so the two
    summaries of the same games are equal by construction.
    """
    n = len(games)
    out: dict[str, Any] = {
        "games": n,
        "seed": seed,
        "system": system,
        "mechanic": mechanic,
        "commanders": list(commanders),
        "commander_revisions": list(commander_revisions),
        "armies": list(armies),
        "interrupted": interrupted,
        "oprlab": __version__,
    }
    if not n:
        return out
    wins_a = sum(g.winner == 0 for g in games)
    wins_b = sum(g.winner == 1 for g in games)
    draws = n - wins_a - wins_b

    def iv(x: Interval) -> dict[str, float]:
        return {"estimate": x.estimate, "low": x.low, "high": x.high}

    def mean(f: Callable[[GameResult], float]) -> dict[str, float]:
        vals = [float(f(g)) for g in games]
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


@dataclass
class SeriesResult:
    """The finished games of a series and their summary."""

    spec: SeriesSpec
    games: list[GameResult] = field(default_factory=list)
    interrupted: bool = False

    def summary(self) -> dict[str, Any]:
        return summarize_games(
            self.games,
            seed=self.spec.seed,
            system=self.spec.system,
            mechanic=self.spec.mechanic,
            commanders=self.spec.commanders,
            armies=[self.spec.army_a.name, self.spec.army_b.name],
            interrupted=self.interrupted,
            commander_revisions=spec_revisions(self.spec),
        )


def play_series(
    spec: SeriesSpec,
    games: int,
    *,
    n_jobs: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
    skip: Collection[int] = (),
    cluster: str | None = None,
) -> SeriesResult:
    """Play ``games`` games; Ctrl-C stops early and keeps the games already finished.

    Args:
        spec: what to play.
        games: how many games the series has; game ``i`` has seed ``spawn(spec.seed, games)[i]``.
        n_jobs: joblib worker processes (1: in this process).
        on_game: called in this process with each game as it finishes, in seed order.
        skip: game seeds not to play (already stored: a resumed series).
        cluster: a Dask scheduler address, or ``"local"``: play through joblib's Dask backend
            instead of local processes (``n_jobs`` is then ignored).
    """
    seeds = (s for s in iter_seeds(spec.seed, games) if s not in skip)  # made as games start
    result = SeriesResult(spec)
    try:
        if cluster is not None:
            with dask_backend(cluster):
                _run_parallel(spec, seeds, -1, result, on_game)
        elif n_jobs == 1:
            for s in seeds:
                game = play_one(spec, s)
                result.games.append(game)
                if on_game:
                    on_game(game)
        else:
            _run_parallel(spec, seeds, n_jobs, result, on_game)
    except KeyboardInterrupt:
        result.interrupted = True
    return result


def _run_parallel(
    spec: SeriesSpec,
    seeds: Iterable[int],
    n_jobs: int,
    result: SeriesResult,
    on_game: Callable[[GameResult], None] | None,
) -> None:
    runner = Parallel(n_jobs=n_jobs, return_as="generator")
    finished = runner(delayed(play_one)(spec, s) for s in seeds)
    try:
        for game in finished:
            result.games.append(game)
            if on_game:
                on_game(game)
    finally:
        with warnings.catch_warnings():  # "N tasks ... executed but not used": we stopped early
            warnings.filterwarnings("ignore", "[0-9]+ tasks have been", UserWarning)
            finished.close()  # stop handing out games at once on Ctrl-C or an error


def _oprlab_version() -> str:
    """Run on each Dask worker: which oprlab it would play with."""
    return __version__


@contextmanager
def dask_backend(address: str, *, timeout: float | None = None) -> Iterator[Client]:
    """Connect to a Dask scheduler (or start an in-process one) and route joblib through it.

    Raises:
        OptionError: the scheduler cannot be reached within ``timeout`` seconds, has no worker,
            or its workers cannot run this oprlab; or ``distributed`` is not installed.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:  # pragma: no cover - installed with oprlab; kept for slim installs
        raise OptionError(
            "playing on a Dask cluster needs the distributed package",
            value=address,
            expected="pip install 'dask[distributed]'",
            where="--cluster",
        ) from None
    wait = CONNECT_TIMEOUT if timeout is None else timeout
    if address == LOCAL_CLUSTER:
        import dask

        # Without the workers' statistical profiler: it keeps a profile tree of every second
        # for the last 1,000 seconds, which grew a worker playing games by about 8 MiB per 100
        # games (docs/experiments.md "Worker memory"); nobody reads it here (no dashboard).
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            local = LocalCluster(  # type: ignore[no-untyped-call]
                processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
            )
        client = Client(local)  # type: ignore[no-untyped-call]
    else:
        local = None
        try:
            client = Client(address, timeout=wait)  # type: ignore[no-untyped-call]
        except (OSError, ValueError, TypeError) as exc:
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise OptionError(
                f"cannot reach the Dask scheduler ({reason})",
                value=address,
                expected="the address of a running scheduler, e.g. tcp://host:8786, or 'local'",
                where="--cluster",
            ) from None
    try:
        _check_workers(client, address, wait)
        with parallel_config(backend="dask"):
            yield client
    finally:
        # Games cancelled by Ctrl-C make an in-process cluster's workers log warnings about
        # each one; the series already says it was interrupted.
        quiet = logging.getLogger("distributed")
        level = quiet.level
        if local is not None:
            quiet.setLevel(logging.ERROR)
        try:
            client.close()  # type: ignore[no-untyped-call]
            if local is not None:
                local.close()
        finally:
            quiet.setLevel(level)


def _check_workers(client: Client, address: str, timeout: float) -> None:
    """Fail early, with the reason, instead of waiting forever on a cluster that cannot play."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError):
        raise OptionError(
            f"the Dask cluster has no worker after {timeout:g} s",
            value=address,
            expected="a scheduler with at least one `dask worker` attached",
            where="--cluster",
        ) from None
    try:
        versions = set(client.run(_oprlab_version).values())
    except Exception as exc:  # raised on a worker: anything, typically ModuleNotFoundError
        raise OptionError(
            f"the Dask workers cannot run oprlab ({type(exc).__name__}: {exc})",
            value=address,
            expected=f"workers with oprlab {__version__} installed",
            where="--cluster",
        ) from None
    if versions != {__version__}:
        raise OptionError(
            "the Dask workers run another oprlab version",
            value=sorted(versions),
            expected=f"oprlab {__version__} on every worker, the same as here",
            where="--cluster",
        )


__all__: Sequence[str] = [
    "SeriesResult",
    "SeriesSpec",
    "dask_backend",
    "play_one",
    "play_series",
    "summarize_games",
]
