"""The round and activation bookkeeping GFF and Riverside share (``oprlab.game.activation``).

Seed 003_8abb008d4113ed75 "Playing the Game" and seed 002_fdb385c07cc953af "Activation Phase":
the sides alternate activating units, a side with nothing left lets the other activate the
rest, the side that finished activating first starts the next round. The armies are invented.
"""

from __future__ import annotations

from oprlab.game import activation, gff, riverside
from oprlab.game.actions import Action, Kind
from oprlab.game.state import GameState, Phase
from tests.game import clear_table, line, put, specials


def _scene(*, system: str = "gff") -> GameState:
    new = gff.new_game if system == "gff" else riverside.new_game
    state = new(line(), line(), seed=0)
    clear_table(state)
    put(state, "A1", (10.0, 10.0))
    put(state, "B1", (30.0, 30.0))
    state.objectives = []
    state.phase = Phase.ACTIVATION
    state.round = 1
    state.active = 0
    return state


def _ends(calls: list[int]) -> activation.Step:
    return lambda state: calls.append(state.round)


def test_pass_turn_alternates_to_the_preferred_side() -> None:
    """seed 003 "Playing the Game": players alternate activating units."""
    state = _scene()
    ended: list[int] = []
    activation.pass_turn(state, 1, _ends(ended))
    assert state.active == 1 and not ended


def test_pass_turn_lets_the_other_side_activate_the_rest() -> None:
    """seed 002 "Activation Phase": a side with nothing left lets the other side go on."""
    state = _scene()
    state.units["B1"].activated = True
    ended: list[int] = []
    activation.pass_turn(state, 1, _ends(ended))
    assert state.active == 0 and not ended


def test_pass_turn_ends_the_round_when_nobody_is_left() -> None:
    """Both sides activated everything: the round ends (the hook), the side to act unchanged."""
    state = _scene(system="riverside")
    for u in state.units.values():
        u.activated = True
    ended: list[int] = []
    activation.pass_turn(state, 1, _ends(ended))
    assert ended == [1] and state.active == 0


def test_who_finished_first_starts_the_next_round() -> None:
    """seed 003 "Playing the Game": the player who finished activating first goes first."""
    state = _scene()
    state.first = 0
    activation.count_activation(state, state.units["B1"])  # side 1's last activation: first
    activation.count_activation(state, state.units["A1"])
    activation.record_finished_first(state)
    assert state.finished_first == 1
    activation.begin_round(state, 2)
    assert state.first == 1 and state.round == 2 and state.finished_first is None
    assert not any(u.activated or u.fatigued for u in state.units.values())
    assert state.last_activation == [-1, -1]


def test_nobody_activated_keeps_the_first_side() -> None:
    """No activation on either side (equal last activations): the first side stays first."""
    state = _scene()
    state.first = 1
    state.last_activation = [-1, -1]
    activation.record_finished_first(state)
    assert state.finished_first == 1


def test_next_round_or_the_end() -> None:
    """After the last round the game ends with the markers held; before it, the next round."""
    state = _scene()
    started: list[int] = []
    state.round = 2
    activation.next_round(state, lambda s, n: started.append(n))
    assert started == [3] and not state.done
    state.round = state.rounds
    activation.next_round(state, lambda s, n: started.append(n))
    assert started == [3] and state.done and state.winner is None


def test_objectives_alternate_and_the_last_one_says_so() -> None:
    """seed 002 "Placing Objectives": the sides alternate in placing one marker each."""
    state = _scene()
    state.objectives_left = 2
    assert not activation.place_objective(state, (20.0, 20.0))
    assert state.active == 1
    assert activation.place_objective(state, (30.0, 20.0))
    assert state.active == 0 and len(state.objectives) == 2


def test_deployer_with_room_tries_the_other_side() -> None:
    """seed 002 "Deployment": alternate; a side with no unit (or room) left lets the other go."""
    state = _scene()
    asked: list[int] = []

    def room(s: GameState, side: int) -> bool:
        asked.append(side)
        return side == 1

    assert activation.deployer_with_room(state, room) and state.active == 1
    assert asked == [0, 1]
    assert not activation.deployer_with_room(state, lambda s, side: False)
    assert state.active == 1


def test_on_table_edges_count() -> None:
    state = _scene()
    t = state.table
    assert activation.on_table(state, (0.0, 0.0)) and activation.on_table(state, (t.width, t.depth))
    assert not activation.on_table(state, (-0.1, 1.0)) and not activation.on_table(state, None)


