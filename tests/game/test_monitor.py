"""The rules monitor over seeded games of every system (issue 10; ``tests/game/monitor.py``).

Each game is played decision by decision through ``legal_actions`` and ``apply`` with random
and rules commanders, on open and generated tables, with the d6 and the clock; the monitor
checks every decision against seed 003 (GFF), seed 002 (Riverside) and seed 004 (WWPD on
GFF's mission) from its own reading of the table (see its docstring for the clauses). A few
seeds run in ``make test``; ``MONITOR_GAMES=1000 make monitor`` plays that many more of each.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import pytest

from oprlab.game import gff, gff_melee, riverside_combat
from oprlab.game.gff_shooting import Sight
from oprlab.players import Commander, get_commander
from oprlab.rng import commander_stream
from oprlab.samples import sample_path, sample_text
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army
from oprlab.units.model import Army
from oprlab.units.profiles import load_wwpd
from tests.game import line, specials
from tests.game.monitor import Breach, OprMonitor, play, play_wwpd


def _sample(name: str) -> Army:
    return load_army(sample_path(f"gff/{name}.txt"))


PAIRS: dict[str, Callable[[], tuple[Army, Army]]] = {
    "shooty-melee": lambda: (_sample("shooty-150"), _sample("melee-150")),
    "horde-elite": lambda: (_sample("horde-150"), _sample("elite-150")),
    "specials-line": lambda: (specials(), line()),
}


def _players(names: tuple[str, str], seed: int) -> list[Commander]:
    return [get_commander(n, commander_stream(seed, i)) for i, n in enumerate(names)]


def _opr(
    system: str, seed: int, commanders: tuple[str, str], mechanic: str, terrain: bool
) -> OprMonitor:
    pair = list(PAIRS.values())[seed % len(PAIRS)]
    _, monitor = play(
        system,
        pair(),
        _players(commanders, seed),
        seed=seed,
        mechanic=mechanic,
        table=mission_table(seed) if terrain else None,
    )
    return monitor


#: (system, commanders, mechanic, generated table?) for the quick run, two seeds each.
QUICK = [
    ("gff", ("random", "random"), "d6", False),
    ("gff", ("random", "random"), "clock-bennies", True),
    ("gff", ("rules", "random"), "d6", True),
    ("gff", ("rules", "rules"), "clock", False),
    ("riverside", ("random", "random"), "d6", False),
    ("riverside", ("random", "rules"), "clock-bennies", True),
    ("riverside", ("rules", "rules"), "d6", True),
]


@pytest.mark.parametrize(("system", "commanders", "mechanic", "terrain"), QUICK)
@pytest.mark.parametrize("seed", [40, 47])
def test_every_decision_follows_the_text(
    system: str, commanders: tuple[str, str], mechanic: str, terrain: bool, seed: int
) -> None:
    """GFF and Riverside games end, and every decision passes the monitor (seeds 003, 002)."""
    monitor = _opr(system, seed, commanders, mechanic, terrain)
    assert monitor.checks["legal actions"] > 20 and monitor.checks["alternation"] > 4
    assert monitor.checks["markers"] >= 4


def test_the_monitor_saw_every_kind_of_check() -> None:
    """Over a few games every check was made at least once (strikers, shooters, morale,
    fatigue): the monitor is not vacuous."""
    seen: dict[str, int] = {}
    for seed, system in ((1, "gff"), (2, "gff"), (3, "riverside"), (4, "riverside")):
        for k, v in _opr(system, seed, ("rules", "rules"), "d6", False).checks.items():
            seen[k] = seen.get(k, 0) + v
    for check in ("strikers", "shooters", "morale", "fatigue", "Shaken", "markers"):
        assert seen.get(check, 0) > 0, check


@pytest.mark.parametrize("commanders", [("random", "random"), ("rules", "random")])
def test_wwpd_games_follow_the_text(commanders: tuple[str, str]) -> None:
    """WWPD (seed 004 "Turns and Phases", GFF's mission): a legal action at every decision,
    whole turns in the roll-off winner's order, markers settled from the positions."""
    colonial = load_wwpd(sample_text("wwpd/colonial.yaml"), "colonial.yaml")
    for seed in (3, 4):
        players = [
            get_commander(n, commander_stream(seed, i), system="wwpd")
            for i, n in enumerate(commanders)
        ]
        state, checks = play_wwpd(
            (colonial, colonial), players, seed=seed, table=mission_table(seed)
        )
        assert state.done and checks["turns"] >= 2 and checks["markers"] >= 1


def test_the_monitor_catches_strikers_beyond_two_inches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that let every model strike (the old defect) is caught: the monitor counts the
    models within 2" itself."""
    monkeypatch.setattr(gff_melee, "strikers", lambda state, us, enemy: us.models)
    monkeypatch.setattr(riverside_combat, "strikers", lambda state, us, enemy: us.models)
    with pytest.raises(Breach, match="within 2"):
        for seed in range(1, 12):
            _opr("gff", seed, ("rules", "rules"), "d6", False)
            _opr("riverside", seed, ("rules", "rules"), "d6", False)


GAMES = int(os.environ.get("MONITOR_GAMES", "0"))


@pytest.mark.slow
@pytest.mark.skipif(GAMES <= 0, reason="set MONITOR_GAMES=N (make monitor) for the long run")
@pytest.mark.parametrize("system", ["gff", "riverside"])
def test_many_random_games(system: str) -> None:
    """``MONITOR_GAMES`` random-commander games of a system, alternating the table (open,
    generated) and the mechanic (d6, clock), each to its end with every decision checked."""
    start = time.perf_counter()
    for seed in range(GAMES):
        mechanic = ("d6", "clock", "clock-bennies")[seed % 3]
        _opr(system, seed, ("random", "random"), mechanic, terrain=seed % 2 == 1)
    elapsed = time.perf_counter() - start
    print(f"\n{GAMES} {system} games, every decision monitored: {elapsed:.1f} s")


def test_the_monitor_catches_shooters_out_of_range(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose models fired from out of range (the old defect) is caught."""
    monkeypatch.setattr(Sight, "firing", lambda self, unit, w: np.isfinite(self.distance))
    with pytest.raises(Breach, match="range"):
        for seed in range(1, 12):
            _opr("gff", seed, ("rules", "rules"), "d6", False)


def test_the_monitor_catches_markers_left_unsettled(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that forgot to settle the markers at a round's end is caught."""
    monkeypatch.setattr(gff.GffRules, "update_objectives", lambda self, state: None)
    with pytest.raises(Breach, match="markers"):
        _opr("gff", 2, ("rules", "rules"), "d6", False)
