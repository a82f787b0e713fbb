"""Adapters that put each OPR rule system behind :class:`~oprlab.analysis.odds.AttackSystem`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from oprlab.analysis.odds import SYSTEMS, Outcome, Situation, Summary
from oprlab.mechanics import Mechanic
from oprlab.rules.gff import attack as gff_attack
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import (
    AttackProfile,
    DefenderProfile,
    attack_profiles,
    counter_models,
    defender_profile,
    impact_dice,
)
from oprlab.rules.gff.resolve import Roller, resolve_attack
from oprlab.units.model import Unit, Weapon


def _gff_profiles(
    attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: gff_attack.Situation
) -> list[AttackProfile]:
    """The weapons' profiles (split by per-model rules), plus the Impact dice of a charge (less
    the defender's Counter)."""
    profiles = list(attack_profiles(attacker, weapons))
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
        q = _GffQuery.of(attacker, weapons, defender, s)
        odds = attack_odds_fast(q.weapons, q.defender, q.situation, m, fear=q.fear)
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
        q = _GffQuery.of(attacker, weapons, defender, s)
        r = resolve_attack(q.weapons, q.defender, q.situation, Roller(m, state, rng), fear=q.fear)
        return Outcome(r.hits, r.wounds, r.casualties, r.destroyed, r.shaken)


@dataclass(frozen=True)
class _GffQuery:
    """An odds query in GFF's terms, read once for the exact and the sampled path alike."""

    weapons: list[AttackProfile]
    defender: DefenderProfile
    situation: gff_attack.Situation
    fear: int

    @classmethod
    def of(
        cls, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> _GffQuery:
        gs = _gff_situation(s)
        return cls(
            _gff_profiles(attacker, weapons, defender, gs),
            defender_profile(defender),
            gs,
            attacker.rating("Fear") or 0,
        )


SYSTEMS["gff"] = GffAttack

# Riverside registers itself on import (seed 002).
from oprlab.analysis import odds_riverside  # noqa: E402, F401
