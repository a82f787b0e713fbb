"""The package version, at the bottom of the layers so that every layer may record it."""

__version__ = "0.1.0"
