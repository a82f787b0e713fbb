"""Full Riverside games (seed 002_fdb385c07cc953af): setup, round phases, actions, attacks on the
table, morale, objectives and the winner.

The armies are invented for these tests; the shipped GFF samples are OPR lists and play as
Riverside armies too (the full-game tests use them).
"""

from __future__ import annotations

import json
import math
import pickle
from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np
import pytest

from oprlab.errors import OptionError, UserError
from oprlab.game import riverside as rv
from oprlab.game import riverside_charge
from oprlab.game import riverside_combat as combat
from oprlab.game.actions import Action, Kind
from oprlab.game.riverside_options import WinnerTakes
from oprlab.game.state import GameState, Objective, Phase, UnitState
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test, get_mechanic
from oprlab.players import get_commander
from oprlab.prob import Dist
from oprlab.rules.gff.resolve import Roller
from oprlab.rules.riverside.attack import Situation
from oprlab.rules.riverside.profile import attack_profile, defender_profile
from oprlab.rules.riverside.resolve import resolve_attack
from oprlab.samples import sample_text
from oprlab.table import charge as table_charge
from oprlab.table.formation import gaps
from oprlab.table.model import Placement, Table, TerrainPiece, TerrainType
from oprlab.units.load import parse_army
from oprlab.units.model import Army

SEED = "seed 002_fdb385c07cc953af"

#: Two plain units and a lone hero-less gun; no reserves.
LINE_TEXT = """++ River Line [GFF 150pts] ++

Ford Wardens [5] Q4+ D4+ | 50pts
5x Musket (24", A1), 5x Knife (A1)

Ford Wardens [5] Q4+ D4+ | 50pts
5x Musket (24", A1), 5x Knife (A1)

Bank Gun [1] Q4+ D4+ | 50pts | Tough(3)
Long Gun (30", A2)
"""

#: One unit only: it finishes its activations first.
LONE_TEXT = """++ Lone Raft [GFF 50pts] ++

Raft Crew [3] Q4+ D5+ | 50pts
3x Hook (A1)
"""

#: Scout and Ambush reserves beside a plain unit.
RESERVES_TEXT = """++ Marsh Lurkers [GFF 120pts] ++

Reed Walkers [2] Q4+ D5+ | 30pts | Scout
2x Sling (18", A1), 2x Knife (A1)

Mud Hiders [2] Q4+ D5+ | 30pts | Ambush
2x Spear (A2)

Bog Guard [3] Q4+ D4+ | 40pts
3x Spear (A1)
"""

#: One model with three attacks: it can cause more wounds than it can take.
BRUTE_TEXT = """++ Brute [GFF 40pts] ++

River Brute [1] Q4+ D4+ | 40pts
Claws (A3)
"""

#: Two weapon types: one for each of two targets.
MIXED_TEXT = """++ Mixed Fire [GFF 60pts] ++

Mixed Squad [2] Q4+ D4+ | 60pts
2x Rifle (24", A1), 2x Torch (12", A2)
"""


def army(text: str) -> Army:
    return parse_army(text, "test")


def sample(name: str) -> Army:
    return parse_army(sample_text(f"gff/{name}.txt"), name)


class Scripted(Mechanic):
    """Checks succeed by a rule the test gives; every check is recorded (deterministic)."""

    name: ClassVar[str] = "scripted"
    summary: ClassVar[str] = "test double"
    deterministic: ClassVar[bool] = True

    def __init__(self, succeeds: Callable[[Check], bool]) -> None:
        self.succeeds = succeeds
        self.checks: list[Check] = []

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        self.checks.append(check)
        ok = self.succeeds(check)
        return Dist.point(Outcome(success=ok, natural=6 if ok else 1))

    def of(self, test: Test, unit: str | None = None) -> list[Check]:
        return [c for c in self.checks if c.test is test and (unit is None or c.owner.unit == unit)]


def first(state: GameState, actions: Sequence[Action]) -> Action:
    return actions[0]


def idle_or_first(state: GameState, actions: Sequence[Action]) -> Action:
    """Idle every activation (quick rounds); otherwise the first listed action."""
    return next((a for a in actions if a.kind is Kind.IDLE), actions[0])


def play(
    state: GameState, choose: Callable[[GameState, Sequence[Action]], Action] = first
) -> GameState:
    while not state.done:
        actions = rv.legal_actions(state)
        assert actions, (state.phase, state.round)
        rv.apply(state, choose(state, actions))
    return state


