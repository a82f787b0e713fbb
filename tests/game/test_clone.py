"""The hand-made copies of a game (``GameState.clone``, ``WwpdState.clone``): a search plays
hundreds of them a game, so they copy only what a game changes. A copy must share nothing a
game changes with its parent, and play on exactly as a deep copy of the parent would."""

from __future__ import annotations

import copy
import json
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

import numpy as np
import pytest

from oprlab.game.events import EventLog
from oprlab.game.play import play_game
from oprlab.game.state import STATE_FIELDS, UNIT_FIELDS, GameState, Memo, UnitState
from oprlab.game.systems import find_system
from oprlab.game.wwpd_state import (
    WWPD_STATE_FIELDS,
    WWPD_UNIT_FIELDS,
    WwpdState,
    WwpdUnitState,
)
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table.deploy import mission_table
from oprlab.units.formats import army_format
from oprlab.units.model import Unit
from oprlab.units.profiles import WwpdUnit


def _names(cls: type) -> set[str]:
    return {f.name for f in fields(cls)}


@pytest.mark.parametrize(
    ("cls", "known"),
    [
        (UnitState, UNIT_FIELDS),
        (GameState, STATE_FIELDS),
        (WwpdUnitState, WWPD_UNIT_FIELDS),
        (WwpdState, WWPD_STATE_FIELDS),
    ],
    ids=lambda x: getattr(x, "__name__", ""),
)
def test_every_field_is_one_the_clone_knows(cls: type, known: dict[str, tuple[str, ...]]) -> None:
    """A field added to a unit's or a game's state must be named in the clone's list, shared
    (never changed in place) or copied; else a copy would share it with its parent."""
    listed = [name for names in known.values() for name in names]
    assert len(listed) == len(set(listed))  # no field in two lists
    assert set(listed) == _names(cls)


def test_the_containers_the_clone_rebuilds_have_the_fields_it_copies() -> None:
    """``clone`` rebuilds the log and the memo field by field: a new field there needs a line."""
    assert _names(EventLog) == {"events", "enabled"}
    assert _names(Memo) == {
        "deploy_boxes",
        "deploy_options",
        "deploy_points",
        "marker_grid",
        "charge",
        "sight",
    }


def _plain(x: Any) -> Any:
    """``x`` as nested tuples of values: equal for equal states however objects are shared."""
    if isinstance(x, (Unit, WwpdUnit)):
        return ("profile", x.name)  # frozen and shared on purpose
    if isinstance(x, np.ndarray):
        return ("array", x.dtype.str, x.shape, x.tobytes())
    if isinstance(x, dict):
        return ("dict", tuple((_plain(k), _plain(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_plain(v) for v in x))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted((_plain(v) for v in x), key=repr)))
    if x is None or isinstance(x, (str, bytes, int, float, Enum)):
        return x
    if is_dataclass(x):
        return (type(x).__name__, tuple((f.name, _plain(getattr(x, f.name))) for f in fields(x)))
    if hasattr(x, "__dict__"):
        return (type(x).__name__, _plain(vars(x)))
    return (type(x).__name__, _plain([getattr(x, k) for k in type(x).__slots__]))


def _fingerprint(state: Any) -> Any:
    """Everything a game is, the caches shared on purpose left out."""
    skip = {"sight", "memo", "offered", "table", "armies", "forces", "rules", "mechanic", "dice"}
    parts = {k: v for k, v in vars(state).items() if k not in skip}
    parts["log"] = (state.log.enabled, [json.dumps(e, default=str) for e in state.log.events])
    if isinstance(state, GameState):
        m = state.memo
        parts["memo"] = (m.deploy_boxes, m.deploy_options, m.deploy_points, m.charge)
        parts["dice"] = (state.dice.state, state.dice.rng and state.dice.rng.bit_generator.state)
    else:
        parts["rng"] = state.rng.bit_generator.state  # the stream, not how it was seeded
        parts["memo"] = state.memo
    return _plain(parts)


def _play_on(state: Any, system: str, decisions: int, seed: int) -> list[str]:
    """A random commander (seeded: a copy and its reference play alike) plays both sides of
    ``state`` on for up to ``decisions`` decisions with dice of its own; the actions played."""
    rules = find_system(system)
    state.rng = np.random.Generator(np.random.PCG64(seed))
    player = get_commander("random", seed, system=system)
    played = []
    for _ in range(decisions):
        actions = rules.legal_actions(state) if not state.done else []
        if not actions:
            break
        action = player.choose(state, actions)
        rules.apply(state, action)
        played.append(str(action))
    return played


