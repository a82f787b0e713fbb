"""GFF attacks split at their Defense rolls, so the defender may spend bennies in between.

Seed 000 variation 5 ("Bennies"): "Defend against any single attack (even if it would have
bypassed Defense)". oprlab reads a single attack as one hit: once an attack's hits on a unit are
known and before its Defense rolls, the defending side may spend one benny per hit to defend
against it automatically (``Kind.DEFEND``). :func:`roll_hits` then :func:`resolve_hits` roll the
same checks in the same order as :func:`oprlab.rules.gff.resolve.resolve_attack` (tested), so an
attack with nothing defended is that attack, die for die. Shots (:class:`Defending`), the
attacks of a melee exchange (:class:`MeleeDefending`, one pause per attack of the exchange:
Impact, Counter, the strikes, the strike back) and a spell's hits (:class:`SpellDefending`)
each wait in ``state.defending`` for the decision.

May import ``oprlab.game.actions``, ``oprlab.game.benny_defence``, ``oprlab.rules`` and below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from oprlab.game import benny_defence
from oprlab.game.actions import Action
from oprlab.rules.gff.attack import HOOKS, GffHooks, Hit, Situation
from oprlab.rules.gff.melee import Blow, Exchange
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from oprlab.rules.gff.resolve import AttackResult, Roller, finish
from oprlab.rules.gff.wounds import take_wounds
from oprlab.units.model import Weapon

#: One weapon's profile and the hits its dice made (Deadly weapons first).
Rolled = tuple[tuple[AttackProfile, tuple[Hit, ...]], ...]


def roll_hits(
    weapons: Sequence[AttackProfile],
    defender: DefenderProfile,
    situation: Situation,
    r: Roller,
    hooks: GffHooks = HOOKS,
) -> Rolled:
    """Every attack die of one attack, Deadly weapons first ("resolved first"); ``hooks``:
    the dice clauses (the game's rules' ``attack_hooks``: seed 003's or a house rule's)."""
    ordered = sorted(weapons, key=lambda p: p.deadly == 1)  # stable: Deadly first
    rolled = []
    for p in ordered:
        check = hooks.hit_check(p, situation, defender)
        hits: list[Hit] = []
        for _ in range(p.dice):
            hits.extend(hooks.hits_from(p, situation, defender, r.roll(check)))
        rolled.append((p, tuple(hits)))
    return tuple(rolled)


def hit_count(rolled: Rolled) -> int:
    return sum(len(h) for _, h in rolled)


def defended_hits(rolled: Rolled, n: int) -> set[tuple[int, int]]:
    """The ``n`` hits a benny defends (weapon index, hit index): the ones that hurt most.

    Deadly hits first (the most wounds), then the highest AP, then the list order
    (:func:`oprlab.game.benny_defence.defended_hits`; GFF decides Cover for the whole attack).
    """
    return benny_defence.defended_hits(
        [(p.deadly, [h.ap for h in hits], False) for p, hits in rolled], n
    )


def resolve_hits(
    rolled: Rolled,
    defender: DefenderProfile,
    situation: Situation,
    r: Roller,
    *,
    defended: int = 0,
    fear: int = 0,
    hooks: GffHooks = HOOKS,
) -> AttackResult:
    """The rest of the attack: a Defense roll per hit not defended (Bane's re-roll at once),
    Regeneration per wound, the wound effect. A defended hit rolls nothing and wounds nobody
    (Deadly, Rending's AP and Bane never come into play); Blast's copies are hits like others.
    ``hooks``: the dice clauses, as :func:`roll_hits`.
    """
    skip = defended_hits(rolled, defended)
    unsaved: list[tuple[AttackProfile, int]] = []
    for i, (p, hits) in enumerate(rolled):
        for j, hit in enumerate(hits):
            if (i, j) in skip:
                continue
            block = r.roll(hooks.defense_check(p, situation, defender, hit))
            if hooks.rerolls_block(p, block):
                block = r.roll(hooks.defense_check(p, situation, defender, hit))
            unsaved.append((p, hooks.wounds_from_block(p, block)))
    deadly: list[int] = []
    ordinary = 0
    for p, size in unsaved:
        regeneration = hooks.regeneration_check(p, situation, defender) if size else None
        if regeneration is not None:
            size = sum(not r.roll(regeneration).success for _ in range(size))
        if p.deadly > 1:
            deadly.append(size)
        else:
            ordinary += size
    damage = take_wounds(defender, deadly, ordinary)
    return finish(defender, damage, sum(deadly) + ordinary, hit_count(rolled), situation, r, fear)


@dataclass(frozen=True)
class Share:
    """One other unit's share of a Blast attack, resolved after the target's.

    Attributes:
        unit: the unit hit (of the target's side, within 3" of the target).
        rolled: its hits (Blast weapons only).
        situation: the attack's situation with this unit's clock as the defender's and no
            cover (Blast ignores cover).
    """

    unit: str
    rolled: Rolled
    situation: Situation


@dataclass(frozen=True)
class Defending:
    """A shot waiting for the defender's ``DEFEND`` decision (kept in ``state.defending``).

    Attributes:
        shooter: the shooting unit's uid; ``side``: its side (play passes on from it).
        target: the unit hit.
        rolled: the attack's hits.
        situation: the attack's situation (distance, cover, owners).
        weapons: the profiles' names (for the log).
        dice: the attack dice rolled.
        distance, cover: for the log.
        rest: the shot's other target still to fire at: (uid, the weapon lines that fire at
            it, distance), if any.
        moved: the shooter moved this activation (Indirect).
        shares: Blast: the other units' shares of the hits, resolved after this one
            (:mod:`oprlab.game.gff_blast`).
        blast_of: when this is such a share, the shot's target (else empty).
    """

    shooter: str
    side: int
    target: str
    rolled: Rolled
    situation: Situation
    weapons: tuple[str, ...]
    dice: int
    distance: float
    cover: bool
    rest: tuple[tuple[str, tuple[Weapon, ...], float], ...]
    moved: bool
    shares: tuple[Share, ...] = ()
    blast_of: str = ""

    @property
    def attacker(self) -> str:
        return self.shooter


@dataclass(frozen=True)
class MeleeDefending:
    """One attack of a melee exchange waiting for its victim's ``DEFEND`` decision.

    Attributes:
        charger, charged: the charging and the charged unit's uids (the charge goes on).
        side: the charger's side (play passes on from it).
        attacker, target: the striking unit and the unit hit (either way round).
        exchange: the exchange, already past this attack's step.
        blow: the attack (its weapons, target as it stands in the exchange, situation, Fear).
        rolled: its hits.
        defended: hits defended earlier in this exchange (for the log).
    """

    charger: str
    charged: str
    side: int
    attacker: str
    target: str
    exchange: Exchange
    blow: Blow
    rolled: Rolled
    defended: int = 0

    @property
    def situation(self) -> Situation:
        return self.blow.situation


@dataclass(frozen=True)
class SpellDefending:
    """A spell's hits waiting for the target's ``DEFEND`` decision; the caster then acts.

    Attributes:
        attacker: the caster; ``target``: the unit hit; ``side``: the caster's side.
        spell: its name; ``rolled``: its hits (one weapon line, no dice rolled: spells hit).
        situation: the hits' situation; ``defender``: the target as it stood.
        tried: the spells the caster has tried this activation.
    """

    attacker: str
    target: str
    side: int
    spell: str
    rolled: Rolled
    situation: Situation
    defender: DefenderProfile
    tried: tuple[str, ...]


#: Any attack waiting for a ``DEFEND`` decision (and the same for ``isinstance``).
Waiting = Defending | MeleeDefending | SpellDefending
WAITING = (Defending, MeleeDefending, SpellDefending)


def defend_actions(shot: Waiting, bennies: int) -> list[Action]:
    """0 up to one benny per hit, no more than the side's ``bennies``."""
    return benny_defence.defend_actions(shot.target, shot.attacker, hit_count(shot.rolled), bennies)


def defend_problem(shot: Waiting, unit: str, a: Action, bennies: int) -> str | None:
    """Why ``a`` (a ``DEFEND`` by ``unit``) may not be taken against ``shot``, or ``None``."""
    return benny_defence.defend_problem(
        shot.target,
        shot.attacker,
        hit_count(shot.rolled),
        unit,
        a,
        bennies,
        who="the shooter, striker or caster",
    )
