"""Computer commanders: the random baseline plays only legal actions, a broken commander is
refused by name, and the rules commander is much stronger than random and fair to itself.

Win rates are over seeded games, so each test is exact for its seeds; the stated intervals say
how much a different set of seeds could move them.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from oprlab.analysis.stats import wilson
from oprlab.errors import UnknownNameError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.play import IllegalActionError, play_game
from oprlab.game.state import GameState, Phase
from oprlab.players import Commander, get_commander
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Army
from tests.game import clear_table, line, put, specials


def _sample(name: str) -> Army:
    return load_army(sample_path(f"gff/{name}.txt"))


class Checked:
    """Passes the inner commander's choice through, checking it is legal and listed."""

    def __init__(self, inner: Commander) -> None:
        self.inner = inner
        self.name = inner.name
        self.choices = 0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        a: Action = self.inner.choose(state, actions)
        assert a in actions and gff.is_legal(state, a), a
        self.choices += 1
        return a


@pytest.mark.parametrize("mechanic", ["d6", "clock-bennies"])
def test_random_commander_only_returns_legal_actions(mechanic: str) -> None:
    """The baseline picks uniformly among the listed actions, so every choice is legal."""
    for seed in range(2):
        a = Checked(get_commander("random", seed))
        b = Checked(get_commander("random", seed + 100))
        play_game(specials(), _sample("horde-150"), [a, b], seed=seed, mechanic=mechanic)
        assert a.choices > 10 and b.choices > 10


def test_random_commander_replays_from_its_seed() -> None:
    """A seeded commander makes the same choices again (games replay exactly)."""
    logs = []
    for _ in range(2):
        commanders = [get_commander("random", 5), get_commander("random", 6)]
        _, state = play_game(line(), specials(), commanders, seed=9)
        logs.append(state.log.events)
    assert logs[0] == logs[1]


def test_rules_commander_only_returns_listed_actions() -> None:
    """The rules commander chooses among the legal actions it is given (every phase)."""
    a, b = Checked(get_commander("rules")), Checked(get_commander("rules"))
    _, state = play_game(_sample("melee-300"), _sample("shooty-300"), [a, b], seed=1)
    kinds = {e["action"] for e in state.log.of_kind("activate")}
    assert {"advance", "charge"} <= kinds


class Broken:
    """Charges a unit that does not exist whenever it may activate."""

    name = "broken"

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if actions[0].kind in (Kind.PLACE_OBJECTIVE, Kind.DEPLOY, Kind.CHOOSE_ZONE):
            return actions[0]
        return Action(Kind.CHARGE, actions[0].unit, target="B99")


def test_broken_commander_gets_a_clear_error() -> None:
    """An illegal action is refused with IllegalActionError naming the commander and action."""
    with pytest.raises(IllegalActionError) as info:
        play_game(line(), line(), [Broken(), get_commander("rules")], seed=0)
    text = str(info.value)
    assert "commander 'broken'" in text and "side 1" in text
    assert "charge A" in text and "at B99" in text


def test_unknown_commander_name() -> None:
    """A bad name lists the commanders there are."""
    with pytest.raises(UnknownNameError, match="random or rules"):
        get_commander("clever")


def _mirror(name: str, seeds: range, first: str, second: str) -> dict[str | None, int]:
    army = _sample(name)
    wins: dict[str | None, int] = {}
    for seed in seeds:
        for flip in (False, True):
            names = (second, first) if flip else (first, second)
            commanders = [get_commander(n, seed + i) for i, n in enumerate(names)]
            result, _ = play_game(army, army, commanders, seed=seed)
            who = None if result.winner is None else names[result.winner]
            wins[who] = wins.get(who, 0) + 1
    return wins


def test_rules_commander_beats_random_in_at_least_95_percent() -> None:
    """Mirror match (melee-150 on both sides), 10 seeds x both side assignments = 20 games:
    the rules commander must win at least 95% (19 of 20; draws count against it). At 20 of 20
    the 95% Wilson interval is [0.84, 1.00]; at 19 of 20, [0.76, 0.99]."""
    wins = _mirror("melee-150", range(10), "rules", "random")
    n = sum(wins.values())
    assert n == 20
    assert wins.get("rules", 0) >= 19, (wins, wilson(wins.get("rules", 0), n))


def test_rules_mirror_splits_about_evenly_between_sides() -> None:
    """Rules against rules on one list (elite-150), 30 seeds: neither side (A deploys at
    y = 0) should win most decisive games. If sides were fair, A's share of ~25 decisive
    games falls in [0.2, 0.8] with probability over 99.5%; the 95% Wilson interval of the
    observed share must contain 0.5."""
    army = _sample("elite-150")
    by_side = [0, 0]
    for seed in range(30):
        commanders = [get_commander("rules"), get_commander("rules")]
        result, _ = play_game(army, army, commanders, seed=seed)
        if result.winner is not None:
            by_side[result.winner] += 1
    decisive = sum(by_side)
    assert decisive >= 15
    share = wilson(by_side[0], decisive)
    assert 0.2 <= by_side[0] / decisive <= 0.8, by_side
    assert share.low <= 0.5 <= share.high, (by_side, share)


def test_rules_commander_shoots_the_target_it_damages_most() -> None:
    """After Hold the rules commander fires (never holds fire with a target in range), and at
    the target where it expects to remove the most points: here the near squad, which the
    Flamer (12") also reaches, or a split sending the Flamer there."""
    state = gff.new_game(specials(), line(), seed=0)
    clear_table(state)
    put(state, "A3", (24.0, 8.0))
    put(state, "B2", (24.0, 17.0))
    put(state, "B3", (40.0, 30.0))
    state.phase, state.round, state.active = Phase.ACTIVATION, 1, 0
    gff.apply(state, Action(Kind.HOLD, "A3"))
    choice = get_commander("rules").choose(state, gff.legal_actions(state))
    assert choice.kind is Kind.SHOOT and choice.target
    assert "B2" in (choice.target, choice.second)
    assert choice.target == "B2" or choice.split == ("Flamer",)


def test_rules_commander_spends_its_bennies() -> None:
    """seed 000 "Bennies": spending is the commander's choice; the rules commander spends one
    on an extra shooting attack when it has one to spare for each round left."""
    commanders = [get_commander("rules"), get_commander("rules")]
    _, state = play_game(
        _sample("shooty-150"), _sample("melee-150"), commanders, seed=3, mechanic="clock-bennies"
    )
    spent = [e for e in state.log.of_kind("benny") if e["side"] == 0]
    assert 1 <= len(spent) <= 4
    assert gff.bennies_available(state, 0) == 4 - len(spent)
