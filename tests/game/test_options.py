"""Rule options from KEY=VALUE text (`oprlab battle --rules-option`), for every system: the
keys are the fields of the system's own ``readings`` class."""

from __future__ import annotations

import pytest

from oprlab.errors import UserError
from oprlab.game.gff_setup import GffOptions
from oprlab.game.options import parse_options, settable
from oprlab.game.play import play_game
from oprlab.game.riverside import RiversideOptions
from oprlab.game.systems import find_system
from oprlab.game.wwpd import GameOptions
from oprlab.players import get_commander
from tests.game import line


def test_no_pairs_means_the_defaults() -> None:
    assert parse_options("gff", []) is None
    gff = settable("gff")
    assert {"edges": "all", "dangerous": "once", "special_moves": False}.items() <= gff.items()
    assert gff == {f: getattr(GffOptions(), f) for f in gff}  # the defaults are the class's
    assert set(settable("riverside")) == {
        "winner_takes",
        "ambush_round",
        "strike_back",
        "tie",
        "impact",
        "stuck_markers",
        "roll_off_winner",
    }


def test_values_are_converted_to_each_option_type() -> None:
    got = parse_options("gff", ["edges=north-south", "special-moves=yes", "dangerous=twice"])
    assert got == GffOptions(edges="north-south", dangerous="twice", special_moves=True)
    got = parse_options("riverside", ["ambush_round=3", "strike_back=false", "tie=both"])
    assert got == RiversideOptions(ambush_round=3, strike_back=False, tie="both")
    got = parse_options("wwpd", ["rounds=3", "pinning=off", "cowering=no", "move=5.5"])
    assert got == GameOptions(rounds=3, pinning="off", cowering=False, move=5.5)


def test_the_keys_are_the_systems_readings() -> None:
    """Nothing lists options by system name: each system's ``readings`` class is the list."""
    for name in ("gff", "riverside", "wwpd"):
        rules = find_system(name)
        assert settable(rules) == settable(name)
        assert set(settable(name)) <= {f for f in rules.readings.__dataclass_fields__}
    assert "attack" not in settable("wwpd")  # nested readings are not KEY=VALUE


@pytest.mark.parametrize(
    ("system", "pairs", "message"),
    [
        ("gff", ["edges"], "KEY=VALUE"),
        ("gff", ["=all"], "KEY=VALUE"),
        ("gff", ["edge=all"], "unknown gff rule option"),
        ("gff", ["edges=all", "edges=all"], "given twice"),
        ("gff", ["edges=diagonal"], "edges"),
        ("gff", ["special_moves=perhaps"], "yes/no"),
        ("riverside", ["ambush_round=soon"], "not a number"),
        ("riverside", ["ambush_round=7"], "rounds 2-4"),
        ("riverside", ["tie=coin"], "value not allowed"),
        ("riverside", ["readings=x"], "unknown riverside rule option"),
        ("wwpd", ["x=1"], "unknown wwpd rule option"),
        ("wwpd", ["pinning=sometimes"], "value not allowed"),
        ("dq", ["x=1"], "no full-game procedure"),
        ("chess", ["x=1"], "unknown rule system"),
    ],
)
def test_bad_options_name_the_value_and_what_is_allowed(
    system: str, pairs: list[str], message: str
) -> None:
    with pytest.raises(UserError, match=message) as err:
        parse_options(system, pairs)
    assert err.value.expected  # says what would be right


def test_a_game_plays_under_its_options_and_reports_them() -> None:
    """GFF "Deployment" 1 read as north/south only: the edge decision offers two edges."""
    options = parse_options("gff", ["edges=north-south"])
    commanders = [get_commander("random", 1), get_commander("random", 2)]
    result, state = play_game(line(), line(), commanders, seed=4, options=options)
    assert dict(result.rule_options)["edges"] == "north-south"
    assert result.rules_version.startswith("003_")
    (zone,) = state.log.of_kind("zone")
    assert zone["edge"] in ("north", "south") and set(zone["edges"]) == {"north", "south"}


def test_docs_list_every_option_with_its_default_first() -> None:
    """docs/rules/README.md "Choosing a reading" stays true to the options classes."""
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "rules" / "README.md").read_text("utf-8")
    for system in ("gff", "riverside", "wwpd"):
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{system}` |"))
        for key, default in settable(system).items():
            shown = str(default).lower() if isinstance(default, bool) else str(default)
            assert f"`{key}={shown}" in row, (system, key)
