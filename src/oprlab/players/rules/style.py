"""How a rules commander plays: which of issue 14's habit fixes it has, and its temper.

``rules`` has every fix but ``depth`` and GFF's marker habits (``deploy_for_markers``,
``rally_contests``, ``last_round_push``, ``shoot_markers``, ``aim_markers``,
``rush_for_markers``, ``charge_as_move``, ``contest_need``, ``last_round_order``): each built
and off, the measured ones not separated from no change (docs/commanders.md), as
``rush_cost`` 0 and the hotter temper were not; ``rules-v1`` none (the commander of before
issue 14, kept as a rung of the ladder: it plays exactly the games it always played);
``rules-aggressive`` and ``rules-cautious`` are ``rules`` with a temper that changes play:
how much a charge is worth for its own sake, how much being in an enemy's charge reach costs,
how much the strike back weighs against a charge.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from oprlab.errors import UserError


@dataclass(frozen=True)
class Style:
    """One rules commander's habits and temper."""

    name: str = "rules"
    #: Riverside: Idle is scored as standing where the unit is (markers and danger, the same
    #: outlook every other action carries), not a flat -1.
    idle_outlook: bool = True
    #: Moves and charges that cross dangerous terrain cost the wounds they are expected to take.
    dangerous_terrain: bool = True
    #: A charge that cannot reach base contact (terrain, units in the way) is scored as the
    #: move toward the target it becomes, not as the fight it would be.
    charge_arrival: bool = True
    #: Every unit but melee ones counts an enemy fighter's charge reach as danger (not only
    #: shooting units).
    weak_out_of_reach: bool = True
    #: Units are classed by their expected output (hits that get through a Defense 4+ save),
    #: not by counting attack dice with ranged ones doubled.
    role_from_output: bool = True
    #: Clock-bennies: run an enemy clock at 1-2 up to 5 (it hands the enemy a reason to spend a
    #: benny resetting it).
    enemy_clock: bool = False
    #: Riverside: the roll-off winner who takes the activation order leads (seed 002's first
    #: mover scores 0.33 under the rules commander: issue 14), else follows.
    lead: bool = False
    #: An Advance's bound on its best shot uses the system's own odds (so it is a bound in
    #: Riverside too; rules-v1 used GFF's everywhere).
    own_odds_bound: bool = True
    #: Cover: a shot is scored with the Defense roll the target's cover gives it (the game's
    #: own check), and a unit that is not a fighter standing out of Cover Terrain within reach
    #: of enemy shooters counts what cover would have saved it as lost.
    cover: bool = True
    #: GFF's edge from the matchup: besides the markers, the terrain the army's kind wants
    #: (a shooting army cover in its zone and open ground before it, a melee army a hidden,
    #: unhindered way across its half); rules-v1 took the edge nearer the markers only.
    edge_from_matchup: bool = True
    #: Markers placed for every edge the deployment roll-off winner may still pick (they are
    #: placed before it): as many nearer each edge of a pair as the other, the rest near the
    #: centre; rules-v1 placed them near its own edge as if sides were always south/north.
    markers_for_edges: bool = True
    #: GFF deployment: a shooting unit deploys where it can take, in the first round, a
    #: marker no unit of its side placed before it can (the farthest back of those places),
    #: not always as far back as it may: markers held at the end decide the game.
    deploy_for_markers: bool = False
    #: GFF markers at the round's end: a Shaken unit yet to activate this round rallies (its
    #: one action is Idle), so it contests markers again, not as a Shaken unit would.
    rally_contests: bool = False
    #: GFF's last round: markers are worth ``LAST_ROUND_WEIGHT`` (3) times as much, on the
    #: way and in the count at the round's end (the markers held then decide the game).
    last_round_push: bool = False
    #: GFF shots: a shot at a unit standing near a marker is also worth the chance it breaks
    #: it (destroyed or Shaken) times the markers that changes at the round's end.
    shoot_markers: bool = False
    #: GFF moves: a Hold's or Advance's best shot counts what breaking a marker holder is
    #: worth, as ``shoot_markers`` does for the shot itself.
    aim_markers: bool = False
    #: GFF moves: a shooting unit's Rush that seizes or contests a marker at the round's end
    #: (the markers held then rise over standing still) is not marked down for the shot it
    #: gives up: rules-v1, classing such units hybrid, Rushed them onto markers.
    rush_for_markers: bool = False
    #: GFF charges by units that are not fighters: scored with what a Rush to where the
    #: charge ends costs (out of cover, into fighters' reach, the shot given up), so a charge
    #: that falls short is no cheaper way to Rush, and one that arrives pays for its shot.
    charge_as_move: bool = False
    #: GFF markers' need: a marker the side does not hold needs a unit less when an enemy
    #: will contest it at the round's end (on it, or yet to activate within a Rush and 3"),
    #: and a charge's target frees the marker it contests only at the chance the charge
    #: destroys or Shakes it, on the way and in the count at the round's end.
    contest_need: bool = False
    #: Depth against fighters: a shooting unit's move into the charge reach of an enemy
    #: fighter it was out of counts that fighter's whole charge as lost (not only the
    #: ``danger`` share), before the last round: it holds back and shoots.
    depth: bool = False
    #: GFF's last round: a unit whose best action attacks (a charge, or a shot from where it
    #: holds or advances to) activates before one whose best action only walks, so the
    #: markers' contesters are broken first and the walkers' ends are shown to the enemy as
    #: late as they can be (seed 003 "Mission": the markers held at the game's end win).
    last_round_order: bool = False
    #: A melee unit's charge is worth this much for its own sake.
    charge_bonus: float = 10.0
    #: The share of an enemy fighter's charge damage a unit in its reach counts as lost.
    danger: float = 0.5
    #: What a shooting unit's Rush is marked down for the shot it gives up (beyond the shot
    #: an Advance counts).
    rush_cost: float = 5.0
    #: The share of the strike back a charge counts against itself.
    strike_back: float = 0.6

    def __post_init__(self) -> None:
        """The commander's bounds (players/rules/bounds.py) prune on the signs of these
        weights: the depth and a fighter's reach only lower a score (``danger`` a share from
        0 to 1), and a Rush's mark-down and the strike back only lower it too. A weight
        outside them would let a bound prune the best action, so it is refused here (a
        :class:`UserError`: one line naming the weight, as a spec's ``FIELD=VALUE`` gives it)."""
        if not 0.0 <= self.danger <= 1.0:
            where = f"{self.name}: danger"
            raise UserError("not a share", value=self.danger, expected="0 to 1", where=where)
        for field in ("rush_cost", "strike_back"):
            value = getattr(self, field)
            if not value >= 0.0:
                where = f"{self.name}: {field}"
                raise UserError("a weight below 0", value=value, expected="0 or more", where=where)


RULES = Style()
#: The rules commander before issue 14 item 1's fixes.
V1 = Style(
    name="rules-v1",
    idle_outlook=False,
    dangerous_terrain=False,
    charge_arrival=False,
    weak_out_of_reach=False,
    role_from_output=False,
    enemy_clock=True,
    lead=True,
    own_odds_bound=False,
    cover=False,
    edge_from_matchup=False,
    markers_for_edges=False,
)
AGGRESSIVE = replace(
    RULES, name="rules-aggressive", charge_bonus=25.0, danger=0.25, strike_back=0.4
)
CAUTIOUS = replace(RULES, name="rules-cautious", charge_bonus=0.0, danger=1.0, strike_back=1.0)

#: The rules commanders by spec name.
STYLES = {s.name: s for s in (RULES, V1, AGGRESSIVE, CAUTIOUS)}
