"""Shared helpers for the full-game tests: invented armies, a scripted mechanic, quick setups.

The armies here are invented for the tests (seed 003 special rules, made-up names).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np

from oprlab.game import geometry as geo
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Phase, UnitState
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test
from oprlab.prob import Dist
from oprlab.table.model import Placement
from oprlab.units.load import parse_army
from oprlab.units.model import Army

#: Rifles at range, knives up close, a Hero; no reserves.
LINE_TEXT = """++ Test Line [GFF 150pts] ++

Line Captain [1] Q4+ D4+ | 40pts | Hero, Tough(3)
Pistol (12", A1), Sabre (A2)

Rifle Squad [3] Q4+ D5+ | 40pts
3x Rifle (24", A1), 3x Knife (A1)

Rifle Squad [3] Q4+ D5+ | 40pts
3x Rifle (24", A1), 3x Knife (A1)
"""

#: Every deployment and movement rule of seed 003 that the procedure knows.
SPECIAL_TEXT = """++ Test Specials [GFF 200pts] ++

Pathfinders [2] Q4+ D5+ | 30pts | Scout
2x Carbine (18", A1), 2x Knife (A1)

Hidden Blades [2] Q4+ D5+ | 30pts | Ambush
2x Blade (A2)

Gun Post [1] Q4+ D3+ | 40pts | Immobile, Tough(3)
Heavy Gun (30", A3), Flamer (12", A3)

Runners [2] Q4+ D5+ | 30pts | Fast, Fearless
2x Claw (A2)

Plodders [2] Q4+ D4+ | 30pts | Slow
2x Hammer (A2)
"""


def army(text: str) -> Army:
    return parse_army(text, "test")


def line() -> Army:
    return army(LINE_TEXT)


def specials() -> Army:
    return army(SPECIAL_TEXT)


class Scripted(Mechanic):
    """A mechanic whose checks succeed by a rule the test gives, recording every check.

    Deterministic (one outcome per check), so :class:`~oprlab.rules.gff.resolve.Roller` asks
    :meth:`outcomes`; the test reads :attr:`checks` to see what was rolled and against what.
    """

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

    def of(self, test: Test) -> list[Check]:
        return [c for c in self.checks if c.test is test]


def first_action(state: GameState, actions: Sequence[Action]) -> Action:
    return actions[0]


def play_setup(
    state: GameState,
    choose: Callable[[GameState, Sequence[Action]], Action] = first_action,
) -> GameState:
    """Place objectives and deploy (taking the chooser's actions) until round 1's activations."""
    while state.phase in ("objectives", *gff.DEPLOY_PHASES) and not state.done:
        gff.apply(state, choose(state, gff.legal_actions(state)))
    return state


def strike_back(state: GameState, yes: bool = True) -> GameState:
    """Answer a charged unit's ``STRIKE_BACK`` decision if the game waits for one (seed 003
    "Defenders may choose to strike back"); scenes about other clauses strike back."""
    while state.phase == "strike_back" and state.pending is not None:
        gff.apply(state, Action(Kind.STRIKE_BACK, state.pending.unit, value=int(yes)))
    return state


def put(state: GameState, uid: str, centre: tuple[float, float]) -> UnitState:
    """Stand a unit at ``centre`` (a test's scene; not a legal move)."""
    us = state.units[uid]
    us.placement = geo.formation(us.unit, us.models, centre, gff.facing(us.side))
    us.reserve = None
    return us


def clear_table(state: GameState) -> None:
    """Take every unit off the table (scenes then put only the ones they need)."""
    for us in state.units.values():
        us.placement = None
        us.reserve = None


def probe_points(
    placements: Sequence[Placement | None], rng: np.random.Generator, anywhere: int = 40
) -> list[tuple[float, float]]:
    """Points to ask a deployment check about: ``anywhere`` on a 48" table, and six round
    each placed unit's centre (near it, where bounds are least sure)."""
    out = [(float(x), float(y)) for x, y in rng.uniform(0, 48, (anywhere, 2))]
    for p in placements:
        if p is not None:
            cx, cy = p.centres.mean(axis=0)
            out += [(float(cx + dx), float(cy + dy)) for dx, dy in rng.normal(0, 3, (6, 2))]
    return out


def walk_states(
    system: str, terrain: bool, seeds: range, *, rng_seed: int, steps: int
) -> list[GameState]:
    """States at every activation along games of random legal actions (shooty-300 against
    melee-300; on a generated table with ``terrain``, else an open one): many positions for a
    shortcut to be compared with the full check it stands for."""
    from oprlab.game.systems import find_system
    from oprlab.samples import sample_path
    from oprlab.table.model import Table
    from oprlab.table.terrain import generate_table
    from oprlab.units.load import load_army

    a = load_army(sample_path("gff/shooty-300.txt"))
    b = load_army(sample_path("gff/melee-300.txt"))
    rng = np.random.default_rng(rng_seed)
    rules = find_system(system)
    out: list[GameState] = []
    for seed in seeds:
        state = rules.new_game(a, b, seed=seed)
        assert isinstance(state, GameState)
        state.table = generate_table(seed) if terrain else Table()
        done = 0
        while not state.done and done < steps:
            actions = gff.legal_actions(state)
            if state.phase == Phase.ACTIVATION:
                out.append(state.clone())
            gff.apply(state, actions[int(rng.integers(len(actions)))])
            done += 1
    return out


def enemy_pairs(state: GameState) -> list[tuple[UnitState, UnitState]]:
    """Every (unit, enemy) pair of units standing on the table."""
    placed = [u for u in state.units.values() if u.on_table and u.placement is not None]
    return [(u, e) for u in placed for e in placed if u.side != e.side]
