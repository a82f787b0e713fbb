"""What a system's habits may ask of the rules commander (a protocol, so the habits modules
need not import the commander that imports them)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from oprlab.game.actions import Action
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.estimates import Role
from oprlab.players.rules.style import Style
from oprlab.players.rules.view import Point, View
from oprlab.units.model import Unit


class Scorer(Protocol):
    """The rules commander as its system habits see it."""

    _view: View | None
    style: Style

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action: ...

    def role(self, unit: Unit) -> Role: ...

    def score(self, state: GameState, a: Action) -> float: ...

    def _read(self, state: GameState) -> View: ...

    def _shoot_value(self, state: GameState, a: Action) -> float: ...

    def _position_value(
        self, state: GameState, us: UnitState, at: Point, contested: UnitState | None = None
    ) -> float: ...

    def _projected(self, state: GameState, us: UnitState, end: Point) -> float: ...
