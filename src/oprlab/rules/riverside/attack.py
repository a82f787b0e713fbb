"""The Riverside attack, one die at a time, as seed 002 "Resolving Attacks" words it.

Each special rule that touches an attack is one named hook below. The hooks are pure: given the
situation and a check's :class:`~oprlab.mechanics.Outcome` they say what follows. Both drivers
use them: :mod:`oprlab.rules.riverside.resolve` rolls checks in the rulebook's order with any
mechanic (d6 or clock, sampled or certain), and :mod:`oprlab.rules.riverside.exact` composes each
die's whole chain exactly before summing, so Critical Hit effects stay tied to their die.

Where seed 002 can be read two ways, :class:`Readings` names the choice (see
docs/rules/riverside.md); the defaults are the reading a player would take.

May import ``oprlab.errors``, ``oprlab.mechanics`` and ``oprlab.units``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Outcome, Owner, Test
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile

#: Rending: "When this weapon rolls a Critical Hit, that hit has AP(4)".
RENDING_AP = 4
#: Regeneration (not in seed 002's text; OPR common practice, seed 003): a wound is ignored
#: on a 5+.
REGENERATION_TARGET = 5
#: Rending: "Regeneration rolls against wounds from this weapon have -1".
RENDING_REGENERATION = -1
#: Good Shot replaces the shooting difficulty with 4+ (seed 002 "Rolling Dice", Example 1).
GOOD_SHOT = 4
#: Reliable replaces the difficulty with 2+ (Example 1).
RELIABLE = 2
#: Bonus Hits a Critical Hit brings with Shock ("generates 2 additional attacks").
SHOCK_BONUS = 2
#: Default owners of the two sides' checks (their clocks or token pools).
ATTACKER = Owner(army="attacker", unit="attacker")
DEFENDER = Owner(army="defender", unit="defender")

RendingAp = Literal["max", "add"]
WidenedCritical = Literal["all", "shooty"]


@dataclass(frozen=True, slots=True)
class Readings:
    """How to read the clauses of seed 002 that allow two readings (docs/rules/riverside.md).

    Attributes:
        rending_ap: "that hit has AP(4)": ``"max"`` gives the hit AP(4) unless the weapon's own
            AP is higher; ``"add"`` adds 4 to the weapon's AP as GFF does.
        widened_critical: Extra Shooty's "Shooty now Critically Hits on a 5 or 6": ``"all"``
            makes a 5 a Critical Hit for every Critical Hit effect of the ranged attack (Rending,
            Shock); ``"shooty"`` lets a 5 trigger Shooty's Bonus Hit only.
        rout_when_shooting: apply "Results of the Morale Test" (Rout at half strength) to
            Morale Tests outside melee too; by default a failed one only Shakes ("Morale Tests").
        stealth_range: Stealth's -1 applies to shooting from over this many inches; ``None``
            (Example 1 names no range) applies it to all shooting.
    """

    rending_ap: RendingAp = "max"
    widened_critical: WidenedCritical = "all"
    rout_when_shooting: bool = False
    stealth_range: float | None = None

    def __post_init__(self) -> None:
        if self.rending_ap not in ("max", "add"):
            raise OptionError(
                "unknown Rending AP reading",
                value=self.rending_ap,
                expected="'max' or 'add'",
                where="rending_ap",
            )
        if self.widened_critical not in ("all", "shooty"):
            raise OptionError(
                "unknown Extra Shooty reading",
                value=self.widened_critical,
                expected="'all' or 'shooty'",
                where="widened_critical",
            )
        if self.stealth_range is not None and self.stealth_range < 0:
            raise OptionError(
                "stealth_range out of range",
                value=self.stealth_range,
                expected="0 or more inches, or None",
                where="stealth_range",
            )


#: The default readings.
READINGS = Readings()


@dataclass(frozen=True, slots=True)
class Situation:
    """Where and how an attack happens.

    Attributes:
        melee: a melee attack (else a Ranged Attack).
        charging: the attack is the attacker's Charge Action (else shooting or Return Strikes).
        distance: inches between the units (only :attr:`Readings.stealth_range` reads it).
        cover: the target has Cover from this shooting (+1 to Defense against ranged weapons).
        fatigued: the attacker is Fatigued, or Shaken (which "count as being Fatigued"): its
            melee attacks only succeed on rolls of 6.
        attacker: whose clock or pool the attacker's checks use.
        defender: whose clock or pool the defender's checks use.
    """

    melee: bool = False
    charging: bool = False
    distance: float = 12.0
    cover: bool = False
    fatigued: bool = False
    attacker: Owner = ATTACKER
    defender: Owner = DEFENDER


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit: its AP, and whether it is a Bonus Hit (which can't Critically Hit)."""

    ap: int
    bonus: bool = False


