"""The "OPR Riverside Version" rule system (seed 002_fdb385c07cc953af): the attack pipeline.

``profile`` reads units and weapons, ``attack`` holds one hook per special rule, ``casualties``
and ``morale`` apply wounds, ``resolve`` rolls an attack check by check with any mechanic,
``exact`` and ``fast`` compose its exact odds. See docs/rules/riverside.md for the readings.
"""
