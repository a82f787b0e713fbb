"""Armies that cannot deploy are refused at the start (issue 6 "Bad input": "armies that cannot
deploy"; seed 003_8abb008d4113ed75 "Deployment" 3: units deploy "within 12"" of their edge;
seed 002_fdb385c07cc953af deployment zones for Riverside)."""

from __future__ import annotations

import pytest

from oprlab.errors import UserError
from oprlab.game import gff, riverside
from oprlab.game.gff_setup import GffOptions
from oprlab.table.model import Table
from tests.game import army, line

#: An invented unit of 60 models: rows of 5, twelve rows deep (far more than 12").
HORDE = """++ Test Horde [GFF 600pts] ++

Endless Swarm [60] Q5+ D6+ | 300pts
60x Claw (A1)
"""


def test_gff_refuses_a_unit_deeper_than_its_zone_and_says_what_would_fit() -> None:
    """seed 003 "Deployment" 3: a unit too deep for a 12" zone on an empty table is refused
    with the army, the unit, its size and the zone's, and what would be right."""
    with pytest.raises(UserError) as err:
        gff.new_game(line(), army(HORDE), seed=0)
    text = str(err.value)
    assert "army 2: army 'Test Horde'" in text and "Endless Swarm" in text
    assert "60 models" in text and "frontage" in text
    assert '48.0" long and 12.0" deep' in text and "deployment zone" in text
    assert err.value.expected is not None
    assert "bigger table" in err.value.expected and "fewer models" in err.value.expected


def test_gff_refuses_a_unit_wider_than_a_small_table() -> None:
    """A 3-model Rifle Squad (about 4" wide) on a 3" table fits no zone (army 1 named)."""
    with pytest.raises(UserError, match="army 1"):
        gff.new_game(
            line(), line(), seed=0, table=Table(width=3.0, depth=3.0, deployment_depth=3.0)
        )


def test_gff_checks_only_the_edges_the_options_allow() -> None:
    """On a 48" x 3" table with 2" zones a Rifle Squad (about 4" by 1") fits the north and
    south zones (48" x 2") but not the east and west ones (2" x 3"): refused when any edge
    may be given (``edges="all"``), accepted under ``edges="north-south"``."""
    table = Table(width=48.0, depth=3.0, deployment_depth=2.0)
    with pytest.raises(
        UserError, match=r'the west deployment zone is only 3\.0" long and 2\.0" deep'
    ):
        gff.new_game(line(), line(), seed=0, table=table)
    gff.new_game(line(), line(), seed=0, table=table, options=GffOptions(edges="north-south"))


def test_riverside_refuses_a_unit_deeper_than_its_zone() -> None:
    """seed 002 deployment: the same check for Riverside games (its wider ranks stand the
    swarm about 12" by 11.3": refused in 6" zones)."""
    with pytest.raises(UserError, match=r"army 1: army 'Test Horde'.*Endless Swarm"):
        riverside.new_game(army(HORDE), line(), seed=0, table=Table(deployment_depth=6.0))


def test_units_that_fit_still_play() -> None:
    """The ordinary armies pass the check (crowding is still a ``no_room`` during play)."""
    gff.new_game(line(), line(), seed=0)
    riverside.new_game(line(), line(), seed=0)


def test_scout_and_ambush_units_are_measured_against_where_they_may_stand() -> None:
    """seed 003 Scout deploys "within 12"" beyond its zone (24" deep) and Ambush anywhere: a
    swarm 17" deep is refused as a plain unit but plays as a Scout or from Ambush."""
    gff.new_game(line(), army(HORDE.replace("| 300pts", "| 300pts | Scout")), seed=0)
    gff.new_game(line(), army(HORDE.replace("| 300pts", "| 300pts | Ambush")), seed=0)
