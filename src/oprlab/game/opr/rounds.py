"""The OPR rounds, written once: a round's start, alternating activations, the round's end.

Seed 003 "Playing the Game" and seed 002 "Round Phases" play a round the same way: who
finished activating first last round goes first, every unit is fresh and no longer Fatigued,
Casters get their tokens, the sides alternate activations (a side with nothing left lets the
other activate the rest), and at the end of the round the markers are settled; after the last
round the side with more markers wins. Under clock-bennies an activation may start with a
clock set (seed 000 variation 5). What the texts say differently is a hook of :class:`Rounds`
reached through ``self``: what else a round's beginning does, whether (and which) units deploy
in it, what comes before the markers at its end (GFF's Morale), which units may hold markers.

May import ``oprlab.game.state``, ``oprlab.game.actions``, the shared procedure modules of
``oprlab.game`` (activation, bennies, casting, objectives) and below.
"""

from __future__ import annotations

from oprlab.game import activation, bennies, objectives
from oprlab.game import casting as caster
from oprlab.game.actions import Action
from oprlab.game.state import GameState, Phase, UnitState

__all__ = ["Rounds"]


class Rounds:
    """The rounds and the alternation of activations; the base of :class:`OprRules`."""

    # --- the procedure -----------------------------------------------------------------------

    def start_round(self, state: GameState, n: int) -> None:
        """Round ``n`` begins (fresh units, who goes first, spell tokens), then its deployment
        phase if it has one (:meth:`round_deployment`), else its activations."""
        activation.begin_round(state, n)
        self.round_beginning(state, n)
        state.active = state.first  # who finished first goes first, and deploys first
        caster.give_spell_tokens(state)  # "Casters receive spell tokens" at the round's start
        if self.round_deployment(state, n):
            self.next_deployer(state)
            return
        self.start_activations(state)

    def start_activations(self, state: GameState) -> None:
        """The round's activations: the first side acts (or the other, if it has nothing)."""
        state.phase = Phase.ACTIVATION
        state.active = state.first
        activation.pass_turn(state, state.active, self.end_round)
        self.offer_clocks(state)

    def end_activation(self, state: GameState, side: int) -> None:
        """``side``'s activation is over: the other side activates next ("alternate"), or the
        same one when the other has nothing left, or the round ends."""
        state.pending = None
        state.phase = Phase.ACTIVATION
        state.teleported = ""  # Teleport is "once per activation" (seed 002)
        activation.pass_turn(state, 1 - side, self.end_round)
        self.offer_clocks(state)

    def offer_clocks(self, state: GameState) -> None:
        """The phase ``clocks`` before an activation (:func:`oprlab.game.bennies.offer_clocks`),
        unless :meth:`clocks_at_activation` says no."""
        enabled = self.clocks_at_activation(state)
        bennies.offer_clocks(state, activation.can_activate, enabled=enabled)

    def start_clock(self, state: GameState, a: Action) -> None:
        """Clock-bennies: spend the benny and set the clock (or pass); the side then picks its
        unit."""
        state.phase = Phase.ACTIVATION
        bennies.start_clock(state, state.active, a)

    def end_round(self, state: GameState) -> None:
        """Nothing left to activate: :meth:`round_end` (GFF's Morale), the markers, then the
        next round or the end of the game."""
        activation.record_finished_first(state)
        self.round_end(state)
        self.update_objectives(state)
        activation.next_round(state, self.start_round)

    def controllers(self, state: GameState) -> list[set[int]]:
        """For each marker, the sides with a unit able to hold it within 3" right now."""
        holders = [
            (us.side, us.placement)
            for us in state.units.values()
            if self.may_hold(state, us) and us.placement is not None
        ]
        return objectives.sides_near(state.objectives, holders)

    def update_objectives(self, state: GameState) -> None:
        """A marker with one side near is seized, with both it is neutral, with none it stays
        as it was (seed 003 Mission 4-6, seed 002 "End Phase")."""
        objectives.settle(state, self.controllers(state))

    # --- hooks --------------------------------------------------------------------------------

    def round_beginning(self, state: GameState, n: int) -> None:
        """What else a round's beginning does (Riverside logs its Beginning Phase)."""

    def round_deployment(self, state: GameState, n: int) -> bool:
        """Whether round ``n`` has a deployment phase; if so this sets ``state.phase`` to it."""
        raise NotImplementedError

    def next_deployer(self, state: GameState) -> None:
        """The deployment step (:class:`~oprlab.game.opr.setup.Deployment`)."""
        raise NotImplementedError

    def clocks_at_activation(self, state: GameState) -> bool:
        """Whether a clock may be set at an activation's start (a reading in GFF)."""
        return True

    def round_end(self, state: GameState) -> None:
        """What comes at a round's end before the markers are settled."""

    def may_hold(self, state: GameState, us: UnitState) -> bool:
        """Whether ``us`` may seize or contest markers now."""
        raise NotImplementedError
