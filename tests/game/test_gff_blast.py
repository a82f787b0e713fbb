"""Blast(X) on the table in GFF games (seed 003_8abb008d4113ed75 "SPECIAL RULES REFERENCE",
"Blast(X)": "each hit is multiplied by X, where X is up to as many hits as enemy models in the
target unit and within 3" of it. Hits must be split evenly between all enemy units within 3" of
any model from the target (defender picks how)"). The armies are invented."""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import numpy as np
import pytest

from oprlab.game import geometry as geo
from oprlab.game import gff
from oprlab.game.actions import Action, Kind
from oprlab.game.gff_blast import split
from oprlab.game.gff_defend import Rolled
from oprlab.game.gff_setup import GffOptions
from oprlab.game.state import GameState
from oprlab.mechanics import Check, Test
from oprlab.rules.gff.attack import Hit
from oprlab.rules.gff.profile import AttackProfile
from tests.game import Scripted, army
from tests.game.test_gff_rounds import scene

GUNNERS = """++ Test Gunners [GFF 100pts] ++

Shell Crew [1] Q4+ D5+ | 40pts
Shell Launcher (24", A1, Blast(3)), Pistol (12", A1)
"""

HUDDLE = """++ Test Huddle [GFF 150pts] ++

Elite Guard [2] Q3+ D3+ | 60pts
2x Halberd (A1)

Cheap Mob [4] Q5+ D6+ | 20pts
4x Club (A1)

Lone Sniper [1] Q4+ D4+ | 30pts
Long Rifle (30", A1)

Far Squad [2] Q4+ D5+ | 30pts
2x Knife (A1)
"""


def _hit_only(check: Check) -> bool:
    """Attack dice hit; Defense rolls fail (each hit wounds)."""
    return check.test is Test.HIT


def _shoot(
    where: dict[str, tuple[float, float]],
    target: str,
    *,
    mechanic: Any = None,
    blast_split: bool = True,
) -> GameState:
    state = scene(army(GUNNERS), army(HUDDLE), where, mechanic=mechanic or Scripted(_hit_only))
    state.options = GffOptions(blast_split=blast_split)
    gff.apply(state, Action(Kind.HOLD, "A1"))
    gff.apply(state, Action(Kind.SHOOT, "A1", target=target))
    return state


def _events(state: GameState, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.log.events if e["kind"] == kind]


def test_a_lone_target_takes_every_hit_as_the_attack_layer_says() -> None:
    """No other enemy unit within 3": the Shell Launcher's hit x3 (the Mob has 4 models) plus
    the Pistol's, all on the target, logged as before (no share)."""
    state = _shoot({"A1": (24.0, 8.0), "B2": (24.0, 17.0), "B4": (24.0, 30.0)}, "B2")
    (shot,) = _events(state, "shoot")
    assert shot["hits"] == 4 and "shared" not in shot
    assert _events(state, "blast") == []


def test_a_lone_target_plays_the_same_with_the_option_on_or_off() -> None:
    """With a real d6 and nobody within 3", the game is the same whether or not Blast splits."""
    where = {"A1": (24.0, 8.0), "B2": (24.0, 17.0), "B4": (24.0, 30.0)}
    on = _shoot(where, "B2", mechanic="d6")
    off = _shoot(where, "B2", mechanic="d6", blast_split=False)
    assert on.log.events == off.log.events


def test_hits_are_split_evenly_and_the_extra_one_goes_where_wounds_cost_least() -> None:
    """The Guard (2 models) with the Mob within 3": one Blast hit x3 gives 3 hits; 2 units
    take 1 each and the odd one goes to the Mob (5 points a wound against the Guard's 30).
    The Pistol's hit stays on the target. Each unit rolls its own Defense and casualties."""
    state = _shoot({"A1": (24.0, 8.0), "B1": (24.0, 18.0), "B2": (24.0, 21.5)}, "B1")
    (shot,) = _events(state, "shoot")
    assert shot["target"] == "B1" and shot["hits"] == 2 and shot["shared"] == [["B2", 2]]
    (share,) = _events(state, "blast")
    assert share == {
        "kind": "blast",
        "unit": "A1",
        "target": "B2",
        "of": "B1",
        "hits": 2,
        "wounds": 2,
        "casualties": 2,
    }
    assert state.units["B1"].models == 0 and state.units["B2"].models == 2


