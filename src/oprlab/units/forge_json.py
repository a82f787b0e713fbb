"""Army Forge JSON: read shared lists and army-book units into an :class:`Army`, and write one.

``parse_army_json`` tells the shapes apart by itself (:func:`detect_shape`):

* ``"tts-2023"``: a shared list as ``/api/tts`` returned it in 2023; units carry ``equipment``,
  the resolved ``loadout`` and ``specialRules`` with string ratings (``"3"``, ``""``).
* ``"tts"``: the current shared list; units carry ``weapons``/``loadout``, ``rules`` with numeric
  ratings, ``items``, ``bases``. Top level: ``name``, ``gameSystem``, ``pointsLimit``, … (all
  optional except ``units``).
* ``"army-book"``: units as the army-books endpoint gives them, either a JSON list of units or an
  object with a ``units`` list, and no list metadata (no ``gameSystem``/``pointsLimit``/
  ``listPoints``/``forceOrgErrors``, no unit with ``selectionId``/``joinToUnit``/``combined``).
  The army is named after the book's ``name`` or the source file; a unit's uid is its ``id``.
  (A bare JSON list of units that do carry those link keys is read as a shared list's units.)

Readings chosen where the data is ambiguous (the pitfalls in shared/formats/README.md):

* Weapons come from ``loadout`` (resolved) when present, else ``weapons``, else ``equipment``.
  Entries there with ``"type": "ArmyBookItem"`` are items; a unit's ``items`` list, when present,
  wins over them. Items become a :class:`Rule` carrying their ``content`` rules.
* ``attacks`` is multiplied by ``attacksMultiplier`` (default 1): the multiplier is how Army
  Forge records upgrades such as "double attacks" while keeping the book's base profile.
* ``range`` 0, ``null`` or missing all mean melee (``Weapon.range is None``).
* Sizes, qualities, defenses, costs and attacks are read as any whole number: judging them is
  :func:`~oprlab.units.validate.validate_army`'s job, the same for text and JSON lists (A0
  weapons, which some items really have, are a warning there). Base sizes are whole millimetres
  (``"32"``, ``32``, ``"32mm"``; ``""``/``"none"`` = no size); others (``"60x35"`` ovals) are
  errors, since :class:`Bases` holds one number per shape.
* Entries (weapons, rules, items) with ``count`` 0 are dropped: Army Forge keeps replaced gear
  with count 0, and the player no longer has it. Negative counts are rejected.
* Ratings: ``""``/``null`` -> ``None``, ``"3"``/``3`` -> 3; a non-numeric rating string
  (``"Fearless, Caster(3)"``) becomes inner rules of the rule; anything else is an error.
* Rules may carry ``count`` (per model or per item, ``5x Regeneration``) and ``content`` (inner
  rules); both are kept.
* Combined units: two entries; the second has ``combined: true`` and ``joinToUnit`` = the
  first's ``selectionId`` (the first may say ``combined: true`` too, as Army Forge writes it). They
  become one unit: sizes and costs summed, equal weapons' counts summed (into the first equal
  weapon), rules of the second added unless equal (counted rules sum their counts),
  ``combined=True``, and the first's ``selectionId`` as ``uid``.
* Joined heroes: ``joinToUnit`` (without ``combined``) -> ``Unit.joined_to`` = the target's uid
  (the first entry's, if the target is the second half of a combined unit).
* Control characters in names (an escape code, a bell) are read as U+FFFD, so that no name
  can drive a terminal when it is printed.
* ``Army.points`` is ``pointsLimit``, else ``listPoints``, else the sum of unit costs. Note that
  Army Forge's per-unit ``cost`` in shared lists may be the base cost; ``listPoints`` is the
  resolved total.
* ``Army.books`` is oprlab's own top-level ``books`` list when present (``format_army_json``
  writes it), else the army book's ``name (vX)`` for a book, else the units' distinct ``armyId``s.
* ``gameSystem`` codes (``gf``, ``gff``, ``aof``, ``aofs``, ``aofr``, or any other code), slugs
  (``grimdark-future``…) and Army Forge's numeric ids (2-6) map to upper-case codes (``GFF``).
* Errors: every pydantic error of the file is reported at once in one :class:`ForgeJSONError`
  (a :class:`ParseError`): first line a summary, then one line per problem with its JSON path
  (``units[3].weapons[0].attacks``), the bad value and what was expected. Link errors (duplicate
  ``selectionId``, a ``joinToUnit`` naming no unit, a combined entry without its partner) come
  after validation, one at a time.

``format_army_json`` writes the current shape, with a combined unit split back into two entries
(halves that merge back exactly), so that ``parse_army_json(format_army_json(a)) == a`` for every
army it accepts whose names hold no control characters (read as U+FFFD, so that no name can
drive a terminal when printed), whose joins name unit uids and whose combined and joined-to
units have uids. A
join naming a unit by name (as text lists do) is written as that unit's uid, and a unit needing
a ``selectionId`` without a uid gets a fresh one (``u3``). Rules that carry rules at the end of a
unit's rules go to ``items``; rule ``count``/``content`` and the top-level ``books`` are oprlab's
additions to the shape.

May import ``pydantic``, ``oprlab.errors``, ``oprlab.units.model``, ``oprlab.units.forge_schema``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath
from typing import Any, Literal, TypeVar

from pydantic import TypeAdapter, ValidationError

from oprlab.errors import OptionError, ParseError
from oprlab.limits import check_nesting
from oprlab.units.forge_schema import (
    GEAR_TAGS,
    ArmyIn,
    RuleIn,
    UnitIn,
    WeaponIn,
)
from oprlab.units.model import Army, Bases, Rule, Unit, Weapon

__all__ = [
    "ForgeJSONError",
    "Problem",
    "Shape",
    "detect_shape",
    "format_army_json",
    "parse_army_json",
]

Shape = Literal["tts-2023", "tts", "army-book"]

_LIST_KEYS = frozenset({"gameSystem", "pointsLimit", "listPoints", "forceOrgErrors"})
_LINK_KEYS = frozenset({"selectionId", "joinToUnit", "combined"})
_OLD_UNIT_KEYS = frozenset({"equipment", "specialRules"})
_NEW_UNIT_KEYS = frozenset({"rules", "weapons"})
_UNITS = TypeAdapter(list[UnitIn])
_MAX_LINES = 10
_SYSTEM_CODE = re.compile(r"[A-Z][A-Z0-9]*")
_EXPECTED_TYPE = {
    "int_type": "a whole number",
    "string_type": "a string",
    "bool_type": "true or false",
    "list_type": "a list",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dict_type": "an object",
}

_T = TypeVar("_T")


# --- errors ----------------------------------------------------------------------------------


def _show(value: Any) -> str:
    """A short JSON-style rendering of a bad value (objects and lists are not dumped whole)."""
    if isinstance(value, dict):
        return f"an object with {len(value)} key(s)" if value else "{}"
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} item(s)" if value else "[]"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        try:
            text = repr(value)
        except Exception:
            text = f"<{type(value).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong in a JSON document: where (a JSON path), what, the value, what is right."""

    path: str
    message: str
    value: Any = None
    expected: str | None = None
    has_value: bool = True

    def line(self) -> str:
        text = f"{self.path}: {self.message}"
        if self.has_value:
            text += f" (got {_show(self.value)})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


