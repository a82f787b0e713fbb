"""The commanders' lean odds (``fast.attack_ends``, issue 13): the casualties, P(Destroyed) and
P(Shaken) of :func:`~oprlab.rules.gff.fast.attack_odds_fast` bit for bit, with the wound
track's distribution kept by what it reads of the target (never its markers or Shaken; its
models only for Blast and for Deadly's models to spare)."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from oprlab.mechanics.d6 import D6
from oprlab.rules import attack_chain as chain
from oprlab.rules.gff import fast
from oprlab.rules.gff.attack import HOOKS, Situation
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile

D6M = D6()
SITUATIONS = [
    Situation(distance=6.0),
    Situation(distance=18.0, cover=True),
    Situation(distance=4.0, moved=True),
    Situation(melee=True, charging=True),
    Situation(melee=True, fatigued=True),
]


def _weapon(rng: random.Random, melee: bool) -> AttackProfile:
    return AttackProfile(
        name=rng.choice(("a", "b")),
        dice=rng.randint(0, 8),
        quality=rng.randint(2, 6),
        melee=melee,
        ap=rng.choice((0, 0, 1, 2)),
        blast=rng.choice((1, 1, 1, 3, 6)),
        deadly=rng.choice((1, 1, 1, 2, 3)),
        bane=rng.random() < 0.2,
        furious=rng.random() < 0.2,
        indirect=rng.random() < 0.1,
        relentless=rng.random() < 0.2,
        reliable=rng.random() < 0.1,
        rending=rng.random() < 0.2,
        surge=rng.random() < 0.1,
        unstoppable=rng.random() < 0.1,
    )


def _target(rng: random.Random) -> DefenderProfile:
    models = rng.randint(0, 6)
    return DefenderProfile(
        defense=rng.randint(2, 6),
        models=models,
        tough=rng.choice((1, 1, 3, 6)),
        markers=rng.randint(0, 4),
        shaken=rng.random() < 0.3,
        regeneration=rng.random() < 0.2,
        stealth=rng.random() < 0.2,
        near=rng.choice((None, None, 1, 2)),
    )


def _cold(
    weapons: tuple[AttackProfile, ...], d: DefenderProfile, s: Situation, fear: int
) -> tuple[list[float], float, float]:
    fast.clear_caches()
    odds = fast.attack_odds_fast(weapons, d, s, D6M, fear=fear)
    return odds.casualties.tolist(), odds.p_destroyed, odds.p_shaken


def test_lean_odds_are_the_full_odds_bit_for_bit() -> None:
    """Random attacks at random targets, each asked again with the target changed in what the
    track does not read (markers, Shaken, models without Blast or Deadly) and in what it does:
    every answer, warm from the kept tracks, equals the full odds worked cold."""
    rng = random.Random(13)
    queries: list[tuple[tuple[AttackProfile, ...], DefenderProfile, Situation, int]] = []
    for _ in range(60):
        s = rng.choice(SITUATIONS)
        weapons = tuple(_weapon(rng, s.melee) for _ in range(rng.randint(1, 3)))
        d = _target(rng)
        fear = rng.choice((0, 0, 1))
        queries.append((weapons, d, s, fear))
        for changed in (
            replace(d, markers=rng.randint(0, 4)),
            replace(d, shaken=not d.shaken),
            replace(d, models=max(0, d.models - 1)),
            replace(d, near=None),
        ):
            queries.append((weapons, changed, s, fear))
    rng.shuffle(queries)
    fast.clear_caches()
    warm = [fast.attack_ends(w, d, s, D6M, fear=fear) for w, d, s, fear in queries]
    assert len(fast._TRACKS) < len(queries) / 2  # most asks close a track kept before
    for (w, d, s, fear), (lost, p_destroyed, p_shaken) in zip(queries, warm, strict=True):
        assert (lost.tolist(), p_destroyed, p_shaken) == _cold(w, d, s, fear), (w, d, s)


def test_the_track_is_kept_by_what_it_reads() -> None:
    """Markers and Shaken never make a new track; models do only for Blast (up to its largest
    X) and for Deadly's models to spare; Defense does always."""
    fast.clear_caches()
    plain = (AttackProfile(name="r", dice=4, quality=4, melee=False),)
    blast = (AttackProfile(name="m", dice=2, quality=4, melee=False, blast=3),)
    deadly = (AttackProfile(name="l", dice=2, quality=4, melee=False, deadly=3),)
    s = Situation(distance=6.0)
    key = chain.mechanic_key(D6M)
    d = DefenderProfile(4, 5, tough=3)

    def track(w: tuple[AttackProfile, ...], t: DefenderProfile) -> np.ndarray:
        return fast._track_of(w, t, s, key, HOOKS)

    for w in (plain, blast, deadly):
        first = track(w, d)
        assert track(w, replace(d, markers=2, shaken=True)) is first
    assert track(plain, replace(d, models=2)) is track(plain, d)
    assert track(blast, replace(d, models=4)) is track(blast, d)  # both past Blast(3)
    assert track(blast, replace(d, models=2)) is not track(blast, d)
    assert track(deadly, replace(d, models=4)) is not track(deadly, d)
    assert track(plain, replace(d, defense=5)) is not track(plain, d)
    assert not track(plain, d).flags.writeable
