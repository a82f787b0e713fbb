"""What one attack brings to the Riverside pipeline (seed 002), read once from unit and weapon.

Special rules are looked up by name here, so the pipeline's hooks read plain fields
(``profile.rending``) rather than searching rule lists on every die. The defender carries its
current condition (models left, wounds on its wounded Tough model, a joined Hero), so wounds are
tracked from one attack to the next.

May import ``oprlab.errors`` and ``oprlab.units``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oprlab.errors import OptionError
from oprlab.rules.weapon_lines import lines
from oprlab.units.model import Unit, Weapon
from oprlab.units.rule_scope import unit_rule

#: "Shooty now Critically Hits on a 5 or 6" (seed 002 "Extra Shooty").
EXTRA_SHOOTY_CRITICAL = 5
#: Critical Hit: "Rolls of 6" (seed 002 "Critical Hit").
CRITICAL = 6
#: OPR stats run from 2+ to 6+.
LOWEST_STAT = 2
HIGHEST_STAT = 6


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """One weapon of an attacking unit, with every rule that touches its attack dice.

    Unit rules that act through weapons (Furious, Good Shot, Shooty, Extra Shooty) are folded
    in here.

    Attributes:
        dice: attack dice: count x attacks.
        critical_from: the lowest unmodified roll that Critically Hits (5 with Extra Shooty on
            a unit that already had Shooty, ranged weapons only).
        deadly: Deadly(X), not in seed 002: read as in GFF (see docs/rules/riverside.md).
        shock: Shock: a Critical Hit brings 2 Bonus Hits ("Shooty and Shock").
    """

    name: str
    dice: int
    quality: int
    melee: bool
    range: int | None = None
    ap: int = 0
    blast: int = 1
    deadly: int = 1
    critical_from: int = CRITICAL
    furious: bool = False
    good_shot: bool = False
    reliable: bool = False
    rending: bool = False
    shock: bool = False
    shooty: bool = False

    def __post_init__(self) -> None:
        where = f"attack profile {self.name!r}"
        _stat("quality", self.quality, where)
        for field_name, value, low in (
            ("dice", self.dice, 0),
            ("ap", self.ap, 0),
            ("blast", self.blast, 1),
            ("deadly", self.deadly, 1),
        ):
            if value < low:
                raise OptionError(
                    f"{field_name} out of range",
                    value=value,
                    expected=f"{low} or more",
                    where=where,
                )
        if self.critical_from not in (EXTRA_SHOOTY_CRITICAL, CRITICAL):
            raise OptionError(
                "critical_from out of range",
                value=self.critical_from,
                expected="6, or 5 with Extra Shooty",
                where=where,
            )


@dataclass(frozen=True, slots=True)
class HeroProfile:
    """A Hero joined to the defending unit: it takes wounds last (seed 002 "Remove Casualties").

    Attributes:
        tough: its Tough(X), 1 when it has none.
        wounds: wounds it already carries.
        quality: its Quality, used for Morale Tests once the rest of the unit is gone.
    """

    tough: int = 1
    wounds: int = 0
    quality: int = 4

    def __post_init__(self) -> None:
        _tough("joined hero", self.tough, self.wounds)
        _stat("quality", self.quality, "joined hero")


@dataclass(frozen=True, slots=True)
class DefenderProfile:
    """The defending unit as one attack sees it: its stats and current condition.

    Units are homogeneous except for an optional joined Hero, so the casualty order of seed 002
    is a line: the wounded Tough model, the unwounded ones, then the Hero.

    Attributes:
        defense: the unit's Defense; every Defense roll of the unit uses it.
        models: models of the main unit still in play (the joined Hero not counted).
        quality: the unit's Quality (Morale Tests).
        tough: Tough(X) of the main unit's models, 1 when they have none.
        wounds: wounds on the main unit's wounded Tough model (at most one is wounded).
        started: models the unit started the game with, Hero included (default: now).
        shaken: the unit is Shaken.
        regeneration: the unit has Regeneration.
        stealth: the unit has Stealth.
        hero: a joined Hero, if any.
    """

    defense: int
    models: int
    quality: int
    tough: int = 1
    wounds: int = 0
    started: int | None = None
    shaken: bool = False
    regeneration: bool = False
    stealth: bool = False
    hero: HeroProfile | None = None

    def __post_init__(self) -> None:
        where = "defender profile"
        _stat("defense", self.defense, where)
        _stat("quality", self.quality, where)
        if self.models < 0:
            raise OptionError(
                "models out of range", value=self.models, expected="0 or more", where=where
            )
        _tough(where, self.tough, self.wounds)
        if self.models == 0 and self.wounds:
            raise OptionError(
                "a unit with no models left carries no wounds",
                value=self.wounds,
                expected="wounds=0",
                where=where,
            )
        if self.started is not None and self.started < self.size:
            raise OptionError(
                "a unit cannot have more models than it started the game with",
                value=self.started,
                expected=f"started >= {self.size}",
                where=where,
            )

    @property
    def size(self) -> int:
        """Models in the unit now, the joined Hero included."""
        return self.models + (self.hero is not None)

    @property
    def start_size(self) -> int:
        """Models the unit started the game with."""
        return self.size if self.started is None else self.started

    @property
    def single_model(self) -> bool:
        """A single model unit (seed 002 "Morale Tests"): it started the game as one model."""
        return self.start_size == 1

    @property
    def blast_models(self) -> int:
        """Blast[X] multiplies up to "the number of models in the target unit"."""
        return self.size


def _stat(name: str, value: int, where: str) -> None:
    if not LOWEST_STAT <= value <= HIGHEST_STAT:
        raise OptionError(
            f"{name} out of range", value=value, expected="2 to 6 (2+ to 6+)", where=where
        )


def _tough(where: str, tough: int, wounds: int) -> None:
    if tough < 1:
        raise OptionError("Tough(X) out of range", value=tough, expected="1 or more", where=where)
    if not 0 <= wounds < tough:
        raise OptionError(
            "wounds out of range: a model is removed at its Tough value",
            value=wounds,
            expected=f"0 to {tough - 1}",
            where=where,
        )


def attack_profile(unit: Unit, weapon: Weapon) -> AttackProfile:
    """Read one weapon line of ``unit`` into a profile (seed 002 "Critical Hit Abilities").

    Furious, Shooty and Good Shot act per model ("a model with Furious"): a unit rule counts
    when every model has it, and a line of :func:`~oprlab.rules.weapon_lines.lines` carried by
    the models that have it carries it itself. Extra Shooty acts for the unit ("This model and
    its unit have Shooty"): any model gives every line Shooty; a line whose models already had
    Shooty of their own Critically Hits on a 5 or 6 with ranged weapons
    (docs/rules/README.md "Rules that some models have").
    """
    own_shooty = weapon.has("Shooty") or unit_rule(unit, "Shooty")
    extra = unit_rule(unit, "Extra Shooty")
    widened = own_shooty and extra and not weapon.melee
    return AttackProfile(
        name=weapon.name,
        dice=weapon.count * weapon.attacks,
        quality=unit.quality,
        melee=weapon.melee,
        range=weapon.range,
        ap=weapon.rating("AP") or 0,
        blast=weapon.rating("Blast") or 1,
        deadly=weapon.rating("Deadly") or 1,
        critical_from=EXTRA_SHOOTY_CRITICAL if widened else CRITICAL,
        furious=weapon.has("Furious") or unit_rule(unit, "Furious"),
        good_shot=weapon.has("Good Shot") or unit_rule(unit, "Good Shot"),
        reliable=weapon.has("Reliable"),
        rending=weapon.has("Rending"),
        shock=weapon.has("Shock"),
        shooty=own_shooty or extra,
    )


def attack_profiles(
    unit: Unit,
    weapons: Iterable[Weapon] | None = None,
    *,
    alive: int | None = None,
    attacking: int | None = None,
) -> tuple[AttackProfile, ...]:
    """The profiles of ``weapons`` as ``attacking`` of the ``alive`` models use them, split by
    the per-model rules of those models (:func:`~oprlab.rules.weapon_lines.lines`)."""
    return tuple(
        attack_profile(unit, w) for w in lines(unit, weapons, alive=alive, attacking=attacking)
    )


def hero_profile(hero: Unit, *, wounds: int = 0) -> HeroProfile:
    """Read a joined Hero unit (one model) into a profile."""
    return HeroProfile(tough=hero.tough, wounds=wounds, quality=hero.quality)


def defender_profile(
    unit: Unit,
    *,
    models: int | None = None,
    wounds: int = 0,
    shaken: bool = False,
    hero: HeroProfile | None = None,
    started: int | None = None,
) -> DefenderProfile:
    """Read a unit into a defender profile; Regeneration and Stealth need every model's.

    Args:
        unit: the defending unit (its models as Army Forge lists them).
        models: models still in play (default: the unit's size).
        wounds: wounds on its wounded Tough model.
        shaken: the unit is Shaken.
        hero: a joined Hero.
        started: models at the start of the game, Hero included (default: the unit's size,
            plus the Hero).
    """
    first = unit.size + (hero is not None)
    return DefenderProfile(
        defense=unit.defense,
        models=unit.size if models is None else models,
        quality=unit.quality,
        tough=unit.tough,
        wounds=wounds,
        started=first if started is None else started,
        shaken=shaken,
        regeneration=unit_rule(unit, "Regeneration"),
        stealth=unit_rule(unit, "Stealth"),
        hero=hero,
    )
