"""The error family and the RNG policy."""

import pytest

from oprlab.errors import OptionError, UserError, check_range
from oprlab.rng import make_rng, spawn


def test_user_error_is_value_error_and_names_value() -> None:
    with pytest.raises(ValueError, match=r"target out of range \(got 9\); expected an integer"):
        check_range("target", 9, 2, 6)
    err = UserError("bad", value="x", expected="y", where="army.txt:3")
    assert str(err) == "army.txt:3: bad (got 'x'); expected y"
    assert isinstance(OptionError("o"), UserError)


def test_same_seed_same_stream() -> None:
    a, b = make_rng(42), make_rng(42)
    assert a.seed == 42
    assert (a.rng.integers(1, 7, 100) == b.rng.integers(1, 7, 100)).all()


def test_unseeded_records_its_seed() -> None:
    s = make_rng()
    again = make_rng(s.seed)
    assert (s.rng.integers(0, 10**9, 5) == again.rng.integers(0, 10**9, 5)).all()


def test_bad_seed_and_spawn() -> None:
    with pytest.raises(OptionError):
        make_rng(-1)
    kids = spawn(7, 3)
    assert len(set(kids)) == 3 and kids == spawn(7, 3)