# --- Roll Attacks --------------------------------------------------------------------------


def good_shot_applies(p: AttackProfile, s: Situation) -> bool:
    """Good Shot is a shooting skill: it replaces the difficulty of ranged attacks only."""
    return p.good_shot and not s.melee and not p.melee


def hit_replacements(p: AttackProfile, s: Situation) -> tuple[int, ...]:
    """Replacement effects on the hit roll (Example 1: Good Shot 4+, Reliable 2+).

    "Apply any replacement effects in the order you choose": the roller chooses, so the lowest
    stands (:attr:`~oprlab.mechanics.Check.base_difficulty`).
    """
    out: list[int] = []
    if good_shot_applies(p, s):
        out.append(GOOD_SHOT)
    if p.reliable:
        out.append(RELIABLE)
    return tuple(out)


def stealth_applies(s: Situation, d: DefenderProfile, r: Readings = READINGS) -> bool:
    """Stealth makes shooting at the unit harder (Example 1: "Stealth changes success to 3+")."""
    if not d.stealth or s.melee:
        return False
    return r.stealth_range is None or s.distance > r.stealth_range


def hit_modifiers(
    p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings = READINGS
) -> list[int]:
    """Every modifier to this weapon's hit rolls, by rule (applied after replacements)."""
    return [-1] if stealth_applies(s, d, r) else []


def fatigue_applies(s: Situation) -> bool:
    """Fatigue: "fatigued units only hit on a roll of 6" with melee weapons (Shaken too)."""
    return s.fatigued and s.melee


def hit_check(p: AttackProfile, s: Situation, d: DefenderProfile, r: Readings = READINGS) -> Check:
    """One attack's roll (seed 002 "Roll Attacks"): the model's Quality is the base difficulty.

    Extra Shooty widens Critical Hits to 5 (``critical_from``); a widened roll "must succeed".
    """
    owner = s.attacker if s.attacker.pool else replace(s.attacker, pool=p.name)
    return Check(
        Test.HIT,
        p.quality,
        replacements=hit_replacements(p, s),
        modifier=sum(hit_modifiers(p, s, d, r)),
        owner=owner,
        critical_from=p.critical_from,
        unmodified_six_only=fatigue_applies(s),
        pool_size=max(1, p.dice),
    )


def critical_hit(hit: Outcome, r: Readings = READINGS) -> bool:
    """Whether a roll triggers Critical Hit effects (Rending, Shock, Furious).

    "Rolls of 6"; a roll of 5 widened by Extra Shooty counts for every effect under the default
    reading, for Shooty's Bonus Hit only under ``widened_critical="shooty"``.
    """
    if not hit.critical:
        return False
    return r.widened_critical == "all" or hit.natural >= 6


def furious_bonus(p: AttackProfile, s: Situation, critical: bool) -> int:
    """Furious: a Critical Hit during its Charge Action generates 1 Bonus Hit."""
    return int(p.furious and critical and s.melee and s.charging)


def shooty_bonus(p: AttackProfile, s: Situation, hit: Outcome) -> int:
    """Shooty: a Critical Hit with a ranged weapon generates 1 Bonus Hit (5 or 6 with Extra
    Shooty on a unit that already had Shooty)."""
    return int(p.shooty and hit.critical and not s.melee and not p.melee)


def shock_bonus(p: AttackProfile, critical: bool) -> int:
    """Shock: "multiplied by 3", read as 2 Bonus Hits, not chained with Shooty (seed 002
    "Shooty and Shock")."""
    return SHOCK_BONUS if p.shock and critical else 0


