"""The rules commander stops scoring an action once it cannot be the best
(players/rules/scoring.py ``_score_below``) and bounds a move's exposure on a table with no
Cover Terrain (players/rules/bounds.py ``_exposure_bounds``): the sum it stops at must be at
least the exact score and below the best so far, and the exposure bound at least the exposure
(0 or less), or a skipped action could have been the best."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players.rules.bounds import _tiebreak
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.style import RULES, V1, Style
from oprlab.players.rules.view import move_allowance, step_toward
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army

_SCORED = (Kind.HOLD, Kind.RUSH, Kind.ADVANCE, Kind.IDLE)


def _play(style: Style, seen: dict[str, int], *games: tuple[int, int, bool, str]) -> None:
    """Play ``games`` (size, seed, generated table, system) between two commanders that check,
    in every activation, ``_score_below`` against the plain score for beats around it, and
    each move's exposure bound against its exact exposure."""

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            chosen = super()._best_action(state, actions)
            self._view = None  # a fresh reading: nothing remembered from the choice
            view = self._read(state)
            for a in actions:
                if a.kind not in _SCORED:
                    continue
                score = self.score(state, a)
                for beat in (score - 1.0, score, score + 1e-9, score + 1.0, score + 50.0):
                    value, whole = self._score_below(state, a, beat)
                    if whole:
                        assert value == score
                    else:
                        assert score <= value < beat
                        seen["stopped"] += 1
                    seen["asked"] += 1
            moves = [a for a in actions if a.kind is Kind.RUSH or a.kind is Kind.ADVANCE]
            if moves:
                keys: dict[str, int] = {}
                pick = np.array([keys.setdefault(a.unit, len(keys)) for a in moves])
                units = [state.units[u] for u in keys]
                ends = []
                for a in moves:
                    us = state.units[a.unit]
                    assert a.to is not None
                    allowance = move_allowance(state, us.unit, a.kind)
                    ends.append(step_toward(view.centroid(us), a.to, allowance))
                bounds = self._exposure_bounds(
                    state, view, units, pick, np.array(ends, dtype=np.float64)
                )
                for a, end, bound in zip(moves, ends, bounds.tolist(), strict=True):
                    us = state.units[a.unit]
                    exact = self._exposure(state, us, view.centroid(us), end)
                    assert exact - 1e-9 <= bound <= 0.0
                    seen["moves"] += 1
                    seen["bounded"] += bound < 0.0
            best = max((self.score(state, a), _tiebreak(a)) for a in actions)
            assert (self.score(state, chosen), _tiebreak(chosen)) == best
            return chosen

    for size, seed, generated, system in games:
        a = load_army(sample_path(f"gff/shooty-{size}.txt"))
        b = load_army(sample_path(f"gff/melee-{size}.txt"))
        table = mission_table(seed) if generated else None
        sides = [Checking(seed, style), Checking(seed + 1, style)]
        play_game(a, b, sides, seed=seed, table=table, system=system)


def test_a_stopped_score_is_at_least_the_score_and_below_the_beat() -> None:
    """In every activation of seeded games (open and generated tables, GFF and Riverside),
    ``_score_below`` gives the plain score, or a sum at least it and below the beat; some are
    stopped; the exposure bound lies between the exposure and 0, and is below 0 for some moves
    on an open table; the choice is the first best exact score."""
    seen = dict.fromkeys(("asked", "stopped", "moves", "bounded"), 0)
    _play(RULES, seen, (300, 4, False, "gff"), (150, 7, True, "gff"), (150, 2, True, "riverside"))
    assert seen["stopped"] > 0.1 * seen["asked"]
    assert seen["bounded"] > 0.05 * seen["moves"]


def test_without_cover_in_the_style_no_exposure_is_bounded() -> None:
    """rules-v1 counts no exposure: every exposure bound is 0, and the choice is the best."""
    seen = dict.fromkeys(("asked", "stopped", "moves", "bounded"), 0)
    _play(V1, seen, (150, 3, False, "gff"))
    assert seen["moves"] > 100 and seen["bounded"] == 0
