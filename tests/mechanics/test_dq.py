"""The ``dq`` mechanic: DragonQuest D100 success qualities (seed 001_7377b7b33dc9f88d)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest

from oprlab.errors import OptionError
from oprlab.mechanics import Check, get_mechanic
from oprlab.mechanics import Test as Kind
from oprlab.mechanics.dq import (
    MAX_CHANCE,
    ChanceRange,
    Dq,
    Rounding,
    current_result,
    current_result_dist,
    opposed_result_dist,
    quality_dist,
    success_quality,
    success_quality_table,
)
from oprlab.prob import Dist
from oprlab.rng import make_rng

SEED = "seed 001_7377b7b33dc9f88d"
DATA_57_4 = Path(__file__).resolve().parent.parent / "data" / "dq_57_4.txt"
ROLLS = range(1, 101)


def text_quality(roll: int, chance: int, bonus: int = 0) -> int:
    """Table 1 read literally with Fractions and math.ceil (an oracle independent of the code)."""
    if roll == 100:  # "Natural 00 is always quality 0"
        return 0
    r = roll - bonus
    levels = [
        chance,
        math.ceil(Fraction(40, 100) * chance),
        math.ceil(Fraction(20, 100) * chance),
        math.ceil(Fraction(10, 100) * chance),
    ]
    if chance > 100:
        levels.append(math.ceil(Fraction(10, 100) * (chance - 100)))
    if chance > 200:
        levels.append(math.ceil(Fraction(10, 100) * (chance - 200)))
    quality = 0
    for level, threshold in enumerate(levels, start=1):
        if r <= threshold:
            quality = level
    if roll == 1:  # "Natural 01 ... is always quality 4 or better"
        quality = max(4, quality)
    return quality


# --- Table 1 --------------------------------------------------------------------------------


def test_rounding_worked_example() -> None:
    """seed 001 "Core Mechanics": 10% of 21 = 2.1 = 3, so at 21% a roll of 3 or less is
    Decisive (4) and 4 is not."""
    assert success_quality(3, 21) == 4
    assert success_quality(4, 21) == 3  # 20% of 21 = 4.2 -> 5
    assert success_quality(5, 21) == 3
    assert success_quality(6, 21) == 2  # 40% of 21 = 8.4 -> 9
    assert success_quality(9, 21) == 2
    assert success_quality(10, 21) == 1
    assert success_quality(21, 21) == 1
    assert success_quality(22, 21) == 0
    assert quality_dist(21)[4] == Fraction(3, 100)


def test_table_1_matches_literal_reading() -> None:
    """seed 001 "Table 1": every roll 1..100 at every chance 0..400 against the text's oracle."""
    for chance in range(0, 401):
        for roll in ROLLS:
            assert success_quality(roll, chance) == text_quality(roll, chance), (roll, chance)


def test_natural_01_is_always_decisive_or_better() -> None:
    """seed 001 "Core Mechanics": natural 01 is always quality 4 or better, even at SC 0."""
    assert [success_quality(1, sc) for sc in (0, 1, 2, 4, 100, 101, 200, 201, 900)] == [
        4,
        4,
        4,
        4,
        4,
        5,
        5,
        6,
        6,
    ]
    assert success_quality(2, 0) == 0  # only the natural 01 succeeds at SC 0


def test_natural_00_is_always_poor() -> None:
    """seed 001 "Core Mechanics": natural 00 is always quality 0, whatever the chance or bonus."""
    assert success_quality(100, MAX_CHANCE) == 0
    assert success_quality(100, 500, roll_modifier=20) == 0
    assert success_quality(99, 500) == 3  # 99 <= ceil(20% of 500) = 100


def test_qualities_above_100_and_200() -> None:
    """seed 001 "Table 1": Excellent is 10% of (SC - 100), Fantastic 10% of (SC - 200)."""
    assert success_quality(5, 150) == 5  # ceil(5.0) = 5
    assert success_quality(6, 150) == 4  # Decisive: ceil(15.0) = 15
    assert success_quality(5, 250) == 6
    assert success_quality(6, 250) == 5  # ceil(15.0)
    assert success_quality(16, 250) == 4  # ceil(25.0)
    assert success_quality(1, 100) == 4  # SC 100 has no Excellent
    assert success_quality(1, 101) == 5  # ceil(0.1) = 1


