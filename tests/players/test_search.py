"""The search commander (issue 14, item 2): legal, seeded and replayable, blind to the real
game's dice, and its value and candidates as its docstrings say."""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.game import gff
from oprlab.game.actions import ACTIVATIONS, Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState, Objective, Phase
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system
from oprlab.players import Commander, get_commander
from oprlab.players.rules.style import STYLES
from oprlab.players.rules_commander import OBJECTIVE_VALUE, RulesCommander
from oprlab.players.search import (
    DEFAULT_BUDGET,
    LAST_ROUND_MARKER,
    OWN_SAMPLES,
    PORTFOLIO,
    R3_BUDGET,
    REPLIES,
    RESULT,
    WIDE,
    SearchCommander,
    _strata,
    candidates,
    scripts_picks,
    value,
)
from oprlab.rng import commander_stream
from tests.game import clear_table, line, play_setup, put, specials


def _scene() -> GameState:
    """Line against Line on an empty table, round 1: A2 on marker 0, marker 1 B's from before;
    B's Captain (40 pts, Tough(3)) carries 2 wounds, A3 (40 pts, 3 models) has lost one."""
    state = gff.new_game(line(), line(), seed=0)
    clear_table(state)
    state.phase, state.round, state.active = Phase.ACTIVATION, 1, 0
    state.objectives = [Objective((24.0, 24.0)), Objective((10.0, 10.0), controller=1)]
    put(state, "A2", (24.0, 24.0))
    put(state, "B1", (40.0, 40.0)).markers = 2
    put(state, "A3", (40.0, 10.0)).models = 2
    return state


def test_value_counts_markers_as_they_would_settle_and_points_lost() -> None:
    """Mission (seed 003): a marker is seized by the only side within 3", kept when nobody is
    near, neutral when contested; Shaken units neither seize nor contest. Markers held: A 1
    (seized), B 1 (kept): even. Points: B lost 2/3 of a 40-point model (80/3), A one of three
    40-point models (40/3): A is 40/3 up, and B sees the same swing the other way."""
    state = _scene()
    assert value(state, 0) == pytest.approx(40 / 3)
    assert value(state, 1) == pytest.approx(-40 / 3)
    put(state, "B2", (25.0, 24.0))  # contests marker 0: neutral, B still holds marker 1
    assert value(state, 0) == pytest.approx(40 / 3 - OBJECTIVE_VALUE)
    state.units["B2"].shaken = True  # Shaken: no longer contests
    assert value(state, 0) == pytest.approx(40 / 3)


def test_endgame_value_counts_markers_alone_at_the_end() -> None:
    """Mission (seed 003) 7-8: "Game ends after 4 rounds", "Player controlling most markers
    wins": with ``endgame``, a marker in the last round is worth :data:`LAST_ROUND_MARKER` (the
    points only break ties), and a finished game :data:`RESULT` to the winner. The scene of
    the test above: A 40/3 points up; B2 contests marker 0 so B holds one marker more."""
    state = _scene()
    put(state, "B2", (25.0, 24.0))
    assert value(state, 0, endgame=True) == pytest.approx(40 / 3 - OBJECTIVE_VALUE)  # round 1
    state.round = state.rounds
    assert value(state, 0, endgame=True) == pytest.approx(40 / 3 - LAST_ROUND_MARKER)
    assert value(state, 0) == pytest.approx(40 / 3 - OBJECTIVE_VALUE)  # without: as before
    state.done, state.winner = True, 1
    assert value(state, 0, endgame=True) == pytest.approx(40 / 3 - RESULT)
    assert value(state, 1, endgame=True) == pytest.approx(RESULT - 40 / 3)
    state.winner = None  # a draw: the points alone
    assert value(state, 1, endgame=True) == pytest.approx(-40 / 3)


def _first_activation(seed: int) -> tuple[GameState, Sequence[Action]]:
    state = play_setup(gff.new_game(line(), specials(), seed=seed), RulesCommander().choose)
    actions = gff.legal_actions(state)
    assert any(a.kind in ACTIVATIONS for a in actions)
    return state, actions


