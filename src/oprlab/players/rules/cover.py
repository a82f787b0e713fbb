"""Cover for the rules commander (issue 14): whether a shot's target has it, by the game's own
check, so a shot is scored with the Defense roll it will meet.

GFF (seed 003 "Cover Terrain"): most shooting models that see the target see it in cover
(:func:`oprlab.game.geometry.in_cover`, as ``gff_fire`` decides it), or a house rule fortifies
it. Riverside (seed 002 "Determine Cover", "Cover Terrain"): Cover is decided per shooting model
(``riverside_combat.look``, as the attack splits its dice); the commander counts the target in
cover when most of the models that see it give it Cover. Where a unit itself may stand in cover
is :meth:`oprlab.players.rules.view.View.in_cover_terrain`.
"""

from __future__ import annotations

from oprlab.game import riverside_combat
from oprlab.game.gff_fire import target_in_cover
from oprlab.game.state import GameState, UnitState


def gff_target_cover(state: GameState, us: UnitState, target: UnitState) -> bool:
    """Whether ``target`` has cover from a shot of ``us`` (seed 003, the game's own check,
    which traces no sight line on a table without terrain: only fortifying gives cover there)."""
    return target_in_cover(state, us, target)


def riverside_target_cover(state: GameState, us: UnitState, target: UnitState) -> bool:
    """Whether ``target`` has Cover from most of the models of ``us`` that see it (seed 002)."""
    seen = riverside_combat.look(state, us).get(target.uid)
    if seen is None:
        return False
    cover = seen.cover[seen.sees] if seen.sees.any() else seen.cover
    return bool(cover.size and 2 * int(cover.sum()) > cover.size)
