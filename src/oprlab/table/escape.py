"""A path's step out of an obstacle: the nearest free point round a model that starts (or a
goal that lies) inside another unit's blocker or a piece of terrain, searched ring by ring
outward (:func:`oprlab.table.paths.find_path` joins it by a short straight step).

May import ``oprlab.table.model``, ``oprlab.table.blockers``, ``oprlab.table.navgraph`` and
``oprlab.table.kernels``; numpy and shapely.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from oprlab.memo import make_room
from oprlab.table import kernels
from oprlab.table.blockers import Blockers
from oprlab.table.model import FloatArray
from oprlab.table.navgraph import NavGraph


def nearest_free(nav: NavGraph, p: FloatArray, blockers: Blockers) -> FloatArray | None:
    """The first free point of the escape bands round ``p`` (ring by ring, outward). Rings
    nearer ``p`` than its depth inside a blocker lie inside that blocker, so they are not
    tested (the rings are in order of radius: those left are the band's last points), and a
    band is tested a few rings at a time, nearest first: the answer is the one testing every
    ring of a band at once gives."""
    deep = blockers.depth(p) - _DEPTH_MARGIN
    compiled = _COMPILED if len(blockers) else None
    for band, rho in ESCAPE:
        first = 0
        if deep > 0:
            if rho[-1] < deep:
                continue
            first = int(np.searchsorted(rho, deep))  # the first ring at least that deep
        if compiled is None:
            got = _first_free_numpy(nav, p + band[first:], blockers)
        else:
            got = _first_free(compiled, nav, p, band, first, blockers)
        if got is not None:
            return got
    return None


def _first_free(
    compiled: kernels.Kernel,
    nav: NavGraph,
    p: FloatArray,
    band: FloatArray,
    start: int,
    blockers: Blockers,
) -> FloatArray | None:
    """The first of ``p + band[start:]`` (in order) that :meth:`NavGraph.free` passes, if any,
    in the C kernel: the bounds and blockers tested point by point (each point numpy's sum
    ``p + band[i]``) up to the first that passes both, terrain then by shapely for up to a
    chunk of those at a time. Each test is the point's own, so the first point passing all
    three is the one numpy's tests, a chunk at a time, find."""
    room = np.empty(ESCAPE_CHUNK, dtype=np.intp)
    corners = blockers.nx.shape[1]
    x, y = float(p[0]), float(p[1])
    while start < len(band):
        n, start = compiled.free_points(
            band, start, x, y, nav.bounds, blockers.nx, blockers.ny, blockers.d, corners, room
        )
        if not n:
            return None
        if nav.geom is None:
            first: FloatArray = p + band[int(room[0])]
            return first
        pts = p + band[room[:n]]
        inside = shapely.contains_xy(nav.geom, pts[:, 0], pts[:, 1])
        if not inside.all():
            out: FloatArray = pts[int(np.argmin(inside))]
            return out
    return None


def _first_free_numpy(nav: NavGraph, cand: FloatArray, blockers: Blockers) -> FloatArray | None:
    """:func:`_first_free` in numpy: :meth:`NavGraph.free` a chunk at a time."""
    for at in range(0, len(cand), ESCAPE_CHUNK):  # in order: the first free point wins
        part = cand[at : at + ESCAPE_CHUNK]
        ok = nav.free(part, blockers)
        if ok.any():
            got: FloatArray = part[int(np.argmax(ok))]
            return got
    return None


def escape(nav: NavGraph, p: FloatArray, blockers: Blockers) -> FloatArray | None:
    """:func:`nearest_free`, remembered: a contact search asks it for one model's start once
    for each spot it tries (the quick search and the path search each step out of the same
    blocker). Keyed on the graph and blockers (by identity; each entry holds them, so their
    ids stay unique while it is there) and the point's bytes: all it reads. The point kept is
    read-only."""
    key = (id(nav), id(blockers), p.tobytes())
    hit = _ESCAPES.get(key)
    if hit is not None and hit[0] is nav and hit[1] is blockers:
        return hit[2]
    got = nearest_free(nav, p, blockers)
    if got is not None:
        got = got.copy()
        got.flags.writeable = False
    make_room(_ESCAPES, _ESCAPES_SIZE)
    _ESCAPES[key] = (nav, blockers, got)
    return got


_ESCAPES: dict[tuple[int, int, bytes], tuple[NavGraph, Blockers, FloatArray | None]] = {}
_ESCAPES_SIZE = 256


#: Inches a ring must lie inside a blocker's depth to be skipped (far above round-off).
_DEPTH_MARGIN = 1e-7
#: Escape points tested at a time (the first rings past a blocker's edge are usually free, so
#: a smaller batch tests fewer points past the first free one for few more calls; any size
#: finds the same point); with the kernel, free points tested against terrain at a time.
ESCAPE_CHUNK = 32


def _escape_bands() -> list[tuple[FloatArray, FloatArray]]:
    """Points round the origin in rings of growing radius, grouped in bands, with each
    point's ring radius."""
    bands = []
    for rhos, arc in (
        (np.arange(0.02, 0.3, 0.04), 0.05),
        (np.arange(0.3, 1.5, 0.1), 0.1),
        (np.arange(1.5, 4.01, 0.25), 0.2),
        (np.arange(4.5, 12.01, 0.5), 0.4),
    ):
        pts = []
        radius: list[float] = []
        for rho in rhos:
            k = max(16, math.ceil(2 * math.pi * rho / arc))
            pts += [
                (rho * math.cos(2 * math.pi * a / k), rho * math.sin(2 * math.pi * a / k))
                for a in range(k)
            ]
            radius += [float(rho)] * k
        bands.append((np.array(pts, dtype=np.float64), np.array(radius, dtype=np.float64)))
    return bands


ESCAPE = _escape_bands()

_COMPILED = kernels.COMPILED