def test_candidates_are_the_rules_choice_then_other_units_or_kinds() -> None:
    """The rules commander's choice first, then at most k - 1 others, no two of one unit and
    kind."""
    state, actions = _first_activation(2)
    guide = RulesCommander()
    pick = guide.choose(state, actions)
    cands = candidates(guide, state, actions, pick, 3)
    assert cands[0] == pick and len(cands) == 3
    assert len({(a.unit, a.kind) for a in cands}) == 3
    assert all(a in actions for a in cands)


def _portfolio_activations() -> tuple[tuple[GameState, Sequence[Action]], ...]:
    """Two activations of a rules game (seed 2): the first where a portfolio script picks
    otherwise than the rules commander, and the first where every script agrees with it."""
    scripts = [RulesCommander(0, STYLES[n]) for n in PORTFOLIO]
    state = play_setup(gff.new_game(line(), specials(), seed=2), RulesCommander().choose)
    guide = RulesCommander()
    found: dict[bool, tuple[GameState, Sequence[Action]]] = {}
    while not state.done and len(found) < 2:
        actions = gff.legal_actions(state)
        pick = guide.choose(state, actions)
        if any(a.kind in ACTIVATIONS for a in actions):
            differ = any(s.choose(state, actions) != pick for s in scripts)
            found.setdefault(differ, (state.clone(), actions))
        gff.apply(state, pick)
    return found[True], found[False]


def test_a_portfolio_weighs_the_scripts_picks() -> None:
    """``portfolio`` 1: the candidates are the rules pick and the scripts' distinct picks, in
    :data:`PORTFOLIO`'s order; 2: the rules scorer's ``k`` candidates, then the scripts' picks
    not among them; a decision where every script agrees is not played out."""
    (state, actions), (agreed, same) = _portfolio_activations()
    guide = RulesCommander()
    pick = guide.choose(state, actions)
    picks = [RulesCommander(0, STYLES[n]).choose(state, actions) for n in PORTFOLIO]
    distinct = [pick] + [p for i, p in enumerate(picks) if p != pick and p not in picks[:i]]
    scripts = [RulesCommander(0, STYLES[n]) for n in PORTFOLIO]
    assert scripts_picks(scripts, state, actions, pick) == distinct and len(distinct) > 1
    one = SearchCommander(seed=1, budget=8, portfolio=1)
    cands, means = one.weigh(state, actions, pick)
    assert cands == distinct and len(means) == len(cands) and one.nodes > 0
    both = SearchCommander(seed=1, budget=8, portfolio=2)
    cands, _ = both.weigh(state, actions, pick)
    scored = candidates(guide, state, actions, pick, 2)
    assert cands == scored + [a for a in distinct if a not in scored]
    quiet = SearchCommander(seed=1, budget=8, portfolio=1)
    assert quiet.choose(agreed, same) == guide.choose(agreed, same) and quiet.nodes == 0
    wide = SearchCommander(seed=1, budget=8, portfolio=3)
    assert [c.style for c in wide.scripts] == list(WIDE) and not wide.union
    assert [c.style.name for c in one.scripts] == list(PORTFOLIO) == [s.name for s in WIDE[:3]]
    assert len({s.name for s in WIDE}) == len(WIDE)  # each script another policy


def test_from_the_late_round_each_candidate_is_played_to_the_games_end() -> None:
    """``late``: from that round on the candidates are weighed as the whole-game form weighs
    them (``late_samples`` playouts each to the game's end, valued by the game's result, dice common
    to the candidates, the same stream): the same means and nodes as that form; before that
    round, as the form without ``late``."""
    (state, actions), _ = _portfolio_activations()
    pick = RulesCommander().choose(state, actions)
    whole = SearchCommander(
        seed=1, samples=3, horizon=10**9, endgame=True, through=True, portfolio=1
    )
    closing = SearchCommander(seed=1, budget=8, portfolio=1, late=state.round, late_samples=3)
    assert closing.weigh(state, actions, pick) == whole.weigh(state, actions, pick)
    assert closing.nodes == whole.nodes > 0
    early = SearchCommander(seed=1, budget=8, portfolio=1, late=state.round + 1)
    plain = SearchCommander(seed=1, budget=8, portfolio=1)
    assert early.weigh(state, actions, pick) == plain.weigh(state, actions, pick)
    assert early.nodes == plain.nodes


