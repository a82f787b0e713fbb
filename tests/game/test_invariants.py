"""Invariants of whole GFF games, read from their event logs and end states.

A handful of games (sample armies and the test armies, d6 and clock, rules and random
commanders) are played once; each test checks one property over all of them: replay from the
seed, the four rounds (seed 003_8abb008d4113ed75 "Mission" 7), one activation per unit per round
("Activation"), nothing acting after it is destroyed or routed, objective control ("Mission"
4-6, Shaken and Ambush arrivals excluded), the log's totals against the end state, and that the
state clones and pickles.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from oprlab.game import gff
from oprlab.game.play import GameResult, play_game
from oprlab.game.state import GameState
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.table.model import Table
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army
from oprlab.units.model import Army
from tests.game import line, specials


def _sample(name: str) -> Army:
    return load_army(sample_path(f"gff/{name}.txt"))


@dataclass(frozen=True)
class Match:
    a: str
    b: str
    mechanic: str
    commanders: tuple[str, str]
    seed: int
    terrain: str = ""  # "": open table; "generated": terrain only; "mission": with markers

    def table(self) -> Table | None:
        if self.terrain == "generated":
            return generate_table(self.seed)
        return mission_table(self.seed) if self.terrain == "mission" else None

    def armies(self) -> tuple[Army, Army]:
        made = {"line": line, "specials": specials}
        a, b = (made[n]() if n in made else _sample(n) for n in (self.a, self.b))
        return a, b

    def play(self) -> tuple[GameResult, GameState]:
        a, b = self.armies()
        commanders = [get_commander(c, self.seed + i) for i, c in enumerate(self.commanders)]
        return play_game(
            a, b, commanders, seed=self.seed, mechanic=self.mechanic, table=self.table()
        )


MATCHES = [
    Match("shooty-150", "melee-150", "d6", ("rules", "rules"), 0),
    Match("shooty-150", "melee-150", "d6", ("rules", "rules"), 1),
    Match("horde-150", "elite-150", "d6", ("rules", "random"), 0),  # Ambush, Hero, Fearless
    Match("melee-300", "shooty-300", "d6", ("rules", "rules"), 1),  # Scout and Ambush
    Match("shooty-150", "melee-150", "clock", ("rules", "rules"), 2),
    Match("elite-150", "horde-150", "clock-bennies", ("random", "rules"), 3),
    Match("specials", "line", "d6", ("random", "random"), 4),  # Immobile, Fast, Slow, Scout
    Match("melee-150", "shooty-150", "d6", ("rules", "rules"), 6, "generated"),  # terrain
    Match("horde-150", "specials", "clock", ("rules", "random"), 7, "mission"),  # table markers
]


@pytest.fixture(scope="module")
def games() -> list[tuple[Match, GameResult, GameState]]:
    return [(m, *m.play()) for m in MATCHES]


def _events(state: GameState, kind: str) -> list[dict[str, Any]]:
    return state.log.of_kind(kind)


@pytest.mark.parametrize("index", [0, 4, 5, 7])
def test_same_seed_same_event_log(index: int, games: list[Any]) -> None:
    """DESIGN "Randomness": the same seed gives the same game, event for event (d6, clock and
    clock-bennies, a table with terrain; the random commander is seeded too)."""
    match, result, state = games[index]
    again_result, again = match.play()
    assert again.log.events == state.log.events
    assert again_result == result


def test_another_seed_another_game(games: list[Any]) -> None:
    """The seed matters: two seeds of the same match give different logs."""
    assert games[0][2].log.events != games[1][2].log.events


def test_every_game_ends_after_at_most_four_rounds(games: list[Any]) -> None:
    """seed 003 "Mission" 7: the game ends after 4 rounds."""
    for _, result, state in games:
        rounds = [e["round"] for e in _events(state, "round")]
        assert rounds == [1, 2, 3, 4]
        assert state.done and result.rounds == 4
        assert state.log.events[-1]["kind"] == "end"
        assert len(_events(state, "end")) == 1
        assert all(e["round"] <= 4 for e in _events(state, "activate"))


def test_a_unit_activates_at_most_once_a_round(games: list[Any]) -> None:
    """seed 003 "Activation": the player picks one unit that hasn't activated yet."""
    for _, _, state in games:
        seen = [(e["round"], e["unit"]) for e in _events(state, "activate")]
        assert len(seen) == len(set(seen))


def test_no_destroyed_or_routed_unit_acts_afterwards(games: list[Any]) -> None:
    """seed 003 "Morale": a routed unit is removed from play as destroyed; removed units never
    activate, shoot, charge or deploy again."""
    acts = {"activate", "shoot", "deploy", "move", "consolidate"}
    for _, _, state in games:
        gone: set[str] = set()
        before: set[str] = set()  # gone when the activation began (a melee's casualties are
        for e in state.log.events:  # removed attack by attack, before its summary event)
            if e["kind"] == "activate":
                before = set(gone)
            if e["kind"] in acts:
                assert e["unit"] not in gone, e
            if e["kind"] == "shoot":
                assert e["target"] not in gone, e
            if e["kind"] == "melee":
                assert e["unit"] not in before and e["target"] not in before, e
            if e["kind"] in ("destroyed", "routed", "no_room"):
                gone.add(e["unit"])


