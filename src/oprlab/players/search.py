"""A search commander (issue 14, item 2): flat Monte Carlo over the rules commander's best few
activations, played out on copies of the game.

At each activation (a decision that offers Hold, Advance, Rush, Charge or Idle) the candidates
are the rules commander's choice and the best-scoring actions of other units or kinds (its own
:meth:`~oprlab.players.rules_commander.RulesCommander.score`). Each candidate is applied to a
copy of the game and played on by the rules commander for both sides, to the end of the round
or a horizon of decisions, over a few dice samples; the candidate with the best mean value
(:func:`value`) is played, the rules commander's choice winning ties. Every other decision is
the rules commander's. With the sure rule (``search-sure``) an alternative is played only when
it beats the rules commander's choice on every common sample: a guard against following the
noise of a few samples. With the enemy's replies (``search-reply``) each sample meets, at the
enemy's next activation, its rules pick and its best other unit or kind, and is worth the worse
of them: a max-min ply over the pruned replies, so the search sees more than the rules
commander's own answer. With a portfolio (``search-portfolio``) the candidates are instead the
picks of other scripts (:data:`PORTFOLIO`) where they differ from the rules commander's: the
choices of whole policies rather than one scorer's runners-up.

The budget (``search:BUDGET``) is the number of decisions applied on copies per activation,
split evenly over candidates and samples; a node budget, not a time budget, so a seed replays
the same game on any machine. Each sample's copy gets its own dice, seeded from the search's
stream (a commander stream of the game seed); the samples are common to the candidates
(common random numbers), and the real game's dice are never drawn from.

Copies, legal actions and apply go through the game's :class:`~oprlab.game.system.RuleSystem`;
the value reads the OPR game state (markers, units), which the rules commander also needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from oprlab.errors import OptionError
from oprlab.game.actions import ACTIVATIONS, Action
from oprlab.game.state import GameState
from oprlab.game.system import RuleSystem
from oprlab.game.systems import find_system
from oprlab.players.base import COMMANDERS, TUNED
from oprlab.players.rules.style import RULES, STYLES, Style
from oprlab.players.rules_commander import OBJECTIVE_VALUE, RulesCommander
from oprlab.players.search_value import WEIGHTS, standing, win_value
from oprlab.rng import MAX_SEED, SeedLike, activation_dice, own_generator

__all__ = [
    "CANDIDATES",
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "OWN_SAMPLES",
    "PORTFOLIO",
    "R3_BUDGET",
    "REPLIES",
    "SAMPLES",
    "WIDE",
    "SearchCommander",
    "candidates",
    "distinct",
    "scripts_picks",
    "value",
]

#: Decisions applied on copies per activation when no budget is given (``search`` r4): 48, so
#: each playout runs 48 / (2 x 2) = 12 decisions past the activation. Judged decision by
#: decision against whole games played out (bench.decision_truth, 520 GFF activations) it
#: gained +0.009 +- 0.005 more of a game's share per decision than 24 (docs/commanders.md).
DEFAULT_BUDGET = 48
#: The budget of ``search`` r3 (``search-v3``) and of the older forms, which keep their games.
R3_BUDGET = 24
#: The largest budget accepted (a game of a few hundred seconds per activation is a typo).
MAX_BUDGET = 10_000
#: Candidates searched per activation: the rules commander's choice and the best other (unit,
#: kind). Two beat three at budget 24 (GFF, 300 points: 0.70 against 0.56 for three over the
#: rules commander): with the budget split over fewer candidates each playout looks further.
CANDIDATES = 2
#: Dice samples per candidate.
SAMPLES = 2
#: A horizon no game reaches: playouts to the game's end.
_WHOLE = 10**9
#: Dice samples per candidate of ``search-sure``: three, so that with the budget of 24 each
#: playout (24 / (2 x 3) = 4 decisions) reaches the enemy's reply to the candidate, and the
#: sure rule asks for three agreeing samples before leaving the rules pick.
SURE_SAMPLES = 3
#: Extra samples of the candidate's own activation alone (``search``): the dice are split at
#: its end and the activation's value is averaged over these and the full samples. Measured
#: (300 points, 24 pairs) +0.10 +- 0.18 against ``search-v2`` in GFF and +0.02 +- 0.14 in
#: Riverside, at 1.5x its cost: not shown stronger (docs/commanders.md).
OWN_SAMPLES = 4
#: The enemy's replies searched after each candidate's activation (``search-reply``): its
#: rules pick and its best other (unit, kind), the candidate scored by the worse. Measured
#: (300 points, budget 16, 96 pairs) -0.055 +- 0.092 against ``search`` and +0.010 +- 0.056
#: against ``search:16`` (48): not stronger against the rules commander (docs/commanders.md).
REPLIES = 2
#: The scripts whose picks are the candidates with ``portfolio`` (after the rules pick): the
#: rules commander before issue 14's fixes and its two personalities. Where all agree with the
#: rules pick nothing is searched (one script or more differs at 0.44 of GFF's activations and
#: 0.37 of Riverside's, rules against rules).
PORTFOLIO = ("rules-v1", "rules-aggressive", "rules-cautious")
#: A wider portfolio (``portfolio`` 3): :data:`PORTFOLIO`'s scripts and ``rules`` with each of
#: the habits built, measured level with it over whole games and left off (docs/commanders.md):
#: the shooting army's depth, who will contest a marker, the last round's push for markers
#: (with the Rush onto them, the shots at their holders, the rally that contests them), no Rush
#: mark-down for shooters.
WIDE: tuple[Style, ...] = (
    *(STYLES[n] for n in PORTFOLIO),
    replace(RULES, name="rules+depth", depth=True),
    replace(RULES, name="rules+contest", contest_need=True),
    replace(
        RULES,
        name="rules+push",
        last_round_push=True,
        rush_for_markers=True,
        aim_markers=True,
        shoot_markers=True,
        rally_contests=True,
    ),
    replace(RULES, name="rules+rush", rush_cost=0.0),
)
#: A marker's worth in the last round with ``endgame`` (ten times a unit's trade: only
#: markers decide the game then).
LAST_ROUND_MARKER = 10 * OBJECTIVE_VALUE
#: A won (lost) game's worth with ``endgame``: more than any markers and points.
RESULT = 10_000.0


def candidates(
    guide: RulesCommander, state: GameState, actions: Sequence[Action], pick: Action, k: int
) -> list[Action]:
    """``pick`` and the ``k - 1`` best-scoring activations whose (unit, kind) differ from those
    already taken, best first (ties in canonical order): alternatives worth a playout, not
    forty moves of one unit to neighbouring points."""
    ranked = sorted(
        (a for a in actions if a.kind in ACTIVATIONS and a != pick),
        key=lambda a: -guide.score(state, a),
    )
    out = [pick]
    seen = {(pick.unit, pick.kind)}
    for a in ranked:
        if len(out) >= k:
            break
        if (a.unit, a.kind) not in seen:
            out.append(a)
            seen.add((a.unit, a.kind))
    return out


def scripts_picks(
    scripts: Sequence[RulesCommander], state: GameState, actions: Sequence[Action], pick: Action
) -> list[Action]:
    """``pick`` and each script's pick that differs from those before it, in order: a
    portfolio's candidates (choices of whole policies, not the one scorer's runners-up)."""
    return distinct([pick, *(script.choose(state, actions) for script in scripts)])


def distinct(picks: Sequence[Action]) -> list[Action]:
    """``picks`` without repeats, in order (the first of equals kept)."""
    out: list[Action] = []
    for a in picks:
        if a not in out:
            out.append(a)
    return out


def value(state: GameState, side: int, *, endgame: bool = False) -> float:
    """What the game is worth to ``side``, in points: each marker it would hold if the round
    ended now is worth the rules commander's :data:`OBJECTIVE_VALUE`, less the enemy's; plus the
    points the enemy has lost (models and wounds on Tough models), less its own.

    ``endgame``: the result is decided by markers alone, so in the last round a marker is worth
    :data:`LAST_ROUND_MARKER` (points lost only break ties) and a finished game is worth
    :data:`RESULT` for the winner, less for the loser."""
    held, lost = standing(state)
    other = 1 - side
    points = lost[other] - lost[side]
    if endgame and state.done:
        won = 0 if state.winner is None else 1 if state.winner == side else -1
        return RESULT * won + points
    worth = LAST_ROUND_MARKER if endgame and state.round >= state.rounds else OBJECTIVE_VALUE
    return worth * (held[side] - held[other]) + points


class SearchCommander:
    """Flat Monte Carlo over the rules commander's top activations (module docstring)."""

    def __init__(
        self,
        seed: SeedLike = 0,
        budget: int = DEFAULT_BUDGET,
        k: int = CANDIDATES,
        samples: int = SAMPLES,
        endgame: bool = False,
        sure: bool = False,
        horizon: int | None = None,
        head: str = "",
        reseed: bool = False,
        own: int = 0,
        halve: bool = False,
        strata: bool = False,
        replies: int = 1,
        worst: float = 1.0,
        base: int = DEFAULT_BUDGET,
        learned: bool = False,
        through: bool = False,
        portfolio: int = 0,
        late: int = 0,
        late_samples: int = SAMPLES,
        keyed: bool = False,
    ) -> None:
        head = head or ("search-end" if endgame else "search")
        self.name = head if budget == base else f"{head}:{budget}"  # base: the form's own
        self.budget, self.k, self.samples = budget, k, samples
        self.endgame, self.sure, self.horizon = endgame, sure, horizon
        self.reseed = reseed or own > 0 or halve or strata or replies > 1
        self.own, self.halve, self.strata = own, halve, strata
        self.replies, self.worst = replies, worst
        self.learned = learned
        # each activation of a continuation rolls dice keyed on (sample, round, unit), so the
        # candidates' continuations roll the same dice for the same unit's activation however
        # many dice the activations before it rolled
        self.keyed = keyed
        self.through = bool(through)  # playouts go on past the round's end (bench variants)
        self.rng = own_generator(seed)
        self.guide = RulesCommander(seed)  # prunes, and decides everything not searched
        self.policy = RulesCommander(seed)  # plays the copies on (its own view of them)
        # 1: the scripts' picks are the candidates; 2: added to the rules scorer's (k) ones;
        # 3: the wider portfolio's picks are the candidates
        styles = WIDE if portfolio == 3 else [STYLES[n] for n in PORTFOLIO] if portfolio else []
        self.scripts = [RulesCommander(seed, style) for style in styles]
        self.union = portfolio == 2
        self.nodes = 0  # decisions applied on copies so far (the cost, for measurements)
        # from round ``late`` on, each candidate is played to the game's end ``late_samples``
        # times and valued by the result (the oracle's way of choosing, where a rest of the
        # game is short); the same stream, guide, policy and scripts
        self.late = late
        self.closer: SearchCommander | None = None
        if late:
            self.closer = SearchCommander(
                seed,
                budget,
                samples=late_samples,
                horizon=_WHOLE,
                endgame=True,
                through=True,
                portfolio=portfolio,
                k=k,
            )
            self.closer.rng, self.closer.guide, self.closer.policy = (
                self.rng,
                self.guide,
                self.policy,
            )
            self.closer.scripts = self.scripts
        self.searched = self.changed = 0  # activations searched, and played off the rules pick

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        pick = self.guide.choose(state, actions)
        if not any(a.kind in ACTIVATIONS for a in actions):
            return pick
        cands, means = self.weigh(state, actions, pick)
        if len(cands) < 2:
            return pick
        best = max(range(len(cands)), key=lambda i: (means[i], -i))  # ties: the earlier
        self.searched += 1
        self.changed += best > 0
        return cands[best]

    def weigh(
        self, state: GameState, actions: Sequence[Action], pick: Action
    ) -> tuple[list[Action], list[float]]:
        """The candidates (``pick``, the rules commander's choice, first) and each one's mean
        value over its samples (``-inf`` for one the sure rule or halving dropped); a lone
        candidate is not played out. Apart from :meth:`choose` so that a measurement can ask
        what the search thinks of each candidate (bench.decision_truth)."""
        if self.closer is not None and state.round >= self.late:
            before = self.closer.nodes
            weighed = self.closer.weigh(state, actions, pick)
            self.nodes += self.closer.nodes - before
            return weighed
        if self.scripts and not self.union:
            cands = scripts_picks(self.scripts, state, actions, pick)
        else:
            cands = candidates(self.guide, state, actions, pick, self.k)
            if self.union:
                cands = distinct(cands + scripts_picks(self.scripts, state, actions, pick))
        if len(cands) < 2:
            return cands, [0.0]
        rules = find_system(str(getattr(state.rules, "name", state.system)))  # house rules too
        played = min(len(cands), 2) if self.halve else len(cands)  # playouts per sample
        horizon = self.horizon or max(1, self.budget // (played * self.samples))
        if self.reseed:
            values = self._split(rules, state, cands, horizon)
        else:
            seeds = self.rng.integers(MAX_SEED, size=self.samples)  # the same for each candidate
            values = [
                [self._playout(rules, state, a, int(s), horizon) for s in seeds] for a in cands
            ]
        if self.sure:  # only what beats the rules choice on every common sample
            values = [
                v if i == 0 or min(x - y for x, y in zip(v, values[0], strict=True)) > 0 else []
                for i, v in enumerate(values)
            ]
        return cands, [sum(v) / len(v) if v else -np.inf for v in values]

    def _value(self, game: GameState, side: int) -> float:
        """What a copy is worth to ``side``: :func:`value`, or with ``learned`` the side's
        chance of winning (:func:`~oprlab.players.search_value.win_value`) where the system
        has learned weights."""
        if self.learned and game.system in WEIGHTS:
            return win_value(game, side, game.system)
        return value(game, side, endgame=self.endgame)

    def _playout(
        self, rules: RuleSystem, state: GameState, action: Action, seed: int, horizon: int
    ) -> float:
        """``action`` on a copy with its own dice, then the rules commander for both sides to
        the end of the round or ``horizon`` decisions in all; the copy's :func:`value`."""
        side, start = state.active, state.round
        game: Any = state.clone(_dice(seed))
        rules.apply(game, action)
        self.nodes += self._play_on(rules, game, start, 1, horizon)
        return self._value(game, side)

    def _play_on(
        self,
        rules: RuleSystem,
        game: Any,
        start: int,
        nodes: int,
        horizon: int,
        key: int | None = None,
    ) -> int:
        """The rules commander plays both sides of ``game`` on, to the end of round ``start``
        (with ``through``, of the game) or ``horizon`` decisions in all (``nodes`` already
        played); the decisions then. With ``key`` each activation rolls dice keyed on it, the
        round and the unit (:func:`~oprlab.rng.activation_dice`)."""
        while not game.done and (self.through or game.round == start) and nodes < horizon:
            actions = rules.legal_actions(game)
            if not actions:
                break
            action = self.policy.choose(game, actions)
            if key is not None and action.kind in ACTIVATIONS:
                game.rng = activation_dice(key, game.round, action.unit)
            rules.apply(game, action)
            nodes += 1
        return nodes

    def _split(
        self, rules: RuleSystem, state: GameState, cands: Sequence[Action], horizon: int
    ) -> list[list[float]]:
        """Per candidate, the samples' values with the dice split at the end of the candidate's
        own activation: its own dice from one stream, the continuation's from another, both
        common to every candidate, so the continuations differ only by the states the
        candidates left. With ``own`` extra samples of the activation alone (cheap: its attack,
        see :meth:`_activations`), each sample's value is the mean value just after the
        activation over all of them plus that sample's change over its continuation (a control
        variate: the activation's own dice, the largest share of the noise, are averaged over
        more rolls). With ``halve`` (successive halving) every candidate plays its first sample
        and only the better half (at least two) play the others; the dropped get no values.
        With ``strata`` the samples played on are not the first few but one per stratum of the
        activation's outcomes (:func:`_strata`): a bad roll and a good one, not two alike."""
        own = [int(o) for o in self.rng.integers(MAX_SEED, size=self.samples + self.own)]
        cont = self.rng.integers(MAX_SEED, size=self.samples)
        side, start = state.active, state.round
        keep = len(own) if self.strata else self.samples
        after = [self._activations(rules, state, a, own, keep) for a in cands]
        mean_post = [sum(post for post, _, _ in rows) / len(rows) for rows in after]
        if self.strata:
            after = [_strata(rows, self.samples) for rows in after]
        out: list[list[float]] = [[] for _ in cands]
        alive = list(range(len(cands)))
        for j, c in enumerate(cont):
            for i in alive:
                post, game, nodes = after[i][j]
                end = self._answer(rules, game, side, start, nodes, int(c), horizon)
                out[i].append(mean_post[i] + end - post)
            if self.halve and j == 0 and len(alive) > 2:  # successive halving
                alive = sorted(alive, key=lambda i: (-out[i][0], i))[: max(2, len(alive) // 2)]
                out = [v if i in alive else [] for i, v in enumerate(out)]
        return out

    def _activations(
        self, rules: RuleSystem, state: GameState, action: Action, seeds: Sequence[int], keep: int
    ) -> list[tuple[float, Any, int]]:
        """``action`` and the rest of its activation (the rules commander's shot, strike back,
        consolidation) on a copy per seed, each rolling its own: per seed the value just after,
        and for the first ``keep`` seeds the copy and the decisions applied on it (when no die
        was rolled, copies for the first ``samples`` only: every seed's is the same).

        The samples differ only where dice are rolled, so the work before the first die is done
        once: when the action itself rolled nothing (a Hold, an Advance or Rush off dangerous
        terrain: the path found, the unit moved) the other seeds start from a copy of the
        moved unit, and when the whole activation rolled nothing (a Rush, an Idle, a move with
        no target) every seed has the same value. The rules commander decides from the state
        alone, so each copy is the one the seed would give from scratch: the same values, for a
        fraction of the cost (the extra samples are then little more than a copy and an
        attack)."""
        side, start = state.active, state.round
        game: Any = state.clone(_dice(seeds[0]))
        fresh = game.rng.bit_generator.state
        rules.apply(game, action)
        moved = game.clone() if len(seeds) > 1 and game.rng.bit_generator.state == fresh else None
        nodes = 1 + self._finish(rules, game, start)
        self.nodes += nodes
        post = self._value(game, side)
        if game.rng.bit_generator.state == fresh:  # no die in the whole activation
            copies = [game] + [game.clone() for _ in range(min(keep, self.samples, len(seeds)) - 1)]
            return [(post, c, nodes) for c in copies] + [(post, None, nodes)] * (
                len(seeds) - len(copies)
            )
        out: list[tuple[float, Any, int]] = [(post, game, nodes)]
        for s in seeds[1:]:
            if moved is not None:
                other, done = moved.clone(_dice(s)), 1
            else:
                other, done = state.clone(_dice(s)), 0
            if moved is None:
                rules.apply(other, action)
                done = 1
            done += self._finish(rules, other, start)
            self.nodes += done - (moved is not None)
            out.append((self._value(other, side), other if len(out) < keep else None, done))
        return out

    def _finish(self, rules: RuleSystem, game: Any, start: int) -> int:
        """The rules commander plays the rest of the active unit's activation on ``game``
        (every decision up to the next choice of an activation); the decisions applied."""
        nodes = 0
        while not game.done and game.round == start:
            actions = rules.legal_actions(game)
            if not actions or any(a.kind in ACTIVATIONS for a in actions):
                break
            rules.apply(game, self.policy.choose(game, actions))
            nodes += 1
        return nodes

    def _continue(
        self,
        rules: RuleSystem,
        game: Any,
        side: int,
        start: int,
        nodes: int,
        cont: int,
        horizon: int,
    ) -> float:
        """The rules commander plays both sides of ``game`` (its activation played, ``nodes``
        decisions) on with the dice reseeded to ``cont``, to the end of the round or
        ``horizon`` decisions in all; its value for ``side`` then."""
        game.rng = _dice(cont)
        key = cont if self.keyed else None
        self.nodes += self._play_on(rules, game, start, nodes, horizon, key) - nodes
        return self._value(game, side)

    def _answer(
        self,
        rules: RuleSystem,
        game: Any,
        side: int,
        start: int,
        nodes: int,
        cont: int,
        horizon: int,
    ) -> float:
        """A sample's value at its continuation's end: with one reply searched (``search``) the
        rules commander's continuation; with more (``search-reply``) the worst of the replies'
        values for ``side``, weighted ``worst``, the rest on the rules pick's (a soft minimum;
        ``worst`` 1: max-min over the pruned replies, expectimax over the dice as before)."""
        ends = self._replies(rules, game, side, start, nodes, cont, horizon)
        return (1 - self.worst) * ends[0] + self.worst * min(ends)

    def _replies(
        self,
        rules: RuleSystem,
        game: Any,
        side: int,
        start: int,
        nodes: int,
        cont: int,
        horizon: int,
    ) -> list[float]:
        """The values for ``side`` at the continuation's end, one per enemy reply searched, the
        rules pick's first. When the next activation is the enemy's (and ``replies`` is above
        one) each of its :func:`candidates` (the rules pick and the best other units or kinds,
        by the rules commander's score from the enemy's side) is played on its own copy with
        the same continuation dice (common random numbers), its whole activation (its shot or
        fight even past the horizon: a reply is judged by what it does, not by a move cut off
        before its shot), then the rules commander plays on to the horizon.
        The enemy sees how the activation went before it answers, so the replies branch per
        sample. Otherwise the one continuation."""
        if self.replies < 2 or game.done or game.round != start or nodes >= horizon:
            return [self._continue(rules, game, side, start, nodes, cont, horizon)]
        actions = rules.legal_actions(game)
        if game.active == side or not any(a.kind in ACTIVATIONS for a in actions):
            return [self._continue(rules, game, side, start, nodes, cont, horizon)]
        pick = self.policy.choose(game, actions)
        answers = candidates(self.policy, game, actions, pick, self.replies)
        ends = []
        for n, reply in enumerate(answers):
            copy = game if n == len(answers) - 1 else game.clone(_dice(cont))
            copy.rng = _dice(cont)
            rules.apply(copy, reply)
            done = nodes + 1 + self._finish(rules, copy, start)  # its shot, fight and so on
            self.nodes += self._play_on(rules, copy, start, done, horizon) - nodes
            ends.append(self._value(copy, side))
        return ends


def _strata(rows: Sequence[tuple[float, Any, int]], n: int) -> list[tuple[float, Any, int]]:
    """One sample per stratum of an activation's outcomes: the samples sorted by their value
    just after the activation (how many models the attack killed, in points) cut into ``n``
    groups of equal size, and from each its median sample. Each stratum stands for an equal
    share of the outcomes, so the mean over the strata still estimates the mean; it is
    expectimax over ``n`` outcome buckets, the buckets' chances estimated by the samples
    (the exact odds would need the attack's dice set by hand)."""
    if len({post for post, _, _ in rows}) == 1:  # one outcome (no die mattered): any n
        return list(rows[:n])
    ranked = sorted(range(len(rows)), key=lambda i: (rows[i][0], i))
    return [rows[ranked[(2 * g + 1) * len(rows) // (2 * n)]] for g in range(n)]


def _dice(seed: int) -> np.random.Generator:
    """A copy's own dice."""
    return np.random.Generator(np.random.PCG64(seed))


#: The search's forms, as keyword arguments of :class:`SearchCommander`: ``search`` (the best
#: mean, the dice split after the candidate's activation with :data:`OWN_SAMPLES` extra
#: samples of it, budget :data:`DEFAULT_BUDGET`), ``search-v3`` (the same at budget
#: :data:`R3_BUDGET`: the ``search`` of revision r3), ``search-v2`` (the best mean over whole
#: playouts on one dice stream each: the ``search`` of revision r2), ``search-end``
#: (``search-v2`` with the endgame value) and ``search-sure`` (the sure rule over three
#: samples; measured no stronger than ``search-v2``, docs/commanders.md) and ``search-reply``
#: (``search-v3`` with the enemy's :data:`REPLIES` best replies searched, the worse counted;
#: the horizon is ``search-v3``'s, so the replies spend up to twice its decisions after the
#: activation); ``search-portfolio`` (``search-v3`` weighing the picks of :data:`PORTFOLIO`'s
#: scripts against the rules pick, searching only where one differs: as strong as ``search``
#: at a quarter of its cost, docs/commanders.md). Every form but ``search`` keeps the budget it
#: was measured at, :data:`R3_BUDGET`.
_R3 = {"budget": R3_BUDGET, "base": R3_BUDGET}
FORMS: dict[str, dict[str, Any]] = {
    "search": {"own": OWN_SAMPLES},
    "search-v3": {"own": OWN_SAMPLES, "head": "search-v3", **_R3},
    "search-v2": {"head": "search-v2", **_R3},
    "search-end": {"endgame": True, **_R3},
    "search-sure": {"samples": SURE_SAMPLES, "sure": True, "head": "search-sure", **_R3},
    "search-reply": {"own": OWN_SAMPLES, "replies": REPLIES, "head": "search-reply", **_R3},
    "search-portfolio": {"own": OWN_SAMPLES, "portfolio": 1, "head": "search-portfolio", **_R3},
}


def _tuned(head: str, seed: SeedLike, text: str) -> SearchCommander:
    """``search:BUDGET`` (and the other forms): a whole number of decisions per activation."""
    budget = int(text) if text.isdigit() else 0
    if not 1 <= budget <= MAX_BUDGET:
        raise OptionError(
            "search budget is not a whole number of decisions",
            value=f"{head}:{text}",
            expected=f"{head}:N with N from 1 to {MAX_BUDGET}, as in {head}:{DEFAULT_BUDGET}",
        )
    return SearchCommander(seed, **{**FORMS[head], "budget": budget})


def _form(head: str, seed: SeedLike) -> SearchCommander:
    return SearchCommander(seed, **FORMS[head])


for _head in FORMS:
    COMMANDERS[_head] = partial(_form, _head)
    TUNED[_head] = partial(_tuned, _head)
