"""Imports every built-in mechanic so that each registers itself."""

from oprlab.mechanics import clock, d6, dq, wwpd  # noqa: F401
