"""A third party's house rule, written here and nowhere in the package: it joins through the
entry point group ``oprlab.house_rules`` (docs/contributing.md), plays full games, shows in
exact odds, and is named with its version in results."""

from __future__ import annotations

from dataclasses import replace
from importlib import metadata

import pytest

import oprlab
from oprlab.analysis.odds import Situation, attack_odds
from oprlab.errors import OptionError
from oprlab.game.house import ENTRY_POINTS, HouseRule, house_rule_names
from oprlab.game.systems import find_system
from oprlab.mechanics.base import Check
from oprlab.rules.gff.attack import Situation as GffSituation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.units.model import Rule, Unit, Weapon


class SharpshooterDice:
    """Every shot gets +1 to hit (a made-up house rule: not from any seed)."""

    def hit_check(self, p: AttackProfile, s: GffSituation, d: DefenderProfile) -> Check:
        check: Check = super().hit_check(p, s, d)  # type: ignore[misc]
        return check if s.melee else replace(check, modifier=check.modifier + 1)


class Sharpshooters(HouseRule):
    name = "sharpshooters"
    version = "7"
    applies_to = ("gff",)
    doc = "Shooting gets +1 to hit."
    dice = SharpshooterDice


class NotARule:
    name = "bogus"


def _points(*names: str) -> list[metadata.EntryPoint]:
    return [
        metadata.EntryPoint(name=n, value=f"{__name__}:{cls}", group=ENTRY_POINTS)
        for n, cls in (("sharpshooters", "Sharpshooters"), ("bogus", "NotARule"))
        if n in names
    ]


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if a package declared ``[project.entry-points."oprlab.house_rules"]``."""

    def entry_points(*, group: str) -> list[metadata.EntryPoint]:
        return _points("sharpshooters", "bogus") if group == ENTRY_POINTS else []

    monkeypatch.setattr(metadata, "entry_points", entry_points)  # house reads it when asked


def test_an_installed_house_rule_is_found_and_changes_the_odds(installed: None) -> None:
    """Seed 003 'Shooting' (one quality test per attack), plus the rule's +1: Q5+ hits on 4+
    (3/6 instead of 2/6)."""
    assert "sharpshooters" in house_rule_names()
    gun = Unit("Gun", 1, 5, 4, weapons=(Weapon("Rifle", 1, range=24),), rules=(Rule("Tough", 3),))
    target = Unit("Target", 1, 4, 4, rules=(Rule("Tough", 3),))
    s = Situation(distance=6.0)
    assert attack_odds(gun, target, system="gff", situation=s).hits.pmf[1] == pytest.approx(2 / 6)
    odds = attack_odds(gun, target, system="gff+sharpshooters", situation=s)
    assert odds.hits.pmf[1] == pytest.approx(3 / 6)


def test_an_installed_house_rule_plays_and_is_recorded(installed: None) -> None:
    """A full game under it: the result names the rule and its version, and replays."""
    system = find_system("gff+sharpshooters")
    a, b = oprlab.load_army("gff/shooty-150"), oprlab.load_army("gff/melee-150")
    games = [
        oprlab.play_game(
            a, b, [oprlab.get_commander("rules", s) for s in (1, 2)], seed=9, system=system
        )
        for _ in range(2)
    ]
    (result, state), (again, state2) = games
    assert result.system == "gff+sharpshooters"
    assert result.rules_version.endswith("+sharpshooters 7")
    assert result == again and state.log.events == state2.log.events


def test_an_entry_point_that_is_no_house_rule_is_one_line(installed: None) -> None:
    with pytest.raises(OptionError, match="not a house rule"):
        find_system("gff+bogus")
