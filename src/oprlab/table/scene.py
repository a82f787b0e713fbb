"""An SVG picture of a battle at one moment: what happened, drawn so that it can be read.

The picture shows the deployment zones where the two sides really deployed, every unit in its
side's colour, the objective markers numbered and coloured by who controls them, the moves and
charges of the round as arrows, a caption (the round and the score) and a legend (which colour
is which army, and what the lines mean). Labels are placed so they do not overlap: each label
tries spots round its unit in a fixed order and takes the first that is free, else the unit's
id alone, else the least crowded spot.

It draws a :class:`Scene`, plain data the game layer fills in (:mod:`oprlab.analysis.pictures`);
this module knows nothing about rules. One user unit is one inch, ``y = 0`` of the table at the
bottom; the caption sits above the table and the legend below it. The output is a pure function
of its inputs (the same scene, the same bytes). May import ``oprlab.table`` modules below it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from oprlab.table.model import Placement, Point, Table
from oprlab.table.svg import fmt, terrain_elements

#: A rectangle ``(x0, y0, x1, y1)``: in table inches for zones, in picture units for labels.
Rect = tuple[float, float, float, float]

#: Table y (inches, up) to picture y (down).
Flip = Callable[[float], float]
#: One colour per side: army A blue, army B red.
SIDE_COLOURS = ("#1565c0", "#c62828")
SIDE_LETTERS = ("A", "B")
NEUTRAL_COLOUR = "#fdd835"
#: Room above the table for the caption and below it for the legend (inches).
CAPTION_BAND = 2.6
LEGEND_BAND = 4.4
LABEL_SIZE = 0.8
#: A label's width per character, as a share of the font size (sans-serif, a safe guess).
CHAR_WIDTH = 0.58
#: Arrows stop this far short of where the unit's centre ended, so the head is not hidden.
ARROW_GAP = 0.9
#: How a move of each kind is drawn: stroke width and dash pattern ("" for a solid line).
PATH_STYLES = {
    "charge": ("0.22", "0.7 0.35"),
    "moved": ("0.08", "0.2 0.2"),
}
DEFAULT_PATH_STYLE = ("0.14", "")


@dataclass(frozen=True)
class SideMark:
    """A side in the legend: its letter's army name and how many units it has left."""

    name: str
    units_left: int


@dataclass(frozen=True)
class ZoneMark:
    """Where a side deployed: its zone in table inches and a short description."""

    side: int
    box: Rect
    label: str


@dataclass(frozen=True)
class UnitMark:
    """A unit on the table."""

    uid: str
    name: str
    side: int
    placement: Placement
    note: str = ""


@dataclass(frozen=True)
class MarkerMark:
    """An objective marker: its number (from 1), where it stands, who controls it."""

    number: int
    position: Point
    controller: int | None


@dataclass(frozen=True)
class PathMark:
    """A move: ``kind`` is the decision (``advance``, ``charge`` ...) or ``moved``."""

    side: int
    kind: str
    start: Point
    end: Point
    label: str


@dataclass(frozen=True)
class Scene:
    """Everything one picture shows."""

    sides: tuple[SideMark, SideMark]
    caption: str
    zones: tuple[ZoneMark, ...] = ()
    units: tuple[UnitMark, ...] = ()
    markers: tuple[MarkerMark, ...] = ()
    paths: tuple[PathMark, ...] = ()


def marker_label(m: MarkerMark) -> str:
    """``"2: A"``: the marker's number and its controller (``neutral`` when nobody)."""
    who = "neutral" if m.controller is None else SIDE_LETTERS[m.controller]
    return f"{m.number}: {who}"