def setup(
    state: GameState, choose: Callable[[GameState, Sequence[Action]], Action] = first
) -> GameState:
    """Place markers and deploy until round 1's activations."""
    while state.phase in ("objectives", "zones", *rv.DEPLOY_PHASES) and not state.done:
        rv.apply(state, choose(state, rv.legal_actions(state)))
    return state


def scene(
    a: Army, b: Army, mechanic: str | Mechanic = "d6", table: Table | None = None
) -> GameState:
    """A game in round 1's activations with nothing on the table (tests put units)."""
    state = rv.new_game(a, b, seed=0, mechanic=mechanic, table=table)
    state.objectives = []
    state.objectives_left = 0
    state.round = 1
    state.phase = Phase.ACTIVATION
    state.active = 0
    state.first = 0
    for us in state.units.values():
        us.placement = None
        us.reserve = None
        us.activated = True  # units the test puts are made ready one by one
    return state


def put(
    state: GameState, uid: str, centre: tuple[float, float], *, ready: bool = True
) -> UnitState:
    us = state.units[uid]
    us.placement = rv.formation_at(state, us, centre)
    us.reserve = None
    us.arrived = 1
    us.activated = not ready
    return us


def line_of(models: int, start: tuple[float, float], radius: float, step: float) -> Placement:
    xs = start[0] + step * np.arange(models)
    return Placement(np.stack([xs, np.full(models, start[1])], axis=1), np.full(models, radius))


# --- full games ---------------------------------------------------------------------------


@pytest.mark.parametrize("mechanic", ["d6", "clock"])
@pytest.mark.parametrize("commander", ["random", "rules"])
def test_full_game_runs_to_the_end(mechanic: str, commander: str) -> None:
    """seed 002 "Round Phases": 4 rounds of Beginning, Deployment, Activation and End phases,
    then "the commander controlling the most objectives wins" (GFF sample lists as OPR armies)."""
    a, b = sample("shooty-150"), sample("melee-150")
    state = rv.new_game(a, b, seed=7, mechanic=mechanic)
    cs = [get_commander(commander, 1), get_commander(commander, 2)]
    play(state, lambda s, acts: cs[s.active].choose(s, acts))
    assert state.done and state.round == 4
    assert [e["round"] for e in state.log.of_kind("round")] == [1, 2, 3, 4]
    assert [e["round"] for e in state.log.of_kind("beginning")] == [1, 2, 3, 4]
    held = rv.score(state)
    (end,) = state.log.of_kind("end")
    assert end["objectives"] == list(held)
    assert state.winner == (None if held[0] == held[1] else int(held[1] > held[0]))
    # The log's casualties account for every model lost to wounds.
    for us in state.units.values():
        lost = sum(e["models"] for e in state.log.of_kind("casualties") if e["unit"] == us.uid)
        assert lost == us.unit.size - us.models
        assert us.models >= 0 and 0 <= us.markers < max(1, us.unit.tough)


def test_same_seed_same_log() -> None:
    """Reproducible play: the same seed and commanders give the same game, event for event."""

    def run(seed: int) -> list[dict[str, object]]:
        state = rv.new_game(sample("elite-150"), sample("horde-150"), seed=seed)
        cs = [get_commander("random", seed), get_commander("random", seed + 1)]
        play(state, lambda s, acts: cs[s.active].choose(s, acts))
        return state.log.events

    assert run(3) == run(3)
    assert run(3) != run(4)


def test_a_saved_game_resumes_exactly() -> None:
    """The state pickles and clones mid-game (generator included): both copies play on to the
    same end, event for event; the log is JSON."""
    state = rv.new_game(sample("shooty-150"), sample("melee-150"), seed=11)
    while not state.done and state.round < 2:
        rv.apply(state, first(state, rv.legal_actions(state)))
    saved = pickle.loads(pickle.dumps(state))
    twin = state.clone()
    for s in (state, saved, twin):
        play(s)
    assert saved.log.events == state.log.events == twin.log.events
    assert json.loads(json.dumps(state.log.events)) == state.log.events


# --- Starting a Game ----------------------------------------------------------------------


def test_objectives_d3_plus_2_placed_alternately_by_the_roll_off_winner() -> None:
    """seed 002 "Placing Objectives": D3+2 markers; the roll-off winner places first (our
    fixed choice); then the commanders alternate."""
    counts, firsts = [], set()
    for seed in range(45):
        state = rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=seed)
        while state.phase == "objectives":
            rv.apply(state, rv.legal_actions(state)[0])
        (start,) = state.log.of_kind("setup")
        sides = [e["side"] for e in state.log.of_kind("objective")]
        assert sides == [(start["first"] + i) % 2 for i in range(len(sides))]
        counts.append(len(state.objectives))
        firsts.add(start["first"])
    assert set(counts) == {3, 4, 5} and firsts == {0, 1}
    # 45 draws of a D3: 15 expected per face; 4..26 holds with probability > 99.9%.
    assert all(4 <= counts.count(k) <= 26 for k in (3, 4, 5))


