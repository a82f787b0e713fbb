"""The WWPD rule system (seed 004_b5c87f7769291d1c): homebrew sci-fi with its own dice convention.

Target numbers and hit allocation live in :mod:`oprlab.rules.wwpd.targets`; the dice convention
(rerolled extremes) is the ``wwpd`` mechanic in :mod:`oprlab.mechanics.wwpd`. Readings of unclear
clauses: ``docs/rules/wwpd.md``.

May import ``oprlab.errors``, ``oprlab.prob``, ``oprlab.mechanics`` and ``oprlab.units``.
"""

from oprlab.rules.wwpd.targets import (
    BASIC_COVER_SAVE,
    FIREFIGHT_RANGE,
    Phase,
    allocate_hits,
    allocate_melee_hits,
    allocate_shooting_hits,
    can_fire_after_moving,
    cover_save_target,
    defensive_save_target,
    ranged_phase,
    to_hit_target,
    to_wound_target,
)

__all__ = [
    "BASIC_COVER_SAVE",
    "FIREFIGHT_RANGE",
    "Phase",
    "allocate_hits",
    "allocate_melee_hits",
    "allocate_shooting_hits",
    "can_fire_after_moving",
    "cover_save_target",
    "defensive_save_target",
    "ranged_phase",
    "to_hit_target",
    "to_wound_target",
]