def test_search_leaves_the_real_game_and_its_dice_alone() -> None:
    """Playouts run on copies with their own dice: after a searched decision the game's units,
    log and dice generator are exactly as before, and the choice is a listed action."""
    state, actions = _first_activation(3)
    before = pickle.dumps((state.units, state.log.events, state.rng.bit_generator.state))
    search = SearchCommander(seed=5, budget=12)
    choice = search.choose(state, actions)
    assert choice in actions and search.nodes > 0
    assert pickle.dumps((state.units, state.log.events, state.rng.bit_generator.state)) == before


@pytest.mark.parametrize("searcher", ["search:6", "search-portfolio:6"])
def test_search_games_replay_from_the_seed(searcher: str) -> None:
    """One seed is one game with a search commander (budget 6, either seat)."""
    logs = []
    for _ in range(2):
        names = (searcher, "rules")
        cs = [get_commander(n, commander_stream(8, i)) for i, n in enumerate(names)]
        result, state = play_game(line(), specials(), cs, seed=8)
        logs.append(state.log.events)
        assert result.commanders == (searcher, "rules")
    assert logs[0] == logs[1]


def test_search_specs() -> None:
    """``search`` is the default budget, ``search:N`` a budget of N, noise after it; a budget
    must be a whole number from 1."""
    assert get_commander("search").name == "search"
    assert get_commander("search:50").name == "search:50"
    assert get_commander("search:50:0.1").name == "search:50:0.1"
    for bad in ("search:0", "search:x", "search:1.5", "search:-3", "search:99999999"):
        with pytest.raises(OptionError, match="search:N with N from 1") as info:
            get_commander(bad)
        assert repr(bad) in str(info.value)
    end = get_commander("search-end:30")
    assert isinstance(end, SearchCommander) and end.endgame and end.budget == 30
    assert get_commander("search-end").name == "search-end"
    with pytest.raises(OptionError, match="search-end:N with N from 1"):
        get_commander("search-end:0")


def _rigged(
    monkeypatch: pytest.MonkeyPatch, search: SearchCommander, rows: dict[Action, list[float]]
) -> SearchCommander:
    """``search`` with each candidate's playout values set by hand, one per dice sample."""
    left = {a: iter(v) for a, v in rows.items()}

    def playout(
        rules: RuleSystem, state: GameState, action: Action, seed: int, horizon: int
    ) -> float:
        return next(left[action])

    monkeypatch.setattr(search, "_playout", playout)
    return search


def _as_is(
    rules: RuleSystem, game: float, side: int, start: int, nodes: int, cont: int, horizon: int
) -> float:
    """A continuation that changes nothing: the sample's "game", set by hand, is its value."""
    return game


