"""The odds adapters live with their rules (rules/<system>/odds.py) and are found through the
rule system (``find_system(name).attack`` / ``.exchange``); a house rule changes one dice clause
by subclassing an adapter, and exact odds and sampling both see it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from oprlab.game.systems import SYSTEMS, find_system
from oprlab.mechanics import get_mechanic
from oprlab.rules.gff.odds import GffAttack
from oprlab.rules.gff.profile import DefenderProfile
from oprlab.rules.query import Situation
from oprlab.units.model import Unit, Weapon

RIFLES = Unit("Rifles", 1, quality=4, defense=5, weapons=(Weapon("Rifle", 1, range=24),))
TARGET = Unit("Target", 1, quality=4, defense=6)


class _Fortified(GffAttack):
    """A made-up house rule: the target counts Defense one better."""

    def defender(self, defender: Unit) -> DefenderProfile:
        profile = super().defender(defender)
        return replace(profile, defense=profile.defense - 1)


def test_every_system_answers_attack_and_exchange() -> None:
    for name, rules in SYSTEMS.items():
        for adapter in (rules.attack, rules.exchange):
            assert adapter is None or adapter.name == name


def test_a_subclassed_adapter_changes_the_clause_for_exact_odds_and_sampling() -> None:
    """seed 003 "Shooting" 2-3: one die hits on 4+ (1/2); D6+ is blocked on 6 (1/6), D5+ on
    5-6 (1/3): the plain attack wounds with 1/2 x 5/6 = 5/12, the house rule's 1/2 x 2/3 = 1/3."""
    d6 = get_mechanic("d6")
    weapons = RIFLES.weapons
    plain = find_system("gff").attack.exact(RIFLES, weapons, TARGET, Situation(), d6)
    house = _Fortified().exact(RIFLES, weapons, TARGET, Situation(), d6)
    assert abs(plain.wounds[1] - 5 / 12) < 1e-12
    assert abs(house.wounds[1] - 1 / 3) < 1e-12
    state = d6.initial_state(())
    rng = np.random.default_rng(1)
    wounds = [
        _Fortified().resolve(RIFLES, weapons, TARGET, Situation(), d6, state, rng).wounds
        for _ in range(4000)
    ]
    assert abs(sum(wounds) / len(wounds) - 1 / 3) < 0.03
