"""What each candidate of the search is worth, by whole games played out (issue 14).

The search commander picks between the rules commander's choice and its best other (unit,
kind) by short playouts valued at a horizon. Whether a search form is stronger can be asked
game by game (``bench.search_pairs``: hundreds of games per answer, since one changed choice
reseeds every later die), or decision by decision, as here: take the activations of rules
against rules games (shooty-300 against melee-300, open table, the seeds of series 14), play
each candidate on to the game's end ``R`` times with the rules commander on both sides and
dice common to the candidates, and keep each candidate's share of the points for the side to
act (a win 1, a draw 1/2). Those are the decisions' truths; a search form is then judged by
the share it gains over the rules commander's choice, averaged over the decisions
(``--judge``), for a few seconds of CPU instead of an hour of games::

    .venv/bin/python -m bench.decision_truth OUT.jsonl GAMES [--per 4] [--rollouts 64]
        [--k 3] [--system gff] [--from K] [--player search] [--phase deploy|portfolio] [--jobs 2]
    .venv/bin/python -m bench.decision_truth OUT.jsonl --judge search,sx-r1-o4-h99 [--jobs 2]

With ``--player`` the decisions are recorded from games that player (seat ``seed % 2``)
plays against the rules commander, its own activations only: the states a searching side
reaches, where the gain per decision adds up to its games' score (the performance difference
of the two policies is the sum of these gains over the states the new one visits).

With ``--phase deploy`` the decisions are deployments instead: the rules pick's place against
its unit's places farthest from those taken (:func:`spread_deploys`), which no search form
weighs (the judge gives the oracle alone): what a deployment's place is worth.

With ``--phase portfolio`` the candidates of an activation are the picks of other commanders
(:data:`PORTFOLIO`: ``rules-v1`` and the personalities) where one differs from the rules pick:
what a portfolio search (the scripts' choices weighed by playouts, issue 14's anchor) could
gain, and what each script alone gains or loses there (the judge gives the oracle and each
script's gain).

A row of OUT per decision: the game seed, the player, the decision's index among the game's
activations, the candidates (the rules pick first) and per candidate the rollouts' shares and
final point margins.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from bench.harness import append_rows, argument, flag, positional, refuse, rows_done
from bench.search_pairs import SERIES, register, share, spec
from oprlab.errors import UserError
from oprlab.game.actions import ACTIVATIONS, Action, Kind
from oprlab.game.play import play_game
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.players.rules.style import STYLES
from oprlab.players.rules_commander import RulesCommander
from oprlab.players.search import PORTFOLIO, SearchCommander, candidates, distinct, value
from oprlab.rng import MAX_SEED, child_seed

Z95 = 1.959963984540054


#: The decisions recorded: activations (what the search weighs) or deployments (which it
#: does not: how much a deployment's place is worth, against the rules commander's).
PHASES = ("activation", "deploy", "portfolio")


class _Recorder:
    """A commander (the rules commander, or ``player``) keeping a copy of the game at each
    decision of ``phase`` it makes that has a second candidate: an activation of another unit
    or kind than the rules pick (what :func:`candidates` would add, without scoring them), or
    another place for the unit the rules pick deploys, or (``portfolio``) another script's
    pick. ``asked``: the decisions of the phase, with a second candidate or not."""

    def __init__(self, player: str = "rules", seed: int = 0, phase: str = "activation") -> None:
        self.name = player
        self.guide = RulesCommander(0)
        self.player = None if player == "rules" else get_commander(player, seed)
        self.phase = phase
        self.scripts = (
            [RulesCommander(0, STYLES[n]) for n in PORTFOLIO] if phase == "portfolio" else []
        )
        self.seen: list[tuple[Any, list[Action]]] = []
        self.asked = 0

    def choose(self, state: Any, actions: Sequence[Action]) -> Action:
        pick = self.guide.choose(state, actions)
        if self.phase == "deploy":
            other = pick.kind is Kind.DEPLOY and any(
                a.unit == pick.unit and a.to != pick.to for a in actions
            )
        elif self.phase == "portfolio":
            other = any(a.kind in ACTIVATIONS for a in actions) and any(
                s.choose(state, actions) != pick for s in self.scripts
            )
        else:
            mine = (pick.unit, pick.kind)
            other = any(a.kind in ACTIVATIONS and (a.unit, a.kind) != mine for a in actions)
        self.asked += (
            pick.kind is Kind.DEPLOY
            if self.phase == "deploy"
            else any(a.kind in ACTIVATIONS for a in actions)
        )
        if other:
            self.seen.append((state.clone(), list(actions)))
        return pick if self.player is None else self.player.choose(state, actions)


def spread_deploys(actions: Sequence[Action], pick: Action, k: int) -> list[Action]:
    """``pick`` and ``k - 1`` other places for its unit, each the farthest from those already
    taken (the first of equals in the listed order): the deployment zone's corners and middle
    rather than neighbouring points, so that what a place is worth shows."""
    assert pick.to is not None
    places = [
        (a, a.to)
        for a in actions
        if a.kind is Kind.DEPLOY and a.unit == pick.unit and a.to is not None
    ]
    out, taken = [pick], [pick.to]
    while len(out) < k:
        rest = [(a, at) for a, at in places if a not in out]
        if not rest:
            break
        far, at = max(rest, key=lambda place: min(math.dist(place[1], t) for t in taken))
        out.append(far)
        taken.append(at)
    return out


def decisions(
    system: str, seed: int, player: str = "rules", phase: str = "activation"
) -> list[tuple[Any, list[Action]]]:
    """The decisions of ``phase`` with two or more candidates of game ``seed``: rules against
    rules (both sides'), or ``player`` in seat ``seed % 2`` against the rules commander (its
    own only: the states that player reaches)."""
    return _recorded(system, seed, player, phase).seen


def _recorded(system: str, seed: int, player: str, phase: str) -> _Recorder:
    """Game ``seed`` played with a recorder in the seats :func:`decisions` says."""
    m = spec().matchups[0]
    if player == "rules":
        rec = _Recorder(phase=phase)
        play_game(m.army_a, m.army_b, [rec, rec], seed=seed, log=False, system=system)
        return rec
    register(player)
    seat = seed % 2
    rec = _Recorder(player, child_seed(seed, 3), phase)
    sides: list[Any] = [RulesCommander(0), RulesCommander(0)]
    sides[seat] = rec
    play_game(m.army_a, m.army_b, sides, seed=seed, log=False, system=system)
    return rec


def rollout(rules: Any, state: Any, action: Action, dice: int, policy: RulesCommander) -> Any:
    """``action`` then the rules commander on both sides to the game's end."""
    game = state.clone(np.random.Generator(np.random.PCG64(dice)))  # as the search's copies
    rules.apply(game, action)
    while not game.done:
        actions = rules.legal_actions(game)
        if not actions:
            break
        rules.apply(game, policy.choose(game, actions))
    return game


