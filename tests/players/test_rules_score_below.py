"""The rules commander stops scoring an action once it cannot be the best
(players/rules/scoring.py ``_score_below``) and counts a move's exposure before its score
(players/rules/bounds.py ``_walk_exposure``): the sum it stops at must be at least the exact
score and below the best so far, a move's bound plus its exposure (0 or less) at least its
score, and a Hold's ceiling (``_hold_ceiling``) at least its bound, or a skipped action could
have been the best."""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players.rules.bounds import _tiebreak
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.style import RULES, V1, Style
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army

_SCORED = (Kind.HOLD, Kind.RUSH, Kind.ADVANCE, Kind.IDLE)


def _play(style: Style, seen: dict[str, int], *games: tuple[int, int, bool, str]) -> None:
    """Play ``games`` (size, seed, generated table, system) between two commanders that check,
    in every activation, ``_score_below`` against the plain score for beats around it, and
    each move's bound less its exposure against its score, and each Hold's ceiling against
    its bound and score."""

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            chosen = super()._best_action(state, actions)
            self._view = None  # a fresh reading: nothing remembered from the choice
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
            for a in actions:
                if a.kind is Kind.HOLD:
                    bound = self._hold_bound(state, a)
                    assert self._hold_ceiling(state, a) >= bound >= self.score(state, a)
                    seen["holds"] += 1
            moves = [a for a in actions if a.kind is Kind.RUSH or a.kind is Kind.ADVANCE]
            for a, bound in zip(moves, self._move_bounds(state, moves), strict=True):
                lost = self._walk_exposure(state, a)
                assert lost <= 0.0 and bound + lost >= self.score(state, a)
                seen["moves"] += 1
                seen["exposed"] += lost < 0.0
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
    stopped; a move's bound plus its exposure is at least its score, and the exposure is below
    0 for some moves; the choice is the first best exact score."""
    seen = dict.fromkeys(("asked", "stopped", "moves", "exposed", "holds"), 0)
    _play(RULES, seen, (300, 4, False, "gff"), (150, 7, True, "gff"), (150, 2, True, "riverside"))
    assert seen["stopped"] > 0.1 * seen["asked"]
    assert seen["exposed"] > 0.05 * seen["moves"]
    assert seen["holds"] > 100


def test_without_cover_in_the_style_no_move_is_exposed() -> None:
    """rules-v1 counts no exposure: every move's is 0, and the choice is the best."""
    seen = dict.fromkeys(("asked", "stopped", "moves", "exposed", "holds"), 0)
    _play(V1, seen, (150, 3, False, "gff"))
    assert seen["moves"] > 100 and seen["exposed"] == 0