def test_markers_outside_zones_over_nine_inches_apart_not_in_impassable() -> None:
    """seed 002 "Placing Objectives": outside the deployment zones, over 9" from other markers,
    never in unreachable positions like impassable terrain."""
    rock = TerrainPiece(
        "Rock", ((20.0, 20.0), (28.0, 20.0), (28.0, 28.0), (20.0, 28.0)),
        frozenset({TerrainType.IMPASSABLE}),
    )  # fmt: skip
    state = rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=1, table=Table(pieces=(rock,)))
    assert rv.objective_problem(state, (24.0, 24.0)) is not None
    assert rv.objective_problem(state, (24.0, 10.0)) is not None  # a deployment zone
    assert not rv.is_legal(state, Action(Kind.PLACE_OBJECTIVE, to=(24.0, 24.0)))
    setup(state)
    pts = [o.position for o in state.objectives]
    for i, p in enumerate(pts):
        assert 12.0 < p[1] < 36.0
        assert not (20.0 <= p[0] <= 28.0 and 20.0 <= p[1] <= 28.0)
        assert all(math.dist(p, q) > 9.0 for q in pts[i + 1 :])


@pytest.mark.parametrize("takes", ["first", "zone"])
def test_roll_off_winner_chooses_zone_or_first_loser_the_other(takes: WinnerTakes) -> None:
    """seed 002 "Choosing Deployment Zone and Activation Order": the winner chooses the zone or
    who activates first, the loser the other (``winner_takes`` forces the winner's pick; the
    commanders then pick: here the zone chooser takes the low edge and the order chooser leads).
    """
    winners = set()

    def pick(state: GameState, actions: Sequence[Action]) -> Action:
        wanted = {"low", "lead", takes}
        return next((a for a in actions if a.choice in wanted), actions[0])

    for seed in range(10):
        opts = rv.RiversideOptions(winner_takes=takes)
        state = setup(rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=seed, options=opts), pick)
        (roll,) = state.log.of_kind("roll_off")
        winner = roll["winner"]
        winners.add(winner)
        picks = state.log.of_kind("choose_zone")
        assert [e["side"] for e in picks] == [winner, winner, 1 - winner]
        assert picks[0]["choice"] == takes and roll["took"] == takes
        order_picker = winner if takes == "first" else 1 - winner
        assert state.first == order_picker  # it chose to lead
        assert roll["zone_chooser"] == 1 - order_picker
        assert rv.edge(state, roll["zone_chooser"]) == 0
        assert rv.edge(state, order_picker) == 1
    assert winners == {0, 1}


def test_zone_chooser_prefers_the_edge_nearer_the_markers() -> None:
    """seed 002 "Choosing Deployment Zone": a commander picks the zone nearer the markers."""
    state = rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=0)
    state.objectives = [Objective((10.0, 30.0)), Objective((30.0, 33.0))]
    assert rv.preferred_edge(state) == 1
    state.objectives = [Objective((10.0, 14.0)), Objective((30.0, 33.0))]
    assert rv.preferred_edge(state) == 0


# --- Deployment ---------------------------------------------------------------------------


def test_first_activator_deploys_first_and_commanders_alternate() -> None:
    """seed 002 "Deployment Phase": the commander that will activate first deploys the first
    unit; commanders alternate until all units are deployed (the rest follow when one side has
    none left)."""
    for seed in range(6):
        state = setup(rv.new_game(army(LINE_TEXT), army(LONE_TEXT), seed=seed))
        sides = [e["side"] for e in state.log.of_kind("deploy")]
        f = state.first
        assert sides[:2] == [f, 1 - f]  # the first activator first, then alternate
        assert sides.count(0) == 3 and sides.count(1) == 1
        assert sides[2:] == [0, 0]  # B has no unit left: A deploys the rest
        for e in state.log.of_kind("deploy"):
            us = state.units[e["unit"]]
            lo, hi = rv.deployment_zone(state, us.side)
            assert us.placement is not None
            ys, r = us.placement.centres[:, 1], us.placement.radii
            assert (ys - r >= lo - 1e-6).all() and (ys + r <= hi + 1e-6).all()


