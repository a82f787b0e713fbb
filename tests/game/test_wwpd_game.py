"""Whole WWPD games (seed 004_b5c87f7769291d1c "Turns and Phases") on GFF's objectives.

Scenes stand units at chosen points after deployment and drive the turn with explicit actions;
a scripted mechanic makes every check succeed except those the test says fail, so what is rolled
(and what happens) is known. Full games then run with the computer commanders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import pytest

from oprlab.errors import OptionError, UnknownNameError, UserError
from oprlab.game import wwpd
from oprlab.game.play import Commander, GameResult, play_game
from oprlab.game.wwpd import GameOptions, Kind, WwpdAction, WwpdState
from oprlab.game.wwpd_state import Pinning
from oprlab.mechanics import Check, Mechanic, Outcome, State, Test
from oprlab.players import get_commander
from oprlab.players.wwpd_commanders import RandomWwpdCommander, RulesWwpdCommander
from oprlab.prob import Dist
from oprlab.rules.wwpd.attack import save_target
from oprlab.rules.wwpd.targets import Phase
from oprlab.samples import sample_text
from oprlab.table.model import Table
from oprlab.units.profiles import WwpdForce, load_wwpd

# Invented forces in oprlab's profile format (docs/profiles.md).
RIFLES = """
name: Rifles
units:
  - name: Rifle Pair
    models:
      - {name: Rifleman, count: 2, ranged_skill: 2, melee_skill: 2, leadership: 4}
    weapons:
      - {name: Rifle, count: 2, range: 30, rate_of_fire: 1}
"""
BRAWLERS = """
name: Brawlers
units:
  - name: Brawlers
    models:
      - {name: Brawler, count: 3, ranged_skill: 1, melee_skill: 3, leadership: 4,
         melee_attacks: 2}
    weapons:
      - {name: Club, count: 3}
"""
MIXED = """
name: Mixed
units:
  - name: Line
    models:
      - {name: Trooper, count: 6, ranged_skill: 2, melee_skill: 2, leadership: 4}
    weapons:
      - {name: Carbine, count: 5, range: 24, rate_of_fire: 2}
      - {name: Launcher, range: 30, rate_of_fire: 1, high_explosive: 1, massive: 1}
      - {name: Knife, count: 6}
  - name: Assault
    models:
      - {name: Stormer, count: 4, ranged_skill: 2, melee_skill: 3, leadership: 3, armor: 1,
         melee_attacks: 2}
    weapons:
      - {name: Shotgun, count: 4, range: 12, rate_of_fire: 2}
      - {name: Axe, count: 4, massive: 1}
  - name: Snipers
    models:
      - {name: Sniper, count: 2, ranged_skill: 3, melee_skill: 1, leadership: 4}
    weapons:
      - {name: Long Rifle, count: 2, range: 36, rate_of_fire: 1, ap: 1}
