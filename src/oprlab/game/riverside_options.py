"""Riverside's readings (seed 002): the choices its text leaves to the commanders, fixed for a
game (docs/rules/riverside.md), and the game's own (:func:`options_of`).

May import ``oprlab.errors``, ``oprlab.rules.riverside`` and ``oprlab.game``'s state,
objectives and riverside_combat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from oprlab.errors import OptionError
from oprlab.game import objectives
from oprlab.game import riverside_combat as combat
from oprlab.game.state import GameState
from oprlab.game.system import RollOffWinner, check_roll_off_winner
from oprlab.rules.riverside.attack import READINGS, Readings

SYSTEM = "riverside"
#: "The game consist of 4 Rounds".
ROUNDS = 4


WinnerTakes = Literal["choose", "first", "zone"]


@dataclass(frozen=True)
class RiversideOptions:
    """Choices seed 002 leaves to the commanders, fixed for a game (docs/rules/riverside.md).

    Attributes:
        winner_takes: what the deployment roll-off winner chooses: ``"choose"`` (default: its
            commander decides, a ``CHOOSE_ZONE`` decision), or forced: ``"first"`` (who
            activates first; the loser then chooses the zone) or ``"zone"`` (the zone; the
            loser then chooses who activates first).
        ambush_round: the round (2-4) Ambush units are deployed in.
        strike_back: the charged unit strikes back ("may choose to strike back").
        tie: equal melee wound totals: ``"none"`` nobody tests, ``"both"`` both test.
        impact: Impact(X) read as in GFF inside the charge (``"with_attack"``) or ``"none"``.
        readings: the attack pipeline's readings (Rending, Extra Shooty, Rout when shooting).
        stuck_markers: when no point is left for a marker over 9" from the others:
            ``"farthest"`` (it goes at a point farthest from them) or ``"stop"`` (no more
            markers; ``game.objectives``).
        roll_off_winner: who wins "Choosing Deployment Zone and Activation Order"'s roll-off:
            ``"rolloff"`` the dice (the rule), ``"A"`` / ``"B"`` that side (with
            ``winner_takes="first"`` that side plays first). An experimenter's option, not a
            reading (:func:`oprlab.game.system.roll_off`).
    """

    winner_takes: WinnerTakes = "choose"
    ambush_round: int = 2
    strike_back: bool = True
    tie: combat.TieReading = "none"
    impact: combat.ImpactReading = "with_attack"
    readings: Readings = field(default=READINGS)
    stuck_markers: str = "farthest"
    roll_off_winner: RollOffWinner = "rolloff"

    def __post_init__(self) -> None:
        check_roll_off_winner(self.roll_off_winner)
        if self.winner_takes not in ("choose", "first", "zone"):
            raise OptionError(
                "unknown roll-off choice",
                value=self.winner_takes,
                expected="'choose', 'first' or 'zone'",
            )
        if not 2 <= self.ambush_round <= ROUNDS:
            raise OptionError(
                "Ambush units deploy in rounds 2-4",
                value=self.ambush_round,
                expected="2, 3 or 4",
                where="ambush_round",
            )
        if self.tie not in ("none", "both"):
            raise OptionError("unknown melee tie reading", value=self.tie, expected="none or both")
        if self.impact not in ("with_attack", "none"):
            raise OptionError(
                "unknown Impact reading", value=self.impact, expected="with_attack or none"
            )
        if self.stuck_markers not in objectives.STUCK_READINGS:
            raise OptionError(
                "unknown stuck markers reading",
                value=self.stuck_markers,
                expected=" or ".join(objectives.STUCK_READINGS),
                where="stuck_markers",
            )

    @property
    def melee(self) -> combat.MeleeOptions:
        return combat.MeleeOptions(strike_back=self.strike_back, tie=self.tie, impact=self.impact)


def options_of(state: GameState) -> RiversideOptions:
    opts = state.options
    return opts if isinstance(opts, RiversideOptions) else RiversideOptions()
