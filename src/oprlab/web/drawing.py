"""What the pages draw over the library's table picture: a shot's sight lines and the outcome
of each check of a step (a unit's reach is :mod:`oprlab.web.reach`).

The table picture itself is :func:`oprlab.analysis.pictures.battle_svg` (y up, drawn flipped);
these are SVG fragments in the same inches, added on top. Nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["centres", "check_badges", "sight_lines"]

#: A shot's line of sight on the replay's table: its colour and dash.
SIGHT_STYLE = 'stroke="#ff6f00" stroke-width="0.12" stroke-dasharray="0.5 0.25"'


def centre(state: Any, uid: str) -> tuple[float, float] | None:
    """The centre of a unit's models left on the table (``None``: not on the table)."""
    us = state.units.get(uid)
    p = None if us is None or not us.on_table else us.placement
    if p is None or not p.alive.any():
        return None
    c = p.centres[p.alive].mean(axis=0)
    return float(c[0]), float(c[1])


def sight_lines(state: Any, action: Any) -> str:
    """SVG lines from a shooting unit to its targets (before the shot: where they stood)."""
    if action.kind.value != "shoot" or not action.target:
        return ""
    start = centre(state, action.unit)
    out = []
    for uid in (action.target, getattr(action, "second", "")):
        end = centre(state, uid) if uid else None
        if start is None or end is None:
            continue
        depth = state.table.depth
        out.append(
            f'<line class="sight" x1="{start[0]:.2f}" y1="{depth - start[1]:.2f}" '
            f'x2="{end[0]:.2f}" y2="{depth - end[1]:.2f}" {SIGHT_STYLE}>'
            f"<title>{escape(action.unit)} shoots {escape(uid)}</title></line>"
        )
    return "".join(out)


# --- the outcome of each check, drawn beside the unit it befell -------------------------------

#: Font size of a check's label (inches on the table).
BADGE_FONT = 0.8


def centres(state: Any) -> dict[str, tuple[float, float]]:
    """Where each unit on the table stands (before a step: where a unit it destroys stood)."""
    out = {}
    for uid in state.units:
        c = centre(state, uid)
        if c is not None:
            out[uid] = c
    return out


def _verdict(passed: Any) -> str:
    return "passed" if passed else "failed"


def check_text(e: dict[str, Any]) -> tuple[str, str] | None:
    """A check's outcome in a few words and the unit it befell, from its event (the dice or
    the clock: the engine logs what came of them); ``None`` for an event that is no check."""
    k = e.get("kind")
    if "hits" in e and "wounds" in e:  # a shot (GFF, Riverside, WWPD) or WWPD melee
        saved = f", {e['saves']} saved" if "saves" in e else ""
        down = e.get("casualties", 0)
        dice = e.get("dice", "?")
        cover = e.get("cover")
        where = "" if not cover or cover == "none" else f" ({cover} cover)"
        where = " (in cover)" if cover is True else where
        return (
            f"{dice} dice: {e['hits']} hits, {e['wounds']} wounds{saved}, {down} down{where}",
            str(e.get("target") or e.get("unit")),
        )
    if "wounds_dealt" in e:  # OPR melee: both sides' blows
        return (
            f"melee: {e.get('unit', '?')} dealt {e['wounds_dealt']} wounds, took "
            f"{e['wounds_taken']}",
            str(e.get("target") or e.get("unit")),
        )
    if k == "cast" and "success" in e:
        return (
            f"{e.get('spell', 'spell')}: rolled {e.get('natural', '?')}, "
            + ("cast" if e["success"] else "failed"),
            str(e.get("target") or e.get("unit")),
        )
    if "passed" in e and "unit" in e:  # morale, Leadership, other tests
        need = e.get("quality", e.get("target"))
        what = "Leadership" if k == "leadership" else str(k)
        return f"{what} {need}+: {_verdict(e['passed'])}", str(e["unit"])
    return None


def check_badges(
    state: Any, events: Sequence[dict[str, Any]], before: dict[str, tuple[float, float]]
) -> str:
    """A label per check in ``events`` beside the unit it befell (where it stands after the
    step, or stood before it when it left the table), stacked when one unit has several."""
    depth = state.table.depth
    now = centres(state)
    stacked: dict[str, int] = {}
    out = []
    for e in events:
        found = check_text(e)
        if found is None:
            continue
        text, uid = found
        at = now.get(uid) or before.get(uid)
        if at is None:
            continue
        n = stacked[uid] = stacked.get(uid, -1) + 1
        width = 0.52 * BADGE_FONT * len(text) + 0.4
        x = min(max(at[0] - width / 2, 0.0), max(state.table.width - width, 0.0))
        y = min(max(depth - at[1] - 2.2 - n * (BADGE_FONT + 0.35), 0.0), depth - BADGE_FONT)
        out.append(
            f'<g class="check" data-kind="{escape(str(e.get("kind")))}" '
            f'data-unit="{escape(uid)}"><rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" '
            f'height="{BADGE_FONT + 0.3:.2f}" rx="0.2" fill="#fffde7" stroke="#f57f17" '
            f'stroke-width="0.06" fill-opacity="0.92"/><text x="{x + 0.2:.2f}" '
            f'y="{y + BADGE_FONT:.2f}" font-size="{BADGE_FONT}" font-family="sans-serif" '
            f'fill="#212121">{escape(text)}</text></g>'
        )
    return f'<g class="checks">{"".join(out)}</g>' if out else ""
