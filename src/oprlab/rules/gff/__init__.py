"""Rule system ``gff``: OPR Grimdark Future Firefight (seed 003_8abb008d4113ed75).

The attack pipeline: :mod:`.profile` (what an attack brings), :mod:`.attack` (one hook per
special rule), :mod:`.wounds` (Groups & Wounds, Wound Effects), :mod:`.resolve` (check by check,
any mechanic), :mod:`.exact` (exact Fractions) and :mod:`.fast` (floats).

May import ``oprlab.prob``, ``oprlab.mechanics`` and ``oprlab.units``.
"""
