"""Independent oracles for the GFF attack (seed 003_8abb008d4113ed75): brute-force enumeration of
every die face and icepool, both written from the rules text, against ``exact.attack_odds``.

The brute force reads each clause afresh ("Shooting", "Wound Effects", "Groups & Wounds", the
special rules) and shares no code with the pipeline beyond its input dataclasses. It enumerates
every face combination of the attack dice at once with ``itertools.product``; the dice of each
hit (its Defense die, Bane's re-roll die, one Regeneration die per wound) are enumerated face by
face as well, hit by hit, and the hits are combined by a product over their outcomes, which is
the full product of faces with equal consequences merged. Then Groups & Wounds is played out and
the wound-effect die enumerated.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Unpack

import icepool
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from oprlab.mechanics.d6 import D6
from oprlab.prob import Dist
from oprlab.rules.gff.attack import Situation
from oprlab.rules.gff.exact import attack_odds
from oprlab.rules.gff.profile import AttackProfile, DefenderProfile
from tests.rules.gff import WeaponRules

SEED = "seed 003_8abb008d4113ed75"
FACES = (1, 2, 3, 4, 5, 6)
SIXTH = Fraction(1, 6)
D6_MECH = D6()

# --- the rules, read from seed 003 ----------------------------------------------------------


def hit_mods(p: AttackProfile, s: Situation, d: DefenderProfile) -> int:
    """Thrust +1 (charging, melee); Stealth -1 (shot from over 9"); Indirect -1 (shooting
    after moving); Unstoppable drops every negative modifier."""
    bonus = 1 if (p.thrust and s.melee and s.charging) else 0
    malus = 0
    if not s.melee and d.stealth and s.distance > 9:
        malus -= 1
    if not s.melee and p.indirect and s.moved:
        malus -= 1
    return bonus + (0 if p.unstoppable else malus)


def lands(p: AttackProfile, s: Situation, d: DefenderProfile, face: int) -> bool:
    """Quality test: score the Quality (2+ with Reliable) or higher after modifiers; a 6 always
    succeeds, a 1 always fails; fatigued in melee only an unmodified 6 hits."""
    if s.melee and s.fatigued:
        return face == 6
    if face in (1, 6):
        return face == 6
    need = 2 if p.reliable else p.quality
    return face + hit_mods(p, s, d) >= need


def hits_of_face(p: AttackProfile, s: Situation, d: DefenderProfile, face: int) -> tuple[int, ...]:
    """The AP of each hit one attack die makes on ``face``."""
    if not lands(p, s, d, face):
        return ()
    ap = p.ap + (1 if (p.thrust and s.melee and s.charging) else 0)
    six = face == 6
    extra = 0
    if six:
        extra += int(p.furious and s.melee and s.charging)
        extra += int(p.relentless and not s.melee and s.distance > 9)
        extra += int(p.surge)
    # Rending: only the original hit counts as a 6.
    hits = (ap + (4 if (p.rending and six) else 0),) + (ap,) * extra
    near = d.models if d.near is None else d.near
    times = min(p.blast, near) if p.blast > 1 else 1
    return hits * max(1, times)


def covered(p: AttackProfile, s: Situation) -> bool:
    """Cover (+1 Defense vs shooting); Blast ignores it; Indirect ignores sight-blocker cover."""
    if not s.cover or s.melee or p.blast > 1:
        return False
    return not (p.indirect and s.cover_from_blockers)


def blocks(p: AttackProfile, s: Situation, d: DefenderProfile, ap: int, face: int) -> bool:
    if face in (1, 6):
        return face == 6
    return face - ap + int(covered(p, s)) >= d.defense


@cache
def hit_table(
    p: AttackProfile, s: Situation, d: DefenderProfile, ap: int
) -> tuple[tuple[int, Fraction], ...]:
    """Wounds one hit leaves after its own dice, each face enumerated: the Defense die, Bane's
    re-roll of an unmodified 6, Deadly's multiplication, a Regeneration die per wound (5+)."""
    regen = d.regeneration and not (p.bane or p.rending or p.unstoppable)
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for g in FACES:
        rolls = [(g2, SIXTH * SIXTH) for g2 in FACES] if (p.bane and g == 6) else [(g, SIXTH)]
        for face, w in rolls:
            if blocks(p, s, d, ap, face):
                out[0] += w
            elif not regen:
                out[p.deadly] += w
            else:
                for regen_faces in product(FACES, repeat=p.deadly):
                    out[sum(r < 5 for r in regen_faces)] += w * SIXTH**p.deadly
    return tuple(out.items())


