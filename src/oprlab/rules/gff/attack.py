"""The GFF attack, one die at a time, as seed 003 words it.

Each special rule that touches an attack is one named hook below. The hooks are pure: given the
situation and a check's :class:`~oprlab.mechanics.Outcome` they say what follows. Both drivers
use them: :mod:`oprlab.rules.gff.resolve` rolls checks in the rulebook's order with any mechanic
(d6 or clock, sampled or certain), and :mod:`oprlab.analysis.exact` composes each die's whole
chain exactly before summing, so critical rules stay exact.

May import ``oprlab.mechanics`` and ``oprlab.units``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from oprlab.mechanics import Check, Outcome, Owner, Test
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile

#: Relentless and Stealth act "over 9" away" (seed 003).
LONG_RANGE = 9.0
#: Rending: "those hits get AP(+4)".
RENDING_AP = 4
#: Regeneration: "On a 5+ it is ignored".
REGENERATION_TARGET = 5
#: Impact: "For each 2+ the target takes one hit".
IMPACT_TARGET = 2
#: Default owners of the two sides' checks (their clocks or token pools).
ATTACKER = Owner(army="attacker", unit="attacker")
DEFENDER = Owner(army="defender", unit="defender")


@dataclass(frozen=True, slots=True)
class Situation:
    """Where and how an attack happens.

    Attributes:
        melee: a melee attack (else shooting).
        charging: the attacker charged this activation.
        distance: inches between the units (shooting: Relentless, Stealth, range).
        moved: the attacker moved before shooting (Indirect).
        cover: the target has cover from this shooting (+1 to Defense rolls).
        cover_from_blockers: that cover comes only from sight blockers, not from standing in
            cover terrain; Indirect ignores exactly this kind of cover.
        fatigued: the attacker is Fatigued (or Shaken striking back): melee hits only on 6s.
        attacker: whose clock or pool the attacker's checks use.
        defender: whose clock or pool the defender's checks use.
    """

    melee: bool = False
    charging: bool = False
    distance: float = 12.0
    moved: bool = False
    cover: bool = False
    cover_from_blockers: bool = False
    fatigued: bool = False
    attacker: Owner = ATTACKER
    defender: Owner = DEFENDER


@dataclass(frozen=True, slots=True)
class Hit:
    """One hit: its AP, and whether it is an extra hit (which never counts as a 6)."""

    ap: int
    extra: bool = False


# --- to hit --------------------------------------------------------------------------------


def thrust_applies(p: AttackProfile, s: Situation) -> bool:
    """Thrust: "When charging, gets +1 to hit rolls and AP(+1) in melee"."""
    return p.thrust and s.melee and s.charging


def far(p: AttackProfile, s: Situation) -> bool:
    """Shooting from over 9" (Relentless, Stealth): the profile's own shooters' distance when
    a game measures each model (``p.far``), else the situation's."""
    return not s.melee and (s.distance > LONG_RANGE if p.far is None else p.far)


def hit_modifiers(p: AttackProfile, s: Situation, d: DefenderProfile) -> list[int]:
    """Every modifier to this weapon's hit rolls, by rule."""
    mods: list[int] = []
    if thrust_applies(p, s):
        mods.append(+1)
    if d.stealth and far(p, s):
        mods.append(-1)  # Stealth: shot from over 9" away
    if p.indirect and not s.melee and s.moved:
        mods.append(-1)  # Indirect: shooting after moving
    if p.unstoppable:
        mods = [m for m in mods if m > 0]  # Unstoppable: ignores all negative modifiers
    return mods


def hit_check(p: AttackProfile, s: Situation, d: DefenderProfile) -> Check:
    """One attack's quality test (seed 003 "Shooting": one quality test per attack).

    Reliable is a replacement (Quality 2+). Fatigue: only unmodified 6s hit in melee.
    """
    return Check(
        Test.HIT,
        p.quality,
        replacements=(2,) if p.reliable else (),
        modifier=sum(hit_modifiers(p, s, d)),
        owner=replace(s.attacker, pool=p.name),  # tokens: a pool per weapon (seed 000)
        unmodified_six_only=s.fatigued and s.melee,
        pool_size=p.dice,
    )


def extra_hits(p: AttackProfile, s: Situation, six: bool) -> int:
    """Extra hits from an unmodified 6: Furious (charging, melee), Relentless (shooting over
    9"), Surge (always). Each rule deals 1 extra hit; only the original hit counts as a 6."""
    if not six:
        return 0
    furious = p.furious and s.melee and s.charging
    relentless = p.relentless and far(p, s)
    return int(furious) + int(relentless) + int(p.surge)


def blast_multiplier(p: AttackProfile, d: DefenderProfile) -> int:
    """Blast(X): each hit is multiplied by X, up to the enemy models in the target (and 3")."""
    return max(1, min(p.blast, d.blast_models)) if p.blast > 1 else 1


