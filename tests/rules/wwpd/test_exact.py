"""Exact odds of WWPD attacks (seed 004_b5c87f7769291d1c) against brute force and sampling."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.mechanics import Check, Test
from oprlab.mechanics.wwpd import Wwpd
from oprlab.prob import Dist, mean
from oprlab.rules.wwpd.attack import (
    Attack,
    Conditions,
    DiceRoller,
    Volley,
    melee_attack,
    resolve,
    shooting_attack,
)
from oprlab.rules.wwpd.exact import (
    attack_odds,
    chain_probability,
    expected_removed,
    hits_distribution,
    removal_chances,
    removed_distribution,
)
from oprlab.rules.wwpd.targets import Phase, allocate_hits
from oprlab.units.profiles import WwpdModel, WwpdUnit, WwpdWeapon

WWPD = Wwpd()

CULTIST = WwpdModel("Cultist", ranged_skill=1, melee_skill=1, leadership=5)
ORK = WwpdModel("Ork", ranged_skill=2, melee_skill=2, leadership=4, toughness=1)
MARINE = WwpdModel(
    "Space Marine", ranged_skill=2, melee_skill=2, leadership=3, toughness=1, armor=2
)
TANK = WwpdModel("Tank", ranged_skill=2, melee_skill=1, leadership=4, toughness=2, armor=3,
                 vehicle=True)  # fmt: skip


def p(check: Check) -> Fraction:
    """The mechanic's own listing, summed: the oracle's only source of odds."""
    return WWPD.outcomes(check).probability(lambda o: o.success)


def brute_force(attack: Attack) -> Dist[int]:
    """Enumerate every success/failure of every check, in the order a player rolls them.

    Independent of :mod:`oprlab.rules.wwpd.exact`: each to-hit die, then, for every hit, a
    to-wound and a save check, all as explicit branches with the mechanic's probabilities.
    """
    c = attack.conditions
    out: dict[int, Fraction] = {}
    dice = [v for v in attack.volleys for _ in range(v.dice)]
    hit_p = [p(Check(Test.HIT, v.to_hit)) for v in dice]
    for hits in itertools.product((False, True), repeat=len(dice)):
        w_hits = Fraction(1)
        for h, ph in zip(hits, hit_p, strict=True):
            w_hits *= ph if h else 1 - ph
        counts = []
        k = 0
        for v in attack.volleys:
            counts.append(sum(hits[k : k + v.dice]))
            k += v.dice
        # allocation: the seed's rule, hit by hit, with earlier volleys' hits counted
        taken = [0] * len(attack.targets)
        chains: list[tuple[int, Volley]] = []
        for v, n in zip(attack.volleys, counts, strict=True):
            eligible = [
                a and (v.eligible is None or v.eligible[i]) for i, a in enumerate(attack.alive)
            ]
            if n == 0 or not any(eligible):
                continue
            if v.singled_out is not None:  # "that model must take all hits from the weapon"
                got = tuple(n if i == v.singled_out else 0 for i in range(len(attack.targets)))
            else:
                got = allocate_hits(n, eligible, first=v.first, taken=taken, order=attack.order)
            taken = [t + g for t, g in zip(taken, got, strict=True)]
            chains += [(i, v) for i, g in enumerate(got) for _ in range(g)]
        # every hit: wound? then save?
        steps = []
        for i, v in chains:
            m = attack.targets[i]
            if m.vehicle:
                if v.anti_tank == 0:
                    steps.append((i, Fraction(0)))
                    continue
                wound_x = 2 + max(0, m.toughness - v.massive) + max(0, m.armor - v.anti_tank)
            else:
                wound_x = 2 + max(0, m.toughness - v.massive) + max(0, m.armor - v.ap)
            pw = p(Check(Test.TO_WOUND, wound_x, armoured_vehicle=m.vehicle))
            if c.phase is Phase.MELEE:
                save_x: int | None = 5 - attack.melee_defense[i] + v.melee_offense
            else:
                cover = 2 if c.hard_cover else int(c.soft_cover)
                save_x = {Phase.SHOOTING: 3, Phase.FIREFIGHT: 5}[c.phase] - cover
                save_x += v.high_explosive - int(c.target_cowering)
                save_x = None if save_x > 6 else save_x
            ps = Fraction(0) if save_x is None else p(Check(Test.SAVE, save_x))
            steps.append((i, pw * (1 - ps)))
        for fails in itertools.product((False, True), repeat=len(steps)):
            w = w_hits
            gone = set()
            for f, (i, q) in zip(fails, steps, strict=True):
                w *= q if f else 1 - q
                if f:
                    gone.add(i)
            if w:
                out[len(gone)] = out.get(len(gone), Fraction(0)) + w
    return Dist(out)


def unit(model: WwpdModel, n: int, *weapons: tuple[int, WwpdWeapon]) -> WwpdUnit:
    return WwpdUnit(model.name, ((n, model),), tuple(weapons))


SMALL_ATTACKS = {
    "rifles at orks": shooting_attack(
        unit(CULTIST, 2, (2, WwpdWeapon("Rifle", 24, 1))), unit(ORK, 2)
    ),
    "mixed target in soft cover": Attack(
        (Volley("Rifle", 3, 4), Volley("Bolter", 1, 3, massive=1, high_explosive=1)),
        (ORK, MARINE, CULTIST),
        (True, True, True),
        (0, 0, 0),
        Conditions(Phase.SHOOTING, soft_cover=True),
        order=(2, 0, 1),
    ),
    "firefight, a model out of range": Attack(
        (Volley("Rifle", 2, 4, eligible=(True, False)), Volley("Gun", 2, 5, ap=1)),
        (MARINE, MARINE),
        (True, True),
        (0, 0),
        Conditions(Phase.FIREFIGHT, target_cowering=True),
    ),
    "tank and crew": Attack(
        (Volley("Lance", 2, 4, massive=1, anti_tank=2), Volley("Rifle", 2, 4)),
        (TANK, CULTIST),
        (True, True),
        (0, 0),
        Conditions(Phase.SHOOTING),
    ),
    "melee with contact": Attack(
        (
            Volley("Claw", 3, 3, massive=1, melee_offense=1, first=(False, True, False)),
            Volley("Claw", 2, 5, eligible=(False, False, True)),
        ),
        (ORK, MARINE, ORK),
        (True, True, False),
        (0, 1, 0),
        Conditions(Phase.MELEE),
    ),
    "a singled-out model and a preferred type": Attack(
        (
            Volley("Marksman", 2, 3, ap=1, singled_out=1),
            Volley("Hunter", 3, 4, massive=1, anti_tank=2, first=(True, False, False)),
        ),
        (TANK, MARINE, CULTIST),
        (True, True, True),
        (0, 0, 0),
        Conditions(Phase.FIREFIGHT),
    ),
}


@pytest.mark.parametrize("name", sorted(SMALL_ATTACKS))
def test_exact_matches_brute_force(name: str) -> None:
    """seed 004 "To Hit", "Allocation of Hits", "To Wound", "Cover and Defensive Saves" and
    "Dice Conventions": the composed odds equal enumerating every check."""
    attack = SMALL_ATTACKS[name]
    assert removed_distribution(attack) == brute_force(attack)


def test_worked_example_single_hit_odds() -> None:
    """seed 004 "To Wound" Example through exact odds: a Guardsman (skill 2, one lasgun shot)
    at a Cultist (skill 1: hits on 3+, wounds on 2+, Shooting save 3+) and at a Space Marine
    (skill 2: 4+, wounds on 5+)."""
    lasgun = ((1, WwpdWeapon("Lasgun", 24, 1)),)
    guard = WwpdUnit("Guardsman", ((1, WwpdModel("Guardsman", 2, 2, 4)),), lasgun)
    cultist = shooting_attack(guard, unit(CULTIST, 1))
    assert removed_distribution(cultist)[1] == Fraction(4, 6) * Fraction(5, 6) * Fraction(2, 6)
    marine = shooting_attack(guard, unit(MARINE, 1))
    assert removed_distribution(marine)[1] == Fraction(3, 6) * Fraction(2, 6) * Fraction(2, 6)
    heavy = WwpdUnit(
        "Guardsman",
        guard.models,
        ((1, WwpdWeapon("Heavy Bolter", 36, 1, massive=2, ap=1)),),
    )
    attack = shooting_attack(heavy, unit(MARINE, 1), Conditions(Phase.FIREFIGHT))
    assert chain_probability(attack, attack.volleys[0], 0) == Fraction(4, 6) * Fraction(4, 6)


def test_one_plus_cover_save_fails_on_double_ones() -> None:
    """seed 004 "Cover and Defensive Saves" Geek Note: in Hard Cover and cowering a model has a
    1+ (here 0+) save in Shooting and "will fail on double 1s"."""
    v = Volley("Rifle", 1, 4)
    attack = Attack((v,), (CULTIST,), (True,), (0,),
                    Conditions(Phase.SHOOTING, hard_cover=True, target_cowering=True))  # fmt: skip
    assert chain_probability(attack, v, 0) == Fraction(5, 6) * Fraction(1, 36)


def test_armoured_vehicle_at_seven_plus_is_safe() -> None:
    """seed 004 "Dice Conventions": "You cannot harm a buttoned up tank, if you need a 7 or
    more"; an infantry model at 7+ still falls on a 6 then a 6."""
    v = Volley("Light AT", 4, 2, anti_tank=1)
    tank = WwpdModel("Bastion", 2, 2, 4, toughness=3, armor=4, vehicle=True)
    ogre = WwpdModel("Ogre", 2, 2, 4, toughness=3, armor=4)
    assert removed_distribution(Attack((v,), (tank,), (True,), (0,))) == Dist.point(0)
    ogre_attack = Attack((v,), (ogre,), (True,), (0,), Conditions(Phase.FIREFIGHT))
    assert chain_probability(ogre_attack, v, 0) == Fraction(1, 36) * Fraction(4, 6)


