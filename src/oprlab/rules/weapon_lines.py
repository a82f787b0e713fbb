"""The weapons a unit's attacking models use, split by the per-model rules of those models.

Lists give weapon totals per unit and per-model rules with a count: ``1x Furious`` and
``5x CCW (A1)`` in a unit of five is one Furious model and four without, each with a CCW. The
Furious model's weapons roll Furious, the others' do not (seed 003 "Furious", seed 002
"Furious": "a model with Furious"). :func:`lines` gives each weapon line as the weapons the
attacking models carry, split by the :data:`~oprlab.units.rule_scope.WEAPON_ACTING` rules
(Counter, Furious, Good Shot, Relentless, Shooty) that only some models have; the share with a
rule carries it as a weapon rule, which every system's profile builder reads. Which model
carries which weapon is not in the list, so shares are spread evenly (docs/rules/README.md
"Rules that some models have"):

- models left: each line and each rule's models scale to the models left (:func:`carried`,
  rounded half up): a one-model upgrade stays while at least half the unit is left;
- attacking models (those in range and sight, or within 2"): of the models left, each line's
  weapons and each rule's models are shared out the same way;
- the rule's share of a line: the line's attacking weapons times the attacking models with the
  rule over the attacking models, rounded half up (several rules split independently).

With every model attacking and no partial rule, a line is the list's line unchanged.

May import ``oprlab.units`` and ``oprlab.memo``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from oprlab.memo import game_memo
from oprlab.units.model import Rule, Unit, Weapon
from oprlab.units.rule_scope import WEAPON_ACTING, partial

__all__ = ["attacking_with", "lines", "share_out"]


def carried(count: int, models: int, size: int) -> int:
    """How many of a weapon (or a per-model rule) ``models`` of ``size`` models still carry.

    Casualties are spread evenly over the unit's weapons: ``count * models / size`` rounded half
    up. Exact for weapons every model carries (``5x CCW`` with 3 of 5 left: 3); an upgrade one
    model carries stays until fewer than half the models are left (docs/rules/gff.md).
    """
    if size <= 0 or models <= 0:
        return 0
    if models >= size:
        return count
    return (2 * count * models + size) // (2 * size)


def attacking_with(unit: Unit, name: str, *, alive: int, attacking: int) -> int:
    """Attacking models that have per-model rule ``name`` when only some models have it."""
    k = partial(unit, name)
    if not k:
        return 0
    return carried(carried(k, alive, unit.size), attacking, alive)


def lines(
    unit: Unit,
    weapons: Iterable[Weapon] | None = None,
    *,
    alive: int | None = None,
    attacking: int | None = None,
) -> tuple[Weapon, ...]:
    """``weapons`` (default: all of the unit's) as the ``attacking`` of ``alive`` models use
    them: each line's count is the weapons used, and the share carried by models with a
    per-model rule carries that rule. Lines with no weapon left are dropped.

    Args:
        unit: the attacking unit as listed (its size is the models it started with).
        weapons: the lines that take part (melee ones, or those in range), in list order.
        alive: models left (default: all).
        attacking: models that attack (default: every model left).
    """
    n = unit.size
    a = n if alive is None else max(0, min(alive, n))
    s = a if attacking is None else max(0, min(attacking, a))
    chosen = unit.weapons if weapons is None else tuple(weapons)
    key = (id(unit), *map(id, chosen), a, s)
    hit = _LINES.get(key)
    if hit is not None and hit[0] is unit and hit[1] == chosen:
        return hit[2]
    found = _lines(unit, chosen, a, s)
    if len(_LINES) >= _LINES_LIMIT:
        _LINES.clear()
    _LINES[key] = (unit, chosen, found)
    return found


#: :func:`lines` by the identity of the unit and its weapon lines (hashing a frozen Unit walks
#: every field: the commanders' estimates ask thousands of times a game). Each entry holds its
#: objects, so their ids stay unique while it is there; emptied whole at its limit, and when
#: a game of other armies begins (a game memo: :mod:`oprlab.memo`).
_LINES: dict[tuple[int, ...], tuple[Unit, tuple[Weapon, ...], tuple[Weapon, ...]]] = game_memo(
    "rules.weapon_lines._LINES"
)
_LINES_LIMIT = 8192


def _lines(
    unit: Unit, weapons: tuple[Weapon, ...], alive: int, attacking: int
) -> tuple[Weapon, ...]:
    ruled = [
        (name, attacking_with(unit, name, alive=alive, attacking=attacking))
        for name in WEAPON_ACTING
        if partial(unit, name)
    ]
    out: list[Weapon] = []
    for w in weapons:
        used = carried(carried(w.count, alive, unit.size), attacking, alive)
        pieces: list[tuple[int, tuple[str, ...]]] = [(used, ())]
        for name, models in ruled:
            split: list[tuple[int, tuple[str, ...]]] = []
            for count, names in pieces:
                have = min(count, carried(count, models, attacking))
                split += [(have, (*names, name)), (count - have, names)]
            pieces = split
        for count, names in pieces:
            if count <= 0:
                continue
            if not names and count == w.count:
                out.append(w)
            else:
                out.append(replace(w, count=count, rules=w.rules + tuple(Rule(r) for r in names)))
    return tuple(out)


def share_out(k: int, sizes: list[int]) -> list[int]:
    """``k`` of the items in groups of ``sizes`` (``k`` at most their total), spread evenly:
    each group its share ``k * size / total`` rounded down, the rest one each to the groups
    with the largest remainders (the first on a tie). The parts add up to ``k`` exactly and
    none exceeds its group; a game uses it for the dice of a weapon line's pieces that shoot
    from over 9" or at a target with Cover."""
    total = sum(sizes)
    k = max(0, min(k, total))
    if total <= 0:
        return [0 for _ in sizes]
    base = [k * s // total for s in sizes]
    order = sorted(range(len(sizes)), key=lambda i: (-(k * sizes[i] % total), i))
    for i in order[: k - sum(base)]:
        base[i] += 1
    return base
