"""Check an army list and report every problem at once, the way python-chess's ``status()`` does.

Parsers raise on the first thing they cannot read; once a list is read, :func:`validate_army`
looks at all of it and returns a :class:`Problem` for each thing wrong, so a player fixes a list
in one pass. Problems name their place (``units[2] 'Grunt Squad'``) and say what the value is and
what would be right. An army with no problems gives ``[]``.

Two levels: ``"error"`` (the list is broken or breaks a limit) and ``"warning"`` (the list is
legal but oprlab will not use part of it: an unknown rule, or a weapon with ``A0``, which Army
Forge uses for items that make no attacks). A list with no error can be played: ``battle``,
``odds`` and ``efficiency`` refuse lists with errors using this same validation
(:func:`playable_problems`), and the text and JSON readers leave every judgement of a value to
it, so both formats get the same messages.

Limits (:mod:`oprlab.limits`, docs/limits.md) are errors too: models per unit and per army,
units per army, attacks per weapon, weapons per model, and the ratings of Tough, Deadly, Blast
and every other rule.

Readings of seed 003_8abb008d4113ed75 "Force Org (Optional)" (applied when ``force_org`` is on
and the army's system is one of :data:`FORCE_ORG_SYSTEMS`; other systems have other limits that
no seed gives, so they are not checked):

- The points are the army's points limit, or the points spent when the list gives no limit.
- "1 hero per 150pts": one per *full* 150pts, but at least one, so a 100pts list may still field
  its one hero (``max(1, points // 150)``).
- "1+X copies, X is 1 per 150pts": ``1 + points // 150`` units of the same name, Quality and
  Defense (upgrades do not make a different unit), joined heroes included. A combined unit
  counts as the two units it was made of, here and in the unit count.
- "No single unit worth over 35%": a unit's cost above 35% of the points; a joined hero is its
  own unit.
- "Max 1 unit per 30pts" and "max 1 model per full 20pts": ``points // 30`` units and
  ``points // 20`` models (the sum of unit sizes).

May import ``oprlab.units.model``, ``oprlab.units.special_rules``, ``oprlab.limits`` and
``oprlab.display``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from oprlab.display import name_label, shorten
from oprlab.limits import (
    DOCS,
    MAX_ARMY_MODELS,
    MAX_ARMY_UNITS,
    MAX_BLAST,
    MAX_DEADLY,
    MAX_DEADLY_WOUNDS,
    MAX_RATING,
    MAX_TOUGH,
    MAX_UNIT_DICE,
    MAX_UNIT_SIZE,
    MAX_UNIT_WOUNDS,
    MAX_WEAPON_ATTACKS,
    MAX_WEAPONS_PER_MODEL,
)
from oprlab.units.model import Army, Rule, Unit, Weapon
from oprlab.units.special_rules import iter_rules, lookup, unknown_rules

__all__ = [
    "FORCE_ORG_SYSTEMS",
    "Level",
    "Problem",
    "errors",
    "playable_problems",
    "validate_army",
]

#: Ratings with their own limit (any other rule's rating is limited by MAX_RATING).
RATING_LIMITS = {"tough": MAX_TOUGH, "deadly": MAX_DEADLY, "blast": MAX_BLAST}

Level = Literal["error", "warning"]

#: Game systems (Army Forge's ``gameSystem`` short names) whose lists follow the Force Org of
#: seed 003: Grimdark Future Firefight and its fantasy twin Age of Fantasy Skirmish.
FORCE_ORG_SYSTEMS = frozenset({"GFF", "AOFS"})

QUALITY_RANGE = (2, 6)
DEFENSE_RANGE = (2, 6)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a list.

    Attributes:
        where: the place: ``"army"``, ``"units[2] 'Grunt Squad'"``, or deeper.
        message: what is wrong with the value and what would be right.
        level: ``"error"`` or ``"warning"`` (see the module docstring).
    """

    where: str
    message: str
    level: Level = "error"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" + (" (warning)" if self.level == "warning" else "")


def errors(problems: list[Problem]) -> list[Problem]:
    """Only the ``"error"`` problems: a list with none of them can be played."""
    return [p for p in problems if p.level == "error"]


def playable_problems(army: Army) -> list[Problem]:
    """What a game or an odds query checks before it starts: every problem but the optional
    Force Org (``army validate --no-force-org`` shows the same list). The list can be played
    when none of them is an error."""
    return validate_army(army, force_org=False)


