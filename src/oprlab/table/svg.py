"""An SVG picture of the table: terrain coloured by type, deployment zones, objectives, units.

One user unit is one inch (``viewBox="0 0 width depth"``). Player 0's edge (``y = 0``) is drawn at
the bottom, so the picture reads like a table seen from player 0's side. The output is a pure
function of its inputs: no timestamps, numbers written with at most 3 decimals, elements in
input order; the same table gives the same bytes. May import ``oprlab.table`` modules below it.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from oprlab.table.deploy import deployment_zone
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType

T = TerrainType

#: Fill colours by preset, then by the most telling type.
PRESET_COLOURS = {
    "barricade": "#8d6e63",
    "forest": "#4caf50",
    "forest_wall": "#1b5e20",
    "lake": "#4fc3f7",
    "hill": "#d7c49e",
    "ramp": "#bcaaa4",
    "ruins": "#9e9e9e",
}
TYPE_COLOURS = (
    (T.IMPASSABLE, "#424242"),
    (T.BLOCKING, "#2e7d32"),
    (T.DANGEROUS, "#4fc3f7"),
    (T.ELEVATED, "#d7c49e"),
    (T.COVER, "#81c784"),
    (T.COVER_BEHIND, "#a1887f"),
    (T.DIFFICULT, "#bdbdbd"),
    (T.DIFFICULT_LARGE, "#bcaaa4"),
    (T.UNSTABLE, "#bcaaa4"),
)
OPEN_COLOUR = "#eeeeee"
ZONE_COLOURS = ("#1e88e5", "#e53935")
UNIT_COLOURS = ("#1565c0", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#558b2f")


def fmt(x: float) -> str:
    """A number with at most 3 decimals and no trailing zeros (``-0`` written ``0``)."""
    text = f"{float(x):.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def piece_colour(piece: TerrainPiece) -> str:
    """The fill of a piece: its preset's colour, else that of its most telling type."""
    if piece.preset in PRESET_COLOURS:
        return PRESET_COLOURS[piece.preset]
    for kind, colour in TYPE_COLOURS:
        if piece.has(kind):
            return colour
    return OPEN_COLOUR


def terrain_elements(table: Table) -> list[str]:
    """The ``<g id="terrain">`` group: each piece a polygon in its colour, y flipped so that
    ``y = 0`` is at the bottom of the picture."""
    out = ['<g id="terrain" stroke="#333" stroke-width="0.06">']
    for piece in table.pieces:
        points = " ".join(f"{fmt(px)},{fmt(table.depth - py)}" for px, py in piece.outline)
        kinds = ", ".join(sorted(t.value for t in piece.types)) or "open"
        height = f", height {fmt(piece.height)}" if piece.height else ""
        title = f"{piece.name} ({kinds}){height}"
        dash = ' stroke-dasharray="0.3 0.2"' if piece.has(T.COVER_BEHIND) else ""
        out.append(
            f'<polygon points="{points}" fill="{piece_colour(piece)}" fill-opacity="0.85"{dash}>'
            f"<title>{escape(title)}</title></polygon>"
        )
    out.append("</g>")
    return out


def table_svg(
    table: Table, placements: Mapping[str, Placement] | None = None, *, zones: bool = True
) -> str:
    """The table as an SVG document (a string ending in a newline).

    Args:
        placements: units to draw, by label; each model a circle, the label at the unit's
            centre. Removed models are left out.
        zones: draw the two deployment zones.
    """
    w, d = table.width, table.depth

    def y(v: float) -> float:
        return d - v

    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {fmt(w)} {fmt(d)}" width="{fmt(w * 12)}" height="{fmt(d * 12)}" '
        'font-family="sans-serif">',
        f"<title>Table {fmt(w)}x{fmt(d)} with {len(table.pieces)} terrain pieces</title>",
        f'<rect x="0" y="0" width="{fmt(w)}" height="{fmt(d)}" fill="#f5f0e1" stroke="#555" '
        'stroke-width="0.1"/>',
    ]
    if zones:
        out.append('<g id="zones" fill-opacity="0.12" stroke-opacity="0.6" stroke-width="0.08">')
        for player in (0, 1):
            x0, y0, x1, y1 = deployment_zone(table, player)
            colour = ZONE_COLOURS[player]
            out.append(
                f'<rect x="{fmt(x0)}" y="{fmt(y(y1))}" width="{fmt(x1 - x0)}" '
                f'height="{fmt(y1 - y0)}" fill="{colour}" stroke="{colour}">'
                f"<title>deployment zone of player {player}</title></rect>"
            )
        out.append("</g>")
    out.extend(terrain_elements(table))
    if table.objectives:
        out.append('<g id="objectives">')
        for i, (ox, oy) in enumerate(table.objectives):
            out.append(
                f'<circle cx="{fmt(ox)}" cy="{fmt(y(oy))}" r="3" fill="none" stroke="#f9a825" '
                'stroke-width="0.08" stroke-dasharray="0.4 0.3"/>'
            )
            out.append(
                f'<circle cx="{fmt(ox)}" cy="{fmt(y(oy))}" r="0.5" fill="#fdd835" stroke="#333" '
                f'stroke-width="0.08"><title>objective {i + 1}</title></circle>'
            )
        out.append("</g>")
    if placements:
        out.append('<g id="units" stroke="#111" stroke-width="0.05">')
        for n, (label, p) in enumerate(placements.items()):
            colour = UNIT_COLOURS[n % len(UNIT_COLOURS)]
            alive = p.alive
            out.append(f"<g fill={quoteattr(colour)}><title>{escape(label)}</title>")
            for (cx, cy), r in zip(p.centres[alive], p.radii[alive], strict=True):
                out.append(f'<circle cx="{fmt(cx)}" cy="{fmt(y(cy))}" r="{fmt(r)}"/>')
            if alive.any():
                mx = float(np.mean(p.centres[alive, 0]))
                top = float(np.max(p.centres[alive, 1] + p.radii[alive]))
                out.append(
                    f'<text x="{fmt(mx)}" y="{fmt(y(top) - 0.3)}" font-size="0.9" '
                    f'text-anchor="middle" stroke="none" fill="#111">{escape(label)}</text>'
                )
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
