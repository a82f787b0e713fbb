"""GFF (seed 003) behind the odds queries of :mod:`oprlab.rules.query`: one unit's attack
(:class:`GffAttack`) and a whole melee exchange (:class:`GffExchange`).

Each step of building a query is a method reached through ``self`` (the situation, the
weapons' profiles, the defender's profile, Fear), so a house rule that changes a dice clause
subclasses the adapter and overrides that one step; exact odds and sampling both see it.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from oprlab.errors import OptionError
from oprlab.mechanics import Mechanic, Owner, State
from oprlab.prob import Dist
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
from oprlab.rules.query import ExchangeOptions, Outcome, Situation, Summary, deadly_dice
from oprlab.units.model import Unit, Weapon

if TYPE_CHECKING:
    from oprlab.rules.gff.melee import ExchangeResult

__all__ = ["GffAttack", "GffExchange", "GffQuery"]


@dataclass(frozen=True)
class GffQuery:
    """An odds query in GFF's terms, read once for the exact and the sampled path alike."""

    weapons: list[AttackProfile]
    defender: DefenderProfile
    situation: gff_attack.Situation
    fear: int


class GffAttack:
    """GFF (seed 003) attacks for the odds layer."""

    name = "gff"
    #: The dice clauses of the attack chain (a house rule's are a subclass: the same object
    #: its games roll with, so exact odds, sampling and games agree).
    hooks: gff_attack.GffHooks = gff_attack.HOOKS

    def situation(self, s: Situation) -> gff_attack.Situation:
        """The query's situation in GFF's terms (no distance given: 12")."""
        return gff_attack.Situation(
            melee=s.melee,
            charging=s.charging,
            distance=12.0 if s.distance is None else s.distance,
            moved=s.moved,
            cover=s.cover,
            fatigued=s.fatigued,
        )

    def profiles(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: gff_attack.Situation
    ) -> list[AttackProfile]:
        """The weapons' profiles (split by per-model rules), plus the Impact dice of a charge
        (less the defender's Counter)."""
        profiles = list(attack_profiles(attacker, weapons))
        impact = gff_attack.impact_attack(
            attacker.quality, impact_dice(attacker), s, counter_models(defender)
        )
        return profiles + ([impact] if impact is not None else [])

    def defender(self, defender: Unit) -> DefenderProfile:
        """The target as the attack sees it (Defense, Tough, Regeneration...)."""
        return defender_profile(defender)

    def fear(self, attacker: Unit) -> int:
        """Fear(X): X wounds added for deciding a melee, none dealt."""
        return attacker.rating("Fear") or 0

    def query(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> GffQuery:
        gs = self.situation(s)
        return GffQuery(
            self.profiles(attacker, weapons, defender, gs),
            self.defender(defender),
            gs,
            self.fear(attacker),
        )

    def exact(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation, m: Mechanic
    ) -> Summary:
        q = self.query(attacker, weapons, defender, s)
        odds = attack_odds_fast(
            q.weapons, q.defender, q.situation, m, fear=q.fear, hooks=self.hooks
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
        q = self.query(attacker, weapons, defender, s)
        roller = Roller(m, state, rng)
        r = resolve_attack(
            q.weapons, q.defender, q.situation, roller, fear=q.fear, hooks=self.hooks
        )
        return Outcome(r.hits, r.wounds, r.casualties, r.destroyed, r.shaken)

    def exact_work(
        self, attacker: Unit, weapons: Sequence[Weapon], defender: Unit, s: Situation
    ) -> float:
        """A rough cost of the exact answer in elementary steps (rules.gff.fast): Deadly dice
        walk the wound track one die at a time, each step a product with a square matrix as
        long as the track (models plus the Deadly wounds), so dice x track^2; without Deadly,
        sums of dice (cheap)."""
        deadly = deadly_dice(weapons, defender)
        track = max(defender.size, 1) + sum(n * x for n, x in deadly)
        return float(sum(n for n, _ in deadly) * track**2)


class GffExchange:
    """The GFF exchange (seed 003 "Melee") for the odds layer."""

    name = "gff"
    owners: tuple[Owner, ...] = (gff_attack.ATTACKER, gff_attack.DEFENDER)
    figures: Mapping[str, Callable[[ExchangeResult], bool]] = {}

    def options(self, o: ExchangeOptions) -> dict[str, Any]:
        """The exchange's keyword arguments: the common options and GFF's Impact timing."""
        if o.system_options:
            raise OptionError(
                f"the {self.name} exchange takes no system options",
                value=dict(o.system_options),
                expected="none (GFF's one choice is impact_timing)",
                where="system_options",
            )
        return {**o.common(), "impact_timing": o.impact_timing}

    def exact(
        self, attacker: Unit, defender: Unit, mech: Mechanic, o: ExchangeOptions
    ) -> Dist[ExchangeResult]:
        # The exchange loads the melee procedure when first asked: an attack's odds (`oprlab
        # odds` without --melee) never need it, and it is an eighth of that command's start.
        from oprlab.rules.gff.melee import exchange_outcomes

        return exchange_outcomes(attacker, defender, mech, **self.options(o))

    def resolve(
        self,
        attacker: Unit,
        defender: Unit,
        mech: Mechanic,
        state: State,
        rng: np.random.Generator | None,
        o: ExchangeOptions,
    ) -> ExchangeResult:
        from oprlab.rules.gff.melee import resolve_exchange

        roller = Roller(mech, state, rng)
        return resolve_exchange(attacker, defender, roller, **self.options(o))
