"""The Riverside rule system (seed 002) behind :class:`~oprlab.analysis.odds.AttackSystem`.

Importing this module registers ``SYSTEMS["riverside"]``. Besides the protocol's
:class:`~oprlab.analysis.odds.Summary`, :meth:`RiversideAttack.odds` gives the Riverside-only
figures (Morale Test taken, Rout), which the common summary has no field for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oprlab.analysis.odds import SYSTEMS, Outcome, Situation, Summary
from oprlab.mechanics import Mechanic
from oprlab.rules.gff.profile import impact_dice
from oprlab.rules.riverside import attack as riverside_attack
from oprlab.rules.riverside.attack import READINGS, Readings
from oprlab.rules.riverside.fast import AttackOddsArrays, attack_odds_fast
from oprlab.rules.riverside.melee import impact_profile
from oprlab.rules.riverside.profile import (
    AttackProfile,
    DefenderProfile,
    attack_profiles,
    defender_profile,
)
from oprlab.rules.riverside.resolve import AttackResult, Roller, resolve_attack
from oprlab.units.model import Unit, Weapon


def riverside_situation(s: Situation) -> riverside_attack.Situation:
    """The odds query's situation in Riverside's terms (``moved`` has no Riverside rule)."""
    return riverside_attack.Situation(
        melee=s.melee,
        charging=s.charging,
        distance=12.0 if s.distance is None else s.distance,
        cover=s.cover,
        fatigued=s.fatigued,
    )


def _query(
    attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
) -> tuple[list[AttackProfile], DefenderProfile, riverside_attack.Situation]:
    """An odds query in Riverside's terms: the weapons (split by per-model rules), the target
    and the situation. A charge rolls Impact first, inside the attack, as games and the melee
    exchange do (the default ``impact="with_attack"``, docs/rules/riverside.md)."""
    rs = riverside_situation(s)
    profiles = list(attack_profiles(attacker, weapons))
    impact = impact_profile(impact_dice(attacker), rs, "with_attack")
    return ([impact] if impact is not None else []) + profiles, defender_profile(defender), rs


class RiversideAttack:
    """Riverside (seed 002) attacks for the odds layer.

    Args:
        readings: how to read seed 002's ambiguous clauses (default: a player's reading).
    """

    name = "riverside"

    def __init__(self, readings: Readings = READINGS) -> None:
        self.readings = readings

    def odds(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> AttackOddsArrays:
        """Float odds with every Riverside figure, ``p_routed`` and ``p_morale`` included."""
        return attack_odds_fast(*_query(attacker, weapons, defender, s), m, readings=self.readings)

    def exact(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> Summary:
        """The common summary: ``p_destroyed`` = wiped out by wounds (a Rout is not counted),
        ``p_shaken`` = Shaken and still in play (``None`` in melee)."""
        o = self.odds(attacker, weapons, defender, s, m)
        return Summary(o.hits, o.wounds, o.casualties, o.p_destroyed, o.p_shaken)

    def play(
        self,
        attacker: Unit,
        weapons: Sequence[Weapon],
        defender: Unit,
        s: Situation,
        m: Mechanic,
        state: Any,
        rng: np.random.Generator | None,
    ) -> AttackResult:
        """One attack with every Riverside figure (Morale Test, Rout, the target afterwards)."""
        q = _query(attacker, weapons, defender, s)
        return resolve_attack(*q, Roller(m, state, rng), readings=self.readings)

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
        r = self.play(attacker, weapons, defender, s, m, state, rng)
        return Outcome(r.hits, r.wounds, r.casualties, r.destroyed, r.shaken)


SYSTEMS["riverside"] = RiversideAttack
