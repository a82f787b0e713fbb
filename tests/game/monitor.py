"""A rules monitor: plays seeded games decision by decision and checks each one against the
texts, from its own reading of the table (issue 10).

The monitor keeps its own records (which unit activated when, who finished first, who arrived
when, who is Fatigued) and measures the table itself (distances with numpy, from the models'
centres and radii), then compares with what the game did. It reads the engine's state only for
facts a rule acts on (positions, models left, Shaken) and the log only for dice results (a
roll-off, wounds dealt); it never reads the engine's own conclusions (markers' controllers,
``activated``, ``finished_first``, strikers and shooters counted). Clauses:

- seeds 003 "Playing the Game" and 002 "Activation Phase": sides alternate (a side with nothing
  left lets the other go on), who starts each round, each unit activates once a round;
- seed 003 "Wound Effects" (a Shaken unit "must stay idle"; one Idle ends it), seed 002 "Idle"
  (removes Shaken);
- seed 003 "Mission" 4-6, seed 002 "End Phase": control at each round's end from the positions;
- seed 003 "Morale" (end of round, army at half its units) and seed 002 "Morale Tests" (after
  wounds from shooting or spells at half strength; the melee loser unless the other unit was
  destroyed);
- seed 002 "Fatigue" (after attacking with a melee weapon, 6s only, until the next round);
- seeds 003 "Striking" and 002 "Determine Attacks", "Return Strikes": strikers within 2";
- seeds 003 "Shooting" and 002 "Choose Targets": only models in range (and sight) fire;
- every decision has at least one legal action (no game can stop with nothing to do).

Strikers and shooters are checked where the game counts them (the monitor wraps
``gff_melee.reach``, ``gff_shooting.fire_profiles``, ``riverside_combat.strikers`` and
``riverside_combat.ranged_groups`` and recounts from the positions at that moment).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oprlab.game import gff, gff_melee, gff_shooting, riverside, riverside_combat, wwpd
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, UnitState
from oprlab.table.measure import elevation
from oprlab.table.model import Placement, Table

#: Distances the monitor measures with (seeds 002, 003).
STRIKE, STRIKE_UP, HOLD, LONG = 2.0, 4.0, 3.0, 9.0
TOL = 1e-6
STARTS = {Kind.HOLD, Kind.ADVANCE, Kind.RUSH, Kind.CHARGE, Kind.IDLE, Kind.CAST, Kind.TELEPORT}


class Breach(AssertionError):
    """A decision the texts do not allow, with the game's seed and the clause."""


def _gaps(a: Placement, b: Placement) -> np.ndarray:
    """Base edge to base edge from each model of ``a`` to each living model of ``b``."""
    cb, rb = b.centres[b.alive], b.radii[b.alive]
    d = np.hypot(a.centres[:, None, 0] - cb[None, :, 0], a.centres[:, None, 1] - cb[None, :, 1])
    return np.asarray(d - a.radii[:, None] - rb[None, :])


def _round_half_up(count: int, models: int, size: int) -> int:
    """Docs/rules/gff.md "Melee exchange": a line of ``count`` for ``models`` of ``size``."""
    if models <= 0 or size <= 0:
        return 0
    return count if models >= size else (2 * count * models + size) // (2 * size)


def _on_table(us: UnitState) -> bool:
    return us.models > 0 and not us.routed and us.placement is not None and us.reserve is None


