"""The OPR activation, written once: the unit's action (Hold, Advance, Rush, Charge, Idle).

Seed 003 "Actions" and seed 002 "Activation Actions" list the same four actions: Hold (stay,
may shoot), Advance (move 6", may shoot), Rush (move 12", no shooting), Charge (move 12" into
melee), and Idle stops a unit being Shaken. What the texts say differently is a hook of
:class:`Activation` reached through ``self``: what starting an activation does (GFF: the models
standing in dangerous terrain roll), how a unit moves, what may follow a Rush (Riverside: Special
Abilities), how the shot is offered and how a charge is fought.

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.game.activation`` and the
procedure's parts in ``oprlab.game.opr`` below it (setup, rounds).
"""

from __future__ import annotations

from oprlab.game import activation
from oprlab.game.actions import Action, Kind
from oprlab.game.opr.setup import Deployment
from oprlab.game.state import GameState, UnitState

__all__ = ["Activation"]


class Activation(Deployment):
    """A unit's action, on top of the deployment and the rounds."""

    # --- the procedure -----------------------------------------------------------------------

    def activate(self, state: GameState, us: UnitState, a: Action) -> None:
        """Hold, Advance, Rush, Charge or Idle (the step of every other kind of action)."""
        tried = self.abilities_used(state, us)
        here = self.begin_activation(state, us)
        activation.log_activation(state, us, a, **self.activation_logged(state, us))
        assert us.placement is not None
        if not here:  # lost as it activated (to dangerous terrain)
            self.end_activation(state, us.side)
            return
        if a.kind is Kind.IDLE:
            if us.shaken:
                us.shaken = False  # Idle: "stop being Shaken" / "remove the Shaken condition"
                state.log.add("rally", unit=us.uid)
            self.end_activation(state, us.side)
        elif a.kind is Kind.HOLD:
            self.offer_shot(state, us, moved=False, tried=tried)
        elif a.kind in (Kind.ADVANCE, Kind.RUSH):
            assert a.to is not None
            self.move(state, us, a)
            if not us.alive:
                self.end_activation(state, us.side)
            elif a.kind is Kind.ADVANCE:
                self.offer_shot(state, us, moved=True, tried=tried)
            else:
                self.after_rush(state, us, tried)
        elif a.kind is Kind.CHARGE:
            self.charge(state, us, state.units[a.target], benny=a.benny)

    # --- hooks --------------------------------------------------------------------------------

    def abilities_used(self, state: GameState, us: UnitState) -> tuple[str, ...]:
        """The spells ``us`` tried earlier in this activation (before its action)."""
        return ()

    def begin_activation(self, state: GameState, us: UnitState) -> bool:
        """Count the activation (once); whether the unit is still on the table to act."""
        raise NotImplementedError

    def activation_logged(self, state: GameState, us: UnitState) -> dict[str, object]:
        """What else the ``activate`` event records."""
        return {}

    def move(self, state: GameState, us: UnitState, a: Action) -> None:
        """Advance or Rush: move ``us`` toward ``a.to`` (and roll for dangerous terrain)."""
        raise NotImplementedError

    def offer_shot(
        self, state: GameState, us: UnitState, *, moved: bool, tried: tuple[str, ...]
    ) -> None:
        """Hold or Advance: the shooting is the next decision, if there is one."""
        raise NotImplementedError

    def after_rush(self, state: GameState, us: UnitState, tried: tuple[str, ...]) -> None:
        """After a Rush move: the activation ends."""
        self.end_activation(state, us.side)

    def charge(self, state: GameState, us: UnitState, target: UnitState, *, benny: bool) -> None:
        """Charge ``target`` and fight the melee (``benny``: one extra attack)."""
        raise NotImplementedError
