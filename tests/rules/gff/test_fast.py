"""The GFF float fast path (``rules/gff/fast.py``) against the Fraction path (``exact.py``) of
seed 003_8abb008d4113ed75: one die's chain, the wound track for Deadly on many models, the
wound-effect table, the caches, on a broad grid and on drawn cases."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import replace
from typing import Unpack, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oprlab.errors import OptionError
from oprlab.mechanics.clock import Clock
from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.gff import fast
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.exact import AttackOdds, attack_odds, die_result
from oprlab.rules.gff.fast import AttackOddsArrays, attack_odds_fast, clear_caches
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from tests.rules.gff import WeaponRules

D6M = D6()
SHOOT = Situation(distance=6.0)
FAR = Situation(distance=18.0, cover=True)
CHARGE = Situation(melee=True, charging=True)
TIRED = Situation(melee=True, fatigued=True)


def weapon(dice: int = 1, quality: int = 4, **rules: Unpack[WeaponRules]) -> AttackProfile:
    return AttackProfile(name="w", dice=dice, quality=quality, melee=False, **rules)


def as_array(d: Dist[int], size: int) -> np.ndarray:
    out = np.zeros(size)
    for k, p in d.items():
        out[k] += float(p)
    return out


def assert_same(exact: AttackOdds, got: AttackOddsArrays, models: int) -> None:
    """Every distribution and probability equal to 1e-12, and the arrays the expected shape."""
    for name in ("hits", "wounds", "casualties"):
        arr = getattr(got, name)
        dist = getattr(exact, name)
        assert arr.size == max(dist.support) + 1 or name == "casualties"
        np.testing.assert_allclose(arr, as_array(dist, arr.size), rtol=0, atol=1e-12)
        assert arr.sum() == pytest.approx(1.0, abs=1e-12)
    assert got.casualties.size == models + 1
    assert got.p_destroyed == pytest.approx(float(exact.p_destroyed), abs=1e-12)
    assert got.p_shaken == pytest.approx(float(exact.p_shaken), abs=1e-12)


def check(
    weapons: list[AttackProfile], d: DefenderProfile, s: Situation, fear: int = 0
) -> AttackOddsArrays:
    profiles = [replace(p, melee=s.melee) for p in weapons]
    got = attack_odds_fast(profiles, d, s, D6M, fear=fear)
    assert_same(attack_odds(profiles, d, s, D6M, fear=fear), got, d.models)
    return got


# --- one die ------------------------------------------------------------------------------

DIE_WEAPONS = [
    weapon(),
    weapon(rending=True, ap=1),
    weapon(deadly=3, blast=3, surge=True),
    weapon(deadly=2, bane=True, relentless=True),
    weapon(bane=True, blast=2, reliable=True),
    weapon(deadly=3, unstoppable=True, indirect=True, furious=True),
]
DIE_DEFENDERS = [
    DefenderProfile(4, 1),
    DefenderProfile(5, 4, tough=3, regeneration=True, stealth=True),
    DefenderProfile(2, 2, regeneration=True, near=1),
]


@pytest.mark.parametrize("p", DIE_WEAPONS)
def test_one_die_chain_equals_die_result(p: AttackProfile) -> None:
    """seed 003_8abb008d4113ed75 "Shooting", "Deadly(X)", "Regeneration", "Bane", "Blast(X)":
    one die's float chain equals ``die_result``: hits, wounds, and the Deadly packets in order
    (zeros, which the Deadly rule skips, dropped)."""
    for d, s in itertools.product(DIE_DEFENDERS, (SHOOT, FAR, CHARGE)):
        exact = die_result(replace(p, melee=s.melee), s, d, D6M)
        die = fast._die_chain(replace(p, melee=s.melee), s, d, D6M)
        hits = exact.map(lambda r: r[0])
        wounds = exact.map(lambda r: r[1] + sum(r[2]))
        np.testing.assert_allclose(die.hits, as_array(hits, die.hits.size), atol=1e-15)
        np.testing.assert_allclose(die.wounds, as_array(wounds, die.wounds.size), atol=1e-15)
        assert die.hits.size == max(hits.support) + 1
        assert die.wounds.size == max(wounds.support) + 1
        packets = exact.map(lambda r: tuple(x for x in r[2] if x))
        got = dict(die.packets)
        if p.deadly == 1:
            assert got == {}
            continue
        assert set(got) == set(packets.support)
        for seq, q in packets.items():
            assert got[seq] == pytest.approx(float(q), abs=1e-15)


# --- whole attacks --------------------------------------------------------------------------

WEAPON_SETS = {
    "deadly-blast": [weapon(2, deadly=3, blast=3)],
    "deadly-surge-regenerated": [weapon(2, deadly=3, blast=2, surge=True)],
    "two-deadly": [weapon(2, deadly=2, rending=True), weapon(2, deadly=3, bane=True)],
    "two-deadly-swapped": [weapon(2, deadly=3, bane=True), weapon(2, deadly=2, rending=True)],
    "ordinary-listed-before-deadly": [weapon(4, ap=1), weapon(2, deadly=3, surge=True)],
    "bane-blast-and-deadly-six": [weapon(3, bane=True, blast=2), weapon(1, deadly=6)],
    "many-ordinary": [weapon(10, quality=3, rending=True), weapon(3, relentless=True)],
    "no-dice": [weapon(0), weapon(0, deadly=3)],
    "none": [],
}
DEFENDERS = [
    DefenderProfile(4, 1, tough=3, regeneration=True),
    DefenderProfile(3, 1, tough=6, markers=2, shaken=True),
    DefenderProfile(4, 2, tough=3, markers=1),
    DefenderProfile(5, 3, regeneration=True),
    DefenderProfile(3, 5, tough=2, shaken=True, regeneration=True, near=2),
]
SITUATIONS = [SHOOT, FAR, CHARGE, TIRED]


@pytest.mark.parametrize("name", WEAPON_SETS)
def test_fast_equals_exact_on_a_broad_grid(name: str) -> None:
    """seed 003_8abb008d4113ed75 "Deadly(X)" (resolved first, no carry-over), "Groups &
    Wounds" (only the last model takes markers), "Wound Effects", "Fear(X)" (melee only),
    "Tough(X)": the fast path equals ``attack_odds`` to 1e-12 for one- and many-model targets,
    Shaken and wounded ones, in and out of melee, with and without Fear."""
    for d, s, fear in itertools.product(DEFENDERS, SITUATIONS, (0, 2)):
        check(WEAPON_SETS[name], d, s, fear)


def test_the_order_of_deadly_weapons_matters_and_is_kept() -> None:
    """seed 003_8abb008d4113ed75 "Deadly(X)": packets land in die order and never carry over,
    so two Deadly weapons against three models give different casualties in either order; the
    fast path keeps the order of the list, as ``attack_odds`` does."""
    d = DefenderProfile(4, 3, tough=6)
    first = check(WEAPON_SETS["two-deadly"], d, SHOOT)
    second = check(WEAPON_SETS["two-deadly-swapped"], d, SHOOT)
    assert np.abs(first.casualties - second.casualties).max() > 1e-3


def test_the_benchmark_query_and_long_tracks() -> None:
    """seed 003_8abb008d4113ed75 "Tough(X)" and "Wound Effects": 20 Rending Deadly(3) dice at
    one Tough(3) model (up to 60 wounds, where Knocked Out is long certain), and 12 Deadly(2)
    dice at a Shaken Tough(6) model with markers and at four models (the Deadly track past the
    last model)."""
    rending = weapon(20, rending=True, deadly=3)
    check([rending], DefenderProfile(4, 1, tough=3, regeneration=True), SHOOT)
    deadly = weapon(12, deadly=2, ap=1)
    check([deadly], DefenderProfile(3, 1, tough=6, markers=3, shaken=True), CHARGE, fear=1)
    check([deadly, weapon(6)], DefenderProfile(3, 4, tough=6, markers=3), SHOOT)


def test_a_unit_with_no_models_left() -> None:
    """A target with no models: no wound effect, and it counts as Destroyed (as exact says)."""
    got = check([weapon(3, deadly=2)], DefenderProfile(4, 0), SHOOT)
    assert got.casualties.tolist() == pytest.approx([1.0])
    assert got.p_destroyed == pytest.approx(1.0)


def _drawn(deadly: int, blast: int, flag: str, on: bool) -> WeaponRules:
    """Deadly, Blast and the boolean weapon rule ``flag`` set to ``on`` (hypothesis draws the
    rule's name, so the dict's keys are not literals mypy could check)."""
    return cast(WeaponRules, {"deadly": deadly, "blast": blast, flag: on})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    dice=st.lists(st.integers(0, 3), min_size=1, max_size=3),
    deadly=st.lists(st.sampled_from([1, 1, 2, 3]), min_size=3, max_size=3),
    blast=st.sampled_from([1, 2]),
    rule=st.sampled_from(["rending", "bane", "surge", "unstoppable", "reliable"]),
    models=st.integers(1, 4),
    tough=st.integers(1, 4),
    markers=st.integers(0, 3),
    shaken=st.booleans(),
    regeneration=st.booleans(),
    s=st.sampled_from(SITUATIONS),
    fear=st.integers(0, 2),
)
def test_fast_equals_exact_drawn(
    dice: list[int],
    deadly: list[int],
    blast: int,
    rule: str,
    models: int,
    tough: int,
    markers: int,
    shaken: bool,
    regeneration: bool,
    s: Situation,
    fear: int,
) -> None:
    """seed 003_8abb008d4113ed75: the fast path equals ``attack_odds`` on drawn attacks."""
    weapons = [
        weapon(n, **_drawn(x, blast if i == 0 else 1, rule, i == 1))
        for i, (n, x) in enumerate(zip(dice, deadly, strict=False))
    ]
    d = DefenderProfile(
        4,
        models,
        tough=tough,
        markers=min(markers, tough - 1),
        shaken=shaken,
        regeneration=regeneration,
    )
    check(weapons, d, s, fear)


# --- caches ---------------------------------------------------------------------------------


def test_one_die_is_shared_across_a_game() -> None:
    """The die cache ignores what a die's chain cannot read (distance within the 9" bands, the
    target's markers, Shaken and size beyond Blast), so a game reuses it; the odds still differ
    where they should."""
    p = weapon(4, deadly=3)
    d = DefenderProfile(4, 3, tough=3)
    key = repr(D6M)
    fast._MECHANICS.setdefault(key, D6M)
    near = fast._die(p, Situation(distance=3.0), d, key)
    assert fast._die(p, Situation(distance=8.0), replace(d, markers=2, shaken=True), key) is near
    assert fast._die(p, Situation(distance=12.0), d, key) is not near
    odds = check([p], d, SHOOT), check([p], replace(d, markers=2, shaken=True), SHOOT)
    assert odds[0].p_shaken != pytest.approx(odds[1].p_shaken)


def test_results_are_fresh_and_caches_can_be_cleared() -> None:
    """Callers may change the arrays they get: the cached ones stay as they were; clearing
    every cache gives the same odds again."""
    weapons = [weapon(5, rending=True)]
    d = DefenderProfile(4, 1, tough=3)
    first = attack_odds_fast(weapons, d, SHOOT, D6M)
    expected = first.hits.copy(), first.wounds.copy(), first.casualties.copy()
    first.hits[:] = first.wounds[:] = first.casualties[:] = 0.0
    again = attack_odds_fast(weapons, d, SHOOT, D6M)
    clear_caches()
    cold = attack_odds_fast(weapons, d, SHOOT, D6M)
    for got in (again, cold):
        for arr, want in zip((got.hits, got.wounds, got.casualties), expected, strict=True):
            np.testing.assert_array_equal(arr, want)


def test_fast_refuses_the_clock() -> None:
    """Exact composition multiplies independent dice; the clock is played out instead (the
    same refusal as ``attack_odds``, even for an attack without dice)."""
    with pytest.raises(OptionError, match="resolve_attack"):
        attack_odds_fast([weapon(3)], DefenderProfile(4, 1), SHOOT, Clock())
    with pytest.raises(OptionError):
        attack_odds_fast([], DefenderProfile(4, 1), SHOOT, Clock())


def test_one_die_is_shared_across_dice_counts() -> None:
    """A unit that loses a model attacks with fewer dice of the same chain: the die is composed
    once (a d6 die never reads the dice count), and the odds equal those computed cold."""
    clear_caches()
    d = DefenderProfile(4, 5, tough=3)
    key = repr(D6M)
    fast._MECHANICS.setdefault(key, D6M)
    p = weapon(6, deadly=3)
    fewer = replace(p, dice=4)
    assert fast._die(fewer, SHOOT, d, key) is fast._die(p, SHOOT, d, key)
    warm = [attack_odds_fast([q], d, SHOOT, D6M) for q in (p, fewer)]
    for q, got in zip((p, fewer), warm, strict=True):
        clear_caches()
        cold = attack_odds_fast([q], d, SHOOT, D6M)
        np.testing.assert_array_equal(got.casualties, cold.casualties)
        assert (got.p_shaken, got.p_destroyed) == (cold.p_shaken, cold.p_destroyed)
    assert warm[0].casualties.tolist() != warm[1].casualties.tolist()


def test_the_canonical_key_is_made_once_and_reads_blast() -> None:
    """The canonical situation and target are cached by the weapon's Blast (all of the weapon
    they read): the same objects for a weapon with more dice, another target size for Blast."""
    d = DefenderProfile(4, 5, markers=1, shaken=True)
    plain, blast = weapon(2), weapon(2, blast=3)
    assert fast._canonical(plain, SHOOT, d)[1] == DefenderProfile(4, 1)
    assert fast._canonical(blast, SHOOT, d)[1] == DefenderProfile(4, 3)
    assert fast._canonical(blast, SHOOT, replace(d, models=2))[1].models == 2
    assert fast._canonical(replace(blast, dice=6), SHOOT, d) is fast._canonical(blast, SHOOT, d)


def test_the_wound_effect_table_is_shared_by_what_it_reads() -> None:
    """The table reads the target's models, markers, Tough and Shaken only (seed 003 "Wound
    Effects": die + markers, Knocked Out on 5+X, Shaken adds +1): targets that differ in
    Defense, Regeneration, Stealth or Blast's models near share one; the odds equal cold ones."""
    clear_caches()
    key = repr(D6M)
    fast._MECHANICS.setdefault(key, D6M)
    d = DefenderProfile(4, 2, tough=3, markers=1)
    table = fast._effects(d, SHOOT.defender, 0, key, 16)
    other = replace(d, defense=2, regeneration=True, stealth=True, near=1)
    assert fast._effects(other, SHOOT.defender, 0, key, 16) is table
    for changed in (replace(d, markers=2), replace(d, shaken=True), replace(d, tough=6)):
        assert fast._effects(changed, SHOOT.defender, 0, key, 16) is not table
    warm = attack_odds_fast([weapon(6, ap=1)], other, SHOOT, D6M)
    clear_caches()
    cold = attack_odds_fast([weapon(6, ap=1)], other, SHOOT, D6M)
    np.testing.assert_array_equal(warm.casualties, cold.casualties)
    assert (warm.p_shaken, warm.p_destroyed) == (cold.p_shaken, cold.p_destroyed)


def test_the_canonical_key_skips_what_it_drops() -> None:
    """A target that lost a model or took a marker or Shaken finds the canonical pair made for
    it before (the same objects); one of other Defense, Tough (off seed 003's clauses),
    Regeneration or Stealth does not. The fields the key keeps and drops are all the target's."""
    fields = {f.name for f in dataclasses.fields(DefenderProfile)}
    assert set(fast._KEPT) | set(fast._DROPPED) == fields
    assert not set(fast._KEPT) & set(fast._DROPPED)
    clear_caches()
    d = DefenderProfile(4, 5, tough=3)
    first = fast._canonical(weapon(2), SHOOT, d)
    same = replace(d, models=2, markers=1, shaken=True, near=3)
    assert fast._canonical(weapon(2), SHOOT, same) is first
    others = (
        replace(d, defense=2),
        replace(d, tough=6),
        replace(d, regeneration=True),
        replace(d, stealth=True),
    )
    for changed in others:
        assert fast._canonical(weapon(2), SHOOT, changed) != first
    blast = weapon(2, blast=3)
    assert fast._canonical(blast, SHOOT, replace(d, near=2))[1].models == 2
    assert fast._canonical(blast, SHOOT, d)[1].models == 3