def test_sure_plays_an_alternative_only_when_it_wins_every_common_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sure rule: the rules commander's choice (candidate 0) is left only for a candidate
    whose playout beats it on every common dice sample; the flat rule plays the best mean.
    Values per sample set by hand: the alternative is ahead on the mean (+30, -10: mean +10)
    but behind on one sample, so the sure rule keeps the pick and the flat rule does not."""
    state, actions = _first_activation(2)
    guide = RulesCommander()
    cands = candidates(guide, state, actions, guide.choose(state, actions), 2)
    for sure, played in ((False, 1), (True, 0)):
        search = SearchCommander(seed=5, budget=8, samples=2, sure=sure)
        _rigged(monkeypatch, search, {cands[0]: [0.0, 0.0], cands[1]: [30.0, -10.0]})
        assert search.choose(state, actions) == cands[played]
        assert (search.searched, search.changed) == (1, played)
    search = SearchCommander(seed=5, budget=8, samples=2, sure=True)
    ahead = {cands[0]: [0.0, 0.0], cands[1]: [30.0, 1.0]}  # ahead on both samples
    _rigged(monkeypatch, search, ahead)
    assert search.choose(state, actions) == cands[1]


def test_search_forms() -> None:
    """``search`` is the best mean over two samples (the dice split after the candidate's
    activation, with extra samples of it), ``search-v2`` the same over whole playouts,
    ``search-sure`` the sure rule over three (horizon 24 / (2 x 3) = 4 decisions), each with a
    budget after a colon."""
    search = get_commander("search")
    assert isinstance(search, SearchCommander) and not search.sure and search.samples == 2
    assert search.reseed and search.own == OWN_SAMPLES  # the dice split after the activation
    old = get_commander("search-v2:30")  # search r2: whole playouts on one stream each
    assert isinstance(old, SearchCommander) and not old.reseed and old.own == 0
    assert old.name == "search-v2:30" and old.budget == 30
    sure = get_commander("search-sure:30")
    assert isinstance(sure, SearchCommander) and sure.sure and sure.samples == 3
    assert sure.name == "search-sure:30" and sure.budget == 30
    assert get_commander("search-sure").name == "search-sure"
    with pytest.raises(OptionError, match="search-sure:N with N from 1"):
        get_commander("search-sure:0")


def test_search_budgets() -> None:
    """``search`` r4 plays at :data:`DEFAULT_BUDGET` (48); ``search-v3`` is r3's form at 24 and
    every older form keeps 24, so their games are the ones measured; ``:N`` overrides each, and
    a form's own budget is the one its name leaves out."""
    search, v3 = get_commander("search"), get_commander("search-v3")
    assert isinstance(search, SearchCommander) and isinstance(v3, SearchCommander)
    assert DEFAULT_BUDGET == 48 and search.budget == 48 and search.name == "search"
    assert v3.budget == R3_BUDGET == 24 and v3.name == "search-v3" and v3.own == OWN_SAMPLES
    assert get_commander("search:24").name == "search:24"
    assert get_commander("search-v3:48").name == "search-v3:48"
    for form in ("search-v2", "search-end", "search-sure", "search-reply", "search-portfolio"):
        c = get_commander(form)
        assert isinstance(c, SearchCommander) and c.budget == R3_BUDGET and c.name == form
    portfolio = get_commander("search-portfolio:12")
    assert isinstance(portfolio, SearchCommander) and portfolio.name == "search-portfolio:12"
    assert len(portfolio.scripts) == len(PORTFOLIO) and not portfolio.union
    assert portfolio.own == OWN_SAMPLES and portfolio.budget == 12


