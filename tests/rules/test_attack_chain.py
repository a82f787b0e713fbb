"""The shared attack chain (``oprlab.rules.attack_chain``) under a small invented rule set.

"Pebble" is not a real system: it hits on Quality+, a natural 6 makes two hits, each hit gets a
Defense roll (a natural 6 block is rolled again with ``reroll``), a failed block deals Deadly(X)
wounds, and with ``regen`` each wound is ignored on a 5+. Its chain is checked against a
brute-force walk over every die face, the float chain against the exact one, and the rolling
driver against written-down faces (the order a player rolls in).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, Outcome, Test, get_mechanic
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist, mean, repeat_sum
from oprlab.rules.attack_chain import (
    DieResult,
    FloatWeapon,
    Roller,
    die_result,
    float_die,
    float_sums,
    fold_packets,
    powered,
    require_stateless,
    roll_wounds,
    sum_dice,
    wounds_per_hit,
)
from tests.rules.gff.scripted import scripted_roller

D6M = D6()


@dataclass(frozen=True)
class Pebble:
    """An invented weapon profile."""

    dice: int
    quality: int = 4
    deadly: int = 1
    reroll: bool = False


@dataclass(frozen=True)
class Target:
    defense: int = 4
    regen: bool = False


@dataclass(frozen=True)
class Hit:
    six: bool


class PebbleHooks:
    def hit_check(self, p: Pebble, s: None, d: Target) -> Check:
        return Check(Test.HIT, p.quality)

    def hits_from(self, p: Pebble, s: None, d: Target, hit: Outcome) -> tuple[Hit, ...]:
        if not hit.success:
            return ()
        return (Hit(True), Hit(False)) if hit.natural == 6 else (Hit(False),)

    def defense_check(self, p: Pebble, s: None, d: Target, hit: Hit) -> Check:
        return Check(Test.DEFENSE, d.defense)

    def rerolls_block(self, p: Pebble, block: Outcome) -> bool:
        return p.reroll and block.natural == 6

    def wounds_from_block(self, p: Pebble, block: Outcome) -> int:
        return 0 if block.success else p.deadly

    def regeneration_check(self, p: Pebble, s: None, d: Target) -> Check | None:
        return Check(Test.REGENERATION, 5) if d.regen else None


HOOKS = PebbleHooks()
SIXTH = Fraction(1, 6)


def _faces(n: int) -> Iterator[tuple[tuple[int, ...], Fraction]]:
    for faces in product(range(1, 7), repeat=n):
        yield faces, SIXTH**n


def _brute_hit(p: Pebble, d: Target) -> dict[int, Fraction]:
    """Wounds of one hit, walking every Defense, re-roll and Regeneration face."""
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for (block,), q in _faces(1):
        blocks = [(f, q * SIXTH) for f in range(1, 7)] if p.reroll and block == 6 else []
        for face, w in blocks or [(block, q)]:
            if face >= d.defense:
                out[0] += w
                continue
            if not d.regen:
                out[p.deadly] += w
                continue
            for regen, r in _faces(p.deadly):
                out[sum(f < 5 for f in regen)] += w * r
    return out


def _brute_die(p: Pebble, d: Target) -> dict[DieResult, Fraction]:
    """One die's (hits, ordinary wounds, Deadly packets) by walking every face."""
    per_hit = _brute_hit(p, d)
    out: dict[DieResult, Fraction] = {}
    for (face,), q in _faces(1):
        hits = 0 if face < p.quality else (2 if face == 6 else 1)
        for wounds in product(per_hit.items(), repeat=hits):
            w = q
            for _, a in wounds:
                w *= a
            sizes = tuple(x for x, _ in wounds)
            key: DieResult = (hits, 0, sizes) if p.deadly > 1 else (hits, sum(sizes), ())
            out[key] = out.get(key, Fraction(0)) + w
    return out


CASES = [
    (Pebble(1), Target()),
    (Pebble(1, quality=3, reroll=True), Target(defense=5)),
    (Pebble(1, deadly=3), Target(regen=True)),
    (Pebble(1, quality=5, deadly=2, reroll=True), Target(defense=3, regen=True)),
]


@pytest.mark.parametrize(("p", "d"), CASES)
def test_die_result_equals_brute_force(p: Pebble, d: Target) -> None:
    """One die's whole chain, exact, equals the walk over every face (re-roll and Deadly too)."""
    got = die_result(HOOKS, p, None, d, D6M)
    assert dict(got.items()) == _brute_die(p, d)


def test_wounds_per_hit_rerolls_a_natural_six_once() -> None:
    """A 6 block rolled again: P(wound) = 3/6 + 1/6 * 3/6 at Defense 4+ with Deadly(1)."""
    got = wounds_per_hit(HOOKS, Pebble(1, reroll=True), None, Target(), Hit(False), D6M)
    assert got.probability(lambda w: w == 1) == Fraction(1, 2) + Fraction(1, 12)