def truth(
    task: tuple[str, int, int, int, int, str, str],
    seen: Sequence[tuple[Any, list[Action]]] | None = None,
) -> dict[str, Any]:
    """One recorded decision's candidates, each played on to the game's end ``rollouts`` times
    (the game replayed unless its ``seen`` decisions are given)."""
    system, seed, index, rollouts, k, player, phase = task
    state, actions = (decisions(system, seed, player, phase) if seen is None else seen)[index]
    rules = find_system(system)
    guide = RulesCommander(0)
    pick = guide.choose(state, actions)
    by: dict[str, Action] = {}  # each portfolio script's pick
    if phase == "deploy":
        cands = spread_deploys(actions, pick, k)
    elif phase == "portfolio":  # the candidates of a portfolio search (sx-p1), in its order
        by = {n: RulesCommander(0, STYLES[n]).choose(state, actions) for n in PORTFOLIO}
        cands = distinct([pick, *by.values()])
    else:
        cands = candidates(guide, state, actions, pick, k)
    side = state.active
    dice = np.random.Generator(np.random.PCG64([seed, index])).integers(MAX_SEED, size=rollouts)
    shares, margins = [], []
    for a in cands:
        s_row, m_row = [], []
        for d in dice:
            game = rollout(rules, state, a, int(d), guide)
            s_row.append(share(game.winner, side))
            m_row.append(round(value(game, side), 3))
        shares.append(s_row)
        margins.append(m_row)
    return {
        "system": system,
        "seed": seed,
        "index": index,
        "player": player,
        "phase": phase,
        "round": state.round,
        "side": side,
        "cands": [str(a) for a in cands],
        "by": {n: str(a) for n, a in by.items()},
        "shares": shares,
        "margins": margins,
    }


