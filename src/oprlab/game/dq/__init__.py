"""A DragonQuest duel played round by round (seed 001_7377b7b33dc9f88d, 57.3), under the
playtest's opposed rolls or the current subtractive rules.

``state`` holds the immutable fight and its step kinds, ``rounds`` the round and the fighters'
choices, ``strike`` one attack to its last consequence, ``engine`` the driver (sampled play, exact
outcomes of each die). Readings and stand-ins: ``docs/rules/dq.md``.

May import ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""
