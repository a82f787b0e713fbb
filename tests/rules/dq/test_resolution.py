"""One strike resolved by the playtest's opposed rolls or by the current subtraction (seed
001_7377b7b33dc9f88d), the evading parry's trigger under each, the ladders that take one change
of the playtest away, the fumble trigger and the duel's rule options."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from oprlab.errors import OptionError
from oprlab.mechanics.dq import current_result
from oprlab.rules.dq.duel_rules import DuelRules, parse_duel_rules
from oprlab.rules.dq.resolution import (
    attack_outcome,
    current_may_parry,
    is_fumble,
    land_and_parry,
    strike_outcome_dist,
    without_better,
    without_high,
)
from oprlab.rules.dq.standins import FumbleResult, fumble_result, grievous_happens


def quality(roll: int, chance: int, bonus: int = 0) -> int:
    """Table 1 read from the text with math.ceil (independent of the code)."""
    if roll == 100:
        return 0
    r = roll - bonus
    levels = [chance, math.ceil(chance * 0.4), math.ceil(chance * 0.2), math.ceil(chance * 0.1)]
    levels += [math.ceil((chance - 100) * 0.1)] if chance > 100 else []
    levels += [math.ceil((chance - 200) * 0.1)] if chance > 200 else []
    q = sum(1 for t in levels if r <= t)
    return max(q, 4) if roll == 1 else q


def current(roll: int, sc: int, d: int) -> int:
    """The current rules as docs/rules/dq.md reads them, by hand."""
    adjusted = sc - d
    if roll == 100:
        return 0
    if roll == 1:
        adjusted = max(adjusted, 1)
    elif roll > adjusted:
        return 0
    if roll <= math.ceil(adjusted * 5 / 100):
        return 4
    return 3 if roll <= math.ceil(adjusted * 15 / 100) else 1


@pytest.mark.parametrize(
    ("sc", "d", "bonus"), [(62, 27, 0), (89, 12, 3), (118, 73, 0), (204, 28, 0)]
)
def test_opposed_strike_matches_brute_force(sc: int, d: int, bonus: int) -> None:
    """seed 001 "Steps" 1-3 and "Evading": both roll D100; result = max(0, attack - defence
    quality); an evader may parry when its quality is 2 or more better. All 10,000 pairs."""
    counts: dict[tuple[int, bool], int] = {}
    for r1 in range(1, 101):
        a = quality(r1, sc, bonus)
        for r2 in range(1, 101):
            g = quality(r2, d)
            key = (max(0, a - g), g - a >= 2)
            counts[key] = counts.get(key, 0) + 1
    dist = strike_outcome_dist(sc, d, resolution="opposed", evading=True, roll_modifier=bonus)
    assert dict(dist.items()) == {k: Fraction(n, 10000) for k, n in counts.items()}
    not_evading = strike_outcome_dist(sc, d, resolution="opposed", roll_modifier=bonus)
    assert not_evading.probability(lambda lp: lp[1]) == 0


@pytest.mark.parametrize(("sc", "d"), [(62, 27), (89, 12), (62, 73), (50, 0)])
def test_current_strike_matches_brute_force(sc: int, d: int) -> None:
    """The current rules: one D100 against SC - Defence; an evader may parry a roll that misses
    by 30 or more ("the current miss by 30%")."""
    counts: dict[tuple[int, bool], int] = {}
    for r in range(1, 101):
        key = (current(r, sc, d), r - (sc - d) >= 30)
        counts[key] = counts.get(key, 0) + 1
    dist = strike_outcome_dist(sc, d, resolution="current", evading=True)
    assert dict(dist.items()) == {k: Fraction(n, 100) for k, n in counts.items()}


def test_current_parry_margin_by_hand() -> None:
    """SC 62 against an evading Defence of 73: the adjusted chance is -11, so any roll of 19 or
    more misses by 30: 82 rolls in 100."""
    assert [current_may_parry(r, 62, 73) for r in (18, 19)] == [False, True]
    assert land_and_parry(62, 73, resolution="current", evading=True)[1] == Fraction(82, 100)


def test_attack_outcome_shapes() -> None:
    """Opposed: the attack roll gives a quality and never a parry on its own; current: the
    level and the parry together."""
    assert attack_outcome(5, 62, 27, resolution="opposed") == (quality(5, 62), False)
    assert attack_outcome(90, 62, 73, resolution="current") == (0, True)
    # 62 - 27 = 35: 5% is 2 (rounded up), 15% is 6.
    assert attack_outcome(2, 62, 27, resolution="current") == (4, False)
    assert attack_outcome(3, 62, 27, resolution="current") == (3, False)


def test_ladders() -> None:
    """The playtest without its added quality (Better merged into Average) and without the
    qualities above 100 and 200 (capped at Decisive)."""
    assert [without_better(q) for q in range(7)] == [0, 1, 1, 2, 3, 4, 5]
    assert [without_high(q) for q in range(7)] == [0, 1, 2, 3, 4, 4, 4]
    full = land_and_parry(20, 80, resolution="opposed")[0]
    assert land_and_parry(20, 80, resolution="opposed", ladder="no_better")[0] <= full


def test_current_assassin_widens_the_grievous_band() -> None:
    """The current rules' assassin: the bonus is added to the 5% band. SC 89 vs 28: 61 adjusted;
    5% is 4 (rounded up), with 3 more points 8% is 5."""
    assert [current_result(r, 89, 28) for r in (4, 5)] == [4, 3]
    assert [current_result(r, 89, 28, grievous_percent=3) for r in (5, 6)] == [4, 3]
    with pytest.raises(OptionError):
        current_result(5, 89, 28, grievous_percent=-1)


def test_fumble_trigger_and_table() -> None:
    """Stand-ins (docs/rules/dq.md): a fumble is a natural 00 on the attack roll; the Fumble
    Table is one D10: 1-5 off balance, 6-8 drops the weapon, 9-10 falls."""
    assert is_fumble(100) and not is_fumble(99)
    got = [fumble_result(d) for d in range(1, 11)]
    assert (
        got
        == [FumbleResult.OFF_BALANCE] * 5
        + [FumbleResult.DROPS_WEAPON] * 3
        + [FumbleResult.FALLS] * 2
    )


def test_grievous_stand_in() -> None:
    """Stand-in: a possible specific grievous happens on a D10 of 6 or more."""
    assert [grievous_happens(d) for d in (5, 6)] == [False, True]


def test_duel_rules_options() -> None:
    """Readings as KEY=VALUE, each checked; the ladder belongs to the playtest only."""
    rules = parse_duel_rules(["stun=off", "max-rounds=7", "table_01_row=yes"], resolution="current")
    assert rules == DuelRules(resolution="current", stun="off", max_rounds=7, table_01_row=True)
    for bad, fragment in [
        (["stun"], "KEY=VALUE"),
        (["speed=1"], "unknown dq rule option"),
        (["stun=maybe"], "value not allowed"),
        (["max_rounds=ten"], "whole number"),
        (["max_rounds=0"], "out of range"),
        (["table_01_row=perhaps"], "yes/no"),
        (["stun=off", "stun=off"], "twice"),
        (["resolution=current"], "unknown dq rule option"),
    ]:
        with pytest.raises(OptionError, match=fragment):
            parse_duel_rules(bad)
    with pytest.raises(OptionError, match="ladder"):
        parse_duel_rules(["ladder=no_better"], resolution="current")
    with pytest.raises(OptionError, match="value not allowed"):
        DuelRules(resolution="sideways")  # type: ignore[arg-type]
