"""The state of a DragonQuest duel: two fighters' condition, the round, and what comes next.

A :class:`Fight` is an immutable value. What happens next is a tuple of *steps*, each a small
frozen value of one of three kinds, in the manner of OpenSpiel's chance player:

* an :class:`AutoStep` runs on its own (start a round, work out a strike chance);
* a :class:`ChanceStep` waits for one die: it names the die's sides, reads a face into the
  *outcome* that matters to the fight (a quality, the damage after armour), and applies it; the
  same reading serves sampling (one face rolled) and exact analysis (every face, grouped by
  outcome), so both run one rules code path;
* a :class:`DecisionStep` waits for a fighter's choice among options listed in a fixed order.

Two fights with the same condition and the same steps ahead are equal and hash alike, which lets
exact analysis merge them. The fighters' profiles and the rules sit in a :class:`Duel`, shared
by every state of one duel and compared by identity.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from oprlab.rules.dq.combat import AttackKind
from oprlab.rules.dq.duel_rules import DuelRules
from oprlab.units.dq_fighter import DqFighter

__all__ = [
    "SIDES",
    "Action",
    "AutoStep",
    "ChanceStep",
    "DecisionStep",
    "Duel",
    "Event",
    "Fight",
    "Harm",
    "Out",
    "Outcome",
    "Status",
    "Step",
    "StepResult",
    "StrikeRecord",
    "other",
]

#: The two sides of a duel: 0 is the first fighter named (A), 1 the second (B).
SIDES = (0, 1)


def other(side: int) -> int:
    """The opponent's side."""
    return 1 - side


class Out(StrEnum):
    """How a fighter leaves the fight."""

    DEAD = "dead"
    UNCONSCIOUS = "unconscious"
    KNOCKED_OUT = "knocked out"
    RESTRAINED = "restrained"
    WITHDREW = "withdrew"


@dataclass(frozen=True, slots=True)
class Status:
    """One fighter's condition during the fight.

    Attributes:
        ft: Fatigue left.
        en: Endurance left.
        stunned: stunned (Defence is Magic + modifiers; the next action is a recovery roll).
        prone: knocked down (attackers get +20; the next action is standing up).
        disarmed: the weapon is out of hand (the next action is readying it).
        entangled: entangled (the next action is freeing itself).
        evading: evading until its next action (+10 and +4 per Rank; may parry).
        withdrawing: in a defensive withdrawal until its next action (+20).
        leaving: its withdrawal succeeded: it leaves the fight at the end of the round.
        must_pass: it must pass its next action (after a parry; off balance after a fumble).
        initiative_penalty: taken off its next engaged initiative (after a fumble).
        out: how it left the fight, if it has.
        blows: how many rolls have harmed or hampered it (damage, a knockdown, a disarm ...).
    """

    ft: int
    en: int
    stunned: bool = False
    prone: bool = False
    disarmed: bool = False
    entangled: bool = False
    evading: bool = False
    withdrawing: bool = False
    leaving: bool = False
    must_pass: bool = False
    initiative_penalty: int = 0
    out: Out | None = None
    blows: int = 0


@dataclass(frozen=True, eq=False)
class Duel:
    """What does not change during a duel: the two fighters and the rules (shared by identity)."""

    fighters: tuple[DqFighter, DqFighter]
    rules: DuelRules = field(default_factory=DuelRules)


@dataclass(frozen=True, slots=True)
class Action:
    """A fighter's choice.

    ``what`` is one of ``charge``, ``close``, ``attack``, ``evade``, ``withdraw``,
    ``offensive withdrawal``, ``pass``, ``parry``, ``decline``; ``attack`` names the attack kind
    for ``charge``, ``attack`` and ``offensive withdrawal``.
    """

    what: str
    attack: AttackKind | None = None

    def __str__(self) -> str:
        return self.what if self.attack is None else f"{self.what} ({self.attack})"


@dataclass(frozen=True, slots=True)
class Event:
    """One line of a fight's account."""

    round: int
    side: int
    text: str