def test_x_counts_the_enemy_models_within_3_inches_of_the_target() -> None:
    """A one-model target alone caps Blast(3) at x1; with the two models of another unit within
    3" X is 3: one hit each and the odd one to the Far Squad (15 points a wound, the Sniper's
    30), the Pistol's hit on the Sniper."""
    alone = _shoot({"A1": (24.0, 8.0), "B3": (24.0, 17.0)}, "B3")
    assert _events(alone, "shoot")[0]["hits"] == 2  # the Launcher x1 and the Pistol
    pair = _shoot({"A1": (24.0, 8.0), "B3": (24.0, 17.0), "B4": (24.0, 20.5)}, "B3")
    (shot,) = _events(pair, "shoot")
    assert shot["hits"] == 2 and shot["shared"] == [["B4", 2]]


def test_units_beyond_3_inches_share_nothing() -> None:
    """The Mob 4" from the Guard: a lone target again."""
    where = {"A1": (24.0, 8.0), "B1": (24.0, 18.0), "B2": (24.0, 23.0)}
    state = scene(army(GUNNERS), army(HUDDLE), where)
    guard, mob = state.units["B1"].placement, state.units["B2"].placement
    assert guard is not None and mob is not None and geo.gap(guard, mob) > 3.0
    state = _shoot(where, "B1")
    (shot,) = _events(state, "shoot")
    assert shot["hits"] == 3 and "shared" not in shot  # x2: the Guard's two models, + Pistol


def test_each_unit_hit_may_spend_bennies_in_turn_and_the_pause_pickles() -> None:
    """Seed 000 variation 5 with a split Blast: the target's side decides for the target, then
    for the Mob's share (0 up to one benny per hit each); a game paused there pickles."""
    state = _shoot(
        {"A1": (24.0, 8.0), "B1": (24.0, 18.0), "B2": (24.0, 21.5)}, "B1", mechanic="clock-bennies"
    )
    asked = []
    while state.phase == "defend":
        state = pickle.loads(pickle.dumps(state))
        acts = gff.legal_actions(state)
        asked.append((acts[0].unit, [a.value for a in acts]))
        gff.apply(state, acts[-1])
    assert asked == [("B1", [0, 1]), ("B2", [0, 1, 2])]
    (shot,) = _events(state, "shoot")
    (share,) = _events(state, "blast")
    assert shot["defended"] == 1 and share["defended"] == 2
    assert [e["hits"] for e in _events(state, "benny")] == [1, 2]


def _rolled(rng: np.random.Generator) -> tuple[Rolled, int]:
    weapons = []
    for name, blast in (("Shell", 3), ("Rifle", 1), ("Mortar", 2)):
        p = AttackProfile(name, 2, 4, False, blast=blast, deadly=int(rng.integers(1, 3)))
        hits = tuple(Hit(int(rng.integers(0, 3))) for _ in range(int(rng.integers(0, 7))))
        weapons.append((p, hits))
    return tuple(weapons), int(rng.integers(1, 5))


@pytest.mark.parametrize("seed", range(40))
def test_split_is_even_keeps_every_hit_and_puts_the_odd_ones_on_the_cheapest(seed: int) -> None:
    """Each unit takes n // k or n // k + 1 of the n Blast hits, the extra ones on the units
    whose wounds cost least; hits of weapons without Blast all stay with the target; no hit is
    lost or made."""
    rng = np.random.default_rng(seed)
    rolled, k = _rolled(rng)
    worth = [float(w) for w in rng.integers(1, 4, size=k)]
    parts = split(rolled, worth)
    blast_hits = sum(len(h) for p, h in rolled if p.blast > 1)
    counts = [sum(len(h) for p, h in part if p.blast > 1) for part in parts]
    q, r = divmod(blast_hits, k)
    assert sorted(counts) == sorted([q + 1] * r + [q] * (k - r))
    cheap = sorted(range(k), key=lambda u: (worth[u], u))[:r]
    assert all(counts[u] == q + 1 for u in cheap)
    assert [h for p, h in parts[0] if p.blast == 1] == [h for p, h in rolled if p.blast == 1]
    assert all(p.blast > 1 and h for part in parts[1:] for p, h in part)
    every = Counter((p.name, h) for part in parts for p, hits in part for h in hits)
    assert every == Counter((p.name, h) for p, hits in rolled for h in hits)


def test_the_hardest_hits_go_to_the_cheapest_unit() -> None:
    """The defender's habit: Deadly first, then AP, onto the units whose wounds cost least."""
    shell = AttackProfile("Shell", 1, 4, False, blast=3)
    lance = AttackProfile("Lance", 1, 4, False, blast=2, deadly=3)
    rolled: Rolled = ((shell, (Hit(0), Hit(4), Hit(0))), (lance, (Hit(0),)))
    target, cheap = split(rolled, [10.0, 1.0])
    assert cheap == ((shell, (Hit(4),)), (lance, (Hit(0),)))
    assert target == ((shell, (Hit(0), Hit(0))), (lance, ()))