def test_printed_01_row_option() -> None:
    """seed 001 "57.4 Success Quality Table", roll 1 row: SC 1 Average, 2 Better, 3-4 Crucial,
    5-100 Decisive, 101-200 Excellent, 201+ Fantastic (the text says 4 or better)."""
    row = [success_quality(1, sc, table_01_row=True) for sc in (1, 2, 3, 4, 5, 100, 101, 201)]
    assert row == [1, 2, 3, 3, 4, 4, 5, 6]
    assert [success_quality(1, sc) for sc in (1, 2, 3, 4)] == [4, 4, 4, 4]
    assert success_quality(1, 0, table_01_row=True) == 1  # our reading of SC 0
    # Only the natural 01 changes.
    assert success_quality(2, 3, table_01_row=True) == success_quality(2, 3) == 2


def test_roll_modifier_is_taken_off_the_roll() -> None:
    """seed 001 "Ranged": aiming's -5 dice roll modifier; a positive roll_modifier is a bonus."""
    assert success_quality(8, 21, roll_modifier=5) == 4  # 8 - 5 = 3 <= 3
    assert success_quality(8, 21) == 2
    assert success_quality(24, 21, roll_modifier=-5) == 0  # a penalty adds: 29 > 21
    assert success_quality(26, 21, roll_modifier=5) == 1  # 21 <= 21
    assert success_quality(100, 21, roll_modifier=5) == 0  # natural 00 is judged unmodified


def test_modified_roll_below_1_counts_as_its_value() -> None:
    """seed 001 "Core Mechanics" and "Table 1": a roll pushed below 1 still meets every threshold
    of 0 or more, but not Excellent at SC <= 100, which has no Excellent at all."""
    assert success_quality(2, 100, roll_modifier=5) == 4  # -3: Decisive, not Excellent
    assert success_quality(3, 0, roll_modifier=5) == 4  # -2 <= every threshold 0 of SC 0
    assert success_quality(6, 0, roll_modifier=5) == 0  # 1 > 0
    assert success_quality(2, 105, roll_modifier=5) == 5  # -3 <= ceil(0.5) = 1


def test_modifier_oracle_agrees() -> None:
    """seed 001 "Assassin": dice modifiers, all rolls and a spread of chances and bonuses."""
    for bonus in (-7, 5, 6, 20):
        for chance in range(0, 320, 7):
            for roll in ROLLS:
                got = success_quality(roll, chance, bonus)
                assert got == text_quality(roll, chance, bonus), (roll, chance, bonus)


@pytest.mark.parametrize(
    ("args", "where"),
    [
        ((0, 50, 0), "roll"),
        ((101, 50, 0), "roll"),
        ((5, -1, 0), "chance"),
        ((5, MAX_CHANCE + 1, 0), "chance"),
        ((5, 50, 101), "roll_modifier"),
        ((5, 50, -101), "roll_modifier"),
    ],
)
def test_bad_inputs_raise(args: tuple[int, int, int], where: str) -> None:
    """seed 001 "Table 1": rolls are D100 faces; chances are percentages 0..MAX_CHANCE."""
    with pytest.raises(OptionError, match=where) as info:
        success_quality(*args)
    assert info.value.expected is not None


# --- Exact distributions --------------------------------------------------------------------


@pytest.mark.parametrize("bonus", [0, 5, -3])
@pytest.mark.parametrize("chance", [0, 1, 21, 50, 99, 100, 101, 150, 250, 700])
def test_quality_dist_is_exact(chance: int, bonus: int) -> None:
    """seed 001 "Steps" 1-2: the quality of one roll, over the 100 faces, sums to 1."""
    dist = quality_dist(chance, bonus)
    assert sum(p for _, p in dist.items()) == 1
    brute: dict[int, int] = {}
    for roll in ROLLS:
        q = text_quality(roll, chance, bonus)
        brute[q] = brute.get(q, 0) + 1
    assert dist == Dist(brute)


