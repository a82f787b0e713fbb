"""Resolution mechanics: how a check comes out (d6, the diceless clock, WWPD dice, DQ D100).

May import ``oprlab.prob`` and ``oprlab.errors`` only.
"""

from oprlab.mechanics.base import Check, Mechanic, Outcome, Owner, State, Test
from oprlab.mechanics.registry import describe, get_mechanic, mechanic_names, register

__all__ = [
    "Check",
    "Mechanic",
    "Outcome",
    "Owner",
    "State",
    "Test",
    "describe",
    "get_mechanic",
    "mechanic_names",
    "register",
]