"""


def force(text: str) -> WwpdForce:
    return load_wwpd(text, "test")


class Scripted(Mechanic):
    """Checks succeed unless ``fails`` says otherwise; every check is recorded."""

    name: ClassVar[str] = "scripted"
    summary: ClassVar[str] = "test double"
    deterministic: ClassVar[bool] = True

    def __init__(self, fails: Callable[[Check], bool] = lambda c: c.test is Test.SAVE) -> None:
        self.fails = fails
        self.checks: list[Check] = []

    def outcomes(self, check: Check, state: State = None) -> Dist[Outcome]:
        self.checks.append(check)
        ok = not self.fails(check)
        return Dist.point(Outcome(success=ok, natural=6 if ok else 1))


def scene(
    a: str,
    b: str,
    where: dict[str, tuple[float, float]],
    *,
    options: GameOptions | None = None,
    mechanic: Mechanic | None = None,
    seed: int = 1,
) -> WwpdState:
    """Deploy (first candidates), then stand units where the test says, at the first turn."""
    state = wwpd.new_game(
        force(a),
        force(b),
        seed=seed,
        table=Table(objectives=((40.0, 24.0),)),
        options=options,
        mechanic=mechanic or Scripted(),
    )
    while state.phase == "deploy":
        wwpd.apply(state, wwpd.legal_actions(state)[0])
    for uid, centre in where.items():
        us = state.units[uid]
        us.placement = wwpd.formation(us.kits, centre, wwpd.facing(us.side))
    wwpd.invalidate(state)
    return state


def act(state: WwpdState, kind: Kind, unit: str, target: str = "") -> None:
    action = WwpdAction(kind, unit, target=target)
    assert action in wwpd.legal_actions(state), (action, wwpd.legal_actions(state))
    wwpd.apply(state, action)


def hold_movement(state: WwpdState) -> None:
    while state.phase == Phase.MOVEMENT.value:
        wwpd.apply(state, WwpdAction(Kind.HOLD, wwpd.legal_actions(state)[0].unit))


def kinds(state: WwpdState, kind: str) -> list[dict[str, object]]:
    return state.log.of_kind(kind)


# ---------------------------------------------------------------- setup


def test_objectives_and_deployment() -> None:
    """The seed has no mission: GFF's D3+2 markers outside the zones; deployment on opposite
    edges, 12" deep, alternating from the roll-off winner, who plays the first turn."""
    for seed in range(4):
        state = wwpd.new_game(force(MIXED), force(MIXED), seed=seed)
        assert 3 <= len(state.markers) <= 5
        assert all(12 < m.position[1] < 36 for m in state.markers)
        order = []
        while state.phase == "deploy":
            action = wwpd.legal_actions(state)[-1]
            order.append(state.units[action.unit].side)
            wwpd.apply(state, action)
        assert order == [state.first, 1 - state.first] * 3
        for us in state.units.values():
            assert us.placement is not None
            ys, r = us.placement.centres[:, 1], us.placement.radii
            if us.side == 0:
                assert (ys + r).max() <= 12 + 1e-6
            else:
                assert (ys - r).min() >= 36 - 1e-6
        assert state.phase == Phase.MOVEMENT.value and state.player == state.first
        assert state.round == 1


def test_units_without_room_are_lost() -> None:
    """A unit that cannot be placed wholly in its 12" zone is lost; a side with nothing on the
    table has lost (here both: a draw before the first turn)."""
    narrow = Table(width=5.0, objectives=((2.5, 24.0),))
    state = wwpd.new_game(force(MIXED), force(MIXED), seed=0, table=narrow)
    while not state.done:
        wwpd.apply(state, wwpd.legal_actions(state)[0])
    assert {e["unit"] for e in kinds(state, "no_room")} >= {"A1", "B1"}
    assert state.winner is None and state.round == 0


# ---------------------------------------------------------------- phases


def test_turn_phases_and_ranges() -> None:
    """seed 004 "Turns and Phases": Movement; Shooting "over 12"", only the active player;
    Firefight "within 12"", both players; then Melee."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 6.0), "B1": (10.0, 30.0)})
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    assert {a.unit for a in wwpd.legal_actions(state)} == {mine}  # Movement: the player only
    hold_movement(state)
    assert state.phase == Phase.SHOOTING.value and state.active == p
    assert WwpdAction(Kind.SHOOT, mine, target=theirs) in wwpd.legal_actions(state)
    act(state, Kind.HOLD, mine)
    # nobody is within 12": no Firefight and no Melee decisions; the other player's turn
    assert state.player == 1 - p and state.phase == Phase.MOVEMENT.value


def test_firefight_both_players_shoot_simultaneously() -> None:
    """seed 004 "Turns and Phases": in the Firefight "Both players shoot" (our reading: every
    declared attack rolls before casualties come off, so a unit shot down still fires)."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 14.0), "B1": (10.0, 22.0)})
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    hold_movement(state)
    assert state.phase == Phase.FIREFIGHT.value and state.active == p
    assert all(a.target != theirs or a.kind is Kind.SHOOT for a in wwpd.legal_actions(state))
    act(state, Kind.SHOOT, mine, theirs)
    assert state.phase == Phase.FIREFIGHT.value and state.active == 1 - p
    act(state, Kind.SHOOT, theirs, mine)
    fire = kinds(state, "firefight")
    assert [e["unit"] for e in fire] == [mine, theirs]
    assert all(e["casualties"] == 2 for e in fire)
    assert state.done and state.winner is None
    assert kinds(state, "end")[0]["reason"] == "a side has no units left"


