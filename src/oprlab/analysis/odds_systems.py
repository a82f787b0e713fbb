"""Adapters that put each OPR rule system behind :class:`~oprlab.analysis.odds.AttackSystem`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oprlab.analysis.odds import SYSTEMS, Outcome, Situation, Summary
from oprlab.mechanics import Mechanic
from oprlab.rules.gff import attack as gff_attack
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import attack_profile, defender_profile
from oprlab.rules.gff.resolve import Roller, resolve_attack
from oprlab.units.model import Unit, Weapon


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
        profiles = [attack_profile(attacker, w) for w in weapons]
        fear = attacker.rating("Fear") or 0
        odds = attack_odds_fast(
            profiles, defender_profile(defender), _gff_situation(s), m, fear=fear
        )
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
        profiles = [attack_profile(attacker, w) for w in weapons]
        fear = attacker.rating("Fear") or 0
        r = resolve_attack(
            profiles,
            defender_profile(defender),
            _gff_situation(s),
            Roller(m, state, rng),
            fear=fear,
        )
        return Outcome(r.hits, r.wounds, r.casualties, r.destroyed, r.shaken)


SYSTEMS["gff"] = GffAttack
