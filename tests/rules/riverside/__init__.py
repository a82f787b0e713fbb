"""Shared pieces of the Riverside rules tests."""

from __future__ import annotations

from typing import TypedDict

from oprlab.rules.riverside.profile import HeroProfile


class WeaponRules(TypedDict, total=False):
    """The weapon rules a test's ``AttackProfile`` helper may set (mypy checks each name)."""

    ap: int
    blast: int
    deadly: int
    critical_from: int
    furious: bool
    good_shot: bool
    reliable: bool
    rending: bool
    shock: bool
    shooty: bool


class DefenderState(TypedDict, total=False):
    """What a test's ``DefenderProfile`` helper may set beside Defense, models and Quality."""

    tough: int
    wounds: int
    started: int | None
    shaken: bool
    regeneration: bool
    stealth: bool
    hero: HeroProfile | None
