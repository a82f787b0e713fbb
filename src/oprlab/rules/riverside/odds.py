"""Riverside (seed 002) behind the odds queries of :mod:`oprlab.rules.query`: one unit's
attack (:class:`RiversideAttack`) and a whole melee exchange (:class:`RiversideExchange`).

Besides the protocol's :class:`~oprlab.rules.query.Summary`, :meth:`RiversideAttack.odds` gives
the Riverside-only figures (Morale Test taken, Rout), which the common summary has no field
for. Each step of building a query is a method reached through ``self``, so a house rule
overrides one step by subclassing.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Owner, State
from oprlab.prob import Dist
from oprlab.rules.gff.melee import ExchangeResult, Side
from oprlab.rules.gff.profile import impact_dice
from oprlab.rules.gff.resolve import Roller as GffRoller
from oprlab.rules.query import ExchangeOptions, Outcome, Situation, Summary, deadly_dice
from oprlab.rules.riverside import attack as riverside_attack
from oprlab.rules.riverside import melee as riverside_melee
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

__all__ = [
    "RIVERSIDE_OPTIONS",
    "RiversideAttack",
    "RiversideExchange",
    "riverside_situation",
]

Query = tuple[list[AttackProfile], DefenderProfile, riverside_attack.Situation]


def riverside_situation(s: Situation) -> riverside_attack.Situation:
    """The odds query's situation in Riverside's terms (``moved`` has no Riverside rule)."""
    return riverside_attack.Situation(
        melee=s.melee,
        charging=s.charging,
        distance=12.0 if s.distance is None else s.distance,
        cover=s.cover,
        fatigued=s.fatigued,
    )


class RiversideAttack:
    """Riverside (seed 002) attacks for the odds layer.

    Args:
        readings: how to read seed 002's ambiguous clauses (default: a player's reading).
    """

    name = "riverside"

    def __init__(self, readings: Readings = READINGS) -> None:
        self.readings = readings

    def situation(self, s: Situation) -> riverside_attack.Situation:
        return riverside_situation(s)

    def profiles(
        self,
        attacker: Unit,
        weapons: Sequence[Weapon],
        defender: Unit,
        s: riverside_attack.Situation,
    ) -> list[AttackProfile]:
        """The weapons' profiles (split by per-model rules); a charge rolls Impact first,
        inside the attack, as games and the melee exchange do (the default
        ``impact="with_attack"``, docs/rules/riverside.md)."""
        profiles = list(attack_profiles(attacker, weapons))
        impact = impact_profile(impact_dice(attacker), s, "with_attack")
        return ([impact] if impact is not None else []) + profiles

    def defender(self, defender: Unit) -> DefenderProfile:
        return defender_profile(defender)

    def query(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> Query:
        """An odds query in Riverside's terms: the weapons, the target and the situation."""
        rs = self.situation(s)
        return self.profiles(attacker, weapons, defender, rs), self.defender(defender), rs

    def odds(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> AttackOddsArrays:
        """Float odds with every Riverside figure, ``p_routed`` and ``p_morale`` included."""
        q = self.query(attacker, weapons, defender, s)
        return attack_odds_fast(*q, m, readings=self.readings)

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
        q = self.query(attacker, weapons, defender, s)
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

    def exact_work(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> float:
        """A rough cost of the exact answer in elementary steps (rules.riverside.fast): a table
        over the unit's wound states (models x Tough), and with Deadly a matrix power over them
        (states^3 x log2 dice)."""
        states = max(defender.size, 1) * max(defender.tough, 1)
        work = states * 5e5
        deadly = deadly_dice(weapons, defender)
        if deadly:
            work += states**3 * math.log2(sum(n for n, _ in deadly) + 2)
        return float(work)


#: The options :class:`RiversideExchange` reads from ``system_options``.
RIVERSIDE_OPTIONS = ("impact", "tie", "readings")


class RiversideExchange:
    """The Riverside exchange (seed 002 "Melee Attacks") for the odds layer.

    ``system_options``: ``impact`` (``"with_attack"`` or ``"none"``), ``tie`` (``"none"`` or
    ``"both"``) and ``readings`` (:class:`~oprlab.rules.riverside.attack.Readings`). A Routed
    unit is off the table, so ``p_*_destroyed`` count Routs; :attr:`figures` splits them out.
    """

    name = "riverside"
    owners: tuple[Owner, ...] = riverside_melee.OWNERS
    figures: Mapping[str, Callable[[ExchangeResult], bool]] = {
        "p_loser_shaken": riverside_melee.loser_shaken,
        "p_defender_routed": lambda r: riverside_melee.routed(r, Side.DEFENDER),
        "p_attacker_routed": lambda r: riverside_melee.routed(r, Side.ATTACKER),
    }

    def options(self, o: ExchangeOptions) -> dict[str, Any]:
        """The exchange's keyword arguments: the common options and Riverside's own."""
        unknown = sorted(set(o.system_options) - set(RIVERSIDE_OPTIONS))
        if unknown:
            raise OptionError(
                "unknown Riverside exchange option",
                value=unknown,
                expected=", ".join(RIVERSIDE_OPTIONS),
                where="system_options",
            )
        if o.impact_timing != "first":
            raise OptionError(
                "impact_timing is a GFF option: Riverside rolls Impact inside the charge",
                value=o.impact_timing,
                expected="system_options={'impact': 'with_attack' or 'none'}",
                where="impact_timing",
            )
        readings = o.system_options.get("readings", READINGS)
        if not isinstance(readings, Readings):
            raise OptionError(
                "readings must be a Riverside Readings",
                value=readings,
                expected="oprlab.rules.riverside.attack.Readings(...)",
                where="system_options.readings",
            )
        impact = o.system_options.get("impact", "with_attack")
        tie = o.system_options.get("tie", "none")
        return {**o.common(), "impact": str(impact), "tie": str(tie), "readings": readings}

    def exact(
        self, attacker: Unit, defender: Unit, mech: Mechanic, o: ExchangeOptions
    ) -> Dist[ExchangeResult]:
        return riverside_melee.exchange_outcomes(attacker, defender, mech, **self.options(o))

    def resolve(
        self,
        attacker: Unit,
        defender: Unit,
        mech: Mechanic,
        state: State,
        rng: np.random.Generator | None,
        o: ExchangeOptions,
    ) -> ExchangeResult:
        roller = GffRoller(mech, state, rng)
        return riverside_melee.resolve_exchange(attacker, defender, roller, **self.options(o))