def _deep_copy(state: Any) -> Any:
    """The reference: a deep copy sharing only what never changes and the sight cache."""
    shared = [state.table, state.sight]
    shared += [state.forces, state.mechanic] if isinstance(state, WwpdState) else [state.armies]
    memo = {id(x): x for x in shared}
    memo.update((id(us.unit), us.unit) for us in state.units.values())
    return copy.deepcopy(state, memo)


#: system, mechanic, armies, seed, every how many decisions a copy is checked, and a phase
#: that must be among those checked (an attack waiting for the defender's bennies: the fields
#: the clone deep-copies).
GAMES = [
    ("gff", "clock-bennies", "gff/shooty-150.txt", "gff/melee-150.txt", 5, 8, "defend"),
    ("riverside", "clock-bennies", "gff/elite-150.txt", "gff/horde-150.txt", 6, 8, "defend"),
    ("wwpd", "wwpd", "wwpd/colonial.yaml", "wwpd/colonial.yaml", 7, 8, "shooting"),
]
#: Decisions played of each game (setup and the first rounds: every kind of step).
DECISIONS = 45


class _Enough(Exception):
    """Stops a game once :data:`DECISIONS` are played."""


@pytest.mark.parametrize(
    ("system", "mechanic", "a", "b", "seed", "every", "must"), GAMES, ids=lambda x: str(x)
)
def test_a_clone_shares_nothing_with_its_parent_and_plays_as_a_deep_copy(
    system: str, mechanic: str, a: str, b: str, seed: int, every: int, must: str
) -> None:
    """At decisions all through the start of a seeded game on terrain (setup, activations,
    clocks, shots), a clone played on for a dozen decisions (moves, charges, shots, wounds,
    markers, tokens, bennies, the log) leaves its parent exactly as it was, and plays the same
    actions to the same state and log as a deep copy of the parent with the same dice."""
    reader = army_format(find_system(system).army_format)
    armies = [reader.load(sample_path(name)) for name in (a, b)]
    seen: list[str] = []
    checked: set[str] = set()

    def check(state: Any, _action: Any) -> None:
        step = len(seen) + 1
        seen.append(state.phase)
        if step >= DECISIONS:
            raise _Enough
        waiting = [f for f in STATE_FIELDS["deep"] if getattr(state, f, None) is not None]
        if step % every and not waiting:  # an attack half done is checked every time
            return
        checked.add(state.phase)
        before = _fingerprint(state)
        twin, deep = state.clone(), _deep_copy(state)
        assert _fingerprint(twin) == before
        played = _play_on(twin, system, 10, step)
        assert _fingerprint(state) == before  # the parent is untouched
        assert _play_on(deep, system, 10, step) == played
        assert _fingerprint(twin) == _fingerprint(deep)
        assert json.dumps(twin.log.events, default=str) == json.dumps(deep.log.events, default=str)

    commanders = [
        get_commander("rules", 1, system=system),
        get_commander("rules", 2, system=system),
    ]
    with pytest.raises(_Enough):
        play_game(
            armies[0],
            armies[1],
            commanders,
            seed=seed,
            mechanic=mechanic,
            table=mission_table(seed),
            system=system,
            on_decision=check,
        )
    assert must in checked


def test_a_clone_given_dice_rolls_them_and_the_parent_keeps_its_own() -> None:
    """``clone(rng)``: the copy rolls the given stream; the parent's is neither drawn from nor
    replaced (a search's copies never touch the real game's dice)."""
    reader = army_format("army-forge")
    a, b = (reader.load(sample_path(n)) for n in ("gff/shooty-150.txt", "gff/melee-150.txt"))
    state = find_system("gff").new_game(a, b, seed=3)
    own = np.random.Generator(np.random.PCG64(9))
    before = state.rng.bit_generator.state
    twin = state.clone(own)
    assert twin.rng is own
    assert state.rng.bit_generator.state == before
    plain = state.clone()
    assert plain.rng is not state.rng
    assert plain.rng.integers(6, size=20).tolist() == state.rng.integers(6, size=20).tolist()
