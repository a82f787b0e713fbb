"""Which models a unit loses, as the defending player would choose them (GFF and Riverside).

Both seeds leave the choice of casualties to the defender (seed 003 "Wounds"; seed 002 "Remove
Casualties", whose order by kind of unit does not split our units). oprlab plays one fixed habit
in both games: keep models within 3" of an objective marker, then remove models in the order
the procedure gives, and never break the chain of models within 1" of each other while another
choice keeps it. The order is each procedure's (GFF: nearest the attacker first, the unit falls
back; Riverside: the same after shooting, farthest from the enemy first in melee).

May import ``oprlab.game.state``, ``oprlab.game.objectives``, ``oprlab.table`` and numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from oprlab.game.objectives import OBJECTIVE_RANGE
from oprlab.game.state import GameState
from oprlab.table.model import Placement

#: Models within 1" of each other stay joined (seed 003 / seed 002 "Unit Cohesion").
COHESION_INCHES = 1.0
EPS = 1e-6


def casualty_order(
    state: GameState, p: Placement, n: int, first: npt.NDArray[np.float64]
) -> list[int]:
    """The ``n`` models of the unit standing as ``p`` to remove, in order (at most its living
    models); ``first``: per model, lower goes earlier (after keeping objective holders)."""
    alive = [int(i) for i in np.flatnonzero(p.alive)]
    n = min(n, len(alive))
    if n <= 0:
        return []
    centres, radii = p.centres, p.radii
    holds = np.zeros(len(radii), dtype=np.bool_)
    for o in state.objectives:
        holds |= np.linalg.norm(centres - np.asarray(o.position), axis=1) - radii <= OBJECTIVE_RANGE
    gaps = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    linked = gaps - radii[:, None] - radii[None, :] <= COHESION_INCHES + EPS
    preference = sorted(alive, key=lambda i: (bool(holds[i]), float(first[i]), i))
    left = set(alive)
    out: list[int] = []
    for _ in range(n):
        choices = [i for i in preference if i in left]
        pick = next((i for i in choices if chained(left - {i}, linked)), choices[0])
        out.append(pick)
        left.discard(pick)
    return out


def chained(models: set[int], linked: npt.NDArray[np.bool_]) -> bool:
    """Every model joined to every other through a chain of models within 1" (Unit Cohesion)."""
    if len(models) <= 1:
        return True
    start = next(iter(models))
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for j in models:
            if j not in seen and linked[i, j]:
                seen.add(j)
                todo.append(j)
    return len(seen) == len(models)


__all__: Sequence[str] = ["COHESION_INCHES", "OBJECTIVE_RANGE", "casualty_order", "chained"]