Result = tuple[int, int, int, bool, bool]  # hits, wounds, casualties, destroyed, shaken


def settle(
    hits: tuple[tuple[AttackProfile, int], ...], d: DefenderProfile, s: Situation, fear: int
) -> dict[Result, Fraction]:
    """Every outcome of the hits' dice, Groups & Wounds, and the wound-effect die."""
    out: defaultdict[Result, Fraction] = defaultdict(Fraction)
    tables = [hit_table(p, s, d, ap) for p, ap in hits]
    fear_now = fear if s.melee else 0
    for combo in product(*tables):
        w = Fraction(1)
        for _, pr in combo:
            w *= pr
        spare = d.models - 1
        killed = markers = total = 0
        # Deadly hits come first in ``hits``: each wound packet goes to one model and does not
        # carry over; ordinary wounds kill one model each until the last, then mark it.
        for (p, _), (wounds, _) in zip(hits, combo, strict=True):
            total += wounds
            if wounds == 0:
                continue
            if p.deadly > 1:
                if killed < spare:
                    killed += 1
                else:
                    markers += wounds
            else:
                to_kill = min(wounds, spare - killed)
                killed += to_kill
                markers += wounds - to_kill
        on_model = d.markers + markers
        if markers > 0 and on_model + fear_now >= d.tough:
            for e in FACES:
                roll = e + on_model + fear_now + (1 if d.shaken else 0)
                ko = roll >= 5 + d.tough
                gone = killed + int(ko)
                out[(len(hits), total, gone, gone >= d.models, not ko)] += w * SIXTH
        else:
            out[(len(hits), total, killed, killed >= d.models, False)] += w
    return out


def brute_force(
    weapons: Sequence[AttackProfile], d: DefenderProfile, s: Situation, fear: int = 0
) -> dict[Result, Fraction]:
    """The joint outcome of one unit's attack: every face of every attack die at once."""
    ordered = [p for p in weapons if p.deadly > 1] + [p for p in weapons if p.deadly == 1]
    dice = [p for p in ordered for _ in range(p.dice)]
    memo: dict[tuple[tuple[AttackProfile, int], ...], dict[Result, Fraction]] = {}
    out: defaultdict[Result, Fraction] = defaultdict(Fraction)
    weight = SIXTH ** len(dice)
    for faces in product(FACES, repeat=len(dice)):
        hits: list[tuple[AttackProfile, int]] = []
        for p in ordered:  # keep weapons in order; within one weapon the order cannot matter
            mine = [
                ap
                for q, f in zip(dice, faces, strict=True)
                if q is p
                for ap in hits_of_face(p, s, d, f)
            ]
            hits.extend((p, ap) for ap in sorted(mine))
        key = tuple(hits)
        if key not in memo:
            memo[key] = settle(key, d, s, fear)
        for result, w in memo[key].items():
            out[result] += weight * w
    return out


def marginal(joint: dict[Result, Fraction], f: Callable[[Result], int]) -> dict[int, Fraction]:
    out: defaultdict[int, Fraction] = defaultdict(Fraction)
    for r, w in joint.items():
        out[f(r)] += w
    return {k: v for k, v in out.items() if v}


def as_dict(dist: Dist[int]) -> dict[int, Fraction]:
    return {k: v for k, v in dist.items() if v}


