"""An action the engine has just listed is applied without a second check (issue 13: the
check repeated the listing's work); anything else is checked in full, so a stale, copied or
outside action still gets one clear error (seed 003 "Deployment" 3: one unit at a time)."""

from __future__ import annotations

import pytest

from oprlab.errors import UserError
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, UnitState
from tests.game import line


def _counted(monkeypatch: pytest.MonkeyPatch, state: GameState) -> list[Action]:
    """Every action the procedure checks in full, from now on."""
    seen: list[Action] = []
    rules = type(opr_rules(state))
    check = opr_rules(state).validate

    def validate(s: GameState, a: Action) -> UnitState | None:
        seen.append(a)
        return check(s, a)

    monkeypatch.setattr(rules, "validate", staticmethod(validate))
    return seen


def test_a_listed_action_is_trusted_once_and_anything_else_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = gff.new_game(line(), line(), seed=0)
    while state.phase == "objectives":
        gff.apply(state, gff.legal_actions(state)[0])
    gff.apply(state, Action(Kind.CHOOSE_ZONE, choice="north"))
    checked = _counted(monkeypatch, state)
    deploy = gff.legal_actions(state)[0]
    assert state.clone().offered is None  # a copy trusts nothing
    gff.apply(state, deploy)
    assert checked == [] and state.offered is None
    assert state.units[deploy.unit].placement is not None
    with pytest.raises(UserError, match=r"side to act|cannot|deploy"):
        gff.apply(state, deploy)  # the same object again: no longer listed, checked, refused
    assert checked == [deploy]
    equal = Action(Kind.DEPLOY, deploy.unit, to=deploy.to, formation=deploy.formation)
    listed = gff.legal_actions(state)
    with pytest.raises(UserError):
        gff.apply(state, equal)  # an equal action made outside: checked too
    assert checked == [deploy, equal] and state.offered is None
    gff.apply(state, listed[0])  # listed before the refused call, nothing applied since...
    assert checked == [deploy, equal, listed[0]]  # ...but a failed apply ends the trust
