"""House rules (``oprlab.game.house``): each shipped rule's clause, computed by hand from the
text it reads, through exact odds, sampling and the game's own hooks; and how
``find_system("gff+...")`` composes, names and refuses them (docs/rules/house.md)."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import oprlab
from oprlab.analysis.odds import Distribution, Situation, attack_odds
from oprlab.errors import OptionError, UnknownNameError
from oprlab.game import gff, gff_losses
from oprlab.game.opr.hooks import opr_rules
from oprlab.game.state import GameState, Objective, UnitState
from oprlab.game.systems import find_system
from oprlab.rng import commander_stream
from oprlab.rules.gff.attack import HOOKS
from oprlab.rules.gff.resolve import AttackResult
from oprlab.table.model import Placement
from oprlab.units.model import Rule, Unit, Weapon


def _unit(name: str, q: int, d: int, weapons: tuple[Weapon, ...] = (), *rules: Rule) -> Unit:
    return Unit(name, 1, q, d, rules=(Rule("Tough", 3), *rules), weapons=weapons)


def _p1(system: str, attacker: Unit, defender: Unit, s: Situation, what: str = "wounds") -> float:
    """P(exactly 1) of one attack die's hits or wounds (a Tough(3) target: no casualty)."""
    count: Distribution = getattr(attack_odds(attacker, defender, system=system, situation=s), what)
    return count.pmf[1]


CLAWS = _unit("Claws", 4, 4, (Weapon("Claw", 1, rules=(Rule("Rending"),)),))
BITE = _unit("Bite", 4, 4, (Weapon("Bite", 1),))
TROLL = _unit("Troll", 4, 4, (), Rule("Regeneration"))
MELEE = Situation(melee=True)


def test_dopr_rending_adds_one_to_regeneration_instead_of_ignoring_it() -> None:
    """seed 000 'Other Rules / Rending': "must add 1 to their Regeneration checks"; seed 003
    'Rending': "Ignores Regeneration". Q4+ A1 Rending at D4+ Regeneration, by hand: a 4 or 5
    hits (AP 0, a wound on 1-3: 1/2), a 6 hits with AP(4) (only a 6 blocks: 5/6), so
    2/6 * 1/2 + 1/6 * 5/6 = 11/36 wounds; GFF ignores Regeneration, DOPR keeps a wound on a
    failed 6+ (5/6): 55/216. A weapon without Rending regenerates on 5+ under both."""
    assert _p1("gff", CLAWS, TROLL, MELEE) == pytest.approx(float(Fraction(11, 36)))
    assert _p1("gff+dopr", CLAWS, TROLL, MELEE) == pytest.approx(float(Fraction(55, 216)))
    plain = float(Fraction(3, 6) * Fraction(1, 2) * Fraction(2, 3))
    assert _p1("gff", BITE, TROLL, MELEE) == _p1("gff+dopr", BITE, TROLL, MELEE)
    assert _p1("gff+dopr", BITE, TROLL, MELEE) == pytest.approx(plain)


def test_dopr_rending_reaches_sampling() -> None:
    """seed 000 'Rending': Monte Carlo (the adapter's resolver) rolls the same clause: 8,000
    attacks land within four standard errors of 55/216, far from GFF's 11/36."""
    r = attack_odds(CLAWS, TROLL, system="gff+dopr", situation=MELEE, samples=8000, seed=5)
    p = float(Fraction(55, 216))
    assert abs(r.wounds.mean - p) < 4 * np.sqrt(p * (1 - p) / 8000)


def test_dopr_stealth_acts_from_over_twelve_inches() -> None:
    """seed 000 'Stealth': "from more than 12" away must add 1"; seed 003 'Stealth': "shot from
    over 9" away, -1 to hit". Q4+ at a Stealth unit: at 10" GFF hits on 5+ (2/6), DOPR on 4+
    (3/6); at 13" both on 5+; at 6" both on 4+."""
    gun = _unit("Gun", 4, 4, (Weapon("Rifle", 1, range=24),))
    sneak = _unit("Sneak", 4, 6, (), Rule("Stealth"))
    cases = ((10.0, 2 / 6, 3 / 6), (13.0, 2 / 6, 2 / 6), (6.0, 3 / 6, 3 / 6))
    for distance, gff_p, dopr_p in cases:
        s = Situation(distance=distance)
        assert _p1("gff", gun, sneak, s, "hits") == pytest.approx(gff_p)
        assert _p1("gff+dopr", gun, sneak, s, "hits") == pytest.approx(dopr_p)