def _over(what: str, value: int, limit: int, unit: str = "") -> str:
    return f"{what} {value} is over the limit of {limit}{unit} (see {DOCS})"


def validate_army(army: Army, *, force_org: bool = True) -> list[Problem]:
    """Every problem of ``army``, grouped by check, in list order; ``[]`` when there is none.

    Args:
        army: the list to check.
        force_org: also check seed 003's optional Force Org, for systems in
            :data:`FORCE_ORG_SYSTEMS`.
    """
    problems: list[Problem] = []
    problems += _check_points(army)
    problems += _check_size(army)
    for i, unit in enumerate(army.units):
        problems += _check_unit(i, unit)
    problems += _check_uids(army)
    problems += _check_joins(army)
    problems += _check_rules(army)
    if force_org and army.system.strip().upper() in FORCE_ORG_SYSTEMS:
        problems += _check_force_org(army)
    return problems


def _at(i: int, unit: Unit) -> str:
    return f"units[{i}] {name_label(unit.name)}"


def _check_size(army: Army) -> list[Problem]:
    out: list[Problem] = []
    if not army.units:
        out.append(Problem("army", "the list has no units; expected at least one unit"))
    if len(army.units) > MAX_ARMY_UNITS:
        out.append(Problem("army", _over("units:", len(army.units), MAX_ARMY_UNITS)))
    models = sum(max(u.size, 0) for u in army.units)
    if models > MAX_ARMY_MODELS:
        out.append(Problem("army", _over("models:", models, MAX_ARMY_MODELS)))
    return out


def _check_points(army: Army) -> list[Problem]:
    out: list[Problem] = []
    if army.points < 0:
        out.append(
            Problem(
                "army", f"points limit {army.points} is negative; expected 0 (no limit) or more"
            )
        )
    elif army.points > 0 and army.cost > army.points:
        over = army.cost - army.points
        out.append(
            Problem(
                "army",
                f"spends {army.cost}pts, over the {army.points}pts limit; "
                f"remove at least {over}pts",
            )
        )
    return out


def _check_unit(i: int, unit: Unit) -> list[Problem]:
    at = _at(i, unit)
    out: list[Problem] = []
    if not unit.name.strip():
        out.append(Problem(at, "the unit has no name; expected a name"))
    if unit.size < 1:
        out.append(Problem(at, f"size {unit.size} is too small; expected at least 1 model"))
    elif unit.size > MAX_UNIT_SIZE:
        out.append(Problem(at, _over("size", unit.size, MAX_UNIT_SIZE, " models")))
    low, high = QUALITY_RANGE
    if not low <= unit.quality <= high:
        out.append(
            Problem(
                at,
                f"quality {unit.quality} is out of range; "
                f"expected {low} to {high} (Q{low}+ to Q{high}+)",
            )
        )
    low, high = DEFENSE_RANGE
    if not low <= unit.defense <= high:
        out.append(
            Problem(
                at,
                f"defense {unit.defense} is out of range; "
                f"expected {low} to {high} (D{low}+ to D{high}+)",
            )
        )
    if unit.cost < 0:
        out.append(Problem(at, f"cost {unit.cost}pts is negative; expected 0pts or more"))
    for w, weapon in enumerate(unit.weapons):
        out += _check_weapon(f"{at} weapons[{w}] {name_label(weapon.name)}", weapon, unit.size)
    out += _check_work(at, unit)
    return out


def _in_range(unit: Unit) -> bool:
    """Whether every number :func:`_check_work` multiplies is itself within its limit (if
    not, that number is reported alone)."""
    if not (1 <= unit.size <= MAX_UNIT_SIZE and 1 <= unit.tough <= MAX_TOUGH):
        return False
    return all(
        1 <= w.count <= unit.size * MAX_WEAPONS_PER_MODEL
        and 0 <= w.attacks <= MAX_WEAPON_ATTACKS
        and 1 <= (w.rating("Blast") or 1) <= MAX_BLAST
        and 1 <= (w.rating("Deadly") or 1) <= MAX_DEADLY
        for w in unit.weapons
    )