def assert_matches_brute_force(
    weapons: Sequence[AttackProfile], d: DefenderProfile, s: Situation, fear: int = 0
) -> None:
    joint = brute_force(weapons, d, s, fear)
    assert sum(joint.values()) == 1
    odds = attack_odds(weapons, d, s, D6_MECH, fear=fear)
    assert as_dict(odds.hits) == marginal(joint, lambda r: r[0])
    assert as_dict(odds.wounds) == marginal(joint, lambda r: r[1])
    assert as_dict(odds.casualties) == marginal(joint, lambda r: r[2])
    assert odds.p_destroyed == sum(w for r, w in joint.items() if r[3])
    assert odds.p_shaken == sum(w for r, w in joint.items() if r[4])


# --- named rule combinations ----------------------------------------------------------------


def weapon(
    dice: int = 2, quality: int = 4, melee: bool = False, **rules: Unpack[WeaponRules]
) -> AttackProfile:
    return AttackProfile(name="w", dice=dice, quality=quality, melee=melee, **rules)


SHOOT = Situation()
FAR = Situation(distance=12.0)
NEAR = Situation(distance=6.0)
COVER = Situation(distance=6.0, cover=True)
BLOCKERS = Situation(distance=6.0, cover=True, cover_from_blockers=True)
MOVED = Situation(distance=6.0, moved=True)
CHARGE = Situation(melee=True, charging=True)
MELEE = Situation(melee=True)
FATIGUED = Situation(melee=True, fatigued=True)
ONE = DefenderProfile(defense=4, models=1)
TOUGH3 = DefenderProfile(defense=4, models=1, tough=3)
SQUAD = DefenderProfile(defense=5, models=3)

CASES: dict[str, tuple[list[AttackProfile], DefenderProfile, Situation, int]] = {
    "plain": ([weapon(3)], ONE, SHOOT, 0),
    "ap": ([weapon(3, ap=2)], TOUGH3, SHOOT, 0),
    "bane": ([weapon(3, bane=True)], DefenderProfile(3, 1, regeneration=True), SHOOT, 0),
    "blast in cover": ([weapon(1, blast=3)], DefenderProfile(4, 2, near=2), COVER, 0),
    "deadly squad": ([weapon(3, deadly=3)], SQUAD, SHOOT, 0),
    "deadly tough": ([weapon(2, deadly=2)], DefenderProfile(4, 1, tough=3, markers=1), SHOOT, 0),
    "deadly then plain": ([weapon(1), weapon(2, deadly=2)], SQUAD, SHOOT, 0),
    "fear": ([weapon(3, melee=True)], TOUGH3, MELEE, 2),
    "fear shooting ignored": ([weapon(3)], TOUGH3, NEAR, 2),
    "furious charging": ([weapon(3, melee=True, furious=True)], SQUAD, CHARGE, 0),
    "furious not charging": ([weapon(3, melee=True, furious=True)], SQUAD, MELEE, 0),
    "fatigued": ([weapon(3, quality=2, melee=True)], ONE, FATIGUED, 0),
    "indirect moved": ([weapon(3, indirect=True)], ONE, MOVED, 0),
    "indirect blockers": ([weapon(3, indirect=True)], ONE, BLOCKERS, 0),
    "indirect terrain": ([weapon(3, indirect=True)], ONE, COVER, 0),
    "regeneration": ([weapon(3, deadly=2)], DefenderProfile(4, 2, regeneration=True), SHOOT, 0),
    "relentless far": ([weapon(3, relentless=True)], SQUAD, FAR, 0),
    "relentless near": ([weapon(3, relentless=True)], SQUAD, NEAR, 0),
    "reliable": ([weapon(3, quality=6, reliable=True)], ONE, SHOOT, 0),
    "rending regen": ([weapon(3, rending=True)], DefenderProfile(5, 1, regeneration=True), NEAR, 0),
    "stealth far": ([weapon(3)], DefenderProfile(4, 2, stealth=True), FAR, 0),
    "surge blast": ([weapon(2, surge=True, blast=2)], SQUAD, SHOOT, 0),
    "thrust charging": ([weapon(3, melee=True, thrust=True, ap=1)], ONE, CHARGE, 0),
    "unstoppable": (
        [weapon(3, quality=5, indirect=True, unstoppable=True)],
        DefenderProfile(4, 1, regeneration=True, stealth=True),
        Situation(distance=12.0, moved=True),
        0,
    ),
    "shaken defender": (
        [weapon(3)],
        DefenderProfile(4, 1, tough=2, markers=1, shaken=True),
        SHOOT,
        0,
    ),
    "cover": ([weapon(3)], ONE, COVER, 0),
    "cover in melee ignored": ([weapon(3, melee=True)], ONE, Situation(melee=True, cover=True), 0),
}


