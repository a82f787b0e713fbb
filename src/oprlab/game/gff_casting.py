"""Caster(X) tokens in GFF: the spell waiting for the enemy's tokens, and paying tokens.

Seed 003 "Caster(X)": "Models within 18" in line of sight of the caster's unit may spend any
number of spell tokens at the same time before rolling, to give the caster +1/-1 to the roll per
token". Friendly tokens are the ``boost`` of a ``CAST``; the other side's are its ``RESIST``
decision, taken while the spell waits as a :class:`Casting`. The procedure
(``oprlab.game.gff``) finds the Casters in reach; this module lists and checks the resisting;
paying tokens is :func:`oprlab.game.casting.pay` (shared with Riverside; kept here by name).

May import ``oprlab.game.actions``, ``oprlab.game.casting`` and ``oprlab.game.state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oprlab.game.actions import Action, Kind
from oprlab.game.casting import pay
from oprlab.game.state import UnitState

#: RESIST values listed beyond the boost (any number is legal): a net -2 already needs a
#: natural 6 on a d6 and adds the clock's most (5).
RESIST_LISTED = 2


@dataclass(frozen=True)
class Casting:
    """A spell tried and paid for, waiting for the enemy Casters' ``RESIST`` decision.

    Attributes:
        caster: the casting unit's uid.
        action: the ``CAST`` (spell, value, target, boost).
        helped: the friendly Casters' boost tokens, by uid.
        tried: the spells tried this activation, this one included.
    """

    caster: str
    action: Action
    helped: tuple[tuple[str, int], ...]
    tried: tuple[str, ...]


def resist_actions(c: Casting, resisters: Sequence[UnitState]) -> list[Action]:
    """0 up to the resisters' tokens, listed up to the boost + 2; named by the nearest."""
    if not resisters:
        return []
    most = min(sum(f.spell_tokens for f in resisters), c.action.boost + RESIST_LISTED)
    return [
        Action(Kind.RESIST, resisters[0].uid, target=c.caster, value=n) for n in range(most + 1)
    ]


def resist_problem(
    c: Casting, resisters: Sequence[UnitState], us: UnitState, a: Action
) -> str | None:
    """Why ``a`` (a ``RESIST`` by ``us``) may not be taken against ``c``, or ``None``."""
    if us not in resisters or a.target != c.caster:
        return 'resist names an enemy Caster within 18" in line of sight and the caster'
    if a.to is not None or a.benny or a.spell or a.boost:
        return "resist takes only the number of tokens to spend"
    if not 0 <= a.value <= sum(f.spell_tokens for f in resisters):
        return 'resist: 0 up to the tokens of your Casters within 18" in line of sight'
    return None


__all__: Sequence[str] = ["RESIST_LISTED", "Casting", "pay", "resist_actions", "resist_problem"]