def test_normal_then_scout_deployment_scout_zone_twelve_inches_beyond() -> None:
    """seed 002 "Deployment Phase" / "Scout Deployment": round 1 has Normal then Scout
    deployment; Scout units use a zone 12" beyond the Deployment Zone's boundary."""
    state = setup(rv.new_game(army(RESERVES_TEXT), army(LINE_TEXT), seed=2))
    deploys = state.log.of_kind("deploy")
    phases = [e["phase"] for e in deploys]
    assert phases == sorted(phases, key=lambda p: p == "scout")  # all Normal before Scout
    (scout,) = [e for e in deploys if e["phase"] == "scout"]
    assert scout["unit"] == "A1"
    ambusher = state.units["A2"]
    assert ambusher.placement is None and ambusher.reserve == "ambush"
    # 18" from the edge: in the Scout zone (24" deep), outside the Deployment Zone (12").
    s = scene(army(RESERVES_TEXT), army(LINE_TEXT))
    walker, guard = s.units["A1"], s.units["A3"]
    walker.reserve = "scout"
    s.phase = Phase.SCOUT
    assert rv.deploy_problem(s, walker, (24.0, 18.0)) is None
    assert rv.deploy_problem(s, walker, (24.0, 30.0)) is not None
    s.phase = Phase.DEPLOY
    assert (
        rv.deploy_problem(s, guard, (24.0, 18.0)) == "the unit must be inside its deployment zone"
    )
    assert rv.deploy_problem(s, guard, (24.0, 6.0)) is None
    assert rv.deployment_zone(s, 0, scout=True) == (0.0, 24.0)


def test_ambush_units_arrive_in_round_two_over_nine_inches_from_enemies() -> None:
    """seed 002 "Ambush Deployment": Ambush units deploy in the Ambush phase of rounds 2-4,
    anywhere over 9" away from enemy units; the first activator deploys first."""
    state = rv.new_game(army(RESERVES_TEXT), army(RESERVES_TEXT), seed=5)
    play(state, idle_or_first)
    arrivals = [e for e in state.log.of_kind("deploy") if e["phase"] == "ambush"]
    assert {e["unit"] for e in arrivals} == {"A2", "B2"}
    assert all(e["round"] == 2 for e in arrivals)
    (r2,) = [e for e in state.log.of_kind("round") if e["round"] == 2]
    assert arrivals[0]["side"] == r2["first"]
    # The rule itself: a spot within 9" of an enemy unit is refused.
    s2 = scene(army(RESERVES_TEXT), army(LINE_TEXT))
    s2.round, s2.phase = 2, Phase.AMBUSH
    put(s2, "B1", (24.0, 30.0))
    hider = s2.units["A2"]
    hider.reserve = "ambush"
    assert rv.deploy_problem(s2, hider, (24.0, 24.0)) == (
        'Ambush units deploy over 9" away from enemy units'
    )
    assert rv.deploy_problem(s2, hider, (24.0, 10.0)) is None


def test_ambush_round_option_and_round_four_arrivals_cannot_contest() -> None:
    """seed 002 "Ambush Deployment": "Units deployed on Round 4 may not contest objective
    markers" (Ambush units set to arrive on round 4)."""
    opts = rv.RiversideOptions(ambush_round=4)
    state = rv.new_game(army(RESERVES_TEXT), army(LINE_TEXT), seed=3, options=opts)
    play(state, idle_or_first)
    (arrival,) = [e for e in state.log.of_kind("deploy") if e["unit"] == "A2"]
    assert arrival["round"] == 4 and arrival["phase"] == "ambush"
    assert not rv.contesting(state, state.units["A2"])
    # A round-4 arrival alone on a marker does not take it; the same unit from round 3 does.
    s = scene(army(RESERVES_TEXT), army(LINE_TEXT))
    s.objectives = [Objective((24.0, 24.0))]
    s.round = 4
    late = put(s, "A2", (24.0, 24.0))
    late.arrived = 4
    rv.update_objectives(s)
    assert s.objectives[0].controller is None
    late.arrived = 3
    rv.update_objectives(s)
    assert s.objectives[0].controller == 0


def test_options_refuse_bad_values() -> None:
    """Ambush deploys in "rounds 2-4"; the roll-off choice is the zone or activating first."""
    with pytest.raises(OptionError):
        rv.RiversideOptions(ambush_round=1)
    with pytest.raises(OptionError):
        rv.RiversideOptions(winner_takes="both")  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        rv.RiversideOptions(tie="coin")  # type: ignore[arg-type]


