"""The rules commander, split by job: :mod:`.view` (one reading of the table), :mod:`.estimates`
(classing units, one attack's worth), :mod:`.needs` (each marker's worth to a unit),
:mod:`.scoring` (what an action is worth), :mod:`.bounds` (choosing without scoring every move),
:mod:`.habits` (each system's own habits, by its rules class), :mod:`.style` (its habit fixes and
temper: rules, rules-v1, rules-aggressive, rules-cautious) and :mod:`.commander` (the decisions,
and the commanders' registration).

Nothing is imported here: the system habits' modules import :mod:`.scorer`, which must not
pull in the commander that imports them.
"""
