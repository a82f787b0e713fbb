"""Clock-bennies in the GFF and Riverside games: counting them, an extra attack, setting a clock.

Seed 000 variation 5 ("Bennies") is the same in both procedures: a side's bennies may "grant a
single extra attack to any unit" and "roll any clock (friend or foe) immediately to any value";
before a unit's attack oprlab offers one clock per activation, named by a unit using it (the
shooter's or a target's). Under other mechanics a side has no bennies. What the procedures add
comes in as arguments: what the attack is called in a message, and whether a clock may be set
without a target (Riverside offers the shooting step without one while a Special Ability is
still to use, and keeps clocks for a real Ranged Attack). Defending against hits is
:mod:`oprlab.game.benny_defence`.

May import ``oprlab.game.state``, ``oprlab.game.actions``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import BennyUse, ClockState, bennies_left, spend_benny

#: Clock values a benny may set (seed 000 variation 5: "to any value").
CLOCK_VALUES = (1, 2, 3, 4, 5, 6)


def bennies_available(state: GameState, side: int) -> int:
    """Bennies a side has left (clock-bennies; 0 under other mechanics)."""
    if isinstance(state.mech_state, ClockState):
        return bennies_left(state.mech_state, f"side{side}")
    return 0


def can_set_clocks(state: GameState, side: int) -> bool:
    """Whether ``side`` may spend a benny to set a clock (clock-bennies, bennies left)."""
    return isinstance(state.mechanic, Clock) and bennies_available(state, side) > 0


def spend_extra_attack(state: GameState, us: UnitState) -> None:
    """Seed 000 "Bennies": "grant a single extra attack to any unit" (the commander's choice)."""
    assert isinstance(state.mech_state, ClockState)
    state.mech_state = spend_benny(state.mech_state, f"side{us.side}", BennyUse.EXTRA_ATTACK)
    state.log.add("benny", side=us.side, unit=us.uid, use=BennyUse.EXTRA_ATTACK.value)


def set_clock_actions(
    state: GameState, us: UnitState, targets: Sequence[str], *, need_target: bool
) -> list[Action]:
    """Before the attack, a benny may set a clock: the attacker's or a target's, to 1..6.

    One clock per activation; each clock is named by one unit using it. ``need_target``: only
    with a target to attack (no clock is offered otherwise).
    """
    pending = state.pending
    mech = state.mechanic
    if need_target and not targets:
        return []
    if pending is None or pending.clock_set or not can_set_clocks(state, us.side):
        return []
    assert isinstance(mech, Clock)
    seen: set[tuple[str, ...]] = set()
    acts = []
    for uid in (us.uid, *targets):
        key = mech.clock_key(state.units[uid].owner)
        if key in seen:
            continue
        seen.add(key)
        acts += [Action(Kind.SET_CLOCK, us.uid, target=uid, value=v) for v in CLOCK_VALUES]
    return acts


def set_clock_problem(state: GameState, us: UnitState, a: Action, *, attack: str) -> str | None:
    """Why ``a`` (a ``SET_CLOCK`` by ``us``) may not be taken now, or ``None``; ``attack``
    names the step the clock comes before in the message ("the unit shoots")."""
    p = state.pending
    if state.phase != Phase.SHOOT or p is None or p.unit != us.uid:
        return f"a benny sets a clock before {attack}"
    if p.clock_set:
        return "one clock per activation"
    if not can_set_clocks(state, us.side):
        return "no bennies left (or no clocks to set)"
    if a.spell or a.boost or a.to is not None or a.benny or a.second or a.split:
        return "set_clock takes a unit whose clock it sets and a value"
    whose = state.units.get(a.target)
    if whose is None or not whose.on_table:
        return "name the clock by a unit on the table"
    if a.value not in CLOCK_VALUES:
        return "a clock is set to 1..6"
    return None


def roll_clock(state: GameState, side: int, uid: str, value: int) -> list[str]:
    """Spend one of ``side``'s bennies setting the clock ``uid`` uses to ``value`` (seed 000
    variation 5: "Roll any clock (friend or foe) immediately to any value"); the clock's key."""
    mech = state.mechanic
    assert isinstance(mech, Clock) and isinstance(state.mech_state, ClockState)
    owner = state.units[uid].owner
    state.mech_state = mech.spend_benny(
        state.mech_state, f"side{side}", BennyUse.SET_CLOCK, owner=owner, value=value
    )
    return list(mech.clock_key(owner))


def set_clock(state: GameState, us: UnitState, a: Action) -> None:
    """Before ``us``'s attack a benny sets any clock, friend or foe, to any value (once)."""
    pending = state.pending
    assert pending is not None
    clock = roll_clock(state, us.side, a.target, a.value)
    state.log.add(
        "benny", side=us.side, unit=us.uid, use=BennyUse.SET_CLOCK.value, clock=clock, value=a.value
    )
    state.pending = replace(pending, clock_set=True)


def clocks_in_play(state: GameState) -> list[str]:
    """One unit on the table naming each clock in play (by uid, the first of each clock)."""
    mech = state.mechanic
    assert isinstance(mech, Clock)
    seen: dict[tuple[str, ...], str] = {}
    for uid in sorted(state.units):
        us = state.units[uid]
        if us.on_table:
            seen.setdefault(mech.clock_key(us.owner), uid)
    return list(seen.values())


def offer_clocks(
    state: GameState, can_activate: Callable[[GameState, int], object], *, enabled: bool = True
) -> None:
    """Seed 000 variation 5, "Roll any clock (friend or foe) immediately to any value": under
    clock-bennies a side with a benny left may set one clock in play (or pass) at the start of
    each of its activations (phase ``clocks``, before it picks the unit). ``can_activate``: the
    procedure's own test that the side has a unit to activate; ``enabled``: its option."""
    if (
        state.phase == Phase.ACTIVATION
        and not state.done
        and enabled
        and can_set_clocks(state, state.active)
        and can_activate(state, state.active)
    ):
        state.phase = Phase.CLOCKS


def start_clock_actions(state: GameState) -> list[Action]:
    """At an activation's start (phase ``clocks``): pass (``SET_CLOCK`` with no target and
    ``value`` 0) or set a clock in play, named by a unit using it, to 1..6."""
    acts = [Action(Kind.SET_CLOCK)]
    for uid in clocks_in_play(state):
        acts += [Action(Kind.SET_CLOCK, target=uid, value=v) for v in CLOCK_VALUES]
    return acts


def start_clock_problem(state: GameState, a: Action) -> str | None:
    """Why ``a`` may not be taken at an activation's start, or ``None`` (the pass is legal)."""
    if a.kind is not Kind.SET_CLOCK:
        return "at an activation's start: set a clock with a benny, or pass"
    if a.unit or a.spell or a.boost or a.to is not None or a.benny or a.second or a.split:
        return "set_clock at an activation's start takes a clock (a unit using it) and a value"
    if a.choice:
        return "set_clock at an activation's start takes a clock (a unit using it) and a value"
    if not a.target and a.value == 0:
        return None  # pass
    whose = state.units.get(a.target)
    if whose is None or not whose.on_table:
        return "name the clock by a unit on the table"
    if a.value not in CLOCK_VALUES:
        return "a clock is set to 1..6 (or pass: no clock and value 0)"
    return None


def start_clock(state: GameState, side: int, a: Action) -> None:
    """Spend ``side``'s benny setting the clock ``a`` names (logged, ``when`` "activation"),
    or nothing for the pass; the caller then lets the side pick its unit."""
    if not a.target:
        return
    clock = roll_clock(state, side, a.target, a.value)
    state.log.add(
        "benny",
        side=side,
        use=BennyUse.SET_CLOCK.value,
        clock=clock,
        value=a.value,
        when="activation",
    )


__all__: Sequence[str] = [
    "CLOCK_VALUES",
    "bennies_available",
    "can_set_clocks",
    "clocks_in_play",
    "roll_clock",
    "set_clock",
    "set_clock_actions",
    "set_clock_problem",
    "spend_extra_attack",
    "start_clock",
    "start_clock_actions",
    "start_clock_problem",
]
