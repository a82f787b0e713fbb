"""The rules commander: plays like a competent human, in the spirit of OPR's solo rules.

Each unit is classed as melee, shooting or hybrid from what it can do. On its turn the commander
scores every legal action of every unit and takes the best (:mod:`.scoring`, :mod:`.bounds`).
Setup decisions follow simple habits: objectives on its own half, shooters deployed back and
fighters forward. Decisions a system has of its own (GFF's edges and strike back, Riverside's
roll-off, spells and Teleport) go to the system's habits (:mod:`.habits`), found by its rules
class, never by its name.

Casters (GFF) cast before acting: once the best action's unit is known, if it may cast, it
tries the spell with the most expected points removed (the largest value its tokens allow).
Under clock-bennies, with a benny to spare, it sets its own clock to 1 before a shot when the
clock stands at 4 or more, so the shot's first checks succeed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from oprlab.game import gff_setup as edges
from oprlab.game.actions import ACTIVATIONS, Action, Kind
from oprlab.game.gff import CASTING_ROLL, SPELLS, bennies_available
from oprlab.game.state import GameState
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.clock_state import ClockState
from oprlab.players.base import COMMANDERS
from oprlab.players.rules.bounds import Bounds
from oprlab.players.rules.estimates import SHOOTING, value_per_model
from oprlab.players.rules.style import STYLES, Style
from oprlab.players.rules.view import ADVANCE, CAST, CHARGE, HOLD, View, move_allowance, step_toward
from oprlab.rng import SeedLike
from oprlab.rules.gff.profile import defender_profile


class RulesCommander(Bounds):
    """Greedy, one activation at a time, with exact attack odds for its estimates."""

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        self._view = View(state)  # per decision: the table as it stands now
        picked = self.habits(state).decide(self, state, actions)  # the system's own decisions
        if picked is not None:
            return picked
        kind = actions[0].kind
        if kind is Kind.PLACE_OBJECTIVE:
            return self._objective(state, actions)
        if kind is Kind.DEPLOY:
            return self._deploy(state, actions)
        if kind is Kind.SHOOT:
            shots = [a for a in actions if a.kind is kind]
            best = max(shots, key=lambda a: self._shoot_value(state, a))
            clock = Kind.SET_CLOCK  # looked up once (see view.HOLD)
            sets = [a for a in actions if a.kind is clock]
            return self._set_clock(state, best, sets) if sets else best
        if kind is Kind.CONSOLIDATE:
            return max(actions, key=lambda a: self._consolidate_value(state, a))
        return self._activation(state, actions)

    def _activation(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The best action; a Caster that may cast tries its best spell first."""
        casts = [a for a in actions if a.kind is CAST]
        if not casts:
            return self._ordered(state, actions)
        best = self._ordered(state, [a for a in actions if a.kind is not CAST])
        own = [a for a in casts if a.unit == best.unit]
        if not own:
            return best
        cast = max(own, key=lambda a: (self._cast_value(state, a), -a.boost, a.value))
        return cast if self._cast_value(state, cast) > 0 else best

    def _ordered(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The best action; in GFF's last round (``Style.last_round_order``) the best of the
        units whose own best action attacks, when the best overall only walks."""
        best = self._best_action(state, actions)
        last = state.round >= state.rounds and self.habits(state).marker_habits
        if not (self.style.last_round_order and last) or self._attacks(state, best):
            return best
        by_unit: dict[str, list[Action]] = {}
        for a in actions:
            if a.unit != best.unit and a.kind in ACTIVATIONS:
                by_unit.setdefault(a.unit, []).append(a)
        first: tuple[float, Action] | None = None
        for own in by_unit.values():
            pick = self._best_action(state, own)
            if self._attacks(state, pick):
                value = self.score(state, pick)
                if first is None or value > first[0]:
                    first = (value, pick)
        return best if first is None else first[1]

    def _attacks(self, state: GameState, a: Action) -> bool:
        """Whether an activation attacks: a charge, or a Hold or Advance with a shot worth
        something from where it ends."""
        if a.kind is CHARGE:
            return True
        if a.kind is not HOLD and a.kind is not ADVANCE:
            return False
        us = state.units[a.unit]
        here = self._read(state).centroid(us)
        if a.kind is HOLD:
            return self._best_shot_from(state, us, here, self._targets(state, us)) > 0.0
        assert a.to is not None
        end = step_toward(here, a.to, move_allowance(state, us.unit, a.kind))
        return self._best_shot_from(state, us, end) > 0.0

    def _cast_value(self, state: GameState, a: Action) -> float:
        """Expected points a spell removes, less what boosting tokens could do on their own.

        d6 odds: the casting roll is ``CASTING_ROLL``+ with +1 per boost token (a 1 fails);
        each hit wounds when the Defense roll, worsened by the spell's AP, fails.
        """
        spell = next(s for s in SPELLS if s.name == a.spell)
        target = state.units[a.target]
        defense = defender_profile(
            target.unit, models=target.models, markers=target.markers, shaken=target.shaken
        ).defense

        def works(boost: int) -> float:
            return min(5, 7 - CASTING_ROLL + boost) / 6

        blocks = min(5, max(1, 7 - defense - spell.ap)) / 6
        per_wound = value_per_model(target) / max(1, target.unit.tough)
        damage = a.value * spell.hits_per_token * (1 - blocks) * per_wound
        return works(a.boost) * damage - 1.1 * a.boost * works(0) * damage / a.value

    def _set_clock(self, state: GameState, shot: Action, sets: Sequence[Action]) -> Action:
        """Set the shooter's clock to 1 before a shot when it stands at 4 or more and a benny
        is left over for each round to come; otherwise just shoot."""
        mech, clocks = state.mechanic, state.mech_state
        if not shot.target or not isinstance(mech, Clock) or not isinstance(clocks, ClockState):
            return shot
        us = state.units[shot.unit]
        if bennies_available(state, us.side) <= state.rounds - state.round:
            return shot
        start = mech.start if isinstance(mech.start, int) else 1
        current = clocks.clocks.get(mech.clock_key(us.owner), start)
        if current < 4:
            return shot
        mine = [a for a in sets if a.target == us.uid and a.value == 1]
        return mine[0] if mine else shot

    def _objective(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self.style.markers_for_edges:
            return balanced_marker(state, actions, self.habits(state).marker_edges(state))
        home = 0.0 if state.active == 0 else state.table.depth
        mid = state.table.width / 2

        def key(a: Action) -> float:
            assert a.to is not None
            return abs(a.to[1] - home) + 0.5 * abs(a.to[0] - mid)

        return min(actions, key=key)

    def _deploy(self, state: GameState, actions: Sequence[Action]) -> Action:
        home = 0.0 if state.active == 0 else state.table.depth
        targets = [o.position for o in state.objectives] or [(state.table.width / 2, home)]

        def key(a: Action) -> float:
            assert a.to is not None
            us = state.units[a.unit]
            depth = abs(a.to[1] - home)
            forward = depth if self.role(us.unit) is SHOOTING else -depth
            near = min(abs(a.to[0] - t[0]) for t in targets)
            return forward + 0.3 * near

        return min(actions, key=key)


def balanced_marker(state: GameState, actions: Sequence[Action], allowed: Sequence[str]) -> Action:
    """The marker that leaves the deployment roll-off winner the least to gain from its pick.

    Markers are placed before the roll-off (seed 003 "Mission" 3 then "Deployment" 1; seed 002
    likewise), so the side placing cannot know its edge. For each pair of opposite edges that
    may be picked, the markers nearer one edge than the other are counted; the marker chosen
    makes the largest difference over the pairs smallest, then the largest gap between the
    markers' summed distances to the two edges of a pair, then lies nearest the centre.
    """
    table = state.table
    placed = [o.position for o in state.objectives]
    pairs = [(e, edges.OPPOSITE[e]) for e in allowed if edges.EDGES.index(e) % 2 == 0]
    centre = (table.width / 2, table.depth / 2)

    def key(a: Action) -> tuple[int, float, float]:
        assert a.to is not None
        markers = [*placed, a.to]
        count, spread = 0, 0.0
        for one, other in pairs:
            gaps = [
                edges.edge_distance(table, one, m) - edges.edge_distance(table, other, m)
                for m in markers
            ]
            count = max(count, abs(sum(g < 0 for g in gaps) - sum(g > 0 for g in gaps)))
            spread = max(spread, abs(sum(gaps)))
        return (count, round(spread, 6), math.dist(a.to, centre))

    return min(actions, key=key)


def _factory(style: Style) -> Callable[[SeedLike], RulesCommander]:
    return lambda seed: RulesCommander(seed, style)


for _style in STYLES.values():  # rules, rules-v1, rules-aggressive, rules-cautious
    COMMANDERS[_style.name] = _factory(_style)