def text_box(x: float, y: float, text: str, size: float = LABEL_SIZE) -> Rect:
    """The box a centred label with its baseline at ``y`` covers (picture units)."""
    w = CHAR_WIDTH * size * len(text)
    return (x - w / 2, y - 0.8 * size, x + w / 2, y + 0.25 * size)


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class _Labels:
    """Labels placed one by one, each at the first free spot round what it names.

    A spot is free when it covers no label placed before, no model and no marker, and stays
    on the table; failing that, the spot that covers the least of other labels (and leaves
    the table least), then of models, is taken: labels never cover labels while a spot that
    only covers a model is left.
    """

    def __init__(self, width: float, depth: float, things: Sequence[Rect] = ()) -> None:
        self.bounds = (0.0, 0.0, width, depth)
        self.taken: list[Rect] = []
        self.things = list(things)

    def place(self, texts: Sequence[str], around: Rect) -> tuple[str, float, float]:
        """A text from ``texts`` (longest first) and its centre x and baseline y, round the
        box ``around`` (picture units)."""
        best: tuple[tuple[float, float], str, float, float] | None = None
        for text in texts:
            for x, y in self._spots(text, around):
                box = text_box(x, y, text)
                hard = sum(_overlap(box, t) for t in self.taken) + self._outside(box)
                soft = sum(_overlap(box, t) for t in self.things)
                if hard == 0.0 and soft == 0.0:
                    self.taken.append(box)
                    return text, x, y
                if best is None or (hard, soft) < best[0]:
                    best = ((hard, soft), text, x, y)
        assert best is not None
        _, text, x, y = best
        self.taken.append(text_box(x, y, text))
        return text, x, y

    def _outside(self, box: Rect) -> float:
        x0, y0, x1, y1 = self.bounds
        inside = _overlap(box, (x0, y0, x1, y1))
        return (box[2] - box[0]) * (box[3] - box[1]) - inside

    @staticmethod
    def _spots(text: str, r: Rect) -> list[tuple[float, float]]:
        w = CHAR_WIDTH * LABEL_SIZE * len(text)
        cx = (r[0] + r[2]) / 2
        line = LABEL_SIZE * 1.15
        above = r[1] - 0.25
        below = r[3] + LABEL_SIZE * 0.85
        mid = (r[1] + r[3]) / 2 + LABEL_SIZE * 0.3
        right = r[2] + 0.3 + w / 2
        left = r[0] - 0.3 - w / 2
        out = [(cx, above), (cx, below), (right, mid), (left, mid)]
        for k in (1, 2, 3, 4):
            out += [(cx, above - k * line), (cx, below + k * line)]
            out += [(right, mid - k * line), (right, mid + k * line)]
            out += [(left, mid - k * line), (left, mid + k * line)]
            out += [(cx - k * w / 3, above), (cx + k * w / 3, above)]
            out += [(cx - k * w / 3, below), (cx + k * w / 3, below)]
        return out


def scene_svg(table: Table, scene: Scene) -> str:
    """The picture as an SVG document (a string ending in a newline)."""
    w, d = table.width, table.depth
    top, bottom = CAPTION_BAND, LEGEND_BAND

    def y(v: float) -> float:
        return d - v

    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 {fmt(-top)} {fmt(w)} {fmt(d + top + bottom)}" '
        f'width="{fmt(w * 12)}" height="{fmt((d + top + bottom) * 12)}" font-family="sans-serif">',
        f"<title>{escape(scene.caption)}</title>",
        _defs(),
        f'<rect x="0" y="{fmt(-top)}" width="{fmt(w)}" height="{fmt(d + top + bottom)}" '
        'fill="#ffffff"/>',
        f'<rect x="0" y="0" width="{fmt(w)}" height="{fmt(d)}" fill="#f5f0e1" stroke="#555" '
        'stroke-width="0.1"/>',
    ]
    out.append('<g id="zones" fill-opacity="0.12" stroke-opacity="0.7" stroke-width="0.08">')
    for z in scene.zones:
        x0, y0, x1, y1 = z.box
        colour = SIDE_COLOURS[z.side]
        out.append(
            f'<rect x="{fmt(x0)}" y="{fmt(y(y1))}" width="{fmt(x1 - x0)}" '
            f'height="{fmt(y1 - y0)}" fill="{colour}" stroke="{colour}" '
            f'data-side="{SIDE_LETTERS[z.side]}"><title>{escape(z.label)}</title></rect>'
        )
    out.append("</g>")
    out.extend(terrain_elements(table))
    labels = _Labels(w, d, _things(scene, y))
    out.extend(_markers(scene.markers, labels, y))
    out.extend(_paths(scene.paths, y))
    out.extend(_units(scene.units, labels, y))
    out.append(
        f'<text id="caption" x="{fmt(w / 2)}" y="{fmt(-top / 2 + 0.4)}" font-size="1.1" '
        f'text-anchor="middle" fill="#111">{escape(scene.caption)}</text>'
    )
    out.extend(_legend(scene.sides, w, d))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _things(scene: Scene, y: Flip) -> list[Rect]:
    """Every model's base and every marker's token as boxes in picture units."""
    out = []
    for u in scene.units:
        p = u.placement
        for (cx, cy), r in zip(p.centres[p.alive], p.radii[p.alive], strict=True):
            out.append((float(cx - r), y(float(cy + r)), float(cx + r), y(float(cy - r))))
    for m in scene.markers:
        mx, my = m.position[0], y(m.position[1])
        out.append((mx - 0.6, my - 0.6, mx + 0.6, my + 0.6))
    return out


