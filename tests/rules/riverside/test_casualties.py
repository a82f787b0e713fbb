"""Remove Casualties (seed 002_fdb385c07cc953af "Remove Casualties"): the order of models, the
Tough limit, the joined Hero last, wounds carried from one attack to the next."""

from __future__ import annotations

from typing import Unpack

from hypothesis import given
from hypothesis import strategies as st

from oprlab.rules.riverside.casualties import (
    after_attack,
    assign_deadly,
    capacity,
    casualties_at,
    remove_casualties,
    wound_track,
)
from oprlab.rules.riverside.profile import DefenderProfile, HeroProfile
from tests.rules.riverside import DefenderState


def unit(models: int, **state: Unpack[DefenderState]) -> DefenderProfile:
    return DefenderProfile(defense=4, models=models, quality=4, **state)


def test_non_tough_models_take_one_wound_each() -> None:
    """seed 002 "Remove Casualties": a model may not be assigned more than 1 wound."""
    c = remove_casualties(unit(5), 3)
    assert (c.removed, c.models, c.wounds) == (3, 2, 0)


def test_tough_model_takes_up_to_tough_wounds() -> None:
    """seed 002 "Remove Casualties": with Tough, at most its Tough value; at its maximum it is
    removed as a Casualty."""
    c = remove_casualties(unit(3, tough=3), 4)
    assert (c.removed, c.models, c.wounds) == (1, 2, 1)


def test_tough_models_with_wounds_before_those_without() -> None:
    """seed 002 "Remove Casualties": 2. Tough Units with Wounds before 3. Tough Units without."""
    assert wound_track(unit(3, tough=3, wounds=2)) == (1, 3, 3)
    c = remove_casualties(unit(3, tough=3, wounds=2), 1)
    assert (c.removed, c.models, c.wounds) == (1, 2, 0)


def test_hero_takes_wounds_last() -> None:
    """seed 002 "Remove Casualties": 4. Hero Units come last, after every other model."""
    d = unit(2, hero=HeroProfile(tough=3))
    assert wound_track(d) == (1, 1, 3)
    c = remove_casualties(d, 3)
    assert (c.removed, c.models, c.hero, c.hero_wounds) == (2, 0, True, 1)
    c = remove_casualties(d, 5)
    assert (c.removed, c.hero, c.destroyed) == (3, False, True)


def test_tough_unit_with_wounded_hero() -> None:
    """seed 002 "Remove Casualties": a wounded Hero still comes after unwounded Tough models."""
    d = unit(2, tough=2, hero=HeroProfile(tough=3, wounds=1))
    assert wound_track(d) == (2, 2, 2)
    c = remove_casualties(d, 5)
    assert (c.removed, c.models, c.hero_wounds) == (2, 0, 2)


def test_wounds_carry_to_the_next_attack() -> None:
    """seed 002 "Remove Casualties": wounds stay on the wounded Tough model between attacks."""
    d = unit(3, tough=3)
    first = after_attack(d, remove_casualties(d, 2))
    assert first is not None and (first.models, first.wounds, first.started) == (3, 2, 3)
    second = after_attack(first, remove_casualties(first, 2))
    assert second is not None and (second.models, second.wounds) == (2, 1)


def test_after_attack_shaken_and_destroyed() -> None:
    d = unit(2, hero=HeroProfile(tough=2))
    c = remove_casualties(d, 3)
    nxt = after_attack(d, c, shaken=True)
    assert nxt is not None and nxt.models == 0 and nxt.hero == HeroProfile(tough=2, wounds=1)
    assert nxt.shaken and nxt.start_size == 3
    assert after_attack(d, remove_casualties(d, 9)) is None


def test_deadly_wounds_do_not_carry_over() -> None:
    """Deadly(X) (not in seed 002; read as in GFF): X wounds on one model, no carry-over,
    assigned after the ordinary wounds (the defending player's choice)."""
    d = unit(2, tough=3)
    c = remove_casualties(d, 2, [3])
    assert (c.removed, c.models, c.wounds) == (1, 1, 0)  # 3 on the model with 2: one lost
    c = remove_casualties(unit(5), 0, [3, 3])
    assert c.removed == 2  # non-tough: each packet removes one model
    assert assign_deadly(unit(1), 1, [3]) == 1  # nothing left to take it


def test_too_many_wounds_destroy_the_unit() -> None:
    c = remove_casualties(unit(2, tough=2), 10)
    assert c.destroyed and c.consumed == capacity(unit(2, tough=2)) == 4


@st.composite
def defenders(draw: st.DrawFn) -> DefenderProfile:
    tough = draw(st.integers(1, 4))
    models = draw(st.integers(0, 6))
    wounds = draw(st.integers(0, tough - 1)) if models else 0
    hero = None
    if draw(st.booleans()) or models == 0:
        h = draw(st.integers(1, 4))
        hero = HeroProfile(tough=h, wounds=draw(st.integers(0, h - 1)))
    return unit(models, tough=tough, wounds=wounds, hero=hero)


@given(defenders(), st.integers(0, 30), st.lists(st.integers(0, 6), max_size=4))
def test_casualty_invariants(d: DefenderProfile, wounds: int, packets: list[int]) -> None:
    """No negative wounds, no model over its Tough value, and wounds remove models in order."""
    c = remove_casualties(d, wounds, packets)
    assert 0 <= c.consumed <= capacity(d)
    assert 0 <= c.removed <= d.size and c.left == d.size - c.removed
    assert 0 <= c.wounds < d.tough or c.models == 0
    if d.hero is not None and c.hero:
        assert 0 <= c.hero_wounds < d.hero.tough
        assert c.models == 0 or c.hero_wounds == d.hero.wounds  # hero only after the rest
    if not packets:
        assert c.consumed == min(wounds, capacity(d))
    nxt = after_attack(d, c)
    if nxt is not None:
        assert capacity(nxt) == capacity(d) - c.consumed
        assert casualties_at(nxt, 0).removed == 0
