"""The WWPD rules commander's float odds (issue 13): the choice is the one the exact odds make."""

from __future__ import annotations

from oprlab.game.wwpd import Kind, WwpdAction
from oprlab.players.wwpd_commanders import NEAR_TIE, RulesWwpdCommander


def test_float_round_off_does_not_break_an_exact_tie() -> None:
    """Two targets alike are worth exactly the same; the float odds may put one a last digit
    above the other (0.8333333333333335 against ...334, seen in a game). The first of the
    exact ties is chosen, as ``max`` over the exact values chooses."""
    cmd = RulesWwpdCommander(0)
    a = WwpdAction(Kind.SHOOT, "B4", target="A1")
    b = WwpdAction(Kind.SHOOT, "B4", target="A3")
    c = WwpdAction(Kind.SHOOT, "B4", target="A2")
    floats = {a: 0.8333333333333334, b: 0.8333333333333335, c: 0.5}

    def value(x: WwpdAction) -> float:
        return 0.8333333333333334 if cmd._exact and x is not c else floats[x]

    assert cmd._best([a, b, c], value) is a
    assert not cmd._exact  # the exact odds only for the near ties


def test_a_clear_best_is_taken_from_the_float_odds_alone() -> None:
    cmd = RulesWwpdCommander(0)
    a = WwpdAction(Kind.SHOOT, "B4", target="A1")
    b = WwpdAction(Kind.SHOOT, "B4", target="A3")
    asked: list[bool] = []

    def value(x: WwpdAction) -> float:
        asked.append(cmd._exact)
        return 1.0 if x is b else 1.0 - 10 * NEAR_TIE

    assert cmd._best([a, b], value) is b
    assert asked == [False, False]
