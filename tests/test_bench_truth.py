"""bench.decision_truth: a recorded decision's candidates played out to the game's end, and a
search form's view of them (issue 14's decision-level measurement)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from bench import decision_truth as dt
from bench.search_pairs import register

from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.players.rules_commander import RulesCommander
from oprlab.players.search import PORTFOLIO, R3_BUDGET, SearchCommander, value

SEED = 11


def test_a_decision_is_played_out_per_candidate_to_the_end() -> None:
    row = dt.truth(("gff", SEED, 3, 2, 2, "rules", "activation"))
    assert row["index"] == 3 and len(row["cands"]) == 2
    state, actions = dt.decisions("gff", SEED)[3]
    assert row["cands"][0] == str(RulesCommander(0).choose(state, actions))  # the rules pick first
    assert row["cands"][0] != row["cands"][1]
    for shares in row["shares"]:
        assert len(shares) == 2 and set(shares) <= {0.0, 0.5, 1.0}


def test_a_deployment_is_played_out_from_places_spread_over_the_zone(
    tmp_path: Path, capsys: object
) -> None:
    """``--phase deploy``: the rules pick's unit at the rules pick's place and at the places
    farthest from those taken; judged by the oracle alone (the search weighs no deployment)."""
    seen = dt.decisions("gff", SEED, "rules", "deploy")
    state, actions = seen[0]
    pick = RulesCommander(0).choose(state, actions)
    spread = dt.spread_deploys(actions, pick, 3)
    assert spread[0] == pick and len({a.to for a in spread}) == 3
    assert all(a.unit == pick.unit for a in spread)
    assert spread[1].to is not None and pick.to is not None
    others = [a for a in actions if a.unit == pick.unit and a.to is not None]
    far = max(math.dist(a.to or pick.to, pick.to) for a in others)
    assert math.dist(spread[1].to, pick.to) == far  # the farthest place from the pick
    row = dt.truth(("gff", SEED, 0, 2, 3, "rules", "deploy"), seen)
    assert row["phase"] == "deploy" and row["cands"] == [str(a) for a in spread]
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    dt.judge(str(path), ["search:4"], 1, [0.0])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "oracle alone" in out and "oracle over 3" in out and "search:4" not in out


def test_a_rollout_is_its_dice() -> None:
    state, actions = dt.decisions("gff", SEED)[5]
    rules, policy = find_system("gff"), RulesCommander(0)
    pick = policy.choose(state, actions)
    one, two = (dt.rollout(rules, state, pick, 99, policy) for _ in range(2))
    assert one.done and two.done and one.winner == two.winner
    assert value(one, 0) == value(two, 0)
    assert not state.done  # played on copies: the recorded state is untouched


def test_judge_scores_a_form_against_the_truth(tmp_path: Path, capsys: object) -> None:
    rows = [dt.truth(("gff", SEED, i, 2, 2, "rules", "activation")) for i in (1, 2)]
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    means, nodes = dt.judge_game(
        ("search:4", "gff", SEED, "rules", [1, 2], [r["cands"] for r in rows], "activation")
    )
    assert nodes > 0 and all(m[0] is not None and m[1] is not None for m in means)
    dt.judge(str(path), ["search:4"], 1, [0.0])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "search:4" in out and "decisions    2" in out and "oracle over 2" in out


def test_a_form_plays_its_best_candidate_only_above_the_rules_picks_mean() -> None:
    """``chosen``: as SearchCommander.choose (the earlier of equals), over any number of
    candidates, ``None`` for one the form did not weigh; a margin holds the rules pick."""
    assert dt.chosen([1.0, 3.0, 2.0], 0.0) == 1
    assert dt.chosen([1.0, 2.0, 3.0, None], 0.0) == 2
    assert dt.chosen([3.0, 3.0, 1.0], 0.0) == 0  # a tie keeps the rules pick
    assert dt.chosen([1.0, 2.0, 2.0], 0.0) == 1  # equals: the earlier
    assert dt.chosen([1.0, 2.5, None], 2.0) == 0 and dt.chosen([1.0, 3.5], 2.0) == 1
    assert dt.chosen([1.0, float("-inf")], 0.0) == 0  # dropped by the sure rule
    assert dt.chosen([None, 5.0], 0.0) == 0


def test_a_stopped_run_resumes(tmp_path: Path, capsys: object) -> None:
    """Rows already in OUT are not played again (bench.harness.rows_done / append_rows)."""
    out = str(tmp_path / "t.jsonl")
    argv = [out, "1", "--per", "1", "--rollouts", "2", "--k", "2", "--from", "5"]
    dt.main(argv)
    first = Path(out).read_text(encoding="utf-8").splitlines()
    assert len(first) == 1 and json.loads(first[0])["shares"]
    dt.main(argv)
    assert Path(out).read_text(encoding="utf-8").splitlines() == first
    assert "1 decisions already played out" in capsys.readouterr().err  # type: ignore[attr-defined]


def test_search_pairs_variants_keep_r3s_budget() -> None:
    """A ``sx-`` variant without ``b`` plays at 24 (the budget its documented runs used), with
    ``b`` at that budget."""
    for name in ("sx-r1-o8", "sx-r1-b48"):
        register(name)
    plain, longer = get_commander("sx-r1-o8"), get_commander("sx-r1-b48")
    assert isinstance(plain, SearchCommander) and isinstance(longer, SearchCommander)
    assert plain.budget == R3_BUDGET == 24 and plain.own == 8
    assert longer.budget == 48 and longer.own == 0


def test_a_variant_may_play_out_to_the_games_end() -> None:
    """``sx-s1-h9999-e1-g1``: one sample a candidate, played past the round's end to the
    game's end (``through``), valued by the result (``endgame``); without ``g1`` the playout
    stops at the round's end."""
    for name in ("sx-s1-h9999-e1-g1", "sx-s1-h9999-e1"):
        register(name)
    state, _ = dt.decisions("gff", SEED)[3]
    rules = find_system("gff")
    for name, through in (("sx-s1-h9999-e1-g1", True), ("sx-s1-h9999-e1", False)):
        c = get_commander(name, 0)
        assert isinstance(c, SearchCommander) and c.through is through and c.endgame
        game = state.clone()
        c._play_on(rules, game, state.round, 0, 9999)
        assert game.done is through and (game.round == state.round + 1) is not through


