"""Which models a rule acts through (issue 10, defect 1): the table and each of its rows.

``oprlab.units.rule_scope.SCOPES`` says, for every rule the registry knows, whether it acts per
model (``1x Furious``: one Furious model), needs every model, or acts for the unit once any
model has it; docs/rules/README.md "Rules that some models have" holds the same table. Each
row is checked here on the code that reads it (the rules that act through weapons also in
``tests/rules/test_per_model_rules.py`` with the worked examples). Seeds: 003 (GFF "Special
Rules Reference"), 002 (Riverside), 000 (DOPR translations).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oprlab.game import gff
from oprlab.game.actions import Kind
from oprlab.game.activation import new_state
from oprlab.game.casting import caster_rating
from oprlab.rules.gff import melee as gff_melee
from oprlab.rules.gff.profile import attack_profiles, impact_dice
from oprlab.rules.gff.profile import defender_profile as gff_defender
from oprlab.rules.riverside.profile import defender_profile as riv_defender
from oprlab.rules.weapon_lines import lines
from oprlab.table.movement import MoveRules, unit_allowance
from oprlab.units.load import parse_army
from oprlab.units.model import Army, Unit
from oprlab.units.rule_scope import (
    SCOPES,
    WEAPON_ACTING,
    all_have,
    any_has,
    models_with,
    scope,
    unit_rule,
)
from oprlab.units.special_rules import known_rules

README = Path(__file__).resolve().parents[2] / "docs" / "rules" / "README.md"


def unit(head: str, weapons: str = "5x Knife (A1)") -> Unit:
    return parse_army(f"++ Test [GFF 150pts] ++\n\n{head}\n{weapons}\n", "test").units[0]


def squad(rules: str, size: int = 5, weapons: str = "5x Knife (A1)") -> Unit:
    return unit(f"Squad [{size}] Q4+ D4+ | 20pts | {rules}", weapons)


def test_the_table_covers_every_rule_the_registry_knows() -> None:
    assert sorted(SCOPES) == sorted(spec.name for spec in known_rules())
    assert all(scope(name) == "per_model" for name in WEAPON_ACTING)
    assert scope("furious") == "per_model" and scope("Banner") == "unit"


def test_the_docs_table_is_the_code_table() -> None:
    """docs/rules/README.md "Rules that some models have" lists the same scope for each rule."""
    text = README.read_text(encoding="utf-8").split("## Rules that some models have")[1]
    found: dict[str, str] = {}
    for names, kind in re.findall(r"^\| ([A-Z][^|]*?) \| (\w+) \|", text, flags=re.M):
        for name in names.split(", "):
            found[name] = kind
    assert found == SCOPES


def test_counts_name_the_models_that_have_a_rule() -> None:
    """``1x Furious`` in five is one model; no count is every model; a count over the size
    is every model."""
    assert models_with(squad("1x Furious"), "Furious") == 1
    assert models_with(squad("Furious"), "Furious") == 5
    assert models_with(squad("7x Furious"), "Furious") == 5
    assert models_with(squad("Fearless"), "Furious") == 0
    assert any_has(squad("1x Slow"), "Slow") and not all_have(squad("1x Slow"), "Slow")


# --- per_model --------------------------------------------------------------------------


@pytest.mark.parametrize("name", WEAPON_ACTING)
def test_rules_acting_through_weapons_split_the_lines(name: str) -> None:
    """Counter, Furious, Good Shot, Relentless, Shooty: "a model with ..." / "this model":
    one model of five has it, so one weapon of each line carries it."""
    split = lines(squad(f"1x {name}", weapons='5x Knife (A1), 5x Rifle (24", A1)'))
    assert [(w.name, w.count, w.has(name)) for w in split] == [
        ("Knife", 1, True),
        ("Knife", 4, False),
        ("Rifle", 1, True),
        ("Rifle", 4, False),
    ]
    assert not unit_rule(squad(f"1x {name}"), name) and unit_rule(squad(name), name)


def test_impact_is_x_dice_per_model_with_it() -> None:
    """seed 003 "Impact(X)": "Roll X dice": ``2x Impact(1)`` in five rolls 2, ``Impact(2)``
    in three rolls 6; of two striking models of five with ``2x Impact(1)``, one has it."""
    assert impact_dice(squad("2x Impact(1)")) == 2
    assert impact_dice(squad("Impact(2)", size=3, weapons="3x Knife (A1)")) == 6
    assert gff_melee.impact_dice_left(squad("2x Impact(1)"), 5, 2) == 1


def test_tough_is_every_models_rating() -> None:
    """seed 003 "Tough(X)": "This model"; oprlab's units are alike, so Tough(3) is every
    model's rating in both systems."""
    heavy = squad("Tough(3)", size=2, weapons="2x Knife (A1)")
    assert gff_defender(heavy).tough == 3 and riv_defender(heavy).tough == 3


