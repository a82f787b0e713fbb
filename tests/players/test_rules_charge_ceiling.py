"""The rules commander skips a charge whose ceiling is below the best key of the decision so
far (players/rules/bounds.py ``_charge_ceiling``): the ceiling must be at least the charge's
bound (the better of its score arriving and falling short, seed 003 "Charge": a charge may fall
short of base contact) and its exact score, or a skipped charge could have been the best."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from oprlab.game.actions import Action, Kind
from oprlab.game.play import play_game
from oprlab.game.state import GameState
from oprlab.players.rules.bounds import _tiebreak
from oprlab.players.rules.style import RULES
from oprlab.players.rules_commander import RulesCommander
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.load import load_army


def _lists(size: int) -> tuple[object, object]:
    return (
        load_army(sample_path(f"gff/shooty-{size}.txt")),
        load_army(sample_path(f"gff/melee-{size}.txt")),
    )


def test_charge_ceiling_is_never_below_its_bound_or_score() -> None:
    """In every decision of seeded games (open and generated tables, clock-bennies' extra
    attack too, GFF and Riverside), each charge's ceiling is at least its bound and its exact
    score (the ceiling without the strike back at least the ceiling, and the decision's first
    ceilings worked out together at least that one), some ceilings lie
    below the decision's best (so charges are skipped), and the choice is the first best exact
    score."""
    seen = {"charges": 0, "below best": 0, "benny": 0, "games with charges": 0, "looser": 0}

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            chosen = super()._best_action(state, actions)
            self._view = None  # a fresh reading: every charge untested
            best = max((self.score(state, a), _tiebreak(a)) for a in actions)
            charges = [i for i, a in enumerate(actions) if a.kind is Kind.CHARGE]
            ceilings = self._charge_ceilings(state, actions, charges)
            together = dict(zip(charges, ceilings, strict=True))
            for i, a in enumerate(actions):
                if a.kind is not Kind.CHARGE:
                    continue
                # the decision's first ceilings, in one pass, with the markers only bounded
                first = self._charge_ceiling(state, a, strike_back=False)
                assert max(together[i]) + 1e-6 >= first
                seen["looser"] += max(together[i]) > first
                ceiling = self._charge_ceiling(state, a)
                # and with the strike back, from the parts of the first
                struck = self._struck_ceiling(state, a, together[i])
                assert struck >= ceiling - 1e-9 and struck >= self.score(state, a)
                bound = self._charge_bound(state, a)
                score = self.score(state, a)
                assert ceiling >= score
                # ranked first without the strike back, which only lowers the ceiling
                assert self._charge_ceiling(state, a, strike_back=False) >= ceiling
                assert bound is None or ceiling >= bound
                seen["charges"] += 1
                seen["below best"] += (ceiling, _tiebreak(a)) < best
                seen["benny"] += a.benny
            assert (self.score(state, chosen), _tiebreak(chosen)) == best
            assert chosen == max(actions, key=lambda a: (self.score(state, a), _tiebreak(a)))
            return chosen

    for size, seed, generated, mechanic, system in (
        (150, 7, True, "d6", "gff"),
        (300, 4, False, "d6", "gff"),
        (150, 3, False, "clock-bennies", "gff"),
        (300, 2, True, "d6", "riverside"),  # charges listed only where they arrive
    ):
        a, b = _lists(size)
        table = mission_table(seed) if generated else None
        sides = [Checking(seed), Checking(seed + 1)]
        charges = seen["charges"]
        play_game(a, b, sides, seed=seed, table=table, mechanic=mechanic, system=system)
        seen["games with charges"] += seen["charges"] > charges
    assert seen["games with charges"] == 4
    assert seen["charges"] > 100
    assert seen["below best"] > seen["charges"] / 2
    assert seen["benny"] > 0
    assert seen["looser"] < seen["charges"] / 10  # the markers bounded: seldom looser


def test_with_contest_need_the_choice_is_still_the_best_exact_score() -> None:
    """``Style.contest_need`` frees a marker the target contests by the chance the charge
    breaks it, so a marker's worth may rise with the target gone and the cheap ceiling does not
    hold: it is not used, and every choice is still the first best exact score."""
    style = replace(RULES, contest_need=True)
    checked = 0

    class Checking(RulesCommander):
        def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
            nonlocal checked
            chosen = super()._best_action(state, actions)
            self._view = None
            assert chosen == max(actions, key=lambda a: (self.score(state, a), _tiebreak(a)))
            checked += any(a.kind is Kind.CHARGE for a in actions)
            return chosen

    for seed, generated in ((2, True), (5, False), (8, True)):
        a, b = _lists(300)
        table = mission_table(seed) if generated else None
        play_game(a, b, [Checking(seed, style), Checking(seed + 1, style)], seed=seed, table=table)
    assert checked > 20
