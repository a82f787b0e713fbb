"""The rules commander's former home, kept so ``oprlab.players.rules_commander`` still imports:
the code lives in :mod:`oprlab.players.rules`, split by job."""

from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role, expected_damage, role
from oprlab.players.rules.needs import OBJECTIVE_VALUE
from oprlab.players.rules.scoring import PROJECTION_VALUE
from oprlab.players.rules.view import Units as _Units

__all__ = [
    "OBJECTIVE_VALUE",
    "PROJECTION_VALUE",
    "Role",
    "RulesCommander",
    "_Units",
    "expected_damage",
    "role",
]
