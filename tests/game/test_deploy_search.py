"""Crowded deployment zones (issue 11, defect 1): every unit the text allows is deployed, and a
unit that truly finds no room is named with the reason, never lost in silence.

Seed 003 "Deployment" 3: "Players alternate placing one unit each within 12\\" of their table
edge"; seed 002 "Deployment Phase": "Units are deployed by placing them inside the boundaries of
their commander's Deployment Zone". Neither text limits where in the zone, nor the formation
beyond cohesion and 1" spacing.
"""

from __future__ import annotations

import io
from types import ModuleType

import pytest
from rich.console import Console

from oprlab.cli.account import opr_account
from oprlab.game import deploy_search, gff, riverside
from oprlab.game.actions import Action, Kind
from oprlab.game.options import parse_options
from oprlab.game.play import result_of
from oprlab.game.state import GameState, UnitState
from oprlab.game.systems import find_system
from oprlab.players import get_commander
from oprlab.samples import sample_path
from oprlab.table.model import Table
from oprlab.table.terrain import generate_table
from oprlab.units.load import load_army, parse_army
from oprlab.units.model import Army

SYSTEMS: dict[str, ModuleType] = {"gff": gff, "riverside": riverside}


def _large() -> tuple[Army, Army]:
    return load_army(sample_path("gff/lantern-2000.txt")), load_army(
        sample_path("gff/thorn-2000.txt")
    )


def _crowd(units: int) -> Army:
    """``units`` squads of 5 (25mm bases): more than a narrow zone can hold."""
    squads = "\n".join(
        f'Squad {i} [5] Q4+ D5+ | 50pts\n5x Rifle (24", A1), 5x Knife (A1)\n' for i in range(units)
    )
    return parse_army(f"++ Crowd [GFF 1000pts] ++\n\n{squads}", "crowd")


def _deploy(
    system: str,
    a: Army,
    b: Army,
    *,
    seed: int = 1,
    table: Table | None = None,
    options: object = None,
) -> GameState:
    """Play a game up to the first activation (rules commanders), checking on the way that every
    packed spot offered passes the system's whole deployment check (the grid's spots are made
    by that check)."""
    rules = SYSTEMS[system]
    state: GameState = rules.new_game(a, b, seed=seed, table=table, options=options)
    commanders = [get_commander("rules", seed), get_commander("rules", seed + 1)]
    while state.round < 1 or state.phase in ("zone", "zones", "deploy", "scout", "objectives"):
        actions = rules.legal_actions(state)
        for act in actions:
            if act.kind is Kind.DEPLOY and act.to is not None and not _on_grid(act.to):
                us = state.units[act.unit]
                assert rules.deploy_problem(state, us, act.to, act.formation) is None, act
        rules.apply(state, commanders[state.active].choose(state, actions))
    return state


def _on_grid(point: tuple[float, float] | list[float]) -> bool:
    """The 4" grid's spots lie on half inches; packed spots stand 0.001" off the gaps."""
    return all(float(v * 2).is_integer() for v in point)


@pytest.mark.parametrize("system", ["gff", "riverside"])
def test_the_2000_point_lists_deploy_every_unit(system: str) -> None:
    """Two 2,000-point lists of 20 units: before issue 11, 6 (GFF) and 2 (Riverside) units found
    no room on the 4" grid although the zones had room; now all 40 deploy, some in deeper or
    wider ranks (``formation`` on the ``deploy`` event), and nothing is reported missing."""
    a, b = _large()
    state = _deploy(system, a, b)
    deployed = [e for e in state.log.events if e["kind"] == "deploy"]
    assert len(deployed) == 40
    assert not [e for e in state.log.events if e["kind"] == "no_room"]
    assert result_of(find_system(system), state, [get_commander("rules")] * 2, 0).not_deployed == ()
    assert not all(_on_grid(e["at"]) for e in deployed)  # packed spots were needed


def test_packed_spots_on_a_table_with_terrain_are_legal() -> None:
    """With terrain in the zones, packed spots are checked against it: every offered
    deployment passes ``deploy_problem`` (checked on the way by ``_deploy``)."""
    a, b = _large()
    state = _deploy("gff", a, b, seed=3, table=generate_table(3))
    assert (
        sum(e["kind"] == "deploy" for e in state.log.events)
        + sum(e["kind"] == "no_room" for e in state.log.events)
        == 40
    )