def test_split_dice_average_the_activation_over_its_extra_samples(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the dice split after the candidate's own activation, a candidate's estimate is the
    mean value just after its activation over every sample (the full ones and ``own`` extra
    ones) plus each full sample's change over its continuation. Values set by hand: the
    alternative's one full sample rolled a lucky 40 on its own attack (then nothing changed),
    its three extra rolls 0, 0, 20: its estimate is (40 + 0 + 0 + 20) / 4 = 15, against the
    rules choice's 0 + 10; with rolls of 0, 0, 0 it is 10, a tie, and the rules choice
    stays."""
    state, actions = _first_activation(2)
    guide = RulesCommander()
    cands = candidates(guide, state, actions, guide.choose(state, actions), 2)
    for extra, played in (([0.0, 0.0, 20.0], 1), ([0.0, 0.0, 0.0], 0)):
        # per sample (value just after the activation, value at the continuation's end)
        rows = {cands[0]: [(0.0, 10.0), (0.0, 0.0), (0.0, 0.0), (0.0, 0.0)]}
        rows[cands[1]] = [(40.0, 40.0)] + [(x, x) for x in extra]
        search = SearchCommander(seed=5, budget=8, samples=1, own=3)

        def activations(
            rules: RuleSystem,
            state: GameState,
            action: Action,
            seeds: Sequence[int],
            keep: int,
            rows: dict[Action, list[tuple[float, float]]] = rows,
        ) -> list[tuple[float, Any, int]]:
            return [(post, end, 1) for post, end in rows[action]]

        monkeypatch.setattr(search, "_activations", activations)
        monkeypatch.setattr(search, "_continue", _as_is)
        assert search.choose(state, actions) == cands[played]


def test_halving_drops_the_worst_candidate_after_the_first_sample(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Successive halving: every candidate plays its first sample, the worse half (at most down
    to two) is dropped, and only the rest play on. Values set by hand (no extra samples, so a
    sample's value is its continuation's end): three candidates score 10, 5 and -5 on the first
    sample; the third is dropped, so its second sample (1,000) is never played, and of the two
    left the second wins on 5 + 30 against 10 + 10. Five continuations are played in all."""
    state, actions = _first_activation(2)
    guide = RulesCommander()
    cands = candidates(guide, state, actions, guide.choose(state, actions), 3)
    ends = {cands[0]: [10.0, 10.0], cands[1]: [5.0, 30.0], cands[2]: [-5.0, 1000.0]}
    played: list[float] = []
    search = SearchCommander(seed=5, k=3, halve=True)

    def activations(
        rules: RuleSystem, state: GameState, action: Action, seeds: Sequence[int], keep: int
    ) -> list[tuple[float, Any, int]]:
        return [(0.0, end, 1) for end in ends[action]]

    def counted(
        rules: RuleSystem, game: float, side: int, start: int, nodes: int, cont: int, horizon: int
    ) -> float:
        played.append(game)
        return game

    monkeypatch.setattr(search, "_activations", activations)
    monkeypatch.setattr(search, "_continue", counted)
    assert search.choose(state, actions) == cands[1]
    assert sorted(played) == [-5.0, 5.0, 10.0, 10.0, 30.0]


def test_strata_play_on_one_sample_per_stratum_of_the_outcomes() -> None:
    """Expectimax over outcome buckets, the buckets' chances estimated by samples: six samples
    of an activation worth 30, 0, 10, 0, 20, 0 just after it, cut into two strata of three
    (0, 0, 0 and 10, 20, 30), play on from each stratum's median (the second 0, sample 3, and
    the 20, sample 4). When every sample is worth the same, the first ones."""
    rows = [(v, f"game {i}", 1) for i, v in enumerate([30.0, 0.0, 10.0, 0.0, 20.0, 0.0])]
    assert _strata(rows, 2) == [rows[3], rows[4]]
    assert _strata(rows, 3) == [rows[3], rows[2], rows[0]]
    same = [(5.0, f"game {i}", 1) for i in range(6)]
    assert _strata(same, 2) == same[:2]


def test_split_dice_search_is_blind_to_the_real_dice_and_replays() -> None:
    """The split search also plays on copies with their own dice: the real game is unchanged,
    and two commanders from one seed choose the same; a playout's value just after the
    activation alone (no continuation) is its value at its end too."""
    state, actions = _first_activation(3)
    before = pickle.dumps((state.units, state.log.events, state.rng.bit_generator.state))
    choices = [SearchCommander(seed=5, budget=12, own=2).choose(state, actions) for _ in "ab"]
    assert choices[0] == choices[1] and choices[0] in actions
    assert pickle.dumps((state.units, state.log.events, state.rng.bit_generator.state)) == before
    search = SearchCommander(seed=5, budget=12, own=2)
    ((post, game, nodes),) = search._activations(find_system("gff"), state, actions[0], [1], 1)
    assert value(game, state.active) == post and search.nodes == nodes >= 1


def _from_scratch(state: GameState, action: Action, seed: int) -> float:
    """The value for the side to act just after ``action``'s activation on a copy rolling
    ``seed``, played the long way: a copy, the action, the rules commander to the activation's
    end."""
    rules, policy = find_system("gff"), RulesCommander()
    game = state.clone()
    game.rng = np.random.Generator(np.random.PCG64(seed))
    rules.apply(game, action)
    while not game.done:
        actions = rules.legal_actions(game)
        if not actions or any(a.kind in ACTIVATIONS for a in actions):
            break
        rules.apply(game, policy.choose(game, actions))
    return value(game, state.active)


def test_activation_samples_share_the_work_before_the_first_die() -> None:
    """The samples of a candidate's activation start from one moved copy when the action rolls
    nothing, and share one value when the activation rolls nothing: a speed-up only, so each
    sample's value is the one its seed gives from scratch. Seen over every activation of the
    scene (Holds and Advances that shoot, Rushes that roll no die, Charges that fight: round
    2 of a rules game), with the seeds' values set against :func:`_from_scratch`."""
    state, actions = _first_activation(3)
    rules, guide = find_system("gff"), RulesCommander()
    while state.round < 2 or not any(a.kind in ACTIVATIONS for a in actions):
        rules.apply(state, guide.choose(state, actions))
        actions = rules.legal_actions(state)
    seeds = [11, 12, 13, 14]
    rolled = set()
    for action in candidates(guide, state, actions, actions[0], 12):
        search = SearchCommander(seed=5)
        after = search._activations(rules, state, action, seeds, 2)
        assert [post for post, _, _ in after] == [_from_scratch(state, action, s) for s in seeds]
        assert [game is not None for _, game, _ in after] == [True, True, False, False]
        rolled.add(len({post for post, _, _ in after}) > 1)
    assert rolled == {True, False}  # some activations rolled dice that mattered, some not


def test_reply_ply_plays_the_candidate_whose_worst_reply_is_best(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Max-min over the enemy's pruned replies, expectimax over the dice (issue 14 item 2:
    "the opponent's reply"). Values set by hand, one sample, per reply (the rules pick's
    first): the rules choice leaves the enemy a reply worth -20 to us (its own pick is worth
    +10), the alternative's replies are worth +5 and 0. Scored by the rules pick's reply alone
    (``search``) the rules choice wins, 10 to 5; by the worst reply the alternative, 0 to -20;
    half on each (``worst`` 0.5), the alternative again, 2.5 to -5."""
    state, actions = _first_activation(2)
    guide = RulesCommander()
    cands = candidates(guide, state, actions, guide.choose(state, actions), 2)
    ends = {cands[0]: [10.0, -20.0], cands[1]: [5.0, 0.0]}
    for replies, worst, played in ((1, 1.0, 0), (2, 1.0, 1), (2, 0.5, 1)):
        search = SearchCommander(seed=5, samples=1, replies=replies, worst=worst)

        def activations(
            rules: RuleSystem, state: GameState, action: Action, seeds: Sequence[int], keep: int
        ) -> list[tuple[float, Any, int]]:
            return [(0.0, action, 1)]

        def reply_values(
            rules: RuleSystem,
            game: Action,
            side: int,
            start: int,
            nodes: int,
            cont: int,
            horizon: int,
            n: int = replies,
        ) -> list[float]:
            return ends[game][:n]

        monkeypatch.setattr(search, "_activations", activations)
        monkeypatch.setattr(search, "_replies", reply_values)
        assert search.choose(state, actions) == cands[played]


def _reply_by_hand(state: GameState, reply: Action, cont: int, horizon: int) -> float:
    """The enemy's ``reply`` on a copy rolling ``cont``, the rest of its activation (its shot,
    fight...), then the rules commander for both sides to ``horizon`` decisions in all or the
    round's end: the value for the side that waited."""
    rules, policy = find_system("gff"), RulesCommander()
    game = state.clone()
    game.rng = np.random.Generator(np.random.PCG64(cont))
    rules.apply(game, reply)
    nodes = 1
    while not game.done and game.round == state.round:
        actions = rules.legal_actions(game)
        if nodes >= horizon and any(a.kind in ACTIVATIONS for a in actions):
            break
        rules.apply(game, policy.choose(game, actions))
        nodes += 1
    return value(game, 1 - state.active)