@pytest.mark.parametrize("name", list(CASES))
def test_exact_equals_brute_force(name: str) -> None:
    """seed 003 "Shooting", "Melee", "Wound Effects", "Groups & Wounds" and the special rules
    reference: exact odds equal enumerating every die face, per named rule combination."""
    weapons, d, s, fear = CASES[name]
    assert_matches_brute_force(weapons, d, s, fear)


# --- drawn combinations -----------------------------------------------------------------------


@st.composite
def small_attacks(
    draw: st.DrawFn,
) -> tuple[list[AttackProfile], DefenderProfile, Situation, int]:
    melee = draw(st.booleans())
    n_weapons = draw(st.integers(1, 2))
    weapons = []
    for i in range(n_weapons):
        weapons.append(
            AttackProfile(
                name=f"w{i}",
                dice=draw(st.integers(1, 3 - n_weapons + 1 if i == 0 else 1)),
                quality=draw(st.integers(2, 6)),
                melee=melee,
                ap=draw(st.integers(0, 3)),
                blast=draw(st.sampled_from([1, 1, 2, 3])),
                deadly=draw(st.sampled_from([1, 1, 2, 3])),
                bane=draw(st.booleans()),
                furious=draw(st.booleans()),
                indirect=draw(st.booleans()),
                relentless=draw(st.booleans()),
                reliable=draw(st.booleans()),
                rending=draw(st.booleans()),
                surge=draw(st.booleans()),
                thrust=draw(st.booleans()),
                unstoppable=draw(st.booleans()),
            )
        )
    models = draw(st.integers(1, 4))
    d = DefenderProfile(
        defense=draw(st.integers(2, 6)),
        models=models,
        tough=draw(st.integers(1, 3)),
        markers=draw(st.integers(0, 2)),
        shaken=draw(st.booleans()),
        regeneration=draw(st.booleans()),
        stealth=draw(st.booleans()),
        near=draw(st.one_of(st.none(), st.integers(1, models))),
    )
    s = Situation(
        melee=melee,
        charging=melee and draw(st.booleans()),
        distance=draw(st.sampled_from([6.0, 9.0, 12.0])),
        moved=draw(st.booleans()),
        cover=not melee and draw(st.booleans()),
        cover_from_blockers=draw(st.booleans()),
        fatigued=melee and draw(st.booleans()),
    )
    return weapons, d, s, draw(st.integers(0, 2))


def max_hits(weapons: Iterable[AttackProfile], d: DefenderProfile, s: Situation) -> int:
    return sum(p.dice * max(len(hits_of_face(p, s, d, f)) for f in FACES) for p in weapons)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(small_attacks())
def test_exact_equals_brute_force_drawn(
    case: tuple[list[AttackProfile], DefenderProfile, Situation, int],
) -> None:
    """seed 003, every rule that touches an attack, drawn together at random: exact odds equal
    the enumeration of every die face (up to 3 attack dice and 7 hits)."""
    weapons, d, s, fear = case
    assume(max_hits(weapons, d, s) <= 7)
    assert_matches_brute_force(weapons, d, s, fear)


# --- icepool ----------------------------------------------------------------------------------


def ice_hit_count(p: AttackProfile, s: Situation, d: DefenderProfile) -> icepool.Die[int]:
    return icepool.d6.map(lambda f: len(hits_of_face(p, s, d, f)))


