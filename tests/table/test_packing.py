"""Anchored spots for one more box in a crowded zone (``table/packing.py``): every spot is legal,
and a box that fits anywhere is offered a spot (issue 11: units lost with room left)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.table.model import Placement
from oprlab.table.packing import SLACK, anchored_spots, bounds, spots

Rect = tuple[float, float, float, float]


def _clear(box: Rect, other: Rect, gap: float) -> bool:
    return (
        box[2] <= other[0] - gap + 1e-9
        or box[0] >= other[2] + gap - 1e-9
        or box[3] <= other[1] - gap + 1e-9
        or box[1] >= other[3] + gap - 1e-9
    )


def test_an_empty_zone_offers_its_four_corners() -> None:
    """A 4" by 2" box in a 10" by 4" zone: pushed into each corner (by hand: centres 2 and 8
    across, 1 and 3 deep, each kept SLACK inside the zone)."""
    got = anchored_spots((0.0, 0.0, 10.0, 4.0), (2.0, 1.0))
    s = SLACK
    assert got == [(2 + s, 1 + s), (8 - s, 1 + s), (2 + s, 3 - s), (8 - s, 3 - s)]


def test_a_box_stands_the_gap_beside_a_blocker() -> None:
    """A unit at x 0..4 leaves room for a 2" wide box from x = 5 (its 1" gap) on."""
    blocker = ((0.0, 0.0, 4.0, 2.0), 1.0)
    got = anchored_spots((0.0, 0.0, 12.0, 3.0), (1.0, 1.0), [blocker])
    s = SLACK
    assert got == [(6 + s, 1 + s), (11 - s, 1 + s), (6 + s, 2 - s), (11 - s, 2 - s)]
    assert anchored_spots((0.0, 0.0, 6.0, 3.0), (1.0, 1.0), [blocker]) == []


def test_spots_place_the_formation_not_its_box() -> None:
    """A formation whose reference point is not its box's centre is shifted by the difference."""
    p = Placement(np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]]), np.full(3, 0.5))
    x0, y0, x1, y1 = bounds(p)
    assert (x0, y0, x1, y1) == (-0.5, -0.5, 2.5, 2.5)
    got = spots((0.0, 0.0, 10.0, 10.0), p)
    assert got[0] == (round(0.5 + SLACK, 3), round(0.5 + SLACK, 3))


boxes = st.tuples(st.floats(0, 20), st.floats(0, 10), st.floats(0.5, 8), st.floats(0.5, 4)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3])
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(boxes, max_size=6),
    st.floats(0.5, 5),
    st.floats(0.25, 3),
    st.sampled_from([0.0, 1.0, 9.0]),
)
def test_every_spot_is_legal_and_a_box_that_fits_gets_one(
    blocks: list[Rect], hw: float, hd: float, gap: float
) -> None:
    """Every spot keeps the box in the zone and ``gap`` from each blocker; and if a brute-force
    search on a 0.25" grid finds room, the anchored spots are not empty (slide a box that fits
    toward the zone's low corner and it touches a side or a blocker's gap on each axis)."""
    zone = (0.0, 0.0, 24.0, 12.0)
    blockers = [(b, gap) for b in blocks]
    got = anchored_spots(zone, (hw, hd), blockers)
    for x, y in got:
        box = (x - hw, y - hd, x + hw, y + hd)
        assert box[0] >= zone[0] and box[1] >= zone[1] and box[2] <= zone[2] and box[3] <= zone[3]
        assert all(_clear(box, b, gap) for b in blocks)
    step = 0.25
    brute = any(
        all(_clear((x - hw, y - hd, x + hw, y + hd), b, gap + 2 * SLACK) for b in blocks)
        for x, y in itertools.product(
            np.arange(hw + 2 * SLACK, 24 - hw - 2 * SLACK, step),
            np.arange(hd + 2 * SLACK, 12 - hd - 2 * SLACK, step),
        )
    )
    if brute:
        assert got