def test_replies_are_the_enemys_candidates_played_on_the_common_dice() -> None:
    """At the enemy's activation the reply ply plays each of its candidates (its rules pick
    first) on the same continuation dice, each to the end of its own activation even past the
    horizon (a move is judged with its shot), then on to the horizon: each as if played from
    scratch. With one reply it is ``search``'s continuation; at our own activation, too. The
    scene: round 2 of a rules game, where the replies are a charge (a fight follows), an
    Advance (a shot follows) and a Rush."""
    state, actions = _first_activation(3)
    rules, guide = find_system("gff"), RulesCommander()
    while state.round < 2 or not any(a.kind in ACTIVATIONS for a in actions):
        rules.apply(state, guide.choose(state, actions))
        actions = rules.legal_actions(state)
    waiting = 1 - state.active
    answers = candidates(guide, state, actions, guide.choose(state, actions), 3)
    assert [a.kind for a in answers] == [Kind.CHARGE, Kind.ADVANCE, Kind.RUSH]
    for horizon in (2, 5):
        search = SearchCommander(seed=5, replies=3)
        ends = search._replies(rules, state.clone(), waiting, state.round, 1, 77, horizon)
        assert ends == [_reply_by_hand(state, a, 77, horizon - 1) for a in answers]
        assert search.nodes >= 3
    alone = SearchCommander(seed=5)
    plain = alone._continue(rules, state.clone(), waiting, state.round, 1, 77, 5)
    assert alone._replies(rules, state.clone(), waiting, state.round, 1, 77, 5) == [plain]
    mine = search._replies(rules, state.clone(), state.active, state.round, 1, 77, 5)
    assert len(mine) == 1  # our own activation next: no reply to search