@pytest.mark.parametrize(("p", "d"), CASES)
def test_float_die_equals_exact(p: Pebble, d: Target) -> None:
    """The float chain's hits, wounds and Deadly packets equal the exact chain's."""
    exact = die_result(HOOKS, p, None, d, D6M)
    die = float_die(HOOKS, p, None, d, D6M)
    hits = exact.map(lambda r: r[0])
    wounds = exact.map(lambda r: r[1] + sum(r[2]))
    for k, q in enumerate(die.hits):
        assert q == pytest.approx(float(hits[k]), abs=1e-12)
    for k, q in enumerate(die.wounds):
        assert q == pytest.approx(float(wounds[k]), abs=1e-12)
    if p.deadly > 1:
        positive = exact.map(lambda r: tuple(x for x in r[2] if x))
        assert {k: pytest.approx(float(v), abs=1e-12) for k, v in positive.items()} == dict(
            die.packets
        )


def test_sum_dice_splits_ordinary_and_deadly_weapons() -> None:
    """Hits and wounds add over every weapon; only the plain weapon's wounds are ordinary."""
    d = Target()
    plain, deadly = Pebble(3), Pebble(2, deadly=3)
    sums = sum_dice([plain, Pebble(0), deadly], lambda p: die_result(HOOKS, p, None, d, D6M))
    one = die_result(HOOKS, plain, None, d, D6M)
    assert sums.ordinary == repeat_sum(one.map(lambda r: r[1]), 3)
    ((packets, dice),) = sums.deadly
    assert dice == 2
    assert packets == die_result(HOOKS, deadly, None, d, D6M).map(lambda r: r[2])
    other = die_result(HOOKS, deadly, None, d, D6M)
    assert mean(sums.hits) == 3 * mean(one.map(lambda r: r[0])) + 2 * mean(
        other.map(lambda r: r[0])
    )


def test_fold_packets_applies_each_die_in_order() -> None:
    """Two dice of packets folded with a capped total equal the walk over both dice."""
    packets = Dist.from_pairs([((), Fraction(1, 2)), ((3,), Fraction(1, 3)), ((2, 2), SIXTH)])

    def take(total: int, pk: tuple[int, ...]) -> int:
        return min(5, total + sum(pk))

    got = fold_packets(Dist.point(0), [(packets, 2)], take)
    want: dict[int, Fraction] = {}
    for (a, qa), (b, qb) in product(packets.items(), repeat=2):
        t = take(take(0, a), b)
        want[t] = want.get(t, Fraction(0)) + qa * qb
    assert dict(got.items()) == want


def test_float_sums_keep_deadly_dice_apart_only_when_asked() -> None:
    d = Target()
    weapons = [Pebble(2), Pebble(1, deadly=2)]

    def weapon(p: Pebble, target: Target) -> FloatWeapon:
        return powered(float_die(HOOKS, p, None, target, D6M), p.dice)

    apart = float_sums(weapons, weapon, (d,))
    together = float_sums(weapons, weapon, (d,), deadly_apart=False)
    assert len(apart[2]) == 1 and len(apart[3]) == 1
    assert len(together[2]) == 2 and not together[3]
    assert np.allclose(apart[1], together[1])
    assert apart[0].sum() == pytest.approx(1.0)
    hits, wounds, _, _ = float_sums([], weapon, (d,))
    assert list(hits) == [1.0] and list(wounds) == [1.0]


def test_roll_wounds_rolls_in_a_players_order() -> None:
    """All hit dice, then a Defense roll per hit (a 6 re-rolled at once), then Regeneration per
    wound; a Deadly packet regenerated to nothing is dropped."""
    roller, die = scripted_roller(
        6, 2, 4,  # hit dice of the Deadly(2) weapon: a 6 (two hits), a miss, a hit
        5,  # the plain weapon's hit die
        1, 6, 2, 3, 4,  # Defense: fail, 6 re-rolled to fail, fail, save (plain)
        5, 5, 1, 6, 2, 6,  # Regeneration: first packet both ignored, then 1 stays, then 1
    )  # fmt: skip
    weapons = [Pebble(3, deadly=2, reroll=True), Pebble(1)]
    rolled = roll_wounds(HOOKS, weapons, None, Target(regen=True), roller)
    assert die.done
    tests = [c.test for c in die.asked]
    assert tests == [Test.HIT] * 4 + [Test.DEFENSE] * 5 + [Test.REGENERATION] * 6
    assert (rolled.hits, rolled.ordinary, rolled.packets, rolled.wounds) == (4, 0, (1, 1), 2)


def test_exact_chain_refuses_a_deterministic_mechanic() -> None:
    clock = get_mechanic("clock")
    with pytest.raises(OptionError, match="random mechanic"):
        require_stateless(clock, "resolve_exchange")
    with pytest.raises(OptionError, match="random mechanic"):
        die_result(HOOKS, Pebble(1), None, Target(), clock)


def test_roller_needs_a_generator_for_a_random_mechanic() -> None:
    with pytest.raises(ValueError, match="random generator"):
        Roller(D6M, None, None).roll(Check(Test.HIT, 4))
