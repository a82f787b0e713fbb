"""What one attack brings to the GFF pipeline, read once from the unit and weapon.

Special rules are looked up by name here, so the pipeline's hooks read plain fields
(``profile.rending``) rather than searching rule lists on every die.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from oprlab.memo import game_memo
from oprlab.rules.weapon_lines import lines
from oprlab.units.model import Rule, Unit, Weapon
from oprlab.units.rule_scope import unit_rule


@dataclass(frozen=True, slots=True)
class AttackProfile:
    """One weapon of an attacking unit, with every rule that touches its attack dice.

    Unit rules that act through weapons (Furious, Relentless) are folded in here.
    ``far``: the shooting models are over 9" from the target (Relentless, Stealth) when a game
    measures each model (docs/rules/gff.md); ``None`` reads the situation's distance.
    """

    name: str
    dice: int  # attack dice: count x attacks
    quality: int
    melee: bool
    range: int | None = None
    ap: int = 0
    blast: int = 1
    deadly: int = 1
    bane: bool = False
    furious: bool = False
    indirect: bool = False
    relentless: bool = False
    reliable: bool = False
    rending: bool = False
    surge: bool = False
    thrust: bool = False
    unstoppable: bool = False
    far: bool | None = None

    @property
    def ignores_regeneration(self) -> bool:
        """Bane, Rending and Unstoppable each ignore Regeneration (seed 003)."""
        return self.bane or self.rending or self.unstoppable


@dataclass(frozen=True, slots=True)
class DefenderProfile:
    """The defending unit as one attack sees it: its stats and current condition.

    Attributes:
        models: models still in play.
        markers: wound markers already on the last model.
        near: Blast: enemy models in the target unit and within 3" of it (default: all).
    """

    defense: int
    models: int
    tough: int = 1
    markers: int = 0
    shaken: bool = False
    regeneration: bool = False
    stealth: bool = False
    near: int | None = None

    @property
    def blast_models(self) -> int:
        return self.models if self.near is None else self.near


#: :func:`attack_profile` by the identity of its unit and weapon line: a unit and its lines are
#: frozen, and :func:`~oprlab.rules.weapon_lines.lines` hands back the same line objects for
#: the same models, so the commanders' estimates read each line once, not on every new query
#: (hashing a frozen Unit walks all its fields). Each entry holds both, so their ids stay
#: unique while it is there; the memo is dropped whole when it grows past its limit, and
#: emptied when a game of other armies begins (a game memo: :mod:`oprlab.memo`).
_PROFILES: dict[tuple[int, int], tuple[Unit, Weapon, AttackProfile]] = game_memo(
    "rules.gff.profile._PROFILES"
)
_PROFILES_LIMIT = 4096


def attack_profile(unit: Unit, weapon: Weapon) -> AttackProfile:
    """Read one weapon line of ``unit`` into a profile (seed 003 "Special Rules Reference").

    Furious and Relentless act per model ("When this model shoots"): a unit rule counts when
    every model has it; a line of :func:`~oprlab.rules.weapon_lines.lines` carried by the
    models that have it carries it itself (docs/rules/README.md "Rules that some models have").
    """
    key = (id(unit), id(weapon))
    hit = _PROFILES.get(key)
    if hit is not None and hit[0] is unit and hit[1] is weapon:
        return hit[2]
    found = _read_profile(unit, weapon)
    if len(_PROFILES) >= _PROFILES_LIMIT:
        _PROFILES.clear()
    _PROFILES[key] = (unit, weapon, found)
    return found


def _read_profile(unit: Unit, weapon: Weapon) -> AttackProfile:

    def either(name: str) -> bool:
        return weapon.has(name) or unit_rule(unit, name)

    return AttackProfile(
        name=weapon.name,
        dice=weapon.count * weapon.attacks,
        quality=unit.quality,
        melee=weapon.melee,
        range=weapon.range,
        ap=weapon.rating("AP") or 0,
        blast=weapon.rating("Blast") or 1,
        deadly=weapon.rating("Deadly") or 1,
        bane=weapon.has("Bane"),
        furious=either("Furious"),
        indirect=weapon.has("Indirect"),
        relentless=either("Relentless"),
        reliable=weapon.has("Reliable"),
        rending=weapon.has("Rending"),
        surge=weapon.has("Surge"),
        thrust=weapon.has("Thrust"),
        unstoppable=weapon.has("Unstoppable"),
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


def defender_profile(
    unit: Unit, *, models: int | None = None, markers: int = 0, shaken: bool = False
) -> DefenderProfile:
    """Read a unit into a defender profile; "all models have this rule" rules need the unit's."""
    return DefenderProfile(
        defense=unit.defense,
        models=unit.size if models is None else models,
        tough=unit.tough,
        markers=markers,
        shaken=shaken,
        regeneration=unit_rule(unit, "Regeneration"),
        stealth=unit_rule(unit, "Stealth"),
    )


def all_rules(rules: tuple[Rule, ...]) -> list[Rule]:
    """Every rule, and the rules each one grants, depth first."""
    out: list[Rule] = []
    for r in rules:
        out.append(r)
        out.extend(all_rules(r.rules))
    return out


def _models_with(rule: Rule, size: int) -> int:
    """How many models carry ``rule``: its ``{n}x`` count, else every model of the unit."""
    return min(size, rule.count) if rule.count is not None else size


def impact_dice(unit: Unit) -> int:
    """The unit's Impact dice: Impact(X) is per model, so X for every model that has it."""
    return sum(
        (r.rating or 0) * _models_with(r, unit.size)
        for r in all_rules(unit.rules)
        if r.name.casefold() == "impact"
    )


def counter_models(unit: Unit) -> int:
    """Models of ``unit`` with Counter (on a weapon, or as a unit rule), at most its size.

    Counter: "the charging unit gets -1 total Impact rolls per model with Counter".
    """
    armed = sum(w.count for w in unit.weapons if w.has("Counter"))
    ruled = max(
        (
            _models_with(r, unit.size)
            for r in all_rules(unit.rules)
            if r.name.casefold() == "counter"
        ),
        default=0,
    )
    return min(unit.size, max(armed, ruled))
