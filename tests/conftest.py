"""Test-wide settings: property tests draw the same examples on every run.

A fixed (derandomised) Hypothesis search keeps CI reproducible: a red run is always the same
red run. Set ``HYPOTHESIS_PROFILE=explore`` to search with fresh random examples locally.
"""

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))
