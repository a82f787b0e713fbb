"""The fast odds' die chains shared across what a chain never reads (issue 13): under seed
003_8abb008d4113ed75's clauses a die's chain never reads the weapon's name, the target's Tough,
the owners (a stateful mechanic's clock or pool only; the fast path refuses those) nor, but for
an Indirect weapon ("-1 to hit when shooting after moving"), whether the attacker moved. Every
shared chain must be bit for bit the one built from the query itself."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from oprlab.mechanics import Owner
from oprlab.mechanics.d6 import D6
from oprlab.rules import attack_chain as chain
from oprlab.rules.gff import fast
from oprlab.rules.gff.attack import HOOKS, GffHooks, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile

D6M = D6()
KEY = chain.mechanic_key(D6M)

WEAPONS = [
    AttackProfile(name="Rifle", dice=3, quality=4, melee=False),
    AttackProfile(name="Gun", dice=1, quality=3, ap=1, rending=True, relentless=True, melee=False),
    AttackProfile(name="Mortar", dice=2, quality=5, blast=3, indirect=True, far=True, melee=False),
    AttackProfile(
        name="Lobber", dice=1, quality=4, indirect=True, deadly=2, unstoppable=True, melee=False
    ),
    AttackProfile(name="Blade", dice=4, quality=3, melee=True, furious=True, thrust=True),
    AttackProfile(name="Axe", dice=2, quality=4, melee=True, deadly=3, bane=True, surge=True),
    AttackProfile(name="Las", dice=6, quality=2, reliable=True, ap=2, far=False, melee=False),
]
OWNERS = [
    (Owner("attacker", "attacker"), Owner("defender", "defender")),
    (Owner("A", "u3", 2), Owner("B", "u7")),
]
DEFENDERS = [
    DefenderProfile(4, 5),
    DefenderProfile(5, 1, tough=6, regeneration=True),
    DefenderProfile(3, 3, tough=3, stealth=True, markers=2, near=2),
    DefenderProfile(6, 10, shaken=True, stealth=True, regeneration=True),
]


def _situations() -> list[Situation]:
    out = []
    for (a, d), moved, cover, blockers, distance in itertools.product(
        OWNERS, (False, True), (False, True), (False, True), (4.0, 9.0, 15.0)
    ):
        out.append(Situation(False, False, distance, moved, cover, blockers, False, a, d))
    for (a, d), charging, fatigued in itertools.product(OWNERS, (False, True), (False, True)):
        out.append(Situation(True, charging, 0.0, False, False, False, fatigued, a, d))
    return out


def _same(got: chain.FloatDie, want: chain.FloatDie) -> bool:
    return (
        np.array_equal(got.hits, want.hits)
        and np.array_equal(got.wounds, want.wounds)
        and got.packets == want.packets  # the floats themselves, in order
    )


def test_every_shared_chain_is_the_querys_own() -> None:
    """On every weapon, situation and defender of the grid (names, Tough, owners and moves
    varied), the cached chain equals bit for bit the chain built from the query's own
    arguments; the chains built are far fewer than the queries."""
    fast.clear_caches()
    queries = 0
    for p, s, d in itertools.product(WEAPONS, _situations(), DEFENDERS):
        if p.melee != s.melee:
            continue
        for named in (p, replace(p, name=p.name + "'"), replace(p, dice=p.dice + 1)):
            for tough in (d, replace(d, tough=d.tough + 2)):
                want = chain.float_die(HOOKS, named, s, tough, D6M)
                assert _same(fast._die(named, s, tough, KEY), want), (named, s, tough)
                queries += 1
    built = fast._die_cached.cache_info().currsize
    assert queries > 2000
    assert built * 8 < queries


def test_a_chain_is_shared_across_names_tough_owners_and_still_moves() -> None:
    """One chain for queries that differ only in what it never reads; an Indirect weapon's
    move (-1 to hit) and every other seed hook's reading keep chains apart."""
    rifle = WEAPONS[0]
    d = DefenderProfile(4, 5)
    s = Situation(distance=6.0)
    one = fast._die(rifle, s, d, KEY)
    a, b = OWNERS[1]
    assert fast._die(replace(rifle, name="Other"), s, d, KEY) is one
    assert fast._die(rifle, s, replace(d, tough=3), KEY) is one
    assert fast._die(rifle, replace(s, attacker=a, defender=b), d, KEY) is one
    assert fast._die(rifle, replace(s, moved=True), d, KEY) is one
    mortar = WEAPONS[2]
    still = fast._die(mortar, s, d, KEY)
    moved = fast._die(mortar, replace(s, moved=True), d, KEY)
    assert moved is not still and not _same(moved, still)
    assert not _same(fast._die(rifle, s, replace(d, stealth=True, defense=5), KEY), one)


class _Other(GffHooks):
    """A house rule's clauses (a subclass): they may read what seed 003's never do."""

    __slots__ = ()


def test_other_clauses_keep_the_full_key() -> None:
    """Only seed 003's own hooks drop the name, Tough, owners and move from the key."""
    rifle = WEAPONS[0]
    d = DefenderProfile(4, 5)
    s = Situation(distance=6.0)
    other = _Other()
    one = fast._die(rifle, s, d, KEY, other)
    assert fast._die(replace(rifle, name="Other"), s, d, KEY, other) is not one
    assert fast._die(rifle, s, replace(d, tough=3), KEY, other) is not one
    assert fast._die(rifle, replace(s, moved=True), d, KEY, other) is not one
    assert fast._die(replace(rifle, dice=5), s, d, KEY, other) is one