def test_armies_that_cannot_play_are_refused() -> None:
    """Riverside plays OPR lists: an empty army or another system's list is a user error."""
    other = Army(name="Colonials", system="wwpd", points=0, units=army(LINE_TEXT).units)
    with pytest.raises(UserError, match="not an OPR list"):
        rv.new_game(other, army(LINE_TEXT), seed=0)
    empty = Army(name="Nobody", system="GFF", points=0, units=())
    with pytest.raises(UserError, match="no units"):
        rv.new_game(army(LINE_TEXT), empty, seed=0)


# --- Activation Phase -----------------------------------------------------------------------


def test_after_round_one_the_side_that_finished_first_starts() -> None:
    """seed 002 "Activation Phase": alternate activations; after Round 1, start with the
    commander that finished their activations first last round."""
    for seed in range(6):
        state = rv.new_game(army(LINE_TEXT), army(LONE_TEXT), seed=seed)
        play(state, idle_or_first)
        rounds = {e["round"]: e["first"] for e in state.log.of_kind("round")}
        # B has one unit: it finishes first every round, so it starts rounds 2-4.
        assert [rounds[n] for n in (2, 3, 4)] == [1, 1, 1]
        r1 = [e["side"] for e in state.log.of_kind("activate") if e["round"] == 1]
        f = rounds[1]
        assert r1 == ([0, 1, 0, 0] if f == 0 else [1, 0, 0, 0])
        r2 = [e["side"] for e in state.log.of_kind("activate") if e["round"] == 2]
        assert r2 == [1, 0, 0, 0]


def test_idle_removes_shaken_and_shaken_units_may_act() -> None:
    """seed 002 "Idle Action": Idle removes Shaken; nothing forbids a Shaken unit the other
    actions (it stays Shaken after them)."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    us = put(state, "A1", (24.0, 6.0))
    other = put(state, "A2", (10.0, 6.0))
    put(state, "B1", (24.0, 44.0), ready=False)
    us.shaken = other.shaken = True
    kinds = {a.kind for a in rv.legal_actions(state) if a.unit == "A1"}
    assert {Kind.HOLD, Kind.ADVANCE, Kind.RUSH, Kind.IDLE} <= kinds
    rv.apply(state, Action(Kind.RUSH, "A1", to=(24.0, 12.0)))
    assert us.shaken and state.round == 1 and state.active == 0
    rv.apply(state, Action(Kind.IDLE, "A2"))
    assert not other.shaken
    assert state.log.of_kind("rally") == [{"kind": "rally", "unit": "A2"}]


def test_fatigue_after_melee_is_removed_at_the_beginning_phase() -> None:
    """seed 002 "Fatigue" and "Beginning Phase": a unit that attacked in melee is Fatigued for
    the rest of the round; at the start of each round units are no longer Fatigued."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    charger = put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 27.0), ready=False)
    assert "B1" in rv.charge_targets(state, charger)
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    fatigued = [e["unit"] for e in state.log.of_kind("fatigued")]
    assert "A1" in fatigued
    assert state.round == 2  # the charge was the round's last activation
    assert not charger.fatigued and not state.units["B1"].fatigued
    kinds = [e["kind"] for e in state.log.events]
    assert kinds.index("fatigued") < kinds.index("beginning")


def test_charge_needs_a_model_able_to_reach_contact() -> None:
    """seed 002 "Charge Action": at least 1 model must be able to make contact with the target
    unit within 12" to Charge."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    charger = put(state, "A1", (24.0, 10.0))
    put(state, "B1", (24.0, 32.0), ready=False)
    assert rv.charge_targets(state, charger) == []
    assert not rv.is_legal(state, Action(Kind.CHARGE, "A1", target="B1"))
    with pytest.raises(UserError):
        rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))


def test_straight_charge_shortcut_never_overrules_the_path_search() -> None:
    """seed 002 "Charge Action" and "1\\" Spacing": the quick straight-line answer is only a
    sufficient condition: whenever it allows a charge, the table's path search does too."""
    rng = np.random.default_rng(5)
    table = Table()
    allowed = 0
    for _ in range(60):
        x = rng.uniform(6, 34, 6)
        unit = line_of(3, (x[0], x[1]), 0.49, 1.5)
        target = line_of(3, (x[2], x[3]), 0.49, 1.5)
        other = line_of(2, (x[4], x[5]), 0.49, 1.5)
        parts = [unit, target, other]
        if any(
            gaps(p.centres, p.radii, q.centres, q.radii).min() < 1.0
            for k, p in enumerate(parts)
            for q in parts[k + 1 :]
        ):
            continue
        if riverside_charge._straight_charge(table, unit, target, [other], 12.0):
            allowed += 1
            assert table_charge.can_charge(table, unit, target, 12.0, [other])
    assert allowed >= 10