def test_decisions_of_a_searched_game_are_the_searching_sides() -> None:
    """With a player the game is that player (seat ``seed % 2``) against the rules commander,
    and only its activations are recorded: the states the search reaches, replayed alike."""
    seen = dt.decisions("gff", SEED, "search:4")
    again = dt.decisions("gff", SEED, "search:4")
    assert seen and all(state.active == SEED % 2 for state, _ in seen)
    assert [str(a) for _, a in seen] == [str(a) for _, a in again]
    rows = dt.game_truths(("gff", SEED, "search:4", 2, 2, 2, [], "activation"))
    assert len(rows) == 2 and all(r["player"] == "search:4" for r in rows)
    assert (
        dt.game_truths(("gff", SEED, "search:4", 2, 2, 2, [r["index"] for r in rows], "activation"))
        == []
    )


def test_a_portfolio_weighs_other_scripts_picks(tmp_path: Path, capsys: object) -> None:
    """``--phase portfolio``: the decisions where a script of :data:`PORTFOLIO` picks otherwise
    than the rules commander, its candidates the distinct picks (the rules pick first); the
    judge gives each script's gain, the oracle and a portfolio search form's gain."""
    rows = dt.game_truths(("gff", SEED, "rules", 2, 2, 2, [], "portfolio"))
    assert len(rows) == 2
    seen = dt.decisions("gff", SEED, "rules", "portfolio")
    for r in rows:
        state, actions = seen[r["index"]]
        picks = [str(get_commander(n, 0).choose(state, actions)) for n in PORTFOLIO]
        assert r["cands"][0] == str(RulesCommander(0).choose(state, actions))
        assert r["by"] == dict(zip(PORTFOLIO, picks, strict=True))
        assert set(r["cands"]) == {r["cands"][0], *picks} and len(set(r["cands"])) > 1
        differ, asked = r["of"]
        assert differ == len(seen) and asked > differ
    register("sx-p1-b8")  # the portfolio search weighs exactly the recorded candidates
    means, nodes = dt.judge_game(
        (
            "sx-p1-b8",
            "gff",
            SEED,
            "rules",
            [r["index"] for r in rows],
            [r["cands"] for r in rows],
            "portfolio",
        )
    )
    assert nodes > 0 and all(m is not None for ms in means for m in ms)
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    dt.judge(str(path), ["sx-p1-b8"], 1, [0.0])
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "rules-v1" in out and "oracle over 2" in out and "sx-p1-b8" in out