def test_hits_are_binomial() -> None:
    """seed 004 "To Hit": each die is its own check; the hit count is binomial."""
    for x, q in ((4, Fraction(1, 2)), (1, Fraction(35, 36)), (7, Fraction(1, 36))):
        d = hits_distribution(Volley("v", 5, x))
        assert mean(d) == 5 * q
        assert d[5] == q**5 and d[0] == (1 - q) ** 5


def test_odds_are_consistent() -> None:
    """The per-model chances add up to the expected count; probabilities sum to 1."""
    for attack in SMALL_ATTACKS.values():
        odds = attack_odds(attack)
        assert sum(odds.per_model) == expected_removed(attack)
        assert sum(p for _, p in odds.removed.items()) == 1
        assert sum(p for _, p in odds.hits.items()) == 1
        assert max(odds.removed.support) <= sum(attack.alive)
    empty = Attack((), (CULTIST,), (True,), (0,))
    assert removed_distribution(empty) == Dist.point(0)


def test_removal_chances_are_the_per_model_odds() -> None:
    """The commander's shortcut (each model's chance alone, issue 13) is exactly the full
    odds' per-model chances, whose sum the brute force above checks."""
    for attack in SMALL_ATTACKS.values():
        assert removal_chances(attack) == attack_odds(attack).per_model
    assert removal_chances(Attack((), (CULTIST,), (True,), (0,))) == (Fraction(0),)