def test_search_reply_spec_and_replay() -> None:
    """``search-reply`` is ``search`` with two enemy replies searched, budget after a colon.
    Its playouts leave the real game alone, and a game's first round, searched on side A,
    replays from the seed (two commanders from one seed, the same log)."""
    reply = get_commander("search-reply:40")
    assert isinstance(reply, SearchCommander) and reply.replies == REPLIES == 2
    assert reply.own == OWN_SAMPLES and reply.worst == 1.0 and reply.name == "search-reply:40"
    with pytest.raises(OptionError, match="search-reply:N with N from 1"):
        get_commander("search-reply:0")
    start, _ = _first_activation(3)
    rules = find_system("gff")
    logs = []
    for _ in range(2):
        state = start.clone()
        before = pickle.dumps((state.units, state.rng.bit_generator.state))
        search = SearchCommander(seed=5, budget=16, replies=2)
        search.choose(state, rules.legal_actions(state))
        assert pickle.dumps((state.units, state.rng.bit_generator.state)) == before
        cs: list[Commander] = [search, RulesCommander()]
        while not state.done and state.round == start.round:
            state_actions = rules.legal_actions(state)
            rules.apply(state, cs[state.active].choose(state, state_actions))
        assert search.searched > 1 and len(state.log.events) > len(start.log.events)
        logs.append(state.log.events)
    assert logs[0] == logs[1] and logs[0] is not logs[1]


def test_keyed_dice_roll_a_units_activation_alike_whatever_came_before() -> None:
    """With keyed dice (``sx-...-u1``) each activation of a continuation rolls dice keyed on the
    sample, the round and the unit: two copies that differ only in how many dice their history
    rolled play the same activations with the same results; on one stream they do not."""
    state, _ = _first_activation(3)
    rules = find_system("gff")

    def played(key: int | None) -> list[Any]:
        games = []
        for extra in (0, 7):
            game = state.clone(np.random.Generator(np.random.PCG64(21)))
            game.rng.random(extra)  # a history that rolled more dice
            SearchCommander(seed=5, keyed=key is not None)._play_on(rules, game, 1, 0, 6, key)
            games.append(pickle.dumps((game.units, game.log.events)))
        return games

    keyed, plain = played(99), played(None)
    assert keyed[0] == keyed[1]
    assert plain[0] != plain[1]  # the scene's activations roll dice that matter
    assert played(98)[0] != keyed[0]  # another sample's key rolls other dice