def _shortened(start: Point, end: Point) -> Point:
    """``end`` moved :data:`ARROW_GAP` back toward ``start`` (unless the move is shorter)."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = float(np.hypot(dx, dy))
    if length <= 2 * ARROW_GAP:
        return end
    k = (length - ARROW_GAP) / length
    return start[0] + k * dx, start[1] + k * dy


def _defs() -> str:
    """Arrow heads, one per side colour."""
    heads = "".join(
        f'<marker id="arrow-{SIDE_LETTERS[i].lower()}" viewBox="0 0 10 10" refX="9" refY="5" '
        'markerWidth="4" markerHeight="4" orient="auto-start-reverse">'
        f'<path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
        for i, c in enumerate(SIDE_COLOURS)
    )
    return f"<defs>{heads}</defs>"


def _markers(markers: Sequence[MarkerMark], labels: _Labels, y: Flip) -> list[str]:
    out = ['<g id="objectives">']
    for m in markers:
        mx, my = m.position[0], y(m.position[1])
        colour = NEUTRAL_COLOUR if m.controller is None else SIDE_COLOURS[m.controller]
        ring = "#f9a825" if m.controller is None else colour
        text, lx, ly = labels.place([marker_label(m)], (mx - 0.6, my - 0.6, mx + 0.6, my + 0.6))
        out.append(
            f'<g class="objective" data-number="{m.number}" '
            f'data-controller="{"" if m.controller is None else SIDE_LETTERS[m.controller]}">'
            f"<title>objective {m.number}, "
            f"{'neutral' if m.controller is None else 'held by ' + SIDE_LETTERS[m.controller]}"
            "</title>"
            f'<circle cx="{fmt(mx)}" cy="{fmt(my)}" r="3" fill="none" stroke="{ring}" '
            'stroke-width="0.08" stroke-dasharray="0.4 0.3"/>'
            f'<circle cx="{fmt(mx)}" cy="{fmt(my)}" r="0.6" fill="{colour}" stroke="#333" '
            'stroke-width="0.08"/>'
            f'<text x="{fmt(lx)}" y="{fmt(ly)}" font-size="{fmt(LABEL_SIZE)}" '
            f'text-anchor="middle" fill="#111" font-weight="bold">{escape(text)}</text></g>'
        )
    out.append("</g>")
    return out


def _paths(paths: Sequence[PathMark], y: Flip) -> list[str]:
    out = ['<g id="paths" fill="none">']
    for p in paths:
        colour = SIDE_COLOURS[p.side]
        width, dash = PATH_STYLES.get(p.kind, DEFAULT_PATH_STYLE)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        end = _shortened(p.start, p.end)
        out.append(
            f'<line class="{escape(p.kind)}" x1="{fmt(p.start[0])}" y1="{fmt(y(p.start[1]))}" '
            f'x2="{fmt(end[0])}" y2="{fmt(y(end[1]))}" stroke="{colour}" '
            f'stroke-width="{width}"{dashed} '
            f'marker-end="url(#arrow-{SIDE_LETTERS[p.side].lower()})" '
            f'data-side="{SIDE_LETTERS[p.side]}"><title>{escape(p.label)}</title></line>'
        )
    out.append("</g>")
    return out


def _units(units: Sequence[UnitMark], labels: _Labels, y: Flip) -> list[str]:
    out = ['<g id="units" stroke="#111" stroke-width="0.05">']
    for u in units:
        p = u.placement
        alive = p.alive
        if not alive.any():
            continue
        colour = SIDE_COLOURS[u.side]
        title = f"{u.uid} {u.name}" + (f" ({u.note})" if u.note else "")
        out.append(
            f'<g class="unit" data-side="{SIDE_LETTERS[u.side]}" data-unit={quoteattr(u.uid)} '
            f"fill={quoteattr(colour)}><title>{escape(title)}</title>"
        )
        c, r = p.centres[alive], p.radii[alive]
        for (cx, cy), rr in zip(c, r, strict=True):
            out.append(f'<circle cx="{fmt(cx)}" cy="{fmt(y(cy))}" r="{fmt(rr)}"/>')
        box = (
            float(np.min(c[:, 0] - r)),
            y(float(np.max(c[:, 1] + r))),
            float(np.max(c[:, 0] + r)),
            y(float(np.min(c[:, 1] - r))),
        )
        text, lx, ly = labels.place([f"{u.uid} {u.name}", u.uid], box)
        out.append(
            f'<text x="{fmt(lx)}" y="{fmt(ly)}" font-size="{fmt(LABEL_SIZE)}" '
            f'text-anchor="middle" stroke="none" fill="{colour}">{escape(text)}</text>'
        )
        out.append("</g>")
    out.append("</g>")
    return out


def _legend(sides: Sequence[SideMark], w: float, d: float) -> list[str]:
    """Below the table: each side's colour and army, then what the lines and markers mean."""
    row1, row2 = d + 1.4, d + 3.3
    out = ['<g id="legend" font-size="0.9" fill="#111">']
    for i, s in enumerate(sides):
        x = 0.5 + i * w / 2
        colour = SIDE_COLOURS[i]
        out.append(
            f'<g class="side" data-side="{SIDE_LETTERS[i]}">'
            f'<rect x="{fmt(x)}" y="{fmt(row1 - 0.8)}" width="1" height="1" fill="{colour}"/>'
            f'<text x="{fmt(x + 1.4)}" y="{fmt(row1)}">'
            f"{SIDE_LETTERS[i]}: {escape(s.name)} ({s.units_left} units left)</text></g>"
        )
    keys = [
        ("advance", "move"),
        ("charge", "charge"),
        ("moved", "pushed / stepped back"),
    ]
    x = 0.5
    for kind, text in keys:
        width, dash = PATH_STYLES.get(kind, DEFAULT_PATH_STYLE)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<line x1="{fmt(x)}" y1="{fmt(row2 - 0.3)}" x2="{fmt(x + 2.2)}" '
            f'y2="{fmt(row2 - 0.3)}" stroke="#555" stroke-width="{width}"{dashed}/>'
            f'<text x="{fmt(x + 2.6)}" y="{fmt(row2)}">{text}</text>'
        )
        x += 3.2 + CHAR_WIDTH * 0.9 * len(text)
    out.append(
        f'<circle cx="{fmt(x + 0.5)}" cy="{fmt(row2 - 0.3)}" r="0.5" fill="{NEUTRAL_COLOUR}" '
        'stroke="#333" stroke-width="0.08"/>'
        f'<text x="{fmt(x + 1.3)}" y="{fmt(row2)}">objective "n: holder", coloured by holder</text>'
    )
    out.append("</g>")
    return out
