"""Every special rule oprlab knows by name, and the rules of an army that it does not know.

A list names rules (``Tough(3)``, ``Blast(3)``, ``Good Shot``); the rule systems give them
meaning. This registry says, for each name the seed texts use, whether it takes a rating and
what the rating means, whether units or weapons carry it, which of our systems give it meaning
(``gff`` = seed 003, ``riverside`` = seed 002, ``clock`` = a DOPR translation in seed 000), a
one-line summary in our own words, and the seed clauses it comes from. It does not implement any
rule: that is the business of ``oprlab.rules``.

How names are read:

- Names match case-insensitively, ignoring a trailing rating in ``(...)`` or ``[...]`` or after a
  space (``Blast[X]``, ``Blast(3)``, ``AP 4``, ``Tough (6)``), and treating ``-``/``_`` as spaces.
- A rule that carries rules (``Banner(Fearless)``, ``Master Necromancer(Caster(3))``) is an
  *item*: its own name is not looked up, the rules it carries are. A bare ``Banner`` carries
  nothing, so it is looked up as a rule, and stays unknown: no meaning is invented for it.
- Unknown rules stay in the :class:`~oprlab.units.model.Army`; :func:`unknown_rules` lists them
  with their place, and ``validate_army`` reports each one.

May import ``oprlab.units.model`` only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from oprlab.display import name_label
from oprlab.units.model import Army, Rule

__all__ = [
    "Carrier",
    "RuleSpec",
    "System",
    "UnknownRule",
    "iter_rules",
    "known_rules",
    "lookup",
    "normalize",
    "unknown_rules",
]

#: Where a rule is written in a list: on a unit (or an item it carries) or on a weapon.
Carrier = Literal["unit", "weapon"]
#: Which of oprlab's systems give a rule meaning: ``gff`` (seed 003), ``riverside`` (seed 002),
#: ``clock`` (the DOPR translation list of seed 000).
System = Literal["gff", "riverside", "clock"]

_GFF = "seed 003_8abb008d4113ed75"
_RIV = "seed 002_fdb385c07cc953af"
_DOPR = "seed 000_e2a2d86473ae65c4"


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """What oprlab knows about one special rule's name.

    Attributes:
        name: the canonical name (``"Tough"``).
        rating: what the rating X means, or ``None`` when the rule takes no rating.
        carried: where lists write it: ``"unit"``, ``"weapon"`` or both.
        systems: the systems that give it meaning (see :data:`System`).
        summary: one line in our own words (never the rule text).
        sources: the seed clauses that name it.
        aliases: other spellings that mean the same rule.
        rating_optional: the rating may be left out (only where the seeds name the rule but give
            it no rating, while lists write one).
    """

    name: str
    rating: str | None
    carried: frozenset[Carrier]
    systems: frozenset[System]
    summary: str
    sources: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    rating_optional: bool = False

    @property
    def rated(self) -> bool:
        """Whether the rule takes a rating X."""
        return self.rating is not None

    @property
    def needs_rating(self) -> bool:
        """Whether a list must give the rating (``Tough`` alone is incomplete)."""
        return self.rating is not None and not self.rating_optional


@dataclass(frozen=True, slots=True)
class UnknownRule:
    """A rule of an army that the registry does not know, and where it is.

    Attributes:
        where: the place, e.g. ``"units[2] 'Grunt Squad' weapons[0] 'Rifle' rules[0]"``.
        rule: the rule as the list gives it (kept, never dropped).
    """

    where: str
    rule: Rule


_U: frozenset[Carrier] = frozenset({"unit"})
_W: frozenset[Carrier] = frozenset({"weapon"})
_UW: frozenset[Carrier] = frozenset({"unit", "weapon"})


def _sys(*names: System) -> frozenset[System]:
    return frozenset(names)


def _gff(name: str) -> str:
    return f'{_GFF} "SPECIAL RULES REFERENCE": {name}'


def _riv(clause: str) -> str:
    return f'{_RIV} "{clause}"'


def _dopr(name: str) -> str:
    return f'{_DOPR} "Other Rules": {name}'


_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec(
        "Aircraft",
        None,
        _U,
        _sys("clock"),
        "Attacks against this unit are one step harder (clock: +1 to what the attacker adds).",
        (_dopr("Aircraft"),),
    ),
    RuleSpec(
        "Ambush",
        None,
        _U,
        _sys("gff", "riverside"),
        'Held back at deployment and placed from round 2 on, over 9" from enemies.',
        (_gff("Ambush"), _riv("Deployment Phase: Ambush Deployment")),
    ),
    RuleSpec(
        "AP",
        "Defense penalty against each hit",
        _W,
        _sys("gff", "riverside", "clock"),
        "Hits from this weapon are blocked X steps harder.",
        (
            _gff("AP(X)"),
            _riv("Rolling Dice: Example 2"),
            _riv("Critical Hit Abilities: Rending"),
            _dopr("AP(X)"),
        ),
    ),
    RuleSpec(
        "Bane",
        None,
        _W,
        _sys("gff"),
        "Cancels Regeneration, and the target rerolls its natural 6s on Defense.",
        (_gff("Bane"),),
    ),
    RuleSpec(
        "Blast",
        "most hits each hit becomes",
        _W,
        _sys("gff", "riverside"),
        "Ignores cover; each hit becomes up to X hits, capped by the models it can reach.",
        (_gff("Blast(X)"), _riv("Critical Hit Abilities: Blast[X]")),
    ),
    RuleSpec(
        "Caster",
        "spell tokens gained each round",
        _U,
        _sys("gff", "riverside", "clock"),
        "Gains X spell tokens a round (at most 6 held) to spend on spells cast on 4+.",
        (_gff("Caster(X)"), _riv("Beginning Phase"), _dopr("Caster(X)")),
    ),
    RuleSpec(
        "Counter",
        None,
        _W,
        _sys("gff"),
        "Strikes first when charged and blunts the charger's Impact.",
        (_gff("Counter"),),
    ),
    RuleSpec(
        "Deadly",
        "wounds each unblocked hit deals to one model",
        _W,
        _sys("gff"),
        "Each wound lands on one model multiplied by X, resolved first, without spill-over.",
        (_gff("Deadly(X)"),),
    ),
    RuleSpec(
        "Entrenched",
        None,
        _U,
        _sys("clock"),
        'Attacks from over 12" away are two steps harder (clock: +2 to what is added).',
        (_dopr("Entrenched"),),
    ),
    RuleSpec(
        "Extra Shooty",
        None,
        _U,
        _sys("riverside"),
        "Gives the unit Shooty; if it already had it, its ranged criticals come on 5 or 6.",
        (_riv("Critical Hit Abilities: Extra Shooty"),),
    ),
    RuleSpec(
        "Fast",
        None,
        _U,
        _sys("gff"),
        'Moves 2" further on Advance and 4" further on Rush or Charge.',
        (_gff("Fast"),),
    ),
    RuleSpec(
        "Fear",
        "extra wounds counted for melee wound effects",
        _U,
        _sys("gff"),
        "In melee, wound effects are checked as if X more wounds were dealt (needs one wound).",
        (_gff("Fear(X)"),),
    ),
    RuleSpec(
        "Fearless",
        None,
        _U,
        _sys("gff", "clock"),
        "A failed morale test of an all-Fearless unit is passed anyway on a 4+.",
        (_gff("Fearless"), _dopr("Fearless")),
    ),
    RuleSpec(
        "Flying",
        None,
        _U,
        _sys("gff", "riverside"),
        "Moves over units and terrain, ignoring terrain while moving (and jumping rolls).",
        (_gff("Flying"), _riv("Special Rules: Flying")),
    ),
    RuleSpec(
        "Furious",
        None,
        _U,
        _sys("gff", "riverside", "clock"),
        "On the charge, a natural 6 to hit in melee adds one more hit with no critical effects.",
        (_gff("Furious"), _riv("Critical Hit Abilities: Furious"), _dopr("Furious")),
    ),
    RuleSpec(
        "Good Shot",
        None,
        _U,
        _sys("riverside"),
        "Shooting uses 4+ in place of the model's Quality (a replacement effect).",
        (_riv("Rolling Dice: Example 1"),),
    ),
    RuleSpec(
        "Hero",
        None,
        _U,
        _sys("gff", "riverside"),
        "A leader: lends its Quality to morale tests nearby (GFF), takes wounds last (Riverside).",
        (_gff("Hero"), _riv("Remove Casualties"), _riv("Terms: Infantry")),
    ),
    RuleSpec(
        "Immobile",
        None,
        _U,
        _sys("gff"),
        "Can only take Hold actions.",
        (_gff("Immobile"),),
    ),
    RuleSpec(
        "Impact",
        "dice rolled after charging",
        _U,
        _sys("gff", "riverside", "clock"),
        "After charging (not fatigued), rolls X dice and hits the target on each 2+.",
        (_gff("Impact(X)"), _riv("Morale Tests"), _dopr("Impact(X)")),
    ),
    RuleSpec(
        "Indirect",
        None,
        _W,
        _sys("gff", "clock"),
        "Fires without line of sight and ignores sight-blocker cover; -1 to hit after moving.",
        (_gff("Indirect"), _dopr("Indirect")),
    ),
    RuleSpec(
        "Limited",
        None,
        _W,
        _sys("gff"),
        "Usable once per game.",
        (_gff("Limited"),),
    ),
    RuleSpec(
        "Poison",
        None,
        _W,
        _sys("clock"),
        "Regeneration against it is one step harder; a natural-6 block must be made again.",
        (_dopr("Poison"),),
    ),
    RuleSpec(
        "Regeneration",
        None,
        _U,
        _sys("gff", "riverside", "clock"),
        "An all-Regeneration unit ignores each wound on a 5+.",
        (_gff("Regeneration"), _riv("Critical Hit Abilities: Rending"), _dopr("Regeneration")),
    ),
    RuleSpec(
        "Relentless",
        None,
        _U,
        _sys("gff", "clock"),
        'Shooting at targets over 9" away, a natural 6 to hit adds one more hit.',
        (_gff("Relentless"), _dopr("Relentless")),
    ),
    RuleSpec(
        "Reliable",
        None,
        _W,
        _sys("gff", "riverside"),
        "Attacks with this weapon use Quality 2+ (a replacement effect in Riverside).",
        (_gff("Reliable"), _riv("Rolling Dice: Example 1")),
    ),
    RuleSpec(
        "Rending",
        None,
        _W,
        _sys("gff", "riverside", "clock"),
        "Natural 6s to hit pierce armour (AP 4); works against Regeneration (texts differ).",
        (_gff("Rending"), _riv("Critical Hit Abilities: Rending"), _dopr("Rending")),
    ),
    RuleSpec(
        "Scout",
        None,
        _U,
        _sys("gff", "riverside"),
        'Deploys after the others, up to 12" beyond its deployment zone.',
        (_gff("Scout"), _riv("Deployment Phase: Scout Deployment")),
    ),
    RuleSpec(
        "Shock",
        None,
        _W,
        _sys("riverside"),
        "A natural 6 on a ranged attack brings two more hits (does not chain with Shooty).",
        (_riv("Critical Hit Abilities: Shooty and Shock"),),
    ),
    RuleSpec(
        "Shooty",
        None,
        _U,
        _sys("riverside"),
        "A ranged Critical Hit brings one Bonus Hit.",
        (_riv("Critical Hit Abilities: Shooty"), _riv("Critical Hit Abilities: Shooty and Shock")),
    ),
    RuleSpec(
        "Slow",
        None,
        _U,
        _sys("gff"),
        'Moves 2" less on Advance and 4" less on Rush or Charge.',
        (_gff("Slow"),),
    ),
    RuleSpec(
        "Stealth",
        None,
        _U,
        _sys("gff", "riverside", "clock"),
        'Shooting at it is one step harder (GFF from over 9", DOPR from over 12").',
        (_gff("Stealth"), _riv("Rolling Dice: Example 1"), _dopr("Stealth")),
    ),
    RuleSpec(
        "Strider",
        None,
        _U,
        _sys("gff"),
        "Ignores difficult terrain and jumps on 2+.",
        (_gff("Strider"),),
    ),
    RuleSpec(
        "Surge",
        None,
        _W,
        _sys("gff"),
        "A natural 6 to hit with this weapon adds one more hit.",
        (_gff("Surge"),),
    ),
    RuleSpec(
        "Take Down",
        None,
        _UW,
        _sys("riverside"),
        "Named only: its wounds land within the attack and trigger no morale test of their own.",
        (_riv("Morale Tests"),),
        aliases=("Takedown",),
    ),
    RuleSpec(
        "Teleport",
        None,
        _U,
        _sys("riverside"),
        'Once per activation, before attacking, the unit may be placed anywhere within 6".',
        (_riv("Special Rules: Teleport"),),
    ),
    RuleSpec(
        "Thrust",
        None,
        _W,
        _sys("gff"),
        "On the charge: +1 to hit and one more point of AP in melee.",
        (_gff("Thrust"),),
    ),
    RuleSpec(
        "Tough",
        "wounds a model takes before wound effects (GFF) or before it falls (Riverside)",
        _U,
        _sys("gff", "riverside"),
        "Absorbs X wounds; GFF knocks it out on 5+X, Riverside removes it at X wounds.",
        (
            _gff("Tough(X)"),
            _riv("Remove Casualties"),
            _riv("Morale Tests"),
            _riv("Terrain Types: Dangerous Terrain"),
            _riv("Terms: Large Model"),
        ),
    ),
    RuleSpec(
        "Transport",
        "models it can carry (lists write it; the seed gives no number)",
        _U,
        _sys("riverside"),
        'Named only: models embarking into it may come within 1" of it.',
        (_riv('Movement: 1" Spacing'),),
        rating_optional=True,
    ),
    RuleSpec(
        "Unstoppable",
        None,
        _W,
        _sys("gff"),
        "Cancels Regeneration and ignores every negative modifier to this weapon.",
        (_gff("Unstoppable"),),
    ),
)

_TRAILING_RATING = re.compile(r"\s*(?:\([^()]*\)|\[[^\[\]]*\]|\s\+?-?\d+)\s*$")
_SEPARATORS = re.compile(r"[\s_\-]+")


def normalize(name: str) -> str:
    """The lookup key of a rule name: case-folded, trailing rating dropped, spaces collapsed.

    ``"Blast[X]"``, ``"blast(3)"``, ``"BLAST"`` all give ``"blast"``; ``"AP 4"`` gives ``"ap"``.
    """
    text = _TRAILING_RATING.sub("", name.strip())
    return _SEPARATORS.sub(" ", text).strip().casefold()


def _index() -> dict[str, RuleSpec]:
    out: dict[str, RuleSpec] = {}
    for spec in _SPECS:
        for key in (spec.name, *spec.aliases):
            k = normalize(key)
            if k in out:  # pragma: no cover - guards the table above
                raise RuntimeError(f"duplicate rule name {key!r}")
            out[k] = spec
    return out


_BY_NAME = _index()


def lookup(name: str) -> RuleSpec | None:
    """The rule called ``name`` (any case, alias, or with its rating written), else ``None``."""
    return _BY_NAME.get(normalize(name))


def known_rules() -> tuple[RuleSpec, ...]:
    """Every known rule, sorted by name."""
    return tuple(sorted(_SPECS, key=lambda s: s.name.casefold()))


def _leaves(rules: tuple[Rule, ...], where: str) -> Iterator[tuple[str, Rule]]:
    for i, rule in enumerate(rules):
        place = f"{where} rules[{i}]"
        if rule.rules:  # an item: what it carries is looked up, not its own name
            yield from _leaves(rule.rules, f"{place} {name_label(rule.name)}")
        else:
            yield place, rule


def iter_rules(army: Army) -> Iterator[tuple[str, Rule, Carrier]]:
    """Every rule of ``army`` that names a rule (items opened up), with its place and carrier.

    Places read like ``"units[1] 'Grunt Squad' rules[0]"`` or
    ``"units[1] 'Grunt Squad' weapons[0] 'Rifle' rules[1]"``; a rule inside an item reads
    ``"units[0] 'Champion' rules[2] 'Banner' rules[0]"``.
    """
    for u, unit in enumerate(army.units):
        at = f"units[{u}] {name_label(unit.name)}"
        for place, rule in _leaves(unit.rules, at):
            yield place, rule, "unit"
        for w, weapon in enumerate(unit.weapons):
            here = f"{at} weapons[{w}] {name_label(weapon.name)}"
            for place, rule in _leaves(weapon.rules, here):
                yield place, rule, "weapon"


def unknown_rules(army: Army) -> list[UnknownRule]:
    """Every rule of ``army`` the registry does not know, in list order, with its place."""
    return [
        UnknownRule(place, rule) for place, rule, _ in iter_rules(army) if lookup(rule.name) is None
    ]
