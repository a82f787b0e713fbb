"""Imports every built-in mechanic so that each registers itself."""
