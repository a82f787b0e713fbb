"""oprlab: a rules laboratory for One Page Rules style wargames.

Layers (imports point down only; the core does no I/O):
``prob`` -> ``mechanics`` -> ``units`` -> ``rules`` -> ``table`` -> ``game`` -> ``players``
-> ``analysis`` -> edges (``cli``, ``web``, file formats).
"""

from oprlab.version import __version__

__all__ = ["__version__"]
