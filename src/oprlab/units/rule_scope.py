"""Which models a unit rule acts through: each model that has it, every model, or the unit.

Army Forge writes a count when only some models of a unit have a rule: ``1x Furious`` in a unit
of five is one Furious model. The texts say how each rule reads: "a model with Furious",
"When this model shoots" act per model; "a unit where all models have this rule" needs every
model; a Hero or a Caster makes its unit one. This is that reading as one table
(:data:`SCOPES`), the same as the table in docs/rules/README.md "Rules that some models have";
every system's profile builder, the games and the commanders read it through the helpers here
(and :mod:`oprlab.rules.weapon_lines` for the rules that act through a model's weapons).

Scopes:

- ``per_model``: the rule acts for each model that has it. A count (``1x``) gives it to that
  many models; no count gives it to every model.
- ``all_models``: the rule acts only when every model of the unit has it.
- ``unit``: any model having it gives it to the unit as a whole (the rating counted once).
- ``weapon``: a weapon's rule; it acts for the weapon line that carries it (a unit rule of
  this kind covers every weapon of the unit, as the rule's own text is about "this weapon").

May import ``oprlab.units.model`` and ``oprlab.memo`` only.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from oprlab.memo import game_memo
from oprlab.units.model import Rule, Unit

__all__ = [
    "SCOPES",
    "WEAPON_ACTING",
    "Scope",
    "all_have",
    "any_has",
    "models_with",
    "partial",
    "scope",
    "unit_rule",
]

Scope = Literal["per_model", "all_models", "unit", "weapon"]

#: Every rule the registry (:mod:`oprlab.units.special_rules`) knows, by its canonical name.
#: The reason for each row is in docs/rules/README.md "Rules that some models have".
SCOPES: dict[str, Scope] = {
    "Aircraft": "all_models",
    "Ambush": "all_models",
    "AP": "weapon",
    "Bane": "weapon",
    "Blast": "weapon",
    "Caster": "unit",
    "Counter": "per_model",
    "Deadly": "weapon",
    "Entrenched": "all_models",
    "Extra Shooty": "unit",
    "Fast": "all_models",
    "Fear": "unit",
    "Fearless": "all_models",
    "Flying": "all_models",
    "Furious": "per_model",
    "Good Shot": "per_model",
    "Hero": "unit",
    "Immobile": "unit",
    "Impact": "per_model",
    "Indirect": "weapon",
    "Limited": "weapon",
    "Poison": "weapon",
    "Regeneration": "all_models",
    "Relentless": "per_model",
    "Reliable": "weapon",
    "Rending": "weapon",
    "Scout": "all_models",
    "Shock": "weapon",
    "Shooty": "per_model",
    "Slow": "unit",
    "Stealth": "all_models",
    "Strider": "all_models",
    "Surge": "weapon",
    "Take Down": "per_model",
    "Teleport": "all_models",
    "Thrust": "weapon",
    "Tough": "per_model",
    "Transport": "unit",
    "Unstoppable": "weapon",
}

#: The ``per_model`` rules that act through the model's own weapons: a weapon line of a unit
#: where only some models have one is split between them and the others
#: (:func:`oprlab.rules.weapon_lines.lines`).
WEAPON_ACTING: tuple[str, ...] = ("Counter", "Furious", "Good Shot", "Relentless", "Shooty")

_BY_KEY = {name.casefold(): s for name, s in SCOPES.items()}


def scope(name: str) -> Scope:
    """The scope of rule ``name`` (``unit`` for a name the table does not know)."""
    return _BY_KEY.get(name.casefold(), "unit")


def _walk(rules: tuple[Rule, ...]) -> Iterator[Rule]:
    for r in rules:
        yield r
        yield from _walk(r.rules)


def models_with(unit: Unit, name: str) -> int:
    """How many models of ``unit`` have rule ``name``: the largest ``{n}x`` count that names
    it (no count: every model), at most the unit's size; 0 when no model has it.

    A rule an item carries counts as the item's rules always have (its own count, if any).
    """
    key = name.casefold()
    hit = _MODELS_WITH.get((id(unit), key))
    if hit is not None and hit[0] is unit:
        return hit[1]
    counts = [
        unit.size if r.count is None else min(unit.size, r.count)
        for r in _walk(unit.rules)
        if r.name.casefold() == key
    ]
    if len(_MODELS_WITH) >= 16384:
        _MODELS_WITH.clear()
    found = _MODELS_WITH[(id(unit), key)] = (unit, max(counts, default=0))
    return found[1]


#: :func:`models_with` by the unit's identity (a frozen Unit; the entry holds it, so its id
#: stays unique while the entry stands) and the rule's case-folded name.
_MODELS_WITH: dict[tuple[int, str], tuple[Unit, int]] = game_memo("units.rule_scope._MODELS_WITH")


def any_has(unit: Unit, name: str) -> bool:
    """Whether any model of ``unit`` has rule ``name``."""
    return models_with(unit, name) > 0


def all_have(unit: Unit, name: str) -> bool:
    """Whether every model of ``unit`` has rule ``name``."""
    return unit.size > 0 and models_with(unit, name) >= unit.size


def partial(unit: Unit, name: str) -> int:
    """Models with rule ``name`` when only some have it (0 when none or all do)."""
    n = models_with(unit, name)
    return n if 0 < n < unit.size else 0


def unit_rule(unit: Unit, name: str) -> bool:
    """Whether rule ``name`` acts for ``unit`` as a whole, by its scope.

    ``unit`` and ``weapon`` rules: any model has it; ``all_models``: every model has it;
    ``per_model``: every model has it (a partial count acts model by model instead, through
    :func:`models_with` or :mod:`oprlab.rules.weapon_lines`).
    """
    hit = _UNIT_RULE.get((id(unit), name))
    if hit is not None and hit[0] is unit:
        return hit[1]
    acts = any_has(unit, name) if scope(name) in ("unit", "weapon") else all_have(unit, name)
    if len(_UNIT_RULE) >= 16384:
        _UNIT_RULE.clear()
    _UNIT_RULE[(id(unit), name)] = (unit, acts)
    return acts


#: :func:`unit_rule` by the unit's identity (the entry holds it) and the name as asked: a game
#: asks a few rules of its units thousands of times (move allowances, Immobile, Flying), and
#: each answer otherwise case-folds the name twice and looks up its scope and its count.
_UNIT_RULE: dict[tuple[int, str], tuple[Unit, bool]] = game_memo("units.rule_scope._UNIT_RULE")
