"""Adapters that put each OPR rule system behind :class:`~oprlab.analysis.odds.AttackSystem`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oprlab.analysis.odds import SYSTEMS, Outcome, Situation, Summary
from oprlab.mechanics import Mechanic
from oprlab.rules.gff import attack as gff_attack
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import (
    AttackProfile,
    attack_profile,
    counter_models,
    defender_profile,
    impact_dice,
)
from oprlab.rules.gff.resolve import Roller, resolve_attack
from oprlab.units.model import Unit, Weapon


def _gff_profiles(
    attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: gff_attack.Situation
) -> list[AttackProfile]:
    """The weapons' profiles, plus the Impact dice of a charge (less the defender's Counter)."""
    profiles = [attack_profile(attacker, w) for w in weapons]
    impact = gff_attack.impact_attack(
        attacker.quality, impact_dice(attacker), s, counter_models(defender)
    )
    return profiles + ([impact] if impact is not None else [])


def _gff_situation(s: Situation) -> gff_attack.Situation:
    return gff_attack.Situation(
        melee=s.melee,
        charging=s.charging,
        distance=12.0 if s.distance is None else s.distance,
        moved=s.moved,
        cover=s.cover,
        fatigued=s.fatigued,
    )


class GffAttack:
    """GFF (seed 003) attacks for the odds layer."""

    name = "gff"

    def exact(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> Summary:
        gs = _gff_situation(s)
        profiles = _gff_profiles(attacker, weapons, defender, gs)
        fear = attacker.rating("Fear") or 0
        odds = attack_odds_fast(profiles, defender_profile(defender), gs, m, fear=fear)
        return Summary(odds.hits, odds.wounds, odds.casualties, odds.p_destroyed, odds.p_shaken)

    def resolve(
        self,
        attacker: Unit,
        weapons: Sequence[Weapon],
        defender: Unit,
        s: Situation,
        m: Mechanic,
        state: Any,
        rng: np.random.Generator | None,
    ) -> Outcome:
        gs = _gff_situation(s)
        profiles = _gff_profiles(attacker, weapons, defender, gs)
        fear = attacker.rating("Fear") or 0
        r = resolve_attack(
            profiles,
            defender_profile(defender),
            gs,
            Roller(m, state, rng),
            fear=fear,
        )
        return Outcome(r.hits, r.wounds, r.casualties, r.destroyed, r.shaken)


SYSTEMS["gff"] = GffAttack

# Riverside registers itself on import (seed 002).
from oprlab.analysis import odds_riverside  # noqa: E402, F401
