"""Units and armies: frozen value types, Army Forge parsers, validators.

May import ``oprlab.errors``, ``oprlab.prob`` and ``oprlab.mechanics``.
"""

from oprlab.units.model import Army, Bases, ModelProfile, Rule, Unit, Weapon

__all__ = ["Army", "Bases", "ModelProfile", "Rule", "Unit", "Weapon"]