def hits_from(p: AttackProfile, s: Situation, d: DefenderProfile, hit: Outcome) -> tuple[Hit, ...]:
    """The hits one attack die makes, after extra hits and then Blast (seed 003)."""
    if not hit.success:
        return ()
    six = hit.critical
    base_ap = p.ap + (1 if thrust_applies(p, s) else 0)
    original = Hit(base_ap + (RENDING_AP if p.rending and six else 0))
    hits = [original] + [Hit(base_ap, extra=True)] * extra_hits(p, s, six)
    return tuple(hits) * blast_multiplier(p, d)


# --- Defense ------------------------------------------------------------------------------


def ignores_cover(p: AttackProfile, s: Situation | None = None) -> bool:
    """Blast "Ignores cover"; Indirect "ignores cover from sight obstructions" only.

    Cover from standing inside cover terrain still counts against Indirect; without a
    situation the cover is taken to be terrain cover.
    """
    if p.blast > 1:
        return True
    return p.indirect and s is not None and s.cover_from_blockers


def defense_check(p: AttackProfile, s: Situation, d: DefenderProfile, hit: Hit) -> Check:
    """One Defense roll against one hit: AP(X) gives -X; cover gives +1 against shooting."""
    modifier = -hit.ap
    if s.cover and not s.melee and not ignores_cover(p, s):
        modifier += 1
    return Check(
        Test.DEFENSE, d.defense, modifier=modifier, owner=replace(s.defender, pool="defense")
    )


def bane_reroll(p: AttackProfile, block: Outcome) -> bool:
    """Bane: the target must re-roll unmodified Defense results of 6."""
    return p.bane and block.natural == 6


def wounds_from_block(p: AttackProfile, block: Outcome) -> int:
    """A failed block causes one wound; Deadly(X) multiplies it by X."""
    return 0 if block.success else p.deadly


# --- Regeneration -------------------------------------------------------------------------


def regenerates(p: AttackProfile, d: DefenderProfile) -> bool:
    """Regeneration applies when all models have it and the weapon does not ignore it."""
    return d.regeneration and not p.ignores_regeneration


def regeneration_check(s: Situation) -> Check:
    """One Regeneration roll per wound: on a 5+ it is ignored."""
    return Check(Test.REGENERATION, REGENERATION_TARGET, owner=s.defender)


# --- Impact -------------------------------------------------------------------------------


def impact_check(s: Situation) -> Check:
    """Impact(X): roll X dice after charging, each 2+ is a hit (a Q2+ check on the clock)."""
    return Check(Test.GENERIC, IMPACT_TARGET, owner=s.attacker)


def impact_profile(quality: int, dice: int) -> AttackProfile:
    """Impact hits as a weapon: no AP, no special rules."""
    return AttackProfile(name="Impact", dice=dice, quality=quality, melee=True, reliable=True)


def impact_attack(
    quality: int, impact: int, s: Situation, counter: int = 0
) -> AttackProfile | None:
    """The Impact dice a unit rolls in this attack, as a weapon, or ``None`` when it rolls none.

    Impact(X): "Roll X dice when attacking after charging, unless fatigued"; Counter: "the
    charging unit gets -1 total Impact rolls per model with Counter".

    Args:
        quality: the attacker's Quality (unused by the 2+ roll, kept for the check's record).
        impact: the unit's total Impact dice (:func:`~oprlab.rules.gff.profile.impact_dice`).
        s: the attack's situation: Impact needs a melee attack after charging, not fatigued.
        counter: models of the charged unit with a Counter weapon
            (:func:`~oprlab.rules.gff.profile.counter_models`).
    """
    if not (s.melee and s.charging) or s.fatigued:
        return None
    dice = impact - counter
    return impact_profile(quality, dice) if dice > 0 else None


class GffHooks:
    """Seed 003's clauses for the shared chain (:class:`~oprlab.rules.attack_chain.AttackHooks`).

    The hooks above are bound as they are (no wrapper frame: the rolling driver calls them for
    every die and hit); Bane is the re-roll, and Regeneration's check comes with its condition.
    """

    __slots__ = ()

    #: The distances the clauses compare a shot's distance with (the fast path's cache keys
    #: on which side of each a shot is): Relentless and Stealth's 9".
    long_ranges: tuple[float, ...] = (LONG_RANGE,)

    hit_check = staticmethod(hit_check)
    hits_from = staticmethod(hits_from)
    defense_check = staticmethod(defense_check)
    rerolls_block = staticmethod(bane_reroll)
    wounds_from_block = staticmethod(wounds_from_block)

    @staticmethod
    def regeneration_check(p: AttackProfile, s: Situation, d: DefenderProfile) -> Check | None:
        return regeneration_check(s) if regenerates(p, d) else None


#: The GFF hooks (they read no options).
HOOKS = GffHooks()