@pytest.mark.parametrize(("sc", "defence"), [(50, 50), (150, 40), (30, 70), (260, 120)])
def test_opposed_result_matches_brute_force(sc: int, defence: int) -> None:
    """seed 001 "Steps" 3: Result Quality = Attack Quality - Defence Quality over 100x100 rolls;
    zero or less is Blocked."""
    brute: dict[int, int] = {}
    for a in ROLLS:
        qa = text_quality(a, sc)
        for d in ROLLS:
            r = max(0, qa - text_quality(d, defence))
            brute[r] = brute.get(r, 0) + 1
    assert opposed_result_dist(sc, defence) == Dist(brute)


# --- The mechanic ---------------------------------------------------------------------------


def test_registered_and_outcomes_match_table_1() -> None:
    """seed 001 "Steps" 1: the ``dq`` mechanic lists the 100 rolls, each graded by Table 1."""
    mech = get_mechanic("dq")
    assert isinstance(mech, Dq)
    dist = mech.outcomes(Check(Kind.STRIKE, target=63, modifier=5))
    assert len(dist) == 100
    assert sum(p for _, p in dist.items()) == 1
    for outcome, p in dist.items():
        assert p == Fraction(1, 100)
        assert outcome.quality == success_quality(outcome.natural, 63, 5)
        assert outcome.success == (outcome.quality >= 1)
        assert outcome.critical == (outcome.natural == 1)
    assert dist.map(lambda o: o.quality) == quality_dist(63, 5)
    assert mech.p_success(Check(Kind.DEFENCE, target=40)) == Fraction(40, 100)
    assert mech.p_success(Check(Kind.DEFENCE, target=0)) == Fraction(1, 100)


def test_table_01_row_option_reaches_the_mechanic() -> None:
    """seed 001 "57.4": the printed roll-1 row as a mechanic option."""
    mech = get_mechanic("dq", table_01_row=True)
    dist = mech.outcomes(Check(Kind.STRIKE, target=2))
    assert [o.quality for o, _ in dist.items() if o.natural == 1] == [2]


@pytest.mark.parametrize(
    "check",
    [
        Check(Kind.HIT, target=4),
        Check(Kind.STRIKE, target=-5),
        Check(Kind.STRIKE, target=50, modifier=-101),
        Check(Kind.STRIKE, target=50, replacements=(30,)),
    ],
)
def test_mechanic_rejects_bad_checks(check: Check) -> None:
    """seed 001 "Steps": a D100 check needs a chance in percent and nothing OPR-only."""
    with pytest.raises(OptionError):
        Dq().outcomes(check)
    with pytest.raises(OptionError):
        Dq().sample(check, None, make_rng(1).rng)


def test_sample_agrees_with_outcomes() -> None:
    """seed 001 "Steps" 1: 40,000 seeded draws at SC 130 with a bonus of 5; each quality's
    frequency is within 4.5 standard errors of its exact probability."""
    mech = Dq()
    check = Check(Kind.STRIKE, target=130, modifier=5)
    rng = make_rng(2024).rng
    n = 40_000
    counts: dict[int, int] = {}
    for _ in range(n):
        q = mech.sample(check, None, rng).quality
        counts[q] = counts.get(q, 0) + 1
    exact = quality_dist(130, 5)
    assert set(counts) <= set(exact.support)
    for q, p in exact.items():
        se = math.sqrt(float(p * (1 - p)) / n)
        assert abs(counts.get(q, 0) / n - float(p)) <= 4.5 * se, q


# --- The 57.4 Success Quality Table ---------------------------------------------------------


