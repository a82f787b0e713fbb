"""The rules commander's GFF attack estimate (players/rules/estimates.py ``expected_damage``)
memoised on the question as asked (issue 13): on random attacks of random unit states, every
answer, found or worked out, is the plain computation's (the weapons that reach, then the exact
odds), and a question that differs in anything the odds read is asked again."""

from __future__ import annotations

import random
from dataclasses import replace

from oprlab.game.state import UnitState
from oprlab.players.memo import attack_weapons
from oprlab.players.rules import estimates
from oprlab.players.rules.estimates import expected_damage
from oprlab.rules.gff.attack import LONG_RANGE
from oprlab.units.model import Unit
from tests.game import army

TEXT = """++ Memo Test [GFF 300pts] ++

Gunners [5] Q4+ D5+ | 60pts
5x Long Gun (30", A1), 5x Short Gun (12", A2, AP(1)), 5x Knife (A1)

Brutes [3] Q3+ D4+ | 90pts | Tough(3), Furious
3x Great Axe (A3, AP(1)), 1x Pistol (12", A1)

Hero [1] Q3+ D3+ | 70pts | Hero, Tough(6)
1x Blaster (18", A2, Blast(3), AP(2)), 1x Sword (A3, Deadly(3))
"""


#: Shot distances across the reaches' bands, at a reach itself and either side of long range (9").
DISTANCES = (3.0, 9.0, 12.0, 12.5, 18.0, 24.0, 30.0, 40.0)


def _plain(attacker: UnitState, target: UnitState, **kw: object) -> float:
    """The estimate without its memo: the weapons that reach, then the exact odds."""
    melee, distance, charging = bool(kw["melee"]), float(kw["distance"]), bool(kw["charging"])  # type: ignore[arg-type]
    only = kw.get("only")
    skip = kw.get("skip", frozenset())
    cover = bool(kw.get("cover", False))
    weapons = attack_weapons(attacker, melee=melee, distance=distance, only=only, skip=skip)  # type: ignore[arg-type]
    if not weapons or attacker.models <= 0 or target.models <= 0:
        return 0.0
    return estimates._expected(
        attacker.unit, attacker.models, attacker.fatigued and melee, weapons, target.unit,
        target.models, target.markers, target.shaken, melee, charging, distance > LONG_RANGE,
        cover and not melee,
    )  # fmt: skip


def _state(rng: random.Random, uid: str, side: int, units: list[Unit]) -> UnitState:
    unit = rng.choice(units)
    return UnitState(
        uid=uid,
        side=side,
        unit=unit,
        models=rng.randint(0, unit.size),
        markers=rng.randint(0, 3),
        shaken=rng.random() < 0.3,
        fatigued=rng.random() < 0.3,
    )


def test_every_answer_is_the_plain_computations() -> None:
    """Random attackers, targets and attacks (melee or shots at distances across the bands and
    long range, charging, cover, weapon types only or skipped), each asked again as it was and
    with one thing changed, in a shuffled order: every answer equals the plain computation's,
    bit for bit, and repeats are found."""
    rng = random.Random(13)
    units = list(army(TEXT).units)
    estimates._EXPECTED.clear()
    asks = []
    for i in range(400):
        melee = rng.random() < 0.4
        kw: dict[str, object] = {
            "melee": melee,
            "distance": 0.0
            if melee
            else rng.choice((3.0, 9.0, 12.0, 12.5, 18.0, 24.0, 30.0, 40.0)),
            "charging": melee and rng.random() < 0.5,
        }
        if rng.random() < 0.3:
            kw["cover"] = True
        if rng.random() < 0.2:
            kw["only"] = frozenset({rng.choice(("Long Gun", "Short Gun", "Blaster", "Pistol"))})
        elif rng.random() < 0.2:
            kw["skip"] = frozenset({rng.choice(("Long Gun", "Short Gun", "Blaster", "Pistol"))})
        asks.append((_state(rng, f"A{i}", 0, units), _state(rng, f"B{i}", 1, units), kw))
    near = []  # each ask again, and with one thing changed that the odds may read
    for a, t, kw in asks:
        near.append((replace(a), replace(t), dict(kw)))
        near.append((a, t, {**kw, "cover": not kw.get("cover", False)}))
        near.append((a, t, {**kw, "charging": not kw["charging"]}))
        near.append((replace(a, fatigued=not a.fatigued), t, kw))
        near.append((a, replace(t, markers=t.markers + 1, shaken=not t.shaken), kw))
    asks += near
    rng.shuffle(asks)
    for a, t, kw in asks:
        assert expected_damage(a, t, **kw) == _plain(a, t, **kw), (a, t, kw)  # type: ignore[arg-type]
    assert len(estimates._EXPECTED) < len(asks) * 0.9


def test_each_field_read_is_a_new_question() -> None:
    """Models, Fatigued (in melee), the target's models, markers and Shaken, charging, long
    range and cover are each a new question; a shot's distance within a band and the
    attacker's markers and Shaken (which the odds never read) are not."""
    gunners, brutes, _ = army(TEXT).units
    us = UnitState(uid="A1", side=0, unit=gunners, models=5)
    them = UnitState(uid="B1", side=1, unit=brutes, models=3)
    estimates._EXPECTED.clear()
    expected_damage(us, them, melee=False, distance=20.0, charging=False)
    expected_damage(us, them, melee=False, distance=25.0, charging=False)  # same band, far too
    expected_damage(
        replace(us, markers=1, shaken=True), them, melee=False, distance=20.0, charging=False
    )
    assert len(estimates._EXPECTED) == 1
    expected_damage(us, them, melee=False, distance=10.0, charging=False)  # another band
    expected_damage(us, them, melee=False, distance=20.0, charging=False, cover=True)
    expected_damage(replace(us, models=4), them, melee=False, distance=20.0, charging=False)
    for changed in (replace(them, models=2), replace(them, markers=1), replace(them, shaken=True)):
        expected_damage(us, changed, melee=False, distance=20.0, charging=False)
    assert len(estimates._EXPECTED) == 7
    expected_damage(us, them, melee=True, distance=0.0, charging=False)
    expected_damage(us, them, melee=True, distance=0.0, charging=False, cover=True)  # no cover
    expected_damage(us, them, melee=True, distance=0.0, charging=True)
    expected_damage(replace(us, fatigued=True), them, melee=True, distance=0.0, charging=False)
    expected_damage(replace(us, fatigued=True), them, melee=False, distance=20.0, charging=False)
    assert len(estimates._EXPECTED) == 10
