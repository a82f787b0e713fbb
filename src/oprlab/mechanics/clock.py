"""The Diceless OPR clock (seed 000): a counter 1..6 replaces the die.

A check adds its increment to the owner's clock; if the clock would pass 6 it rolls over (value
minus 6) and the check fails. The increment of an "on a X+" check is ``X - 1``; penalties add,
bonuses subtract, and the result is clamped to 1..5. "Unmodified" 1s and 6s are where the clock
would land with no modifiers: landing on 6 always succeeds, landing on 1 always fails, while the
clock itself always moves by the modified increment. The seed's variations (global, per-unit and
random clocks, tokens, bennies) are options of one :class:`Clock` class, registered by name.

Outcomes are certain given the state: :meth:`Clock.outcomes` is a point distribution and
:meth:`Clock.sample` returns the very same outcome without touching the generator.

May import ``oprlab.prob``, ``oprlab.errors`` and ``oprlab.mechanics`` only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from oprlab.errors import OptionError
from oprlab.mechanics.base import Check, Factory, Mechanic, Outcome, Owner, State, Test
from oprlab.mechanics.clock_state import (
    CLOCK_MAX,
    BennyUse,
    ClockKey,
    ClockState,
    TokenKey,
    bennies_left,
    spend_benny,
)
from oprlab.mechanics.d6 import validate_check
from oprlab.mechanics.dopr_rules import dopr_rule
from oprlab.prob import Dist

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "GFF_ROUNDS",
    "BennyUse",
    "Clock",
    "ClockKey",
    "ClockState",
    "TokenKey",
    "advance",
    "base_increment",
    "bennies_left",
    "increment",
    "initial_tokens",
    "landing",
    "spend_benny",
]

Scope = Literal["army", "global", "unit"]
SCOPES: tuple[Scope, ...] = ("army", "global", "unit")
MAX_INCREMENT = 5
MIN_INCREMENT = 1
#: Caster: spent spell tokens may take the increment down to 0 (seed 000 "Caster(X)").
CASTING_MIN_INCREMENT = dopr_rule("Caster").min_increment
#: Tokens replace Defense and attacks only (seed 000 variation 4); other checks keep the clock.
TOKEN_TESTS = frozenset({Test.HIT, Test.DEFENSE})
#: A GFF game lasts 4 rounds: "1 benny per round to be played" is the clock-bennies default.
GFF_ROUNDS = 4


def base_increment(check: Check) -> int:
    """The increment before modifiers and clamping (seed 000 "Quality and Defense Checks").

    An "on a X+" check adds ``X - 1`` (``X`` after replacement effects). A wound check adds
    ``1 + markers`` (seed 000 "Wound Checks"); with Tough(X) it is ``1 + markers - (X - 1)``,
    derived the way the seed derives the plain check (see docs/rules/dopr.md).
    """
    if check.test is Test.WOUND_EFFECT:
        return 1 + check.target - (check.tough - 1)
    return check.base_difficulty - 1


def _clamp(value: int, test: Test) -> int:
    low = CASTING_MIN_INCREMENT if test is Test.CASTING else MIN_INCREMENT
    return max(low, min(MAX_INCREMENT, value))


def increment(check: Check) -> int:
    """What the clock advances by: the base increment, penalties added, bonuses subtracted.

    ``Check.modifier`` is positive for a bonus, so it is subtracted; the result is clamped to
    1..5 (seed 000 "Applying Bonuses and Penalties"), or 0..5 for Caster's spell checks.
    """
    return _clamp(base_increment(check) - check.modifier, check.test)


def landing(clock: int, step: int) -> int:
    """Where a clock at ``clock`` lands after adding ``step``, rolling over past 6."""
    return (clock + step - 1) % CLOCK_MAX + 1


def advance(clock: int, step: int) -> tuple[int, bool]:
    """``(new value, rolled over)`` after adding ``step`` (0..5) to a clock at 1..6."""
    total = clock + step
    return (total - CLOCK_MAX, True) if total > CLOCK_MAX else (total, False)


def initial_tokens(difficulty: int, pool_size: int = 1) -> int:
    """Tokens in a fresh pool: ``(6 - X + 1)`` per attack served (seed 000 variation 4)."""
    return max(0, CLOCK_MAX - difficulty + 1) * pool_size


@lru_cache(maxsize=8192)
def _steps(check: Check) -> tuple[int, int]:
    """Validate ``check`` once and cache its (clamped base, modified) increments."""
    validate_check(check, "clock")
    if check.pool_size < 1:
        raise OptionError(
            "pool_size counts the attacks a pool serves",
            value=check.pool_size,
            expected="1 or more",
            where="clock check",
        )
    return _clamp(base_increment(check), check.test), increment(check)


class Clock(Mechanic):
    """The diceless clock and its variations, combinable through options.

    Args:
        scope: whose clock a check uses: ``"army"`` (the seed's default), ``"global"`` (one
            clock for everyone, variation 1) or ``"unit"`` (variation 2).
        start: the starting value 1..6 (the seed: 1), or ``"random"``: one d6 per clock drawn
            in :meth:`initial_state` (variation 3).
        tokens: Hit and Defense checks spend tokens instead of using the clock (variation 4).
        bennies: bennies per army (variation 5): one count for every army, or a count per army
            name; ``None`` for no bennies.
        overrides: apply "an unmodified 6 always succeeds, an unmodified 1 always fails".
        wound_overrides: apply them to wound checks too (off: a wound check, like the GFF wound
            roll it replaces, is a table lookup; see docs/rules/dopr.md).
    """

    name = "clock"
    summary = "Diceless OPR: each army's clock 1..6 advances by Q/D - 1; rolling over fails"
    deterministic = True

    def __init__(
        self,
        scope: str = "army",
        start: int | str = 1,
        tokens: bool = False,
        bennies: int | Mapping[str, int] | None = None,
        overrides: bool = True,
        wound_overrides: bool = False,
    ) -> None:
        if scope not in SCOPES:
            raise OptionError(
                "unknown clock scope", value=scope, expected=" or ".join(SCOPES), where="scope"
            )
        if start != "random" and (
            isinstance(start, bool) or not isinstance(start, int) or not 1 <= start <= CLOCK_MAX
        ):
            raise OptionError(
                "clock start out of range",
                value=start,
                expected="an integer 1 to 6, or 'random'",
                where="start",
            )
        if bennies is not None:
            counts = bennies.values() if isinstance(bennies, Mapping) else [bennies]
            for n in counts:
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise OptionError(
                        "bennies must be a count", value=n, expected="0 or more", where="bennies"
                    )
            if isinstance(bennies, Mapping):
                bennies = dict(bennies)
        if wound_overrides and not overrides:
            raise OptionError(
                "wound_overrides applies the unmodified 1/6 rule to wound checks, "
                "but overrides=False turns that rule off",
                value={"overrides": overrides, "wound_overrides": wound_overrides},
                expected="overrides=True, or wound_overrides=False",
                where="wound_overrides",
            )
        self.scope: Scope = scope  # narrowed by the SCOPES check above
        self.start = start
        self.tokens = bool(tokens)
        self.bennies = bennies
        self.overrides = bool(overrides)
        self.wound_overrides = bool(wound_overrides)

    @property
    def options(self) -> dict[str, Any]:
        """The options this clock was built with, for recording beside results."""
        return {
            "scope": self.scope,
            "start": self.start,
            "tokens": self.tokens,
            "bennies": self.bennies,
            "overrides": self.overrides,
            "wound_overrides": self.wound_overrides,
        }

    def __repr__(self) -> str:
        return "Clock(" + ", ".join(f"{k}={v!r}" for k, v in self.options.items()) + ")"

    # -- keys -----------------------------------------------------------------------------

    def clock_key(self, owner: Owner) -> ClockKey:
        """The key of the clock ``owner`` uses under this scope."""
        if self.scope == "global":
            return ()
        if not owner.army:
            raise OptionError(
                f"a {self.scope} clock needs the check's owner army",
                value=owner,
                expected="Owner(army=...)",
                where="Check.owner",
            )
        if self.scope == "army":
            return (owner.army,)
        if not owner.unit:
            raise OptionError(
                "a unit clock needs the check's owner army and unit",
                value=owner,
                expected="Owner(army=..., unit=...)",
                where="Check.owner",
            )
        return (owner.army, owner.unit)

    @staticmethod
    def token_key(check: Check) -> TokenKey:
        """The key of the token pool a Hit or Defense check spends from."""
        owner = check.owner
        if not owner.army or not owner.unit or (check.test is Test.HIT and not owner.pool):
            raise OptionError(
                "a token pool needs the owner's army and unit (and the weapon as pool for hits)",
                value=owner,
                expected="Owner(army=..., unit=..., model=..., pool=weapon name)",
                where="Check.owner",
            )
        return (owner.army, owner.unit, owner.model, owner.pool, str(check.test))

    def uses_tokens(self, check: Check) -> bool:
        """Whether ``check`` spends a token rather than moving a clock."""
        return self.tokens and check.test in TOKEN_TESTS

    # -- state ----------------------------------------------------------------------------

    def initial_state(
        self, owners: Sequence[Owner] = (), rng: np.random.Generator | None = None
    ) -> ClockState:
        """Clocks for these owners (in first-seen order) at the start value, and bennies.

        With ``start="random"`` each clock gets its own d6 from ``rng``, drawn in one call.
        """
        keys = list(dict.fromkeys(self.clock_key(o) for o in owners))
        if self.scope == "global":
            keys = [()]
        if self.start == "random":
            if rng is None:
                raise OptionError(
                    "random clock starts need a generator",
                    expected="initial_state(owners, rng)",
                    where="rng",
                )
            values = [int(v) for v in rng.integers(1, CLOCK_MAX + 1, size=len(keys))]
        else:
            values = [int(self.start)] * len(keys)
        bennies: dict[str, int] = {}
        if isinstance(self.bennies, dict):
            missing = sorted({o.army for o in owners if o.army} - set(self.bennies))
            if missing:
                raise OptionError(
                    "no benny count for these armies",
                    value=missing,
                    expected="a count for every army",
                    where="bennies",
                )
            bennies = dict(self.bennies)
        elif self.bennies is not None:
            bennies = {o.army: self.bennies for o in owners if o.army}
        return ClockState(dict(zip(keys, values, strict=True)), {}, bennies)

    def _state(self, state: State) -> ClockState:
        if state is None:
            return ClockState()
        if not isinstance(state, ClockState):
            raise TypeError(f"the clock's state is a ClockState, not {type(state).__name__}")
        return state

    def _clock_value(self, state: ClockState, key: ClockKey) -> int:
        value = state.clocks.get(key)
        if value is not None:
            return value
        if isinstance(self.start, int):
            return self.start  # a clock not seen yet starts at the start value
        raise OptionError(
            "this clock has no random start: pass its owner to initial_state",
            value=key,
            expected="a clock created by initial_state(owners, rng)",
            where="state",
        )

    # -- resolution -----------------------------------------------------------------------

    def resolve(self, check: Check, state: State = None) -> Outcome:
        """The one outcome of ``check`` from ``state``; the new state rides in the outcome."""
        base, step = _steps(check)
        current_state = self._state(state)
        if self.uses_tokens(check):
            return self._spend_token(check, current_state)
        key = self.clock_key(check.owner)
        clock = self._clock_value(current_state, key)
        natural = landing(clock, base)
        new_clock, rolled_over = advance(clock, step)
        wound = check.test is Test.WOUND_EFFECT
        if check.unmodified_six_only:
            success = natural == CLOCK_MAX  # Fatigue: only an unmodified 6 hits
        elif (self.wound_overrides if wound else self.overrides) and natural in (1, CLOCK_MAX):
            success = natural == CLOCK_MAX
        else:
            success = not rolled_over
        critical = success and not wound and natural >= check.critical_from
        return Outcome(
            success=success,
            natural=natural,
            critical=critical,
            fumble=natural == 1,
            quality=int(success),
            state=current_state.with_clock(key, new_clock),
        )

    def _spend_token(self, check: Check, state: ClockState) -> Outcome:
        # Tokens succeed automatically while they last: no modifiers, no criticals, no natural.
        key = self.token_key(check)
        left = state.tokens.get(key)
        if left is None:
            left = initial_tokens(check.base_difficulty, check.pool_size)
        success = left > 0
        return Outcome(
            success=success,
            natural=0,
            quality=int(success),
            state=state.with_tokens(key, left - 1 if success else 0),
        )

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        """The certain outcome, as a point distribution."""
        return Dist.point(self.resolve(check, state))

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        """The same outcome :meth:`outcomes` lists; the generator is not used."""
        return self.resolve(check, state)

    def spend_benny(
        self,
        state: ClockState,
        army: str,
        use: BennyUse,
        *,
        owner: Owner | None = None,
        value: int | None = None,
    ) -> ClockState:
        """:func:`spend_benny`, naming the clock to set by its ``owner`` under this scope."""
        clock = None if owner is None else self.clock_key(owner)
        return spend_benny(state, army, use, clock=clock, value=value)


_OPTION_NAMES = frozenset(Clock().options)


def _variant(name: str, fixed: Mapping[str, Any], defaults: Mapping[str, Any]) -> Factory:
    """A factory for ``name``: ``fixed`` options refuse other values, ``defaults`` may change."""

    def factory(**options: Any) -> Clock:
        unknown = sorted(set(options) - _OPTION_NAMES)
        if unknown:
            raise OptionError(
                f"unknown option for {name}",
                value=unknown,
                expected="any of " + ", ".join(sorted(_OPTION_NAMES)),
            )
        for option, value in fixed.items():
            if option in options and options[option] != value:
                raise OptionError(
                    f"{name} fixes {option}={value!r}",
                    value=options[option],
                    expected=f"{value!r}, or the plain 'clock' mechanic with options",
                    where=option,
                )
        merged = {**defaults, **options, **fixed}
        for option, default in defaults.items():
            if merged[option] is None:
                raise OptionError(
                    f"{name} needs {option}",
                    value=None,
                    expected=f"a value (default {default!r}), or the plain 'clock'",
                    where=option,
                )
        return Clock(**merged)

    return factory


_VARIANTS: tuple[tuple[str, dict[str, Any], dict[str, Any], str], ...] = (
    ("clock", {}, {}, Clock.summary),
    ("clock-global", {"scope": "global"}, {}, "Diceless OPR, one clock shared by all armies"),
    ("clock-unit", {"scope": "unit"}, {}, "Diceless OPR, a clock per unit"),
    ("clock-random", {"start": "random"}, {}, "Diceless OPR, each clock starts on a d6 roll"),
    (
        "clock-tokens",
        {"tokens": True},
        {},
        "Diceless OPR, hits and Defense spend (7 - X) tokens per pool; other checks use clocks",
    ),
    (
        "clock-bennies",
        {},
        {"bennies": GFF_ROUNDS},
        "Diceless OPR with bennies to bend the rules (default 4 per army, one per GFF round)",
    ),
)

#: The clock and its named variants: name -> (factory, summary), read by the registry.
MECHANICS: dict[str, tuple[Factory, str]] = {
    name: (_variant(name, fixed, defaults), summary) for name, fixed, defaults, summary in _VARIANTS
}