def parse_57_4(text: str) -> dict[tuple[int, int], ChanceRange | None]:
    """Read the seed's two-block layout: roll, qualities 1-6, roll + 50, qualities 1-3."""
    cells: dict[tuple[int, int], ChanceRange | None] = {}

    def cell(token: str) -> ChanceRange | None:
        if token == "-":
            return None
        if token.endswith("+"):
            return ChanceRange(int(token[:-1]), None)
        low, _, high = token.partition("-")
        return ChanceRange(int(low), int(high or low))

    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tokens = line.split()
        assert len(tokens) == 11, line
        left, right = int(tokens[0]), int(tokens[7])
        assert right == left + 50, line
        for quality in range(1, 7):
            cells[left, quality] = cell(tokens[quality])
        for quality in range(1, 4):
            cells[right, quality] = cell(tokens[7 + quality])
    return cells


def mismatches(
    printed: dict[tuple[int, int], ChanceRange | None],
    generated: dict[tuple[int, int], ChanceRange | None],
) -> dict[tuple[int, int], tuple[str, str]]:
    def show(c: ChanceRange | None) -> str:
        return "-" if c is None else str(c)

    return {k: (show(v), show(generated[k])) for k, v in printed.items() if v != generated[k]}


def test_57_4_printed_table_parses_whole() -> None:
    """seed 001 "57.4 Success Quality Table": 100 rolls; 1-50 x 6 qualities, 51-100 x 3."""
    printed = parse_57_4(DATA_57_4.read_text())
    assert len(printed) == 50 * 6 + 50 * 3
    assert printed[1, 6] == ChanceRange(201, None)
    assert printed[50, 3] == ChanceRange(246, 490)


def test_57_4_matches_formulas_except_roll_01() -> None:
    """seed 001 "57.4 Success Quality Table" against Table 1 and "Natural 01 is always quality 4
    or better": every cell matches but roll 1's Average, Better, Crucial and Decisive."""
    printed = parse_57_4(DATA_57_4.read_text())
    diff = mismatches(printed, success_quality_table())
    assert diff == {
        (1, 1): ("1", "-"),
        (1, 2): ("2", "-"),
        (1, 3): ("3-4", "-"),
        (1, 4): ("5-100", "1-100"),
    }


def test_57_4_matches_with_printed_01_row() -> None:
    """seed 001 "57.4 Success Quality Table": with table_01_row every one of 450 cells matches."""
    printed = parse_57_4(DATA_57_4.read_text())
    assert mismatches(printed, success_quality_table(table_01_row=True)) == {}


def test_chance_range_prints_like_the_table() -> None:
    """seed 001 "57.4": cells read "3-4", "1" and "201+"."""
    assert [str(ChanceRange(3, 4)), str(ChanceRange(1, 1)), str(ChanceRange(201, None))] == [
        "3-4",
        "1",
        "201+",
    ]


# --- The current subtractive rules ----------------------------------------------------------


def test_current_rules_bands() -> None:
    """seed 001 "Intent" (current rules: Failure, Fatigue Hit, Endurance Hit, Possible Spec Grev;
    "Changes from 5 and 15%"): SC 70 - Def 30 = 40; 15% = 6, 5% = 2."""
    got = [current_result(r, 70, 30) for r in (1, 2, 3, 6, 7, 40, 41, 100)]
    assert got == [4, 4, 3, 3, 1, 1, 0, 0]


def test_current_rules_rounding_options() -> None:
    """seed 001 "Intent" current 5/15%: at adjusted 29, 5% = 1.45 and 15% = 4.35."""
    up = [current_result(r, 29, 0) for r in (2, 3, 5, 6)]
    nearest = [current_result(r, 29, 0, rounding="nearest") for r in (1, 2, 4, 5)]
    down = [current_result(r, 30, 0, rounding="down") for r in (1, 2, 4, 5)]
    assert up == [4, 3, 3, 1]
    assert nearest == [4, 3, 3, 1]
    assert down == [4, 3, 3, 1]  # 1.5 -> 1, 4.5 -> 4
    assert current_result(2, 30, 0, rounding="nearest") == 4  # 1.5 -> 2
    with pytest.raises(OptionError, match="rounding"):
        current_result(2, 30, 0, rounding="sideways")  # type: ignore[arg-type]


