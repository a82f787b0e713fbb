"""One suite over every rule system (OpenSpiel's random_sim_test, for wargames).

Each case plays seeded games of one system through the :class:`~oprlab.game.system.RuleSystem`
boundary only, and checks at every decision what any procedure must honour, whatever its text:

- the legal actions come in canonical order, without repeats, and each is legal;
- ``is_legal`` agrees with the list: actions no list offers (made-up units, targets) are refused;
- ``apply`` never raises on a listed action;
- a game replays from its seed, event for event;
- a state pickled mid-game and restored plays on exactly as the original does;
- the event log's totals agree with the end state (models removed, markers held, the winner);
- the result names its system, the procedure's version and the readings played.

A new system or house rule joins by adding a case; nothing here knows a system by name.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from oprlab.game.play import play_game
from oprlab.game.system import GameResult, RuleSystem
from oprlab.game.systems import SYSTEMS, find_system
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.formats import army_format


@dataclass(frozen=True)
class Case:
    """One configuration of one system: armies, mechanic, table and commanders."""

    system: str
    armies: tuple[str, str]
    mechanic: str | None = None
    terrain: bool = False
    seeds: tuple[int, ...] = (1, 2)

    def __str__(self) -> str:
        where = "terrain" if self.terrain else "open"
        return f"{self.system}-{self.mechanic or 'default'}-{where}"

    def load(self) -> tuple[Any, Any]:
        reader = army_format(find_system(self.system).army_format)
        return reader.load(sample_path(self.armies[0])), reader.load(sample_path(self.armies[1]))


OPR = ("gff/shooty-150.txt", "gff/melee-150.txt")
WWPD = ("wwpd/colonial.yaml", "wwpd/colonial.yaml")

CASES = [
    Case("gff", OPR),
    Case("gff", OPR, "clock-bennies", terrain=True),
    Case("riverside", OPR, terrain=True),
    Case("riverside", OPR, "clock-bennies"),
    Case("wwpd", WWPD, terrain=True),
]

#: Every shipped house rule on the system it applies to (oprlab.game.house, docs/rules/house.md);
#: on terrain, where cover and markers are, and with the clock where a dice clause is.
HOUSE = [
    Case("gff+dopr", OPR, "clock", terrain=True, seeds=(1,)),
    Case("gff+fortifications", OPR, terrain=True, seeds=(1,)),
    Case("gff+heavy_cover", OPR, terrain=True, seeds=(1,)),
    Case("gff+safe_house", OPR, seeds=(1,)),
    Case("gff+smuggling_route", OPR, "clock-bennies", seeds=(1,)),
    Case("riverside+fortifications", OPR, terrain=True, seeds=(1,)),
]
CASES += HOUSE
#: The names the result and series checks run over: every system, and each house rule's.
NAMES = sorted({*SYSTEMS, *(c.system for c in HOUSE)})


class Random:
    """A seeded random commander that also draws actions the list does not offer."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        return actions[int(self.rng.integers(len(actions)))]


def _log_hash(state: Any) -> str:
    return hashlib.sha256(json.dumps(state.log.events).encode()).hexdigest()


def _fake(action: Any) -> list[Any]:
    """Actions like ``action`` that no game offers: a unit or target that does not exist."""
    fakes = []
    for field in ("unit", "target"):
        if getattr(action, field, ""):
            fakes.append(dataclasses.replace(action, **{field: "Z99"}))
    return fakes