@dataclass(frozen=True, slots=True)
class StrikeRecord(Event):
    """A resolved strike, with every number that decided it (for analysis and the intents).

    ``attack_quality`` and ``defence_quality`` are ``None`` under the current rules (one roll,
    no qualities); ``defence_roll`` likewise.
    """

    kind: AttackKind = AttackKind.STRIKE
    strike_chance: int = 0
    defence: int = 0
    attack_roll: int = 0
    roll_modifier: int = 0
    attack_quality: int | None = None
    defence_roll: int | None = None
    defence_quality: int | None = None
    level: int = 0
    parry_allowed: bool = False
    fumble: bool = False
    evading: bool = False


@dataclass(frozen=True, slots=True)
class Harm(Event):
    """Damage taken by ``side``: Fatigue and Endurance lost (after armour), and from what."""

    fatigue: int = 0
    endurance: int = 0
    source: str = "strike"


Outcome = Hashable
StepResult = tuple["Fight", tuple[Event, ...]]


@dataclass(frozen=True, slots=True)
class Fight:
    """A duel in progress (or over).

    Attributes:
        duel: the fighters and the rules.
        status: each side's condition.
        round: the current round (DQ's pulse), from 1.
        engaged: the two are in melee (after the opening charge or closing).
        steps: what happens next, first first.
        draw: the duel reached its round limit.
    """

    duel: Duel
    status: tuple[Status, Status]
    round: int = 1
    engaged: bool = False
    steps: tuple[Step, ...] = ()
    draw: bool = False

    @property
    def over(self) -> bool:
        return self.draw or self.status[0].out is not None or self.status[1].out is not None

    @property
    def winner(self) -> int | None:
        """The side still in the fight once the other is out; ``None`` while on or for a draw."""
        outs = [s.out is not None for s in self.status]
        if outs == [True, False]:
            return 1
        if outs == [False, True]:
            return 0
        return None

    def fighter(self, side: int) -> DqFighter:
        return self.duel.fighters[side]

    def evolve(
        self,
        *,
        status: tuple[Status, Status] | None = None,
        round: int | None = None,
        engaged: bool | None = None,
        steps: tuple[Step, ...] | None = None,
        draw: bool | None = None,
    ) -> Fight:
        """This fight with some fields changed (``dataclasses.replace``, several times faster:
        a duel makes a new fight at every step)."""
        return Fight(
            self.duel,
            self.status if status is None else status,
            self.round if round is None else round,
            self.engaged if engaged is None else engaged,
            self.steps if steps is None else steps,
            self.draw if draw is None else draw,
        )

    def with_status(self, side: int, **changes: object) -> Fight:
        """This fight with ``side``'s status changed."""
        new = replace(self.status[side], **changes)  # type: ignore[arg-type]
        pair = (new, self.status[1]) if side == 0 else (self.status[0], new)
        return self.evolve(status=pair)

    def push(self, *steps: Step) -> Fight:
        """This fight with ``steps`` to happen next, before what was already waiting."""
        return self.evolve(steps=steps + self.steps)


class Step:
    """Something that happens next in a fight (see the module docstring)."""

    __slots__ = ()


class AutoStep(Step):
    """A step that runs on its own."""

    __slots__ = ()

    def run(self, fight: Fight) -> StepResult:
        raise NotImplementedError


class ChanceStep(Step):
    """A step that waits for one die of :meth:`sides` faces (1..sides)."""

    __slots__ = ()

    def sides(self, fight: Fight) -> int:
        raise NotImplementedError

    def read(self, fight: Fight, face: int) -> Outcome:
        """What the face means to the fight (faces with the same outcome lead to equal fights)."""
        raise NotImplementedError

    def rerolled(self, outcome: Outcome) -> bool:
        """Whether this outcome is rolled again (a tie in a roll-off)."""
        return False

    def apply(self, fight: Fight, outcome: Outcome, face: int) -> StepResult:
        """The fight after ``outcome``; ``face`` (one face giving it) is for the account only."""
        raise NotImplementedError


class DecisionStep(Step):
    """A step that waits for ``side``'s choice."""

    __slots__ = ()

    @property
    def side(self) -> int:
        raise NotImplementedError

    def options(self, fight: Fight) -> tuple[Action, ...]:
        raise NotImplementedError

    def apply(self, fight: Fight, action: Action) -> StepResult:
        raise NotImplementedError
