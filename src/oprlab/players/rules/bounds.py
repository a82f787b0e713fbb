"""The rules commander's choice among activations without scoring every one exactly.

Hold's score needs line of sight and moves are many: each gets an upper bound first, and only
those whose bound could reach the best score so far are scored. The choice is the one ``max``
over every exact score in list order makes.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain, compress
from operator import attrgetter, itemgetter, not_

import numpy as np
import numpy.typing as npt

from oprlab.game.actions import Action, Kind
from oprlab.game.gff import OBJECTIVE_RANGE
from oprlab.game.state import GameState, UnitState
from oprlab.players.rules.estimates import (
    MELEE,
    SHOOTING,
    expected_damage,
    pair_estimate,
    unit_facts,
)
from oprlab.players.rules.scoring import SHORT_CHARGE, Scoring
from oprlab.players.rules.view import (
    ADVANCE,
    CHARGE,
    HOLD,
    MAX_OF,
    MIN_OF,
    RUSH,
    FloatArray,
    Point,
    View,
    move_allowance,
    step_toward,
)
from oprlab.rules.gff.attack import LONG_RANGE

#: A marker's place and a number (:meth:`Bounds._charge_ceilings`: its rise, weighted).
Point3 = tuple[float, float, float]
#: A unit's part of its move rows (:meth:`Bounds._unit_row`).
_UnitRow = tuple[Point, float, list[float], list[float], float, bool, float]


class Bounds(Scoring):
    """:meth:`best_action`: the best-scoring activation, pruned by bounds."""

    def _best_action(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The best-scoring action, the first of equals: ``max`` by (score, tiebreak).

        Hold's score needs the targets in line of sight; it is only worked out when an upper
        bound (every enemy in range counted as a target) could still reach the best score of
        the other actions. Moves (Advance, Rush) are scored after the other actions, highest
        bound first (:meth:`_rough_bounds`, :meth:`_tighten`), and only while their bound could
        reach the best. An action whose bound is below the best cannot be the first maximum,
        so the choice is the one ``max`` over every exact score in list order makes.

        A charge that may fall short first counts with a bound that needs no charge test
        (:meth:`_charge_bound`); only when it wins is it tested and scored exactly, and the
        choice made again with its exact score: the same choice at one test a decision
        rather than one a charge. Charges are ranked with the moves by a cheaper ceiling
        (:meth:`_charge_ceiling`), so that most are never bounded; the ceilings are worked
        out once a decision, however often the choice is made again, first without the
        strike back (which only lowers them), then with it for those still in the running.
        """
        view = self._read(state)
        listing = _Listing(state, actions)
        self._prefetch(state, view, actions, listing)
        exact: dict[int, tuple[float, tuple[int, ...]]] = {}
        loose: dict[int, tuple[float, tuple[int, ...]]] = {}  # charges not yet tested
        ceiling: dict[int, float] = {}  # moves' and charges' bounds, by index
        firm: set[int] = set()  # the charges whose ceiling counts the strike back
        walks: list[_Walks] = []  # the moves' rows, once a decision
        while True:
            i = self._first_best(state, actions, listing, exact, loose, ceiling, firm, walks)
            if i not in loose:
                break
            bound = loose.pop(i)  # the winner counted with a bound: test it
            exact[i] = (self.score(state, actions[i]), _tiebreak(actions[i]))
            if exact[i] == bound:
                break  # its score is its bound: still the first greatest
        if any(math.isnan(k[0]) for k in (*exact.values(), *loose.values())):
            return max(actions, key=lambda a: (self.score(state, a), _tiebreak(a)))
        return actions[i]

    def _first_best(
        self,
        state: GameState,
        actions: Sequence[Action],
        listing: _Listing,
        exact: dict[int, tuple[float, tuple[int, ...]]],
        loose: dict[int, tuple[float, tuple[int, ...]]],
        ceiling: dict[int, float],
        firm: set[int],
        walks_of: list[_Walks],
    ) -> int:
        """The index of the first greatest key, an exact score or (for a charge in ``loose``)
        a bound; fills ``exact`` and ``loose`` with the keys it works out, ``ceiling`` with
        the moves' and charges' bounds (``firm``: the charges whose ceiling counts the strike
        back), ``walks_of`` with the moves' rows (:meth:`_rough_bounds`).

        A move's ceiling is rough (its standing term at its most) until the move is reached
        with a best score to beat: then every move still in the running gets its own
        (:meth:`_tighten`), in one call, and those are ranked again. A rough ceiling is a
        bound too, so the moves scored are fewer or others, never the choice."""
        best: tuple[float, tuple[int, ...]] | None = None
        walks, charges, held = listing.walks, listing.charges, listing.held
        above = listing.above

        def key_of(
            i: int, a: Action, beat: tuple[float, tuple[int, ...]] | None
        ) -> tuple[float, tuple[int, ...]]:
            """The action's key, or one at least it and below ``beat`` (then not the best)."""
            found = exact.get(i) or loose.get(i)
            if found is not None:
                return found
            found = above.get(i)  # from an earlier choice, whose best may have been higher
            if found is not None and beat is not None and found < beat:
                return found
            bound = self._charge_bound(state, a) if a.kind is CHARGE else None
            if bound is not None:
                found = loose[i] = (bound, _tiebreak(a))
                return found
            value, whole = self._score_below(state, a, None if beat is None else beat[0])
            found = (value, _tiebreak(a))
            if whole:
                exact[i] = found
            else:
                above[i] = found
            return found

        for i in listing.rest:  # in the listing's order
            key = key_of(i, actions[i], best)
            if best is None or key > best:
                best = key
        # the highest bounds first, so that the best score rises early and skips the rest
        if not walks_of:  # once a decision, however often the choice is made again
            rough = self._rough_bounds(state, list(map(actions.__getitem__, walks)))
            rough.rows = dict(zip(walks, range(len(walks)), strict=True))
            ceiling.update(zip(walks, rough.rough, strict=True))
            walks_of.append(rough)
        rough = walks_of[0]
        todo = [i for i in charges if i not in ceiling]
        if todo:  # first without its strike back, all in one pass
            for i, parts in zip(todo, self._charge_ceilings(state, actions, todo), strict=True):
                listing.parts[i] = parts
                ceiling[i] = max(parts) + 1e-6
        # walks before charges: the order sorted keeps for equal keys, whose kinds (and so
        # tiebreaks) are equal, is the listing's either way
        moves = walks + charges
        kinds = map(_KIND, map(actions.__getitem__, moves))  # read in C, as the goals are
        tiebreaks = map(_TIEBREAKS.__getitem__, kinds)
        bounds = list(zip(map(ceiling.__getitem__, moves), tiebreaks, strict=True))
        # only those that could reach the best so far are ranked (the best only rises)
        order = sorted(
            range(len(moves)) if best is None else [k for k, b in enumerate(bounds) if b >= best],
            key=bounds.__getitem__,
            reverse=True,
        )
        n = 0
        while n < len(order):
            k = order[n]
            if best is not None and bounds[k] < best:
                break  # nor can any later one (a lower bound, and the best only rises)
            i = moves[k]
            if best is not None and i in rough.rows:
                # the walks still in the running get their standing term, in one call, and
                # those in the running are ranked again by their bounds
                run = [j for j in order[n:] if bounds[j] >= best]
                todo = [moves[j] for j in run if moves[j] in rough.rows]
                tight = self._tighten(state, rough, [rough.rows.pop(j) for j in todo])
                ceiling.update(zip(todo, tight, strict=True))
                for j in run:
                    bounds[j] = (ceiling[moves[j]], bounds[j][1])
                order[n:] = sorted(run, key=bounds.__getitem__, reverse=True)
                continue
            n += 1
            if actions[i].kind is CHARGE and i not in firm:
                firm.add(i)
                ceiling[i] = self._struck_ceiling(state, actions[i], listing.parts[i])
                if best is not None and (ceiling[i], bounds[k][1]) < best:
                    continue  # with the strike back it cannot be the best either
            elif best is not None and actions[i].kind is not CHARGE:
                # a move's exposure (0 or less) before its score: the bound counts it as 0
                lost = self._walk_exposure(state, actions[i])
                if lost and (ceiling[i] + lost, bounds[k][1]) < best:
                    continue  # with its exposure it cannot be the best
            key = key_of(i, actions[i], best)
            if best is None or key > best:
                best = key
        for i in held:
            a = actions[i]
            if best is not None and (self._hold_ceiling(state, a), _tiebreak(a)) < best:
                continue  # cannot be the best: not even its bound is needed
            if best is not None and (self._hold_bound(state, a), _tiebreak(a)) < best:
                continue  # cannot be the best: its exact score is not needed
            key = key_of(i, a, best)
            if best is None or key > best:
                best = key
        known = {**exact, **loose}
        return max(sorted(known), key=lambda i: known[i])

    def _prefetch(
        self, state: GameState, view: View, actions: Sequence[Action], listing: _Listing
    ) -> None:
        """Measure the points the actions other than moves are scored from (a charge's from
        where it arrives and where it falls short) to every enemy, in one call."""
        points: list[Point] = [o.position for o in state.objectives]
        # moves: most are never scored (their bound is below the best), so their ends are
        # measured one by one when they are
        for a in map(actions.__getitem__, listing.others):
            if a.kind is HOLD:
                us = state.units[a.unit]
                if us.placement is not None:
                    points.append(view.centroid(us))
            elif a.kind is CHARGE:
                us, target = state.units[a.unit], state.units[a.target]
                if us.placement is not None and target.placement is not None:
                    at = view.centroid(target)
                    end = step_toward(view.centroid(us), at, move_allowance(state, us.unit, a.kind))
                    points += (at, end)  # where it arrives, where it falls short
                    view.charge_ends[(a.unit, a.target)] = (at, end)
        view.enemies(state.active).prefetch(points)

    def _move_bounds(self, state: GameState, moves: Sequence[Action]) -> list[float]:
        """At least the score of each Rush or Advance (:meth:`_rough_bounds` with every
        move's standing term)."""
        walks = self._rough_bounds(state, moves)
        return self._tighten(state, walks, list(range(len(moves))))

    def _rough_bounds(self, state: GameState, moves: Sequence[Action]) -> _Walks:
        """At least the score of each Rush or Advance, for all of them in a few numpy calls,
        with the standing term at its most (:meth:`_tighten` adds its own).

        The end is known without a path (the score's ``step_toward``), so each marker's gain
        there is the score's own (to round-off), and so are a melee unit's bonus near enemies
        and a wary unit's danger (:meth:`_standing_bounds`, left for :meth:`_tighten`: about
        one move in seventeen is still in the running when it is needed, and it cost a sixth
        of a decision for all); the rest is bounded from above: the dangerous terrain and the
        exposure by 0, the markers held at the end of the round by every marker the unit
        could add within its reach plus 3" of the end (the test :meth:`_projected` makes
        first, with a wider margin), an Advance's shot by :meth:`_shot_bound`. A margin far
        above round-off covers the differences in rounding (a Python loop per move cost as
        much as scoring it).
        """
        if not moves:
            empty = np.zeros(0, dtype=np.float64)
            return _Walks([], np.zeros(0, dtype=np.intp), np.zeros((0, 2)), empty, None, None)
        view = self._read(state)
        # each move's row, in C: (unit, kind) read by ``attrgetter``, the rows in first-seen order
        pairs = list(map(_UNIT_KIND, moves))
        keys: dict[tuple[str, Kind], int] = {k: n for n, k in enumerate(dict.fromkeys(pairs))}
        which = list(map(keys.__getitem__, pairs))
        shared: dict[str, _UnitRow] = {}  # a unit's Rush and Advance rows share these
        rows = []
        for unit, kind in keys:
            common = shared.get(unit)
            if common is None:
                common = shared[unit] = self._unit_row(state, view, state.units[unit])
            rows.append(self._move_row(state, view, state.units[unit], kind, common))
        pick = np.array(which, dtype=np.intp)
        # every row's numbers in one array, gathered once, a row per move: the centroid (2),
        # the allowance, the terms that do not depend on the end, the reach, each marker's
        # worth and projected gain (a decision's few rows cost more to convert than to use,
        # so one array and one gather rather than one of each a column)
        m = len(state.objectives)
        columns = [(*r[0], r[1], r[2], r[5], r[6], *r[3], *r[4]) for r in rows]
        table = np.array(columns, dtype=np.float64)[pick]
        here, allowance = table[:, 0:2], table[:, 2]
        # the goals as one run of floats: half the cost of converting a list of pairs
        goals = chain.from_iterable(map(_GOAL, moves))  # every Rush and Advance has one
        to = np.fromiter(goals, dtype=np.float64, count=2 * len(moves)).reshape(-1, 2)
        # step_toward for every move: the goal when within the allowance, else the allowance
        delta = to - here
        d = np.hypot(delta[:, 0], delta[:, 1])
        # (within the allowance, ``f`` keeps the gap, a number ``where`` then leaves unused)
        f = np.divide(allowance, d, out=d.copy(), where=d > allowance)
        ends = np.where((d <= allowance)[:, None], to, here + delta * f[:, None])
        fixed = table[:, 3]  # shot, -5
        units = [state.units[u] for u, _ in keys]
        gains = swing = None
        markers = view.points()
        if len(markers):
            full, swings, reach = table[:, 6 : 6 + m], table[:, 6 + m :], table[:, 4]
            gaps = np.hypot(
                ends[:, 0, None] - markers[None, :, 0], ends[:, 1, None] - markers[None, :, 1]
            )
            beyond = np.maximum(gaps - OBJECTIVE_RANGE + 0.5, 0.0)
            worth = full / (1.0 + beyond / 4.0)
            # the best in full, the others a quarter: ``_gains``' sum to round-off, no sort
            gains = 0.75 * MAX_OF(worth, axis=1) + 0.25 * _SUM(worth, axis=1)
            near = gaps - reach[:, None] <= OBJECTIVE_RANGE + 1e-3
            swing = _SUM(swings * near, axis=1)
        # a melee unit's bonus near enemies is at most 15, a wary unit's danger at least 0
        top = table[:, 5]
        walks = _Walks(units, pick, ends, fixed, gains, swing)
        walks.rough = _summed(fixed, 15.0 * top, gains, swing).tolist()
        return walks

    def _tighten(self, state: GameState, walks: _Walks, rows: list[int]) -> list[float]:
        """The bounds of the moves ``rows`` of ``walks`` with their own standing term
        (:meth:`_standing_bounds`), all in one call, summed as the rough ones are."""
        if not rows:
            return []
        sel = np.array(rows, dtype=np.intp)
        view = self._read(state)
        standing = self._standing_bounds(state, view, walks.units, walks.pick[sel], walks.ends[sel])
        gains = None if walks.gains is None else walks.gains[sel]
        swing = None if walks.swing is None else walks.swing[sel]
        out: list[float] = _summed(walks.fixed[sel], standing, gains, swing).tolist()
        return out

    def _unit_row(self, state: GameState, view: View, us: UnitState) -> _UnitRow:
        """What every row of :meth:`_move_row` for ``us`` shares: its centroid, the projected
        markers with it near none (weighted), each marker's worth, each marker's projected
        gain if reached (at most), its reach from its centroid, whether a marker's count rises
        with it near, 1.0 for a melee unit (else 0.0)."""
        here = view.centroid(us)
        weight = self._projection_weight(state)
        base, swing = self._swing(state, view, us)
        gains = [0.0] * len(state.objectives)
        if swing and not us.shaken and us.arrived != state.round:
            j, n = 0, len(swing)  # swing lists the markers whose count changes, in their order
            for k, (px, py) in enumerate(view.objectives):
                if j < n:
                    x, y, change = swing[j]
                    if x == px and y == py:
                        gains[k] = weight * max(0, change)
                        j += 1
        worth = list(map(_FULL, self._worth(state, view, us, None)))
        rises = any(change > 0 for _, _, change in swing)
        melee = 1.0 if self.role(us.unit) is MELEE else 0.0
        return here, weight * base, worth, gains, view.reach(us, here), rises, melee

    def _move_row(
        self, state: GameState, view: View, us: UnitState, move: Kind, common: _UnitRow
    ) -> tuple[Point, float, float, list[float], list[float], float, float]:
        """What :meth:`_move_bounds` needs of one unit and kind of move: its centroid, the
        allowance, the terms that do not depend on the end, each marker's worth, each marker's
        projected gain if reached (at most), the unit's reach from its centroid, whether it
        is a melee unit (1.0)."""
        here, projected, worth, gains, reach, rises, melee = common
        allowance = move_allowance(state, us.unit, move)
        fixed = 0.0
        if move is ADVANCE:
            fixed += 0.9 * self._shot_bound(state, view, us, here, allowance)
        if move is RUSH and self.role(us.unit) is SHOOTING:
            # a Rush that may seize a marker may not be marked down (Style.rush_for_markers)
            seizes = self.style.rush_for_markers and self.habits(state).marker_habits
            if not (seizes and rises):
                fixed -= self.style.rush_cost
        fixed += projected
        return here, allowance, fixed, worth, gains, reach, melee

    def _standing_bounds(
        self,
        state: GameState,
        view: View,
        units: Sequence[UnitState],
        pick: npt.NDArray[np.intp],
        ends: FloatArray,
    ) -> FloatArray:
        """At least what :meth:`_position_value` adds to the markers' gains at each move's
        end (``units[pick[i]]`` moving to ``ends[i]``): a melee unit's bonus near the nearest
        enemy, a wary unit's danger from the enemy fighters whose charge reach the end lies in.

        The gaps to the enemies are :meth:`Units.gaps_from`'s, for every end at once; the ends
        come from a vectorised ``step_toward``, a few units in the last place off the score's,
        so a threat counts only when the end lies inside its reach by far more than that (the
        bonus moves by less than 3 times the gap's error). Before, the bonus was bounded by 15
        and the danger by 0: nine in ten moves scored exactly were scored for that slack alone.
        """
        out = np.zeros(len(ends), dtype=np.float64)
        kinds = [self.role(u.unit) for u in units]
        weak = self.style.weak_out_of_reach
        melee_row = np.array([k is MELEE for k in kinds], dtype=np.bool_)
        wary_row = np.array(
            [k is not MELEE if weak else k is SHOOTING for k in kinds], dtype=np.bool_
        )
        present = sorted({u.side for u in units})
        for side in present:
            if len(present) == 1:  # a decision's units are one side's: every move, as listed
                moves, row, at = np.arange(len(pick)), pick, ends
            else:
                sides = np.array([u.side for u in units], dtype=np.intp)
                moves = (sides[pick] == side).nonzero()[0]
                row, at = pick[moves], ends[moves]
            enemies = view.enemies(side)
            if not enemies.units:
                continue  # no enemy: no bonus, no threat
            melee = melee_row[row]
            if not enemies.whole:  # an enemy without models: as before, the bonus at most 15
                out[moves[melee]] = 15.0
                continue
            low = enemies.gaps_from(at[:, 0], at[:, 1])
            if np.count_nonzero(melee):
                out[moves[melee]] = 15.0 / (1.0 + MIN_OF(low[melee], axis=1) / 6.0)
            threats = self._threats(state, view, side)
            careful = wary_row[row]
            if not threats or not np.count_nonzero(careful):
                continue
            ks = np.array([k for k, _, _ in threats], dtype=np.intp)
            reach = np.array([r for _, _, r in threats], dtype=np.float64)
            inside = (low[:, ks] < reach[None, :] - _GAP_MARGIN) & careful[:, None]
            if not np.count_nonzero(inside):
                continue
            # each unit's danger from each fighter, worked out once for all its moves
            pairs = np.zeros((len(units), len(threats)), dtype=np.bool_)
            m, t = inside.nonzero()
            pairs[row[m], t] = True
            lost = np.zeros(pairs.shape, dtype=np.float64)
            danger = self.style.danger
            rs, ks = pairs.nonzero()
            for r, k in zip(rs.tolist(), ks.tolist(), strict=True):  # Python ints: no scalars
                e = threats[k][1]
                lost[r, k] = danger * self._melee_damage(view, e, units[r], charging=True)
            out[moves] -= _SUM(inside * lost[row], axis=1)
        return out

    def _walk_exposure(self, state: GameState, a: Action) -> float:
        """A Rush's or Advance's :meth:`_exposure` where it ends (its score's own): what its
        bound, less it, still bounds (the score adds it to terms the bound counts at most).
        On an open table seven moves in ten scored and not taken were scored for the slack
        of bounding it by 0; its cover gains are those the score would work out."""
        us = state.units[a.unit]
        assert a.to is not None
        here = self._read(state).centroid(us)
        end = step_toward(here, a.to, move_allowance(state, us.unit, a.kind))
        return self._exposure(state, us, here, end)

    def _shot_bound(
        self, state: GameState, view: View, us: UnitState, here: Point, allowance: float
    ) -> float:
        """At least :meth:`_best_shot_from` any point within ``allowance`` of ``here``.

        A unit's gap to an enemy changes by no more than the unit moves, so each enemy is at
        a distance in ``gap +- allowance`` (plus round-off) from the end; a shot's value depends
        on the distance only through the weapons that reach (an index into the sorted reaches)
        and whether it is at long range, so the best over every band that distance can fall
        in is at least the shot from the end.
        """
        reaches = unit_facts(us.unit)[2]
        reach = max(reaches, default=0)
        if reach <= 0:
            return 0.0
        best = 0.0
        # the system's own odds (rules-v1: GFF's in every system, then not a bound in Riverside)
        damage = self.habits(state).damage if self.style.own_odds_bound else expected_damage
        enemies = view.enemies(us.side)
        aims = self.style.aim_markers and self.habits(state).marker_habits
        weight = self._projection_weight(state) if aims else 0.0
        shots = view.shots
        for e, g in zip(enemies.units, enemies.gaps(here), strict=True):
            lo = max(0.0, g - allowance - 1e-6)
            hi = min(float(reach), g + allowance + 1e-6)
            if lo > reach:
                continue
            aim = 0.0  # at most the whole stake of breaking it (a chance is at most 1)
            if aims:
                aim = self._marker_stake(state, us, e) * weight
            fars = {lo > LONG_RANGE, hi > LONG_RANGE}
            for idx in range(bisect_left(reaches, lo), bisect_left(reaches, hi) + 1):
                if idx >= len(reaches):
                    continue
                below = reaches[idx - 1] if idx else -math.inf  # the band is (below, top]
                top = float(reaches[idx])
                for far in fars:
                    if far == (top > LONG_RANGE):
                        d = top
                    elif not far and below < LONG_RANGE:
                        d = float(LONG_RANGE)
                    else:
                        continue  # no distance in this band is (or is not) at long range
                    key = (us.uid, e.uid, idx, far)
                    value = shots.get(key)
                    if value is None:
                        value = shots[key] = pair_estimate(
                            damage, us, e, melee=False, distance=d, charging=False, band=idx
                        )
                    best = max(best, value + aim)
        return best

    def _charge_ceiling(self, state: GameState, a: Action, *, strike_back: bool = True) -> float:
        """At least a charge's :meth:`_charge_bound` (and so its score), without the parts that
        cost most: the marker worth with the target no longer contesting and the danger of
        enemy fighters (0 or less), the hazard, and what a Rush there costs (0 or less).
        Without ``strike_back``, the target's strike back (0 or more, subtracted) is left out
        too: a higher ceiling that needs one attack estimate fewer (most charges are ranked
        out on it, and their strike back is an estimate the memo misses as units lose
        models).

        The worth of each marker with the target gone is at most its worth with it there (one
        enemy fewer near it can only lower the need), so the markers' gains at a point are at
        most those :meth:`_worth` gives with no unit contested; the charge's dealt and struck
        back points, the projected markers and a melee unit's bonus near enemies are the
        score's own. With ``Style.contest_need`` a marker the target contests is worth more
        once it is gone and the count frees it by chance: no cheap ceiling holds, so none.
        """
        if self.style.contest_need and self.habits(state).marker_habits:
            return math.inf
        view = self._read(state)
        us, target = state.units[a.unit], state.units[a.target]
        worth = self._worth(state, view, us, None)
        melee = self.role(us.unit) is MELEE
        there, short, end = self._charge_places(state, view, a, worth, melee)
        projected = self._projected(state, us, end)
        dealt = self._melee_damage(view, us, target, charging=True)
        back = 0.0
        if target.models > 0 and strike_back:
            back = self.style.strike_back * self._melee_damage(view, target, us, charging=False)
        bonus = self.style.charge_bonus if melee else 0.0
        arrives = dealt - back + bonus + there + projected
        if a.benny:
            arrives += self._benny(state, us, arrives)
        short = short + projected - SHORT_CHARGE  # summed as the score sums it
        return max(arrives, short) + 1e-6

    def _charge_places(
        self,
        state: GameState,
        view: View,
        a: Action,
        worth: list[tuple[Point, float]],
        melee: bool,
    ) -> tuple[float, float, Point]:
        """A charge's markers' gains where it arrives and where it falls short, with a melee
        unit's bonus near enemies at each, and the end it falls short at (the ceilings'
        shared part: one charge's and a decision's in one pass read it alike)."""
        us, target = state.units[a.unit], state.units[a.target]
        assert target.placement is not None
        ends = view.charge_ends.get((a.unit, a.target))  # from :meth:`_prefetch`
        if ends is None:
            at = view.centroid(target)
            ends = (at, step_toward(view.centroid(us), at, move_allowance(state, us.unit, a.kind)))
        at, end = ends
        there, short = self._gains(worth, at), self._gains(worth, end)
        if melee:
            enemies = view.enemies(us.side)
            near_at, near_end = enemies.gaps(at), enemies.gaps(end)
            if near_at:
                there += 15.0 / (1.0 + min(near_at) / 6.0)
            if near_end:
                short += 15.0 / (1.0 + min(near_end) / 6.0)
        return there, short, end

    def _charge_ceilings(
        self, state: GameState, actions: Sequence[Action], charges: Sequence[int]
    ) -> list[tuple[float, float]]:
        """At least each charge's :meth:`_charge_ceiling` without the strike back (the
        larger of the two numbers given, if it arrives and if it falls short), for a
        decision's charges in one pass: each unit's part read once (its markers' worth, its
        role, the markers it could swing) and the markers held at the round's end bounded
        rather than counted: the unit's count with it near none, plus each marker's rise
        (:meth:`_swing`, 0 or more) that a model could reach from the end (the test
        :meth:`_projected` makes first, its models' places not measured). Most charges are
        ranked out on this ceiling, and the end's markers measured only for the others."""
        if self.style.contest_need and self.habits(state).marker_habits:
            return [(math.inf, math.inf)] * len(charges)
        view = self._read(state)
        bonus = self.style.charge_bonus
        units: dict[str, tuple[list[tuple[Point, float]], bool, _Rises]] = {}
        out: list[tuple[float, float]] = []
        for i in charges:
            a = actions[i]
            us, target = state.units[a.unit], state.units[a.target]
            facts = units.get(a.unit)
            if facts is None:
                worth = self._worth(state, view, us, None)
                facts = units[a.unit] = (worth, self.role(us.unit) is MELEE, self._rises(state, us))
            worth, melee, rises = facts
            there, short, end = self._charge_places(state, view, a, worth, melee)
            projected = _risen(rises, end)
            dealt = self._melee_damage(view, us, target, charging=True)
            arrives = dealt + (bonus if melee else 0.0) + there + projected
            if a.benny:
                arrives += self._benny(state, us, arrives)
            out.append((arrives, short + projected - SHORT_CHARGE))
        return out

    def _struck_ceiling(self, state: GameState, a: Action, parts: tuple[float, float]) -> float:
        """At least a charge's :meth:`_charge_ceiling` with the strike back, from its parts in
        :meth:`_charge_ceilings` (if it arrives, if it falls short): the strike back (0 or
        more) taken from the first, the one attack estimate it needs. A benny's extra
        counted on the points before the strike back is no less than after it."""
        arrives, short = parts
        us, target = state.units[a.unit], state.units[a.target]
        if target.models > 0:
            view = self._read(state)
            back = self._melee_damage(view, target, us, charging=False)
            arrives -= self.style.strike_back * back
        return max(arrives, short) + 1e-6

    def _hold_ceiling(self, state: GameState, a: Action) -> float:
        """At least :meth:`_hold_bound`, without the parts of it that cost most: the danger
        of enemy fighters (0 or less) left out of the place's worth, and the markers held at
        the round's end bounded as :meth:`_charge_ceilings` bounds them (the unit's models not
        measured). Most Holds are ranked out on it."""
        us = state.units[a.unit]
        view = self._read(state)
        here = view.centroid(us)
        value = self._gains(self._worth(state, view, us, None), here)
        if self.role(us.unit) is MELEE:  # the bonus near enemies, as the score adds it
            dists = view.enemies(us.side).gaps(here)
            if dists:
                value += 15.0 / (1.0 + min(dists) / 6.0)
        projected = _risen(self._rises(state, us), here)
        return value + self._best_shot_from(state, us, here) + projected + 1e-6

    def _rises(self, state: GameState, us: UnitState) -> _Rises:
        """What bounds the markers held at the round's end with ``us`` anywhere in its reach
        (:meth:`_projected`'s count, its models' places not measured): the count with it near
        none (weighted), each marker whose count it would raise with the rise (weighted), and
        its reach from its centroid. :func:`_risen` adds the rises a point is near."""
        view = self._read(state)
        weight = self._projection_weight(state)
        base, swing = self._swing(state, view, us)
        rises: list[Point3] = []
        if swing and not us.shaken and us.arrived != state.round:
            rises = [(x, y, weight * change) for x, y, change in swing if change > 0]
        reach = view.reach(us, view.centroid(us)) if rises else 0.0
        return weight * base, rises, reach

    def _hold_bound(self, state: GameState, a: Action) -> float:
        """At least Hold's score: the best shot at any enemy in range, seen or not."""
        us = state.units[a.unit]
        here = self._read(state).centroid(us)
        return (
            self._position_value(state, us, here)
            + self._best_shot_from(state, us, here)
            + self._projected(state, us, here)
        )


