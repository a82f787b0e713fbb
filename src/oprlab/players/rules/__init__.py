"""The rules commander, split by job: :mod:`.view` (one reading of the table), :mod:`.estimates`
(classing units, one attack's worth), :mod:`.scoring` (what an action is worth), :mod:`.bounds`
(choosing without scoring every move), :mod:`.habits` (each system's own habits, by its rules
class) and :mod:`.commander` (the decisions, and the commander's registration)."""

from oprlab.players.rules.commander import RulesCommander
from oprlab.players.rules.estimates import Role, expected_damage, role
from oprlab.players.rules.scoring import OBJECTIVE_VALUE, PROJECTION_VALUE

__all__ = [
    "OBJECTIVE_VALUE",
    "PROJECTION_VALUE",
    "Role",
    "RulesCommander",
    "expected_damage",
    "role",
]
