"""``play_game`` and ``GameResult``: a whole game between two commanders, its record and its
reproduction data (DESIGN "What we take" 2: every saved result records its seed, ruleset and
package version)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from oprlab import __version__
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.play import GameResult, IllegalActionError, play_game
from oprlab.game.state import GameState
from oprlab.mechanics import get_mechanic
from oprlab.players import get_commander
from tests.game import line, specials


class Counting:
    """Wraps a commander and counts its decisions."""

    def __init__(self, name: str) -> None:
        self.inner = get_commander(name)
        self.name = f"counting {name}"
        self.decisions = 0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        self.decisions += 1
        chosen: Action = self.inner.choose(state, actions)
        return chosen


def test_result_agrees_with_the_final_state() -> None:
    """The result is read from the end state: winner, markers, units left, models lost."""
    a, b = Counting("rules"), Counting("random")
    result, state = play_game(line(), specials(), [a, b], seed=11)
    assert state.done
    assert result.winner == state.winner
    assert result.objectives == gff.score(state)
    assert result.units_left == (gff.units_left(state, 0), gff.units_left(state, 1))
    assert result.decisions == a.decisions + b.decisions
    assert result.rounds == 4
    assert result.commanders == ("counting rules", "counting random")
    assert result.system == "gff" and result.mechanic == "d6" and result.seed == 11
    for side in (0, 1):
        lost = sum(
            u.unit.size if u.routed else u.unit.size - u.models for u in state.side_units(side)
        )
        assert result.models_lost[side] == lost


def test_result_json_has_what_is_needed_to_replay() -> None:
    """to_json: seed, system, mechanic, commanders and the package version, JSON-able."""
    result, _ = play_game(
        line(), line(), [get_commander("rules"), get_commander("rules")], seed=3, mechanic="clock"
    )
    data = json.loads(json.dumps(result.to_json()))
    assert set(data) == {
        "seed",
        "system",
        "mechanic",
        "winner",
        "objectives",
        "units_left",
        "models_lost",
        "rounds",
        "decisions",
        "commanders",
        "commander_revisions",
        "rules_version",
        "rule_options",
        "not_deployed",
        "oprlab",
    }
    assert data["oprlab"] == __version__ and data["mechanic"] == "clock" and data["seed"] == 3
    assert data["commander_revisions"] == ["r2", "r2"]
    assert data["not_deployed"] == []


def test_log_off_plays_the_same_game() -> None:
    """The log only records: turning it off changes nothing but the record."""
    commanders = [get_commander("rules"), get_commander("rules")]
    with_log, state = play_game(line(), specials(), commanders, seed=2)
    without, quiet = play_game(line(), specials(), commanders, seed=2, log=False)
    assert with_log == without
    assert len(state.log) > 0 and len(quiet.log) == 0


def test_a_mechanic_instance_plays_like_its_name() -> None:
    """A mechanic may be given by name or as an object (with options)."""
    commanders = [get_commander("rules"), get_commander("rules")]
    by_name, _ = play_game(line(), line(), commanders, seed=4, mechanic="clock")
    by_object, _ = play_game(line(), line(), commanders, seed=4, mechanic=get_mechanic("clock"))
    assert by_name.winner == by_object.winner and by_name.objectives == by_object.objectives


class OffGrid:
    """Moves to points that are legal but not listed (is_legal accepts any point)."""

    name = "off grid"

    def __init__(self) -> None:
        self.inner = get_commander("rules")
        self.off_grid = 0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        a: Action = self.inner.choose(state, actions)
        if a.kind is Kind.ADVANCE and a.to is not None:
            moved = Action(Kind.ADVANCE, a.unit, to=(a.to[0] + 0.125, a.to[1]))
            if moved not in actions and gff.is_legal(state, moved):
                self.off_grid += 1
                return moved
        return a


def test_unlisted_but_legal_actions_are_accepted() -> None:
    """DESIGN "What we take" 7: is_legal covers actions that cannot be listed (any point)."""
    commander = OffGrid()
    result, _ = play_game(line(), line(), [commander, get_commander("rules")], seed=9)
    assert commander.off_grid > 0 and result.rounds == 4


class Stubborn:
    """Always deploys to a point in the middle of the table: never legal for deployment."""

    name = "stubborn"

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        a = actions[0]
        if a.kind is Kind.DEPLOY:
            return Action(Kind.DEPLOY, a.unit, to=(24.0, 24.0))
        return a


def test_illegal_action_names_the_commander_side_and_action() -> None:
    """A bad commander is refused with a clear error, never silently played."""
    with pytest.raises(IllegalActionError) as info:
        play_game(line(), line(), [Stubborn(), Stubborn()], seed=0)
    text = str(info.value)
    assert "'stubborn'" in text and "deploy" in text and "(24.0, 24.0)" in text
    assert "side" in text


def test_game_result_is_a_frozen_value() -> None:
    """Results are values (DESIGN "Models"): frozen and comparable."""
    result, _ = play_game(line(), line(), [get_commander("rules"), get_commander("rules")], seed=1)
    assert isinstance(result, GameResult)
    with pytest.raises(AttributeError):
        result.seed = 2  # type: ignore[misc]