#: :meth:`Bounds._rises`: the weighted count with the unit near no marker, the weighted rises
#: by marker, and the unit's reach from its centroid.
_Rises = tuple[float, list[Point3], float]


def _risen(rises: _Rises, point: Point) -> float:
    """At least :meth:`Scoring._projected` with the unit at ``point``: the count with it near
    none plus every rise within its reach plus 3" of ``point`` (and a margin), the unit's
    models not measured (the test :meth:`Scoring._projected` makes first)."""
    projected, marked, reach = rises
    for x, y, rise in marked:
        if math.hypot(point[0] - x, point[1] - y) - reach <= OBJECTIVE_RANGE + 1e-3:
            projected += rise
    return projected


class _Listing:
    """A decision's actions by kind, by index, read once however often the choice is made
    again: ``walks`` (Rush and Advance, the most listed), and the ``others`` in the listing's
    order, of which ``charges``, ``held`` (Holds of units with a ranged weapon: bounded
    first) and the ``rest`` (scored first)."""

    def __init__(self, state: GameState, actions: Sequence[Action]) -> None:
        kinds = list(map(_KIND, actions))  # read in C, and so are the walks picked out
        walking = list(map(_WALKS.__contains__, kinds))
        self.walks = list(compress(range(len(kinds)), walking))
        self.others = list(compress(range(len(kinds)), map(not_, walking)))
        self.charges: list[int] = []
        self.held: list[int] = []
        self.rest: list[int] = []
        #: keys at least an action's own and below the best of the choice that worked them
        #: out (:meth:`Scoring._score_below`): the action's exact key is not needed then
        self.above: dict[int, tuple[float, tuple[int, ...]]] = {}
        #: each charge's first ceiling's parts, if it arrives and if it falls short
        #: (:meth:`Bounds._charge_ceilings`), for its ceiling with the strike back
        self.parts: dict[int, tuple[float, float]] = {}
        units = state.units
        for i in self.others:
            kind = kinds[i]
            if kind is CHARGE:
                self.charges.append(i)
            elif kind is HOLD and unit_facts(units[actions[i].unit].unit)[2]:
                self.held.append(i)
            else:
                self.rest.append(i)


