"""Actions: what a commander can choose, as small frozen values in a canonical order.

May import ``oprlab.table.model`` only.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

from oprlab.table.model import Point


class Kind(StrEnum):
    """Decisions in a game, in the order legal actions are listed."""

    PLACE_OBJECTIVE = "place_objective"
    DEPLOY = "deploy"
    HOLD = "hold"
    ADVANCE = "advance"
    RUSH = "rush"
    CHARGE = "charge"
    IDLE = "idle"
    SHOOT = "shoot"  # after Hold or Advance: the unit's targets (none: hold fire)
    CONSOLIDATE = "consolidate"  # After Combat: the survivor may move up to 3"
    CAST = "cast"  # Caster(X): try a spell before the unit's action (GFF)
    SET_CLOCK = "set_clock"  # clock-bennies: spend a benny to set a clock (GFF, before a shot)
    CHOOSE_ZONE = "choose_zone"  # the deployment roll-off winner's choice (``choice``)
    RESIST = "resist"  # Caster(X): an enemy Caster's tokens for -1 each to a casting roll (GFF)
    DEFEND = "defend"  # clock-bennies: spend a benny to defend against one attack (GFF)
    TELEPORT = "teleport"  # Teleport: place the unit anywhere within 6" (Riverside)
    STRIKE_BACK = "strike_back"  # the charged unit strikes back (value 1) or not (0) (GFF)


KIND_ORDER = {k: i for i, k in enumerate(Kind)}
#: The actions that spend a unit's activation (its choice of unit and action).
ACTIVATIONS = frozenset({Kind.HOLD, Kind.ADVANCE, Kind.RUSH, Kind.CHARGE, Kind.IDLE})


@dataclass(frozen=True, slots=True)
class Action:
    """One decision.

    Attributes:
        kind: what is done.
        unit: the acting unit's uid (empty for objective placement).
        to: where to move, deploy or place (inches); ``None`` for a consolidation: stay.
        target: the unit shot at or charged (empty: none; for ``SHOOT``: hold fire).
        second: ``SHOOT``: a second target (seed 003 "Shooting": up to two targets).
        split: ``SHOOT``: the weapon types (names) fired at ``second``; the others at ``target``.
        benny: spend a benny (clock-bennies) on one extra attack against ``target``.
        spell: ``CAST``: the spell's name.
        value: ``CAST``: the spell tokens spent on it; ``SET_CLOCK``: the clock's new value;
            ``STRIKE_BACK``: 1 to strike back, 0 not to.
        boost: ``CAST``: tokens other friendly Casters spend for +1 each to the casting roll.
        choice: ``CHOOSE_ZONE``: what the roll-off winner picks (a table edge, or Riverside's
            ``"zone"``/``"first"``).
        formation: ``DEPLOY``: models in each rank of the unit's formation; 0 (the usual) is
            the system's own formation. A unit takes another shape only to fit a crowded zone.
    """

    kind: Kind
    unit: str = ""
    to: Point | None = None
    target: str = ""
    second: str = ""
    split: tuple[str, ...] = ()
    benny: bool = False
    spell: str = ""
    value: int = 0
    boost: int = 0
    choice: str = ""
    formation: int = 0

    def sort_key(
        self,
    ) -> tuple[
        str, int, str, str, tuple[str, ...], bool, tuple[float, float], str, int, int, str, int
    ]:
        return (
            self.unit,
            KIND_ORDER[self.kind],
            self.target,
            self.second,
            self.split,
            self.benny,
            self.to or (-1.0, -1.0),
            self.spell,
            self.value,
            self.boost,
            self.choice,
            self.formation,
        )

    def __str__(self) -> str:
        text = f"{self.kind.value} {self.unit}".strip()
        if self.to is not None:
            text += f" to ({self.to[0]:.1f}, {self.to[1]:.1f})"
        if self.target:
            text += f" at {self.target}"
        if self.second:
            text += f" and {self.second} with {', '.join(self.split)}"
        if self.spell:
            text += f" casting {self.spell} ({self.value})"
            if self.boost:
                text += f" boosted {self.boost}"
        elif self.kind is Kind.SET_CLOCK:
            text += f" to {self.value}"
        elif self.kind is Kind.STRIKE_BACK:
            text += " yes" if self.value else " no"
        if self.choice:
            text += f" {self.choice}"
        if self.formation:
            text += f" in ranks of {self.formation}"
        if self.benny:
            text += " (benny)"
        return text


#: Actions made by :func:`listed`, by their fields: only enums, strings and numbers (a global
#: memo, emptied whole at its limit).
_LISTED: dict[tuple[Kind, str, Point | None, str, int], Action] = {}
_LISTED_LIMIT = 16384


def listed(
    kind: Kind, unit: str = "", to: Point | None = None, target: str = "", formation: int = 0
) -> Action:
    """``Action(kind, unit, to=to, target=target, formation=formation)``, made once and handed
    out again: a frozen Action costs ~19,000 instructions to build (``object.__setattr__`` per
    field), and each decision lists every unit's moves, charges and deployment spots again,
    most unchanged since the last one. Actions are values (equal fields make an equal action,
    legal wherever it is listed), so one object for each is the same."""
    key = (kind, unit, to, target, formation)
    found = _LISTED.get(key)
    if found is None:
        if len(_LISTED) >= _LISTED_LIMIT:
            _LISTED.clear()
        found = _LISTED[key] = _built(kind, unit, to, target, formation)
    return found


def _built(kind: Kind, unit: str, to: Point | None, target: str, formation: int) -> Action:
    """``Action(kind, unit, to=to, target=target, formation=formation)`` set field by field
    through its slots (the rest their defaults): the dataclass's ``__init__`` takes twelve
    keywords and sets each through ``object.__setattr__``, twice the instructions (issue 13:
    a 600-point game lists thousands of new moves). The same fields, so an equal action."""
    a = _new(Action)
    _set_kind(a, kind)
    _set_unit(a, unit)
    _set_to(a, to)
    _set_target(a, target)
    _set_second(a, "")
    _set_split(a, ())
    _set_benny(a, False)
    _set_spell(a, "")
    _set_value(a, 0)
    _set_boost(a, 0)
    _set_choice(a, "")
    _set_formation(a, formation)
    return a


_new = object.__new__
# each field's slot (its member descriptor's setter), in the order of the dataclass's fields
(
    _set_kind,
    _set_unit,
    _set_to,
    _set_target,
    _set_second,
    _set_split,
    _set_benny,
    _set_spell,
    _set_value,
    _set_boost,
    _set_choice,
    _set_formation,
) = (getattr(Action, f.name).__set__ for f in fields(Action))
