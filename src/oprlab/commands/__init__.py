"""The work of the commands that must start fast (``oprlab check``, ``oprlab odds``), without
typer: the typer commands in :mod:`oprlab.cli` and the fast start (:mod:`.fast`) both call it,
so they print the same thing. An edge, like :mod:`oprlab.cli`: it may import every layer.
"""