@dataclass
class OprMonitor:
    """The monitor of one GFF or Riverside game (``watch`` it, then ``step`` each decision)."""

    system: str
    seed: int
    activated: dict[int, dict[str, int]] = field(default_factory=dict)  # round: uid -> index
    order: dict[int, list[int]] = field(default_factory=dict)  # round: sides in order
    first: dict[int, int] = field(default_factory=dict)
    arrived: dict[str, int] = field(default_factory=dict)
    fatigued: set[str] = field(default_factory=set)
    leads: int | None = None
    count: int = 0
    checks: dict[str, int] = field(default_factory=dict)

    def fail(self, clause: str, what: str) -> None:
        raise Breach(f"{self.system} seed {self.seed}: {clause}: {what}")

    def tick(self, name: str) -> None:
        self.checks[name] = self.checks.get(name, 0) + 1

    # --- a decision ----------------------------------------------------------------------

    def step(self, state: GameState, actions: Sequence[Action], action: Action) -> None:
        """Check the decision ``action`` (of ``actions``), apply it, check what followed."""
        if not actions:
            self.fail("a phase with no legal action", f"phase {state.phase!r}")
        self.tick("legal actions")
        self._shaken_listing(state, actions)
        if state.phase == "activation" and action.kind in STARTS:
            self._activation(state, state.units[action.unit])
        if action.kind is Kind.DEPLOY:
            self.arrived[action.unit] = state.round
        if action.kind is Kind.CHOOSE_ZONE and action.choice in ("lead", "follow"):
            self.leads = state.active if action.choice == "lead" else 1 - state.active
        before_round, before_log = state.round, len(state.log.events)
        controllers = [o.controller for o in state.objectives]
        routed = {u.uid for u in state.units.values() if u.routed}
        shaken = {u.uid for u in state.units.values() if u.shaken}
        engine = gff if self.system == "gff" else riverside
        engine.apply(state, action)
        events = state.log.events[before_log:]
        if action.kind is Kind.IDLE and state.units[action.unit].shaken:
            self.fail('Idle ("Shaken units must spend one full activation idle")', action.unit)
        ended = state.round != before_round or state.done
        if self.system == "riverside":
            self._riverside_after(state, events, shaken, new_round=state.round != before_round)
        if ended and before_round >= 1 and state.phase != "objectives":
            self._round_end(state, before_round, controllers, routed, events)
        elif any(e["kind"] == "morale" for e in events) and self.system == "gff":
            self.fail('"Morale": "At the end of each round"', "a morale test mid-round")

    # --- activations ---------------------------------------------------------------------

    def _eligible(self, state: GameState, side: int, rnd: int) -> bool:
        done = self.activated.get(rnd, {})
        return any(
            _on_table(u) and u.uid not in done for u in state.units.values() if u.side == side
        )

    def _activation(self, state: GameState, us: UnitState) -> None:
        rnd = state.round
        done = self.activated.setdefault(rnd, {})
        if us.uid in done:
            self.fail('"pick one unit that hasn\'t activated yet"', f"{us.uid} in round {rnd}")
        sides = self.order.setdefault(rnd, [])
        if not sides:
            expected = self._first(state, rnd)
            if not self._eligible(state, expected, rnd):
                expected = 1 - expected
            self.first[rnd] = expected
            clause = "who goes first"
        else:
            expected = 1 - sides[-1]
            if not self._eligible(state, expected, rnd):
                expected = sides[-1]
            clause = "alternate activating one unit each"
        if us.side != expected:
            self.fail(clause, f"side {us.side} activated {us.uid} in round {rnd}")
        self.count += 1
        done[us.uid] = self.count
        sides.append(us.side)
        self.tick("alternation")

    def _first(self, state: GameState, rnd: int) -> int:
        """Round 1: the deployment roll-off winner (GFF) or who chose to lead (Riverside); then
        the side that finished activating first last round (none activated: it finished)."""
        if rnd == 1 or rnd - 1 not in self.activated:
            if self.system == "riverside" and self.leads is not None:
                return self.leads
            rolls = [e["first"] for e in state.log.events if e["kind"] == "deployment"]
            return int(rolls[-1]) if rolls else state.first
        last = {0: -1, 1: -1}
        for uid, index in self.activated[rnd - 1].items():
            last[state.units[uid].side] = max(last[state.units[uid].side], index)
        if last[0] == last[1]:
            return self.first.get(rnd - 1, state.first)
        return 0 if last[0] < last[1] else 1

    def _shaken_listing(self, state: GameState, actions: Sequence[Action]) -> None:
        """GFF: a Shaken unit is offered Idle only, Idle only to Shaken units (docs/rules/gff.md).
        Riverside: every action stays open, Idle to any unit ("Idle: Remove Shaken")."""
        if state.phase != "activation":
            return
        for a in actions:
            if a.kind not in STARTS:
                continue
            shaken = state.units[a.unit].shaken
            if self.system == "gff" and shaken != (a.kind is Kind.IDLE):
                self.fail('"Shaken ... must stay idle"', f"{a} listed (Shaken: {shaken})")
        if self.system == "riverside":
            units = {a.unit for a in actions if a.kind in STARTS}
            idle = {a.unit for a in actions if a.kind is Kind.IDLE}
            if units - idle:
                self.fail('"Idle: Remove Shaken" is an action of every unit', str(units - idle))
        self.tick("Shaken")

    # --- the end of a round --------------------------------------------------------------

    def _round_end(
        self,
        state: GameState,
        rnd: int,
        controllers: list[int | None],
        routed: set[str],
        events: list[dict[str, Any]],
    ) -> None:
        if self.system == "gff":
            self._gff_morale(state, rnd, routed, events)
        for i, marker in enumerate(state.objectives):
            near: set[int] = set()
            for us in state.units.values():
                if not _on_table(us) or us.shaken or not self._may_hold(us, rnd):
                    continue
                assert us.placement is not None
                p = us.placement
                d = (
                    np.hypot(*(p.centres[p.alive] - np.asarray(marker.position)).T)
                    - p.radii[p.alive]
                )
                if float(d.min()) <= HOLD + TOL:
                    near.add(us.side)
            before = controllers[i] if i < len(controllers) else None
            expected = next(iter(near)) if len(near) == 1 else None if near else before
            if marker.controller != expected:
                self.fail(
                    'markers: seized alone within 3", contested neutral, kept after leaving',
                    f"marker {i} at the end of round {rnd}: {marker.controller} not {expected}",
                )
        self.tick("markers")
        self.fatigued.clear()  # "until the end of that round" / "at the Beginning of each Round"

    def _may_hold(self, us: UnitState, rnd: int) -> bool:
        came = self.arrived.get(us.uid)
        if self.system == "gff":  # Ambush: "can't seize or contest objectives on the round"
            return not (came == rnd and came > 1)
        return came != 4  # "Units deployed on Round 4 may not contest objective markers"

    def _gff_morale(
        self, state: GameState, rnd: int, routed: set[str], events: list[dict[str, Any]]
    ) -> None:
        tested = {e["unit"] for e in events if e["kind"] == "morale"}
        for side in (0, 1):
            units = [u for u in state.units.values() if u.side == side]
            alive = [u for u in units if u.models > 0 and u.uid not in routed]
            expected = (
                {u.uid for u in alive if u.placement is not None and u.reserve is None}
                if 2 * len(alive) <= len(units)
                else set()
            )
            got = {uid for uid in tested if state.units[uid].side == side}
            if got != expected:
                self.fail(
                    '"Morale": at half or less of its starting units, all its units test',
                    f"round {rnd} side {side}: tested {sorted(got)}, expected {sorted(expected)}",
                )
        self.tick("morale")

    # --- Riverside: morale after wounds, Fatigue ------------------------------------------

    def _riverside_after(
        self, state: GameState, events: list[dict[str, Any]], shaken: set[str], *, new_round: bool
    ) -> None:
        for i, e in enumerate(events):
            if e["kind"] in ("shoot", "spell") and e["wounds"] > 0:
                us = state.units[e["target"]]
                later = events[i + 1 :]
                stop = next(
                    (k for k, f in enumerate(later) if f["kind"] in ("shoot", "spell", "strike")),
                    len(later),
                )
                tested = any(f["kind"] == "morale" and f["unit"] == us.uid for f in later[:stop])
                half = (
                    2 * us.markers >= us.unit.tough
                    if us.unit.size == 1
                    else 2 * us.models <= us.unit.size
                )
                if tested != (us.models > 0 and half):
                    self.fail(
                        '"Morale Tests": after wounds, at half strength',
                        f"{us.uid} after {e['kind']} ({us.models} of {us.unit.size} left)",
                    )
                self.tick("morale")
            if e["kind"] == "melee":
                a, b = state.units[e["unit"]], state.units[e["target"]]
                dealt, taken = e["wounds_dealt"], e["wounds_taken"]
                loser = None if dealt == taken else (a if dealt < taken else b)
                tested_units = {f["unit"] for f in events[i + 1 :] if f["kind"] == "morale"}
                expected = (
                    {loser.uid} if loser is not None and a.models > 0 and b.models > 0 else set()
                )
                if tested_units & {a.uid, b.uid} != expected:
                    self.fail('"Morale Test": the unit with the lowest total', str(e))
                self.tick("morale")
            if e["kind"] == "strike":
                us = state.units[e["unit"]]
                before = us.uid in self.fatigued or us.uid in shaken
                if e["dice"] and e.get("fatigued") != before:
                    self.fail('"Fatigue": melee attacks only succeed on 6s', str(e))
                impact = sum(r.rating or 0 for r in _rules(us.unit.rules, "impact"))
                melee = any(w.melee for w in us.unit.weapons)
                if melee and e["dice"] > impact * e["strikers"]:
                    self.fatigued.add(us.uid)  # surely attacked with a melee weapon
                self.tick("fatigue")
        if new_round:  # "Fatigue is removed at the Beginning of each Round"
            self.fatigued.clear()
        if state.done:
            return  # no Beginning Phase after the last round
        for us in state.units.values():
            if us.fatigued and us.uid not in self.fatigued and not self._impact_only(us):
                self.fail('"Fatigue": after attacking with a melee weapon', us.uid)
            if us.uid in self.fatigued and not us.fatigued and us.models > 0:
                self.fail('"Fatigue": for the rest of the round', us.uid)

    def _impact_only(self, us: UnitState) -> bool:
        """A strike whose dice might all have been Impact (the monitor cannot tell)."""
        return any(True for _ in _rules(us.unit.rules, "impact"))

    # --- strikers and shooters, where the game counts them -------------------------------

    def strikers(self, state: GameState, us: UnitState, enemy: UnitState, counted: int) -> None:
        assert us.placement is not None and enemy.placement is not None
        near = _gaps(us.placement, enemy.placement) <= STRIKE + TOL
        if self.system == "gff":
            za = elevation(state.table, us.placement.centres)
            zb = elevation(state.table, enemy.placement.centres[enemy.placement.alive])
            near &= np.abs(za[:, None] - zb[None, :]) <= STRIKE_UP + TOL
        own = int((near.any(axis=1) & us.placement.alive).sum())
        if own != counted:
            self.fail('"Models must strike enemies within 2""', f"{us.uid}: {counted} not {own}")
        self.tick("strikers")

    def shooters(
        self,
        us: UnitState,
        target: UnitState,
        dice: dict[str, int],
        sees: np.ndarray,
        far: dict[str, tuple[int, int]] | None = None,
    ) -> None:
        """``dice`` by weapon type; ``sees``: which models see the target (the engine's line of
        sight, a table service); ``far``: (dice from within 9", from over 9") by type."""
        assert us.placement is not None and target.placement is not None
        gaps = _gaps(us.placement, target.placement).min(axis=1)
        alive = us.placement.alive
        for name in dice:
            lines = [w for w in us.unit.weapons if w.name == name and not w.melee]
            reach = max(w.range or 0 for w in lines)
            blind = all(w.has("Indirect") or us.unit.has("Indirect") for w in lines)
            firing = alive & (gaps <= reach + TOL) & (sees | blind)
            n = int(firing.sum())
            if dice[name] and not n:
                self.fail('"Models in range and line of sight may fire"', f"{us.uid} {name}")
            full = sum(_round_half_up(w.count, us.models, us.unit.size) * w.attacks for w in lines)
            if n == us.models and dice[name] != full:
                self.fail("every model in range fires", f"{us.uid} {name}: {dice[name]}")
            if dice[name] > full:
                self.fail("no more dice than the weapons", f"{us.uid} {name}: {dice[name]}")
            if far is not None and name in far:
                near_dice, far_dice = far[name]
                if (far_dice and not (firing & (gaps > LONG)).any()) or (
                    near_dice and not (firing & (gaps <= LONG)).any()
                ):
                    self.fail('Relentless, Stealth: "over 9"" per model', f"{us.uid} {name}")
        self.tick("shooters")


