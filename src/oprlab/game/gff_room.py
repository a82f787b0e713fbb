"""Refuse, at the start of a game, an army with a unit too big for its deployment zone.

Issue "Full games", "Bad input": "armies that cannot deploy" get a clear error. During a game a
unit that finds no room (its zone crowded by other units or terrain) is still lost with a
``no_room`` event; that is part of play. A unit whose own formation is wider or deeper than its
zone cannot deploy even on an empty table, whatever anyone does: that is a bad army (or a bad
table) and :func:`check_room` says so before the first roll. Shared by the GFF and Riverside
procedures, which pass their own formations and zones.

May import ``oprlab.errors``, ``oprlab.table.model`` and ``oprlab.units``.
"""

from __future__ import annotations

from collections.abc import Sequence

from oprlab.errors import UserError
from oprlab.table.model import Placement
from oprlab.units.model import Army, Unit

EPS = 1e-6

#: A zone: its name ("south deployment zone", "table"), its box ``(xmin, ymin, xmax, ymax)``
#: and whether its edge runs along x (the formation's frontage is then its size along x).
Zone = tuple[str, tuple[float, float, float, float], bool]


def extents(p: Placement) -> tuple[float, float]:
    """The formation's size along x and along y, bases included (inches)."""
    # in Python floats: a unit's few models cost less so than a numpy call each (issue 13);
    # the sums, differences and extremes are the same bits as numpy's
    c, r = p.centres.tolist(), p.radii.tolist()
    xs = [x for x, _ in c]
    ys = [y for _, y in c]
    w = max([x + s for x, s in zip(xs, r, strict=True)]) - min(
        [x - s for x, s in zip(xs, r, strict=True)]
    )
    d = max([y + s for y, s in zip(ys, r, strict=True)]) - min(
        [y - s for y, s in zip(ys, r, strict=True)]
    )
    return w, d


def fits(p: Placement, box: tuple[float, float, float, float]) -> bool:
    """Whether the formation (in any place) fits inside the box without turning."""
    w, d = extents(p)
    return w <= box[2] - box[0] + EPS and d <= box[3] - box[1] + EPS


def check_room(
    index: int,
    army: Army,
    unit: Unit,
    options: Sequence[tuple[Placement, Zone]],
    table: tuple[float, float],
) -> None:
    """Raise unless the unit's formation fits in every zone it may be given.

    Args:
        index: the army's place (0: the first army), for the message.
        army: the army, for its name.
        unit: the unit checked.
        options: each zone the unit may have to deploy in (a side does not know its edge
            before the roll-off), with the unit's formation as it would stand there.
        table: the table's width and depth (a zone ends at the table's edge).
        table: the table's width and depth (a zone ends at the table's edge).
    """
    for formation, (where, box, along_x) in options:
        box = (max(0.0, box[0]), max(0.0, box[1]), min(table[0], box[2]), min(table[1], box[3]))
        if fits(formation, box):
            continue
        w, d = extents(formation)
        zw, zd = box[2] - box[0], box[3] - box[1]
        if not along_x:
            w, d, zw, zd = d, w, zd, zw
        raise UserError(
            f"army {army.name!r} cannot deploy: unit {unit.name!r} ({unit.size} models) has a "
            f'{w:.1f}" frontage and is {d:.1f}" deep in formation, but the {where} is only '
            f'{zw:.1f}" long and {zd:.1f}" deep even on an empty table',
            value=unit.name,
            expected=(
                f'a unit within {zw:.1f}" by {zd:.1f}": a bigger table (or deeper zones), '
                "or fewer models in the unit"
            ),
            where=f"army {index + 1}",
        )
