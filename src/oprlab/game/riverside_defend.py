"""One Riverside attack split at its Defense rolls, so the defender may spend bennies in between.

Seed 000_e2a2d86473ae65c4 variation 5 ("Bennies"): "Defend against any single attack (even if it
would have bypassed Defense)", read as in GFF (:mod:`oprlab.game.gff_defend`): one benny defends
one hit. Seed 002_fdb385c07cc953af "Resolving Attacks" rolls every attack die at a target first
("Roll Attacks"), then one Defense roll per Hit ("Roll Defense"): the hits are known between the
two, and that is where the attack pauses for the defending side's ``DEFEND`` decision: a Ranged
Attack's volley at one target (:class:`Volley`), or one strike of a Melee Attack (:class:`Strike`:
the charger's attack or the Return Strikes, the rest of the fight kept as a :class:`Fight`), or a
spell's hits (``Defending.spell``: seed 002 "a wound from a spell", its hits known once the
casting roll succeeds).

:func:`roll_hits` then :func:`resolve_hits` roll the same checks in the same order as
:func:`oprlab.game.riverside_combat.resolve_groups` (and, for one group,
:func:`oprlab.rules.riverside.resolve.resolve_attack`): an attack with nothing defended is that
attack, die for die (tested). The steps are those of the shared chain
(:func:`oprlab.rules.attack_chain.roll_wounds`) through Riverside's hooks, with Cover decided per
group of shooting models.

May import ``oprlab.game.actions``, ``oprlab.game.benny_defence``, ``oprlab.rules`` and below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from oprlab.game import benny_defence
from oprlab.game.actions import Action
from oprlab.rules.attack_chain import Roller
from oprlab.rules.riverside.attack import READINGS, Hit, Readings, RiversideHooks, Situation
from oprlab.rules.riverside.casualties import remove_casualties
from oprlab.rules.riverside.profile import AttackProfile, DefenderProfile
from oprlab.rules.riverside.resolve import AttackResult, finish

#: Each weapon's profile, the situation it attacks in (Cover or not), and the hits its dice made.
Rolled = tuple[tuple[AttackProfile, Situation, tuple[Hit, ...]], ...]


@dataclass(frozen=True)
class Group:
    """Weapons that attack one target in one situation (the models with Cover, or without)."""

    weapons: tuple[AttackProfile, ...]
    situation: Situation


@dataclass(frozen=True)
class Volley:
    """One target of a Ranged Attack and the groups of weapons fired at it (read before any
    attack: "Choose Targets" and "Determine Cover" precede "Resolve Attacks")."""

    target: str
    groups: tuple[Group, ...]
    distance: float

    @property
    def dice(self) -> int:
        return sum(p.dice for g in self.groups for p in g.weapons)

    @property
    def covered_dice(self) -> int:
        return sum(p.dice for g in self.groups if g.situation.cover for p in g.weapons)

    @property
    def weapons(self) -> tuple[str, ...]:
        return tuple(sorted({p.name for g in self.groups for p in g.weapons}))

    def with_extra_die(self) -> Volley:
        """One more attack die for the first weapon (a benny's "single extra attack")."""
        if not self.groups:
            return self
        g = self.groups[0]
        first = replace(g.weapons[0], dice=g.weapons[0].dice + 1)
        return replace(self, groups=(replace(g, weapons=(first, *g.weapons[1:])), *self.groups[1:]))


@dataclass(frozen=True)
class Strike:
    """One side's melee attack (seed 002 "Determine Attacks" or "Return Strikes"), planned.

    Attributes:
        unit: the striking unit; ``target``: the unit it attacks.
        step: ``"charge"`` or ``"return strikes"``.
        strikers: its models within 2" of the target.
        weapons: their melee weapons (and Impact on the charge), each with its dice.
        situation: melee, charging or not, Fatigued (or Shaken) or not, the owners.
    """

    unit: str
    target: str
    step: str
    strikers: int
    weapons: tuple[AttackProfile, ...]
    situation: Situation

    @property
    def groups(self) -> tuple[Group, ...]:
        return (Group(self.weapons, self.situation),) if self.weapons else ()


@dataclass(frozen=True)
class Fight:
    """A Melee Attack after the charge move, step by step (seed 002 "Melee Attacks" 2-5).

    Attributes:
        charger, target: the charging unit and the unit charged.
        extra: the charger's attack has a benny's extra die.
        step: the next strike: ``"charge"``, ``"return strikes"``, or ``"morale"`` (both done).
        dealt, taken: the wounds the charger caused and took so far.
    """

    charger: str
    target: str
    extra: bool = False
    step: str = "charge"
    dealt: int = 0
    taken: int = 0

    def after(self, wounds: int) -> Fight:
        """The fight once the current strike caused ``wounds``."""
        if self.step == "charge":
            return replace(self, step="return strikes", dealt=wounds)
        return replace(self, step="morale", taken=wounds)


def roll_hits(
    groups: Sequence[Group], d: DefenderProfile, roller: Roller, readings: Readings = READINGS
) -> Rolled:
    """Seed 002 "Roll Attacks": every attack die, group by group, weapon by weapon."""
    hooks = RiversideHooks(readings)
    rolled = []
    for g in groups:
        s = g.situation
        for p in g.weapons:
            check = hooks.hit_check(p, s, d)
            hits: list[Hit] = []
            for _ in range(p.dice):
                hits.extend(hooks.hits_from(p, s, d, roller.roll(check)))
            rolled.append((p, s, tuple(hits)))
    return tuple(rolled)


def hit_count(rolled: Rolled) -> int:
    return sum(len(h) for _, _, h in rolled)


def defended_hits(rolled: Rolled, n: int) -> set[tuple[int, int]]:
    """The ``n`` hits a benny defends (weapon index, hit index): the ones that hurt most.

    Deadly hits first (the most wounds), then the highest AP (a Rending hit's AP(4)), then hits
    without Cover (their Defense roll is the harder one), then the rolling order
    (:func:`oprlab.game.benny_defence.defended_hits`).
    """
    return benny_defence.defended_hits(
        [(p.deadly, [h.ap for h in hits], s.cover) for p, s, hits in rolled], n
    )


def resolve_hits(
    rolled: Rolled,
    d: DefenderProfile,
    roller: Roller,
    readings: Readings = READINGS,
    *,
    defended: int = 0,
) -> AttackResult:
    """Seed 002 "Roll Defense" on, for the hits not defended: one Defense roll per hit,
    Regeneration per wound, Remove Casualties once, then the Morale Test (outside melee).

    A defended hit rolls nothing and wounds nobody (Deadly and Rending never come into play).
    """
    hooks = RiversideHooks(readings)
    skip = defended_hits(rolled, defended)
    unsaved: list[tuple[AttackProfile, Situation, int]] = []
    for i, (p, s, hits) in enumerate(rolled):
        for j, hit in enumerate(hits):
            if (i, j) in skip:
                continue
            size = hooks.wounds_from_block(p, roller.roll(hooks.defense_check(p, s, d, hit)))
            if size:
                unsaved.append((p, s, size))
    ordinary = 0
    packets: list[int] = []
    for p, s, size in unsaved:
        regeneration = hooks.regeneration_check(p, s, d)
        if regeneration is not None:
            size = sum(not roller.roll(regeneration).success for _ in range(size))
        if p.deadly > 1:
            packets.append(size)
        else:
            ordinary += size
    after = remove_casualties(d, ordinary, packets)
    melee = bool(rolled) and rolled[0][1].melee
    s0 = replace(rolled[0][1], cover=False) if rolled else Situation(melee=melee)
    return finish(d, after, ordinary + sum(packets), hit_count(rolled), s0, roller, readings)


@dataclass(frozen=True)
class Defending:
    """An attack waiting for the defender's ``DEFEND`` decision (kept in ``state.defending``).

    Attributes:
        attacker: the attacking unit's uid; ``target``: the unit hit.
        side: the side whose activation it is (play passes on from it afterwards).
        rolled: the attack's hits.
        volley: a Ranged Attack's volley (for the log); ``rest``: its other volley to fire.
        strike, fight: a melee strike and the Melee Attack it is part of.
        spell: a spell's name when its hits are the attack (the caster is ``attacker``; its
            activation goes on from the caster's pending step afterwards).
    """

    attacker: str
    target: str
    side: int
    rolled: Rolled
    volley: Volley | None = None
    rest: tuple[Volley, ...] = ()
    strike: Strike | None = None
    fight: Fight | None = None
    spell: str = ""


def defend_actions(shot: Defending, bennies: int) -> list[Action]:
    """0 up to one benny per hit, no more than the side's ``bennies``."""
    return benny_defence.defend_actions(shot.target, shot.attacker, hit_count(shot.rolled), bennies)


def defend_problem(shot: Defending, unit: str, a: Action, bennies: int) -> str | None:
    """Why ``a`` (a ``DEFEND`` by ``unit``) may not be taken against ``shot``, or ``None``."""
    return benny_defence.defend_problem(
        shot.target, shot.attacker, hit_count(shot.rolled), unit, a, bennies, who="the attacker"
    )


__all__: Sequence[str] = [
    "Defending",
    "Fight",
    "Group",
    "Rolled",
    "Strike",
    "Volley",
    "defend_actions",
    "defend_problem",
    "defended_hits",
    "hit_count",
    "resolve_hits",
    "roll_hits",
]
