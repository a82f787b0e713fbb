"""Shared pieces of the GFF rules tests."""

from __future__ import annotations

from typing import TypedDict


class WeaponRules(TypedDict, total=False):
    """The weapon rules a test's ``AttackProfile`` helper may set (mypy checks each name)."""

    ap: int
    blast: int
    deadly: int
    bane: bool
    furious: bool
    indirect: bool
    relentless: bool
    reliable: bool
    rending: bool
    surge: bool
    thrust: bool
    unstoppable: bool
