"""Pictures of games: a state and the moves of a round as a :class:`~oprlab.table.scene.Scene`.

Each rule system keeps its zones and markers its own way; this module asks the system where the
game really put them (the edge the GFF roll-off winner picked, the Riverside zone taken, WWPD's
opposite edges: ``RuleSystem.deployment_zone``), colours every unit by its side, numbers the
markers with their holder, and takes the round's moves and charges from a
:class:`~oprlab.game.trail.Trail` kept while the game was played.
:mod:`oprlab.table.scene` draws the result.

May import ``oprlab.game``, ``oprlab.table`` and below.
"""

from __future__ import annotations

import math

from oprlab.game import wwpd
from oprlab.game.objectives import held
from oprlab.game.state import GameState
from oprlab.game.systems import find_system
from oprlab.game.trail import Trail
from oprlab.game.wwpd import WwpdState
from oprlab.table.scene import (
    SIDE_LETTERS,
    MarkerMark,
    PathMark,
    Rect,
    Scene,
    SideMark,
    UnitMark,
    ZoneMark,
    scene_svg,
)

#: How a move of each kind reads in a path's title.
VERBS = {"moved": "is moved", "move": "moves", "consolidate": "consolidates"}


def battle_svg(
    state: GameState | WwpdState, *, round_no: int | None = None, trail: Trail | None = None
) -> str:
    """The picture of ``state`` as SVG (see :func:`battle_scene`)."""
    board = state.table
    return scene_svg(board, battle_scene(state, round_no=round_no, trail=trail))


def battle_scene(
    state: GameState | WwpdState, *, round_no: int | None = None, trail: Trail | None = None
) -> Scene:
    """What the table shows at the end of round ``round_no`` (default: the state's round):
    zones, units, markers, the round's moves from ``trail``, a caption and the legend."""
    n = state.round if round_no is None else round_no
    names = _unit_names(state)
    paths = tuple(
        PathMark(
            s.side,
            s.kind,
            s.start,
            s.end,
            f"{names.get(s.unit, s.unit)} {VERBS.get(s.kind, s.kind + 's')} "
            f'{math.dist(s.start, s.end):.1f}"',
        )
        for s in (trail.in_round(n) if trail is not None else ())
    )
    markers = state.markers if isinstance(state, WwpdState) else state.objectives
    return Scene(
        sides=(_side(state, 0), _side(state, 1)),
        caption=_caption(state, n),
        zones=tuple(ZoneMark(s, *_zone(state, s)) for s in (0, 1)),
        units=tuple(_units(state)),
        markers=tuple(MarkerMark(i + 1, m.position, m.controller) for i, m in enumerate(markers)),
        paths=paths,
    )


def _unit_names(state: GameState | WwpdState) -> dict[str, str]:
    return {uid: f"{uid} {u.unit.name}" for uid, u in state.units.items()}


def _side(state: GameState | WwpdState, side: int) -> SideMark:
    if isinstance(state, WwpdState):
        return SideMark(state.forces[side].name, wwpd.units_left(state, side))
    left = sum(u.alive for u in state.side_units(side))
    return SideMark(state.armies[side].name, left)


def _zone(state: GameState | WwpdState, side: int) -> tuple[Rect, str]:
    """The zone ``side`` deployed in and a description naming its edge."""
    box, edge = find_system(state.system).deployment_zone(state, side)
    return box, f"{SIDE_LETTERS[side]} deploys along the {edge} edge"


def _units(state: GameState | WwpdState) -> list[UnitMark]:
    out = []
    for uid, u in state.units.items():
        if not u.on_table or u.placement is None:
            continue
        if isinstance(state, WwpdState):
            note = "pinned" if getattr(u, "pinned", False) else ""
        else:
            note = "Shaken" if getattr(u, "shaken", False) else ""
        out.append(UnitMark(uid, u.unit.name, u.side, u.placement, note))
    return out


def _caption(state: GameState | WwpdState, n: int) -> str:
    system = find_system(state.system).title
    if isinstance(state, WwpdState):
        rounds, markers = state.options.rounds, state.markers
    else:
        rounds, markers = state.rounds, state.objectives
    a, b = held(markers)
    when = f"end of round {n} of {rounds}" if n >= 1 else "deployment"
    text = f"{system}, seed {state.seed}: {when}; objectives held A {a}, B {b}"
    if state.done and (n >= state.round):
        text += "; " + (
            "a draw" if state.winner is None else f"army {SIDE_LETTERS[state.winner]} wins"
        )
    return text
