"""Frozen value types for armies: what a list says, before any rule system reads it.

A unit's numbers are kept exactly as Army Forge gives them (``Q4+`` is ``quality=4``); what they
mean is the rule systems' business. Per-model and per-item rules (``5x Regeneration``,
``1x Banner(Fearless)``) are kept with their counts and carried rules, never flattened away.
Every type has a ``repr`` that can be pasted back into Python.
"""

from __future__ import annotations

from dataclasses import dataclass

from oprlab.memo import game_memo


@dataclass(frozen=True, slots=True)
class Rule:
    """A special rule as a list names it: ``Tough(3)``, ``5x Regeneration``, ``Banner(Fearless)``.

    Attributes:
        name: the rule's name as written (``"Tough"``).
        rating: the number in brackets, if any (``3`` for ``Tough(3)``).
        count: the ``{n}x`` prefix when the rule is counted per model or item, else ``None``.
        rules: rules carried by an item (``Banner(Fearless)`` carries ``Fearless``).
    """

    name: str
    rating: int | None = None
    count: int | None = None
    rules: tuple[Rule, ...] = ()

    @property
    def label(self) -> str:
        """The rule written the way Army Forge writes it."""
        text = self.name
        if self.rating is not None:
            text += f"({self.rating})"
        elif self.rules:
            text += "(" + ", ".join(r.label for r in self.rules) + ")"
        if self.count is not None:
            text = f"{self.count}x {text}"
        return text


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon line entry: ``2x Rifle (24", A1, AP(1))``; melee weapons have no range.

    Attributes:
        name: the weapon's name.
        attacks: attacks per weapon (``A1``).
        range: range in inches, or ``None`` for melee.
        count: how many of this weapon the unit carries.
        rules: the weapon's special rules.
    """

    name: str
    attacks: int
    range: int | None = None
    count: int = 1
    rules: tuple[Rule, ...] = ()

    @property
    def melee(self) -> bool:
        return self.range is None

    @property
    def label(self) -> str:
        parts = ([f'{self.range}"'] if self.range is not None else []) + [f"A{self.attacks}"]
        parts += [r.label for r in self.rules]
        text = f"{self.name} ({', '.join(parts)})"
        return f"{self.count}x {text}" if self.count != 1 else text

    def rating(self, name: str) -> int | None:
        """The rating of rule ``name`` on this weapon (``None`` if absent or unrated)."""
        return _rating(self.rules, name)

    def has(self, name: str) -> bool:
        return _has(self.rules, name)


@dataclass(frozen=True, slots=True)
class Bases:
    """Base sizes in millimetres as Army Forge lists them (round diameter, square side)."""

    round: int | None = None
    square: int | None = None


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """What one model of a unit brings to a check: its stats, toughness and rules."""

    quality: int
    defense: int
    tough: int = 1
    hero: bool = False
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit of a list.

    Attributes:
        name: the unit's name.
        size: number of models (a combined unit carries its merged size).
        quality: the ``Q`` value (``4`` for ``Q4+``).
        defense: the ``D`` value.
        cost: points.
        rules: the unit's special rules.
        weapons: the unit's weapons (counts are totals for the unit).
        bases: base sizes, when the list gives them.
        joined_to: the ``uid`` (or, in text lists, the name) of the unit a hero joins.
        combined: the unit was formed by combining two copies.
        uid: a stable id: Army Forge's ``selectionId`` or a generated one.
    """

    name: str
    size: int
    quality: int
    defense: int
    cost: int = 0
    rules: tuple[Rule, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    bases: Bases | None = None
    joined_to: str | None = None
    combined: bool = False
    uid: str = ""

    @property
    def hero(self) -> bool:
        return self.has("Hero")

    @property
    def tough(self) -> int:
        """Tough(X) of the unit's models, 1 when it has none."""
        return self.rating("Tough") or 1

    def has(self, name: str) -> bool:
        """Whether the unit (or an item it carries) has rule ``name``."""
        return _has(self.rules, name)

    def rating(self, name: str) -> int | None:
        return _rating(self.rules, name)

    def all_have(self, name: str) -> bool:
        """Whether every model has rule ``name`` (``3x Stealth`` in a unit of 5 does not)."""
        key = name.casefold()
        return any(
            r.name.casefold() == key and (r.count is None or r.count >= self.size)
            for r in _walk(self.rules)
        )

    @property
    def model(self) -> ModelProfile:
        """The profile the unit's models share."""
        return ModelProfile(self.quality, self.defense, self.tough, self.hero, self.rules)


@dataclass(frozen=True, slots=True)
class Army:
    """An army list: its name, game system (``GFF``, ``GF``, ``AOF`` …), points and units.

    ``{k}x`` units appear ``k`` times in ``units``; a combined unit appears once.
    """

    name: str
    system: str
    points: int
    units: tuple[Unit, ...] = ()
    books: tuple[str, ...] = ()

    @property
    def cost(self) -> int:
        """Points actually spent."""
        return sum(u.cost for u in self.units)


def _walk(rules: tuple[Rule, ...]) -> list[Rule]:
    out: list[Rule] = []
    for r in rules:
        out.append(r)
        out.extend(_walk(r.rules))
    return out


#: Each rules tuple walked once, by identity (games ask a unit for its rules thousands of
#: times; the tuples are immutable): the tuple itself (so its id stays unique while the entry
#: stands) and every rule in walk order with its case-folded name.
_WALKED: dict[int, tuple[tuple[Rule, ...], list[tuple[str, Rule]]]] = game_memo(
    "units.model._WALKED"
)


def _walked(rules: tuple[Rule, ...]) -> list[tuple[str, Rule]]:
    hit = _WALKED.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_WALKED) >= 16384:
            _WALKED.clear()
        hit = _WALKED[id(rules)] = (rules, [(r.name.casefold(), r) for r in _walk(rules)])
    return hit[1]


def _has(rules: tuple[Rule, ...], name: str) -> bool:
    key = name.casefold()
    return any(k == key for k, _ in _walked(rules))


def _rating(rules: tuple[Rule, ...], name: str) -> int | None:
    key = name.casefold()
    for k, r in _walked(rules):
        if k == key:
            return r.rating
    return None