def test_sampled_attacks_agree_with_exact() -> None:
    """The sequential driver with the ``wwpd`` mechanic samples the exact distribution."""
    brutes = WwpdUnit(
        "Brutes",
        ((4, WwpdModel("Brute", 1, 3, 4, toughness=1, melee_attacks=3)),),
        ((4, WwpdWeapon("Cleaver", massive=1, melee_offense=1)),),
    )
    squad = WwpdUnit(
        "Squad",
        ((5, WwpdModel("Trooper", 2, 2, 4, armor=1)),),
        ((4, WwpdWeapon("Rifle", 24, 2)), (1, WwpdWeapon("Launcher", 24, 1, high_explosive=1))),
    )
    hunters = WwpdUnit(
        "Hunters",
        ((2, WwpdModel("Hunter", 3, 2, 4)),),
        (
            (1, WwpdWeapon("Marksman", 36, 2, ap=1, single_out=True)),
            (1, WwpdWeapon("Lance", 36, 2, anti_tank=2, prefers="vehicle")),
        ),
    )
    crew = WwpdUnit("Crew", ((1, TANK), (2, CULTIST)))
    cases = [
        melee_attack(brutes, squad),
        shooting_attack(squad, brutes, Conditions(Phase.FIREFIGHT, soft_cover=True)),
        shooting_attack(hunters, crew),
    ]
    assert [v.singled_out for v in cases[2].volleys] == [2, None]  # a crewman it can hurt
    assert cases[2].volleys[1].first == (True, False, False)
    rng = np.random.default_rng(2024)
    n = 4000
    for attack in cases:
        exact = removed_distribution(attack)
        roller = DiceRoller(rng)
        counts: dict[int, int] = {}
        for _ in range(n):
            k = resolve(attack, roller).casualties
            counts[k] = counts.get(k, 0) + 1
        for k in set(counts) | set(exact.support):
            q = float(exact[k])
            sd = max((q * (1 - q) / n) ** 0.5, 1e-3)
            assert abs(counts.get(k, 0) / n - q) < 5 * sd, (k, counts, q)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(-1, 8), st.integers(0, 2), st.integers(0, 2),
                  st.integers(-1, 2)),
        min_size=1,
        max_size=2,
    ),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.booleans(), st.booleans()),
             min_size=1, max_size=3),
    st.sampled_from([Phase.SHOOTING, Phase.FIREFIGHT, Phase.MELEE]),
)  # fmt: skip
def test_exact_matches_brute_force_property(
    volleys: list[tuple[int, int, int, int, int]],
    models: list[tuple[int, int, bool, bool]],
    phase: Phase,
) -> None:
    """Any small attack: the composed odds equal enumerating every check. Volleys may single
    out a model (seed 004 "Allocation of Hits": it takes all their hits) and put spare hits on
    a preferred type (``first``) first."""
    targets = tuple(
        WwpdModel("M", 2, 2, 4, toughness=t, armor=a, vehicle=v) for t, a, v, _ in models
    )
    first = tuple(f for *_, f in models)
    attack = Attack(
        tuple(
            Volley(
                "V", d, x, massive=m, ap=ap, anti_tank=ap, first=first,
                singled_out=s if 0 <= s < len(targets) else None,
            )
            for d, x, m, ap, s in volleys
        ),
        targets,
        (True,) * len(targets),
        (0,) * len(targets),
        Conditions(phase),
    )  # fmt: skip
    assert removed_distribution(attack) == brute_force(attack)