def _rules(rules: tuple[Any, ...], key: str) -> Iterator[Any]:
    for r in rules:
        if r.name.casefold() == key:
            yield r
        yield from _rules(r.rules, key)


@contextmanager
def watching(monitor: OprMonitor) -> Iterator[None]:
    """Wrap where the games count strikers and shooters, so the monitor recounts each time."""
    saved: list[tuple[Any, str, Any]] = []

    def wrap(module: Any, name: str, make: Callable[[Any], Any]) -> None:
        saved.append((module, name, getattr(module, name)))
        setattr(module, name, make(getattr(module, name)))

    def gff_reach(real: Any) -> Any:
        def reach(state: GameState, x: Any, charger: str, charged: str) -> Any:
            out = real(state, x, charger, charged)
            a, d = state.units[charger], state.units[charged]
            monitor.strikers(state, a, d, int(out.reach[0]))
            monitor.strikers(state, d, a, int(out.reach[1]))
            return out

        return reach

    def gff_fire(real: Any) -> Any:
        def fire(state: GameState, us: UnitState, target: UnitState, weapons: Any) -> Any:
            out = real(state, us, target, weapons)
            dice = {w.name: 0 for w in weapons}
            far: dict[str, tuple[int, int]] = {}
            for p in out:
                dice[p.name] += p.dice
                n, f = far.get(p.name, (0, 0))
                far[p.name] = (n + (0 if p.far else p.dice), f + (p.dice if p.far else 0))
            sees = np.asarray(gff_shooting.seeing(state, us, target), dtype=bool)
            monitor.shooters(us, target, dice, sees, far)
            return out

        return fire

    def river_strikers(real: Any) -> Any:
        def strikers(state: GameState, us: UnitState, enemy: UnitState) -> int:
            out = int(real(state, us, enemy))
            monitor.strikers(state, us, enemy, out)
            return out

        return strikers

    def river_groups(real: Any) -> Any:
        def groups(us: UnitState, target: UnitState, types: Any, lk: Any, distance: float) -> Any:
            out = real(us, target, types, lk, distance)
            dice = {t: 0 for t in types}
            for g in out:
                for p in g.weapons:
                    dice[p.name] += p.dice
            monitor.shooters(us, target, dice, np.asarray(lk.sees, dtype=bool))
            return out

        return groups

    wrap(gff_melee, "reach", gff_reach)
    wrap(gff_shooting, "fire_profiles", gff_fire)
    wrap(riverside_combat, "strikers", river_strikers)
    wrap(riverside_combat, "ranged_groups", river_groups)
    try:
        yield
    finally:
        for module, name, real in reversed(saved):
            setattr(module, name, real)


