"""The commanders' shared attack-estimate pieces: weapon selection and the identity memo."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from oprlab.game.state import UnitState
from oprlab.mechanics import get_mechanic
from oprlab.players import memo
from oprlab.players.memo import IdentityMemo, attack_weapons
from oprlab.players.rules import estimates
from oprlab.rules.gff.attack import LONG_RANGE, Situation
from oprlab.rules.gff.fast import attack_odds_fast
from oprlab.rules.gff.profile import attack_profiles, defender_profile
from oprlab.units.model import Weapon
from tests.game import army

TEXT = """++ Memo Test [GFF 100pts] ++

Mixed Squad [2] Q4+ D5+ | 50pts
2x Long Gun (24", A1), 2x Short Gun (12", A2), 2x Knife (A1)
"""


def _squad() -> UnitState:
    unit = army(TEXT).units[0]
    return UnitState(uid="A1", unit=unit, side=0, models=unit.size)


def test_attack_weapons_pick_by_range_melee_and_split() -> None:
    """seed 003 "Shooting": weapons in range fire; melee weapons strike in melee."""
    us = _squad()

    def names(ws: Sequence[Weapon]) -> list[str]:
        return [w.name for w in ws]

    assert names(attack_weapons(us, melee=False, distance=18.0)) == ["Long Gun"]
    assert names(attack_weapons(us, melee=False, distance=6.0)) == ["Long Gun", "Short Gun"]
    assert names(attack_weapons(us, melee=True, distance=0.0)) == ["Knife"]
    only = frozenset({"Short Gun"})
    assert names(attack_weapons(us, melee=False, distance=6.0, only=only)) == ["Short Gun"]
    skip = frozenset({"Short Gun"})
    assert names(attack_weapons(us, melee=False, distance=6.0, skip=skip)) == ["Long Gun"]


def _plain_weapons(
    us: UnitState, melee: bool, distance: float, only: frozenset[str] | None, skip: frozenset[str]
) -> tuple[Weapon, ...]:
    """:func:`attack_weapons` without its memo: the lines filtered afresh."""
    return tuple(
        w
        for w in us.unit.weapons
        if (w.melee if melee else (not w.melee and (w.range or 0) >= distance))
        and (w.name in only if only is not None else w.name not in skip)
    )


def test_attack_weapons_memo_gives_the_filters_answer_at_every_distance() -> None:
    """The memo keys a shot on the band of reaches its distance lies in: the same lines as the
    filter at every distance, a reach itself included (a 12" gun reaches 12": seed 003
    "Shooting"), asked in any order."""
    us = _squad()
    distances = [x / 4 for x in range(0, 120)]
    distances += [r + e for r in (12.0, 24.0) for e in (-1e-9, 0.0, 1e-9)]
    for only, skip in ((None, frozenset()), (frozenset({"Short Gun"}), frozenset())):
        for d in [*distances, *reversed(distances)]:
            for melee in (False, True):
                got = attack_weapons(us, melee=melee, distance=d, only=only, skip=skip)
                assert got == _plain_weapons(us, melee, d, only, skip), (d, melee, only)
    split = frozenset({"Long Gun"})
    assert attack_weapons(us, melee=False, distance=6.0, skip=split) == _plain_weapons(
        us, False, 6.0, None, split
    )


def test_identity_memo_computes_once_per_key_and_keeps_objects_alive() -> None:
    memo: IdentityMemo[float] = IdentityMemo(limit=2)
    calls: list[int] = []
    a, b = object(), object()

    def compute(v: float) -> float:
        calls.append(1)
        return v

    assert memo.get((a,), (1,), lambda: compute(1.0)) == 1.0
    assert memo.get((a,), (1,), lambda: compute(9.0)) == 1.0  # memoised
    assert memo.get((b,), (1,), lambda: compute(2.0)) == 2.0  # another object
    assert memo.get((a,), (2,), lambda: compute(3.0)) == 3.0  # another value; limit clears
    assert len(calls) == 3 and len(memo) == 1
    memo.clear()
    assert len(memo) == 0


def test_attack_memo_passes_the_attack_and_keys_on_what_it_depends_on() -> None:
    memo: IdentityMemo[float] = IdentityMemo()
    us, them = _squad(), _squad()
    weapons = attack_weapons(us, melee=True, distance=0.0)
    seen: list[tuple[object, ...]] = []

    def compute(*args: object) -> float:
        seen.append(args)
        return float(len(seen))

    assert memo.attack(compute, us, False, weapons, them, True, False) == 1.0
    assert memo.attack(compute, us, False, weapons, them, True, False) == 1.0
    assert seen == [(us.unit, 2, False, weapons, them.unit, 2, 0, False, True, False)]
    them.markers = 1  # a wounded target is another attack
    assert memo.attack(compute, us, False, weapons, them, True, False) == 2.0


def test_estimates_defender_and_situation_made_once_are_the_ones_asked() -> None:
    """The estimates' defender profiles are remembered by the unit's identity and its models,
    wound markers and Shaken (seed 003 "Tough", "Shaken"); their situations by what they hold:
    each is the one ``defender_profile`` or ``Situation`` would make, and a change gives its
    own."""
    unit = _squad().unit
    for models, markers, shaken in ((2, 0, False), (1, 0, False), (1, 1, False), (1, 1, True)):
        d = estimates._defender(unit, models, markers, shaken)
        assert d == defender_profile(unit, models=models, markers=markers, shaken=shaken)
        assert estimates._defender(unit, models, markers, shaken) is d
    other = army(TEXT.replace("D5+", "D3+")).units[0]
    assert estimates._defender(other, 2, 0, False).defense == 3
    far = estimates._situation(False, False, True, False, True)
    assert far == Situation(distance=LONG_RANGE + 1, cover=True)
    assert estimates._situation(True, True, False, True, False) == Situation(
        melee=True, charging=True, distance=0.0, fatigued=True
    )


def test_attack_odds_are_the_fast_odds_worked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``attack_odds`` (the rules commander's estimates and GFF's strike-back choice share it)
    gives the fast d6 odds' expected casualties, Shaken and destroyed chances, and works each
    attack out once: a second ask is answered without the odds."""
    squad = _squad()
    profiles = attack_profiles(squad.unit, squad.unit.weapons[:1], alive=2)
    target = defender_profile(squad.unit, models=2)
    s = Situation(distance=10.0)
    memo._ODDS.clear()
    odds = attack_odds_fast(profiles, target, s, get_mechanic("d6"))
    got = memo.attack_odds(profiles, target, s)
    casualties = sum(k * p for k, p in enumerate(odds.casualties))
    assert got == (casualties, odds.p_shaken, odds.p_destroyed) and got[0] > 0
    monkeypatch.setattr(memo, "attack_ends", None)  # asked again, it would fail
    assert memo.attack_odds(profiles, target, s) is got
