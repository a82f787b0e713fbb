"""The OPR deployment, written once: alternate setting units down, phase by phase.

Seed 003 "Deployment" and seed 002 "Deployment Phase" deploy the same way: "commanders
alternate deploying units", the side to go first starting; a side with no unit left (or no room
for one) lets the other deploy the rest; Normal units come first, then Scout units, starting
with the first side; Ambush units arrive in a later round. What the texts say differently is a
hook of :class:`Deployment` reached through ``self``: where a unit is set down and when it
counts as arrived, what happens to a unit with no room, what follows the deployment.

May import ``oprlab.game.state``, ``oprlab.game.actions``, the shared procedure modules of
``oprlab.game`` (activation, deploy_search) and below.
"""

from __future__ import annotations

from oprlab.game import activation, deploy_search
from oprlab.game.actions import Action
from oprlab.game.opr.rounds import Rounds
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.table.model import Placement

__all__ = ["Deployment"]


class Deployment(Rounds):
    """Alternating deployment (the ``DEPLOY`` step) on top of the rounds."""

    # --- the procedure -----------------------------------------------------------------------

    def deploy(self, state: GameState, us: UnitState, action: Action) -> None:
        """The ``DEPLOY`` step: set ``us`` down, then the next deployer."""
        assert action.to is not None
        us.placement = self.deployed_placement(state, us, action)
        self.arrive(state, us)
        us.reserve = None
        activation.deployed(state, us, action.to, action.formation)
        self.next_deployer(state)

    def next_deployer(self, state: GameState) -> None:
        """Alternate deployment; after the Normal units the Scout units, starting with the first
        side; when nobody has a unit left to place, :meth:`deployment_over`."""
        while True:
            if activation.deployer_with_room(state, self.has_room):
                return
            if state.phase == Phase.DEPLOY:
                state.phase = Phase.SCOUT
                state.active = state.first
                self.scout_phase(state)
                continue
            self.deployment_over(state)
            return

    def has_room(self, state: GameState, side: int) -> bool:
        """Whether ``side`` has a unit to deploy now and room for it. A unit with no room is
        left out and the log says why (:func:`oprlab.game.deploy_search.not_deployed`), unless
        :meth:`waits_for_room`."""
        for us in self.to_deploy(state, side):
            if self.deploy_options(state, us):
                return True
            if self.waits_for_room(state, us):
                continue
            deploy_search.not_deployed(state, us, self.no_room_reason(state, us))
        return False

    # --- hooks --------------------------------------------------------------------------------

    def to_deploy(self, state: GameState, side: int) -> list[UnitState]:
        """The units ``side`` may set up in this deployment phase."""
        raise NotImplementedError

    def deploy_options(self, state: GameState, us: UnitState) -> list[deploy_search.Option]:
        """Where and in which formation ``us`` may be set up, sorted by (point, formation) (the
        listing's order: :func:`deploy_search.remembered` gives them so)."""
        raise NotImplementedError

    def no_room_reason(self, state: GameState, us: UnitState) -> str:
        """Why ``us`` has nowhere to deploy (the log's words)."""
        raise NotImplementedError

    def deployed_placement(self, state: GameState, us: UnitState, action: Action) -> Placement:
        """Where the models of ``us`` stand once set down by ``action``."""
        raise NotImplementedError

    def arrive(self, state: GameState, us: UnitState) -> None:
        """Record the round ``us`` arrives in, where the text cares (as it is set down)."""
        us.arrived = state.round

    def waits_for_room(self, state: GameState, us: UnitState) -> bool:
        """Whether a unit with no room now may wait for a later deployment phase."""
        return False

    def scout_phase(self, state: GameState) -> None:
        """The Scout phase has begun (Riverside logs it)."""

    def deployment_over(self, state: GameState) -> None:
        """Nobody has a unit left to place in this phase: what comes next."""
        self.start_activations(state)