def test_firefight_in_order_option() -> None:
    """GameOptions(simultaneous_firefight=False): each attack is resolved when declared."""
    options = GameOptions(simultaneous_firefight=False)
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 14.0), "B1": (10.0, 22.0)}, options=options)
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    hold_movement(state)
    act(state, Kind.SHOOT, mine, theirs)
    assert state.done and state.winner == p
    assert len(kinds(state, "firefight")) == 1


def test_firefight_cover_save_is_worse() -> None:
    """seed 004 "Cover and Defensive Saves": basic Cover Save 3+ in Shooting, 5+ in Firefight."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 6.0), "B1": (10.0, 30.0)})
    mechanic = state.mechanic
    assert isinstance(mechanic, Scripted)
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    hold_movement(state)
    act(state, Kind.SHOOT, mine, theirs)
    assert {c.target for c in mechanic.checks if c.test is Test.SAVE} == {3}
    near = scene(RIFLES, RIFLES, {"A1": (10.0, 14.0), "B1": (10.0, 22.0)})
    attack = wwpd.shooting_attack_of(near, near.units["A1"], near.units["B1"])
    assert attack.phase is Phase.FIREFIGHT
    assert save_target(attack, attack.volleys[0], 0) == 5


def test_moving_costs_one_to_hit() -> None:
    """seed 004 "To Hit": "Models that moved in the previous Movement phase suffer a to hit
    penalty of -1 with their small arms"."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 6.0), "B1": (10.0, 34.0)})
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    before = wwpd.shooting_attack_of(state, state.units[mine], state.units[theirs])
    goal = state.markers[0].position
    wwpd.apply(state, WwpdAction(Kind.MOVE, mine, to=goal))
    assert state.units[mine].moved
    after = wwpd.shooting_attack_of(state, state.units[mine], state.units[theirs])
    assert [v.to_hit for v in after.volleys] == [v.to_hit + 1 for v in before.volleys]