class ForgeJSONError(ParseError):
    """An Army Forge JSON document that does not fit; lists every :class:`Problem` found.

    ``where`` is ``"{source}: {path}"`` of the first problem, ``value`` and ``expected`` are its.
    """

    def __init__(self, source: str, problems: Sequence[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        first = self.problems[0]
        super().__init__(
            first.message,
            value=first.value if first.has_value else None,
            expected=first.expected,
            where=f"{source}: {first.path}",
        )

    def _render(self) -> str:
        """One line: the problems separated by ``"; "`` (at most :data:`_MAX_LINES`)."""
        if len(self.problems) == 1:
            return f"{self.source}: {self.problems[0].line()}"
        parts = [p.line() for p in self.problems[:_MAX_LINES]]
        if len(self.problems) > _MAX_LINES:
            parts.append(f"... and {len(self.problems) - _MAX_LINES} more")
        return f"{self.source}: {len(self.problems)} problems in Army Forge JSON: " + "; ".join(
            parts
        )


def _fail(source: str, path: str, message: str, value: Any, expected: str) -> ForgeJSONError:
    return ForgeJSONError(source, [Problem(path, message, value, expected)])


def _json_path(loc: Iterable[int | str]) -> str:
    """``('units', 3, 'weapons', 0, 'attacks')`` -> ``units[3].weapons[0].attacks``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part not in GEAR_TAGS:
            text += f".{part}" if text else part
    if len(text) > 160:  # only absurdly nested documents
        text = text[:60] + "..." + text[-90:]
    return text or "(top level)"


def _problem(err: Any) -> Problem:
    """A pydantic error dict in a player's words."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    path = _json_path(err["loc"])
    value = err.get("input")
    if kind == "missing":
        return Problem(path, "required field is missing", None, "a value here", has_value=False)
    if kind in ("recursion_loop", "recursion_depth_exceeded"):
        return Problem(path, "nested too deeply", None, "a few levels at most", has_value=False)
    if kind in _EXPECTED_TYPE:
        return Problem(path, "wrong type", value, _EXPECTED_TYPE[kind])
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        bounds = {"ge": ">=", "le": "<=", "gt": ">", "lt": "<"}
        want = " and ".join(f"{op} {ctx[k]}" for k, op in bounds.items() if k in ctx)
        return Problem(path, "out of range", value, f"a whole number {want}")
    if kind == "string_too_short":
        return Problem(path, "empty", value, "a non-empty string")
    if kind == "value_error":
        text = str(ctx.get("error", err["msg"]))
        return Problem(path, "bad value", value, text.removeprefix("expected "))
    return Problem(path, str(err["msg"]), value, None)


# --- reading ---------------------------------------------------------------------------------


def _stem(source: str) -> str:
    if not source or source.startswith("<"):
        return source
    return PurePath(source).stem or source


def _load(data: Any, source: str) -> Any:
    """The JSON value of ``data`` (text, bytes, or an already parsed value)."""
    if isinstance(data, bytes | bytearray | memoryview):
        raw = bytes(data)
        try:
            data = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ParseError(
                f"not UTF-8 text (bad byte at offset {exc.start})",
                value=raw[exc.start : exc.start + 8],
                where=source,
                expected="Army Forge JSON in UTF-8",
            ) from None
    if not isinstance(data, str):
        return data
    text = data.lstrip("\ufeff")
    check_nesting(text, source)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # The text ends early: nothing after the error, or a string never closed.
        at_end = not text[exc.pos :].strip() or exc.msg.startswith("Unterminated string")
        near = text[max(0, exc.pos - 20) : exc.pos + 20]
        raise ParseError(
            f"not valid JSON: {exc.msg}" + (" at the end of the text" if at_end else ""),
            value=near or None,
            where=f"{source}:{exc.lineno}:{exc.colno}",
            expected="complete Army Forge JSON (is the file cut off?)"
            if at_end
            else "Army Forge JSON",
        ) from None
    except RecursionError:
        raise ParseError(
            "JSON nested too deeply", where=source, expected="Army Forge JSON"
        ) from None
    except ValueError as exc:  # e.g. integers longer than Python's digit limit
        raise ParseError(
            f"not valid JSON: {exc}", where=source, expected="Army Forge JSON"
        ) from None


def detect_shape(value: Any, source: str = "<json>") -> Shape:
    """Which Army Forge shape the parsed JSON ``value`` has (see the module docstring).

    Raises:
        ParseError: the top level is neither a list of units nor an object with ``units``.
    """
    if isinstance(value, list):
        units: Any = value
        top_keys: Any = frozenset()
    elif not isinstance(value, dict):
        raise _fail(
            source,
            "(top level)",
            "not an Army Forge list or army-book units",
            value,
            'an object with a "units" list, or a list of unit objects',
        )
    elif "units" not in value:
        raise ForgeJSONError(
            source,
            [
                Problem(
                    "units",
                    "required field is missing",
                    None,
                    'an object with a "units" list (an Army Forge shared list or army book)',
                    has_value=False,
                )
            ],
        )
    else:
        units, top_keys = value["units"], value.keys()
    entries = [u for u in units if isinstance(u, dict)] if isinstance(units, list) else []
    if not (_LIST_KEYS & top_keys or any(_LINK_KEYS & u.keys() for u in entries)):
        return "army-book"
    if any(_OLD_UNIT_KEYS & u.keys() and not _NEW_UNIT_KEYS & u.keys() for u in entries):
        return "tts-2023"
    return "tts"


def _validate(value: Any, source: str) -> ArmyIn:
    try:
        if isinstance(value, list):
            return ArmyIn(units=_UNITS.validate_python(value))
        return ArmyIn.model_validate(value)
    except ValidationError as exc:
        raise ForgeJSONError(source, [_problem(e) for e in exc.errors()]) from None


def _rule(r: RuleIn) -> Rule | None:
    """A rule or item; ``None`` for a count-0 entry (gear Army Forge keeps after a swap)."""
    if r.count == 0:
        return None
    inner: tuple[Rule, ...] = ()
    rating = r.rating
    if isinstance(rating, tuple):
        inner, rating = rating, None
    inner += _rules(c for c in r.content or () if c.type != "ArmyBookWeapon")
    return Rule(r.name, rating, r.count, inner)


def _rules(entries: Iterable[RuleIn]) -> tuple[Rule, ...]:
    return tuple(rule for rule in map(_rule, entries) if rule is not None)


def _weapon(w: WeaponIn) -> Weapon:
    return Weapon(
        w.name,
        w.attacks * w.attacks_multiplier,
        w.range or None,
        w.count,
        _rules(w.special_rules),
    )


def _unit(u: UnitIn, shape: Shape) -> Unit:
    gear = (
        u.loadout
        if u.loadout is not None
        else u.weapons
        if u.weapons is not None
        else u.equipment or []
    )
    weapons = tuple(_weapon(g) for g in gear if isinstance(g, WeaponIn) and g.count > 0)
    items = u.items if u.items is not None else [g for g in gear if isinstance(g, RuleIn)]
    rules = u.rules if u.rules is not None else u.special_rules or []
    uid = (u.id if shape == "army-book" else u.selection_id) or ""
    bases = Bases(u.bases.round, u.bases.square) if u.bases is not None else None
    return Unit(
        name=u.name,
        size=u.size,
        quality=u.quality,
        defense=u.defense,
        cost=u.cost,
        rules=_rules([*rules, *items]),
        weapons=weapons,
        bases=bases,
        uid=uid,
    )


def _merge_into(first: Sequence[_T], second: Sequence[_T], key: Any, add: Any) -> tuple[_T, ...]:
    """``first`` with each of ``second`` added to its first equal entry (by ``key``) or appended."""
    out = list(first)
    for item in second:
        k = key(item)
        for i, have in enumerate(out):
            if key(have) == k:
                out[i] = add(have, item)
                break
        else:
            out.append(item)
    return tuple(out)


def _weapon_key(w: Weapon) -> tuple[Any, ...]:
    return (w.name, w.attacks, w.range, w.rules)


def _rule_key(r: Rule) -> tuple[Any, ...]:
    return (r.name, r.rating, r.rules)


def _add_weapons(a: Weapon, b: Weapon) -> Weapon:
    return replace(a, count=a.count + b.count)


def _add_rules(a: Rule, b: Rule) -> Rule:
    if a.count is None or b.count is None:
        return a
    return replace(a, count=a.count + b.count)


def _merge(a: Unit, b: Unit) -> Unit:
    """A combined unit from its two halves."""
    return replace(
        a,
        size=a.size + b.size,
        cost=a.cost + b.cost,
        weapons=_merge_into(a.weapons, b.weapons, _weapon_key, _add_weapons),
        rules=_merge_into(a.rules, b.rules, _rule_key, _add_rules),
        combined=True,
    )


def _link(ins: Sequence[UnitIn], units: list[Unit], source: str) -> tuple[Unit, ...]:
    """Merge combined pairs and resolve joined heroes (shared lists only)."""
    by_uid: dict[str, int] = {}
    for i, u in enumerate(ins):
        sid = u.selection_id
        if not sid:
            continue
        if sid in by_uid:
            raise _fail(
                source,
                f"units[{i}].selectionId",
                "duplicate selectionId",
                sid,
                f"a selectionId used once (units[{by_uid[sid]}] has it too)",
            )
        by_uid[sid] = i
    first_of: dict[int, int] = {}  # second half -> first half
    joins: dict[int, int] = {}  # hero -> target entry
    for i, u in enumerate(ins):
        target = u.join_to_unit
        if not target:
            continue
        path = f"units[{i}].joinToUnit"
        if target == u.selection_id:
            raise _fail(source, path, "a unit cannot join itself", target, "another unit's id")
        t = by_uid.get(target)
        if t is None:
            known = ", ".join(repr(k) for k in list(by_uid)[:6]) or "none in this list"
            if u.combined:
                raise _fail(
                    source,
                    path,
                    "the partner of this combined unit is missing",
                    target,
                    f"the selectionId of the unit it combines with ({known})",
                )
            raise _fail(
                source,
                path,
                "joins a unit that is not in the list",
                target,
                f"the selectionId of a unit in this list ({known})",
            )
        (first_of if u.combined else joins)[i] = t
    partner: dict[int, int] = {}  # first half -> second half
    for second, first in first_of.items():
        path = f"units[{second}].joinToUnit"
        if first in first_of:
            raise _fail(
                source,
                path,
                f"combines with units[{first}], itself the second half of a combined unit",
                ins[second].join_to_unit,
                "the selectionId of the first entry of the pair",
            )
        if first in partner:
            raise _fail(
                source,
                path,
                f"units[{first}] is already combined with units[{partner[first]}]",
                ins[second].join_to_unit,
                "exactly two entries per combined unit",
            )
        partner[first] = second
    for i, u in enumerate(ins):
        if u.combined and not u.join_to_unit and i not in partner:
            raise _fail(
                source,
                f"units[{i}].combined",
                "combined unit without its partner entry",
                True,
                'a second entry with "combined": true and "joinToUnit": '
                + (json.dumps(u.selection_id) if u.selection_id else "this unit's selectionId"),
            )
    linked = [
        replace(unit, joined_to=units[first_of.get(joins[i], joins[i])].uid) if i in joins else unit
        for i, unit in enumerate(units)
    ]
    out: list[Unit] = []
    for i, unit in enumerate(linked):
        if i in first_of:
            continue
        out.append(_merge(unit, linked[partner[i]]) if i in partner else unit)
    return tuple(out)


def _books(top: ArmyIn, shape: Shape) -> tuple[str, ...]:
    if top.books is not None:
        return tuple(top.books)
    if shape == "army-book":
        if top.name is None:
            return ()
        return (f"{top.name} (v{top.version_string})" if top.version_string else top.name,)
    return tuple(dict.fromkeys(u.army_id for u in top.units if u.army_id))


def parse_army_json(data: str | bytes | Any, source: str = "<json>") -> Army:
    """Read an Army Forge shared list (2023 or current shape) or army-book units.

    Args:
        data: the JSON text or bytes, or the value ``json.loads`` already made of it.
        source: the file name (or ``<json>``), used in error messages and as the army's name
            when the JSON gives none.

    Raises:
        ParseError: invalid JSON (naming line:column), a wrong top level, or a
            :class:`ForgeJSONError` naming JSON paths, bad values and what was expected.
    """
    try:
        value = _load(data, source)
        shape = detect_shape(value, source)
        top = _validate(value, source)
        units = [_unit(u, shape) for u in top.units]
        linked = tuple(units) if shape == "army-book" else _link(top.units, units, source)
    except RecursionError:
        raise ParseError(
            "JSON nested too deeply", where=source, expected="Army Forge JSON"
        ) from None
    points = next(
        (p for p in (top.points_limit, top.list_points) if p is not None),
        sum(u.cost for u in linked),
    )
    return Army(
        name=top.name if top.name is not None else _stem(source),
        system=top.game_system or top.game_system_id or top.game_system_slug,
        points=points,
        units=linked,
        books=_books(top, shape),
    )


# --- writing ---------------------------------------------------------------------------------


def _bad(where: str, message: str, value: Any, expected: str) -> OptionError:
    return OptionError(message, value=value, expected=expected, where=where)


def _check_rules(rules: Sequence[Rule], where: str) -> None:
    for j, r in enumerate(rules):
        at = f"{where}[{j}]"
        if not r.name:
            raise _bad(at, "rule without a name", r.name, "a non-empty name")
        if r.count is not None and r.count < 1:
            raise _bad(at, "rule count below 1", r.count, "None or a count >= 1")
        _check_rules(r.rules, f"{at}.rules")


def _check(army: Army) -> None:
    """Refuse armies the JSON could not give back unchanged (values the parser rejects)."""
    if army.points < 0:
        raise _bad("points", "negative points", army.points, "points >= 0")
    if army.system and not _SYSTEM_CODE.fullmatch(army.system):
        raise _bad("system", "not a game-system code", army.system, 'a code such as "GFF" or ""')
    for i, u in enumerate(army.units):
        at = f"units[{i}]"
        if not u.name:
            raise _bad(at, "unit without a name", u.name, "a non-empty name")
        if u.combined and u.size < 2:
            raise _bad(f"{at}.size", "size too small", u.size, "size >= 2 for a combined unit")
        if u.bases is not None:
            for side in (u.bases.round, u.bases.square):
                if side is not None and side < 0:
                    raise _bad(f"{at}.bases", "negative base size", side, "mm >= 0")
        _check_rules(u.rules, f"{at}.rules")
        for j, w in enumerate(u.weapons):
            wat = f"{at}.weapons[{j}]"
            if not w.name:
                raise _bad(wat, "weapon without a name", w.name, "a non-empty name")
            if w.count < 1:
                raise _bad(wat, "weapon count below 1", w.count, "count >= 1")
            if w.range is not None and w.range < 1:
                raise _bad(wat, "range below 1", w.range, 'None (melee) or range >= 1"')
            _check_rules(w.rules, f"{wat}.rules")


def _resolve_joins(army: Army) -> dict[int, int]:
    """Which unit each joined unit joins: by uid, else (as text lists do) by name."""
    seen: dict[str, int] = {}
    for i, u in enumerate(army.units):
        if u.uid:
            if u.uid in seen:
                raise _bad(f"units[{i}].uid", "duplicate uid", u.uid, "unique unit uids")
            seen[u.uid] = i
    targets: dict[int, int] = {}
    for i, u in enumerate(army.units):
        if u.joined_to is None:
            continue
        others = [j for j in range(len(army.units)) if j != i]
        found = [j for j in others if army.units[j].uid == u.joined_to]
        found = found or [j for j in others if army.units[j].name == u.joined_to]
        key = u.joined_to.casefold()
        found = found or [j for j in others if army.units[j].name.casefold() == key]
        if not found:
            raise _bad(
                f"units[{i}].joined_to",
                "joins a unit that is not in the army",
                u.joined_to,
                "the uid or name of another unit",
            )
        targets[i] = found[0]
    return targets


def _fresh(base: str, used: set[str]) -> str:
    uid, n = base, 1
    while uid in used:
        n += 1
        uid = f"{base}-{n}"
    used.add(uid)
    return uid


def _rule_json(r: Rule, *, item: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": r.name}
    if item:
        out["type"] = "ArmyBookItem"
    if r.rating is not None:
        out["rating"] = r.rating
    if r.count is not None:
        out["count"] = r.count
    out["label"] = replace(r, count=None).label
    if r.rules:
        out["content"] = [_rule_json(x) for x in r.rules]
    return out


def _is_item(r: Rule) -> bool:
    return r.rating is None and bool(r.rules)


def _weapon_json(w: Weapon) -> dict[str, Any]:
    return {
        "name": w.name,
        "count": w.count,
        "range": w.range or 0,
        "attacks": w.attacks,
        "attacksMultiplier": 1,
        "specialRules": [_rule_json(r) for r in w.rules],
        "label": replace(w, count=1).label,
    }


def _unit_json(u: Unit, uid: str, combined: bool, join: str | None) -> dict[str, Any]:
    # Items are the trailing run of rules that carry rules: parse reads rules then items.
    cut = len(u.rules)
    while cut and _is_item(u.rules[cut - 1]):
        cut -= 1
    out: dict[str, Any] = {}
    if uid:
        out["selectionId"] = uid
    out |= {
        "name": u.name,
        "size": u.size,
        "quality": u.quality,
        "defense": u.defense,
        "cost": u.cost,
        "combined": combined,
        "joinToUnit": join,
    }
    if u.bases is not None:
        out["bases"] = {
            side: str(mm)
            for side, mm in (("round", u.bases.round), ("square", u.bases.square))
            if mm is not None
        }
    out["rules"] = [_rule_json(r) for r in u.rules[:cut]]
    out["items"] = [_rule_json(r, item=True) for r in u.rules[cut:]]
    out["weapons"] = [_weapon_json(w) for w in u.weapons]
    return out


def _split(u: Unit) -> tuple[Unit, Unit]:
    """Two halves that :func:`_merge` turns back into ``u`` (size >= 2)."""
    first_w: list[Weapon] = []
    second_w: list[Weapon] = []
    seen_w: set[tuple[Any, ...]] = set()
    for w in u.weapons:
        key = _weapon_key(w)
        if key in seen_w:
            first_w.append(w)
            continue
        seen_w.add(key)
        half = w.count // 2
        first_w.append(replace(w, count=w.count - half))
        if half:
            second_w.append(replace(w, count=half))
    first_r: list[Rule] = []
    second_r: list[Rule] = []
    seen_r: set[tuple[Any, ...]] = set()
    for r in u.rules:
        key = _rule_key(r)
        if key in seen_r:
            first_r.append(r)
            continue
        seen_r.add(key)
        if r.count is None:
            first_r.append(r)
            second_r.append(r)
            continue
        half = r.count // 2
        first_r.append(replace(r, count=r.count - half))
        if half:
            second_r.append(replace(r, count=half))
    half_size, half_cost = u.size // 2, u.cost // 2
    first = replace(
        u,
        size=u.size - half_size,
        cost=u.cost - half_cost,
        weapons=tuple(first_w),
        rules=tuple(first_r),
    )
    second = replace(
        u, size=half_size, cost=half_cost, weapons=tuple(second_w), rules=tuple(second_r)
    )
    return first, second


def format_army_json(army: Army) -> str:
    """``army`` as a current-shape Army Forge shared list (JSON text ending in a newline).

    A combined unit is written as its two entries; units that are joined to, or combined, get a
    ``selectionId`` (their uid, or a fresh one when they have none).

    Raises:
        OptionError: the army holds a value the format cannot carry (negative counts, a
            combined unit of one model, a join naming no unit, duplicate uids, …).
    """
    _check(army)
    targets = _resolve_joins(army)
    used = {u.uid for u in army.units if u.uid}
    needs_id = set(targets.values()) | {i for i, u in enumerate(army.units) if u.combined}
    uids = [
        u.uid or (_fresh(f"u{i + 1}", used) if i in needs_id else "")
        for i, u in enumerate(army.units)
    ]
    units: list[dict[str, Any]] = []
    for i, u in enumerate(army.units):
        join = uids[targets[i]] if i in targets else None
        if not u.combined:
            units.append(_unit_json(u, uids[i], False, join))
            continue
        first, second = _split(u)
        # The first entry of a pair that also joins a unit says combined: false, so that its
        # joinToUnit reads as a join and not as the second half of a pair.
        units.append(_unit_json(first, uids[i], join is None, join))
        units.append(_unit_json(second, _fresh(f"{uids[i]}-c", used), True, uids[i]))
    doc: dict[str, Any] = {"name": army.name}
    if army.system:
        doc["gameSystem"] = army.system.lower()
    doc |= {
        "pointsLimit": army.points,
        "listPoints": army.cost,
        "books": list(army.books),
        "units": units,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
