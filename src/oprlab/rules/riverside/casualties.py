"""Remove Casualties (seed 002): which models the wounds of an attack remove.

"After all defense rolls have been made, the defending player chooses which models to assign
wounds to following this order: 1. Non-tough, 2. Tough with Wounds, 3. Tough without Wounds,
4. Hero." A model takes at most 1 wound, or its Tough value, and is then removed.

Our units are homogeneous except for a joined Hero, so the order is a line of models: the
wounded Tough model (at most one is ever wounded, since wounds go to it first), the others, then
the Hero. Every model's remaining capacity laid end to end is the *wound track*; how far the
wounds have come along it (``consumed``) is the whole casualty state, which keeps the exact
dynamic programme small. Deadly(X) (read as in GFF: X wounds on one model, no carry-over) lands
on the model at the front of the line and is assigned after the ordinary wounds, the defending
player's choice that wastes the most of it (see docs/rules/riverside.md).

May import ``oprlab.rules.riverside.profile``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import accumulate

from oprlab.rules.riverside.profile import DefenderProfile, HeroProfile


@dataclass(frozen=True, slots=True)
class Casualties:
    """Where the defending unit stands after Remove Casualties.

    Attributes:
        consumed: how far along the wound track the wounds came (wounds actually assigned).
        removed: models removed as Casualties (the Hero included).
        models: main-unit models left.
        wounds: wounds on the main unit's wounded Tough model.
        hero: whether the joined Hero is still in play (``False`` when there is none).
        hero_wounds: wounds on the Hero.
    """

    consumed: int
    removed: int
    models: int
    wounds: int
    hero: bool
    hero_wounds: int

    @property
    def left(self) -> int:
        """Models in the unit after the attack."""
        return self.models + self.hero

    @property
    def destroyed(self) -> bool:
        return self.left == 0


@lru_cache(maxsize=4096)
def wound_track(d: DefenderProfile) -> tuple[int, ...]:
    """Wounds each model can still be assigned, in the order of Remove Casualties."""
    track: list[int] = []
    if d.models:
        track.append(d.tough - d.wounds)  # the wounded Tough model first (2 before 3)
        track.extend([d.tough] * (d.models - 1))
    if d.hero is not None:
        track.append(d.hero.tough - d.hero.wounds)  # Hero models last (4)
    return tuple(track)


@lru_cache(maxsize=4096)
def _ends(d: DefenderProfile) -> tuple[int, ...]:
    return tuple(accumulate(wound_track(d)))


def capacity(d: DefenderProfile) -> int:
    """Wounds that wipe the unit out."""
    ends = _ends(d)
    return ends[-1] if ends else 0


def assign_wounds(d: DefenderProfile, consumed: int, wounds: int) -> int:
    """Assign ``wounds`` ordinary wounds one at a time from state ``consumed``."""
    return min(consumed + wounds, capacity(d))


def assign_deadly(d: DefenderProfile, consumed: int, packets: Iterable[int]) -> int:
    """Assign each Deadly wound packet to the model at the front of the line.

    A packet removes that model if it reaches its remaining capacity; the rest is lost.
    """
    ends = _ends(d)
    for size in packets:
        if size <= 0:
            continue
        front = next((end for end in ends if end > consumed), None)
        if front is None:
            break
        consumed = min(consumed + size, front)
    return consumed


def casualties_at(d: DefenderProfile, consumed: int) -> Casualties:
    """The unit's condition once ``consumed`` wounds have been assigned along its track."""
    ends = _ends(d)
    removed = sum(1 for end in ends if end <= consumed)
    main_removed = min(removed, d.models)
    models = d.models - main_removed
    wounds = 0
    if models:
        start = ends[main_removed - 1] if main_removed else 0
        wounds = consumed - start + (d.wounds if main_removed == 0 else 0)
    hero = d.hero is not None and removed <= d.models
    hero_wounds = 0
    if hero and d.hero is not None:
        before = ends[d.models - 1] if d.models else 0
        hero_wounds = d.hero.wounds + max(0, consumed - before)
    return Casualties(consumed, removed, models, wounds, hero, hero_wounds)


def remove_casualties(d: DefenderProfile, wounds: int, packets: Iterable[int] = ()) -> Casualties:
    """Assign an attack's wounds (ordinary first, then Deadly packets) and remove casualties."""
    return casualties_at(d, assign_deadly(d, assign_wounds(d, 0, wounds), packets))


def after_attack(
    d: DefenderProfile, after: Casualties, *, shaken: bool | None = None
) -> DefenderProfile | None:
    """The defender for the next attack, wounds carried over; ``None`` once it is gone.

    Args:
        d: the defender before the attack.
        after: where :func:`casualties_at` left it.
        shaken: its Shaken condition afterwards (default: unchanged).
    """
    if after.destroyed:
        return None
    hero: HeroProfile | None = None
    if after.hero and d.hero is not None:
        hero = replace(d.hero, wounds=after.hero_wounds)
    return replace(
        d,
        models=after.models,
        wounds=after.wounds,
        started=d.start_size,
        shaken=d.shaken if shaken is None else shaken,
        hero=hero,
    )