def ice_wounds_of_hit(
    p: AttackProfile, s: Situation, d: DefenderProfile, ap: int
) -> icepool.Die[int]:
    """One hit's wounds as icepool dice: Defense die, Bane re-roll, Deadly, Regeneration."""
    regen = d.regeneration and not (p.bane or p.rending or p.unstoppable)
    stays = icepool.d6.map(lambda r: 0 if r >= 5 else 1)
    unsaved = (p.deadly @ stays) if regen else icepool.Die([p.deadly])

    def after(face: int) -> icepool.Die[int]:
        return icepool.Die([0]) if blocks(p, s, d, ap, face) else unsaved

    def defense(face: int) -> icepool.Die[int]:
        if p.bane and face == 6:
            return icepool.d6.map(after)
        return after(face)

    return icepool.d6.map(defense)


def ice_wounds_of_die(p: AttackProfile, s: Situation, d: DefenderProfile) -> icepool.Die[int]:
    def per_face(face: int) -> icepool.Die[int]:
        total = icepool.Die([0])
        for ap in hits_of_face(p, s, d, face):
            total = total + ice_wounds_of_hit(p, s, d, ap)
        return total

    return icepool.d6.map(per_face)


def ice_attack(
    weapons: Sequence[AttackProfile], d: DefenderProfile, s: Situation
) -> tuple[icepool.Die[int], icepool.Die[int]]:
    hits = icepool.Die([0])
    wounds = icepool.Die([0])
    for p in weapons:
        hits = hits + p.dice @ ice_hit_count(p, s, d)
        wounds = wounds + p.dice @ ice_wounds_of_die(p, s, d)
    return hits, wounds


def ice_dict(die: icepool.Die[int]) -> dict[int, Fraction]:
    return {k: Fraction(q, die.denominator()) for k, q in die.items() if q}


ICEPOOL_CASES = [
    "plain",
    "ap",
    "bane",
    "blast in cover",
    "deadly squad",
    "furious charging",
    "fatigued",
    "indirect moved",
    "indirect blockers",
    "regeneration",
    "relentless far",
    "reliable",
    "rending regen",
    "stealth far",
    "surge blast",
    "thrust charging",
    "unstoppable",
    "cover",
]


@pytest.mark.parametrize("name", ICEPOOL_CASES)
def test_exact_hits_and_wounds_equal_icepool(name: str) -> None:
    """seed 003 special rules reference: the hits and wounds pmfs equal icepool's, exactly."""
    weapons, d, s, _ = CASES[name]
    hits, wounds = ice_attack(weapons, d, s)
    odds = attack_odds(weapons, d, s, D6_MECH)
    assert as_dict(odds.hits) == ice_dict(hits)
    assert as_dict(odds.wounds) == ice_dict(wounds)


@pytest.mark.parametrize(
    ("weapons", "d"),
    [
        ([weapon(4, ap=1)], DefenderProfile(4, 1, tough=3)),
        ([weapon(3, deadly=3)], DefenderProfile(3, 1, tough=6, markers=2)),
        ([weapon(5, rending=True)], DefenderProfile(4, 1, tough=3, regeneration=True)),
        ([weapon(3, quality=3, surge=True)], DefenderProfile(5, 1, tough=2, shaken=True)),
    ],
)
def test_single_model_destroyed_equals_icepool(
    weapons: list[AttackProfile], d: DefenderProfile
) -> None:
    """seed 003 "Wound Effects" and Tough(X): a single model rolls die + markers once it has X
    markers, Knocked Out on 5+X (Shaken +1); P(destroyed) equals icepool's."""
    _, wounds = ice_attack(weapons, d, SHOOT)

    def knocked_out(w: int) -> icepool.Die[bool] | bool:
        markers = d.markers + w
        if w == 0 or markers < d.tough:
            return False
        return icepool.d6.map(lambda e: e + markers + int(d.shaken) >= 5 + d.tough)

    p_ko = wounds.map(knocked_out).probability(True)
    odds = attack_odds(weapons, d, SHOOT, D6_MECH)
    assert odds.p_destroyed == p_ko
    assert odds.p_shaken == 1 - p_ko - wounds.map(
        lambda w: w == 0 or d.markers + w < d.tough
    ).probability(True)