def test_heavy_cover_doubles_the_cover_bonus() -> None:
    """Ours, over seed 003 'Cover Terrain' ("+1 to Defense rolls when blocking hits from
    shooting"): Q4+ at D4+ in cover: GFF blocks on 3+ (a wound 1/2 * 1/3 = 1/6), heavy cover
    on 2+ (a 1 always fails: 1/2 * 1/6 = 1/12); out of cover both 1/2 * 1/2."""
    gun = _unit("Gun", 4, 4, (Weapon("Rifle", 1, range=24),))
    covered, open_ = Situation(distance=6.0, cover=True), Situation(distance=6.0)
    assert _p1("gff", gun, BITE, covered) == pytest.approx(1 / 6)
    assert _p1("gff+heavy_cover", gun, BITE, covered) == pytest.approx(1 / 12)
    assert _p1("gff+heavy_cover", gun, BITE, open_) == pytest.approx(1 / 4)


def test_fortifications_odds_take_the_defender_as_fortified() -> None:
    """seed 003 design notes 'Racket Mechanical Hooks' (Fortifications = cover-like bonus): the
    odds of a shot at a fortified unit are those of a shot at a unit in cover (1/6 above);
    melee is unchanged."""
    gun = _unit("Gun", 4, 4, (Weapon("Rifle", 1, range=24),))
    assert _p1("gff+fortifications", gun, BITE, Situation(distance=6.0)) == pytest.approx(1 / 6)
    assert _p1("gff+fortifications", BITE, BITE, MELEE) == _p1("gff", BITE, BITE, MELEE)


def test_fortifications_on_riverside_odds() -> None:
    """seed 002 'Cover' (+1 to Defense against ranged attacks) for a fortified unit: Q4+ at
    D4+ hits 1/2 and wounds on a failed 3+ (1/3): 1/6, against 1/2 x 1/2 in the open."""
    gun = _unit("Gun", 4, 4, (Weapon("Rifle", 1, range=24),))
    s = Situation(distance=6.0)
    assert _p1("riverside", gun, BITE, s) == pytest.approx(1 / 4)
    assert _p1("riverside+fortifications", gun, BITE, s) == pytest.approx(1 / 6)


def _game(system: str) -> GameState:
    a, b = oprlab.load_army("gff/shooty-150"), oprlab.load_army("gff/melee-150")
    state = find_system(system).new_game(a, b, seed=4)
    assert isinstance(state, GameState)
    return state


def _stand(us: UnitState, x: float, y: float) -> None:
    us.placement = Placement(np.array([[x, y]] * us.models), np.full(us.models, 0.5))


def test_fortifications_hook_needs_a_marker_its_side_holds() -> None:
    """seed 003 design notes (Fortifications), our reading: within 3" of a marker its side
    controls, a unit counts as in cover against shooting."""
    state = _game("gff+fortifications")
    rules, us = opr_rules(state), state.units["B1"]
    state.objectives = [Objective((24.0, 24.0), controller=1)]
    _stand(us, 25.0, 24.0)
    assert rules.fortified(state, us)
    state.objectives = [Objective((24.0, 24.0), controller=0)]
    assert not rules.fortified(state, us)
    state.objectives = [Objective((24.0, 24.0), controller=1)]
    _stand(us, 24.0, 40.0)
    assert not rules.fortified(state, us)
    assert not find_system("gff").rules.fortified(state, us)  # type: ignore[attr-defined]


def test_safe_house_ignores_a_shaken_wound_effect_at_home() -> None:
    """seed 003 design notes (Safe House = ignore wound effects), our reading: a unit mostly in
    its own deployment zone is not Shaken by a wound effect roll; elsewhere it is (seed 003
    'Wound Effects': 1-5 Shaken)."""
    shaken = AttackResult(hits=1, wounds=1, casualties=0, destroyed=False, shaken=True, markers=1)
    for system, x_y, expect in (
        ("gff+safe_house", None, False),
        ("gff+safe_house", (24.0, 24.0), True),
        ("gff", None, True),
    ):
        state = _game(system)
        us, by = state.units["A1"], state.units["B1"]
        x0, y0, x1, y1 = gff.deployment_zone(state, us.side)
        _stand(us, *(x_y or ((x0 + x1) / 2, (y0 + y1) / 2)))
        gff_losses._apply_result(state, us, shaken, by)
        assert us.shaken is expect, system


