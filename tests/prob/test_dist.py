"""Exact distributions: checked against brute-force enumeration."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oprlab.prob import Dist, add, at_least, mean, pmf, repeat_sum

D6 = Dist.uniform(range(1, 7))


def test_uniform_die_sums_to_one() -> None:
    assert sum(p for _, p in D6.items()) == 1
    assert D6[3] == Fraction(1, 6)


def test_repeat_sum_matches_brute_force() -> None:
    brute: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=3):
        brute[sum(faces)] = brute.get(sum(faces), 0) + 1
    assert repeat_sum(D6, 3) == Dist(brute)


@given(st.integers(min_value=0, max_value=12), st.fractions(min_value=0, max_value=1))
def test_binomial_by_repeat_sum(n: int, p: Fraction) -> None:
    bern = Dist.from_pairs([(1, p), (0, 1 - p)])
    total = repeat_sum(bern, n)
    assert sum(pr for _, pr in total.items()) == 1
    assert mean(total) == n * p


def test_map_bind_and_probability() -> None:
    hit = D6.map(lambda x: int(x >= 4))
    assert hit[1] == Fraction(1, 2)
    two = hit.bind(lambda h: D6.map(lambda y: h + int(y >= 4)))
    assert two == add(hit, hit)
    assert two.probability(lambda x: x >= 1) == Fraction(3, 4)


def test_pmf_and_at_least() -> None:
    d = repeat_sum(D6.map(lambda x: int(x == 6)), 2)
    assert pmf(d) == [Fraction(25, 36), Fraction(10, 36), Fraction(1, 36)]
    assert at_least(d) == [1, Fraction(11, 36), Fraction(1, 36)]


def test_bad_weights_raise() -> None:
    with pytest.raises(ValueError):
        Dist({1: 0})
    with pytest.raises(ValueError):
        Dist({1: -1, 2: 2})


def test_repr_pastes_back() -> None:
    d = Dist({1: 1, 2: 3})
    assert eval(repr(d), {"Dist": Dist, "Fraction": Fraction}) == d