def game_truths(
    task: tuple[str, int, str, int, int, int, list[int], str],
) -> list[dict[str, Any]]:
    """The truths of ``per`` decisions of one game, chosen at random by the game's seed (less
    those in ``done``): the game is replayed once for all of them."""
    system, seed, player, per, rollouts, k, done, phase = task
    rec = _recorded(system, seed, player, phase)
    seen = rec.seen
    rng = np.random.Generator(np.random.PCG64(seed))
    picked = sorted(rng.choice(len(seen), min(per, len(seen)), replace=False))
    return [
        {
            **truth((system, seed, int(i), rollouts, k, player, phase), seen),
            "of": [len(seen), rec.asked],
        }
        for i in picked
        if int(i) not in done
    ]


def judge_game(
    task: tuple[str, str, int, str, list[int], list[list[str]], str],
) -> tuple[list[list[Any]], int]:
    """What a search form makes of each candidate at the recorded decisions of one game (of
    ``phase``: the indices are among that phase's decisions): its mean values, in the
    recorded candidates' order (``None`` where it did not weigh one), and the decisions it
    applied on copies."""
    name, system, seed, player, indices, cands, phase = task
    seen = decisions(system, seed, player, phase)
    register(name)
    out, nodes = [], 0
    for index, names in zip(indices, cands, strict=True):
        state, actions = seen[index]
        commander = get_commander(name, child_seed(seed, 7 + index))
        if not isinstance(commander, SearchCommander):
            raise SystemExit(f"error: {name!r} is not a search commander")
        pick = commander.guide.choose(state, actions)
        mine, means = commander.weigh(state, actions, pick)
        got = {str(a): m for a, m in zip(mine, means, strict=True)}
        out.append([got.get(c) for c in names])
        nodes += commander.nodes
    return out, nodes


def _mean_ci(xs: Sequence[float]) -> str:
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1))
    return f"{m:+.4f} ± {Z95 * sd / math.sqrt(len(xs)):.4f}"


def chosen(means: Sequence[float | None], margin: float) -> int:
    """The candidate a form plays given its means (``None``: not weighed): its best, the
    earlier of equals as :meth:`SearchCommander.choose` takes it, and an alternative only when
    its mean beats the rules pick's (the first) by more than ``margin`` points."""
    if means[0] is None:
        return 0
    base = means[0]
    weighed = [(m, -i) for i, m in enumerate(means) if m is not None]
    best = -max(weighed)[1]
    m = means[best]
    return best if best > 0 and m is not None and m > base + margin else 0