def test_new_state_puts_scouts_and_ambushers_in_reserve() -> None:
    """seed 003 "Scout"/"Ambush": those units deploy later; every unit starts off the table."""
    army_b = specials()
    state = activation.new_state(
        "gff",
        line(),
        army_b,
        seed=7,
        mechanic="d6",
        table=None,
        rounds=4,
        log=True,
        rules=gff.GffRules(),
    )
    reserves = {u.uid: u.reserve for u in state.units.values() if u.side == 1}
    for i, unit in enumerate(army_b.units):
        want = "ambush" if unit.has("Ambush") else "scout" if unit.has("Scout") else None
        assert reserves[f"B{i + 1}"] == want
    assert "scout" in reserves.values() and "ambush" in reserves.values()
    assert all(u.placement is None and u.models == u.unit.size for u in state.units.values())
    again = activation.new_state(
        "gff",
        line(),
        army_b,
        seed=7,
        mechanic="d6",
        table=None,
        rounds=4,
        log=True,
        rules=gff.GffRules(),
    )
    assert int(state.rng.integers(1000)) == int(again.rng.integers(1000))  # one seed, one game


def test_unit_action_list_order_and_benny_charges() -> None:
    """Hold first, Advance/Rush per goal, then charges; a benny doubles the charges only."""
    state = _scene()
    us = state.units["A1"]
    first = [Action(Kind.HOLD, "A1")]
    acts = activation.unit_action_list(us, first, [(1.0, 2.0)], ["B1"], benny_charges=True)
    assert [(a.kind, a.benny) for a in acts] == [
        (Kind.HOLD, False),
        (Kind.ADVANCE, False),
        (Kind.RUSH, False),
        (Kind.CHARGE, False),
        (Kind.CHARGE, True),
    ]
    plain = activation.unit_action_list(us, first, [], ["B1"], benny_charges=False)
    assert [a.kind for a in plain] == [Kind.HOLD, Kind.CHARGE]


def test_objective_and_deploy_action_problems() -> None:
    """A marker only while markers are placed; a deployment needs a point, then the rules."""
    state = _scene()
    put_marker = Action(Kind.PLACE_OBJECTIVE, to=(20.0, 20.0))
    said = activation.objective_action_problem(state, put_marker, lambda s, p: None)
    assert said == "no objective marker to place now"
    state.phase = Phase.OBJECTIVES
    assert activation.objective_action_problem(state, put_marker, lambda s, p: None) is None
    assert activation.objective_action_problem(state, put_marker, lambda s, p: "no") == "no"
    us = state.units["A1"]
    deploy = Action(Kind.DEPLOY, "A1", to=(5.0, 5.0))

    def where(s: GameState, u: object, p: tuple[float, float], per_row: int) -> str | None:
        return None if p[1] < 12 else "outside the zone"

    assert activation.deploy_action_problem(state, us, deploy, where, may_deploy=True) is None
    said = activation.deploy_action_problem(state, us, deploy, where, may_deploy=False)
    assert said == "this unit cannot deploy now"
    far = Action(Kind.DEPLOY, "A1", to=(5.0, 30.0))
    assert activation.deploy_action_problem(state, us, far, where, may_deploy=True) == (
        "outside the zone"
    )
    nowhere = Action(Kind.DEPLOY, "A1")
    assert "position" in str(
        activation.deploy_action_problem(state, us, nowhere, where, may_deploy=True)
    )


def test_move_or_charge_problem() -> None:
    state = _scene()

    def problem(a: Action, melee: bool = True) -> str | None:
        return activation.move_or_charge_problem(
            state, a, lambda: ["B1"], has_melee=melee, out_of_reach="too far"
        )

    assert problem(Action(Kind.ADVANCE, "A1", to=(1.0, 1.0))) is None
    assert "on the table" in str(problem(Action(Kind.RUSH, "A1", to=(-1.0, 1.0))))
    assert problem(Action(Kind.CHARGE, "A1", target="B1")) is None
    assert problem(Action(Kind.CHARGE, "A1", target="B2")) == "too far"
    assert "melee weapon" in str(problem(Action(Kind.CHARGE, "A1", target="B1", benny=True), False))
    assert problem(Action(Kind.HOLD, "A1")) is None
