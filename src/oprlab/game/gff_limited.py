"""Limited weapons in GFF games (seed 003 "Limited": "May only be used once per game").

Army Forge puts Limited among a weapon's special rules (``Sun Cannon (24", A1, Limited)``); an
item's weapons come with their own rules, so a weapon line is what is Limited. In a game a
Limited weapon line fires (or strikes) in one attack, with every model that carries and can use
it, and is then gone: the unit's profile in its :class:`~oprlab.game.state.UnitState` is
replaced by one without that line. Everything that reads the unit's weapons (targets, legal
actions, the melee exchange, the commanders' estimates) then no longer sees it, and clones,
pickles and replays carry the spent weapon with the state. Every spending is logged
(``limited``: unit, weapons).

May import ``oprlab.game.state``, ``oprlab.game.events``, ``oprlab.units`` and below.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from oprlab.game.events import EventLog
from oprlab.game.state import UnitState
from oprlab.units.model import Unit

LIMITED = "Limited"


def limited_names(unit: Unit) -> tuple[str, ...]:
    """The names of ``unit``'s Limited weapon lines still carried, in list order."""
    return tuple(dict.fromkeys(w.name for w in unit.weapons if w.has(LIMITED)))


def without_limited(unit: Unit, names: Iterable[str]) -> Unit:
    """``unit`` without its Limited weapon lines named ``names`` (other lines stay)."""
    gone = set(names)
    kept = tuple(w for w in unit.weapons if not (w.name in gone and w.has(LIMITED)))
    return unit if len(kept) == len(unit.weapons) else replace(unit, weapons=kept)


def spend_limited(us: UnitState, used: Iterable[str], log: EventLog) -> tuple[str, ...]:
    """Spend the Limited weapons among ``used`` (the weapon names of one attack by ``us``).

    Returns the names spent (none: the profile stays the same object).
    """
    carried = limited_names(us.unit)
    if not carried:
        return ()
    names = set(used)
    spent = tuple(n for n in carried if n in names)
    if spent:
        us.unit = without_limited(us.unit, spent)
        log.add("limited", unit=us.uid, weapons=list(spent))
    return spent
