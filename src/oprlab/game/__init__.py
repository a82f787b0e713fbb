"""Full games: state, actions in canonical order, apply, and the event log.

May import ``oprlab.table``, ``oprlab.rules``, ``oprlab.units``, ``oprlab.mechanics`` and below.
"""
