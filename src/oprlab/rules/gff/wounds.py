"""Groups & Wounds and Wound Effects (seed 003): what wounds do to a unit.

"Each wound kills one model, until only one last model remains. Only the last model then
accumulates wounds" and rolls for wound effects. Deadly wounds are resolved first and do not
carry over: a Deadly wound on a model that is not the last kills exactly that model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oprlab.mechanics import Check, Owner, Test
from oprlab.rules.gff.profile import DefenderProfile


@dataclass(frozen=True, slots=True)
class Damage:
    """Wounds taken by a unit before the wound-effect roll.

    Attributes:
        killed: models removed outright (not the last model).
        markers: wound markers added to the last model.
    """

    killed: int = 0
    markers: int = 0


def take_wounds(d: DefenderProfile, deadly: Iterable[int], wounds: int) -> Damage:
    """Apply Deadly wound packets (first, in order) then ordinary wounds to a unit.

    Args:
        d: the defending unit.
        deadly: the size of each Deadly wound after Regeneration (zeros are skipped).
        wounds: ordinary wounds, one each.
    """
    spare = max(0, d.models - 1)  # models that die to any wound before the last one
    killed, markers = take_wounds_from((0, 0), deadly, spare)
    ordinary = min(wounds, spare - killed)
    return Damage(killed + ordinary, markers + wounds - ordinary)


def take_wounds_from(km: tuple[int, int], packets: Iterable[int], spare: int) -> tuple[int, int]:
    """Continue :func:`take_wounds`'s Deadly rule from a state (killed, markers): each packet
    kills a model while one is to spare, then the last model takes its markers."""
    killed, markers = km
    for size in packets:
        if size <= 0:
            continue
        if killed < spare:
            killed += 1
        else:
            markers += size
    return killed, markers


def rolls_wound_effect(d: DefenderProfile, damage: Damage, fear: int = 0) -> bool:
    """The last model rolls when it took wounds and, with Tough(X), has X markers or more.

    Fear(X) counts as X more wounds dealt "when checking wound effects in melee".
    """
    if d.models <= 0 or damage.markers <= 0:
        return False
    return d.markers + damage.markers + fear >= d.tough


def wound_effect_check(d: DefenderProfile, damage: Damage, owner: Owner, fear: int = 0) -> Check:
    """The wound-effect roll: die + markers; Knocked Out on 5+X; Shaken adds +1."""
    return Check(
        Test.WOUND_EFFECT,
        d.markers + damage.markers + fear,
        modifier=-1 if d.shaken else 0,
        owner=owner,
        tough=d.tough,
    )
