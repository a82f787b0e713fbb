"""Reading units and weapons into GFF attack and defender profiles (seed 003_8abb008d4113ed75
"Special Rules Reference": which rules sit on weapons, which on models, which need all models)."""

from __future__ import annotations

from oprlab.rules.gff import profile as prof
from oprlab.rules.gff.profile import AttackProfile, attack_profile, defender_profile
from oprlab.rules.weapon_lines import lines
from oprlab.samples import sample_path
from oprlab.units.load import load_army
from oprlab.units.model import Rule, Unit, Weapon

RIFLE = Weapon(
    "Rifle",
    attacks=2,
    range=24,
    count=3,
    rules=(Rule("AP", 1), Rule("Blast", 3), Rule("Deadly", 2), Rule("Rending"), Rule("Bane")),
)
BLADE = Weapon("Blade", attacks=1, count=2, rules=(Rule("Thrust"), Rule("Surge")))


def test_weapon_rules_and_attack_dice() -> None:
    """seed 003 "Shooting": one quality test per attack: dice = weapons x attacks; AP(X),
    Blast(X), Deadly(X), Rending and Bane come from the weapon."""
    unit = Unit("Squad", 3, 4, 5, weapons=(RIFLE,))
    p = attack_profile(unit, RIFLE)
    assert (p.dice, p.quality, p.melee, p.range) == (6, 4, False, 24)
    assert (p.ap, p.blast, p.deadly, p.rending, p.bane) == (1, 3, 2, True, True)
    assert p.ignores_regeneration
    blade = attack_profile(unit, BLADE)
    assert (blade.dice, blade.melee, blade.thrust, blade.surge, blade.ap) == (
        2,
        True,
        True,
        True,
        0,
    )


def test_unit_rules_that_act_through_weapons() -> None:
    """seed 003 "Furious" and "Relentless" are model rules that act on the model's attacks."""
    unit = Unit(
        "Pack", 2, 4, 5, rules=(Rule("Furious", count=2), Rule("Relentless")), weapons=(BLADE,)
    )
    p = attack_profile(unit, BLADE)
    assert (p.furious, p.relentless) == (True, True)
    assert not attack_profile(Unit("Plain", 2, 4, 5), BLADE).furious


def test_plain_weapon_has_no_special_rules() -> None:
    """Unrated rules default to no effect: Blast and Deadly multiply by 1."""
    p = attack_profile(Unit("U", 1, 5, 5), Weapon("Fists", 1))
    assert p == AttackProfile("Fists", dice=1, quality=5, melee=True)
    assert not p.ignores_regeneration


def test_defender_profile_reads_unit_and_condition() -> None:
    """seed 003 "Tough(X)", "Regeneration" and "Stealth" (all models), with the unit's current
    models, markers and Shaken state."""
    unit = Unit(
        "Brutes", 3, 4, 3, rules=(Rule("Tough", 3), Rule("Regeneration"), Rule("Stealth", count=2))
    )
    d = defender_profile(unit, models=2, markers=1, shaken=True)
    assert (d.defense, d.models, d.tough, d.markers, d.shaken) == (3, 2, 3, 1, True)
    assert d.regeneration and not d.stealth
    assert defender_profile(unit).models == 3
    assert defender_profile(unit).blast_models == 3


def test_profiles_are_read_once_per_unit_and_line() -> None:
    """attack_profile remembers each (unit, weapon line) by identity (issue 13: the commanders'
    estimates ask for the same lines again and again): the remembered profile is the one a
    fresh reading gives, for every line of the bundled lists, and an equal but distinct unit
    is read afresh (its own entry, an equal profile)."""
    for name in ("shooty-300", "melee-300", "elite-300", "horde-300"):
        for unit in load_army(sample_path(f"gff/{name}.txt")).units:
            for alive in range(1, unit.size + 1):
                for w in lines(unit, alive=alive):
                    first = attack_profile(unit, w)
                    assert first == prof._read_profile(unit, w)
                    assert attack_profile(unit, w) is first
    twin = Unit("Squad", 3, 4, 5, weapons=(RIFLE,))
    other = Unit("Squad", 3, 4, 5, weapons=(RIFLE,))
    assert attack_profile(twin, RIFLE) == attack_profile(other, RIFLE)
    assert prof._PROFILES[(id(other), id(RIFLE))][0] is other