@pytest.mark.parametrize(
    ("system", "table", "units", "options"),
    [
        (
            "gff",
            Table(width=12.0, depth=48.0, objectives=((6.0, 24.0),)),
            12,
            parse_options("gff", ["edges=north-south"]),
        ),
        ("riverside", Table(width=18.0, depth=48.0), 14, None),
    ],
)
def test_a_unit_with_no_room_is_named_with_the_reason_and_not_counted_lost(
    system: str, table: Table, units: int, options: object
) -> None:
    """A zone 12" (GFF) or 18" (Riverside) wide cannot hold every squad: the units left out are
    in the log (``no_room`` with a reason), in the result (``not_deployed``, also in its JSON),
    their models are not in ``models_lost``, and the battle account names them."""
    crowd = _crowd(units)
    state = _deploy(system, crowd, crowd, table=table, options=options)
    result = result_of(find_system(system), state, [get_commander("rules")] * 2, 0)
    missing = result.not_deployed
    assert missing
    assert all(n.models == 5 and "no spot" in n.reason for n in missing)
    events = {e["unit"]: e for e in state.log.events if e["kind"] == "no_room"}
    assert set(events) == {n.unit for n in missing}
    assert all(events[n.unit]["reason"] == n.reason for n in missing)
    assert result.models_lost == (0, 0)  # nobody has fought yet; the missing are not casualties
    assert result.units_left == tuple(units - sum(n.side == s for n in missing) for s in (0, 1))
    assert result.to_json()["not_deployed"][0] == missing[0].to_json()
    out = io.StringIO()
    opr_account(Console(file=out, width=200), state, result)
    text = out.getvalue()
    for n in missing:
        assert f"{n.unit} {n.name} cannot deploy" in text
    assert f"{len(missing)} unit(s) found no room to deploy" in text


def test_gff_morale_counts_only_units_that_started() -> None:
    """Seed 003 "Morale": "at half or less of its starting units". A unit that never deployed
    never started: 9 squads on the table of 12 listed, with 4 destroyed, is 5 of 9 left, over
    half, so nobody tests (counting the 3 missing, 5 of 12 would be under half)."""
    crowd = _crowd(12)
    state = _deploy(
        "gff",
        crowd,
        crowd,
        table=Table(width=12.0, depth=48.0, objectives=((6.0, 24.0),)),
        options=parse_options("gff", ["edges=north-south"]),
    )
    side = next(s for s in (0, 1) if sum(u.side == s for u in _missing(state)) == 3)
    on_table = [u for u in state.side_units(side) if u.on_table]
    assert len(on_table) == 9
    for u in on_table[:4]:
        u.models = 0
    before = len(state.log.events)
    gff.morale(state, side, state.dice)
    assert not [e for e in state.log.events[before:] if e["kind"] == "morale"]


def _missing(state: GameState) -> list[UnitState]:
    return [state.units[uid] for uid in deploy_search.missing(state)]


@pytest.mark.parametrize("system", ["gff", "riverside"])
def test_a_formation_is_checked(system: str) -> None:
    """``Action.formation`` (models per rank) is only for deploying, between 1 and the unit's
    models, and (Riverside) must keep Unit Cohesion: a 10-model line is over 9" across."""
    rules = SYSTEMS[system]
    ten = parse_army(
        '++ Ten [GFF 200pts] ++\n\nLong Line [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)\n', "t"
    )
    state = rules.new_game(ten, ten, seed=2)
    while state.phase not in ("deploy",):
        rules.apply(state, rules.legal_actions(state)[0])
    us = rules._to_deploy(state, state.active)[0]
    x = state.table.width / 2
    y = 6.0 if (rules.deployment_zone(state, us.side)[1] <= 12.0) else state.table.depth - 6.0
    if system == "gff":
        box = gff.deployment_zone(state, us.side)
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    assert rules.deploy_problem(state, us, (x, y), 11) is not None
    assert rules.deploy_problem(state, us, (x, y), 5) is None
    if system == "riverside":
        assert "Cohesion" in str(rules.deploy_problem(state, us, (x, y), 10))
    with pytest.raises(Exception, match="only deploying takes a formation"):
        rules.apply(state, Action(Kind.HOLD, us.uid, formation=3))