def test_smuggling_route_sets_the_first_unit_aside_for_ambush() -> None:
    """seed 003 design notes (Smuggling Route = Ambush-like), our reading: each army's first
    unit that is not a Hero and has neither Ambush nor Scout arrives as by Ambush (seed 003
    'Ambush')."""
    plain, smuggled = _game("gff"), _game("gff+smuggling_route")
    for side in (0, 1):
        first = next(u for u in smuggled.side_units(side) if "Hero" not in str(u.unit.rules))
        assert first.reserve == "ambush"
        assert plain.units[first.uid].reserve is None
    assert [e["unit"] for e in smuggled.log.events if e["kind"] == "smuggled"] == ["A2", "B2"]


def test_a_composed_system_names_and_versions_each_rule() -> None:
    """The name and version record each house rule and its version, in the order named; the
    game and the odds roll one composed set of dice clauses; the system's own stay as they were."""
    system = find_system("GFF+dopr+heavy_cover")
    assert system.name == "gff+dopr+heavy_cover"
    assert system.version == find_system("gff").version + " +dopr 1 +heavy_cover 1"
    rules = system.rules  # type: ignore[attr-defined]
    assert isinstance(rules, gff.GffRules) and rules.name == system.name
    assert rules.version == system.version
    assert rules.attack_hooks is system.attack.hooks is not HOOKS
    assert find_system("gff").attack.hooks is HOOKS
    assert find_system("gff+dopr+heavy_cover") is system
    assert pickle.loads(pickle.dumps(rules)) is rules


@pytest.mark.parametrize(
    ("name", "error", "words"),
    [
        ("gff+nope", UnknownNameError, "unknown house rule"),
        ("riverside+dopr", OptionError, "house rule dopr does not apply to riverside"),
        ("wwpd+dopr", OptionError, "wwpd takes no house rules"),
        ("gff+dopr+dopr", OptionError, "named twice"),
        ("nope+dopr", UnknownNameError, "unknown rule system"),
        ("nope", UnknownNameError, "+HOUSE_RULE (dopr, fortifications"),
    ],
)
def test_a_bad_name_gets_one_line_naming_what_exists(
    name: str, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as raised:
        find_system(name)
    assert words in str(raised.value) and "\n" not in str(raised.value)


def test_battle_with_an_unknown_house_rule_is_one_line_and_exit_2() -> None:
    from oprlab.cli import app

    result = CliRunner().invoke(
        app, ["battle", "gff/shooty-150", "gff/melee-150", "--system", "gff+nope"]
    )
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "fortifications" in lines[0]


def test_battle_stores_a_house_rule_game_that_replays(tmp_path: Path) -> None:
    """`oprlab battle A B --system gff+fortifications --out FILE` stores the game under the
    composed name and version; the stored row's system and seed play the same game again."""
    from oprlab.analysis.results import load_results
    from oprlab.cli import app

    out = tmp_path / "r.duckdb"
    args = ["battle", "gff/shooty-150", "gff/melee-150", "--seed", "5", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--system", "gff+fortifications"])
    assert result.exit_code == 0, result.output
    (row,) = load_results(out)
    assert row["system"] == "gff+fortifications"
    assert row["rules_version"].endswith("+fortifications 1")
    a, b = oprlab.load_army("gff/shooty-150"), oprlab.load_army("gff/melee-150")
    seed = row["seed"]
    players = [oprlab.get_commander("rules", commander_stream(seed, side)) for side in (0, 1)]
    again, _ = oprlab.play_game(a, b, players, seed=seed, system=row["system"])
    assert (again.winner, again.objectives) == (
        row["winner"],
        (row["objectives_a"], row["objectives_b"]),
    )
    assert again.decisions == row["decisions"]


def test_odds_shows_the_dopr_translation() -> None:
    """`oprlab odds ... --system gff+dopr`: the Briar Chieftain's Rending maul against the
    Vigil Paragon's Regeneration (seed 000 'Rending'): Q3+ A3 AP(2), D3+: a 3-5 hits at AP(2)
    (a wound on a failed 5+: 2/3), a 6 at AP(6) (5/6); 3 x (3/6 x 2/3 + 1/6 x 5/6) = 17/12
    wounds under GFF, 17/12 x 5/6 = 85/72 when Regeneration is rolled on 6+."""
    from oprlab.cli import app

    means = {}
    for system in ("gff", "gff+dopr"):
        args = ["odds", "gff/melee-150:Briar Chieftain", "gff/elite-150:Vigil Paragon"]
        result = CliRunner().invoke(app, [*args, "--melee", "--json", "--system", system])
        assert result.exit_code == 0, result.output
        found = json.loads(result.stdout)
        assert found["system"] == system
        means[system] = found["wounds"]["mean"]
    assert means["gff"] == pytest.approx(17 / 12)
    assert means["gff+dopr"] == pytest.approx(85 / 72)
