"""Each rule system's own habits for the rules commander, found by the game's rules class.

The commander asks :func:`habits_for` (the first class in the game's rules' MRO with habits, so
a house rule built on GFF plays with GFF's habits), never the system's name. A record says what
the system's text makes different for the commander: whose attack odds estimate a shot or a
charge, whether Idle is open to every unit (and so worth comparing with the rest), and which of
its decisions have a habit of their own (GFF's edges, deployment, defence and strike back in
:mod:`oprlab.players.gff_choices`; Riverside's roll-off, spells and Teleport in
:mod:`oprlab.players.riverside_choices`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oprlab.game import gff_setup as edges
from oprlab.game.actions import Action, Kind
from oprlab.game.gff import OBJECTIVE_RANGE, GffRules
from oprlab.game.riverside import RiversideRules
from oprlab.game.state import GameState, UnitState
from oprlab.players import gff_choices, riverside_choices, riverside_odds
from oprlab.players.rules import cover
from oprlab.players.rules.estimates import MELEE, SHOOTING, Damage, expected_damage
from oprlab.players.rules.scorer import Scorer

#: A system's own decisions: the habit's choice, or ``None`` to leave it to the commander.
Decide = Callable[[Scorer, GameState, Sequence[Action]], Action | None]
#: Whether a shot of the first unit at the second meets cover (the system's own check).
TargetCover = Callable[[GameState, UnitState, UnitState], bool]


def _gff_marker_edges(state: GameState) -> tuple[str, ...]:
    """GFF: the edges the deployment roll-off winner may pick (option ``edges``)."""
    return edges.EDGE_SETS[edges.options_of(state).edges]


def _north_south(state: GameState) -> tuple[str, ...]:
    return edges.DEFAULT_EDGES


def _no_decisions(cmd: Scorer, state: GameState, actions: Sequence[Action]) -> None:
    return None


@dataclass(frozen=True)
class SystemHabits:
    """What one system's text changes in the rules commander's play."""

    #: Expected points one attack removes, by the system's own odds.
    damage: Damage = expected_damage
    #: Idle is open to every unit (Riverside: it removes Shaken), not only to Shaken ones.
    idle_for_all: bool = False
    #: The system's own decisions (setup, interrupts, special abilities).
    decide: Decide = _no_decisions
    #: Charges are listed by distance alone, so one may fail to reach contact (GFF); else the
    #: system lists only charges that arrive (Riverside "Charge Action").
    charges_may_fall_short: bool = True
    #: Whose movement text the table's charge check reads (:class:`MoveRules` ``system``).
    movement: str = "gff"
    #: An Advance across dangerous terrain rolls for it too (GFF); Riverside: Rush and Charge.
    dangerous_on_advance: bool = True
    #: Whether a shot's target has cover from the shooter, by the system's own check.
    target_cover: TargetCover = cover.gff_target_cover
    #: A model stands in Cover Terrain with its whole base inside (GFF "fully inside"); else
    #: with its centre inside (Riverside "in or behind", the behind part not counted).
    cover_whole_base: bool = True
    #: The edges that may still be picked when markers are placed (both systems place them
    #: before the deployment roll-off; Riverside's zones run along y = 0 and y = depth).
    marker_edges: Callable[[GameState], tuple[str, ...]] = _north_south
    #: The later GFF marker habits (``Style.shoot_markers``, ``aim_markers``,
    #: ``last_round_push``; ``rally_contests`` plays where Idle is a Shaken unit's only action)
    #: play here (Riverside's commander meets issue 14's number without them).
    marker_habits: bool = False


def _gff_decide(cmd: Scorer, state: GameState, actions: Sequence[Action]) -> Action | None:
    if actions[0].kind not in gff_choices.KINDS:  # edges, deployment, enemy tokens, defence
        return None
    shooting = lambda u: cmd.role(u) is SHOOTING  # noqa: E731
    melee = (lambda u: cmd.role(u) is MELEE) if cmd.style.edge_from_matchup else None
    reach = None
    if cmd.style.deploy_for_markers:
        reach = lambda u: state.rules.move_allowance(u, Kind.RUSH) + OBJECTIVE_RANGE  # noqa: E731
    return gff_choices.choose(
        state, actions, shooting, enemy_clock=cmd.style.enemy_clock, melee=melee, reach=reach
    )


#: Habits by rules class (the first match in the game's rules' MRO is used).
HABITS: dict[type, SystemHabits] = {
    GffRules: SystemHabits(decide=_gff_decide, marker_edges=_gff_marker_edges, marker_habits=True),
    RiversideRules: SystemHabits(
        damage=riverside_odds.expected_damage,
        idle_for_all=True,
        decide=riverside_choices.choose,
        charges_may_fall_short=False,
        movement="riverside",
        dangerous_on_advance=False,
        target_cover=cover.riverside_target_cover,
        cover_whole_base=False,
    ),
}
#: A system of the OPR family with no habits of its own: GFF's odds, no decisions of its own.
DEFAULT = SystemHabits()

_FOUND: dict[type, SystemHabits] = {}


def habits_for(state: GameState) -> SystemHabits:
    """The habits of the system playing ``state``."""
    cls = type(state.rules)
    found = _FOUND.get(cls)
    if found is None:
        found = next((HABITS[c] for c in cls.__mro__ if c in HABITS), DEFAULT)
        _FOUND[cls] = found
    return found
