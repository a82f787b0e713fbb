"""The DragonQuest combat rule system (seed 001_7377b7b33dc9f88d, opposed-rolling playtest).

The D100 roll, its success qualities and the opposed result are the ``dq`` mechanic in
:mod:`oprlab.mechanics.dq` (with the "current" subtractive rules beside it for comparison);
Table 2, damage, the 57.1/57.2 modifier lists, aiming, the assassin and evading live in
:mod:`oprlab.rules.dq.tables`; the 57.3 equations in :mod:`~oprlab.rules.dq.combat`; one strike
under the playtest or the current rules in :mod:`~oprlab.rules.dq.resolution`; stand-ins for
what the seed leaves out in :mod:`~oprlab.rules.dq.standins`; the readings a duel is played by in
:mod:`~oprlab.rules.dq.duel_rules`. Readings of unclear clauses: ``docs/rules/dq.md``.

May import ``oprlab.errors``, ``oprlab.prob``, ``oprlab.mechanics`` and ``oprlab.units``.
"""

from oprlab.rules.dq import tables
from oprlab.rules.dq.tables import *  # noqa: F403  (the package shows the tables module's names)

__all__: list[str] = []
__all__ += tables.__all__