class _Walks:
    """A decision's Rush and Advance rows (:meth:`Bounds._rough_bounds`): each move's unit (an
    index into ``units``), end and the terms of its bound, and its rough bound (the standing
    term at its most); ``rows``: the action indices whose ceiling is still rough, each with
    its row."""

    def __init__(
        self,
        units: list[UnitState],
        pick: npt.NDArray[np.intp],
        ends: FloatArray,
        fixed: FloatArray,
        gains: FloatArray | None,
        swing: FloatArray | None,
    ) -> None:
        self.units, self.pick, self.ends = units, pick, ends
        self.fixed, self.gains, self.swing = fixed, gains, swing
        self.rough: list[float] = []
        self.rows: dict[int, int] = {}


def _summed(
    fixed: FloatArray, standing: FloatArray, gains: FloatArray | None, swing: FloatArray | None
) -> FloatArray:
    """A move bound's terms summed in one order (the rough and the tight bound alike), with
    a margin far above round-off."""
    value: FloatArray = fixed + standing
    if gains is not None:
        value += gains
    if swing is not None:
        value += swing
    value += 1e-6
    return value


#: Inches an end must lie inside a fighter's reach for the bound to count its danger: far
#: above the round-off between the vectorised ends and the score's own.
_GAP_MARGIN = 1e-6

#: ``a.sum(axis=...)`` as the ufunc call numpy's ``_methods`` makes of it.
_SUM = np.add.reduce

#: Each kind's tiebreak, worked out once.
_TIEBREAKS = {k: (-ord(k.value[0]),) for k in Kind}


def _tiebreak(a: Action) -> tuple[int, ...]:
    return _TIEBREAKS[a.kind]


#: A move's goal (every Rush and Advance has one), read in C (``map``) for every move.
_GOAL = attrgetter("to")
#: The kinds of move bounded together (:meth:`Bounds._rough_bounds`).
_WALKS = frozenset((RUSH, ADVANCE))
#: A marker's worth in a :meth:`Needs._worth` pair, read in C.
_FULL = itemgetter(1)
#: An action's kind, read in C (``map``) for every move.
_KIND = attrgetter("kind")
#: A move's unit and kind, read in C (``map``) for every move.
_UNIT_KIND = attrgetter("unit", "kind")