def _check_work(at: str, unit: Unit) -> list[Problem]:
    """The unit's size in work: the wounds it can take, the dice it rolls, the Deadly wounds
    it deals (odds and games grow with each)."""
    if not _in_range(unit):
        return []
    out: list[Problem] = []
    wounds = unit.size * unit.tough
    if wounds > MAX_UNIT_WOUNDS:
        what = f"wounds ({unit.size} models x Tough({unit.tough})):"
        out.append(Problem(at, _over(what, wounds, MAX_UNIT_WOUNDS)))
    dice = [w.count * w.attacks * (w.rating("Blast") or 1) for w in unit.weapons]
    impact = unit.size * min(max(unit.rating("Impact") or 0, 0), MAX_RATING)
    if sum(dice) + impact > MAX_UNIT_DICE:
        what = "attack dice (count x attacks x Blast, plus Impact):"
        out.append(Problem(at, _over(what, sum(dice) + impact, MAX_UNIT_DICE)))
    deadly = sum(
        n * (w.rating("Deadly") or 1)
        for n, w in zip(dice, unit.weapons, strict=True)
        if w.has("Deadly")
    )
    if deadly > MAX_DEADLY_WOUNDS:
        what = "Deadly wounds (dice x Deadly(X)):"
        out.append(Problem(at, _over(what, deadly, MAX_DEADLY_WOUNDS)))
    return out


def _check_weapon(at: str, weapon: Weapon, size: int) -> list[Problem]:
    out: list[Problem] = []
    most = size * MAX_WEAPONS_PER_MODEL
    if weapon.count < 1:
        out.append(Problem(at, f"count {weapon.count} is too small; expected at least 1"))
    elif size >= 1 and weapon.count > most:
        out.append(
            Problem(
                at,
                f"{weapon.count} of this weapon on {size} model(s) is over the limit of "
                f"{MAX_WEAPONS_PER_MODEL} per model, {most} in all (see {DOCS})",
            )
        )
    if weapon.attacks == 0:
        out.append(
            Problem(at, "A0: the weapon makes no attacks and is ignored in combat", "warning")
        )
    elif weapon.attacks < 0:
        out.append(Problem(at, f"attacks A{weapon.attacks} is negative; expected A1 or more"))
    elif weapon.attacks > MAX_WEAPON_ATTACKS:
        out.append(
            Problem(
                at,
                (
                    f"attacks A{weapon.attacks} is over the limit of A{MAX_WEAPON_ATTACKS} "
                    f"(see {DOCS})"
                ),
            )
        )
    if weapon.range is not None and weapon.range < 1:
        out.append(
            Problem(
                at,
                f'range {weapon.range}" is not a range; expected 1" or more, '
                "or no range for a melee weapon",
            )
        )
    return out


def _check_uids(army: Army) -> list[Problem]:
    seen: dict[str, int] = {}
    out: list[Problem] = []
    for i, unit in enumerate(army.units):
        if not unit.uid:
            continue
        if unit.uid in seen:
            first = seen[unit.uid]
            out.append(
                Problem(
                    _at(i, unit),
                    f"uid {name_label(unit.uid)} is already used by units[{first}]; "
                    "expected a unique uid",
                )
            )
        else:
            seen[unit.uid] = i
    return out


def _find_join(army: Army, ref: str) -> int | None:
    """The index of the unit ``ref`` names: by uid first, then by name (text lists)."""
    for i, unit in enumerate(army.units):
        if unit.uid and unit.uid == ref:
            return i
    key = ref.casefold()
    for i, unit in enumerate(army.units):
        if unit.name.casefold() == key:
            return i
    return None


def _check_joins(army: Army) -> list[Problem]:
    out: list[Problem] = []
    for i, unit in enumerate(army.units):
        if unit.joined_to is None:
            continue
        at = _at(i, unit)
        j = _find_join(army, unit.joined_to)
        if j is None:
            out.append(
                Problem(
                    at,
                    f"joined to {name_label(unit.joined_to)}, which is no unit of the list; "
                    "expected the uid or name of a unit in it",
                )
            )
            continue
        target = army.units[j]
        if not unit.hero:
            out.append(
                Problem(at, f"joins {_at(j, target)} but is not a Hero; only heroes join units")
            )
        if j == i:
            out.append(Problem(at, "is joined to itself; expected another unit"))
        elif target.hero:
            out.append(
                Problem(
                    at,
                    f"joins {_at(j, target)}, which is a Hero; expected a unit that is not a hero",
                )
            )
        elif target.joined_to is not None:
            out.append(
                Problem(
                    at,
                    f"joins {_at(j, target)}, which is itself joined to another unit; "
                    "expected a unit standing on its own",
                )
            )
    return out