def _walk(
    rules: RuleSystem, case: Case, seed: int, check: Callable[[Any, Sequence[Any]], None]
) -> Any:
    """Play one game with random commanders, calling ``check`` at every decision."""
    a, b = case.load()
    table = mission_table(seed) if case.terrain else None
    state = rules.new_game(a, b, seed=seed, mechanic=case.mechanic, table=table)
    players = (Random(seed * 2 + 11), Random(seed * 2 + 12))
    for _ in range(10_000):
        if state.done:
            return state
        actions = rules.legal_actions(state)
        check(state, actions)
        rules.apply(state, players[state.active].choose(state, actions))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_listed_actions_are_sorted_unique_and_legal(case: Case) -> None:
    """Canonical order, no repeats, each listed action legal, and invented ones refused."""
    rules = find_system(case.system)
    seen = {"checked": 0}

    def check(state: Any, actions: Sequence[Any]) -> None:
        assert actions, f"no legal action in phase {state.phase!r}"
        keys = [a.sort_key() for a in actions]
        assert keys == sorted(keys)
        assert len(set(actions)) == len(actions)
        for action in actions[:: max(1, len(actions) // 6)]:
            assert rules.is_legal(state, action), str(action)
            for fake in _fake(action):
                assert not rules.is_legal(state, fake), str(fake)
        seen["checked"] += 1

    for seed in case.seeds:
        state = _walk(rules, case, seed, check)
        assert state.done
    assert seen["checked"] > 20


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_game_replays_from_its_seed(case: Case) -> None:
    """The same seed and commanders give the same game, event for event."""
    rules = find_system(case.system)
    first = _walk(rules, case, case.seeds[0], lambda s, a: None)
    again = _walk(rules, case, case.seeds[0], lambda s, a: None)
    assert _log_hash(first) == _log_hash(again)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_pickled_state_plays_on_as_the_original(case: Case) -> None:
    """Save a game mid-way and restore it: it plays on exactly as the original."""
    rules = find_system(case.system)
    a, b = case.load()
    seed = case.seeds[0]
    table = mission_table(seed) if case.terrain else None
    state = rules.new_game(a, b, seed=seed, mechanic=case.mechanic, table=table)
    players = (Random(5), Random(6))
    for _ in range(25):
        rules.apply(state, players[state.active].choose(state, rules.legal_actions(state)))
    copy = pickle.loads(pickle.dumps(state))
    twins = (Random(7), Random(8)), (Random(7), Random(8))
    for game, who in ((state, twins[0]), (copy, twins[1])):
        while not game.done:
            rules.apply(game, who[game.active].choose(game, rules.legal_actions(game)))
    assert _log_hash(state) == _log_hash(copy)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_the_log_totals_agree_with_the_end_state(case: Case) -> None:
    """Models the log removes are the models lost; the last event names the winner and score."""
    rules = find_system(case.system)
    a, b = case.load()
    result, state = play_game(
        a,
        b,
        [Random(3), Random(4)],
        seed=case.seeds[-1],
        mechanic=case.mechanic,
        table=mission_table(case.seeds[-1]) if case.terrain else None,
        system=rules,
    )
    end = state.log.events[-1]
    assert end["kind"] == "end" and end["winner"] == result.winner
    held = end.get("objectives", end.get("markers"))
    assert tuple(held) == result.objectives == rules.score(state)
    removed = [0, 0]
    for event in state.log.events:
        if event["kind"] == "casualties":
            removed[0 if event["unit"].startswith("A") else 1] += event["models"]
    routed = [0, 0]
    for event in state.log.events:
        if event["kind"] in ("routed", "rout"):
            side = 0 if event["unit"].startswith("A") else 1
            routed[side] += event.get("models", 0)
    for side in (0, 1):
        assert removed[side] + routed[side] <= result.models_lost[side]


@pytest.mark.parametrize("name", NAMES)
def test_a_result_names_its_system_version_and_readings(name: str) -> None:
    """Every stored game can say which rules, which revision and which readings played it."""
    case = next(c for c in CASES if c.system == name)
    rules = find_system(name)
    a, b = case.load()
    result, _ = play_game(a, b, [Random(1), Random(2)], seed=3, system=rules)
    assert isinstance(result, GameResult)
    assert result.system == rules.name == name
    assert result.rules_version == rules.version and result.rules_version
    readings = {f.name for f in dataclasses.fields(rules.readings)}
    assert set(dict(result.rule_options)) == readings
    assert json.loads(json.dumps(result.to_json()))["system"] == name


@pytest.mark.parametrize("name", NAMES)
def test_a_series_stores_and_reads_back_through_the_system(name: str, tmp_path: Path) -> None:
    """Every system runs in series and stores to DuckDB on the one path (issue 12): commanders
    by the system's family, armies in its format, the stored rows read back as played."""
    from oprlab.analysis.results import play_series_to
    from oprlab.analysis.series import SeriesSpec, play_series

    case = next(c for c in CASES if c.system == name)
    rules = find_system(name)
    a, b = case.load()
    mechanic = case.mechanic or rules.mechanics[0]
    spec = SeriesSpec(a, b, ("random", "random"), mechanic, None, 4, name)
    stored = play_series_to(tmp_path / "r.duckdb", spec, 2)
    assert stored.result.games == play_series(spec, 2).games
    assert {g.system for g in stored.result.games} == {name}


def test_every_system_and_house_rule_has_a_case() -> None:
    """A system or shipped house rule added without a conformance case fails here."""
    from oprlab.game.house import BUILTIN, find_house_rule

    assert {c.system for c in CASES} == set(SYSTEMS) | {c.system for c in HOUSE}
    assert {c.system.partition("+")[2] for c in HOUSE} == set(BUILTIN)
    for case in HOUSE:
        base, _, rule = case.system.partition("+")
        assert base in find_house_rule(rule).applies_to


def test_each_opr_rules_class_carries_its_systems_version() -> None:
    """The revision stored with results (VERSIONS) is the one the rules class plays."""
    from oprlab.game.systems import VERSIONS

    for name, system in SYSTEMS.items():
        rules = getattr(system, "rules", None)
        if rules is not None:
            assert rules.version == VERSIONS[name] == system.version
