"""``actions.listed``: listed actions are made once and handed out again (issue 13's speed)."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from oprlab.game import actions
from oprlab.game.actions import Action, Kind, listed


def test_a_listed_action_equals_the_one_built_and_is_made_once() -> None:
    """The same fields give the same object, equal (and hashing equal) to a new Action."""
    a = listed(Kind.ADVANCE, "u1", to=(12.0, 30.5))
    assert a == Action(Kind.ADVANCE, "u1", to=(12.0, 30.5))
    assert hash(a) == hash(Action(Kind.ADVANCE, "u1", to=(12.0, 30.5)))
    assert listed(Kind.ADVANCE, "u1", to=(12.0, 30.5)) is a
    assert listed(Kind.RUSH, "u1", to=(12.0, 30.5)) is not a
    d = listed(Kind.DEPLOY, "u1", to=(4.0, 6.0), formation=2)
    assert d == Action(Kind.DEPLOY, "u1", to=(4.0, 6.0), formation=2)
    c = listed(Kind.CHARGE, "u1", target="u2")
    assert c == Action(Kind.CHARGE, "u1", target="u2") and c.to is None


def test_the_memo_is_bounded() -> None:
    """A long run does not grow it: past its limit it is emptied and starts again."""
    for k in range(actions._LISTED_LIMIT + 5):
        listed(Kind.ADVANCE, "bound", to=(float(k), 0.0))
    assert len(actions._LISTED) <= actions._LISTED_LIMIT


def test_an_action_set_slot_by_slot_is_the_one_built() -> None:
    """``actions._built`` (the listed actions' maker, field by field through the slots) gives
    the Action ``__init__`` gives, for every kind: every field, equality, hash, text, order,
    and frozen like it."""
    for kind in Kind:
        for unit, to, target, formation in [("", None, "", 0), ("A3", (4.5, 7.25), "B1", 3)]:
            made = actions._built(kind, unit, to, target, formation)
            plain = Action(kind, unit, to=to, target=target, formation=formation)
            assert dataclasses.astuple(made) == dataclasses.astuple(plain)
            assert made == plain and hash(made) == hash(plain)
            assert str(made) == str(plain) and repr(made) == repr(plain)
            assert made.sort_key() == plain.sort_key()
            assert pickle.loads(pickle.dumps(made)) == plain
            with pytest.raises(dataclasses.FrozenInstanceError):
                made.unit = "other"  # type: ignore[misc]