def test_named_only_rules_have_a_scope_and_no_effect() -> None:
    """seed 002 names Take Down and Transport without rules; seed 000 translates Aircraft and
    Entrenched for the clock only: they have a row, and no profile reads them."""
    for name in ("Take Down", "Transport", "Aircraft", "Entrenched"):
        assert name in SCOPES
    plain, named = squad(""), squad("Take Down, Transport, Aircraft, Entrenched")
    assert attack_profiles(plain) == attack_profiles(named)


# --- all_models -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Regeneration", "Stealth"])
def test_regeneration_and_stealth_need_every_model(name: str) -> None:
    """seed 003 "Regeneration", "Stealth": "a unit where all models have this rule" (seed 002
    reads them as GFF)."""
    for build, field in ((gff_defender, name.lower()), (riv_defender, name.lower())):
        assert getattr(build(squad(name)), field)
        assert not getattr(build(squad(f"4x {name}")), field)


def test_fearless_needs_every_model() -> None:
    """seed 003 "Fearless": "When a unit where all models have this rule fails a morale test"."""
    assert unit_rule(squad("Fearless"), "Fearless")
    assert not unit_rule(squad("4x Fearless"), "Fearless")


def test_fast_flying_and_strider_need_every_model() -> None:
    """seed 003 "Fast", "Flying", "Strider": the unit moves together, so one model without
    the rule holds it back."""
    assert unit_allowance(squad("Fast"), "advance") == 8.0
    assert unit_allowance(squad("1x Fast"), "advance") == 6.0
    assert gff.move_allowance(squad("4x Fast"), Kind.RUSH) == 12.0
    assert MoveRules.of(squad("Flying, Strider")) == MoveRules(flying=True, strider=True)
    assert MoveRules.of(squad("1x Flying, 1x Strider")) == MoveRules()


def _reserve(rules: str) -> str | None:
    army = Army("Test", "GFF", 150, (squad(rules),))
    state = new_state(
        "gff",
        army,
        army,
        seed=0,
        mechanic="d6",
        table=None,
        rounds=4,
        log=False,
        rules=gff.GffRules(),
    )
    return state.units["A1"].reserve


def test_scout_ambush_and_teleport_need_every_model() -> None:
    """seed 003 "Scout", "Ambush" ("May be set aside"), seed 002 "Teleport" ("place this
    unit"): the unit is set aside or placed as one."""
    assert _reserve("Ambush") == "ambush" and _reserve("Scout") == "scout"
    assert _reserve("1x Ambush") is None and _reserve("2x Scout") is None
    assert unit_rule(squad("Teleport"), "Teleport")
    assert not unit_rule(squad("1x Teleport"), "Teleport")


# --- unit -------------------------------------------------------------------------------


def test_caster_hero_immobile_and_slow_act_for_the_unit() -> None:
    """seed 003 "Caster(X)", "Hero", "Immobile", "Slow": any model makes it the unit's (the
    unit holds the tokens, is led, cannot move, moves at its slowest model's pace)."""
    assert caster_rating(squad("1x Caster(2)")) == 2
    assert squad("1x Hero").hero
    assert unit_rule(squad("1x Immobile"), "Immobile")
    assert gff.move_allowance(squad("1x Slow"), Kind.ADVANCE) == 4.0


def test_fear_counts_once() -> None:
    """seed 003 "Fear(X)": read as the unit's +X on the wound-effect check, once."""
    att = squad("1x Fear(2)")
    x = gff_melee.start_exchange(att, squad(""))
    found = gff_melee.next_blow(x)
    assert found is not None and found[0].fear == 2


# --- weapon -----------------------------------------------------------------------------


def test_a_weapon_rule_acts_for_its_own_line() -> None:
    """seed 003 "AP(X)": "this weapon": the other line of the unit is unaffected."""
    profiles = attack_profiles(squad("", weapons="5x Knife (A1, AP(1)), 5x Club (A1)"))
    assert [(p.name, p.ap) for p in profiles] == [("Knife", 1), ("Club", 0)]


# --- remembered -------------------------------------------------------------------------


def test_unit_rule_is_remembered_by_the_unit_and_the_name_as_asked() -> None:
    """A game asks a few rules of its units thousands of times: the answer is kept by the
    unit's identity (the entry holds it) and the name as asked, and an equal unit read from
    the same text, or the name in another case, gets the same answer."""
    from oprlab.units import rule_scope

    fast, also = squad("Fast"), squad("Fast")
    assert fast is not also
    assert unit_rule(fast, "Fast") and unit_rule(fast, "fast") and unit_rule(also, "FAST")
    assert rule_scope._UNIT_RULE[(id(fast), "Fast")] == (fast, True)
    assert rule_scope._UNIT_RULE[(id(fast), "fast")] == (fast, True)
    slow = squad("4x Slow")
    assert unit_rule(slow, "Slow") and not unit_rule(slow, "Fast")
    assert rule_scope._UNIT_RULE[(id(slow), "Fast")] == (slow, False)