def judge(path: str, names: list[str], jobs: int, margins: Sequence[float]) -> None:
    """Per form: the share gained over the rules pick per decision (the truth's mean share of
    the candidate the form plays, less the rules pick's), with a 95% interval over the
    decisions, for the form as it is and with a margin (an alternative played only when its
    mean beats the rules pick's by more than the margin, in points), the paired difference
    from the first form's; and how well the form's difference of means for the second
    candidate ranks the truth's (Spearman). A form may weigh fewer candidates than were
    recorded (the first few: the same pruning) or as many."""
    rows = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()]
    if any(r.get("phase", PHASES[0]) == "deploy" for r in rows):
        print("deployments: a search form weighs activations only; the oracle alone")
        oracle(rows)
        return
    if any(r.get("phase", PHASES[0]) == "portfolio" for r in rows):
        print("portfolio: each script's gain; a form that weighs other candidates (not sx-p1)")
        print("is scored only where it plays one recorded")
        scripts(rows)
    by_game: dict[tuple[str, int, str, str], list[int]] = {}
    for i, r in enumerate(rows):
        key = (r["system"], r["seed"], r.get("player", "rules"), r.get("phase", PHASES[0]))
        by_game.setdefault(key, []).append(i)
    diffs = [_gains(r) for r in rows]
    first: list[float] = []
    for name in names:
        tasks = [
            (name, sy, seed, pl, [rows[i]["index"] for i in ii], [rows[i]["cands"] for i in ii], ph)
            for (sy, seed, pl, ph), ii in by_game.items()
        ]
        with Pool(jobs) as pool:
            got = pool.map(judge_game, tasks)
        means: list[list[Any]] = [[] for _ in rows]
        nodes = sum(n for _, n in got) / len(rows)
        for ii, (ms, _) in zip(by_game.values(), got, strict=True):
            for i, m in zip(ii, ms, strict=True):
                means[i] = m
        for margin in margins:
            picks = [chosen(m, margin) for m in means]
            gains = [t[p] for t, p in zip(diffs, picks, strict=True)]
            off = sum(p > 0 for p in picks)
            paired = ""
            if not first:
                first = gains
            elif margin == margins[0]:
                d = [a - b for a, b in zip(gains, first, strict=True)]
                paired = "  against the first " + _mean_ci(d)
            print(
                f"{name:20} margin {margin:5.0f}  decisions {len(gains):4}  off {off:4}  "
                f"gain per decision {_mean_ci(gains)}  nodes {nodes:.1f}{paired}"
            )
        finite = [
            (m[1] - m[0], t[1])
            for m, t in zip(means, diffs, strict=True)
            if len(m) > 1 and m[0] is not None and m[1] is not None and math.isfinite(m[1] - m[0])
        ]
        if len(finite) > 2:
            a = np.argsort(np.argsort([e for e, _ in finite]))
            b = np.argsort(np.argsort([t for _, t in finite]))
            print(f"{name:20} rank correlation with the truth {np.corrcoef(a, b)[0, 1]:+.3f}")
    oracle(rows)


def scripts(rows: list[dict[str, Any]]) -> None:
    """Per :data:`PORTFOLIO` script, the share its pick gains over the rules pick at the
    recorded decisions (0 where they agree), and that times the share of a game's activations
    where some script differs (``of``: such decisions and all the activations, per game)."""
    games = {(r["system"], r["seed"], r.get("player", "rules")): r.get("of", (1, 1)) for r in rows}
    differ = sum(d for d, _ in games.values()) / max(1, sum(n for _, n in games.values()))
    for name in PORTFOLIO:
        gains = []
        for r in rows:
            gains.append(_gains(r)[r["cands"].index(r["by"][name])])
        same = sum(r["by"][name] == r["cands"][0] for r in rows)
        print(
            f"{name:20} decisions {len(gains):4}  same as rules {same:4}  gain per decision"
            f" {_mean_ci(gains)}  ({differ:.2f} of activations differ)"
        )


def _gains(row: dict[str, Any]) -> list[float]:
    """Per candidate of a recorded decision, its mean share less the rules pick's."""
    means = [sum(s) / len(s) for s in row["shares"]]
    return [m - means[0] for m in means]


def oracle(rows: list[dict[str, Any]]) -> None:
    """What a perfect chooser among the candidates would gain: chosen by the first half of
    the rollouts and scored by the second (so the rollouts' noise does not flatter it)."""
    for upto in range(2, max(len(r["cands"]) for r in rows) + 1):
        gains = []
        for r in rows:
            half = len(r["shares"][0]) // 2
            first = [sum(s[:half]) / half for s in r["shares"][:upto]]
            second = [sum(s[half:]) / (len(s) - half) for s in r["shares"][:upto]]
            best = max(range(len(first)), key=lambda i: (first[i], -i))
            gains.append(second[best] - second[0])
        m = sum(gains) / len(gains)
        sd = math.sqrt(sum((g - m) ** 2 for g in gains) / max(1, len(gains) - 1))
        print(
            f"oracle over {upto} candidates: gain per decision {m:+.4f} ± "
            f"{Z95 * sd / math.sqrt(len(gains)):.4f}"
        )