def _rule_problem(rule: Rule) -> str | None:
    """What is wrong with a rule's count or rating: any rule over the limits; a known rule
    whose rating does not fit it (unknown rules are reported apart)."""
    label = shorten(rule.label)
    limit = RATING_LIMITS.get(rule.name.strip().casefold(), MAX_RATING)
    if rule.rating is not None and rule.rating > limit:
        return f"{label}: " + _over("the rating", rule.rating, limit)
    if rule.count is not None and rule.count > MAX_RATING:
        return f"{label}: " + _over("the count", rule.count, MAX_RATING)
    spec = lookup(rule.name)
    if spec is None:
        return None
    if rule.count is not None and rule.count < 1:
        return f"{label}: count {rule.count} is too small; expected 1x or more"
    if spec.rating is None:
        if rule.rating is not None:
            return f"{label}: {spec.name} takes no rating; write {spec.name}"
        return None
    if rule.rating is None:
        if spec.rating_optional:
            return None
        return f"{label}: {spec.name} needs a rating; write {spec.name}(X), X = {spec.rating}"
    if rule.rating < 1:
        return f"{label}: the rating of {spec.name} must be at least 1 (X = {spec.rating})"
    return None


def _check_rules(army: Army) -> list[Problem]:
    out: list[Problem] = []
    for place, rule, _carrier in iter_rules(army):
        message = _rule_problem(rule)
        if message is not None:
            out.append(Problem(place, message))
    for unknown in unknown_rules(army):
        rule = unknown.rule
        out.append(
            Problem(
                unknown.where,
                f"{shorten(rule.label)}: no rule of that name is known; it is kept but has no "
                "effect "
                "(expected a rule of the seed texts, see oprlab.units.special_rules)",
                "warning",
            )
        )
    return sorted(out, key=lambda p: _place_key(p.where))


def _place_key(where: str) -> tuple[int, ...]:
    """Sort places in list order: ``units[2] ... rules[10]`` after ``units[2] ... rules[9]``."""
    return tuple(int(n) for n in re.findall(r"\[(\d+)\]", where))


def _check_force_org(army: Army) -> list[Problem]:
    points = army.points if army.points > 0 else army.cost
    if points <= 0:
        return []
    out: list[Problem] = []

    heroes = [(i, u) for i, u in enumerate(army.units) if u.hero]
    max_heroes = max(1, points // 150)
    if len(heroes) > max_heroes:
        names = ", ".join(_at(i, u) for i, u in heroes)
        out.append(
            Problem(
                "army",
                f"{len(heroes)} heroes ({names}), over the limit of {max_heroes} for {points}pts "
                f"(1 per full 150pts, at least 1); remove {len(heroes) - max_heroes}",
            )
        )

    weight = [2 if u.combined else 1 for u in army.units]
    groups: dict[tuple[str, int, int], list[int]] = {}
    for i, u in enumerate(army.units):
        groups.setdefault((u.name.casefold(), u.quality, u.defense), []).append(i)
    max_copies = 1 + points // 150
    for idx in groups.values():
        copies = sum(weight[i] for i in idx)
        if copies > max_copies:
            first = army.units[idx[0]]
            places = ", ".join(f"units[{i}]" for i in idx)
            out.append(
                Problem(
                    "army",
                    f"{copies} copies of {name_label(first.name)} ({places}), over the limit of "
                    f"{max_copies} for {points}pts (1 + 1 per full 150pts); "
                    f"remove {copies - max_copies}",
                )
            )

    for i, u in enumerate(army.units):
        if u.cost * 100 > points * 35:
            cap = points * 35 // 100
            out.append(
                Problem(
                    _at(i, u),
                    f"costs {u.cost}pts, over 35% of {points}pts; expected at most {cap}pts",
                )
            )

    units = sum(weight)
    max_units = points // 30
    if units > max_units:
        out.append(
            Problem(
                "army",
                f"{units} units, over the limit of {max_units} for {points}pts "
                f"(1 per full 30pts); remove {units - max_units}",
            )
        )

    models = sum(max(u.size, 0) for u in army.units)
    max_models = points // 20
    if models > max_models:
        out.append(
            Problem(
                "army",
                f"{models} models, over the limit of {max_models} for {points}pts "
                f"(1 per full 20pts); remove {models - max_models}",
            )
        )
    return out
