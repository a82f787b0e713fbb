"""The float odds a WWPD commander weighs targets with (issue 13) against the exact odds
(seed 004_b5c87f7769291d1c "To Hit", "Allocation of Hits", "To Wound", "Cover and Defensive
Saves")."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oprlab.rules.wwpd import exact, fast
from oprlab.rules.wwpd.attack import Attack, Conditions, Volley
from oprlab.rules.wwpd.targets import Phase
from oprlab.units.profiles import WwpdModel
from tests.rules.wwpd.test_exact import CULTIST, SMALL_ATTACKS


@pytest.mark.parametrize("name", sorted(SMALL_ATTACKS))
def test_float_chances_are_the_exact_ones(name: str) -> None:
    """Each model's chance of removal equals the exact one to float precision."""
    attack = SMALL_ATTACKS[name]
    assert fast.removal_chances(attack) == pytest.approx(
        [float(p) for p in exact.removal_chances(attack)], abs=1e-12
    )


def test_no_dice_remove_nothing() -> None:
    assert fast.removal_chances(Attack((), (CULTIST,), (True,), (0,))) == (0.0,)


def test_attacks_that_allocate_alike_keep_their_own_odds() -> None:
    """The allocation memo is shared by attacks that differ only in dice and saves: each
    still gets its own chances (a cowering target saves more, a moved shooter hits less)."""
    attack = SMALL_ATTACKS["mixed target in soft cover"]
    cowering = replace(attack, conditions=replace(attack.conditions, target_cowering=True))
    worse = replace(attack, volleys=tuple(replace(v, to_hit=v.to_hit + 1) for v in attack.volleys))
    for a in (attack, cowering, worse, attack):
        assert fast.removal_chances(a) == pytest.approx(
            [float(p) for p in exact.removal_chances(a)], abs=1e-12
        )
    assert sum(fast.removal_chances(cowering)) < sum(fast.removal_chances(attack))
    assert sum(fast.removal_chances(worse)) < sum(fast.removal_chances(attack))


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(-1, 8), st.integers(0, 2), st.integers(0, 2),
                  st.integers(-1, 2)),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.booleans(), st.booleans(),
                       st.booleans()), min_size=1, max_size=4),
    st.sampled_from([Phase.SHOOTING, Phase.FIREFIGHT, Phase.MELEE]),
    st.booleans(),
)  # fmt: skip
def test_float_chances_match_exact_property(
    volleys: list[tuple[int, int, int, int, int]],
    models: list[tuple[int, int, bool, bool, bool]],
    phase: Phase,
    cover: bool,
) -> None:
    """Any small attack (models out of play, singled-out models, preferred types, cover)."""
    targets = tuple(WwpdModel("M", 2, 2, 4, toughness=t, armor=a, vehicle=v)
                    for t, a, v, _, _ in models)  # fmt: skip
    alive = tuple(a or i == 0 for i, (*_, a) in enumerate(models))
    first = tuple(f for *_, f, _ in models)
    attack = Attack(
        tuple(
            Volley("V", d, x, massive=m, ap=ap, anti_tank=ap, first=first,
                   singled_out=s if 0 <= s < len(targets) and alive[s] else None)
            for d, x, m, ap, s in volleys
        ),
        targets,
        alive,
        (0,) * len(targets),
        Conditions(phase, soft_cover=cover),
    )  # fmt: skip
    assert fast.removal_chances(attack) == pytest.approx(
        [float(p) for p in exact.removal_chances(attack)], abs=1e-12
    )