def _near(state: GameState, marker: tuple[float, float]) -> set[int]:
    """Seed 003 "Mission" 4 by hand: sides with a unit within 3" of the marker (edge of base)."""
    sides = set()
    for us in state.units.values():
        if us.placement is None or not us.alive or us.reserve is not None or us.shaken:
            continue
        if us.arrived == state.round:
            continue  # Ambush: can't seize or contest on the round it deploys
        p = us.placement
        c, r = p.centres[p.alive], p.radii[p.alive]
        d = np.hypot(c[:, 0] - marker[0], c[:, 1] - marker[1]) - r
        if float(d.min()) <= 3.0:
            sides.add(us.side)
    return sides


def test_objective_control_matches_the_log_and_the_positions(games: list[Any]) -> None:
    """seed 003 "Mission" 4-6: at the end of round 4 a marker is seized by a side alone within
    3" (non-Shaken units; Ambush arrivals excluded), neutral if both are, unchanged if none;
    the end state equals the "control" events replayed."""
    for _, result, state in games:
        replay: list[int | None] = [None] * len(state.objectives)
        before_last: list[int | None] = [None] * len(state.objectives)
        for e in _events(state, "control"):
            replay[e["objective"]] = e["controller"]
            if e["round"] < 4:
                before_last[e["objective"]] = e["controller"]
        final = [o.controller for o in state.objectives]
        assert final == replay
        for i, o in enumerate(state.objectives):
            near = _near(state, o.position)
            expected = before_last[i] if not near else next(iter(near)) if len(near) == 1 else None
            assert final[i] == expected
        assert result.objectives == (final.count(0), final.count(1))
        winner = None if final.count(0) == final.count(1) else int(final.count(1) > final.count(0))
        assert result.winner == state.winner == winner


def test_log_totals_match_the_end_state(games: list[Any]) -> None:
    """The log is the game's record: casualties per unit add up to the models it lost, and
    routed units are exactly those with a "routed" event."""
    for _, result, state in games:
        lost: dict[str, int] = {}
        for e in _events(state, "casualties"):
            lost[e["unit"]] = lost.get(e["unit"], 0) + e["models"]
        for e in _events(state, "no_room"):
            lost[e["unit"]] = lost.get(e["unit"], 0) + e["models"]
        routed = {e["unit"] for e in _events(state, "routed")}
        for uid, us in state.units.items():
            assert lost.get(uid, 0) == us.unit.size - us.models, uid
            assert us.routed == (uid in routed)
            assert us.models >= 0 and us.markers >= 0
        destroyed = {e["unit"] for e in _events(state, "destroyed")}
        assert destroyed == {u for u, us in state.units.items() if us.models == 0} - {
            e["unit"] for e in _events(state, "no_room")
        }
        for side in (0, 1):
            size = sum(
                us.unit.size if us.routed else us.unit.size - us.models
                for us in state.side_units(side)
            )
            assert result.models_lost[side] == size


def _play_on(state: GameState, decisions: int | None = None) -> None:
    commanders = [get_commander("rules"), get_commander("rules")]
    n = 0
    while not state.done and (decisions is None or n < decisions):
        actions = gff.legal_actions(state)
        gff.apply(state, commanders[state.active].choose(state, actions))
        n += 1


def _midgame(mechanic: str = "d6") -> GameState:
    state = gff.new_game(_sample("shooty-150"), _sample("melee-150"), seed=5, mechanic=mechanic)
    _play_on(state, 30)
    assert not state.done and state.round >= 1
    return state


@pytest.mark.parametrize("mechanic", ["d6", "clock-bennies"])
def test_clone_is_independent_and_plays_on_identically(mechanic: str) -> None:
    """DESIGN "Models": the state is mutable and cheap to clone for search; a clone shares
    nothing with the original and, given the same decisions, replays the same dice."""
    state = _midgame(mechanic)
    copy = state.clone()
    events = len(state.log)
    placements = {
        u: (s.placement.centres.copy() if s.placement is not None else None)
        for u, s in state.units.items()
    }
    _play_on(copy)
    assert len(state.log) == events and not state.done  # the original did not move
    for uid, us in state.units.items():
        before = placements[uid]
        if before is not None:
            assert us.placement is not None
            assert np.array_equal(us.placement.centres, before)
    _play_on(state)
    assert state.log.events == copy.log.events
    assert state.winner == copy.winner


def test_state_pickles_and_resumes_exactly() -> None:
    """DESIGN "What we take" 5: the game state is picklable; a saved game resumes exactly."""
    state = _midgame("clock")
    saved = pickle.loads(pickle.dumps(state))
    _play_on(state)
    _play_on(saved)
    assert saved.log.events == state.log.events
    assert gff.score(saved) == gff.score(state)


def test_listed_actions_are_legal_and_canonical(games: list[Any]) -> None:
    """DESIGN "What we take" 7: legal actions in a canonical order, and is_legal agrees with
    every listed action (checked along one game)."""
    state = gff.new_game(specials(), _sample("horde-150"), seed=7)
    commanders = [get_commander("random", 1), get_commander("rules")]
    while not state.done:
        actions = gff.legal_actions(state)
        assert actions and actions == sorted(actions, key=lambda a: a.sort_key())
        assert len(set(actions)) == len(actions)
        assert all(gff.is_legal(state, a) for a in actions[:: max(1, len(actions) // 5)])
        gff.apply(state, commanders[state.active].choose(state, actions))
