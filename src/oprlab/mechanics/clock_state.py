"""The diceless clock's state: clock values, token pools and bennies (seed 000).

The state is a frozen, hashable value handed in and handed back with every outcome, so a game can
keep old states for replay or search. Updates copy one small dict (a game has a few dozen clocks
or pools at most), which is cheap and keeps every earlier state intact. The bennies transitions
are pure functions a commander chooses between; the rule system applies their effects.

May import ``oprlab.errors`` only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from oprlab.errors import OptionError, check_range

#: A clock's key: ``()`` for the global clock, ``(army,)`` per army, ``(army, unit)`` per unit.
ClockKey = tuple[str, ...]
#: A token pool's key: ``(army, unit, model, pool, test)``.
TokenKey = tuple[str, str, int, str, str]

CLOCK_MIN = 1
CLOCK_MAX = 6


class BennyUse(StrEnum):
    """The seed's example uses of a benny (variation 5)."""

    EXTRA_ATTACK = "extra_attack"  # a single extra attack for any unit
    DEFEND = "defend"  # defend against any single attack, even one that bypasses Defense
    SET_CLOCK = "set_clock"  # set any clock, friend or foe, to any value


@dataclass(frozen=True)
class ClockState:
    """Clock values, remaining tokens and bennies; immutable by contract, hashable, picklable.

    The dicts are private copies: never mutate them, use the ``with_*`` methods.
    """

    clocks: dict[ClockKey, int] = field(default_factory=dict)
    tokens: dict[TokenKey, int] = field(default_factory=dict)
    bennies: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Copy so a caller's dict cannot change the state later; validate what a user may pass.
        object.__setattr__(self, "clocks", dict(self.clocks))
        object.__setattr__(self, "tokens", dict(self.tokens))
        object.__setattr__(self, "bennies", dict(self.bennies))
        for key, value in self.clocks.items():
            _check_clock(key, value)
        counts: list[tuple[str, object, int]] = [("tokens", k, n) for k, n in self.tokens.items()]
        counts += [("bennies", k, n) for k, n in self.bennies.items()]
        for name, where, n in counts:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise OptionError(
                    f"{name} left must be a count", value=n, expected="0 or more", where=repr(where)
                )

    def __hash__(self) -> int:
        return hash(
            (
                frozenset(self.clocks.items()),
                frozenset(self.tokens.items()),
                frozenset(self.bennies.items()),
            )
        )

    @classmethod
    def _make(
        cls,
        clocks: dict[ClockKey, int],
        tokens: dict[TokenKey, int],
        bennies: dict[str, int],
    ) -> ClockState:
        # Fast path for transitions whose values are already checked: no copies, no validation.
        state = object.__new__(cls)
        object.__setattr__(state, "clocks", clocks)
        object.__setattr__(state, "tokens", tokens)
        object.__setattr__(state, "bennies", bennies)
        return state

    def with_clock(self, key: ClockKey, value: int) -> ClockState:
        """This state with clock ``key`` at ``value`` (1..6)."""
        _check_clock(key, value)
        clocks = dict(self.clocks)
        clocks[key] = value
        return ClockState._make(clocks, self.tokens, self.bennies)

    def with_tokens(self, key: TokenKey, left: int) -> ClockState:
        """This state with ``left`` tokens in pool ``key``."""
        tokens = dict(self.tokens)
        tokens[key] = max(0, left)
        return ClockState._make(self.clocks, tokens, self.bennies)

    def with_bennies(self, army: str, left: int) -> ClockState:
        """This state with ``left`` bennies for ``army``."""
        bennies = dict(self.bennies)
        bennies[army] = max(0, left)
        return ClockState._make(self.clocks, self.tokens, bennies)


def _check_clock(key: ClockKey, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(
            "a clock value is an integer", value=value, expected="1 to 6", where=f"clock {key!r}"
        )
    if not CLOCK_MIN <= value <= CLOCK_MAX:
        raise OptionError(
            "clock value out of range", value=value, expected="1 to 6", where=f"clock {key!r}"
        )


def bennies_left(state: ClockState, army: str) -> int:
    """How many bennies ``army`` still has (0 for an army the state does not know)."""
    return state.bennies.get(army, 0)


def spend_benny(
    state: ClockState,
    army: str,
    use: BennyUse,
    *,
    clock: ClockKey | None = None,
    value: int | None = None,
) -> ClockState:
    """Spend one of ``army``'s bennies on ``use``; the state after it.

    ``SET_CLOCK`` also sets ``clock`` (any army's or unit's, friend or foe) to ``value``.
    ``EXTRA_ATTACK`` and ``DEFEND`` only cost the benny here: the rule system grants the attack
    or cancels the hit.

    Raises:
        OptionError: no bennies left, an unknown use, or clock/value given or missing wrongly.
    """
    use = BennyUse(use)
    left = bennies_left(state, army)
    if left <= 0:
        raise OptionError(
            "no bennies left to spend", value=army, expected="an army with bennies", where="army"
        )
    if use is BennyUse.SET_CLOCK:
        if clock is None or value is None:
            raise OptionError(
                "set_clock needs the clock and its new value",
                value=(clock, value),
                expected="clock=(army,) or similar and value=1..6",
            )
        check_range("clock value", value, CLOCK_MIN, CLOCK_MAX)
        state = state.with_clock(clock, value)
    elif clock is not None or value is not None:
        raise OptionError(
            f"{use.value} takes no clock or value", value=(clock, value), expected="neither"
        )
    return state.with_bennies(army, left - 1)
