"""Points efficiency: figures per 100 points against hand-computed odds, scaling with cost,
the standard targets, and the ranking."""

from __future__ import annotations

from dataclasses import replace

import pytest

from oprlab.analysis.efficiency import (
    STANDARD_TARGETS,
    check_cost,
    distinct_units,
    efficiency_report,
    per_100,
    rank_units,
    standard_target,
    unit_efficiency,
)
from oprlab.analysis.odds import Situation
from oprlab.analysis.swing import clock_start_odds
from oprlab.errors import OptionError, UnknownNameError
from oprlab.units.model import Unit, Weapon

#: One model, Q4+, two plain attacks both ranged and in melee; 50 points.
GUNNER = Unit(
    "Test Gunner",
    1,
    4,
    4,
    cost=50,
    weapons=(Weapon("Carbine", 2, range=18), Weapon("Knife", 2)),
)
BRAWLER = Unit("Test Brawler", 1, 4, 4, cost=25, weapons=(Weapon("Club", 2),))


def test_standard_targets_are_the_documented_profiles() -> None:
    profiles = {(u.name, u.size, u.defense, u.tough) for u in STANDARD_TARGETS}
    assert profiles == {
        ("Light infantry", 5, 5, 1),
        ("Line infantry", 5, 4, 1),
        ("Elite", 3, 3, 1),
        ("Monster", 1, 3, 6),
        ("Horde", 10, 6, 1),
    }
    assert standard_target("  monster ").tough == 6
    with pytest.raises(UnknownNameError, match="Horde"):
        standard_target("Dragon")


def test_per_100() -> None:
    assert per_100(0.5, 50) == pytest.approx(1.0)
    assert per_100(3.0, 300) == pytest.approx(1.0)
    with pytest.raises(OptionError, match="no points cost"):
        per_100(1.0, 0, "Free Unit")
    with pytest.raises(OptionError):
        check_cost(replace(GUNNER, cost=0))


def test_expected_wounds_by_hand() -> None:
    """Two Q4+ shots at Line infantry (4+): 2 x 1/2 x 1/2 = 1/2 wound, per 100 pts at 50 pts:
    1. At the Monster (3+, Tough(6)): 2 x 1/2 x 1/3 = 1/3 wound, and never destroyed."""
    line = unit_efficiency(GUNNER, standard_target("Line infantry"), mode="shooting")
    assert line is not None
    assert line.wounds == pytest.approx(0.5)
    assert line.wounds_per_100 == pytest.approx(1.0)
    assert line.p_destroyed == 0.0
    monster = unit_efficiency(GUNNER, standard_target("Monster"), mode="shooting")
    assert monster is not None
    assert monster.wounds == pytest.approx(1 / 3)
    assert monster.p_destroyed_per_100 == 0.0


def test_doubling_the_cost_halves_every_figure() -> None:
    elite = standard_target("Elite")
    for mode in ("shooting", "melee"):
        cheap = unit_efficiency(GUNNER, elite, mode=mode)
        dear = unit_efficiency(replace(GUNNER, cost=2 * GUNNER.cost), elite, mode=mode)
        assert cheap is not None and dear is not None
        assert dear.wounds == cheap.wounds and dear.p_destroyed == cheap.p_destroyed
        assert dear.wounds_per_100 == pytest.approx(cheap.wounds_per_100 / 2)
        assert dear.p_destroyed_per_100 == pytest.approx(cheap.p_destroyed_per_100 / 2)


def test_a_unit_that_cannot_shoot_is_none_and_ranks_last() -> None:
    assert unit_efficiency(BRAWLER, STANDARD_TARGETS[0], mode="shooting") is None
    report = efficiency_report([BRAWLER, GUNNER])
    shooting = report.rankings["shooting"]
    assert [r.unit.name for r in shooting] == ["Test Gunner", "Test Brawler"]
    assert not shooting[1].can_attack and shooting[1].mean_wounds_per_100 == 0.0
    # In melee the brawler has the same attacks for half the points: it ranks first.
    melee = report.rankings["melee"]
    assert [r.unit.name for r in melee] == ["Test Brawler", "Test Gunner"]
    assert melee[0].mean_wounds_per_100 == pytest.approx(2 * melee[1].mean_wounds_per_100)
    assert [r.rank for r in melee] == [1, 2]


def test_out_of_range_counts_as_cannot_attack() -> None:
    assert unit_efficiency(GUNNER, STANDARD_TARGETS[0], mode="shooting", distance=24) is None


def test_mean_is_over_the_targets() -> None:
    report = efficiency_report([GUNNER])
    (row,) = report.rankings["shooting"]
    per_target = [e.wounds_per_100 for e in row.by_target if e is not None]
    assert len(per_target) == len(STANDARD_TARGETS)
    assert row.mean_wounds_per_100 == pytest.approx(sum(per_target) / len(per_target))


def test_rank_breaks_ties_by_p_destroyed_then_name() -> None:
    twin = replace(GUNNER, name="Test Gunner B")
    ranked = rank_units(
        [(twin, (None,)), (GUNNER, (None,))],
    )
    assert [r.unit.name for r in ranked] == ["Test Gunner", "Test Gunner B"]


def test_copies_are_ranked_once() -> None:
    copy = replace(GUNNER, uid="second-copy")
    assert distinct_units([GUNNER, copy, BRAWLER]) == (GUNNER, BRAWLER)


def test_report_json_shape() -> None:
    data = efficiency_report([GUNNER], [standard_target("Horde")], distance=6).to_json()
    assert set(data) == {"system", "mechanic", "range", "targets", "shooting", "melee"}
    assert data["range"] == 6 and data["targets"][0]["name"] == "Horde"
    row = data["shooting"][0]
    assert set(row) == {
        "rank",
        "unit",
        "cost",
        "can_attack",
        "mean_wounds_per_100",
        "mean_p_destroyed_per_100",
        "targets",
    }
    assert set(row["targets"][0]) == {
        "target",
        "weapons",
        "wounds",
        "p_destroyed",
        "wounds_per_100",
        "p_destroyed_per_100",
    }


def test_report_refuses_empty_input() -> None:
    with pytest.raises(OptionError):
        efficiency_report([])
    with pytest.raises(OptionError):
        efficiency_report([GUNNER], [])
    with pytest.raises(OptionError):
        efficiency_report([GUNNER], distance=-1)


def test_clock_random_is_exact_over_starts() -> None:
    """A random-start clock has no single outcome; the figure mixes the 36 start pairs."""
    line = standard_target("Line infantry")
    report = efficiency_report([GUNNER], [line], mechanic="clock-random", modes=["shooting"])
    (row,) = report.rankings["shooting"]
    (eff,) = row.by_target
    mixed = clock_start_odds(GUNNER, line, situation=Situation(distance=12.0)).result
    assert eff is not None and eff.wounds == pytest.approx(mixed.wounds.mean)
    assert set(report.rankings) == {"shooting"}