def test_current_rules_naturals_and_aiming() -> None:
    """seed 001 "Intent" 4-5 (a natural 00 misses, a natural 01 hits under the current rules)
    and "Ranged" (current aiming: 5% extra EN and SG chance)."""
    assert current_result(1, 20, 80) == 4  # judged at chance 1: ceil(5% of 1) = 1
    assert current_result(1, 20, 80, rounding="nearest") == 1
    assert current_result(100, 300, 0) == 0
    assert [current_result(r, 40, 0, extra_percent=5) for r in (4, 5, 8, 9)] == [4, 3, 3, 1]


@pytest.mark.parametrize("rounding", ["up", "nearest", "down"])
@pytest.mark.parametrize(("sc", "defence"), [(70, 30), (40, 60), (250, 20), (50, 50)])
def test_current_result_dist_matches_rolls(sc: int, defence: int, rounding: Rounding) -> None:
    """seed 001 "Intent": the current rules' result over the 100 rolls, exact."""
    brute = Dist.uniform(current_result(r, sc, defence, rounding=rounding) for r in ROLLS)
    assert current_result_dist(sc, defence, rounding=rounding) == brute
    assert set(brute.support) <= {0, 1, 3, 4}


# --- The playtest's own "Why?" claims, in numbers -------------------------------------------


def test_why_can_miss_with_chance_100_above_defence() -> None:
    """seed 001 "Intent" Why? 4: an attacker can miss even with SC 100 more than the Defence,
    and not just on a natural 00 (current rules: only the 00)."""
    assert success_quality(50, 150) - success_quality(5, 50) <= 0  # Better vs Decisive
    for sc, defence in [(150, 50), (120, 20), (200, 100)]:
        assert opposed_result_dist(sc, defence)[0] > Fraction(1, 100)
        assert current_result_dist(sc, defence)[0] == Fraction(1, 100)


def test_why_can_hit_a_defence_above_the_chance() -> None:
    """seed 001 "Intent" Why? 5: an attacker can hit a Defence greater than their SC, and not
    just on a natural 01 (current rules: only the 01)."""
    assert success_quality(5, 30) - success_quality(60, 50) == 3  # Crucial vs Poor, no 01
    for sc, defence in [(30, 50), (20, 60), (40, 45)]:
        assert 1 - opposed_result_dist(sc, defence)[0] > Fraction(1, 100)
        assert 1 - current_result_dist(sc, defence)[0] == Fraction(1, 100)


def test_why_fewer_blocks_at_equal_chances() -> None:
    """seed 001 "Intent": fewer Blocked results than the current rules when SC equals Defence
    (current: SC - Def = 0, so only a natural 01 hits)."""
    for chance in range(10, 201, 10):
        assert opposed_result_dist(chance, chance)[0] < current_result_dist(chance, chance)[0]


def opposed(attack: Dist[int], guard: Dist[int]) -> Dist[int]:
    """Result quality from two quality distributions, without the code under test."""
    return attack.bind(lambda a: guard.map(lambda d: max(0, a - d)))


def test_why_the_better_level_helps_low_chances() -> None:
    """seed 001 "Intent", the added quality between Average and Crucial, Why? 1-2: against the
    same rolls without a Better level (Better read as Average), low-SC attackers hit a higher
    Defence more often and fewer strikes are blocked."""
    merge = {0: 0, 1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}
    for sc, defence in [(30, 70), (40, 60), (60, 60)]:
        attack, guard = quality_dist(sc), quality_dist(defence)
        without = opposed(attack.map(merge.__getitem__), guard.map(merge.__getitem__))
        assert opposed(attack, guard) == opposed_result_dist(sc, defence)
        assert opposed_result_dist(sc, defence)[0] < without[0]


def test_why_levels_above_100_and_200_reduce_misses() -> None:
    """seed 001 "Intent", qualities above 100 and 200, Why? 1: high-SC attackers are blocked
    less often than if their quality stopped at Decisive."""
    for sc, defence in [(250, 40), (180, 30)]:
        attack, guard = quality_dist(sc), quality_dist(defence)
        capped = opposed(attack.map(lambda q: min(q, 4)), guard)
        assert opposed_result_dist(sc, defence)[0] < capped[0]