def bonus_hits(p: AttackProfile, s: Situation, hit: Outcome, r: Readings = READINGS) -> int:
    """Bonus Hits one attack roll generates; they add up and never chain (seed 002)."""
    critical = critical_hit(hit, r)
    return furious_bonus(p, s, critical) + shooty_bonus(p, s, hit) + shock_bonus(p, critical)


def critical_ap(p: AttackProfile, r: Readings = READINGS) -> int:
    """Rending: a Critical Hit "has AP(4)" (a hit keeps a higher AP of its own)."""
    if r.rending_ap == "add":
        return p.ap + RENDING_AP
    return max(p.ap, RENDING_AP)


def blast_multiplier(p: AttackProfile, d: DefenderProfile) -> int:
    """Blast[X]: each hit is multiplied by X or the models in the target unit, the lesser."""
    return max(1, min(p.blast, d.blast_models)) if p.blast > 1 else 1


def hits_from(
    p: AttackProfile, s: Situation, d: DefenderProfile, hit: Outcome, r: Readings = READINGS
) -> tuple[Hit, ...]:
    """The hits one attack roll makes: the hit, its Bonus Hits, all multiplied by Blast.

    The hit keeps its Critical Hit effects (Rending's AP) through Blast; Bonus Hits are copies
    without them, and "Bonus Hits do copy Blast". Blast multiplies the die's hits once: its
    copies do not generate Bonus Hits of their own.
    """
    if not hit.success:
        return ()
    critical = critical_hit(hit, r)
    original = Hit(critical_ap(p, r) if p.rending and critical else p.ap)
    hits = (original,) + (Hit(p.ap, bonus=True),) * bonus_hits(p, s, hit, r)
    return hits * blast_multiplier(p, d)


# --- Roll Defense --------------------------------------------------------------------------


def cover_applies(p: AttackProfile, s: Situation) -> bool:
    """Cover: +1 to Defense against ranged weapons, not stacking; "Weapons with Blast ignore
    cover"."""
    return s.cover and not s.melee and not p.melee and p.blast <= 1


def defense_check(p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit) -> Check:
    """One Defense roll against one hit (seed 002 "Roll Defense"): AP(X) gives -X, Cover +1."""
    modifier = -hit.ap + (1 if cover_applies(p, s) else 0)
    return Check(Test.DEFENSE, d.defense, modifier=modifier, owner=s.defender)


def wounds_from_block(p: AttackProfile, block: Outcome) -> int:
    """A success discards the Hit; a failure causes 1 Wound (Deadly(X): X on one model)."""
    return 0 if block.success else p.deadly


# --- Regeneration --------------------------------------------------------------------------


def regenerates(d: DefenderProfile) -> bool:
    """Regeneration rolls are made for the unit's wounds when it has Regeneration."""
    return d.regeneration


def regeneration_check(p: AttackProfile, s: Situation) -> Check:
    """One Regeneration roll per wound: ignored on a 5+; Rending gives the roll -1."""
    modifier = RENDING_REGENERATION if p.rending else 0
    return Check(Test.REGENERATION, REGENERATION_TARGET, modifier=modifier, owner=s.defender)


@dataclass(frozen=True, slots=True)
class RiversideHooks:
    """Seed 002's clauses under ``readings`` for the shared chain
    (:class:`~oprlab.rules.attack_chain.AttackHooks`); no Defense roll is re-rolled."""

    readings: Readings = READINGS

    def hit_check(self, p: AttackProfile, s: Situation, d: DefenderProfile) -> Check:
        return hit_check(p, s, d, self.readings)

    def hits_from(
        self, p: AttackProfile, s: Situation, d: DefenderProfile, hit: Outcome
    ) -> tuple[Hit, ...]:
        return hits_from(p, s, d, hit, self.readings)

    defense_check = staticmethod(defense_check)
    wounds_from_block = staticmethod(wounds_from_block)

    @staticmethod
    def rerolls_block(p: AttackProfile, block: Outcome) -> bool:
        return False

    @staticmethod
    def regeneration_check(p: AttackProfile, s: Situation, d: DefenderProfile) -> Check | None:
        return regeneration_check(p, s) if regenerates(d) else None