USAGE = (
    "python -m bench.decision_truth OUT.jsonl GAMES [--per N] [--rollouts R] [--k K]"
    " [--system S] [--from K] [--player P] [--phase activation|deploy|portfolio] [--jobs J]"
    " | OUT.jsonl --judge A,B [--margins M,M] [--jobs J]"
)
FLAGS = (
    "--per",
    "--rollouts",
    "--k",
    "--system",
    "--from",
    "--player",
    "--phase",
    "--jobs",
    "--judge",
    "--margins",
)


def _flag(argv: list[str], name: str, default: str, number: bool = True) -> str:
    """:func:`bench.harness.flag` with this script's usage, numbers by default."""
    return flag(argv, name, default, USAGE, number=number)


def main(argv: list[str]) -> None:
    out = argument(argv, 0, "OUT", USAGE)
    positional(
        [a for i, a in enumerate(argv) if i == 0 or argv[i - 1] not in FLAGS], FLAGS, 2, USAGE
    )
    jobs = int(_flag(argv, "--jobs", "1"))
    if "--judge" in argv:
        names = _flag(argv, "--judge", "", number=False).split(",")
        for name in names:  # a bad name is one line before any game is played
            try:
                register(name)
                if not isinstance(get_commander(name, 0), SearchCommander):
                    raise ValueError("not a search commander")
            except (KeyError, ValueError, UserError) as exc:
                refuse(
                    "--judge", "search forms (search, search:48, sx-...)", f"{name!r}: {exc}", USAGE
                )
        text = _flag(argv, "--margins", "0", number=False)
        try:
            margins = [float(x) for x in text.split(",")]
        except ValueError:
            refuse("--margins", "numbers, as in 0,20", repr(text), USAGE)
        if not Path(out).is_file():
            refuse("OUT", "a file of decisions made by this script", repr(out), USAGE)
        judge(out, names, jobs, margins)
        return
    games = int(argument(argv, 1, "GAMES", USAGE, number=True))
    per, rollouts, k = (
        int(_flag(argv, f, d)) for f, d in (("--per", "4"), ("--rollouts", "64"), ("--k", "3"))
    )
    system, start = _flag(argv, "--system", "gff", number=False), int(_flag(argv, "--from", "0"))
    if system not in ("gff", "riverside"):
        refuse("--system", "gff or riverside", repr(system), USAGE)
    if k < 2 or rollouts < 2:
        refuse("--k and --rollouts", "2 or more", f"{k} and {rollouts}", USAGE)
    player = _flag(argv, "--player", "rules", number=False)
    if player != "rules":
        try:
            register(player)
            get_commander(player, 0)
        except (KeyError, UserError) as exc:
            refuse(
                "--player", "a commander (rules, search:48, sx-...)", f"{player!r}: {exc}", USAGE
            )
    phase = _flag(argv, "--phase", PHASES[0], number=False)
    if phase not in PHASES:
        refuse("--phase", ", ".join(PHASES), repr(phase), USAGE)
    done = rows_done(
        out,
        lambda r: (
            r["system"],
            r["seed"],
            r.get("player", "rules"),
            r.get("phase", PHASES[0]),
            r["index"],
        ),
    )
    todo = []
    for g in range(start, start + games):
        seed = child_seed(SERIES + 1000, g)  # not the ladder's seeds
        ready = [
            i for sy, sd, pl, ph, i in done if (sy, sd, pl, ph) == (system, seed, player, phase)
        ]
        todo.append((system, seed, player, per, rollouts, k, ready, phase))
    print(f"{games} games to play, {len(done)} decisions already played out", file=sys.stderr)
    with Pool(jobs) as pool:
        append_rows(out, (row for rows in pool.imap_unordered(game_truths, todo) for row in rows))


if __name__ == "__main__":
    main(sys.argv[1:])