def test_cowering() -> None:
    """seed 004 "To Hit" and "Cover and Defensive Saves": a Cowering target is harder to hit
    (+1) and gains +1 Cover Save; our reading: a unit may cower instead of firing in the
    Firefight, until the end of the turn; cowering units do not fire or charge."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 14.0), "B1": (10.0, 22.0)})
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    hold_movement(state)
    plain = wwpd.shooting_attack_of(state, state.units[theirs], state.units[mine])
    act(state, Kind.COWER, mine)
    assert state.units[mine].cowering
    hidden = wwpd.shooting_attack_of(state, state.units[theirs], state.units[mine])
    assert [v.to_hit for v in hidden.volleys] == [v.to_hit + 1 for v in plain.volleys]
    assert hidden.conditions.target_cowering
    assert wwpd.shooting_targets(state, state.units[mine]) == []
    act(state, Kind.HOLD, theirs)
    assert state.player == 1 - p  # the turn ended: cowering is over
    assert not state.units[mine].cowering
    no_cower = scene(
        RIFLES,
        RIFLES,
        {"A1": (10.0, 14.0), "B1": (10.0, 22.0)},
        options=GameOptions(cowering=False),
    )
    hold_movement(no_cower)
    assert all(a.kind is not Kind.COWER for a in wwpd.legal_actions(no_cower))


def test_melee_both_fight() -> None:
    """seed 004 "Turns and Phases": "Unpinned units within range may charge into melee and
    fight. Both players fight." The charger's and the charged unit's models within 2" strike;
    casualties come off together."""
    state = scene(BRAWLERS, BRAWLERS, {"A1": (10.0, 18.0), "B1": (10.0, 24.0)})
    p = state.player
    mine, theirs = ("A1", "B1") if p == 0 else ("B1", "A1")
    hold_movement(state)
    # no ranged weapons: the Firefight offers only cowering; hold
    while state.phase == Phase.FIREFIGHT.value:
        wwpd.apply(state, WwpdAction(Kind.HOLD, wwpd.legal_actions(state)[0].unit))
    assert state.phase == Phase.MELEE.value
    assert {a.unit for a in wwpd.legal_actions(state)} == {mine}  # only the player charges
    act(state, Kind.CHARGE, mine, theirs)
    fights = kinds(state, "melee")
    assert [(e["unit"], e["target"]) for e in fights] == [(mine, theirs), (theirs, mine)]
    assert all(int(str(e["dice"])) > 0 for e in fights)
    assert state.done  # every hit killed: both units fell together
    assert state.winner is None


def test_pinned_units_cannot_charge() -> None:
    """seed 004 "Turns and Phases": "Unpinned units within range may charge"; our reading (the
    text names pinning without a rule): a unit that loses models to fire is pinned, here with
    GameOptions(pinning="losses"), and Suppressed (-2 to hit) until the end of the turn."""
    cases: tuple[tuple[Pinning, bool], ...] = (("losses", True), ("off", False))
    for rule, pinned in cases:
        state = scene(
            BRAWLERS,
            RIFLES,
            {"A1": (10.0, 18.0), "B1": (10.0, 24.0)},
            options=GameOptions(pinning=rule),
        )
        if state.player != 0:  # make it the brawlers' turn
            hold_movement(state)
            while state.player != 0 and not state.done:
                wwpd.apply(state, WwpdAction(Kind.HOLD, wwpd.legal_actions(state)[0].unit))
        hold_movement(state)
        act(state, Kind.HOLD, "A1")  # the brawlers cannot shoot; they do not cower
        act(state, Kind.SHOOT, "B1", "A1")
        assert state.units["A1"].models == 1
        assert [e["unit"] for e in kinds(state, "pinned")] == (["A1"] if pinned else [])
        if pinned:  # no charge: the Melee phase had no decision and the turn is over
            assert state.phase == Phase.MOVEMENT.value and state.player == 1
            assert not state.units["A1"].pinned  # pinning lasts until the end of the turn
        else:
            assert state.phase == Phase.MELEE.value
            assert WwpdAction(Kind.CHARGE, "A1", target="B1") in wwpd.legal_actions(state)


def test_leadership_pinning() -> None:
    """Our default reading: a unit that lost models tests Leadership (the best in the unit) and
    is pinned on a failure; pinned units are Suppressed ("Models that are Cowering or
    Suppressed will suffer a penalty to hit of -2") for the rest of the turn."""
    for fail in (False, True):
        hits = [0]

        def fails(c: Check, f: bool = fail, hits: list[int] = hits) -> bool:
            if c.test is Test.HIT:  # two hits per attack: the unit loses models, not all
                hits[0] += 1
                return hits[0] > 2
            return c.test is Test.SAVE or (f and c.test is Test.MORALE)

        mechanic = Scripted(fails)
        state = scene(
            MIXED,
            MIXED,
            {"A1": (10.0, 4.0), "A2": (24.0, 26.0), "B1": (10.0, 30.0)},
            mechanic=mechanic,
        )
        for uid in ("A3", "B2", "B3"):
            state.units[uid].alive = [False] * len(state.units[uid].alive)
        wwpd.invalidate(state)
        while state.player != 0:
            wwpd.apply(state, WwpdAction(Kind.HOLD, wwpd.legal_actions(state)[0].unit))
        before = wwpd.shooting_attack_of(state, state.units["B1"], state.units["A2"])
        hold_movement(state)
        hits[0] = 0
        act(state, Kind.SHOOT, "A1", "B1")  # over 12": the Shooting phase
        assert [c.target for c in mechanic.checks if c.test is Test.MORALE] == [4]
        assert state.units["B1"].models == 4
        act(state, Kind.HOLD, "A2")  # the player's half of the Firefight
        assert state.phase == Phase.FIREFIGHT.value and state.active == 1
        assert state.units["B1"].pinned is fail
        after = wwpd.shooting_attack_of(state, state.units["B1"], state.units["A2"])
        penalty = 2 if fail else 0
        assert [v.to_hit for v in after.volleys] == [v.to_hit + penalty for v in before.volleys]


MARKSMEN = """
name: Marksmen
units:
  - name: Marksman Pair
    models:
      - {name: Marksman, count: 2, ranged_skill: 3, melee_skill: 1, leadership: 4}
    weapons:
      - {name: Marksman Rifle, count: 2, range: 36, rate_of_fire: 1, single_out: true}
"""


def test_single_out_in_a_game() -> None:
    """seed 004 "Allocation of Hits": "If the weapon permits the attacker to single out a target
    model, that model must take all hits from the weapon". The attacking commander's choice is
    a habit, not a decision (the legal actions are unchanged): the key model in range, here the
    Line's launcher (the rarest kit); the log names it."""
    state = scene(MARKSMEN, MIXED, {"A1": (10.0, 6.0), "B1": (10.0, 30.0)})
    p = state.player
    if p == 1:  # the marksmen's turn comes second: let the mixed force's turn pass
        while state.player == 1:
            wwpd.apply(state, WwpdAction(Kind.HOLD, wwpd.legal_actions(state)[0].unit))
    hold_movement(state)
    assert state.phase == Phase.SHOOTING.value
    assert {a.kind for a in wwpd.legal_actions(state)} == {Kind.HOLD, Kind.SHOOT}
    attack = wwpd.shooting_attack_of(state, state.units["A1"], state.units["B1"])
    (volley,) = attack.volleys
    kits = state.units["B1"].kits
    launcher = next(i for i, k in enumerate(kits) if k.ranged[0].name == "Launcher")
    assert volley.singled_out == launcher and volley.dice == 2
    act(state, Kind.SHOOT, "A1", "B1")
    (shot,) = kinds(state, "shooting")
    assert shot["singled_out"] == {"Marksman Rifle": launcher}
    plain = scene(RIFLES, RIFLES, {"A1": (10.0, 6.0), "B1": (10.0, 30.0)})
    mine, theirs = ("A1", "B1") if plain.player == 0 else ("B1", "A1")
    hold_movement(plain)
    act(plain, Kind.SHOOT, mine, theirs)
    assert "singled_out" not in kinds(plain, "shooting")[0]  # other logs keep their shape
    assert shot["hits"] == 2 and shot["casualties"] == 1  # the second hit finds him gone
    assert state.units["B1"].alive[launcher] is False and state.units["B1"].models == 5


# ---------------------------------------------------------------- markers and the end


def test_markers_seized_and_contested() -> None:
    """GFF Mission (the seed has none): a marker is seized by a side with a unit within 3" and
    no enemy there, kept after leaving, neutral when contested; most markers wins."""
    state = scene(RIFLES, RIFLES, {"A1": (40.0, 21.5), "B1": (10.0, 40.0)})
    wwpd.update_markers(state)
    assert state.markers[0].controller == 0
    state.units["A1"].placement = wwpd.formation(state.units["A1"].kits, (10.0, 6.0), 0.0)
    wwpd.update_markers(state)
    assert state.markers[0].controller == 0 and wwpd.score(state) == (1, 0)
    for uid, y in (("A1", 21.5), ("B1", 26.5)):
        us = state.units[uid]
        us.placement = wwpd.formation(us.kits, (40.0, y), wwpd.facing(us.side))
    wwpd.update_markers(state)
    assert state.markers[0].controller is None and wwpd.score(state) == (0, 0)


def test_illegal_actions_and_options() -> None:
    """Commanders may only take listed (or checked) actions; options are validated."""
    state = scene(RIFLES, RIFLES, {"A1": (10.0, 6.0), "B1": (10.0, 30.0)})
    other = "B1" if state.player == 0 else "A1"
    mine = "A1" if state.player == 0 else "B1"
    for bad in (
        WwpdAction(Kind.HOLD, other),
        WwpdAction(Kind.SHOOT, mine, target=other),
        WwpdAction(Kind.CHARGE, mine, target=other),
        WwpdAction(Kind.MOVE, mine, to=(100.0, 5.0)),
        WwpdAction(Kind.DEPLOY, mine, to=(5.0, 5.0)),
        WwpdAction(Kind.HOLD, "Z9"),
    ):
        assert not wwpd.is_legal(state, bad)
        with pytest.raises(UserError):
            wwpd.apply(state, bad)
    assert wwpd.is_legal(state, WwpdAction(Kind.MOVE, mine, to=(20.0, 20.0)))
    with pytest.raises(OptionError):
        GameOptions(pinning="sometimes")  # type: ignore[arg-type]
    with pytest.raises(OptionError):
        GameOptions(rounds=0)
    with pytest.raises(OptionError):
        GameOptions(move=-1.0)
    with pytest.raises(UnknownNameError):
        get_commander("genius", system="wwpd")


# ---------------------------------------------------------------- whole games


def _play(seed: int, commanders: Sequence[Commander]) -> tuple[GameResult, WwpdState]:
    return play_game(force(MIXED), force(MIXED), commanders, seed=seed, system="wwpd")


def test_game_runs_to_the_end_and_replays() -> None:
    """A whole game between the rules commander and the random one ends after 4 rounds (or a
    wipe-out); the same seed gives the same log, event for event."""
    one, s1 = _play(5, [RulesWwpdCommander(), RandomWwpdCommander(9)])
    two, s2 = _play(5, [RulesWwpdCommander(), RandomWwpdCommander(9)])
    assert s1.done and s1.phase == "over"
    assert one == two and s1.log.events == s2.log.events
    assert one.rounds <= 4 and (one.rounds == 4 or 0 in one.units_left)
    lost = sum(int(str(e["models"])) for e in s1.log.of_kind("casualties"))
    assert lost == sum(one.models_lost)
    turns = s1.log.of_kind("turn")
    assert [t["player"] for t in turns[:2]] == [s1.first, 1 - s1.first]
    end = s1.log.of_kind("end")[0]
    if end["reason"] == "rounds played":
        held = one.objectives
        assert one.winner == (None if held[0] == held[1] else int(held[1] > held[0]))


def test_players_random_commander_plays_wwpd() -> None:
    """The package's random commander (``oprlab.players``) only picks among legal actions, so it
    plays WWPD games as the random baseline too."""
    from oprlab.players.random_commander import RandomCommander

    a, _ = _play(2, [RandomCommander(1), RandomCommander(2)])
    b, _ = _play(2, [RandomCommander(1), RandomCommander(2)])
    assert a == b and a.commanders == ("random", "random")


def test_sample_force_plays() -> None:
    """The packaged WWPD sample (invented Colonial Guard) plays a whole game, rules vs rules."""
    colonial = load_wwpd(sample_text("wwpd/colonial.yaml"), "colonial.yaml")
    result, state = play_game(
        colonial, colonial, [RulesWwpdCommander(), RulesWwpdCommander()], seed=11, system="wwpd"
    )
    assert state.done and result.decisions > 0
    assert state.log.of_kind("shooting") or state.log.of_kind("firefight")