# --- Ranged Attacks -----------------------------------------------------------------------


def _hits_wound(unit_hits: str, *, morale: bool) -> Callable[[Check], bool]:
    def rule(c: Check) -> bool:
        if c.test is Test.HIT:
            return c.owner.unit == unit_hits
        if c.test is Test.DEFENSE:
            return False
        if c.test is Test.MORALE:
            return morale
        return True

    return rule


def test_morale_test_after_shooting_at_half_strength() -> None:
    """seed 002 "Morale Tests": after Resolving Attacks outside a Charge, a unit at half or
    less of its starting models takes a Morale Test; a failure makes it Shaken."""
    shooter_text = """++ Pair [GFF 20pts] ++

Pair [2] Q4+ D4+ | 20pts
2x Musket (24", A1)
"""
    target_text = """++ Four [GFF 40pts] ++

Four [4] Q4+ D4+ | 40pts
4x Knife (A1)
"""
    mech = Scripted(_hits_wound("A1", morale=False))
    state = scene(army(shooter_text), army(target_text), mechanic=mech)
    put(state, "A1", (24.0, 10.0))
    target = put(state, "B1", (24.0, 26.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    assert state.phase == "shoot"
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 2 and shot["wounds"] == 2
    assert target.models == 2
    (morale,) = state.log.of_kind("morale")
    assert morale["unit"] == "B1" and morale["passed"] is False
    assert target.shaken and len(mech.of(Test.MORALE)) == 1


def test_no_morale_test_above_half_strength() -> None:
    """seed 002 "Morale Tests": above half strength no test is taken."""
    shooter_text = """++ One [GFF 10pts] ++

One [1] Q4+ D4+ | 10pts
Musket (24", A1)
"""
    mech = Scripted(_hits_wound("A1", morale=False))
    state = scene(army(shooter_text), army(LINE_TEXT), mechanic=mech)
    put(state, "A1", (24.0, 10.0))
    target = put(state, "B1", (24.0, 26.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    assert target.models == 4 and not target.shaken
    assert state.log.of_kind("morale") == [] and mech.of(Test.MORALE) == []


def test_two_targets_one_per_weapon_type() -> None:
    """seed 002 "Choose Targets": one target for each ranged weapon type, at most 2 targets."""
    mech = Scripted(lambda c: c.test is Test.DEFENSE)  # every hit misses: nobody moves
    state = scene(army(MIXED_TEXT), army(LINE_TEXT), mechanic=mech)
    put(state, "A1", (24.0, 14.0))
    put(state, "B1", (18.0, 22.0), ready=False)  # within the Torch's 12"
    put(state, "B2", (34.0, 34.0), ready=False)  # Rifle only
    rv.apply(state, Action(Kind.HOLD, "A1"))
    acts = rv.legal_actions(state)
    split = Action(Kind.SHOOT, "A1", target="B2", second="B1", split=("Torch",))
    assert split in acts
    wrong = Action(Kind.SHOOT, "A1", target="B1", second="B2", split=("Torch",))
    assert not rv.is_legal(state, wrong)  # the Torch does not reach B2
    rv.apply(state, split)
    shots = {e["target"]: e for e in state.log.of_kind("shoot")}
    assert shots["B2"]["weapons"] == ["Rifle"] and shots["B2"]["dice"] == 2
    assert shots["B1"]["weapons"] == ["Torch"] and shots["B1"]["dice"] == 4


def test_models_without_line_of_sight_do_not_shoot() -> None:
    """seed 002 "Choose Targets" and "Line of Sight": only models with LoS attack; LoS Blocking
    terrain hides the target from the whole unit, so no Ranged Attack is offered."""
    wall = TerrainPiece(
        "Wall", ((10.0, 19.0), (38.0, 19.0), (38.0, 20.0), (10.0, 20.0)),
        frozenset({TerrainType.BLOCKING}),
    )  # fmt: skip
    state = scene(army(LINE_TEXT), army(LINE_TEXT), table=Table(pieces=(wall,)))
    shooter = put(state, "A1", (24.0, 12.0))
    put(state, "B1", (24.0, 28.0), ready=False)
    assert rv.shooting_targets(state, shooter) == {}
    rv.apply(state, Action(Kind.HOLD, "A1"))
    assert state.phase != "shoot"  # nothing to shoot at: the activation ended


def test_cover_is_decided_per_model() -> None:
    """seed 002 "Determine Cover" and "Cover Terrain": a target in Cover Terrain has Cover from
    each shooting model: +1 to its Defense rolls against their hits."""
    ruins = TerrainPiece(
        "Ruins", ((14.0, 22.0), (34.0, 22.0), (34.0, 32.0), (14.0, 32.0)),
        frozenset({TerrainType.COVER}),
    )  # fmt: skip
    mech = Scripted(lambda c: c.test is Test.HIT)
    state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic=mech, table=Table(pieces=(ruins,)))
    put(state, "A1", (24.0, 12.0))
    put(state, "B1", (24.0, 27.0), ready=False)
    rv.apply(state, Action(Kind.HOLD, "A1"))
    rv.apply(state, Action(Kind.SHOOT, "A1", target="B1"))
    (shot,) = state.log.of_kind("shoot")
    assert shot["dice"] == 5 and shot["covered_dice"] == 5
    assert [c.modifier for c in mech.of(Test.DEFENSE)] == [1] * 5


def test_resolve_groups_equals_resolve_attack_for_one_situation() -> None:
    """seed 002 "Resolve Attacks": with Cover the same for every model, the per-model
    composition is the pipeline's own attack, roll for roll."""
    shooters, target = army(LINE_TEXT).units[0], army(LINE_TEXT).units[2]
    rifle = attack_profile(shooters, shooters.weapons[0])
    d = defender_profile(target)
    s = Situation(distance=10.0)
    d6 = get_mechanic("d6")
    for seed in range(20):
        one = resolve_attack([rifle, rifle], d, s, Roller(d6, None, np.random.default_rng(seed)))
        two = combat.resolve_groups(
            [combat.Group((rifle,), s), combat.Group((rifle,), s)],
            d,
            Roller(d6, None, np.random.default_rng(seed)),
        )
        assert one == two


# --- Melee Attacks ----------------------------------------------------------------------------


def test_only_models_within_two_inches_attack() -> None:
    """seed 002 "Determine Attacks": all models of the Charging unit within 2" of the target
    attack (here 2 of a line of 5)."""
    mech = Scripted(lambda c: c.test is Test.DEFENSE)
    state = scene(army(LINE_TEXT), army(LONE_TEXT), mechanic=mech)
    a, b = state.units["A1"], state.units["B1"]
    r = 0.49
    a.placement = line_of(5, (10.0, 20.0), r, 2 * r + 0.5)
    b.placement = line_of(1, (10.0, 20.0 - 2 * r - 0.01), r, 1.0)
    b.models = 1
    b.placement = Placement(b.placement.centres, b.placement.radii)
    roller = Roller(mech, None, None)
    combat.melee(state, a, b, roller)
    charge = state.log.of_kind("strike")[0]
    assert charge["unit"] == "A1" and charge["strikers"] == 2 and charge["dice"] == 2


def _melee_scene(rule: Callable[[Check], bool]) -> tuple[GameState, Scripted]:
    mech = Scripted(rule)
    state = scene(army(LINE_TEXT), army(LINE_TEXT), mechanic=mech)
    put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 27.0), ready=False)
    return state, mech


def test_melee_loser_by_wounds_tests_and_routs_at_half_strength() -> None:
    """seed 002 "Melee Attacks" Morale Test: no tests from wounds; the unit that caused fewer
    wounds tests; failing at half strength or less it Routs and is removed."""

    saved = {"n": 0}

    def rule(c: Check) -> bool:
        if c.test is Test.HIT:
            return c.owner.unit == "A1"
        if c.test is Test.DEFENSE:  # the first 3 hits wound, the rest are saved
            saved["n"] += 1
            return saved["n"] > 3
        return c.test is not Test.MORALE

    state, mech = _melee_scene(rule)
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    (melee,) = state.log.of_kind("melee")
    assert melee["wounds_dealt"] == 3 and melee["wounds_taken"] == 0
    defender = state.units["B1"]
    (morale,) = state.log.of_kind("morale")  # none from wounds, one from the comparison
    assert morale["unit"] == "B1" and morale["cause"] == "melee" and not morale["passed"]
    assert defender.models == 2  # 2 of 5: half or less
    assert defender.routed and not defender.on_table
    assert [c.owner.unit for c in mech.of(Test.MORALE)] == ["B1"]


def test_melee_loser_above_half_is_shaken_and_return_strikes_fatigue() -> None:
    """seed 002 "Results of the Morale Test": failure above half strength makes the unit Shaken;
    "Return Strikes" by models within 2" and Fatigue after striking back."""
    wounds = {"n": 0}

    def rule(c: Check) -> bool:
        if c.test is Test.HIT:
            return c.owner.unit == "A1"
        if c.test is Test.DEFENSE:  # one wound only
            wounds["n"] += 1
            return wounds["n"] > 1
        return c.test is not Test.MORALE

    state, _ = _melee_scene(rule)
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    defender = state.units["B1"]
    strikes = state.log.of_kind("strike")
    assert [e["step"] for e in strikes] == ["charge", "return strikes"]
    assert strikes[1]["strikers"] >= 1 and defender.models == 4
    assert defender.shaken and not defender.routed
    assert {"kind": "fatigued", "unit": "B1"} in state.log.events


def test_no_melee_morale_when_the_opposing_unit_was_destroyed() -> None:
    """seed 002 "Melee Attacks": the loser tests "unless the opposing unit was destroyed"."""
    mech = Scripted(lambda c: c.test is Test.HIT)  # every hit lands, no Defense roll saves
    state = scene(army(BRUTE_TEXT), army(LINE_TEXT), mechanic=mech)
    brute = put(state, "A1", (24.0, 20.0))
    put(state, "B1", (24.0, 26.0), ready=False)
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    (melee,) = state.log.of_kind("melee")
    assert melee["wounds_dealt"] == 3 and 0 < melee["wounds_taken"] < 3  # B1 has fewer
    assert not brute.alive  # but the unit opposing it was destroyed
    assert mech.of(Test.MORALE) == [] and state.log.of_kind("morale") == []


def test_shaken_charger_counts_as_fatigued() -> None:
    """seed 002 "Shaken": Shaken units count as being Fatigued: melee hits only on 6s."""
    state, mech = _melee_scene(lambda c: False)
    state.units["A1"].shaken = True
    rv.apply(state, Action(Kind.CHARGE, "A1", target="B1"))
    assert all(c.unmodified_six_only for c in mech.of(Test.HIT, "A1"))
    assert not any(c.unmodified_six_only for c in mech.of(Test.HIT, "B1"))


# --- End Phase ----------------------------------------------------------------------------


def test_objective_control_rules() -> None:
    """seed 002 "End Phase": a non-Shaken unit within 3" controls; units of both sides: neutral;
    leaving does not stop control; Shaken units cannot contest."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    state.objectives = [Objective((24.0, 24.0))]
    a = put(state, "A1", (24.0, 21.5))
    rv.update_objectives(state)
    assert state.objectives[0].controller == 0
    a.placement = rv.formation_at(state, a, (24.0, 6.0))  # left: still controlled
    rv.update_objectives(state)
    assert state.objectives[0].controller == 0
    b = put(state, "B1", (24.0, 26.5), ready=False)
    rv.update_objectives(state)
    assert state.objectives[0].controller == 1
    a.placement = rv.formation_at(state, a, (24.0, 21.5))
    rv.update_objectives(state)
    assert state.objectives[0].controller is None  # both sides: neutral
    b.shaken = True
    rv.update_objectives(state)
    assert state.objectives[0].controller == 0  # Shaken units cannot contest


def test_most_objectives_after_round_four_wins() -> None:
    """seed 002 "End Phase": after the end of Round 4, the commander controlling the most
    objectives wins (equal: a draw)."""
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    state.round = 4
    state.objectives = [Objective((10.0, 24.0)), Objective((38.0, 24.0), controller=1)]
    put(state, "A1", (10.0, 21.0))
    rv.apply(state, Action(Kind.IDLE, "A1"))
    assert state.done and state.winner is None and rv.score(state) == (1, 1)
    state = scene(army(LINE_TEXT), army(LINE_TEXT))
    state.round = 4
    state.objectives = [Objective((10.0, 24.0), controller=1), Objective((38.0, 24.0))]
    put(state, "B1", (38.0, 27.0))
    state.active = 1
    rv.apply(state, Action(Kind.IDLE, "B1"))
    assert state.done and state.winner == 1 and rv.score(state) == (0, 2)


def test_illegal_actions_are_refused() -> None:
    """Commanders choose among legal actions; anything else is a clear user error."""
    state = setup(rv.new_game(army(LINE_TEXT), army(LINE_TEXT), seed=0))
    other = "B1" if state.active == 0 else "A1"
    with pytest.raises(UserError, match="side to act"):
        rv.apply(state, Action(Kind.HOLD, other))
    mine = "A1" if state.active == 0 else "B1"
    with pytest.raises(UserError):
        rv.apply(state, Action(Kind.CONSOLIDATE, mine))
    with pytest.raises(UserError):
        rv.apply(state, Action(Kind.ADVANCE, mine, to=(99.0, 99.0)))
