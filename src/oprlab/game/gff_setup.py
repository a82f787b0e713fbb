"""GFF game options and table edges: deployment zones, home edges and facings for any edge.

Seed 003 "Deployment" 1-3: the deployment roll-off winner picks a table edge, the opponent takes
the opposite one, and each deploys within 12" of its edge. An edge is named by the compass
(``"south"``: y = 0, ``"north"``: y = depth, ``"west"``: x = 0, ``"east"``: x = width); a zone is
a box ``(xmin, ymin, xmax, ymax)``. Pure functions of the table, so the procedure
(``oprlab.game.gff``) and the commanders share one geometry.

May import ``oprlab.errors`` and ``oprlab.table.model`` (``oprlab.game.state`` for its types).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from oprlab.errors import OptionError
from oprlab.game.system import RollOffWinner, check_roll_off_winner
from oprlab.table.model import Point, Table

if TYPE_CHECKING:
    from oprlab.game.state import GameState

#: Every edge, in the fixed order habits break ties by (side A's default first).
EDGES = ("south", "north", "west", "east")
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}
#: The edge pairs an ``edges`` option allows: any edge, or the y = 0 / y = depth pair only.
EDGE_SETS: dict[str, tuple[str, ...]] = {"all": EDGES, "north-south": ("south", "north")}
#: Before the roll-off: side A along y = 0, side B opposite (scenes and tables from files).
DEFAULT_EDGES = ("south", "north")

Box = tuple[float, float, float, float]
#: ``GffOptions.defend``: every attack, or shots only.
DEFEND_READINGS = ("all", "shooting")
#: ``GffOptions.strike_back``: the charged side decides, or always strikes back.
STRIKE_BACK_READINGS = ("choose", "always")
#: ``GffOptions.stuck_markers`` (as ``oprlab.game.objectives.STUCK_READINGS``, which this module
#: may not import): the farthest point, or stop placing.
STUCK_MARKER_READINGS = ("farthest", "stop")


@dataclass(frozen=True)
class GffOptions:
    """Readings of seed 003 a game fixes at its start (docs/rules/gff.md "Full games").

    Attributes:
        edges: ``"all"``: the deployment roll-off winner picks any edge (markers then go
            outside every edge's 12" band, being placed before the pick); ``"north-south"``:
            only the y = 0 or y = depth edge (markers outside those two bands).
        dangerous: ``"once"``: a model rolls for dangerous terrain at most once per activation
            (activating in it and moving across it is one roll); ``"twice"``: once for each.
        special_moves: seed 003 "SPECIAL MOVES (Optional)": the attacker pushes a model that
            rolls a Shaken result, and a push off an elevated position falls (no jumping).
        charge_dangerous: a charge that reaches contact rolls for its models that crossed
            dangerous terrain before the strikes (``False``: no roll, as before).
        defend: which attacks clock-bennies' ``DEFEND`` interrupts: ``"all"`` (shots, each
            attack of a melee exchange, a spell's hits) or ``"shooting"`` (shots only).
        set_clock_at_activation: under clock-bennies, the side to activate may first spend a
            benny to set any clock in play (``SET_CLOCK``, or pass) before choosing its unit.
        blast_split: Blast(X) counts the enemy models within 3" of the target in X's cap and
            splits its hits evenly between the enemy units within 3" of the target
            (``False``: the target alone takes them, as one attack on its own does).
        limited: a Limited weapon fires or strikes in one attack per game, then is gone
            (``False``: it is used in every attack, as before).
        strike_back: "Defenders may choose to strike back": ``"choose"``: the charged side
            decides (``STRIKE_BACK``) before its first attack of the exchange; ``"always"``:
            it always strikes back (as before).
        stuck_markers: when no point is left for a marker over 9" from the others:
            ``"farthest"``: it goes at a point farthest from them; ``"stop"``: no more
            markers are placed (``game.objectives``, docs/rules/gff.md "Full games").
        roll_off_winner: who wins Deployment 1's roll-off (and so picks the edge, deploys
            and plays first): ``"rolloff"`` the dice (the rule), ``"A"`` / ``"B"`` that side.
            An experimenter's option, not a reading (:func:`oprlab.game.system.roll_off`).
    """

    edges: str = "all"
    dangerous: str = "once"
    special_moves: bool = False
    charge_dangerous: bool = True
    defend: str = "all"
    set_clock_at_activation: bool = True
    blast_split: bool = True
    limited: bool = True
    strike_back: str = "choose"
    stuck_markers: str = "farthest"
    roll_off_winner: RollOffWinner = "rolloff"

    def __post_init__(self) -> None:
        check_roll_off_winner(self.roll_off_winner)
        if self.edges not in EDGE_SETS:
            raise OptionError(
                "unknown deployment edges reading",
                value=self.edges,
                expected=" or ".join(EDGE_SETS),
                where="edges",
            )
        if self.dangerous not in ("once", "twice"):
            raise OptionError(
                "unknown dangerous terrain reading",
                value=self.dangerous,
                expected="once or twice",
                where="dangerous",
            )
        if self.defend not in DEFEND_READINGS:
            raise OptionError(
                "unknown reading of the attacks bennies defend against",
                value=self.defend,
                expected=" or ".join(DEFEND_READINGS),
                where="defend",
            )
        for name, allowed in (
            ("strike_back", STRIKE_BACK_READINGS),
            ("stuck_markers", STUCK_MARKER_READINGS),
        ):
            if getattr(self, name) not in allowed:
                raise OptionError(
                    f"unknown {name.replace('_', ' ')} reading",
                    value=getattr(self, name),
                    expected=" or ".join(allowed),
                    where=name,
                )


def check_edge(edge: str) -> str:
    if edge not in OPPOSITE:
        raise OptionError("unknown table edge", value=edge, expected=" or ".join(EDGES))
    return edge


def zone_box(table: Table, edge: str, depth: float) -> Box:
    """The band within ``depth`` inches of ``edge``, as ``(xmin, ymin, xmax, ymax)``."""
    w, d = table.width, table.depth
    if edge == "south":
        return (0.0, 0.0, w, depth)
    if edge == "north":
        return (0.0, d - depth, w, d)
    if edge == "west":
        return (0.0, 0.0, depth, d)
    check_edge(edge)
    return (w - depth, 0.0, w, d)


def along_y(edge: str) -> bool:
    """Whether the edge is a line of constant y (its zone's depth runs along y)."""
    return edge in ("south", "north")


def edge_distance(table: Table, edge: str, point: Point) -> float:
    """How far ``point`` lies from ``edge`` (how deep into the table from that side)."""
    x, y = point
    if edge == "south":
        return y
    if edge == "north":
        return table.depth - y
    if edge == "west":
        return x
    check_edge(edge)
    return table.width - x


def home_point(table: Table, edge: str, point: Point) -> Point:
    """The point of ``edge`` straight back from ``point`` ("back toward home")."""
    x, y = point
    if edge == "south":
        return (x, 0.0)
    if edge == "north":
        return (x, table.depth)
    if edge == "west":
        return (0.0, y)
    check_edge(edge)
    return (table.width, y)


def heading(edge: str) -> float:
    """A formation's facing (radians, ``geometry.formation``) from ``edge`` toward the other.

    Facing 0 fronts toward +y; the south and north values are the ones side A and B always had.
    """
    if edge not in _HEADINGS:
        check_edge(edge)  # the error naming the edges
    return _HEADINGS[edge]


#: :func:`heading` by edge (made once: every deployment question asks it).
_HEADINGS = {"south": 0.0, "north": math.pi, "west": -math.pi / 2, "east": math.pi / 2}


def in_box(box: Box, point: Point) -> bool:
    x0, y0, x1, y1 = box
    return x0 <= point[0] <= x1 and y0 <= point[1] <= y1


def outside_zones(table: Table, edges: Sequence[str], point: Point) -> bool:
    """Seed 003 "Mission" 3: the point is outside (not on) every listed edge's 12" zone."""
    return all(edge_distance(table, e, point) > table.deployment_depth for e in edges)


def offered_edges(table: Table, edges: Sequence[str], markers: Sequence[Point]) -> list[str]:
    """The edges the roll-off winner may pick: those whose zone and whose opposite zone hold
    no marker (a table brought with its markers may have some in a west or east band); if that
    leaves none, every allowed edge."""
    depth = table.deployment_depth
    free = [
        e
        for e in edges
        if not any(in_box(zone_box(table, z, depth), m) for z in (e, OPPOSITE[e]) for m in markers)
    ]
    return free or list(edges)


def options_of(state: GameState) -> GffOptions:
    """The game's readings (:class:`GffOptions`; its defaults when none were given)."""
    opts = state.options
    return opts if isinstance(opts, GffOptions) else GffOptions()
