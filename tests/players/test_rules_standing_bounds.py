"""The rules commander's move bounds count a unit's standing at the move's end exactly
(players/rules/bounds.py ``_standing_bounds``): a melee unit's bonus near the nearest enemy
and a wary unit's danger from the enemy fighters whose charge reach (seed 003 "Charge": 12"
and into contact) the end lies in. Before, the bonus was bounded by 15 and the danger by 0,
and nine in ten moves scored exactly were scored for that slack alone."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players.rules.bounds import _GAP_MARGIN, _tiebreak
from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import CAUTIOUS, RULES, V1, Style
from oprlab.players.rules.view import move_allowance, step_toward
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army


def _lists(size: int) -> tuple[object, object]:
    return (
        load_army(sample_path(f"gff/shooty-{size}.txt")),
        load_army(sample_path(f"gff/melee-{size}.txt")),
    )


def _play(style: Style, seen: dict[str, int], *games: tuple[int, int, bool, str]) -> None:
    """Play ``games`` (size, seed, generated table, system) between two commanders that check,
    in every activation, each move's standing term against the score's own and its bound
    against its exact score, and count the moves whose bound reaches the decision's best."""

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            moves = [a for a in actions if a.kind is Kind.RUSH or a.kind is Kind.ADVANCE]
            view = self._read(state)
            if moves:
                keys: dict[tuple[str, Kind], int] = {}
                pick = np.array([keys.setdefault((a.unit, a.kind), len(keys)) for a in moves])
                units = [state.units[u] for u, _ in keys]
                ends = []
                for a in moves:
                    us = state.units[a.unit]
                    assert a.to is not None
                    allowance = move_allowance(state, us.unit, a.kind)
                    ends.append(step_toward(view.centroid(us), a.to, allowance))
                standing = self._standing_bounds(
                    state, view, units, pick, np.array(ends, dtype=np.float64)
                )
                for a, end, part in zip(moves, ends, standing.tolist(), strict=True):
                    us = state.units[a.unit]
                    worth = self._worth(state, view, us, None)
                    exact = self._position_value(state, us, end) - self._gains(worth, end)
                    if abs(part - exact) > 1e-9:  # only an end at a fighter's reach may differ
                        assert part > exact
                        gaps = view.enemies(us.side).gaps(end)
                        threats = self._threats(state, view, us.side)
                        assert any(abs(gaps[k] - r) <= _GAP_MARGIN for k, _, r in threats)
                        seen["at a reach"] += 1
                    seen["melee" if self.role(us.unit) is Role.MELEE else "other"] += 1
                    seen["in danger"] += exact < 0
            chosen = super()._best_action(state, actions)
            self._view = None  # a fresh reading, so every move is bounded and scored again
            best = max((self.score(state, a), _tiebreak(a)) for a in actions)
            together = self._move_bounds(state, moves)
            for a, bound in zip(moves, together, strict=True):
                assert bound >= self.score(state, a)
                seen["moves"] += 1
                seen["reach the best"] += (bound, _tiebreak(a)) >= best
            assert (self.score(state, chosen), _tiebreak(chosen)) == best
            return chosen

    for size, seed, generated, system in games:
        a, b = _lists(size)
        table = mission_table(seed) if generated else None
        sides = [Checking(seed, style), Checking(seed + 1, style)]
        play_game(a, b, sides, seed=seed, table=table, system=system)


def test_standing_is_the_scores_own_and_few_moves_are_scored() -> None:
    """In every activation of seeded games (open and generated tables, GFF and Riverside), each
    move's standing term in the bound is the score's own (to 1e-9; above it only where the end
    lies at a fighter's reach, within the margin), every bound is at least the exact score, the
    choice is the first best exact score, and few moves' bounds reach the decision's best (about
    one in ten did with the bonus bounded by 15 and the danger by 0)."""
    seen = dict.fromkeys(("moves", "reach the best", "melee", "other", "in danger"), 0)
    seen["at a reach"] = 0
    _play(
        RULES,
        seen,
        (300, 4, False, "gff"),
        (150, 7, True, "gff"),
        (300, 2, True, "riverside"),
    )
    assert seen["moves"] > 2000
    assert seen["melee"] > 500 and seen["other"] > 500 and seen["in danger"] > 100
    assert seen["reach the best"] < 0.04 * seen["moves"]


def test_other_styles_bound_their_own_standing() -> None:
    """rules-v1 (only shooting units wary) and rules-cautious (the whole charge as danger):
    the standing term follows the style, every bound holds and the choice is the best."""
    for style in (V1, CAUTIOUS, replace(RULES, danger=0.0)):
        seen = dict.fromkeys(("moves", "reach the best", "melee", "other", "in danger"), 0)
        seen["at a reach"] = 0
        _play(style, seen, (150, 3, False, "gff"))
        assert seen["moves"] > 200
        assert seen["reach the best"] < 0.06 * seen["moves"]
