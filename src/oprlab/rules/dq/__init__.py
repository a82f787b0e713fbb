"""The DragonQuest combat rule system (seed 001_7377b7b33dc9f88d, opposed-rolling playtest).

The D100 roll, its success qualities and the opposed result are the ``dq`` mechanic in
:mod:`oprlab.mechanics.dq` (with the "current" subtractive rules beside it for comparison);
Table 2, damage, the 57.1/57.2 modifier lists, aiming, the assassin and evading live in
:mod:`oprlab.rules.dq.tables`. Readings of unclear clauses: ``docs/rules/dq.md``.

May import ``oprlab.errors``, ``oprlab.prob``, ``oprlab.mechanics`` and ``oprlab.units``.
"""

from oprlab.rules.dq.tables import (
    AIMING,
    DEFENCE_MODIFIERS,
    KNOCKOUT_MIN_RESULT,
    STRIKE_CHANCE_MODIFIERS,
    TABLE_2,
    Applied,
    AssassinAttack,
    Damage,
    DamageRoll,
    Modifier,
    ModifierTotal,
    ParryResult,
    ResultQuality,
    assassin_roll_modifier,
    damage,
    damage_dist,
    knockout_succeeds,
    may_parry,
    missile_range_steps,
    modified_chance,
    modifier,
    parry_chance,
    parry_result,
    result_row,
    total_defence_modifiers,
    total_strike_chance_modifiers,
)

__all__ = [
    "AIMING",
    "DEFENCE_MODIFIERS",
    "KNOCKOUT_MIN_RESULT",
    "STRIKE_CHANCE_MODIFIERS",
    "TABLE_2",
    "Applied",
    "AssassinAttack",
    "Damage",
    "DamageRoll",
    "Modifier",
    "ModifierTotal",
    "ParryResult",
    "ResultQuality",
    "assassin_roll_modifier",
    "damage",
    "damage_dist",
    "knockout_succeeds",
    "may_parry",
    "missile_range_steps",
    "modified_chance",
    "modifier",
    "parry_chance",
    "parry_result",
    "result_row",
    "total_defence_modifiers",
    "total_strike_chance_modifiers",
]
