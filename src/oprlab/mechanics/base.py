"""The narrow interface every resolution mechanic implements.

A rule system asks one question thousands of times a game: how does this check come out? It
describes the check as a :class:`Check` (what is tested, the base target, replacement effects,
modifiers, whose clock or pool it uses) and a :class:`Mechanic` answers, either by *sampling* an
:class:`Outcome` with an injected numpy Generator or by *listing* every outcome with its exact
probability. Both paths run the same rules code, so exact odds and simulation cannot drift apart.

Stateful mechanics (the clock, tokens, bennies) never hide state: it is passed in and the new
state comes back inside each outcome.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar

from oprlab.prob import Dist

if TYPE_CHECKING:
    import numpy as np

#: A mechanic's state: immutable and hashable (``None`` for the stateless d6).
State = Hashable


class Test(StrEnum):
    """What a check tests, in the rulebooks' words; mechanics may treat kinds differently."""

    __test__ = False  # not a pytest test class, despite its name

    HIT = "hit"  # an attack's quality test (OPR), to-hit (WWPD)
    DEFENSE = "defense"  # a Defense roll (OPR)
    QUALITY = "quality"  # any other quality test
    MORALE = "morale"  # a morale test: a quality test
    WOUND_EFFECT = "wound_effect"  # GFF: roll + markers, Knocked Out on 5+X
    REGENERATION = "regeneration"
    CASTING = "casting"
    GENERIC = "generic"  # "on a X+"
    TO_WOUND = "to_wound"  # WWPD
    SAVE = "save"  # WWPD cover or defensive save
    STRIKE = "strike"  # DQ attack quality roll against strike chance
    DEFENCE = "defence"  # DQ defence quality roll


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose clock, pool or bennies a check uses. Fields left empty are not needed."""

    army: str = ""
    unit: str = ""
    model: int = 0
    pool: str = ""  # tokens: the weapon (for attacks) or "defense"


@dataclass(frozen=True, slots=True)
class Check:
    """One check to resolve.

    Attributes:
        test: what is tested.
        target: the base difficulty: ``4`` means 4+ (OPR, WWPD; WWPD allows <2 and >6). For the
            GFF wound effect it is the number of wound markers; for DQ it is the chance in %.
        replacements: targets set by replacement effects (Reliable sets 2+); applied before
            modifiers, the roller choosing the order, so the lowest is the one that stands.
        modifier: the net modifier; positive is a bonus (easier), negative a penalty.
        owner: whose clock or pool the check uses (stateful mechanics only).
        critical_from: the lowest unmodified value that is critical (6; 5 widens to 5-6).
        unmodified_six_only: succeeds only on an unmodified 6 (Fatigue).
        tough: Tough(X) of the model making a wound-effect check.
        pool_size: tokens: how many attacks the pool serves (tokens are multiplied by it).
        armoured_vehicle: WWPD to-wound against an armoured vehicle: 7+ cannot succeed.
    """

    test: Test
    target: int
    replacements: tuple[int, ...] = ()
    modifier: int = 0
    owner: Owner = field(default_factory=Owner)
    critical_from: int = 6
    unmodified_six_only: bool = False
    tough: int = 1
    pool_size: int = 1
    armoured_vehicle: bool = False

    @property
    def base_difficulty(self) -> int:
        """The difficulty after replacement effects, before modifiers."""
        return min(self.replacements) if self.replacements else self.target


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a check came out.

    Attributes:
        success: whether the check succeeded (for a wound effect: the model stays in play).
        natural: the unmodified value: the die face, the clock's landing before modifiers, or
            the D100 roll; ``0`` where a mechanic has none (tokens).
        critical: the unmodified value is in the critical range (and the check succeeded).
        fumble: an unmodified 1.
        quality: DQ success quality 0..6; elsewhere 1 for a success and 0 for a failure.
        state: the mechanic's state after the check (``None`` for stateless mechanics).
    """

    success: bool
    natural: int
    critical: bool = False
    fumble: bool = False
    quality: int = 0
    state: State = None


class Mechanic(ABC):
    """A resolution mechanic: lists exact outcomes and samples them, from the same code."""

    name: ClassVar[str]
    summary: ClassVar[str]
    version: ClassVar[str] = "1"
    #: Whether outcomes are certain given the state (the clock): exact lists have one entry.
    deterministic: ClassVar[bool] = False

    def initial_state(
        self, owners: Sequence[Owner] = (), rng: np.random.Generator | None = None
    ) -> State:
        """The state at the start of a game for these owners; stateless mechanics have none."""
        return None

    @abstractmethod
    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        """Every outcome of ``check`` with its exact probability."""

    def sample(self, check: Check, state: State, rng: np.random.Generator) -> Outcome:
        """Draw one outcome; the default draws from :meth:`outcomes`, mechanics may go faster."""
        pairs = list(self.outcomes(check, state).items())
        if len(pairs) == 1:
            return pairs[0][0]
        import numpy as np  # only when sampling: `oprlab check` starts without numpy

        weights = np.array([float(p) for _, p in pairs])
        index = int(rng.choice(len(pairs), p=weights / weights.sum()))
        return pairs[index][0]

    def float_outcomes(self, check: Check, state: State = None) -> list[tuple[Outcome, float]]:
        """:meth:`outcomes` with float probabilities, for the numpy fast paths."""
        return [(o, p.numerator / p.denominator) for o, p in self.outcomes(check, state).items()]

    def p_success(self, check: Check, state: State = None) -> Fraction:
        """Exact probability that ``check`` succeeds."""
        return self.outcomes(check, state).probability(lambda o: o.success)

    def p_critical(self, check: Check, state: State = None) -> Fraction:
        """Exact probability that ``check`` is critical."""
        return self.outcomes(check, state).probability(lambda o: o.critical)


#: Builds a mechanic from its options (a class, or a named variant's function).
Factory = Callable[..., Mechanic]
