"""Where one more unit fits in a crowded zone: the anchored spots of bottom-left packing.

A fixed grid of candidate centres (every 4" along the edge, three rows across the zone) finds
no spot once a zone is half full, although a player could still put a unit down: the gaps
between units are rarely on the grid. The spots listed here are those a player would try: the
unit's box pushed against a side of the zone, or standing exactly the required gap from a unit
already there, on each axis. If a box fits anywhere in an open zone it fits at one of these
spots (slide it toward the zone's low corner until it touches something on each axis), so a
zone without such a spot is full for that box.

Units are boxes here (their bases' bounding rectangles): two boxes the required gap apart
hold bases at least that far apart, so every spot listed keeps the spacing. The game checks
each spot with its own rules (terrain, the exact base-to-base distances) before offering it.

May import numpy and ``oprlab.table.model``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oprlab.table.model import FloatArray, Placement

#: A rectangle ``(x0, y0, x1, y1)`` in inches.
Rect = tuple[float, float, float, float]
#: Something a new box must keep clear of: its rectangle and the gap to keep (inches).
Blocker = tuple[Rect, float]

#: Spots stand this much beyond the exact gap (and inside the zone), so that round-off in
#: later distance checks never turns a spot exactly at the limit into an illegal one.
SLACK = 1e-3
#: Spots are written with this many decimals (the event log shows them).
DECIMALS = 3


def bounds(p: Placement) -> Rect:
    """The alive models' bases' bounding rectangle."""
    c, r = p.centres[p.alive], p.radii[p.alive]
    return (
        float((c[:, 0] - r).min()),
        float((c[:, 1] - r).min()),
        float((c[:, 0] + r).max()),
        float((c[:, 1] + r).max()),
    )


def spots(
    zone: Rect,
    formation: Placement,
    blockers: Sequence[Blocker] = (),
    anchors: Sequence[Rect] = (),
) -> list[tuple[float, float]]:
    """Where to put a formation's reference point (``formation`` stands at ``(0, 0)``) so that
    its bases' box is at one of the :func:`anchored_spots` of ``zone``; rounded to
    :data:`DECIMALS` decimals, in the same order."""
    x0, y0, x1, y1 = bounds(formation)
    half = ((x1 - x0) / 2, (y1 - y0) / 2)
    dx, dy = (x0 + x1) / 2, (y0 + y1) / 2
    return [
        (round(x - dx, DECIMALS) + 0.0, round(y - dy, DECIMALS) + 0.0)
        for x, y in anchored_spots(zone, half, blockers, anchors)
    ]


def _axis(lo: float, hi: float, half: float, blocks: FloatArray, gaps: FloatArray) -> FloatArray:
    """Box centres along one axis: against the zone's two sides, or the gap beyond either side
    of a blocker (``blocks``: ``(n, 2)`` low and high sides), inside ``[lo + half, hi - half]``."""
    first, last = lo + half, hi - half
    if last < first - 1e-9:
        return np.zeros(0)
    reach = gaps + half + SLACK
    raw = np.concatenate(([first, last], blocks[:, 1] + reach, blocks[:, 0] - reach))
    ok = (raw >= first - 1e-9) & (raw <= last + 1e-9)
    return np.unique(np.round(np.clip(raw[ok], first, last), 6))


def anchored_spots(
    zone: Rect,
    half: tuple[float, float],
    blockers: Sequence[Blocker] = (),
    anchors: Sequence[Rect] = (),
) -> list[tuple[float, float]]:
    """Centres of a ``2*half[0]`` by ``2*half[1]`` box wholly inside ``zone`` and at least each
    blocker's gap from every blocker, touching the zone or a blocker's gap on each axis.

    ``anchors`` are more rectangles to push against (terrain the game checks itself); the box
    may overlap them. The spots come in a fixed order: by ``y``, then ``x``.
    """
    hw, hd = half
    x0, y0, x1, y1 = (zone[0] + SLACK, zone[1] + SLACK, zone[2] - SLACK, zone[3] - SLACK)
    if blockers:
        rects = np.array([b[0] for b in blockers], dtype=np.float64).reshape(-1, 4)
        gaps = np.array([b[1] for b in blockers], dtype=np.float64)
    else:
        rects, gaps = np.zeros((0, 4)), np.zeros(0)
    near = (
        (rects[:, 2] + gaps + 2 * hw > x0)
        & (rects[:, 0] - gaps - 2 * hw < x1)
        & (rects[:, 3] + gaps + 2 * hd > y0)
        & (rects[:, 1] - gaps - 2 * hd < y1)
    )
    rects, gaps = rects[near], gaps[near]
    extra = np.array(anchors, dtype=np.float64).reshape(-1, 4)
    ax_rects = np.concatenate((rects, extra))
    ax_gaps = np.concatenate((gaps, np.zeros(len(extra))))
    xs = _axis(x0, x1, hw, ax_rects[:, [0, 2]], ax_gaps)
    ys = _axis(y0, y1, hd, ax_rects[:, [1, 3]], ax_gaps)
    if len(xs) == 0 or len(ys) == 0:
        return []
    cx, cy = (a.ravel() for a in np.meshgrid(xs, ys))  # y-major: by y, then x
    if len(rects):
        tol = 1e-9
        clear = (
            (cx[:, None] + hw <= rects[None, :, 0] - gaps[None, :] + tol)
            | (cx[:, None] - hw >= rects[None, :, 2] + gaps[None, :] - tol)
            | (cy[:, None] + hd <= rects[None, :, 1] - gaps[None, :] + tol)
            | (cy[:, None] - hd >= rects[None, :, 3] + gaps[None, :] - tol)
        ).all(axis=1)
        cx, cy = cx[clear], cy[clear]
    return [(float(x), float(y)) for x, y in zip(cx, cy, strict=True)]