# --- playing a monitored game ----------------------------------------------------------


def play(
    system: str,
    armies: tuple[Any, Any],
    commanders: Sequence[Any],
    *,
    seed: int,
    mechanic: str = "d6",
    table: Table | None = None,
    options: Any = None,
) -> tuple[GameState, OprMonitor]:
    """One GFF or Riverside game to its end, every decision checked."""
    engine = gff if system == "gff" else riverside
    state = engine.new_game(*armies, seed=seed, mechanic=mechanic, table=table, options=options)
    monitor = OprMonitor(system, seed)
    with watching(monitor):
        for _ in range(10_000):
            if state.done:
                break
            actions = engine.legal_actions(state)
            if not actions:
                monitor.fail("a phase with no legal action", f"phase {state.phase!r}")
            action = commanders[state.active].choose(state, actions)
            monitor.step(state, actions, action)
    if not state.done:
        monitor.fail("a game ends", "10,000 decisions")
    return state, monitor


def play_wwpd(
    forces: tuple[Any, Any], commanders: Sequence[Any], *, seed: int, table: Table | None = None
) -> tuple[Any, dict[str, int]]:
    """One WWPD game (seed 004 "Turns and Phases" on GFF's mission), every decision checked: a
    legal action always, whole turns in the roll-off winner's order, markers at each round's
    end from the positions."""
    state = wwpd.new_game(*forces, seed=seed, table=table)
    checks = {"legal actions": 0, "turns": 0, "markers": 0}

    def fail(clause: str, what: str) -> None:
        raise Breach(f"wwpd seed {seed}: {clause}: {what}")

    for _ in range(10_000):
        if state.done:
            break
        actions = wwpd.legal_actions(state)
        if not actions:
            fail("a phase with no legal action", state.phase)
        checks["legal actions"] += 1
        before = (state.round, [m.controller for m in state.markers], len(state.log.events))
        wwpd.apply(state, commanders[state.active].choose(state, actions))
        events = state.log.events[before[2] :]
        for e in events:
            if e["kind"] == "end_turn":
                want = state.first if e["turn"] % 2 == 1 else 1 - state.first
                if e["player"] != want:
                    fail('"Turns and Phases": the roll-off winner plays first', str(e))
                checks["turns"] += 1
        if (state.round != before[0] and before[0] >= 1) or (state.done and before[0] >= 1):
            for i, m in enumerate(state.markers):
                near = set()
                for us in state.units.values():
                    if not us.on_table or us.placement is None:
                        continue
                    p = us.placement
                    d = np.hypot(*(p.centres[p.alive] - np.asarray(m.position)).T)
                    if float((d - p.radii[p.alive]).min()) <= HOLD + TOL:
                        near.add(us.side)
                was = before[1][i] if i < len(before[1]) else None
                expected = next(iter(near)) if len(near) == 1 else None if near else was
                if m.controller != expected:
                    fail("GFF Mission: markers at the end of a round", f"marker {i}")
                checks["markers"] += 1
    if not state.done:
        fail("a game ends", "10,000 decisions")
    return state, checks


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.dist(a, b)
